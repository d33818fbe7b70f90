//! The grammar for a call the request requires: the JSON of one call to
//! one of the allowed tools, its arguments matching that tool's schema
//! (llama.cpp's own JSON-schema-to-grammar), so even a tiny model emits a
//! call that validates.

use serde_json::{Value, json};

use crate::api::{Choice, Tool};
use crate::engine::Trigger;
use crate::template::Format;

#[derive(Debug, thiserror::Error)]
#[error("cannot build a grammar from the tools' schemas: {0}")]
pub struct GrammarError(pub String);

/// The JSON schema of one call (`{"name": …, "arguments": {…}}`) to one of
/// the tools `choice` allows.
pub fn call_schema(tools: &[Tool], choice: &Choice, key: &str) -> Value {
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
                    key: params,
                },
                "required": ["name", key],
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
pub fn call_grammar(tools: &[Tool], choice: &Choice, key: &str) -> Result<String, GrammarError> {
    let schema = call_schema(tools, choice, key).to_string();
    llama_cpp_2::json_schema_to_grammar(&schema).map_err(|e| GrammarError(e.to_string()))
}

/// GBNF for `auto`: once the model opens a call (the grammar is lazy,
/// see [`auto_trigger`]), the call must be one of the tools with arguments
/// that match its schema, then (Hermes) the closing tag. One call per
/// reply: a grammar that allowed more let a small model loop on calls
/// until `max_tokens` cut one in half (an error instead of an answer).
pub fn auto_grammar(tools: &[Tool], format: Format) -> Result<String, GrammarError> {
    use crate::template::{CALL_CLOSE, CALL_OPEN};
    let call = call_grammar(tools, &Choice::Required, format.arguments_key())?;
    let mut renamed = false;
    let body: Vec<String> = call
        .lines()
        .map(|l| match l.strip_prefix("root ::=") {
            Some(rest) => {
                renamed = true;
                format!("call ::={rest}")
            }
            None => l.to_string(),
        })
        .collect();
    if !renamed {
        return Err(GrammarError("llama.cpp's grammar has no root rule".into()));
    }
    let root = match format {
        Format::Hermes => {
            format!("root ::= {CALL_OPEN:?} [ \\t\\n]* call [ \\t\\n]* {CALL_CLOSE:?}")
        }
        Format::Llama3 => "root ::= call [ \\t\\n]*".to_string(),
    };
    Ok(format!("{root}\n{}\n", body.join("\n")))
}

/// What starts `auto`'s grammar: Hermes's opening tag; for Llama 3, whose
/// calls have no tag, a reply that begins as a call object does
/// (`{"name"`, after any white space).
pub fn auto_trigger(format: Format) -> Trigger {
    match format {
        Format::Hermes => Trigger::Word(crate::template::CALL_OPEN),
        Format::Llama3 => Trigger::Pattern(r#"\s*(\{\s*"name"[\s\S]*)"#.into()),
    }
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
        let one = call_schema(&tools(), &Choice::Named("read_file".into()), "arguments");
        assert_eq!(one["properties"]["name"]["const"], "read_file");
        assert_eq!(one["properties"]["arguments"]["required"], json!(["path"]));
        let any = call_schema(&tools(), &Choice::Required, "arguments");
        assert_eq!(any["anyOf"].as_array().map(Vec::len), Some(2));
        assert_eq!(
            any["anyOf"][1]["properties"]["arguments"],
            json!({"type": "object"})
        );
    }

    #[test]
    fn llama_cpp_turns_the_schema_into_a_grammar() {
        let g = call_grammar(&tools(), &Choice::Named("read_file".into()), "parameters").unwrap();
        assert!(g.contains("root ::="), "{g}");
        assert!(g.contains("read_file"), "{g}");
        assert!(g.contains("parameters"), "Llama 3's key: {g}");
    }

    #[test]
    fn llama_3s_auto_grammar_is_a_bare_call_started_by_its_opening() {
        let g = auto_grammar(&tools(), Format::Llama3).unwrap();
        let root = g.lines().find(|l| l.starts_with("root ::=")).unwrap();
        assert_eq!(root, "root ::= call [ \\t\\n]*", "{g}");
        assert!(g.contains("parameters"), "Llama 3's key: {g}");
        let Trigger::Pattern(p) = auto_trigger(Format::Llama3) else {
            panic!("a pattern")
        };
        // A full match of the reply so far; the grammar takes the group.
        let re = regex::Regex::new(&format!("^(?:{p})$")).unwrap();
        let caps = re.captures(" {\"name\": \"now\"").unwrap();
        assert_eq!(&caps[1], "{\"name\": \"now\"");
        assert!(!re.is_match("The answer is {\"name\": 1}"));
        assert!(!re.is_match("{\"nam"));
    }

    #[test]
    fn the_auto_grammar_wraps_a_call_in_its_tags() {
        let g = auto_grammar(&tools(), Format::Hermes).unwrap();
        let root = g.lines().find(|l| l.starts_with("root ::=")).unwrap();
        assert!(root.contains("\"<tool_call>\""), "{root}");
        assert!(root.contains("\"</tool_call>\""), "{root}");
        assert!(g.lines().any(|l| l.starts_with("call ::=")), "{g}");
        assert_eq!(g.lines().filter(|l| l.starts_with("root ::=")).count(), 1);
    }
}
