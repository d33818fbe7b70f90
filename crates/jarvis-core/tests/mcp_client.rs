//! MCP servers as tool providers, against the oracle's example server (the
//! official Python SDK, mcp 2.3.0) over stdio: tools named
//! `mcp__server__tool`, asked until trusted, audited; a broken server is
//! reported and does not hold up the others.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use common::*;
use jarvis_core::config::{ConfigStore, McpServerConfig};
use jarvis_core::policy::ScriptedApprover;
use jarvis_protocol::{ApprovalDecision, Event, Op, ToolStatus};
use jarvis_testkit::{MockServer, Reply};

fn python() -> PathBuf {
    let p = std::env::var_os("JARVIS_MCP_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/var/cache/jarvis-ci/pyvenv/bin/python"));
    let ok = std::process::Command::new(&p)
        .args(["-c", "import mcp.server"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "{} cannot import mcp — run .ci/run (it pip-installs mcp==2.3.0) or set JARVIS_MCP_PYTHON",
        p.display()
    );
    p
}

fn configure(e: &Env, trusted: bool) {
    let server =
        jarvis_testkit::shared_dir().join("oracles/mcp/examples/demo-mcpserver-v2/server.py");
    ConfigStore::new(e.home.path())
        .update(|c| {
            c.mcp_servers.insert(
                "demo".into(),
                McpServerConfig {
                    command: python().display().to_string(),
                    args: vec![server.display().to_string()],
                    trusted,
                    ..Default::default()
                },
            );
            c.mcp_servers.insert(
                "broken".into(),
                McpServerConfig {
                    command: "/nonexistent/mcp-server".into(),
                    ..Default::default()
                },
            );
            Ok(())
        })
        .unwrap();
    e.brain.submit(Op::Reload).unwrap();
}

#[tokio::test]
async fn mcp_tools_are_called_through_the_gate() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[
            ("a", "mcp__demo__add", r#"{"a": 2, "b": 2}"#),
            ("f", "mcp__demo__fail", r#"{"reason": "boom"}"#),
        ]),
        Reply::text("2 + 2 = 4"),
    ])
    .await
    .unwrap();
    let approver = Arc::new(ScriptedApprover::new([
        ApprovalDecision::AllowOnce,
        ApprovalDecision::AllowOnce,
    ]));
    let mut e = env(Setup::new(server.base_url(), approver.clone()));
    configure(&e, false);
    // Servers start in the background once configured; this one had time.
    e.brain.refresh_mcp().await;
    e.ask("s", "add 2 and 2 with the demo server");
    let events = e.until_finished("s").await;
    // Offered to the model under their namespaced names.
    let tools = server.chat_requests()[0].json()["tools"].clone();
    let names: Vec<String> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap().to_string())
        .collect();
    for n in ["mcp__demo__add", "mcp__demo__shout", "mcp__demo__fail"] {
        assert!(names.contains(&n.to_string()), "{n} not offered: {names:?}");
    }
    // The broken server is told to the model, and held nothing up.
    let sys = messages(&server.chat_requests()[0])[0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        sys.contains("The MCP server broken is unavailable"),
        "{sys}"
    );
    assert!(
        e.brain
            .mcp_failures()
            .iter()
            .any(|(s, why)| s == "broken" && why.contains("cannot start"))
    );
    // Untrusted: asked for each call.
    assert_eq!(approver.asked().len(), 2);
    assert!(approver.asked()[0].reason.contains("not trusted"));
    let finished: Vec<(String, ToolStatus)> = events
        .iter()
        .filter_map(|ev| match ev {
            Event::ToolCallFinished { name, status, .. } => Some((name.clone(), *status)),
            _ => None,
        })
        .collect();
    assert_eq!(
        finished,
        vec![
            ("mcp__demo__add".into(), ToolStatus::Ok),
            ("mcp__demo__fail".into(), ToolStatus::Error)
        ]
    );
    let msgs = messages(&server.chat_requests()[1]);
    let add = msgs.iter().find(|m| m["tool_call_id"] == "a").unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(add.contains("\n4\n"), "{add}");
    let fail = msgs.iter().find(|m| m["tool_call_id"] == "f").unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(fail.contains("reported an error"), "{fail}");
    // Audited like every tool.
    let audit = e.brain.audit(10, Some("mcp__demo__add")).unwrap();
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0].outcome.as_deref(), Some("ok"));
}

#[tokio::test]
async fn a_trusted_server_runs_without_asking() {
    let approver = Arc::new(ScriptedApprover::new([]));
    let e = env(Setup::new("http://127.0.0.1:9/v1".into(), approver.clone()));
    configure(&e, true);
    e.brain.refresh_mcp().await;
    let out = e
        .brain
        .run_tool("mcp__demo__shout", r#"{"text": "hi", "times": 2}"#)
        .await;
    assert_eq!(out.status, ToolStatus::Ok, "{}", out.content);
    assert_eq!(out.content, "HI HI");
    assert!(approver.asked().is_empty());
    assert_eq!(
        jarvis_core::tools::mcp::tool_name("a server", &"t".repeat(80)).len(),
        64
    );
}

#[tokio::test]
async fn a_streamable_http_server_is_a_tool_provider_too() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = jarvis_testkit::shared_dir().join("oracles/mcp/examples/demo-mcpserver-v2");
    let launcher = format!(
        "import sys; sys.path.insert(0, {:?}); from server import mcp; mcp.run(transport='streamable-http', port={port})",
        dir.display().to_string()
    );
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _server = Kill(
        std::process::Command::new(python())
            .args(["-c", &launcher])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    let t0 = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(20),
            "the HTTP MCP server did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let e = env(Setup::new(
        "http://127.0.0.1:9/v1".into(),
        Arc::new(ScriptedApprover::new([])),
    ));
    ConfigStore::new(e.home.path())
        .update(|c| {
            c.mcp_servers.insert(
                "web".into(),
                McpServerConfig {
                    url: Some(format!("http://127.0.0.1:{port}/mcp")),
                    trusted: true,
                    ..Default::default()
                },
            );
            Ok(())
        })
        .unwrap();
    e.brain.submit(Op::Reload).unwrap();
    let out = e
        .brain
        .run_tool("mcp__web__add", r#"{"a": 20, "b": 22}"#)
        .await;
    assert_eq!(out.status, ToolStatus::Ok, "{}", out.content);
    assert_eq!(out.content, "42");
}
