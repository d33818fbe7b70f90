//! `create_skill` end to end: the model creates a skill (the seed's
//! scenario 5), it asks first, writes only its own new folder, passes the
//! reference validator (PyPI `skills-ref`), and is in the next request.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use common::*;
use jarvis_core::policy::ScriptedApprover;
use jarvis_protocol::{ApprovalDecision, StopReason, ToolStatus};
use jarvis_testkit::{MockServer, Reply};
use serde_json::json;

fn agentskills() -> PathBuf {
    let p = std::env::var_os("JARVIS_SKILLS_REF")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/var/cache/jarvis-ci/pyvenv/bin/agentskills"));
    assert!(
        p.exists(),
        "the reference validator is not at {} — run .ci/run (it pip-installs skills-ref) or set JARVIS_SKILLS_REF",
        p.display()
    );
    p
}

#[tokio::test]
async fn the_model_creates_a_valid_skill_that_is_used_next_turn() {
    let args = json!({
        "name": "daily-standup",
        "description": "Writes the daily stand-up: what I did, what's next, blockers. Use when the user says \"standup\" or asks: what did I do yesterday?",
        "instructions": "# Daily stand-up\n\n1. Read `notes/` for yesterday.\n2. Run `scripts/collect.sh`.\n3. Write three short sections.",
        "scripts": {"collect.sh": "#!/bin/sh\ngit log --since=yesterday --oneline\n"}
    })
    .to_string();
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("c", "create_skill", &args)]),
        Reply::text("Created the daily-standup skill."),
        Reply::text("Using it."),
    ])
    .await
    .unwrap();
    let approver = Arc::new(ScriptedApprover::new([ApprovalDecision::AllowOnce]));
    let mut e = env(Setup::new(server.base_url(), approver.clone()));
    e.ask("s", "create a skill for my daily standup");
    let events = e.until_finished("s").await;
    assert_eq!(stop_of(&events), StopReason::Completed);
    // It asked, showing the SKILL.md it would write.
    let asked = approver.asked();
    assert_eq!(asked.len(), 1);
    let details = asked[0].details.clone().unwrap();
    assert!(
        details.contains("new skill daily-standup with scripts/collect.sh")
            && details.contains("name: daily-standup"),
        "{details}"
    );
    let dir = e.home.path().join("skills/daily-standup");
    assert!(dir.join("SKILL.md").exists() && dir.join("scripts/collect.sh").exists());
    // The reference validator agrees.
    let out = std::process::Command::new(agentskills())
        .arg("validate")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // Next turn: in the catalog.
    e.ask("s", "standup please");
    e.until_finished("s").await;
    let sys = messages(&server.chat_requests()[2])[0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        sys.contains("<name>\ndaily-standup\n</name>") && sys.contains("what&#x27;s next"),
        "{sys}"
    );
}

#[tokio::test]
async fn create_skill_refuses_bad_names_and_existing_skills() {
    let approver = Arc::new(ScriptedApprover::new([
        ApprovalDecision::AllowOnce,
        ApprovalDecision::AllowOnce,
    ]));
    let e = env(Setup::new("http://127.0.0.1:9/v1".into(), approver.clone()));
    for bad in ["Bad_Name", "-x", "a--b", "../evil", ""] {
        let out = e
            .brain
            .run_tool(
                "create_skill",
                &json!({"name": bad, "description": "d", "instructions": "i"}).to_string(),
            )
            .await;
        assert_eq!(out.status, ToolStatus::Error, "{bad}: {}", out.content);
    }
    assert!(
        approver.asked().is_empty(),
        "invalid names never reach the user"
    );
    let ok = e
        .brain
        .run_tool(
            "create_skill",
            &json!({"name": "notes", "description": "d", "instructions": "i"}).to_string(),
        )
        .await;
    assert_eq!(ok.status, ToolStatus::Ok, "{}", ok.content);
    std::fs::write(
        e.home.path().join("skills/notes/SKILL.md"),
        "---\nname: notes\ndescription: mine\n---\n",
    )
    .unwrap();
    let again = e
        .brain
        .run_tool(
            "create_skill",
            &json!({"name": "notes", "description": "other", "instructions": "i"}).to_string(),
        )
        .await;
    assert_eq!(again.status, ToolStatus::Error);
    assert!(again.content.contains("already exists"));
    assert!(
        std::fs::read_to_string(e.home.path().join("skills/notes/SKILL.md"))
            .unwrap()
            .contains("mine")
    );
    let escape = e.brain.run_tool("create_skill", &json!({"name": "x", "description": "d", "instructions": "i", "scripts": {"../../evil.sh": "x"}}).to_string()).await;
    assert_eq!(escape.status, ToolStatus::Error);
}
