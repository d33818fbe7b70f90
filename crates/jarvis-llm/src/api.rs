//! The part of the OpenAI chat API the worker speaks: what a request may
//! carry and how `tool_choice` is read.

use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Clone, Deserialize)]
pub struct ChatRequest {
    #[serde(default)]
    pub model: Option<String>,
    pub messages: Vec<Message>,
    #[serde(default)]
    pub tools: Vec<Tool>,
    #[serde(default)]
    pub tool_choice: Option<Value>,
    #[serde(default)]
    pub stream: bool,
    #[serde(default, alias = "max_completion_tokens")]
    pub max_tokens: Option<u32>,
    #[serde(default)]
    pub temperature: Option<f32>,
    #[serde(default)]
    pub top_p: Option<f32>,
    #[serde(default)]
    pub seed: Option<u32>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Message {
    pub role: String,
    /// A string, `null` (an assistant message that only calls tools) or
    /// an array of parts (`[{"type":"text","text":…}]`).
    #[serde(default)]
    pub content: Option<Value>,
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default)]
    pub tool_call_id: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
}

impl Message {
    /// The text of the content, whatever its shape.
    pub fn text(&self) -> String {
        match &self.content {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(parts)) => parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(""),
            Some(other) => other.to_string(),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct ToolCall {
    #[serde(default)]
    pub id: Option<String>,
    pub function: FunctionCall,
}

#[derive(Debug, Clone, Deserialize)]
pub struct FunctionCall {
    pub name: String,
    /// A JSON text, as the API has it.
    #[serde(default)]
    pub arguments: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Tool {
    pub function: Function,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Function {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub parameters: Option<Value>,
}

/// What the request lets (or makes) the model do with its tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// Text or calls, as the model decides.
    Auto,
    /// Text only.
    None,
    /// At least one call, to any tool.
    Required,
    /// One call to this tool.
    Named(String),
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ChoiceError {
    #[error("tool_choice {0} is not one of auto, none, required or a named function")]
    Unknown(String),
    #[error("tool_choice names {0}, which is not among the request's tools")]
    NoSuchTool(String),
    #[error("tool_choice is {0} but the request has no tools")]
    NoTools(String),
}

impl ChatRequest {
    /// `tool_choice` read against the request's tools.
    pub fn choice(&self) -> Result<Choice, ChoiceError> {
        let choice = match &self.tool_choice {
            None => Choice::Auto,
            Some(Value::String(s)) => match s.as_str() {
                "auto" => Choice::Auto,
                "none" => Choice::None,
                "required" => Choice::Required,
                other => return Err(ChoiceError::Unknown(other.into())),
            },
            Some(v) => match v.pointer("/function/name").and_then(Value::as_str) {
                Some(name) => Choice::Named(name.into()),
                None => return Err(ChoiceError::Unknown(v.to_string())),
            },
        };
        match &choice {
            Choice::Named(n) if !self.tools.iter().any(|t| t.function.name == *n) => {
                Err(ChoiceError::NoSuchTool(n.clone()))
            }
            Choice::Required | Choice::Named(_) if self.tools.is_empty() => {
                Err(ChoiceError::NoTools(format!("{choice:?}").to_lowercase()))
            }
            // No tools: nothing to call.
            Choice::Auto if self.tools.is_empty() => Ok(Choice::None),
            _ => Ok(choice),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(v: Value) -> ChatRequest {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn tool_choice_is_read_against_the_tools() {
        let tools = serde_json::json!([{"type":"function","function":{"name":"read_file","parameters":{"type":"object"}}}]);
        let r = |choice: Value| {
            req(serde_json::json!({"messages": [], "tools": tools, "tool_choice": choice})).choice()
        };
        assert_eq!(r(Value::Null), Ok(Choice::Auto));
        assert_eq!(r("required".into()), Ok(Choice::Required));
        assert_eq!(r("none".into()), Ok(Choice::None));
        assert_eq!(
            r(serde_json::json!({"type":"function","function":{"name":"read_file"}})),
            Ok(Choice::Named("read_file".into()))
        );
        assert_eq!(
            r(serde_json::json!({"type":"function","function":{"name":"rm"}})),
            Err(ChoiceError::NoSuchTool("rm".into()))
        );
        assert!(matches!(
            r("sometimes".into()),
            Err(ChoiceError::Unknown(_))
        ));
        let none = req(serde_json::json!({"messages": [], "tool_choice": "required"}));
        assert!(matches!(none.choice(), Err(ChoiceError::NoTools(_))));
        let plain = req(serde_json::json!({"messages": []}));
        assert_eq!(
            plain.choice(),
            Ok(Choice::None),
            "auto with no tools gives text"
        );
    }

    #[test]
    fn content_of_every_shape_is_text() {
        let m: Message =
            serde_json::from_value(serde_json::json!({"role":"assistant","content":null})).unwrap();
        assert_eq!(m.text(), "");
        let m: Message = serde_json::from_value(
            serde_json::json!({"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}),
        )
        .unwrap();
        assert_eq!(m.text(), "ab");
    }
}
