//! Llama 3.x's own chat format: header-delimited turns, tool results in
//! `ipython` turns, and calls as the whole assistant message, a JSON
//! object `{"name": …, "parameters": {…}}` (after `<|python_tag|>` for
//! some builds). A model whose GGUF template is Llama 3's is spoken to in
//! it: prompted in another format it calls tools far less reliably.

use serde_json::{Value, json};

use crate::api::{ChatRequest, Choice};
use crate::template::{conversation, offered, system_text, tool_json};
use crate::toolcall::{CallError, Piece, parse_call};

const PYTHON_TAG: &str = "<|python_tag|>";

/// A GGUF chat template written for Llama 3.
pub fn is_llama3_template(template: &str) -> bool {
    template.contains("<|start_header_id|>") && template.contains("<|eot_id|>")
}

fn turn(out: &mut String, role: &str, text: &str) {
    out.push_str("<|start_header_id|>");
    out.push_str(role);
    out.push_str("<|end_header_id|>\n\n");
    out.push_str(text);
    out.push_str("<|eot_id|>");
}

/// The prompt for `req` (the tokenizer adds `<|begin_of_text|>`), ending
/// where the assistant's reply begins; a required call is left to the
/// grammar, which allows nothing but the call's JSON.
pub fn render(req: &ChatRequest, choice: &Choice) -> String {
    let tools = offered(req, choice);
    let mut system = system_text(req);
    if !tools.is_empty() {
        system.push_str(
            "\n\nYou have access to the following functions. To call one, reply with only a JSON \
             object of the form {\"name\": function name, \"parameters\": dictionary of argument \
             name and its value}. Do not use variables.\n",
        );
        for t in &tools {
            system.push('\n');
            system.push_str(&tool_json(t).to_string());
        }
    }
    let mut out = String::new();
    turn(&mut out, "system", &system);
    for m in conversation(req) {
        match m.role.as_str() {
            "assistant" => {
                let mut parts = vec![m.text()];
                parts.retain(|p| !p.is_empty());
                for c in &m.tool_calls {
                    let args: Value =
                        serde_json::from_str(&c.function.arguments).unwrap_or(Value::Null);
                    parts.push(json!({"name": c.function.name, "parameters": args}).to_string());
                }
                turn(&mut out, "assistant", &parts.join("\n"));
            }
            "tool" => turn(&mut out, "ipython", &m.text()),
            _ => turn(&mut out, "user", &m.text()),
        }
    }
    out.push_str("<|start_header_id|>assistant<|end_header_id|>\n\n");
    out
}

/// What the reply is, once its first characters say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Undecided,
    Text,
    Call,
}

/// Llama 3 calls in a stream: a reply that opens with `{"name"` or the
/// python tag is a call (or several, one per line or `;`-separated), and is
/// parsed whole at the end; any other reply streams as text at once.
#[derive(Debug)]
pub struct Llama3Parser {
    buf: String,
    mode: Mode,
}

impl Llama3Parser {
    /// `forced`: the grammar allows only a call.
    pub fn new(forced: bool) -> Self {
        Llama3Parser {
            buf: String::new(),
            mode: if forced { Mode::Call } else { Mode::Undecided },
        }
    }

    pub fn push(&mut self, delta: &str) -> Vec<Piece> {
        match self.mode {
            Mode::Text => return text(delta.to_string()),
            Mode::Call => {
                self.buf.push_str(delta);
                return vec![];
            }
            Mode::Undecided => self.buf.push_str(delta),
        }
        let head = self.buf.trim_start();
        let squeezed: String = head
            .chars()
            .filter(|c| !c.is_whitespace())
            .take(7)
            .collect();
        // `{"name": …}`, or `{"type": "function", "name": …}` as Llama 3.x
        // also writes it.
        let opens = |k: &str| k.starts_with(squeezed.as_str());
        if head.starts_with(PYTHON_TAG) || squeezed == "{\"name\"" || squeezed == "{\"type\"" {
            self.mode = Mode::Call;
            return vec![];
        }
        let could_be = PYTHON_TAG.starts_with(head) || opens("{\"name\"") || opens("{\"type\"");
        if head.is_empty() || could_be {
            return vec![];
        }
        self.mode = Mode::Text;
        text(std::mem::take(&mut self.buf))
    }

    pub fn finish(self) -> Result<Vec<Piece>, CallError> {
        if self.mode != Mode::Call {
            return Ok(text(self.buf));
        }
        let body = self.buf.trim().trim_start_matches(PYTHON_TAG).trim();
        // One call, or several: one JSON object after another.
        let mut calls = Vec::new();
        let mut rest = body;
        loop {
            rest = rest.trim_start_matches([';', ',', ' ', '\n', '\t', '\r']);
            if rest.is_empty() {
                break;
            }
            // Prose after the call(s) is the reply's text, not a broken call.
            if !calls.is_empty() && !rest.starts_with('{') {
                calls.push(Piece::Text(rest.to_string()));
                break;
            }
            let mut it = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
            match it.next() {
                Some(Ok(v)) => calls.push(parse_call(&v.to_string())?),
                Some(Err(e)) => {
                    return Err(CallError::Json {
                        why: e.to_string(),
                        text: body.to_string(),
                    });
                }
                None => break,
            }
            rest = &rest[it.byte_offset()..];
        }
        Ok(calls)
    }
}

fn text(t: String) -> Vec<Piece> {
    if t.is_empty() {
        vec![]
    } else {
        vec![Piece::Text(t)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str, n: usize, forced: bool) -> Result<Vec<Piece>, CallError> {
        let mut p = Llama3Parser::new(forced);
        let mut out = Vec::new();
        let chars: Vec<char> = text.chars().collect();
        for chunk in chars.chunks(n) {
            out.extend(p.push(&chunk.iter().collect::<String>()));
        }
        out.extend(p.finish()?);
        let mut joined: Vec<Piece> = Vec::new();
        for piece in out {
            match (joined.last_mut(), piece) {
                (Some(Piece::Text(a)), Piece::Text(b)) => a.push_str(&b),
                (_, p) => joined.push(p),
            }
        }
        Ok(joined)
    }

    fn call(name: &str, args: &str) -> Piece {
        Piece::Call {
            name: name.into(),
            arguments: args.into(),
        }
    }

    // Shaped as Llama 3.1/3.2 Instruct reply through llama.cpp: a bare JSON
    // call, the python-tag form, two calls, and plain text.
    const BARE: &str = "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Oslo\"}}";
    const TAGGED: &str =
        "<|python_tag|>{\"name\": \"read_file\", \"parameters\": {\"path\": \"notes/todo.md\"}}";
    const TWO: &str = "{\"name\": \"list_dir\", \"parameters\": {\"path\": \".\"}}; {\"name\": \"read_file\", \"parameters\": {\"path\": \"a.txt\"}}";
    const TEXT: &str = "It is 18 °C and sunny in Oslo; {\"name\" is not a call here}.";

    #[test]
    fn calls_split_anywhere_come_out_whole() {
        for n in [1, 2, 3, 5, 8, 64] {
            assert_eq!(
                split(BARE, n, false).unwrap(),
                vec![call("get_weather", "{\"city\":\"Oslo\"}")],
                "{n}"
            );
            assert_eq!(
                split(&format!("  \n{TAGGED}"), n, false).unwrap(),
                vec![call("read_file", "{\"path\":\"notes/todo.md\"}")],
                "{n}"
            );
            assert_eq!(
                split(TWO, n, false).unwrap(),
                vec![
                    call("list_dir", "{\"path\":\".\"}"),
                    call("read_file", "{\"path\":\"a.txt\"}")
                ],
                "{n}"
            );
            assert_eq!(
                split(TEXT, n, false).unwrap(),
                vec![Piece::Text(TEXT.into())],
                "{n}"
            );
        }
    }

    #[test]
    fn text_streams_as_soon_as_it_cannot_be_a_call() {
        let mut p = Llama3Parser::new(false);
        assert_eq!(p.push("{"), vec![]);
        assert_eq!(p.push("\"na"), vec![]);
        assert_eq!(p.push("x"), vec![Piece::Text("{\"nax".into())]);
        assert_eq!(p.push(" more"), vec![Piece::Text(" more".into())]);
    }

    #[test]
    fn the_typed_call_shape_and_prose_after_a_call() {
        let typed = "{\"type\": \"function\", \"name\": \"now\", \"parameters\": {}}";
        for n in [1, 3, 64] {
            assert_eq!(
                split(typed, n, false).unwrap(),
                vec![call("now", "{}")],
                "{n}"
            );
        }
        assert_eq!(
            split(&format!("{BARE} I will check the weather."), 4, false).unwrap(),
            vec![
                call("get_weather", "{\"city\":\"Oslo\"}"),
                Piece::Text("I will check the weather.".into())
            ]
        );
    }

    #[test]
    fn a_forced_call_and_a_broken_one() {
        assert_eq!(
            split("{\"name\": \"now\", \"parameters\": {}}", 3, true).unwrap(),
            vec![call("now", "{}")]
        );
        assert!(matches!(
            split("{\"name\": \"x\", \"parameters\": {\"a\": }", 3, false),
            Err(CallError::Json { .. })
        ));
    }

    #[test]
    fn the_prompt_is_llama3s_own() {
        let req: ChatRequest = serde_json::from_value(json!({
            "messages": [
                {"role": "user", "content": "read a.txt"},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"a.txt\"}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "hello"}
            ],
            "tools": [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}]
        }))
        .unwrap();
        let p = render(&req, &Choice::Auto);
        assert!(
            p.starts_with(
                "<|start_header_id|>system<|end_header_id|>\n\nYou are a helpful assistant."
            ),
            "{p}"
        );
        assert!(p.contains("\"name\":\"read_file\""), "{p}");
        assert!(p.contains("<|start_header_id|>assistant<|end_header_id|>\n\n{\"name\":\"read_file\",\"parameters\":{\"path\":\"a.txt\"}}<|eot_id|>"), "{p}");
        assert!(
            p.contains("<|start_header_id|>ipython<|end_header_id|>\n\nhello<|eot_id|>"),
            "{p}"
        );
        assert!(
            p.ends_with("<|start_header_id|>assistant<|end_header_id|>\n\n"),
            "{p}"
        );
        assert!(
            !render(&req, &Choice::None).contains("You have access"),
            "none shows no tools"
        );
        assert!(is_llama3_template(
            "{{ '<|start_header_id|>' + role }}…<|eot_id|>"
        ));
        assert!(!is_llama3_template("<|im_start|>"));
    }
}
