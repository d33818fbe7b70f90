//! Turns the `data:` payloads of a chat-completions stream into one assistant
//! message, tolerating what real providers do: missing or 1-based `index`,
//! repeated empty names, empty ids on later deltas, whole arguments at once,
//! interleaved parallel calls, `reasoning` instead of `reasoning_content`,
//! usage-only chunks, and `error` payloads mid-stream.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::ToolCall;
use super::error::LlmError;
use jarvis_protocol::Usage;

/// Something the host can show while the stream is still running.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamDelta {
    Content(String),
    Reasoning(String),
    /// A tool call became known; `slot` numbers calls in first-seen order.
    ToolCallStarted {
        slot: usize,
        id: String,
        name: String,
    },
    ToolCallArguments {
        slot: usize,
        delta: String,
    },
}

/// The finished assistant message.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Assembled {
    pub content: Option<String>,
    pub reasoning: Option<String>,
    pub refusal: Option<String>,
    pub tool_calls: Vec<ToolCall>,
    pub finish_reason: Option<String>,
    pub usage: Option<Usage>,
    pub done_marker: bool,
    pub chunks: usize,
}

#[derive(Deserialize)]
struct RawChunk<'a> {
    #[serde(borrow, default)]
    choices: Option<Vec<RawChoice<'a>>>,
    #[serde(default)]
    usage: Option<RawUsage>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct RawChoice<'a> {
    #[serde(default)]
    index: Option<u64>,
    #[serde(borrow, default)]
    delta: Option<RawDelta<'a>>,
    #[serde(borrow, default)]
    finish_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct RawDelta<'a> {
    #[serde(borrow, default)]
    content: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    refusal: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    reasoning_content: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    reasoning: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tool_calls: Option<Vec<RawToolCall<'a>>>,
}

#[derive(Deserialize)]
struct RawToolCall<'a> {
    #[serde(default)]
    index: Option<u64>,
    #[serde(borrow, default)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    function: Option<RawFunction<'a>>,
}

#[derive(Deserialize)]
struct RawFunction<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct RawUsage {
    #[serde(default)]
    prompt_tokens: Option<u64>,
    #[serde(default)]
    completion_tokens: Option<u64>,
    #[serde(default)]
    total_tokens: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SlotKey {
    Index(u64),
    Positional(usize),
}

#[derive(Debug)]
struct Slot {
    key: SlotKey,
    id: String,
    name: String,
    arguments: String,
    announced: bool,
}

/// Feed it each SSE `data` payload in order, then call [`finish`](Self::finish).
#[derive(Debug, Default)]
pub struct StreamAssembler {
    out: Assembled,
    slots: Vec<Slot>,
    last_slot: Option<usize>,
    positional: usize,
    error: Option<String>,
}

impl StreamAssembler {
    pub fn new() -> Self {
        Self::default()
    }

    /// True once `[DONE]` or an error payload arrived; later data is ignored.
    pub fn is_finished(&self) -> bool {
        self.out.done_marker || self.error.is_some()
    }

    /// Takes one event's data; pushes what can be shown right away.
    pub fn feed(&mut self, data: &str, deltas: &mut Vec<StreamDelta>) -> Result<(), LlmError> {
        if self.is_finished() {
            return Ok(());
        }
        if data.trim() == "[DONE]" {
            self.out.done_marker = true;
            return Ok(());
        }
        let chunk: RawChunk<'_> =
            serde_json::from_str(data).map_err(|e| LlmError::MalformedChunk {
                chunk: self.out.chunks + 1,
                reason: e.to_string(),
                snippet: snippet(data),
            })?;
        self.out.chunks += 1;
        if let Some(err) = chunk.error.filter(|e| !e.is_null()) {
            self.error = Some(error_message(&err));
            return Ok(());
        }
        if let Some(u) = chunk.usage {
            let prompt = u.prompt_tokens.unwrap_or(0);
            let completion = u.completion_tokens.unwrap_or(0);
            self.out.usage = Some(Usage {
                prompt_tokens: prompt,
                completion_tokens: completion,
                total_tokens: u.total_tokens.unwrap_or(prompt + completion),
            });
        }
        for choice in chunk.choices.unwrap_or_default() {
            if choice.index.unwrap_or(0) != 0 {
                continue;
            }
            if let Some(delta) = choice.delta {
                self.apply_delta(delta, deltas)?;
            }
            if let Some(f) = choice.finish_reason {
                self.out.finish_reason = Some(f.into_owned());
            }
        }
        Ok(())
    }

    fn apply_delta(
        &mut self,
        delta: RawDelta<'_>,
        deltas: &mut Vec<StreamDelta>,
    ) -> Result<(), LlmError> {
        if let Some(c) = delta.content.filter(|c| !c.is_empty()) {
            append(&mut self.out.content, &c);
            deltas.push(StreamDelta::Content(c.into_owned()));
        }
        if let Some(r) = delta.refusal.filter(|c| !c.is_empty()) {
            append(&mut self.out.refusal, &r);
        }
        for r in [delta.reasoning_content, delta.reasoning]
            .into_iter()
            .flatten()
            .filter(|r| !r.is_empty())
        {
            append(&mut self.out.reasoning, &r);
            deltas.push(StreamDelta::Reasoning(r.into_owned()));
        }
        for tc in delta.tool_calls.unwrap_or_default() {
            self.apply_tool_call(tc, deltas)?;
        }
        Ok(())
    }

    fn apply_tool_call(
        &mut self,
        tc: RawToolCall<'_>,
        deltas: &mut Vec<StreamDelta>,
    ) -> Result<(), LlmError> {
        let id = tc.id.filter(|i| !i.is_empty());
        let pos = match (tc.index, &id) {
            (Some(i), _) => self.slot_for(SlotKey::Index(i)),
            // No index: a new non-empty id opens a call, anything else continues the last one.
            (None, Some(id)) => match self.last_slot {
                Some(last) if self.slots[last].id == id.as_ref() => last,
                _ => {
                    let key = SlotKey::Positional(self.positional);
                    self.positional += 1;
                    self.slot_for(key)
                }
            },
            (None, None) => match self.last_slot {
                Some(last) => last,
                None => {
                    let key = SlotKey::Positional(self.positional);
                    self.positional += 1;
                    self.slot_for(key)
                }
            },
        };
        self.last_slot = Some(pos);
        let slot = &mut self.slots[pos];
        if let Some(id) = id
            && slot.id.is_empty()
        {
            slot.id = id.into_owned();
        }
        let mut args_delta = None;
        if let Some(f) = tc.function {
            if let Some(n) = f.name.filter(|n| !n.is_empty())
                && slot.name.is_empty()
            {
                slot.name = n.into_owned();
            }
            if let Some(raw) = f.arguments {
                let text = raw.get();
                let piece = if text.starts_with('"') {
                    let s: Cow<'_, str> =
                        serde_json::from_str(text).map_err(|e| LlmError::MalformedChunk {
                            chunk: self.out.chunks,
                            reason: format!("tool-call arguments: {e}"),
                            snippet: snippet(text),
                        })?;
                    s.into_owned()
                } else if text == "null" {
                    String::new()
                } else {
                    // Some servers send the arguments as a JSON object, not a string.
                    text.to_string()
                };
                if !piece.is_empty() {
                    slot.arguments.push_str(&piece);
                    args_delta = Some(piece);
                }
            }
        }
        if !slot.announced && !slot.name.is_empty() {
            slot.announced = true;
            if slot.id.is_empty() {
                slot.id = format!("call_{}", uuid::Uuid::new_v4().simple());
            }
            deltas.push(StreamDelta::ToolCallStarted {
                slot: pos,
                id: slot.id.clone(),
                name: slot.name.clone(),
            });
            // Arguments that arrived before the name are shown now, once.
            if !slot.arguments.is_empty() {
                deltas.push(StreamDelta::ToolCallArguments {
                    slot: pos,
                    delta: slot.arguments.clone(),
                });
            }
        } else if let Some(piece) = args_delta
            && slot.announced
        {
            deltas.push(StreamDelta::ToolCallArguments {
                slot: pos,
                delta: piece,
            });
        }
        Ok(())
    }

    fn slot_for(&mut self, key: SlotKey) -> usize {
        if let Some(p) = self.slots.iter().position(|s| s.key == key) {
            return p;
        }
        self.slots.push(Slot {
            key,
            id: String::new(),
            name: String::new(),
            arguments: String::new(),
            announced: false,
        });
        self.slots.len() - 1
    }

    /// The error a provider sent inside the stream, if any.
    pub fn provider_error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Ends the stream. `legacy_error` is llama.cpp's non-SSE `error:` line, if seen.
    /// A stream that errored, ended early or said nothing is an error, never an
    /// empty or partial answer.
    pub fn finish(mut self, legacy_error: Option<&str>) -> Result<Assembled, LlmError> {
        if let Some(e) = self.error.take() {
            return Err(LlmError::Provider { message: e });
        }
        if let Some(e) = legacy_error {
            let message = serde_json::from_str::<Value>(e)
                .map(|v| error_message(&v))
                .unwrap_or_else(|_| e.to_string());
            return Err(LlmError::Provider { message });
        }
        if !self.out.done_marker && self.out.finish_reason.is_none() {
            return Err(LlmError::Truncated {
                chunks: self.out.chunks,
            });
        }
        let mut slots = std::mem::take(&mut self.slots);
        slots.sort_by_key(|s| match s.key {
            SlotKey::Index(i) => (0, i),
            SlotKey::Positional(p) => (1, p as u64),
        });
        self.out.tool_calls = slots
            .into_iter()
            .map(|s| ToolCall {
                id: if s.id.is_empty() {
                    format!("call_{}", uuid::Uuid::new_v4().simple())
                } else {
                    s.id
                },
                name: s.name,
                arguments: s.arguments,
            })
            .collect();
        if self.out.content.is_none()
            && self.out.refusal.is_none()
            && self.out.tool_calls.is_empty()
        {
            return Err(LlmError::EmptyAnswer {
                finish_reason: self.out.finish_reason.clone(),
            });
        }
        Ok(self.out)
    }
}

fn append(dest: &mut Option<String>, s: &str) {
    dest.get_or_insert_with(String::new).push_str(s);
}

fn snippet(s: &str) -> String {
    let mut out: String = s.chars().take(120).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// The human-readable message of an OpenAI-style error object.
pub(crate) fn error_message(err: &Value) -> String {
    match err {
        Value::String(s) => s.clone(),
        Value::Object(o) => {
            let msg = o
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| err.to_string());
            match o
                .get("type")
                .or_else(|| o.get("code"))
                .and_then(Value::as_str)
            {
                Some(kind) if !msg.contains(kind) => format!("{msg} ({kind})"),
                _ => msg,
            }
        }
        other => other.to_string(),
    }
}
