//! Undo: what a turn wrote is put back byte for byte; a file the user
//! changed since is kept, with the old version beside it; the undo is
//! audited and happens once.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;

use common::{Setup, calls, env};
use jarvis_core::policy::AllowOnceApprover;
use jarvis_core::undo::UndoScope;
use jarvis_protocol::{ChangeKind, Event};
use jarvis_testkit::{MockServer, Reply};
use serde_json::json;

fn write(id: &str, path: &str, content: &str, mode: &str) -> (String, String, String) {
    (
        id.into(),
        "local_write_file".into(),
        json!({ "path": path, "content": content, "mode": mode }).to_string(),
    )
}

fn turn_of(events: &[Event]) -> String {
    events
        .iter()
        .find_map(|e| match e {
            Event::TurnStarted { turn_id } => Some(turn_id.clone()),
            _ => None,
        })
        .expect("the turn started")
}

#[tokio::test]
async fn a_turns_writes_are_undone_byte_for_byte_and_a_file_changed_since_is_kept() {
    // Not UTF-8, no final newline: restored exactly.
    let original: &[u8] = b"line one\r\n\xff\xfe binary tail";
    let server = MockServer::scripted(vec![
        calls(&[
            write("a", "notes.txt", "rewritten by the agent\n", "overwrite"),
            write("b", "src/new.rs", "fn main() {}\n", "create"),
            write("c", "log.txt", "one more line\n", "append"),
        ]),
        calls(&[write("d", "notes.txt", "and again\n", "overwrite")]),
        Reply::text("done"),
        calls(&[write(
            "e",
            "notes.txt",
            "a second turn's version\n",
            "overwrite",
        )]),
        Reply::text("done too"),
    ])
    .await
    .unwrap();
    let mut e = env(Setup::new(server.base_url(), Arc::new(AllowOnceApprover)));
    let wd = e.wd();
    std::fs::write(wd.join("notes.txt"), original).unwrap();
    std::fs::write(wd.join("log.txt"), "first line\n").unwrap();
    let private = std::fs::Permissions::from_mode(0o600);
    std::fs::set_permissions(wd.join("notes.txt"), private).unwrap();

    e.ask("s", "tidy my notes");
    let first = turn_of(&e.until_finished("s").await);
    assert_eq!(std::fs::read(wd.join("notes.txt")).unwrap(), b"and again\n");
    let listed = e.brain.changes(&UndoScope::Turn(first.clone())).unwrap();
    let kinds: Vec<(String, ChangeKind)> = listed
        .iter()
        .map(|c| (c.path.rsplit('/').next().unwrap().to_string(), c.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            ("notes.txt".into(), ChangeKind::Modified),
            ("new.rs".into(), ChangeKind::Created),
            ("log.txt".into(), ChangeKind::Modified),
            ("notes.txt".into(), ChangeKind::Modified),
        ]
    );

    let report = e
        .brain
        .undo(&UndoScope::Turn(first.clone()), "test")
        .unwrap();
    assert_eq!(
        std::fs::read(wd.join("notes.txt")).unwrap(),
        original,
        "{report:?}"
    );
    assert_eq!(
        std::fs::read_to_string(wd.join("log.txt")).unwrap(),
        "first line\n"
    );
    assert!(!wd.join("src/new.rs").exists());
    let mode = std::fs::metadata(wd.join("notes.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(
        mode & 0o777,
        0o600,
        "a private file stays private through writes and undo"
    );
    // What the undo replaced or removed is kept, not lost.
    let set_aside = std::fs::read_dir(e.home.path().join("undo/undone"))
        .unwrap()
        .count();
    assert_eq!(set_aside, 3);
    assert_eq!(report.restored.len(), 2);
    assert_eq!(report.removed.len(), 1);
    assert!(report.problems.is_empty() && report.kept_both.is_empty());
    // Audited, and said in the conversation.
    let audit = e.brain.audit(20, Some("undo")).unwrap();
    assert_eq!(audit.len(), 1);
    assert!(audit[0].outcome.as_deref().unwrap().contains("restored"));
    e.wait_for(|ev| matches!(ev, Event::Notice { message } if message.starts_with("Undo:")))
        .await;
    // Once: a second undo finds nothing left.
    assert!(
        e.brain
            .undo(&UndoScope::Turn(first), "test")
            .unwrap()
            .is_empty()
    );

    // The next turn overwrites; then the user edits the file by hand.
    e.ask("s", "rewrite them");
    let second = turn_of(&e.until_finished("s").await);
    std::fs::write(wd.join("notes.txt"), "the user's own edit\n").unwrap();
    let report = e.brain.undo(&UndoScope::Last, "test").unwrap();
    assert_eq!(report.kept_both.len(), 1, "{report:?}");
    assert_eq!(
        std::fs::read_to_string(wd.join("notes.txt")).unwrap(),
        "the user's own edit\n",
        "the user's edit is never overwritten"
    );
    assert_eq!(
        std::fs::read(wd.join("notes.txt.before-undo")).unwrap(),
        original
    );
    assert!(report.summary().contains("changed since"));
    assert!(
        e.brain
            .changes(&UndoScope::Turn(second))
            .unwrap()
            .iter()
            .all(|c| c.undone)
    );
}

#[tokio::test]
async fn what_a_command_changed_is_found_by_the_scan_and_undone() {
    let exec = |id: &str, command: &str| {
        (
            id.to_string(),
            "local_exec".to_string(),
            json!({ "command": command }).to_string(),
        )
    };
    let server = MockServer::scripted(vec![
        calls(&[exec(
            "x",
            "printf 'by the command\\n' > notes.txt && rm old.log && mkdir -p out && echo built > out/app.txt",
        )]),
        Reply::text("done"),
    ])
    .await
    .unwrap();
    let mut e = env(Setup::new(server.base_url(), Arc::new(AllowOnceApprover)));
    let wd = e.wd();
    std::fs::write(wd.join("notes.txt"), "mine\n").unwrap();
    std::fs::write(wd.join("old.log"), "keep me\n").unwrap();
    std::fs::write(wd.join("untouched.txt"), "same\n").unwrap();
    e.ask("s", "build it");
    let events = e.until_finished("s").await;
    let turn = turn_of(&events);
    // The call's result names the files it changed.
    let summary = events
        .iter()
        .find_map(|ev| match ev {
            Event::ToolCallFinished { summary, .. } => Some(summary.clone()),
            _ => None,
        })
        .unwrap();
    assert!(
        summary.contains("notes.txt") && summary.contains("out/app.txt"),
        "{summary}"
    );
    assert!(!summary.contains("untouched"), "{summary}");
    let mut kinds: Vec<(String, ChangeKind)> = e
        .brain
        .changes(&UndoScope::Turn(turn.clone()))
        .unwrap()
        .into_iter()
        .map(|c| {
            (
                c.path
                    .strip_prefix(&format!("{}/", wd.display()))
                    .unwrap()
                    .to_string(),
                c.kind,
            )
        })
        .collect();
    kinds.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        kinds,
        [
            ("notes.txt".into(), ChangeKind::Modified),
            ("old.log".into(), ChangeKind::Deleted),
            ("out/app.txt".into(), ChangeKind::Created),
        ]
    );
    let report = e.brain.undo(&UndoScope::Turn(turn), "test").unwrap();
    assert!(report.problems.is_empty(), "{report:?}");
    assert_eq!(
        std::fs::read_to_string(wd.join("notes.txt")).unwrap(),
        "mine\n"
    );
    assert_eq!(
        std::fs::read_to_string(wd.join("old.log")).unwrap(),
        "keep me\n"
    );
    assert!(!wd.join("out/app.txt").exists());
}
