//! The store and the event stream as separate `jarvis` processes meet them:
//! two processes on a fresh home, a database from a newer Jarvis, a long
//! stream printed whole, a run with nobody there.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Output;

use jarvis_testkit::{MockServer, Reply, chunk, frame, usage_chunk};
use serde_json::json;

fn jarvis(home: &Path, work: &Path) -> tokio::process::Command {
    let mut c = tokio::process::Command::new(env!("CARGO_BIN_EXE_jarvis"));
    c.env("JARVIS_HOME", home)
        .env("JARVIS_MODEL", "test-model")
        .env_remove("JARVIS_API_KEY")
        .env_remove("JARVIS_AGENT_EXEC")
        .current_dir(work)
        .stdin(std::process::Stdio::null());
    c
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).to_string()
}

#[tokio::test]
async fn two_processes_open_a_fresh_home_at_the_same_moment() {
    let work = tempfile::tempdir().unwrap();
    for round in 0..20 {
        let home = tempfile::tempdir().unwrap();
        let run = || {
            jarvis(home.path(), work.path())
                .args(["sessions", "list", "--json"])
                .output()
        };
        let (a, b) = tokio::join!(run(), run());
        for o in [a.unwrap(), b.unwrap()] {
            assert!(o.status.success(), "round {round}: {}", text(&o.stderr));
            assert_eq!(text(&o.stdout).trim(), "[]");
        }
    }
}

/// `PRAGMA user_version` lives at bytes 60..64 of the header.
fn set_user_version(db: &Path, v: u32) {
    let mut bytes = std::fs::read(db).unwrap();
    bytes[60..64].copy_from_slice(&v.to_be_bytes());
    std::fs::write(db, bytes).unwrap();
}

#[tokio::test]
async fn a_database_from_a_newer_jarvis_is_refused_and_left_untouched() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let first = jarvis(home.path(), work.path())
        .args(["sessions", "list"])
        .output()
        .await
        .unwrap();
    assert!(first.status.success(), "{}", text(&first.stderr));
    let db = home.path().join("jarvis.db");
    set_user_version(&db, 999);
    let before = std::fs::read(&db).unwrap();
    let o: Output = jarvis(home.path(), work.path())
        .args(["sessions", "list"])
        .output()
        .await
        .unwrap();
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(err.contains("newer Jarvis"), "{err}");
    assert!(err.contains("999"), "{err}");
    assert!(
        err.contains(&format!("up to {}", jarvis_core::store::SCHEMA_VERSION)),
        "{err}"
    );
    assert_eq!(std::fs::read(&db).unwrap(), before, "byte-identical");
}

#[tokio::test]
async fn ask_prints_every_one_of_twenty_thousand_deltas() {
    let mut events = vec![chunk(json!({"role": "assistant", "content": ""}), None)];
    let expected: String = (0..20_000)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect();
    for c in expected.chars() {
        events.push(chunk(json!({ "content": c.to_string() }), None));
    }
    events.push(chunk(json!({}), Some("stop")));
    events.push(usage_chunk(5, 20_000));
    let server = MockServer::scripted(vec![Reply::raw_sse(frame(&events))])
        .await
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let o = jarvis(home.path(), work.path())
        .env("JARVIS_BASE_URL", server.base_url())
        .args(["ask", "talk a lot"])
        .output()
        .await
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout).trim_end(), expected);
}

#[tokio::test]
async fn an_unattended_ask_refuses_what_needs_approval_and_says_so() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("c", "local_exec", r#"{"command": "touch made"}"#)]),
        Reply::text("I could not make it without your approval."),
    ])
    .await
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.json"),
        r#"{"version": 2, "tools": {"read": true, "write": true, "exec": true}}"#,
    )
    .unwrap();
    let work = tempfile::tempdir().unwrap();
    let o = jarvis(home.path(), work.path())
        .env("JARVIS_BASE_URL", server.base_url())
        .args(["ask", "--unattended", "make a file"])
        .output()
        .await
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    assert!(!work.path().join("made").exists());
    assert!(
        text(&o.stderr).contains("needed your approval"),
        "{}",
        text(&o.stderr)
    );
    let audit = jarvis(home.path(), work.path())
        .args(["audit", "--json"])
        .output()
        .await
        .unwrap();
    let row: serde_json::Value =
        serde_json::from_str(text(&audit.stdout).lines().last().unwrap()).unwrap();
    assert_eq!(row["verdict"], "ask");
    assert_eq!(row["decided_by"], "unattended (cli)");
}
