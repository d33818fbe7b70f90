//! `create_tool` end to end: the model makes a tool, calls it in the next
//! round, the user trusts that version, and a changed script asks again.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;

use common::*;
use jarvis_core::policy::ScriptedApprover;
use jarvis_protocol::{ApprovalDecision, Event, ToolStatus};
use jarvis_testkit::{MockServer, Reply};
use serde_json::json;

fn statuses(events: &[Event]) -> Vec<(String, ToolStatus)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::ToolCallFinished { name, status, .. } => Some((name.clone(), *status)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_created_tool_is_callable_next_round_and_trusted_per_version() {
    let create = json!({
        "name": "word_count",
        "description": "Counts the words of a text.",
        "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        "language": "python",
        "code": "import json, sys\nargs = json.load(sys.stdin)\nprint(json.dumps({\"words\": len(args[\"text\"].split())}))\n"
    })
    .to_string();
    let call = json!({"text": "the quick brown fox"}).to_string();
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("c1", "create_tool", &create)]),
        Reply::tool_calls(&[("c2", "word_count", &call)]),
        Reply::text("Four words."),
        Reply::tool_calls(&[("c3", "word_count", &call)]),
        Reply::text("Still four."),
        Reply::tool_calls(&[("c4", "word_count", &call)]),
        Reply::text("Not allowed."),
    ])
    .await
    .unwrap();
    let approver = Arc::new(ScriptedApprover::new([
        ApprovalDecision::AllowOnce,   // create_tool
        ApprovalDecision::AlwaysAllow, // trust word_count, this version
        ApprovalDecision::Deny {
            reason: Some("changed".into()),
        },
    ]));
    let mut e = env(Setup::new(server.base_url(), approver.clone()));
    e.ask("s", "make a word counter and count 'the quick brown fox'");
    let events = e.until_finished("s").await;
    assert_eq!(
        statuses(&events),
        vec![
            ("create_tool".to_string(), ToolStatus::Ok),
            ("word_count".to_string(), ToolStatus::Ok)
        ]
    );
    assert_eq!(text_of(&events), "Four words.");
    // The second request already offered the new tool, and its result came from the script.
    let tools = server.chat_requests()[1].json()["tools"].clone();
    assert!(
        tools
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["function"]["name"] == "word_count")
    );
    let result = messages(&server.chat_requests()[2])
        .iter()
        .find(|m| m["tool_call_id"] == "c2")
        .unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(result.contains("\"words\": 4"), "{result}");
    // The first run asked, showing the script.
    let asked = approver.asked();
    assert_eq!(asked.len(), 2);
    assert_eq!(asked[1].tool, "word_count");
    assert!(
        asked[1]
            .details
            .as_ref()
            .unwrap()
            .contains("json.load(sys.stdin)")
    );
    // Trusted: the same version runs without asking.
    e.ask("s", "again");
    let events = e.until_finished("s").await;
    assert_eq!(
        statuses(&events),
        vec![("word_count".to_string(), ToolStatus::Ok)]
    );
    assert_eq!(approver.asked().len(), 2);
    // Changed on disk: a new version, asked again (and denied here).
    let script = e.home.path().join("tools/word_count/run.py");
    let mut code = std::fs::read_to_string(&script).unwrap();
    code.push_str("# changed\n");
    std::fs::write(&script, code).unwrap();
    e.ask("s", "once more");
    let events = e.until_finished("s").await;
    assert_eq!(
        statuses(&events),
        vec![("word_count".to_string(), ToolStatus::Refused)]
    );
    assert_eq!(approver.asked().len(), 3);
}

#[tokio::test]
async fn create_tool_refuses_builtin_names_and_runs_confined() {
    let approver = Arc::new(ScriptedApprover::new([
        ApprovalDecision::AllowOnce,
        ApprovalDecision::AllowOnce,
    ]));
    let e = env(Setup::new("http://127.0.0.1:9/v1".into(), approver.clone()));
    for bad in ["local_exec", "Bad", "mcp__x__y", "1x"] {
        let out = e
            .brain
            .run_tool(
                "create_tool",
                &json!({"name": bad, "description": "d", "code": "x"}).to_string(),
            )
            .await;
        assert_eq!(out.status, ToolStatus::Error, "{bad}");
    }
    assert!(approver.asked().is_empty());
    // A created tool that tries to write outside the working directory fails under the sandbox.
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("pwned.txt");
    let code = format!(
        "open('{}', 'w').write('x')\nprint('{{}}')\n",
        target.display()
    );
    let out = e
        .brain
        .run_tool(
            "create_tool",
            &json!({"name": "escaper", "description": "d", "code": code}).to_string(),
        )
        .await;
    assert_eq!(out.status, ToolStatus::Ok, "{}", out.content);
    let out = e.brain.run_tool("escaper", "{}").await;
    assert_eq!(out.status, ToolStatus::Error, "{}", out.content);
    assert!(
        out.content.contains("Permission") || out.content.contains("exited"),
        "{}",
        out.content
    );
    assert!(!target.exists());
}
