//! `@tool` at the start of a message: the user names the tool the model
//! must call first (OpenAI's named `tool_choice`), for a small local model
//! that rarely calls one unprompted, or to be sure a question is answered
//! from the files rather than from memory. Only the first request of the
//! turn is held to it; the model answers freely after the result.

use serde_json::Value;

/// What a leading `@name` asks for.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Mention {
    /// Not a mention (no `@`, or an e-mail-like word).
    None,
    /// A tool the model is offered now.
    Tool(String),
    /// A name that is not offered: said to the user, the turn goes on
    /// unforced.
    Unknown(String),
}

/// The tool a message's first word names, checked against the tools the
/// model is offered in this run (toggles and the run's list already
/// applied, so a mention never reaches a tool that is off).
pub(super) fn mention(text: &str, offered: &[Value]) -> Mention {
    let Some(word) = text.split_whitespace().next() else {
        return Mention::None;
    };
    let Some(name) = word.strip_prefix('@') else {
        return Mention::None;
    };
    let name = name.trim_end_matches([',', ':', ';', '.']);
    let is_name = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !is_name {
        return Mention::None;
    }
    let known = offered
        .iter()
        .filter_map(|t| t["function"]["name"].as_str())
        .any(|n| n == name);
    if known {
        Mention::Tool(name.to_string())
    } else {
        Mention::Unknown(name.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn offered() -> Vec<Value> {
        vec![
            json!({"type": "function", "function": {"name": "local_list_dir"}}),
            json!({"type": "function", "function": {"name": "mcp__notes__search"}}),
        ]
    }

    #[test]
    fn a_leading_mention_names_an_offered_tool() {
        assert_eq!(
            mention("@local_list_dir what is here?", &offered()),
            Mention::Tool("local_list_dir".into())
        );
        assert_eq!(
            mention("  @mcp__notes__search: launch", &offered()),
            Mention::Tool("mcp__notes__search".into())
        );
        assert_eq!(
            mention("@local_exec rm -rf build", &offered()),
            Mention::Unknown("local_exec".into()),
            "a tool that is off is not reached by naming it"
        );
        for plain in ["what is here?", "mail me@example.org", "@ hello", "@@x", ""] {
            assert_eq!(mention(plain, &offered()), Mention::None, "{plain:?}");
        }
    }
}
