//! `create_mcp` end to end: the model writes an MCP server project, the
//! oracle's checker (official MCP Python client) builds a fresh venv for it
//! and passes it in both handshake modes, and after registering it the agent
//! calls its tool in the next turn.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use common::*;
use jarvis_core::policy::ScriptedApprover;
use jarvis_protocol::{ApprovalDecision, Event, ToolStatus};
use jarvis_testkit::{MockServer, Reply};
use serde_json::{Value, json};

fn checker_python() -> PathBuf {
    let p = std::env::var_os("JARVIS_MCP_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/var/cache/jarvis-ci/pyvenv/bin/python"));
    assert!(
        p.exists(),
        "no Python with mcp at {} — run .ci/run",
        p.display()
    );
    p
}

#[tokio::test]
async fn create_register_check_and_call_next_turn() {
    let create = json!({
        "name": "greeter",
        "description": "Greets people.",
        "tools": [{"name": "greet", "code": "def greet(name: str, excited: bool = False) -> str:\n    \"\"\"Greet someone by name.\"\"\"\n    return f\"hello {name}\" + (\"!\" if excited else \"\")\n"}]
    })
    .to_string();
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("c", "create_mcp", &create)]),
        Reply::text("Created."),
        Reply::tool_calls(&[("g", "mcp__greeter__greet", r#"{"name": "Ada"}"#)]),
        Reply::text("Done."),
    ])
    .await
    .unwrap();
    let approver = Arc::new(ScriptedApprover::new([
        ApprovalDecision::AllowOnce,
        ApprovalDecision::AllowOnce,
    ]));
    let mut e = env(Setup::new(server.base_url(), approver.clone()));
    e.ask("s", "make me an MCP server that greets people");
    // Registering checks the server in a fresh venv: slow on two busy cores.
    e.until_finished_within("s", std::time::Duration::from_secs(120))
        .await;
    let project = e.home.path().join("mcp/greeter");
    assert!(project.join("server.py").exists() && project.join("pyproject.toml").exists());
    let pyproject = std::fs::read_to_string(project.join("pyproject.toml")).unwrap();
    assert!(pyproject.contains("mcp>=2.3,<3"), "pinned: {pyproject}");
    assert!(
        approver.asked()[0]
            .details
            .as_ref()
            .unwrap()
            .contains("from mcp.server import MCPServer")
    );

    // The official client, in both handshake modes, against a fresh venv.
    let checker = jarvis_testkit::shared_dir().join("oracles/mcp/check_mcp_server.py");
    let out = std::process::Command::new(checker_python())
        .arg(&checker)
        .arg(&project)
        .args([
            "--install",
            "--mode",
            "both",
            "--call",
            "greet",
            "--args",
            r#"{"name": "Ada"}"#,
            "--timeout",
            "60",
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert!(
        out.status.success(),
        "checker failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        project.join(".venv/bin/python").exists(),
        "a fresh venv was built: {report}"
    );

    // Not registered by the model: config.json does not name it, and the
    // model was told the user registers it.
    let store = jarvis_core::config::ConfigStore::new(e.home.path());
    assert!(!store.load().unwrap().mcp_servers.contains_key("greeter"));
    let told = messages(&server.chat_requests()[1])
        .iter()
        .find(|m| m["tool_call_id"] == "c")
        .unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        told.contains("not registered") && told.contains("jarvis mcp add greeter"),
        "{told}"
    );
    // The user registers it (what `jarvis mcp add` and the HUD's Register do),
    // seeing the server file first.
    let reg = jarvis_core::tools::mcp::registration("greeter", &project).unwrap();
    assert!(reg.server_text.contains("def greet("));
    assert!(
        reg.config.command.ends_with(".venv/bin/python"),
        "{:?}",
        reg.config
    );
    store
        .update(|c| {
            c.mcp_servers.insert("greeter".into(), reg.config.clone());
            Ok(())
        })
        .unwrap();
    // Registering starts the server (the HUD's Register does this too), so
    // the next turn, which waits at most 200 ms for a server, has its tools.
    e.brain.submit(jarvis_protocol::Op::Reload).unwrap();
    e.brain.refresh_mcp().await;
    // Registered: the next turn offers and calls its tool through the gate,
    // the server running confined in its own folder.
    e.ask("s", "greet Ada");
    let events = e
        .until_finished_within("s", std::time::Duration::from_secs(120))
        .await;
    let finished: Vec<(String, ToolStatus)> = events
        .iter()
        .filter_map(|ev| match ev {
            Event::ToolCallFinished { name, status, .. } => Some((name.clone(), *status)),
            _ => None,
        })
        .collect();
    assert_eq!(
        finished,
        vec![("mcp__greeter__greet".to_string(), ToolStatus::Ok)]
    );
    let msgs = messages(&server.chat_requests()[3]);
    let r = msgs.iter().find(|m| m["tool_call_id"] == "g").unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(r.contains("hello Ada"), "{r}");
    assert_eq!(
        approver.asked().len(),
        2,
        "the new server is untrusted: its call was asked"
    );
}

#[tokio::test]
async fn create_mcp_refuses_bad_input_before_asking() {
    let approver = Arc::new(ScriptedApprover::new([]));
    let e = env(Setup::new("http://127.0.0.1:9/v1".into(), approver.clone()));
    for args in [
        json!({"name": "Bad", "description": "d", "tools": [{"name": "x", "code": "def x() -> int:\n    return 1"}]}),
        json!({"name": "ok", "description": "d", "tools": []}),
        json!({"name": "ok", "description": "d", "tools": [{"name": "x", "code": "import os\nos.system('rm -rf ~')"}]}),
    ] {
        let out = e.brain.run_tool("create_mcp", &args.to_string()).await;
        assert_eq!(out.status, ToolStatus::Error, "{args}");
    }
    assert!(approver.asked().is_empty());
}
