//! The prompt: ChatML with the tools in a system block and calls in
//! Hermes `<tool_call>` tags (Qwen 2.5/3 and SmolLM speak it). A model's
//! own template is not used when it has no tool support (SmolLM2's has
//! none and breaks on a message whose content is null): the tools are never
//! silently lost.

use serde_json::{Value, json};

use crate::api::{ChatRequest, Choice};

/// How a model is prompted and how its calls are read: chosen from the
/// GGUF's own chat template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// ChatML with Hermes `<tool_call>` tags: Qwen 2.5/3, SmolLM, and any
    /// model whose template is not one Jarvis knows better.
    Hermes,
    /// Llama 3.x's headers and JSON calls.
    Llama3,
}

impl Format {
    pub fn of(template: Option<&str>) -> Self {
        match template {
            Some(t) if crate::llama3::is_llama3_template(t) => Format::Llama3,
            _ => Format::Hermes,
        }
    }

    pub fn render(self, req: &ChatRequest, choice: &Choice) -> String {
        match self {
            Format::Hermes => render(req, choice),
            Format::Llama3 => crate::llama3::render(req, choice),
        }
    }

    /// `forced`: the grammar allows only a call.
    pub fn parser(self, forced: bool) -> crate::toolcall::Parser {
        match self {
            Format::Hermes => {
                crate::toolcall::Parser::Hermes(crate::toolcall::CallParser::new(forced))
            }
            Format::Llama3 => {
                crate::toolcall::Parser::Llama3(crate::llama3::Llama3Parser::new(forced))
            }
        }
    }

    /// The key a call's arguments go under in this format.
    pub fn arguments_key(self) -> &'static str {
        match self {
            Format::Hermes => "arguments",
            Format::Llama3 => "parameters",
        }
    }
}

pub const CALL_OPEN: &str = "<tool_call>";
pub const CALL_CLOSE: &str = "</tool_call>";

/// The prompt for `req`, ending where the assistant's reply begins. With a
/// call required, it ends inside the call's opening tag, so the grammar
/// only has the JSON left to constrain.
pub fn render(req: &ChatRequest, choice: &Choice) -> String {
    let mut out = String::new();
    let tools = offered(req, choice);
    let mut system = system_text(req);
    if !tools.is_empty() {
        system.push_str(
            "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n\
             You are provided with function signatures within <tools></tools> XML tags:\n<tools>",
        );
        for t in &tools {
            system.push('\n');
            system.push_str(&tool_json(t).to_string());
        }
        system.push_str(
            "\n</tools>\n\nFor each function call, return a json object with function name and \
             arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n\
             {\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>",
        );
    }
    turn(&mut out, "system", &system);
    for m in conversation(req) {
        match m.role.as_str() {
            "assistant" => {
                let mut text = m.text();
                for c in &m.tool_calls {
                    let args: Value =
                        serde_json::from_str(&c.function.arguments).unwrap_or(Value::Null);
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&format!(
                        "{CALL_OPEN}\n{}\n{CALL_CLOSE}",
                        json!({"name": c.function.name, "arguments": args})
                    ));
                }
                turn(&mut out, "assistant", &text);
            }
            "tool" => turn(
                &mut out,
                "user",
                &format!("<tool_response>\n{}\n</tool_response>", m.text()),
            ),
            _ => turn(&mut out, "user", &m.text()),
        }
    }
    out.push_str("<|im_start|>assistant\n");
    if matches!(choice, Choice::Required | Choice::Named(_)) {
        out.push_str(CALL_OPEN);
        out.push('\n');
    }
    out
}

/// The tools `choice` lets the model see.
pub(crate) fn offered<'a>(req: &'a ChatRequest, choice: &Choice) -> Vec<&'a crate::api::Tool> {
    match choice {
        Choice::None => vec![],
        Choice::Named(n) => req.tools.iter().filter(|t| t.function.name == *n).collect(),
        _ => req.tools.iter().collect(),
    }
}

/// The system and developer messages as one text (a default when none).
pub(crate) fn system_text(req: &ChatRequest) -> String {
    let system: Vec<String> = req
        .messages
        .iter()
        .filter(|m| m.role == "system" || m.role == "developer")
        .map(|m| m.text())
        .collect();
    if system.is_empty() {
        "You are a helpful assistant.".into()
    } else {
        system.join("\n\n")
    }
}

/// The rest of the conversation, in order.
pub(crate) fn conversation(req: &ChatRequest) -> impl Iterator<Item = &crate::api::Message> {
    req.messages
        .iter()
        .filter(|m| m.role != "system" && m.role != "developer")
}

/// A tool as the prompt lists it.
pub(crate) fn tool_json(t: &crate::api::Tool) -> Value {
    json!({
        "type": "function",
        "function": {
            "name": t.function.name,
            "description": t.function.description.clone().unwrap_or_default(),
            "parameters": t.function.parameters.clone().unwrap_or_else(|| json!({"type": "object"})),
        }
    })
}

fn turn(out: &mut String, role: &str, text: &str) {
    out.push_str("<|im_start|>");
    out.push_str(role);
    out.push('\n');
    out.push_str(text);
    out.push_str("<|im_end|>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(v: Value) -> ChatRequest {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn tools_calls_and_results_are_in_the_prompt_and_null_content_is_fine() {
        let r = req(json!({
            "messages": [
                {"role": "user", "content": "read a.txt"},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"a.txt\"}"}}
                ]},
                {"role": "tool", "tool_call_id": "c1", "content": "hello"}
            ],
            "tools": [{"type": "function", "function": {"name": "read_file", "description": "Read a file",
                       "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}]
        }));
        let p = render(&r, &Choice::Auto);
        assert!(
            p.starts_with("<|im_start|>system\nYou are a helpful assistant.\n\n# Tools"),
            "{p}"
        );
        assert!(p.contains("\"name\":\"read_file\""), "{p}");
        assert!(p.contains("<|im_start|>assistant\n<tool_call>\n{\"arguments\":{\"path\":\"a.txt\"},\"name\":\"read_file\"}\n</tool_call><|im_end|>"), "{p}");
        assert!(
            p.contains("<|im_start|>user\n<tool_response>\nhello\n</tool_response><|im_end|>"),
            "{p}"
        );
        assert!(p.ends_with("<|im_start|>assistant\n"), "{p}");
        let forced = render(&r, &Choice::Required);
        assert!(
            forced.ends_with("<|im_start|>assistant\n<tool_call>\n"),
            "{forced}"
        );
        let none = render(&r, &Choice::None);
        assert!(!none.contains("# Tools"), "tool_choice none shows no tools");
    }
}
