//! The grammar for a call the request requires: the JSON of one call to
//! one of the allowed tools, its arguments matching that tool's schema
//! (llama.cpp's own JSON-schema-to-grammar), so even a tiny model emits a
//! call that validates.

use serde_json::{Value, json};

use crate::api::{Choice, Tool};

#[derive(Debug, thiserror::Error)]
#[error("cannot build a grammar from the tools' schemas: {0}")]
pub struct GrammarError(pub String);

/// The JSON schema of one call (`{"name": …, "arguments": {…}}`) to one of
/// the tools `choice` allows.
pub fn call_schema(tools: &[Tool], choice: &Choice) -> Value {
    let variants: Vec<Value> = tools
        .iter()
        .filter(|t| match choice {
            Choice::Named(n) => t.function.name == *n,
            _ => true,
        })
        .map(|t| {
            let params = t
                .function
                .parameters
                .clone()
                .filter(Value::is_object)
                .unwrap_or_else(|| json!({"type": "object"}));
            json!({
                "type": "object",
                "properties": {
                    "name": {"const": t.function.name},
                    "arguments": params,
                },
                "required": ["name", "arguments"],
                "additionalProperties": false,
            })
        })
        .collect();
    match variants.len() {
        1 => variants.into_iter().next().unwrap_or(Value::Null),
        _ => json!({ "anyOf": variants }),
    }
}

/// GBNF for [`call_schema`].
pub fn call_grammar(tools: &[Tool], choice: &Choice) -> Result<String, GrammarError> {
    let schema = call_schema(tools, choice).to_string();
    llama_cpp_2::json_schema_to_grammar(&schema).map_err(|e| GrammarError(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools() -> Vec<Tool> {
        serde_json::from_value(json!([
            {"type": "function", "function": {"name": "read_file", "parameters": {
                "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}},
            {"type": "function", "function": {"name": "now"}}
        ]))
        .unwrap()
    }

    #[test]
    fn a_named_choice_allows_that_tool_only_and_required_any() {
        let one = call_schema(&tools(), &Choice::Named("read_file".into()));
        assert_eq!(one["properties"]["name"]["const"], "read_file");
        assert_eq!(one["properties"]["arguments"]["required"], json!(["path"]));
        let any = call_schema(&tools(), &Choice::Required);
        assert_eq!(any["anyOf"].as_array().map(Vec::len), Some(2));
        assert_eq!(
            any["anyOf"][1]["properties"]["arguments"],
            json!({"type": "object"})
        );
    }

    #[test]
    fn llama_cpp_turns_the_schema_into_a_grammar() {
        let g = call_grammar(&tools(), &Choice::Named("read_file".into())).unwrap();
        assert!(g.contains("root ::="), "{g}");
        assert!(g.contains("read_file"), "{g}");
    }
}
