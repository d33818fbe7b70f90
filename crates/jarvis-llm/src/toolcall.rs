//! Hermes tool calls in a stream of text: `<tool_call>{"name": …,
//! "arguments": {…}}</tool_call>`, with text around them, split anywhere
//! across deltas. Text that might be the start of a tag is held back until
//! the next delta says which it is.

use serde_json::Value;

use crate::template::{CALL_CLOSE, CALL_OPEN};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Call { name: String, arguments: String },
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CallError {
    #[error("the model's tool call is not JSON ({why}): {text}")]
    Json { why: String, text: String },
    #[error("the model's tool call names no function: {0}")]
    NoName(String),
    #[error("the model's tool call has arguments that are not an object: {0}")]
    Arguments(String),
}

#[derive(Debug, Default)]
pub struct CallParser {
    buf: String,
    in_call: bool,
}

impl CallParser {
    /// `in_call`: the prompt already opened the call (a forced call).
    pub fn new(in_call: bool) -> Self {
        CallParser {
            buf: String::new(),
            in_call,
        }
    }

    pub fn push(&mut self, delta: &str) -> Result<Vec<Piece>, CallError> {
        self.buf.push_str(delta);
        let mut out = Vec::new();
        loop {
            if self.in_call {
                let Some(end) = self.buf.find(CALL_CLOSE) else {
                    break;
                };
                let body = self.buf[..end].to_string();
                self.buf.drain(..end + CALL_CLOSE.len());
                self.in_call = false;
                out.push(parse_call(&body)?);
            } else if let Some(start) = self.buf.find(CALL_OPEN) {
                let text = self.buf[..start].to_string();
                self.buf.drain(..start + CALL_OPEN.len());
                self.in_call = true;
                push_text(&mut out, text);
            } else {
                let keep = partial_tag(&self.buf);
                let text: String = self.buf.drain(..self.buf.len() - keep).collect();
                push_text(&mut out, text);
                break;
            }
        }
        Ok(out)
    }

    /// The end of the stream: a call still open is parsed as it stands (a
    /// grammar ends the JSON and the model stops without the closing tag).
    pub fn finish(mut self) -> Result<Vec<Piece>, CallError> {
        let rest = std::mem::take(&mut self.buf);
        if self.in_call {
            return Ok(vec![parse_call(&rest)?]);
        }
        let mut out = Vec::new();
        push_text(&mut out, rest);
        Ok(out)
    }
}

/// The call parser for the prompt format in use.
#[derive(Debug)]
pub enum Parser {
    Hermes(CallParser),
    Llama3(crate::llama3::Llama3Parser),
}

impl Default for Parser {
    fn default() -> Self {
        Parser::Hermes(CallParser::default())
    }
}

impl Parser {
    pub fn push(&mut self, delta: &str) -> Result<Vec<Piece>, CallError> {
        match self {
            Parser::Hermes(p) => p.push(delta),
            Parser::Llama3(p) => Ok(p.push(delta)),
        }
    }

    pub fn finish(self) -> Result<Vec<Piece>, CallError> {
        match self {
            Parser::Hermes(p) => p.finish(),
            Parser::Llama3(p) => p.finish(),
        }
    }
}

fn push_text(out: &mut Vec<Piece>, text: String) {
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
}

/// How many bytes at the end of `buf` could begin the opening tag.
fn partial_tag(buf: &str) -> usize {
    (1..CALL_OPEN.len())
        .rev()
        .find(|&k| buf.ends_with(&CALL_OPEN[..k]))
        .unwrap_or(0)
}

pub(crate) fn parse_call(body: &str) -> Result<Piece, CallError> {
    let text = body.trim();
    let v: Value = serde_json::from_str(text).map_err(|e| CallError::Json {
        why: e.to_string(),
        text: text.to_string(),
    })?;
    let name = v
        .get("name")
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty())
        .ok_or_else(|| CallError::NoName(text.to_string()))?
        .to_string();
    let args = v
        .get("arguments")
        .or_else(|| v.get("parameters"))
        .cloned()
        .unwrap_or_else(|| Value::Object(Default::default()));
    // Some models send the arguments as a JSON string.
    let args = match args {
        Value::String(s) => serde_json::from_str(&s).map_err(|_| CallError::Arguments(s))?,
        other => other,
    };
    if !args.is_object() {
        return Err(CallError::Arguments(args.to_string()));
    }
    Ok(Piece::Call {
        name,
        arguments: args.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `text` in pieces of `n` characters and gathers what comes out.
    fn split(text: &str, n: usize, in_call: bool) -> Result<Vec<Piece>, CallError> {
        let mut p = CallParser::new(in_call);
        let mut out = Vec::new();
        let chars: Vec<char> = text.chars().collect();
        for chunk in chars.chunks(n) {
            out.extend(p.push(&chunk.iter().collect::<String>())?);
        }
        out.extend(p.finish()?);
        Ok(join_text(out))
    }

    fn join_text(pieces: Vec<Piece>) -> Vec<Piece> {
        let mut out: Vec<Piece> = Vec::new();
        for p in pieces {
            match (out.last_mut(), p) {
                (Some(Piece::Text(a)), Piece::Text(b)) => a.push_str(&b),
                (_, p) => out.push(p),
            }
        }
        out
    }

    // Recorded from Qwen2.5-1.5B-Instruct and SmolLM2 through llama.cpp.
    const QWEN: &str = "I'll check the file first.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"notes/todo.md\"}}\n</tool_call>";
    const TWO: &str = "<tool_call>\n{\"name\": \"list_dir\", \"arguments\": {\"path\": \".\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": \"{\\\"path\\\": \\\"a.txt\\\"}\"}\n</tool_call>";

    #[test]
    fn calls_split_anywhere_across_deltas_come_out_whole_with_their_text() {
        for n in [1, 2, 3, 5, 7, 11, 64] {
            assert_eq!(
                split(QWEN, n, false).unwrap(),
                vec![
                    Piece::Text("I'll check the file first.\n".into()),
                    Piece::Call {
                        name: "read_file".into(),
                        arguments: "{\"path\":\"notes/todo.md\"}".into()
                    }
                ],
                "pieces of {n}"
            );
            let two = split(TWO, n, false).unwrap();
            assert_eq!(two.len(), 3, "{two:?}");
            assert_eq!(
                two[2],
                Piece::Call {
                    name: "read_file".into(),
                    arguments: "{\"path\":\"a.txt\"}".into()
                },
                "arguments given as a JSON string"
            );
        }
    }

    #[test]
    fn text_that_only_looks_like_a_tag_is_text_and_nothing_is_lost() {
        let t = "Use a <tool> or x < y; the tag <tool_cal is not one. ünïcödé";
        for n in [1, 3, 8] {
            assert_eq!(split(t, n, false).unwrap(), vec![Piece::Text(t.into())]);
        }
    }

    #[test]
    fn a_forced_call_without_its_closing_tag_is_still_a_call() {
        let body = "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}";
        assert_eq!(
            split(body, 4, true).unwrap(),
            vec![Piece::Call {
                name: "get_weather".into(),
                arguments: "{\"city\":\"Oslo\"}".into()
            }]
        );
    }

    #[test]
    fn malformed_calls_are_errors_that_say_what_is_wrong() {
        assert!(matches!(
            split(
                "<tool_call>{\"name\": \"x\", \"arguments\": {</tool_call>",
                3,
                false
            ),
            Err(CallError::Json { .. })
        ));
        assert!(matches!(
            split("<tool_call>{\"arguments\": {}}</tool_call>", 3, false),
            Err(CallError::NoName(_))
        ));
        assert!(matches!(
            split(
                "<tool_call>{\"name\": \"x\", \"arguments\": [1]}</tool_call>",
                3,
                false
            ),
            Err(CallError::Arguments(_))
        ));
    }
}
