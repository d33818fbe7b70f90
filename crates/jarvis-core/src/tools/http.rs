//! `http_request`: GET/POST/PUT/DELETE over http or https, with a size cap.

use std::time::Duration;

use async_trait::async_trait;
use futures_util::StreamExt;
use serde_json::{Value, json};

use super::{Capability, Tool, ToolContext, ToolError, ToolOutput, arg_opt_u64, arg_str};
use crate::policy::Verdict;

pub struct HttpRequestTool {
    pub max_body: usize,
    pub default_timeout: Duration,
}

impl Default for HttpRequestTool {
    fn default() -> Self {
        HttpRequestTool {
            max_body: 1024 * 1024,
            default_timeout: Duration::from_secs(30),
        }
    }
}

const METHODS: &[&str] = &["GET", "HEAD", "POST", "PUT", "DELETE"];

fn method(args: &Value) -> Result<String, ToolError> {
    let method = args
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("GET")
        .to_ascii_uppercase();
    if !METHODS.contains(&method.as_str()) {
        return Err(ToolError::InvalidArgs(format!(
            "method {method} is not one of {METHODS:?}"
        )));
    }
    Ok(method)
}

fn parse(args: &Value) -> Result<(String, reqwest::Url), ToolError> {
    let method = method(args)?;
    let raw = arg_str(args, "url")?;
    let url = reqwest::Url::parse(raw)
        .map_err(|e| ToolError::InvalidArgs(format!("url {raw:?}: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(ToolError::InvalidArgs(format!(
            "only http and https URLs are allowed, not {}:",
            url.scheme()
        )));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(ToolError::InvalidArgs(
            "credentials in the URL are not allowed".into(),
        ));
    }
    Ok((method, url))
}

#[async_trait]
impl Tool for HttpRequestTool {
    fn name(&self) -> &str {
        "http_request"
    }
    fn description(&self) -> &str {
        "Make an HTTP request (GET, HEAD, POST, PUT, DELETE) to an http(s) URL. Returns status, headers and up to 1 MiB of body. Up to 5 redirects are followed, each checked like the first request."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "method": {"type": "string", "enum": METHODS},
            "url": {"type": "string"},
            "headers": {"type": "object", "additionalProperties": {"type": "string"}},
            "body": {"type": "string"},
            "timeout_sec": {"type": "integer", "minimum": 1, "maximum": 120}},
            "required": ["url"], "additionalProperties": false})
    }
    fn capabilities(&self, args: &Value, _ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        // The URL is judged by the policy (scheme, host, addresses), not here,
        // so a `file:` URL is a refusal the user sees, not a typo.
        Ok(vec![Capability::Network {
            method: method(args)?,
            url: arg_str(args, "url")?.to_string(),
            addrs: vec![],
        }])
    }
    fn timeout(&self, args: &Value) -> Duration {
        match arg_opt_u64(args, "timeout_sec") {
            Ok(Some(s)) if s > 0 => Duration::from_secs(s.min(120)),
            _ => self.default_timeout,
        }
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let (mut method, mut url) = parse(&args)?;
        let mut body = args.get("body").and_then(Value::as_str).map(str::to_string);
        let mut headers: Vec<(String, String)> = Vec::new();
        if let Some(h) = args.get("headers").and_then(Value::as_object) {
            for (k, v) in h {
                let v = v.as_str().ok_or_else(|| {
                    ToolError::InvalidArgs(format!("header {k} must be a string"))
                })?;
                headers.push((k.clone(), v.to_string()));
            }
        }
        let approved_origin = url.origin();
        let mut pins = ctx.pinned.clone();
        let timeout = self.timeout(&args);
        let mut hops = 0;
        let resp = loop {
            let resp = send(&method, &url, &headers, body.as_deref(), &pins, timeout).await?;
            let status = resp.status().as_u16();
            let location = resp
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|l| l.to_str().ok())
                .map(str::to_string);
            let Some(location) = location.filter(|_| matches!(status, 301 | 302 | 303 | 307 | 308))
            else {
                break resp;
            };
            hops += 1;
            if hops > MAX_REDIRECTS {
                return Err(ToolError::Failed(format!(
                    "more than {MAX_REDIRECTS} redirects"
                )));
            }
            let next = url.join(&location).map_err(|e| {
                ToolError::Failed(format!("bad redirect location {location:?}: {e}"))
            })?;
            // Every hop passes the same checks as the first request.
            let (target, dec) = crate::policy::url::check_static(next.as_str())
                .map_err(|d| ToolError::Refused(format!("redirect to {next}: {}", d.reason)))?;
            let mut dec = dec;
            pins.clear();
            if let Some(domain) = target
                .domain
                .as_deref()
                .filter(|d| *d != "localhost" && !d.ends_with(".localhost"))
            {
                let addrs = ctx
                    .resolver
                    .lookup(domain, target.port)
                    .await
                    .map_err(|e| {
                        ToolError::Failed(format!(
                            "redirect to {next}: cannot resolve {domain}: {e}"
                        ))
                    })?;
                dec = crate::policy::url::check_resolved(&target, &dec, &addrs);
                pins.push((
                    domain.to_string(),
                    addrs
                        .iter()
                        .map(|ip| std::net::SocketAddr::new(*ip, target.port))
                        .collect(),
                ));
            }
            match dec.verdict {
                Verdict::Block => {
                    return Err(ToolError::Refused(format!(
                        "redirect to {next}: {}",
                        dec.reason
                    )));
                }
                Verdict::Ask if next.origin() != approved_origin => {
                    return Err(ToolError::Refused(format!(
                        "redirect to {next} needs approval ({}); request that URL directly",
                        dec.reason
                    )));
                }
                _ => {}
            }
            if status == 303 || (matches!(status, 301 | 302) && method != "GET") {
                method = "GET".into();
                body = None;
            }
            url = next;
        };
        let status = resp.status();
        let resp_headers: Vec<String> = resp
            .headers()
            .iter()
            .filter(|(k, _)| !k.as_str().eq_ignore_ascii_case("set-cookie"))
            .map(|(k, v)| format!("{k}: {}", v.to_str().unwrap_or("<binary>")))
            .collect();
        let mut out = Vec::new();
        let mut total = 0usize;
        let mut stream = resp.bytes_stream();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| ToolError::Failed(format!("reading the body: {e}")))?;
            total += chunk.len();
            let room = self.max_body.saturating_sub(out.len());
            out.extend_from_slice(&chunk[..chunk.len().min(room)]);
            if total > self.max_body {
                break;
            }
        }
        let mut text = String::from_utf8_lossy(&out).to_string();
        if total > self.max_body {
            text.push_str(&format!("\n[… body cut at {} bytes]", self.max_body));
        }
        Ok(ToolOutput {
            content: format!("HTTP {status}\n{}\n\n{text}", resp_headers.join("\n")),
            summary: format!("{method} {url} → {}", status.as_u16()),
        })
    }
}

const MAX_REDIRECTS: usize = 5;

/// One request, connecting only to the addresses the policy checked.
async fn send(
    method: &str,
    url: &reqwest::Url,
    headers: &[(String, String)],
    body: Option<&str>,
    pins: &[(String, Vec<std::net::SocketAddr>)],
    timeout: Duration,
) -> Result<reqwest::Response, ToolError> {
    let mut builder = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none());
    if let Some(host) = url.host_str() {
        match pins
            .iter()
            .find(|(h, _)| h.eq_ignore_ascii_case(host.trim_end_matches('.')))
        {
            Some((h, addrs)) => builder = builder.resolve_to_addrs(h, addrs),
            None if url
                .domain()
                .is_some_and(|d| d != "localhost" && !d.ends_with(".localhost")) =>
            {
                return Err(ToolError::Failed(format!(
                    "{host} was not resolved and checked before connecting"
                )));
            }
            None => {}
        }
    }
    let client = builder
        .build()
        .map_err(|e| ToolError::Failed(e.to_string()))?;
    let m = reqwest::Method::from_bytes(method.as_bytes())
        .map_err(|e| ToolError::InvalidArgs(e.to_string()))?;
    let mut rb = client.request(m, url.clone()).timeout(timeout);
    for (k, v) in headers {
        rb = rb.header(k.as_str(), v.as_str());
    }
    if let Some(b) = body {
        rb = rb.body(b.to_string());
    }
    rb.send()
        .await
        .map_err(|e| ToolError::Failed(format!("{method} {url}: {e}")))
}
