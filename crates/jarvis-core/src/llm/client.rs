//! Streaming chat completions with retries, timeouts and cancellation.

use std::fmt;
use std::time::Duration;

use futures_util::{StreamExt, TryStreamExt};
use serde_json::{Value, json};
use sse_stream::SseByteStream;
use tokio_util::sync::CancellationToken;

use super::ChatMessage;
use super::assemble::{Assembled, StreamAssembler, StreamDelta};
use super::error::LlmError;

/// A secret value whose `Debug`/`Display` never show it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: impl Into<String>) -> Self {
        Secret(s.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
    /// What may be shown back to a person: the last four characters.
    pub fn masked(&self) -> String {
        let n = self.0.chars().count();
        let tail: String = self.0.chars().skip(n.saturating_sub(4)).collect();
        if n <= 8 {
            "set (…)".into()
        } else {
            format!("set (…{tail})")
        }
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

#[derive(Debug, Clone)]
pub struct LlmSettings {
    pub base_url: String,
    pub model: String,
    pub api_key: Option<Secret>,
    pub temperature: Option<f64>,
    /// Attempts after the first one, for connect errors, 429 and 5xx.
    pub max_retries: u32,
    pub connect_timeout: Duration,
    /// Longest silence allowed while waiting for headers or the next bytes.
    pub idle_timeout: Duration,
    pub backoff_base: Duration,
    /// A `Retry-After` longer than this is not waited for.
    pub max_retry_wait: Duration,
}

impl Default for LlmSettings {
    fn default() -> Self {
        LlmSettings {
            base_url: "http://127.0.0.1:11434/v1".into(),
            model: "llama3.2".into(),
            api_key: None,
            temperature: None,
            max_retries: 3,
            connect_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(120),
            backoff_base: Duration::from_millis(500),
            max_retry_wait: Duration::from_secs(60),
        }
    }
}

/// A model the server lists, with the context length when it reports one.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ModelInfo {
    pub id: String,
    pub context_length: Option<u64>,
}

#[derive(Debug, Clone)]
pub struct LlmClient {
    http: reqwest::Client,
    settings: LlmSettings,
}

/// One HTTP client per connect timeout for the whole process: building one
/// loads the system's TLS roots (~10 ms), and the brain makes a client at
/// every start and settings change. Clones share the connection pool.
fn shared_http(connect_timeout: Duration) -> Result<reqwest::Client, LlmError> {
    static CLIENTS: std::sync::OnceLock<std::sync::Mutex<Vec<(Duration, reqwest::Client)>>> =
        std::sync::OnceLock::new();
    let clients = CLIENTS.get_or_init(Default::default);
    let mut clients = clients
        .lock()
        .map_err(|_| LlmError::Config("the HTTP client cache is poisoned".into()))?;
    if let Some((_, c)) = clients.iter().find(|(t, _)| *t == connect_timeout) {
        return Ok(c.clone());
    }
    let http = reqwest::Client::builder()
        .connect_timeout(connect_timeout)
        // Many servers (Node's default among them) drop an idle
        // keep-alive connection after 5 s; reusing one they are closing
        // fails the request ("connection closed before message
        // completed"), e.g. after a user took a while to approve a call.
        .pool_idle_timeout(Duration::from_secs(4))
        .build()
        .map_err(|e| LlmError::Config(e.to_string()))?;
    clients.push((connect_timeout, http.clone()));
    Ok(http)
}

impl LlmClient {
    pub fn new(settings: LlmSettings) -> Result<Self, LlmError> {
        if !(settings.base_url.starts_with("http://") || settings.base_url.starts_with("https://"))
        {
            return Err(LlmError::Config(format!(
                "llm.base_url must start with http:// or https://, got {:?}",
                settings.base_url
            )));
        }
        let http = shared_http(settings.connect_timeout)?;
        Ok(LlmClient { http, settings })
    }

    pub fn settings(&self) -> &LlmSettings {
        &self.settings
    }

    fn url(&self, path: &str) -> String {
        format!("{}/{}", self.settings.base_url.trim_end_matches('/'), path)
    }

    /// The server root without the `/v1` suffix, for server-specific endpoints.
    fn root(&self) -> String {
        let base = self.settings.base_url.trim_end_matches('/');
        base.strip_suffix("/v1").unwrap_or(base).to_string()
    }

    fn authed(&self, rb: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.settings.api_key {
            Some(k) => rb.bearer_auth(k.expose()),
            None => rb,
        }
    }

    /// The request body; public so tests and benches can check its shape.
    /// `tool_choice` names a tool the model must call (OpenAI's named
    /// choice); `None` leaves it to the model.
    pub fn request_body(
        &self,
        messages: &[ChatMessage],
        tools: &[Value],
        tool_choice: Option<&str>,
    ) -> Value {
        let mut body = json!({
            "model": self.settings.model,
            "messages": messages.iter().map(ChatMessage::to_wire).collect::<Vec<_>>(),
            "stream": true,
            "stream_options": {"include_usage": true},
        });
        if !tools.is_empty() {
            body["tools"] = Value::from(tools.to_vec());
            if let Some(name) = tool_choice {
                body["tool_choice"] = json!({"type": "function", "function": {"name": name}});
            }
        }
        if let Some(t) = self.settings.temperature {
            body["temperature"] = Value::from(t);
        }
        body
    }

    /// Streams one completion; `on_delta` sees text and tool calls as they come.
    /// Retries only before the first byte of an answer, never after.
    pub async fn stream_chat(
        &self,
        messages: &[ChatMessage],
        tools: &[Value],
        cancel: &CancellationToken,
        on_delta: &mut (dyn FnMut(StreamDelta) + Send),
    ) -> Result<Assembled, LlmError> {
        self.stream_chat_choosing(messages, tools, None, cancel, on_delta)
            .await
    }

    /// As [`Self::stream_chat`], with the tool the model must call.
    pub async fn stream_chat_choosing(
        &self,
        messages: &[ChatMessage],
        tools: &[Value],
        tool_choice: Option<&str>,
        cancel: &CancellationToken,
        on_delta: &mut (dyn FnMut(StreamDelta) + Send),
    ) -> Result<Assembled, LlmError> {
        let body = self.request_body(messages, tools, tool_choice);
        let url = self.url("chat/completions");
        let mut attempt = 0u32;
        let resp = loop {
            let req = self.authed(self.http.post(&url)).json(&body).send();
            let result = tokio::select! {
                _ = cancel.cancelled() => return Err(LlmError::Cancelled),
                r = tokio::time::timeout(self.settings.idle_timeout, req) => r,
            };
            let (err, retry_after) = match result {
                Err(_) => (
                    LlmError::IdleTimeout {
                        secs: self.settings.idle_timeout.as_secs_f64(),
                    },
                    None,
                ),
                Ok(Err(e)) => (
                    LlmError::Connect {
                        url: url.clone(),
                        reason: describe_reqwest(&e),
                    },
                    None,
                ),
                Ok(Ok(resp)) if resp.status().is_success() => break resp,
                Ok(Ok(resp)) => {
                    let status = resp.status().as_u16();
                    let retry_after = resp
                        .headers()
                        .get(reqwest::header::RETRY_AFTER)
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.trim().parse::<f64>().ok())
                        .filter(|s| s.is_finite() && *s >= 0.0)
                        .map(Duration::from_secs_f64);
                    let text = resp.text().await.unwrap_or_default();
                    let body = serde_json::from_str::<Value>(&text)
                        .ok()
                        .and_then(|v| v.get("error").map(super::assemble::error_message))
                        .unwrap_or_else(|| text.chars().take(500).collect());
                    (
                        LlmError::Http {
                            url: url.clone(),
                            status,
                            body,
                        },
                        retry_after,
                    )
                }
            };
            if !err.is_retryable() {
                return Err(err);
            }
            if attempt >= self.settings.max_retries {
                return Err(LlmError::RetriesExhausted {
                    attempts: attempt + 1,
                    last: Box::new(err),
                });
            }
            let wait = match retry_after {
                Some(d) if d > self.settings.max_retry_wait => {
                    return Err(LlmError::RetriesExhausted {
                        attempts: attempt + 1,
                        last: Box::new(err),
                    });
                }
                // Never sooner than the server asked; a little later spreads clients out.
                Some(d) => d + jitter(Duration::from_millis(100)),
                None => {
                    let exp = self.settings.backoff_base * 2u32.saturating_pow(attempt);
                    exp.mul_f64(0.5) + jitter(exp.mul_f64(0.5))
                }
            };
            tracing::warn!(attempt, ?wait, error = %err, "model request failed; retrying");
            tokio::select! {
                _ = cancel.cancelled() => return Err(LlmError::Cancelled),
                _ = tokio::time::sleep(wait) => {}
            }
            attempt += 1;
        };
        self.read_stream(resp, cancel, on_delta).await
    }

    async fn read_stream(
        &self,
        resp: reqwest::Response,
        cancel: &CancellationToken,
        on_delta: &mut (dyn FnMut(StreamDelta) + Send),
    ) -> Result<Assembled, LlmError> {
        assemble_stream(
            resp.bytes_stream(),
            self.settings.idle_timeout,
            cancel,
            on_delta,
        )
        .await
    }

    /// `GET /models`: the ids the server offers, with context lengths it reports.
    pub async fn models(&self) -> Result<Vec<ModelInfo>, LlmError> {
        let url = self.url("models");
        let resp = self
            .authed(self.http.get(&url))
            .timeout(self.settings.connect_timeout * 2)
            .send()
            .await
            .map_err(|e| LlmError::Connect {
                url: url.clone(),
                reason: describe_reqwest(&e),
            })?;
        let status = resp.status().as_u16();
        let v: Value = resp.json().await.map_err(|e| LlmError::Http {
            url: url.clone(),
            status,
            body: format!("not a JSON model list: {e}"),
        })?;
        if status >= 400 {
            return Err(LlmError::Http {
                url,
                status,
                body: v.to_string(),
            });
        }
        let list = v
            .get("data")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        Ok(list
            .iter()
            .filter_map(|m| {
                let id = m.get("id")?.as_str()?.to_string();
                let ctx = [
                    "context_length",
                    "context_window",
                    "max_model_len",
                    "max_context_length",
                ]
                .iter()
                .find_map(|k| m.get(*k).and_then(Value::as_u64))
                .or_else(|| m.pointer("/meta/n_ctx_train").and_then(Value::as_u64));
                Some(ModelInfo {
                    id,
                    context_length: ctx,
                })
            })
            .collect())
    }

    /// The context length the server runs the model with, from whichever
    /// server-specific endpoint answers (llama.cpp `/props`, Ollama `/api/show`).
    pub async fn server_context_length(&self) -> Option<u64> {
        let t = self.settings.connect_timeout * 2;
        let props = self
            .http
            .get(format!("{}/props", self.root()))
            .timeout(t)
            .send()
            .await;
        if let Ok(r) = props
            && r.status().is_success()
            && let Ok(v) = r.json::<Value>().await
            && let Some(n) = v
                .pointer("/default_generation_settings/n_ctx")
                .and_then(Value::as_u64)
        {
            return Some(n);
        }
        let show = self
            .http
            .post(format!("{}/api/show", self.root()))
            .json(&json!({"model": self.settings.model}))
            .timeout(t)
            .send()
            .await;
        if let Ok(r) = show
            && r.status().is_success()
            && let Ok(v) = r.json::<Value>().await
            && let Some(info) = v.get("model_info").and_then(Value::as_object)
        {
            return info
                .iter()
                .find(|(k, _)| k.ends_with(".context_length"))
                .and_then(|(_, v)| v.as_u64());
        }
        None
    }
}

/// Decodes SSE from a byte stream and assembles the message: the one path
/// used for live responses, the oracle fixtures and the benchmark.
pub async fn assemble_stream<S, E>(
    bytes: S,
    idle_timeout: Duration,
    cancel: &CancellationToken,
    on_delta: &mut (dyn FnMut(StreamDelta) + Send),
) -> Result<Assembled, LlmError>
where
    S: futures_util::Stream<Item = Result<bytes::Bytes, E>>,
    E: std::error::Error + Send + Sync + 'static,
{
    let scanner = std::sync::Arc::new(std::sync::Mutex::new(LegacyErrorScanner::default()));
    let scan = scanner.clone();
    let bytes = bytes.inspect_ok(move |b| {
        if let Ok(mut s) = scan.lock() {
            s.feed(b);
        }
    });
    let mut events = std::pin::pin!(SseByteStream::new(bytes));
    let mut asm = StreamAssembler::new();
    let mut deltas = Vec::new();
    loop {
        let next = tokio::select! {
            _ = cancel.cancelled() => return Err(LlmError::Cancelled),
            n = tokio::time::timeout(idle_timeout, events.next()) => n,
        };
        let item = match next {
            Err(_) => {
                return Err(LlmError::IdleTimeout {
                    secs: idle_timeout.as_secs_f64(),
                });
            }
            Ok(None) => break,
            Ok(Some(Err(e))) => return Err(LlmError::Sse(e.to_string())),
            Ok(Some(Ok(ev))) => ev,
        };
        if let Some(data) = item.data {
            asm.feed(&data, &mut deltas)?;
            for d in deltas.drain(..) {
                on_delta(d);
            }
            if asm.is_finished() {
                break;
            }
        }
    }
    let legacy = scanner.lock().ok().and_then(|mut s| s.finish());
    asm.finish(legacy.as_deref())
}

fn jitter(max: Duration) -> Duration {
    max.mul_f64(fastrand::f64())
}

fn describe_reqwest(e: &reqwest::Error) -> String {
    let mut s = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(inner) = src {
        s.push_str(": ");
        s.push_str(&inner.to_string());
        src = inner.source();
    }
    s
}

/// Spots llama.cpp's legacy `error: {…}` line, which is not an SSE field and
/// so is dropped by any spec-compliant parser; without this the user would
/// get an empty answer instead of the server's message.
#[derive(Debug, Default)]
pub struct LegacyErrorScanner {
    line: Vec<u8>,
    found: Option<String>,
}

impl LegacyErrorScanner {
    const MAX_LINE: usize = 16 * 1024;

    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b == b'\n' || b == b'\r' {
                self.check_line();
            } else if self.line.len() < Self::MAX_LINE {
                self.line.push(b);
            }
        }
    }

    fn check_line(&mut self) {
        if self.found.is_none()
            && let Some(rest) = self.line.strip_prefix(b"error:")
        {
            self.found = Some(String::from_utf8_lossy(rest).trim().to_string());
        }
        self.line.clear();
    }

    pub fn finish(&mut self) -> Option<String> {
        self.check_line();
        self.found.take()
    }
}
