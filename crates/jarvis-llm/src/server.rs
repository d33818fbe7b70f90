//! `/v1/models` and `/v1/chat/completions` (streamed and not) over the
//! engine. One generation at a time; a client that goes away stops its
//! generation at the next token.

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event as SseEvent, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::api::{ChatRequest, Choice};
use crate::engine::{Engine, Finish, Generation, Usage};
use crate::template::Format;
use crate::toolcall::{Parser, Piece};

pub struct Worker {
    pub engine: Mutex<Engine>,
    /// The id `/v1/models` lists (any name is accepted in requests).
    pub name: String,
    /// Required as a bearer token when set.
    pub token: Option<String>,
    /// The prompt format, from the model's own chat template unless the
    /// command line names one.
    pub format: Format,
    /// Where the last answer's speed is written for the hosts to show.
    pub stats_file: Option<PathBuf>,
    /// When the last request came (or the worker started).
    last: Mutex<Instant>,
}

impl Worker {
    pub fn new(engine: Engine, name: String, token: Option<String>) -> Self {
        let format = Format::of(engine.chat_template().as_deref());
        Worker {
            format,
            engine: Mutex::new(engine),
            name,
            token,
            stats_file: None,
            last: Mutex::new(Instant::now()),
        }
    }

    /// Prompts in this format whatever the model's template says.
    pub fn with_format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// Writes each answer's speed to `file` (atomically: a host may read it
    /// at any moment).
    pub fn with_stats_file(mut self, file: PathBuf) -> Self {
        self.stats_file = Some(file);
        self
    }

    fn record(&self, u: &Usage) {
        let Some(file) = &self.stats_file else { return };
        if u.completion_tokens == 0 || u.predicted_ms <= 0.0 {
            return;
        }
        let (_, timings) = usage_json(u);
        let at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0);
        let stats = json!({"model": self.name, "at_ms": at, "timings": timings});
        let tmp = file.with_extension("json.part");
        let written =
            std::fs::write(&tmp, stats.to_string()).and_then(|()| std::fs::rename(&tmp, file));
        if let Err(e) = written {
            tracing::warn!("cannot write {}: {e}", file.display());
        }
    }

    /// Time since the last request; a generation still running counts as now.
    pub fn idle_for(&self) -> Duration {
        if self.engine.try_lock().is_err() {
            return Duration::ZERO;
        }
        self.last.lock().map(|l| l.elapsed()).unwrap_or_default()
    }

    fn touch(&self) {
        if let Ok(mut l) = self.last.lock() {
            *l = Instant::now();
        }
    }
}

pub fn router(worker: Arc<Worker>) -> Router {
    Router::new()
        .route("/v1/models", get(models))
        .route("/v1/chat/completions", post(chat))
        .with_state(worker)
}

fn error(status: StatusCode, kind: &str, message: impl Into<String>) -> Response {
    let body = json!({"error": {"message": message.into(), "type": kind}});
    (status, axum::Json(body)).into_response()
}

fn authorised(w: &Worker, headers: &HeaderMap) -> bool {
    let Some(token) = &w.token else { return true };
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(|t| t.trim() == token)
}

async fn models(State(w): State<Arc<Worker>>, headers: HeaderMap) -> Response {
    if !authorised(&w, &headers) {
        return error(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "a bearer token is required",
        );
    }
    let ctx = w.engine.lock().map(|e| e.context_size()).unwrap_or(0);
    axum::Json(json!({
        "object": "list",
        "data": [{"id": w.name, "object": "model", "owned_by": "jarvis", "meta": {"n_ctx": ctx}}]
    }))
    .into_response()
}

/// What the generation thread reports.
enum Out {
    Text(String),
    Done(Finish, Usage),
    /// Why, and whether it is the request's fault (too long for the context).
    Failed(String, bool),
}

async fn chat(State(w): State<Arc<Worker>>, headers: HeaderMap, body: Bytes) -> Response {
    w.touch();
    if !authorised(&w, &headers) {
        return error(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "a bearer token is required",
        );
    }
    let req: ChatRequest = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                "invalid_request_error",
                format!("the request is not a chat request: {e}"),
            );
        }
    };
    let choice = match req.choice() {
        Ok(c) => c,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                "invalid_request_error",
                e.to_string(),
            );
        }
    };
    let format = w.format;
    let lazy = choice == Choice::Auto && !req.tools.is_empty();
    let grammar = match &choice {
        // A schema llama.cpp cannot turn into a grammar leaves `auto`
        // unconstrained, as it was, rather than refusing the request.
        Choice::Auto if lazy => Ok(crate::grammar::auto_grammar(&req.tools, format)
            .inspect_err(|e| eprintln!("jarvis-llm: auto without a grammar: {e}"))
            .ok()),
        Choice::Required | Choice::Named(_) => {
            crate::grammar::call_grammar(&req.tools, &choice, format.arguments_key()).map(Some)
        }
        _ => Ok(None),
    };
    let grammar = match grammar {
        Ok(g) => g,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                "invalid_request_error",
                e.to_string(),
            );
        }
    };
    let generation = Generation {
        prompt: format.render(&req, &choice),
        max_tokens: req.max_tokens.unwrap_or(2048),
        temperature: req.temperature.unwrap_or(0.7),
        top_p: req.top_p.unwrap_or(0.95),
        seed: req.seed.unwrap_or(0x5eed),
        trigger: (lazy && grammar.is_some()).then(|| crate::grammar::auto_trigger(format)),
        grammar,
    };
    let forced = matches!(choice, Choice::Required | Choice::Named(_));
    let rx = start(w.clone(), generation);
    let meta = Meta {
        id: format!("chatcmpl-{}", uuid::Uuid::new_v4().simple()),
        created: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
        model: req.model.clone().unwrap_or_else(|| w.name.clone()),
    };
    let parser = format.parser(forced);
    if req.stream {
        stream(rx, meta, parser)
    } else {
        whole(rx, meta, parser).await
    }
}

/// Runs the generation on a blocking thread; its text comes through the
/// channel, and a closed channel (the client left) stops it.
fn start(w: Arc<Worker>, g: Generation) -> mpsc::Receiver<Out> {
    let (tx, rx) = mpsc::channel::<Out>(64);
    tokio::task::spawn_blocking(move || {
        let engine = match w.engine.lock() {
            Ok(e) => e,
            Err(e) => {
                let _ =
                    tx.blocking_send(Out::Failed(format!("the engine is unusable: {e}"), false));
                return;
            }
        };
        let result = engine.generate(&g, |text| {
            tx.blocking_send(Out::Text(text.to_string())).is_ok()
        });
        w.touch();
        let _ = tx.blocking_send(match result {
            Ok((finish, usage)) => {
                w.record(&usage);
                Out::Done(finish, usage)
            }
            Err(e) => {
                let overflow = matches!(e, crate::engine::EngineError::Overflow { .. });
                Out::Failed(e.to_string(), overflow)
            }
        });
    });
    rx
}

struct Meta {
    id: String,
    created: u64,
    model: String,
}

impl Meta {
    fn chunk(&self, delta: Value, finish: Option<&str>) -> Value {
        json!({
            "id": self.id, "object": "chat.completion.chunk", "created": self.created, "model": self.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        })
    }
}

fn call_json(index: usize, name: &str, arguments: &str) -> Value {
    json!({
        "index": index,
        "id": format!("call_{}", uuid::Uuid::new_v4().simple()),
        "type": "function",
        "function": {"name": name, "arguments": arguments}
    })
}

fn usage_json(u: &Usage) -> (Value, Value) {
    let per_second = if u.predicted_ms > 0.0 {
        u.completion_tokens as f64 * 1000.0 / u.predicted_ms
    } else {
        0.0
    };
    (
        json!({"prompt_tokens": u.prompt_tokens, "completion_tokens": u.completion_tokens,
               "total_tokens": u.prompt_tokens + u.completion_tokens}),
        json!({"prompt_n": u.prompt_tokens, "prompt_ms": u.prompt_ms, "predicted_n": u.completion_tokens,
               "predicted_ms": u.predicted_ms, "predicted_per_second": per_second}),
    )
}

fn finish_reason(finish: Finish, calls: usize) -> &'static str {
    match finish {
        _ if calls > 0 => "tool_calls",
        Finish::Length | Finish::Looping => "length",
        Finish::Stop | Finish::Cancelled => "stop",
    }
}

fn stream(mut rx: mpsc::Receiver<Out>, meta: Meta, mut parser: Parser) -> Response {
    let (tx, out) = mpsc::channel::<Result<SseEvent, Infallible>>(64);
    tokio::spawn(async move {
        let send = |v: Value| SseEvent::default().data(v.to_string());
        let mut calls = 0usize;
        if tx
            .send(Ok(send(
                meta.chunk(json!({"role": "assistant", "content": ""}), None),
            )))
            .await
            .is_err()
        {
            return;
        }
        // A malformed call ends the stream with an error event.
        let emit = async |parsed: Result<Vec<Piece>, crate::toolcall::CallError>,
                          calls: &mut usize|
               -> bool {
            let pieces = match parsed {
                Ok(p) => p,
                Err(e) => {
                    let error =
                        json!({"error": {"message": e.to_string(), "type": "invalid_tool_call"}});
                    let _ = tx.send(Ok(send(error))).await;
                    return false;
                }
            };
            for p in pieces {
                let delta = match p {
                    Piece::Text(t) => json!({"content": t}),
                    Piece::Call { name, arguments } => {
                        *calls += 1;
                        json!({"tool_calls": [call_json(*calls - 1, &name, &arguments)]})
                    }
                };
                if tx.send(Ok(send(meta.chunk(delta, None)))).await.is_err() {
                    return false;
                }
            }
            true
        };
        while let Some(msg) = rx.recv().await {
            match msg {
                Out::Text(t) => {
                    let parsed = parser.push(&t);
                    if !emit(parsed, &mut calls).await {
                        return;
                    }
                }
                Out::Done(finish, usage) => {
                    let parsed = std::mem::take(&mut parser).finish();
                    if !emit(parsed, &mut calls).await {
                        return;
                    }
                    let (u, timings) = usage_json(&usage);
                    let mut last = meta.chunk(json!({}), Some(finish_reason(finish, calls)));
                    last["usage"] = u;
                    last["timings"] = timings;
                    let _ = tx.send(Ok(send(last))).await;
                    let _ = tx.send(Ok(SseEvent::default().data("[DONE]"))).await;
                    return;
                }
                Out::Failed(why, overflow) => {
                    let kind = if overflow {
                        "context_length_exceeded"
                    } else {
                        "server_error"
                    };
                    let _ = tx
                        .send(Ok(send(json!({"error": {"message": why, "type": kind}}))))
                        .await;
                    return;
                }
            }
        }
    });
    let events =
        futures_util::stream::unfold(
            out,
            |mut out| async move { out.recv().await.map(|e| (e, out)) },
        );
    Sse::new(events).into_response()
}

async fn whole(mut rx: mpsc::Receiver<Out>, meta: Meta, mut parser: Parser) -> Response {
    let mut text = String::new();
    let mut calls: Vec<Value> = Vec::new();
    let take = |pieces: Vec<Piece>, text: &mut String, calls: &mut Vec<Value>| {
        for p in pieces {
            match p {
                Piece::Text(t) => text.push_str(&t),
                Piece::Call { name, arguments } => {
                    let mut c = call_json(calls.len(), &name, &arguments);
                    if let Some(o) = c.as_object_mut() {
                        o.remove("index");
                    }
                    calls.push(c);
                }
            }
        }
    };
    while let Some(msg) = rx.recv().await {
        match msg {
            Out::Text(t) => match parser.push(&t) {
                Ok(p) => take(p, &mut text, &mut calls),
                Err(e) => {
                    return error(StatusCode::BAD_GATEWAY, "invalid_tool_call", e.to_string());
                }
            },
            Out::Done(finish, usage) => {
                match std::mem::take(&mut parser).finish() {
                    Ok(p) => take(p, &mut text, &mut calls),
                    Err(e) => {
                        return error(StatusCode::BAD_GATEWAY, "invalid_tool_call", e.to_string());
                    }
                }
                let (u, timings) = usage_json(&usage);
                let mut message = json!({"role": "assistant", "content": if calls.is_empty() || !text.trim().is_empty() { Value::String(text.clone()) } else { Value::Null }});
                if !calls.is_empty() {
                    message["tool_calls"] = Value::Array(calls.clone());
                }
                return axum::Json(json!({
                    "id": meta.id, "object": "chat.completion", "created": meta.created, "model": meta.model,
                    "choices": [{"index": 0, "message": message, "finish_reason": finish_reason(finish, calls.len())}],
                    "usage": u, "timings": timings,
                }))
                .into_response();
            }
            Out::Failed(why, true) => {
                return error(StatusCode::BAD_REQUEST, "context_length_exceeded", why);
            }
            Out::Failed(why, false) => {
                return error(StatusCode::INTERNAL_SERVER_ERROR, "server_error", why);
            }
        }
    }
    error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "server_error",
        "the generation ended without a result",
    )
}
