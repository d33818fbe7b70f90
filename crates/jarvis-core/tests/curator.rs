//! The curator on skills the model really created (`create_skill`, asked
//! and approved), with its clock injected: unused for 30 days → stale, for
//! 60 → the trash (restorable, never deleted); pinned skills and skills a
//! schedule names are left alone; a skill used again is fresh; one weekly
//! summary says what changed. Skills the user made are never touched.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;

use common::*;
use jarvis_core::policy::ScriptedApprover;
use jarvis_core::schedule::ScheduleRequest;
use jarvis_protocol::{ApprovalDecision, When};
use jarvis_testkit::{MockServer, Reply};
use serde_json::json;

const DAY: i64 = 24 * 60 * 60 * 1000;

fn create(name: &str) -> Reply {
    let args = json!({
        "name": name,
        "description": format!("Does {name} for the user. Use when they ask for {name}."),
        "instructions": format!("# {name}\n\n1. Do it.")
    })
    .to_string();
    Reply::tool_calls(&[("c", "create_skill", &args)])
}

#[tokio::test]
async fn skills_jarvis_made_go_stale_then_to_the_trash_unless_pinned_or_scheduled() {
    let names = ["idle-one", "pinned-one", "scheduled-one", "used-one"];
    let mut script = Vec::new();
    for n in names {
        script.extend([create(n), Reply::text("Made.")]);
    }
    let server = MockServer::scripted(script).await.unwrap();
    let approver = Arc::new(ScriptedApprover::new(
        names.map(|_| ApprovalDecision::AllowOnce),
    ));
    let mut e = env(Setup::new(server.base_url(), approver));
    for n in names {
        e.ask("s", &format!("make a skill called {n}"));
        e.until_finished("s").await;
    }
    // One the user wrote by hand: never the curator's business.
    let own = e.home.path().join("skills/my-own");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(
        own.join("SKILL.md"),
        "---\nname: my-own\ndescription: mine\n---\nmine\n",
    )
    .unwrap();
    let b = &e.brain;
    // The catalog's watcher sees the hand-written folder a moment later.
    for n in names.iter().chain(&["my-own"]) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while b.skills().get(n).is_none() && std::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(b.skills().get(n).is_some(), "{n} is in the catalog");
    }
    b.pin_skill("pinned-one", true).unwrap();
    b.create_schedule(ScheduleRequest {
        instruction: "every morning, run the scheduled-one skill".into(),
        when: When::Daily {
            time: "08:00".into(),
            weekdays: vec![],
        },
        tz: Some("UTC".into()),
        allow: vec![],
        notify: Default::default(),
    })
    .unwrap();
    let t0 = jarvis_core::store::now_ms();

    // Ten days: nothing to do.
    assert_eq!(b.curate(t0 + 10 * DAY).unwrap(), Default::default());
    // A month: the idle and the used one are stale; the used one is used
    // again and comes back.
    let month = b.curate(t0 + 31 * DAY).unwrap();
    assert_eq!(month.staled, ["idle-one", "used-one"]);
    assert!(month.trashed.is_empty());
    let summary = b.curation_summary(t0 + 31 * DAY).unwrap().unwrap();
    assert!(
        summary.contains("idle-one") && summary.contains("stale"),
        "{summary}"
    );
    // Used (as a second process would record it, in the same database).
    jarvis_core::store::Store::open(&e.home.path().join("jarvis.db"))
        .unwrap()
        .record_skill_use_at("used-one", t0 + 32 * DAY)
        .unwrap();
    let later = b.curate(t0 + 33 * DAY).unwrap();
    assert_eq!(later.refreshed, ["used-one"]);

    // Two months: the idle one moves to the trash, restorable.
    let two = b.curate(t0 + 61 * DAY).unwrap();
    assert_eq!(two.trashed, ["idle-one"]);
    assert!(b.skills().get("idle-one").is_none());
    for n in ["pinned-one", "scheduled-one", "used-one", "my-own"] {
        assert!(b.skills().get(n).is_some(), "{n} is kept");
    }
    let trash = e.home.path().join(".trash/skills");
    assert_eq!(std::fs::read_dir(&trash).unwrap().count(), 1);
    let summary = b.curation_summary(t0 + 62 * DAY).unwrap().unwrap();
    assert!(
        summary.contains("idle-one") && summary.contains("trash"),
        "{summary}"
    );
    b.restore_skill("idle-one").unwrap();
    assert!(
        b.skills().get("idle-one").is_some(),
        "restored from the trash"
    );
    // Unpinned, the pinned one ages like the others.
    b.pin_skill("pinned-one", false).unwrap();
    assert!(
        b.curate(t0 + 62 * DAY)
            .unwrap()
            .trashed
            .contains(&"pinned-one".to_string())
    );
}
