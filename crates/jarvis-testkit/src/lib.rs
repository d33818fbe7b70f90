//! A scripted OpenAI-compatible server on loopback, for tests and benches.
//!
//! It speaks raw HTTP/1.1 over a real TCP socket so tests can inject what real
//! providers do wrong: stalls mid-stream, 429 with `Retry-After`, 5xx, broken
//! chunks. Every request is recorded for assertions.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request as the server received it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub at: Instant,
}

impl Recorded {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the server answers to one request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A plain response with a status, extra headers and a body.
    Status {
        code: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// `text/event-stream` body written piece by piece; a `None` piece stalls
    /// the stream for the given time before continuing (or forever if last).
    Stream { pieces: Vec<Piece> },
}

#[derive(Debug, Clone)]
pub enum Piece {
    Bytes(Vec<u8>),
    Sleep(Duration),
    /// Keep the connection open and silent until the client goes away.
    StallForever,
}

impl Reply {
    pub fn status(code: u16, body: &str) -> Self {
        Reply::Status {
            code,
            headers: vec![],
            body: body.to_string(),
        }
    }
    pub fn json(value: Value) -> Self {
        Reply::Status {
            code: 200,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: value.to_string(),
        }
    }
    pub fn with_header(mut self, k: &str, v: &str) -> Self {
        if let Reply::Status { headers, .. } = &mut self {
            headers.push((k.to_string(), v.to_string()));
        }
        self
    }
    /// A raw SSE body, sent in one piece.
    pub fn raw_sse(body: impl Into<Vec<u8>>) -> Self {
        Reply::Stream {
            pieces: vec![Piece::Bytes(body.into())],
        }
    }
    /// A streamed plain-text answer, in small content deltas, with usage.
    pub fn text(text: &str) -> Self {
        let mut events: Vec<Value> = vec![chunk(json!({"role": "assistant", "content": ""}), None)];
        let chars: Vec<char> = text.chars().collect();
        for part in chars.chunks(8) {
            events.push(chunk(
                json!({"content": part.iter().collect::<String>()}),
                None,
            ));
        }
        events.push(chunk(json!({}), Some("stop")));
        events.push(usage_chunk(20, 10));
        Reply::Stream {
            pieces: vec![Piece::Bytes(frame(&events))],
        }
    }
    /// A streamed answer that calls tools: `(id, name, arguments JSON text)`.
    pub fn tool_calls(calls: &[(&str, &str, &str)]) -> Self {
        let mut events = vec![chunk(json!({"role": "assistant", "content": null}), None)];
        for (i, (id, name, args)) in calls.iter().enumerate() {
            events.push(chunk(
                json!({"tool_calls": [{"index": i, "id": id, "type": "function",
                    "function": {"name": name, "arguments": ""}}]}),
                None,
            ));
            let chars: Vec<char> = args.chars().collect();
            for part in chars.chunks(7) {
                events.push(chunk(
                    json!({"tool_calls": [{"index": i,
                        "function": {"arguments": part.iter().collect::<String>()}}]}),
                    None,
                ));
            }
        }
        events.push(chunk(json!({}), Some("tool_calls")));
        events.push(usage_chunk(30, 15));
        Reply::Stream {
            pieces: vec![Piece::Bytes(frame(&events))],
        }
    }
}

/// One `chat.completion.chunk` with a delta for choice 0.
pub fn chunk(delta: Value, finish: Option<&str>) -> Value {
    json!({"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1,
        "model": "test-model",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
}

pub fn usage_chunk(prompt: u64, completion: u64) -> Value {
    json!({"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1,
        "model": "test-model", "choices": [],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
            "total_tokens": prompt + completion}})
}

/// Frames chunks as `data: …\n\n` and ends with `data: [DONE]`.
pub fn frame(events: &[Value]) -> Vec<u8> {
    let mut out = String::new();
    for e in events {
        out.push_str("data: ");
        out.push_str(&e.to_string());
        out.push_str("\n\n");
    }
    out.push_str("data: [DONE]\n\n");
    out.into_bytes()
}

type Handler = dyn Fn(&Recorded, usize) -> Reply + Send + Sync;

/// A running server. Dropping it stops accepting connections.
pub struct MockServer {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<Recorded>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for MockServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl MockServer {
    /// Answers the n-th chat request with `script[n]`; `/models` with one model.
    /// Past the end of the script it answers 500, which tests see as a failure.
    pub async fn scripted(script: Vec<Reply>) -> std::io::Result<Self> {
        let script = Arc::new(script);
        Self::with_handler(move |req, n| {
            if req.path.ends_with("/models") {
                return Reply::json(json!({"object": "list", "data": [
                    {"id": "test-model", "object": "model", "context_length": 4096}]}));
            }
            script
                .get(n)
                .cloned()
                .unwrap_or_else(|| Reply::status(500, "script exhausted"))
        })
        .await
    }

    /// `handler(request, index of this chat request)`; requests to `/models`
    /// do not advance the index.
    pub async fn with_handler(
        handler: impl Fn(&Recorded, usize) -> Reply + Send + Sync + 'static,
    ) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let requests = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Handler> = Arc::new(handler);
        let reqs = requests.clone();
        let task = tokio::spawn(async move {
            while let Ok((sock, _)) = listener.accept().await {
                let handler = handler.clone();
                let reqs = reqs.clone();
                tokio::spawn(async move {
                    let _ = serve(sock, handler, reqs).await;
                });
            }
        });
        Ok(Self {
            addr,
            requests,
            task,
        })
    }

    /// The base URL, like `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        lock(&self.requests).clone()
    }

    /// Only the chat-completions requests, in order.
    pub fn chat_requests(&self) -> Vec<Recorded> {
        lock(&self.requests)
            .iter()
            .filter(|r| r.path.ends_with("/chat/completions"))
            .cloned()
            .collect()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

async fn serve(
    mut sock: TcpStream,
    handler: Arc<Handler>,
    reqs: Arc<Mutex<Vec<Recorded>>>,
) -> std::io::Result<()> {
    loop {
        let Some(req) = read_request(&mut sock).await? else {
            return Ok(());
        };
        let n = {
            let mut all = lock(&reqs);
            let n = all
                .iter()
                .filter(|r| r.path.ends_with("/chat/completions"))
                .count();
            all.push(req.clone());
            n
        };
        let reply = handler(&req, n);
        match reply {
            Reply::Status {
                code,
                headers,
                body,
            } => {
                let mut head = format!(
                    "HTTP/1.1 {code} {}\r\nContent-Length: {}\r\n",
                    reason(code),
                    body.len()
                );
                for (k, v) in headers {
                    head.push_str(&format!("{k}: {v}\r\n"));
                }
                head.push_str("\r\n");
                sock.write_all(head.as_bytes()).await?;
                sock.write_all(body.as_bytes()).await?;
                sock.flush().await?;
            }
            Reply::Stream { pieces } => {
                // Close-delimited body: exactly what a client sees when a
                // server streams without chunked encoding.
                sock.write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
                )
                .await?;
                for p in pieces {
                    match p {
                        Piece::Bytes(b) => {
                            sock.write_all(&b).await?;
                            sock.flush().await?;
                        }
                        Piece::Sleep(d) => tokio::time::sleep(d).await,
                        Piece::StallForever => {
                            let mut buf = [0u8; 64];
                            // Returns when the client closes the connection.
                            while sock.read(&mut buf).await? > 0 {}
                            return Ok(());
                        }
                    }
                }
                sock.shutdown().await?;
                return Ok(());
            }
        }
    }
}

fn reason(code: u16) -> &'static str {
    match code {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

async fn read_request(sock: &mut TcpStream) -> std::io::Result<Option<Recorded>> {
    let mut buf = Vec::new();
    let mut tmp = [0u8; 8192];
    let head_end = loop {
        if let Some(p) = find(&buf, b"\r\n\r\n") {
            break p;
        }
        let n = sock.read(&mut tmp).await?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&tmp[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut lines = head.split("\r\n");
    let first = lines.next().unwrap_or_default();
    let mut parts = first.split(' ');
    let method = parts.next().unwrap_or_default().to_string();
    let path = parts.next().unwrap_or_default().to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let len: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < len {
        let n = sock.read(&mut tmp).await?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&tmp[..n]);
    }
    Ok(Some(Recorded {
        method,
        path,
        headers,
        body,
        at: Instant::now(),
    }))
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// `../shared` beside the repository, where CI and developers keep the oracles.
/// The small GGUF the embedded engine's tests run (`JARVIS_TEST_GGUF`,
/// which `.ci/run` sets). `None`, with a note, outside CI; in CI its
/// absence fails the test.
pub fn test_gguf() -> Option<std::path::PathBuf> {
    match std::env::var_os("JARVIS_TEST_GGUF").map(std::path::PathBuf::from) {
        Some(p) if p.is_file() => Some(p),
        _ if std::env::var_os("CI").is_some() => {
            panic!("JARVIS_TEST_GGUF must name the SmolLM2 GGUF in CI (.ci/run fetches it)")
        }
        _ => {
            eprintln!("skipped: set JARVIS_TEST_GGUF to a GGUF file (.ci/run does)");
            None
        }
    }
}

pub fn shared_dir() -> std::path::PathBuf {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.join("../../../shared")
}

/// A static file server on loopback that honours `Range`, for download
/// tests. It can cut the first response to each file short (a dropped
/// connection) and serves `overrides` instead of what is on disk.
pub struct FileServer {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<Recorded>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FileServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FileServer {
    /// Serves files under `root`; with `cut_first_after = Some(n)` the first
    /// GET of each path sends only `n` body bytes and closes.
    pub async fn start(
        root: std::path::PathBuf,
        cut_first_after: Option<u64>,
    ) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let requests: Arc<Mutex<Vec<Recorded>>> = Arc::new(Mutex::new(Vec::new()));
        let reqs = requests.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut sock, _)) = listener.accept().await {
                let root = root.clone();
                let reqs = reqs.clone();
                tokio::spawn(async move {
                    let Ok(Some(req)) = read_request(&mut sock).await else {
                        return;
                    };
                    let first = {
                        let mut all = lock(&reqs);
                        let first = !all.iter().any(|r| r.path == req.path);
                        all.push(req.clone());
                        first
                    };
                    let rel = req.path.trim_start_matches('/');
                    let data = if rel.contains("..") {
                        None
                    } else {
                        std::fs::read(root.join(rel)).ok()
                    };
                    let Some(data) = data else {
                        let _ = sock.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").await;
                        return;
                    };
                    let from = req
                        .header("range")
                        .and_then(|r| r.strip_prefix("bytes="))
                        .and_then(|r| r.trim_end_matches('-').parse::<usize>().ok());
                    let (status, body) = match from {
                        Some(f) if f >= data.len() => ("416 Range Not Satisfiable", &data[0..0]),
                        Some(f) => ("206 Partial Content", &data[f..]),
                        None => ("200 OK", &data[..]),
                    };
                    let head = format!(
                        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nAccept-Ranges: bytes\r\nConnection: close\r\n\r\n",
                        body.len()
                    );
                    let _ = sock.write_all(head.as_bytes()).await;
                    let send = match cut_first_after {
                        Some(n) if first => &body[..(n as usize).min(body.len())],
                        _ => body,
                    };
                    let _ = sock.write_all(send).await;
                    let _ = sock.flush().await;
                    let _ = sock.shutdown().await;
                });
            }
        });
        Ok(Self {
            addr,
            requests,
            task,
        })
    }

    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        lock(&self.requests).clone()
    }
}

/// A HOME whose `~/.asoundrc` makes ALSA's default devices files: capture
/// reads `mic_raw` (16-bit, 16 kHz, mono), playback writes `speaker` (16-bit,
/// 22.05 kHz, mono). ALSA reads it once per process, so run the program under
/// test as a child with `HOME` set to this directory.
pub fn alsa_file_devices(
    mic_raw: &[u8],
    speaker: &std::path::Path,
) -> std::io::Result<tempfile::TempDir> {
    let dir = tempfile::tempdir()?;
    let mic = dir.path().join("mic.raw");
    std::fs::write(&mic, mic_raw)?;
    let conf = format!(
        r#"pcm.filemic {{ type file; slave.pcm "null"; file "/dev/null"; infile "{}"; format "raw" }}
pcm.filespk {{ type file; slave.pcm "null"; file "{}"; format "raw" }}
pcm.!default {{
  type asym
  capture.pcm {{ type plug; slave {{ pcm "filemic"; format S16_LE; rate 16000; channels 1 }} }}
  playback.pcm {{ type plug; slave {{ pcm "filespk"; format S16_LE; rate 22050; channels 1 }} }}
}}
"#,
        mic.display(),
        speaker.display()
    );
    std::fs::write(dir.path().join(".asoundrc"), conf)?;
    Ok(dir)
}

/// The row for `name` in `jarvis doctor --json` output.
pub fn doctor_check(checks: &Value, name: &str) -> Value {
    checks
        .as_array()
        .and_then(|rows| rows.iter().find(|c| c["check"] == name))
        .cloned()
        .unwrap_or_else(|| panic!("doctor reported no {name:?} check: {checks}"))
}
