//! `http_request`: GET/POST/PUT/DELETE over http or https, with a size cap.

use std::time::Duration;

use async_trait::async_trait;
use futures_util::StreamExt;
use serde_json::{Value, json};

use super::{Capability, Tool, ToolContext, ToolError, ToolOutput, arg_opt_u64, arg_str};

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

const METHODS: &[&str] = &["GET", "POST", "PUT", "DELETE"];

fn parse(args: &Value) -> Result<(String, reqwest::Url), ToolError> {
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
        "Make an HTTP request (GET, POST, PUT, DELETE) to an http(s) URL. Returns status, headers and up to 1 MiB of body. Redirects are not followed."
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
        let (method, url) = parse(args)?;
        Ok(vec![Capability::Network {
            method,
            url: url.to_string(),
        }])
    }
    fn timeout(&self, args: &Value) -> Duration {
        match arg_opt_u64(args, "timeout_sec") {
            Ok(Some(s)) if s > 0 => Duration::from_secs(s.min(120)),
            _ => self.default_timeout,
        }
    }
    async fn execute(&self, _ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let (method, url) = parse(&args)?;
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| ToolError::Failed(e.to_string()))?;
        let m = reqwest::Method::from_bytes(method.as_bytes())
            .map_err(|e| ToolError::InvalidArgs(e.to_string()))?;
        let mut rb = client.request(m, url.clone()).timeout(self.timeout(&args));
        if let Some(h) = args.get("headers").and_then(Value::as_object) {
            for (k, v) in h {
                let v = v.as_str().ok_or_else(|| {
                    ToolError::InvalidArgs(format!("header {k} must be a string"))
                })?;
                rb = rb.header(k.as_str(), v);
            }
        }
        if let Some(b) = args.get("body").and_then(Value::as_str) {
            rb = rb.body(b.to_string());
        }
        let resp = rb
            .send()
            .await
            .map_err(|e| ToolError::Failed(format!("{method} {url}: {e}")))?;
        let status = resp.status();
        let headers: Vec<String> = resp
            .headers()
            .iter()
            .filter(|(k, _)| !k.as_str().eq_ignore_ascii_case("set-cookie"))
            .map(|(k, v)| format!("{k}: {}", v.to_str().unwrap_or("<binary>")))
            .collect();
        let mut body = Vec::new();
        let mut total = 0usize;
        let mut stream = resp.bytes_stream();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| ToolError::Failed(format!("reading the body: {e}")))?;
            total += chunk.len();
            let room = self.max_body.saturating_sub(body.len());
            body.extend_from_slice(&chunk[..chunk.len().min(room)]);
            if total > self.max_body {
                break;
            }
        }
        let mut text = String::from_utf8_lossy(&body).to_string();
        if total > self.max_body {
            text.push_str(&format!("\n[… body cut at {} bytes]", self.max_body));
        }
        Ok(ToolOutput {
            content: format!("HTTP {status}\n{}\n\n{text}", headers.join("\n")),
            summary: format!("{method} {url} → {}", status.as_u16()),
        })
    }
}
