//! Runs described by a `RunSpec`: unattended and pre-approved runs never
//! wait for a person and never get more than the user granted; every run
//! ends, even one that panics; a host that arrives late catches up.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use common::{Setup, calls, env, messages};
use jarvis_core::policy::{NoApprover, ScriptedApprover};
use jarvis_core::tools::{Capability, Tool, ToolContext, ToolError, ToolOutput, ToolRegistry};
use jarvis_protocol::{
    ApprovalDecision, ApprovalMode, Event, Op, Origin, RunSpec, StopReason, ToolStatus,
};
use jarvis_testkit::{MockServer, Reply};
use serde_json::{Value, json};

fn stop_of(events: &[Event]) -> StopReason {
    events
        .iter()
        .find_map(|e| match e {
            Event::TurnFinished { stop, .. } => Some(*stop),
            _ => None,
        })
        .expect("the turn finished")
}

fn statuses(events: &[Event]) -> Vec<ToolStatus> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::ToolCallFinished { status, .. } => Some(*status),
            _ => None,
        })
        .collect()
}

fn unattended(session: &str, approval: ApprovalMode) -> RunSpec {
    RunSpec {
        approval,
        ..RunSpec::interactive(Origin::Schedule, session)
    }
}

fn touch(id: &str, file: &str) -> (String, String, String) {
    (
        id.to_string(),
        "local_exec".to_string(),
        json!({ "command": format!("touch {file}") }).to_string(),
    )
}

#[tokio::test]
async fn an_unattended_run_never_waits_and_stops_at_the_third_refusal() {
    // The model keeps trying commands that need approval, one per round.
    let server = MockServer::scripted(vec![
        // In the day, in a chat, the user always-allows `touch`.
        calls(&[touch("z", "zero")]),
        Reply::text("made it"),
        calls(&[touch("a", "one")]),
        calls(&[touch("b", "two")]),
        calls(&[touch("c", "three")]),
        calls(&[touch("d", "four")]),
        Reply::text("done"),
    ])
    .await
    .unwrap();
    let approver = Arc::new(ScriptedApprover::new([ApprovalDecision::AlwaysAllow]));
    let mut e = env(Setup::new(server.base_url(), approver.clone()));
    e.ask("day", "make zero");
    e.until_finished("day").await;
    assert!(e.wd().join("zero").exists());
    assert_eq!(
        e.brain.grants().unwrap(),
        vec![("local_exec".into(), "touch".into())]
    );
    // "Don't ask" for commands stands for a person: not in an unattended run.
    e.brain.set_config("approvals.auto", r#"["exec"]"#).unwrap();
    let started = Instant::now();
    e.brain
        .start_run(
            unattended("night", ApprovalMode::Unattended),
            "tidy up".into(),
        )
        .unwrap();
    let events = e.until_finished("night").await;
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(stop_of(&events), StopReason::NeedsApproval);
    assert_eq!(
        statuses(&events),
        vec![ToolStatus::Refused; 3],
        "three refusals, then the run stopped"
    );
    assert_eq!(approver.asked().len(), 1, "nobody was asked at night");
    for f in ["one", "two", "three", "four"] {
        assert!(!e.wd().join(f).exists(), "{f} must not have been created");
    }
    // The model was told why, and the fourth request never went out.
    let reqs = server.chat_requests();
    assert_eq!(reqs.len(), 2 + 3);
    let told = messages(&reqs[3])
        .iter()
        .find(|m| m["tool_call_id"] == "a")
        .unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(told.contains("needs your approval"), "{told}");
    assert!(told.contains("the user has been told"), "{told}");
    // Said once to the user.
    let notices: Vec<&String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Notice { message } if message.contains("needed your approval") => Some(message),
            _ => None,
        })
        .collect();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].contains("touch one"), "{}", notices[0]);
    // The audit keeps the question, and who could not answer it.
    let rows: Vec<_> = e
        .brain
        .audit(10, Some("local_exec"))
        .unwrap()
        .into_iter()
        .filter(|r| r.session_id.as_deref() == Some("night"))
        .collect();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r.verdict == "ask"
        && r.decided_by == "unattended (schedule)"
        && r.outcome.as_deref() == Some("needs_approval")));
}

#[tokio::test]
async fn a_pre_approved_run_gets_what_was_approved_and_nothing_more() {
    let server = MockServer::scripted(vec![
        calls(&[touch("a", "made-by-schedule")]),
        Reply::tool_calls(&[(
            "w",
            "local_write_file",
            r#"{"path": "notes.md", "content": "x"}"#,
        )]),
        Reply::text("done"),
    ])
    .await
    .unwrap();
    let approver = Arc::new(ScriptedApprover::new([]));
    let mut e = env(Setup::new(server.base_url(), approver.clone()));
    e.brain
        .start_run(
            unattended(
                "daily",
                ApprovalMode::PreApproved {
                    allow: vec!["exec".into()],
                },
            ),
            "make the file".into(),
        )
        .unwrap();
    let events = e.until_finished("daily").await;
    assert_eq!(statuses(&events), vec![ToolStatus::Ok, ToolStatus::Refused]);
    assert!(e.wd().join("made-by-schedule").exists());
    assert!(
        !e.wd().join("notes.md").exists(),
        "writing was not approved"
    );
    assert_eq!(stop_of(&events), StopReason::NeedsApproval);
    assert!(approver.asked().is_empty());
    let exec = e.brain.audit(10, Some("local_exec")).unwrap();
    assert_eq!(exec[0].decided_by, "pre-approved");
    // The blacklist bounds every mode.
    let server2 = MockServer::scripted(vec![
        Reply::tool_calls(&[("x", "local_exec", r#"{"command": "rm -rf ~"}"#)]),
        Reply::text("ok"),
    ])
    .await
    .unwrap();
    let mut e2 = env(Setup::new(server2.base_url(), Arc::new(NoApprover)));
    e2.brain
        .start_run(
            unattended(
                "daily",
                ApprovalMode::PreApproved {
                    allow: vec!["exec".into(), "write".into()],
                },
            ),
            "clean".into(),
        )
        .unwrap();
    let events = e2.until_finished("daily").await;
    assert_eq!(statuses(&events), vec![ToolStatus::Refused]);
    assert_eq!(
        e2.brain.audit(1, Some("local_exec")).unwrap()[0].verdict,
        "block"
    );
    // Creating tools is never approved in advance.
    assert!(
        e2.brain
            .start_run(
                unattended(
                    "x",
                    ApprovalMode::PreApproved {
                        allow: vec!["create".into()]
                    }
                ),
                "hi".into()
            )
            .is_err()
    );
}

/// A tool that panics, standing in for a bug anywhere in a turn.
struct Panics;

#[async_trait]
impl Tool for Panics {
    fn name(&self) -> &str {
        "explode"
    }
    fn description(&self) -> &str {
        "panics"
    }
    fn parameters(&self) -> Value {
        json!({"type": "object"})
    }
    fn capabilities(&self, _: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        Ok(vec![Capability::Read(ctx.workdir.clone())])
    }
    async fn execute(&self, _: &ToolContext, _: Value) -> Result<ToolOutput, ToolError> {
        panic!("a bug in a tool");
    }
}

/// Work that cannot be interrupted half-way (a write under way).
struct Uninterruptible;

#[async_trait]
impl Tool for Uninterruptible {
    fn name(&self) -> &str {
        "slow_write"
    }
    fn description(&self) -> &str {
        "finishes what it starts"
    }
    fn parameters(&self) -> Value {
        json!({"type": "object"})
    }
    fn capabilities(&self, _: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        Ok(vec![Capability::Read(ctx.workdir.clone())])
    }
    async fn execute(&self, ctx: &ToolContext, _: Value) -> Result<ToolOutput, ToolError> {
        tokio::time::sleep(Duration::from_millis(400)).await;
        std::fs::write(ctx.workdir.join("written"), "all of it").unwrap();
        Ok(ToolOutput {
            content: "wrote it".into(),
            summary: "wrote it".into(),
        })
    }
}

fn with_extra(tools: Vec<Arc<dyn Tool>>) -> ToolRegistry {
    let mut r = ToolRegistry::with_builtins();
    for t in tools {
        r.register(t);
    }
    r
}

#[tokio::test]
async fn a_turn_that_panics_ends_and_frees_its_session() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("p", "explode", "{}")]),
        Reply::text("second turn works"),
    ])
    .await
    .unwrap();
    let mut setup = Setup::new(server.base_url(), Arc::new(NoApprover));
    setup.registry = Some(with_extra(vec![Arc::new(Panics)]));
    let mut e = env(setup);
    e.ask("s", "boom");
    let events = e.until_finished("s").await;
    assert_eq!(stop_of(&events), StopReason::Failed);
    assert!(
        events
            .iter()
            .any(|ev| matches!(ev, Event::Error { message, fatal: true } if message.contains("a bug in a tool")))
    );
    assert!(!e.brain.is_running("s"));
    e.ask("s", "again");
    let events = e.until_finished("s").await;
    assert_eq!(stop_of(&events), StopReason::Completed);
    assert!(e.brain.snapshot().runs.is_empty());
}

#[tokio::test]
async fn work_that_finished_is_reported_finished_even_when_cancelled_meanwhile() {
    let server = MockServer::scripted(vec![Reply::tool_calls(&[("w", "slow_write", "{}")])])
        .await
        .unwrap();
    let mut setup = Setup::new(server.base_url(), Arc::new(NoApprover));
    setup.registry = Some(with_extra(vec![Arc::new(Uninterruptible)]));
    let mut e = env(setup);
    e.ask("s", "write");
    e.wait_for(|ev| matches!(ev, Event::ToolCallStarted { .. }))
        .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    e.brain
        .submit(Op::CancelTurn {
            session_id: "s".into(),
        })
        .unwrap();
    let events = e.until_finished("s").await;
    assert!(e.wd().join("written").exists());
    assert_eq!(statuses(&events), vec![ToolStatus::Ok]);
    assert_eq!(stop_of(&events), StopReason::Cancelled);
}

#[tokio::test]
async fn a_late_host_catches_up_from_the_snapshot_then_the_numbered_events() {
    let server = MockServer::scripted(vec![
        calls(&[touch("a", "one")]),
        calls(&[touch("b", "two")]),
        Reply::text("done"),
        Reply::text("done too"),
    ])
    .await
    .unwrap();
    let mut setup = Setup::new(server.base_url(), Arc::new(NoApprover));
    setup.config = &[("approval_timeout_sec", "30")];
    let mut e = env(setup);
    // Two runs ask at the same time, each with its own question and timeout.
    e.ask("s1", "make a file");
    e.wait_for(|ev| matches!(ev, Event::ApprovalRequested { .. }))
        .await;
    e.ask("s2", "make another");
    e.wait_for(|ev| matches!(ev, Event::ApprovalRequested { .. }))
        .await;
    // A host that starts now: subscribe, then snapshot.
    let mut late = e.brain.subscribe();
    let snap = e.brain.snapshot();
    assert_eq!(snap.runs.len(), 2, "{:?}", snap.runs);
    assert_eq!(snap.pending_approvals.len(), 2);
    for q in &snap.pending_approvals {
        assert_eq!(q.origin, Origin::Chat);
        assert!(q.expires_at > jarvis_core::store::now_ms() + 20_000);
        let run = snap
            .runs
            .iter()
            .find(|r| r.run_id == q.run_id)
            .expect("each question names its run");
        assert_eq!(q.session_id.as_deref(), Some(run.session_id.as_str()));
        // What the Cockpit shows of it: the user's words and the tool in flight.
        assert_eq!(run.tool.as_deref(), Some("local_exec"));
        let asked = if run.session_id == "s1" {
            "make a file"
        } else {
            "make another"
        };
        assert_eq!(run.title, asked);
    }
    // The late host answers from the snapshot: allow the first, deny the other.
    for q in &snap.pending_approvals {
        let subject_one = q.subject.contains("touch one");
        e.brain
            .submit(Op::ApprovalDecision {
                request_id: q.request_id.clone(),
                decision: if subject_one {
                    ApprovalDecision::AllowOnce
                } else {
                    ApprovalDecision::Deny { reason: None }
                },
                decided_by: "late host".into(),
            })
            .unwrap();
    }
    // Everything after the snapshot, numbered without a gap, up to both ends.
    let mut last = snap.seq;
    let mut finished = 0;
    while finished < 2 {
        let env = tokio::time::timeout(Duration::from_secs(30), late.recv())
            .await
            .unwrap()
            .unwrap();
        if let Some(seq) = env.seq {
            assert_eq!(seq, last + 1, "no lifecycle event is skipped");
            last = seq;
        }
        if matches!(env.event, Event::TurnFinished { .. }) {
            finished += 1;
        }
    }
    assert!(e.wd().join("one").exists() && !e.wd().join("two").exists());
    assert!(e.brain.pending_approvals().is_empty());
    assert!(e.brain.snapshot().runs.is_empty());
}

#[tokio::test]
async fn a_run_with_its_own_folder_and_tools_uses_only_those() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("l", "local_exec", r#"{"command": "pwd"}"#)]),
        Reply::text("done"),
    ])
    .await
    .unwrap();
    let mut e = env(Setup::new(server.base_url(), Arc::new(NoApprover)));
    let other = tempfile::tempdir().unwrap();
    e.brain
        .start_run(
            RunSpec {
                workdir: Some(other.path().display().to_string()),
                tools: Some(vec!["local_list_dir".into()]),
                ..RunSpec::interactive(Origin::Task, "t")
            },
            "where am I".into(),
        )
        .unwrap();
    let events = e.until_finished("t").await;
    let offered = server.chat_requests()[0].json()["tools"].clone();
    assert_eq!(offered.as_array().unwrap().len(), 1, "{offered}");
    // Not offered, so not callable.
    assert_eq!(statuses(&events), vec![ToolStatus::Error]);
    let sys = messages(&server.chat_requests()[0])[0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    let canonical = std::fs::canonicalize(other.path()).unwrap();
    assert!(sys.contains(&canonical.display().to_string()), "{sys}");
}

#[tokio::test]
async fn a_server_that_never_answers_does_not_hold_the_turn() {
    let server = MockServer::scripted(vec![Reply::text("hello"), Reply::text("again")])
        .await
        .unwrap();
    let mut e = env(Setup::new(server.base_url(), Arc::new(NoApprover)));
    e.brain
        .update_config(|c| {
            c.mcp_servers.insert(
                "mute".into(),
                jarvis_core::config::McpServerConfig {
                    // Starts, and never says a word of MCP.
                    command: "/bin/sleep".into(),
                    args: vec!["600".into()],
                    ..Default::default()
                },
            );
            Ok(())
        })
        .unwrap();
    for session in ["a", "b"] {
        let t0 = Instant::now();
        e.ask(session, "hi");
        let events = e.until_finished(session).await;
        let took = t0.elapsed();
        assert_eq!(stop_of(&events), StopReason::Completed);
        assert!(
            took < Duration::from_secs(1),
            "the turn waited {took:?} for a server that never answers"
        );
    }
    // The model was told, and the user can see why.
    let sys = messages(&server.chat_requests()[0])[0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    // It was still starting (not refused at once), so the grace was what let the turn go.
    assert!(
        sys.contains("The MCP server mute is unavailable: it is still starting"),
        "{sys}"
    );
    assert!(e.brain.mcp_failures().iter().any(|(s, _)| s == "mute"));
}

/// A 1,600-token window and no hands: a few long turns overflow it.
fn small_window(server: &MockServer) -> common::Env {
    let mut setup = Setup::new(server.base_url(), Arc::new(NoApprover));
    // Room for the system prompt (with its statement of what is switched
    // off) and two long turns, not three.
    setup.config = &[
        ("llm.context_window", "1600"),
        ("tools.read", "false"),
        ("tools.write", "false"),
        ("tools.exec", "false"),
        ("tools.network", "false"),
    ];
    env(setup)
}

/// A chat turn offered `open_view` only: the window is the conversation's.
fn ask_small(e: &common::Env, session: &str, text: &str) {
    e.brain
        .start_run(
            RunSpec {
                tools: Some(vec!["open_view".into()]),
                ..RunSpec::interactive(Origin::Chat, session)
            },
            text.into(),
        )
        .unwrap();
}

fn long(tag: &str) -> String {
    format!(
        "{tag}: {}",
        "the launch plan needs a careful review of every line. ".repeat(11)
    )
}

#[tokio::test]
async fn a_long_conversation_is_summarised_to_fit_and_the_summary_kept() {
    let server = MockServer::scripted(vec![
        Reply::text(&long("first answer")),
        Reply::text(&long("second answer")),
        // The side call, then the turn's own answer.
        Reply::text("SUMMARY: the user is reviewing the launch plan."),
        Reply::text("third answer"),
        Reply::text("fourth answer"),
    ])
    .await
    .unwrap();
    let mut e = small_window(&server);
    for (i, q) in ["one", "two"].iter().enumerate() {
        ask_small(&e, "long", &long(q));
        let events = e.until_finished("long").await;
        assert_eq!(stop_of(&events), StopReason::Completed, "turn {i}");
    }
    ask_small(&e, "long", &long("three"));
    let events = e.until_finished("long").await;
    assert_eq!(stop_of(&events), StopReason::Completed);
    let reqs = server.chat_requests();
    assert_eq!(reqs.len(), 4, "two turns, the summary, the third turn");
    // The side call: no tools, the earlier turns as data to summarise.
    let side = reqs[2].json();
    assert!(side["tools"].as_array().is_none_or(|t| t.is_empty()));
    let side_text = messages(&reqs[2])[1]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(side_text.contains("User: one:"), "{side_text}");
    // The turn's request carries the summary instead of the oldest turn.
    let sys = messages(&reqs[3])[0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(sys.contains("SUMMARY: the user is reviewing"), "{sys}");
    let sent: String = messages(&reqs[3])
        .iter()
        .filter_map(|m| m["content"].as_str())
        .collect();
    assert!(
        !sent.contains("User: one") && !sent.contains("one: the launch"),
        "the summarised turn is not sent again"
    );
    // Its tokens are the turn's: two answers of 20 + 10 each.
    let usage = events
        .iter()
        .find_map(|ev| match ev {
            Event::TurnFinished { usage, .. } => Some(*usage),
            _ => None,
        })
        .unwrap();
    assert_eq!(usage.total_tokens, 60);
    assert!(
        events
            .iter()
            .any(|ev| matches!(ev, Event::Notice { message } if message.contains("summarised")))
    );
    // The next turn starts from the stored summary.
    ask_small(&e, "long", "and now?");
    e.until_finished("long").await;
    let reqs = server.chat_requests();
    assert_eq!(reqs.len(), 5, "no second summary was needed");
    let sys = messages(&reqs[4])[0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(sys.contains("SUMMARY: the user is reviewing"), "{sys}");
}

#[tokio::test]
async fn when_the_model_cannot_summarise_old_turns_are_left_out() {
    let server = MockServer::scripted(vec![
        Reply::text(&long("first answer")),
        Reply::text(&long("second answer")),
        Reply::status(500, "summaries are down"),
        Reply::text("third answer"),
        Reply::text("fourth answer"),
    ])
    .await
    .unwrap();
    let mut e = small_window(&server);
    for q in ["one", "two", "three", "four"] {
        ask_small(&e, "long", &long(q));
        let events = e.until_finished("long").await;
        assert_eq!(stop_of(&events), StopReason::Completed);
    }
    let reqs = server.chat_requests();
    // One failed side call; the next turn does not try again at once.
    assert_eq!(reqs.len(), 5, "four turns and one attempt to summarise");
    let sys = messages(reqs.last().unwrap())[0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(sys.contains("left out to fit the context window"), "{sys}");
}

#[tokio::test]
async fn calls_after_the_third_refusal_in_one_round_do_not_run() {
    let server = MockServer::scripted(vec![calls(&[
        touch("a", "one"),
        touch("b", "two"),
        touch("c", "three"),
        touch("d", "four"),
        touch("e", "five"),
    ])])
    .await
    .unwrap();
    let mut e = env(Setup::new(server.base_url(), Arc::new(NoApprover)));
    e.brain
        .start_run(
            unattended(
                "batch",
                ApprovalMode::PreApproved {
                    allow: vec!["write".into()],
                },
            ),
            "make five".into(),
        )
        .unwrap();
    let events = e.until_finished("batch").await;
    assert_eq!(stop_of(&events), StopReason::NeedsApproval);
    assert_eq!(statuses(&events), vec![ToolStatus::Refused; 5]);
    let audited = e.brain.audit(20, Some("local_exec")).unwrap().len();
    assert_eq!(audited, 3, "the fourth and fifth never reached the gate");
    assert_eq!(server.chat_requests().len(), 1);
}

#[tokio::test]
async fn a_cancel_withdraws_the_question_everywhere() {
    let server = MockServer::scripted(vec![calls(&[touch("a", "one")])])
        .await
        .unwrap();
    let mut setup = Setup::new(server.base_url(), Arc::new(NoApprover));
    setup.config = &[("approval_timeout_sec", "30")];
    let mut e = env(setup);
    e.ask("s", "make a file");
    let asked = e
        .wait_for(|ev| matches!(ev, Event::ApprovalRequested { .. }))
        .await;
    let Event::ApprovalRequested { request } = asked else {
        unreachable!()
    };
    assert_eq!(e.brain.pending_approvals().len(), 1);
    e.brain
        .submit(Op::CancelTurn {
            session_id: "s".into(),
        })
        .unwrap();
    let events = e.until_finished("s").await;
    assert!(events.iter().any(|ev| matches!(ev,
        Event::ApprovalResolved { request_id, decided_by, .. }
            if *request_id == request.request_id && decided_by == "cancel")));
    assert!(e.brain.pending_approvals().is_empty());
    assert!(e.brain.snapshot().runs.is_empty());
    assert!(!e.wd().join("one").exists());
    // An answer that comes too late finds nothing waiting.
    e.brain
        .submit(Op::ApprovalDecision {
            request_id: request.request_id,
            decision: ApprovalDecision::AllowOnce,
            decided_by: "late".into(),
        })
        .unwrap();
    let note = e.wait_for(|ev| matches!(ev, Event::Notice { .. })).await;
    assert!(matches!(note, Event::Notice { message } if message.contains("no longer pending")));
}

#[tokio::test]
async fn a_run_that_does_not_say_a_person_is_there_is_unattended() {
    let spec: RunSpec =
        serde_json::from_value(json!({"origin": "schedule", "session_id": "x"})).unwrap();
    assert_eq!(spec.approval, ApprovalMode::Unattended);
    assert_eq!(RunSpec::default().approval, ApprovalMode::Unattended);
    assert_eq!(
        RunSpec::interactive(Origin::Chat, "c").approval,
        ApprovalMode::Interactive
    );
}
