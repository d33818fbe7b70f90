//! Chat-completions messages, as Jarvis stores and sends them and the HUD
//! shows them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "system" => Role::System,
            "user" => Role::User,
            "assistant" => Role::Assistant,
            "tool" => Role::Tool,
            _ => return None,
        })
    }
}

/// One assembled tool call: the id, the function name and its raw JSON arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct ChatMessage {
    pub role: Role,
    pub content: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl ChatMessage {
    pub fn system(text: impl Into<String>) -> Self {
        Self::plain(Role::System, text)
    }
    pub fn user(text: impl Into<String>) -> Self {
        Self::plain(Role::User, text)
    }
    pub fn assistant(text: impl Into<String>) -> Self {
        Self::plain(Role::Assistant, text)
    }
    pub fn tool(call_id: impl Into<String>, text: impl Into<String>) -> Self {
        ChatMessage {
            role: Role::Tool,
            content: Some(text.into()),
            tool_calls: vec![],
            tool_call_id: Some(call_id.into()),
        }
    }
    fn plain(role: Role, text: impl Into<String>) -> Self {
        ChatMessage {
            role,
            content: Some(text.into()),
            tool_calls: vec![],
            tool_call_id: None,
        }
    }

    /// The OpenAI wire shape of this message.
    pub fn to_wire(&self) -> Value {
        let mut m = serde_json::Map::new();
        m.insert("role".into(), Value::from(self.role.as_str()));
        m.insert(
            "content".into(),
            match &self.content {
                Some(c) => Value::from(c.as_str()),
                None => Value::Null,
            },
        );
        if !self.tool_calls.is_empty() {
            let calls: Vec<Value> = self
                .tool_calls
                .iter()
                .map(|c| {
                    serde_json::json!({"id": c.id, "type": "function",
                        "function": {"name": c.name, "arguments": c.arguments}})
                })
                .collect();
            m.insert("tool_calls".into(), Value::from(calls));
        }
        if let Some(id) = &self.tool_call_id {
            m.insert("tool_call_id".into(), Value::from(id.as_str()));
        }
        Value::Object(m)
    }

    /// Characters this message costs in a request; the budget's unit.
    pub fn char_len(&self) -> usize {
        self.content.as_deref().map_or(0, |c| c.chars().count())
            + self
                .tool_calls
                .iter()
                .map(|c| c.name.len() + c.arguments.chars().count() + c.id.len() + 16)
                .sum::<usize>()
            + 8
    }
}
