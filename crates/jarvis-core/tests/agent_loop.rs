//! The agent loop end to end against a real HTTP server on loopback.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use jarvis_core::policy::{AllowOnceApprover, NoApprover, ScriptedApprover};
use jarvis_core::tools::{Capability, Tool, ToolContext, ToolError, ToolOutput, ToolRegistry};
use jarvis_protocol::{ApprovalDecision, Event, Op, StopReason, ToolStatus};
use jarvis_testkit::{MockServer, Reply};
use serde_json::{Value, json};

#[tokio::test]
async fn a_tool_round_writes_the_file_and_answers_every_call_once() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[(
            "call_w",
            "local_write_file",
            r#"{"path":"notes/hello.txt","content":"Phase 3 测试成功！"}"#,
        )]),
        Reply::tool_calls(&[("call_r", "local_read_file", r#"{"path":"notes/hello.txt"}"#)]),
        Reply::text("Written and read back: it matches."),
    ])
    .await
    .unwrap();
    let mut e = env(Setup::new(server.base_url(), Arc::new(AllowOnceApprover)));
    e.ask("s1", "write a file then read it back");
    let events = e.until_finished("s1").await;
    assert_eq!(stop_of(&events), StopReason::Completed);
    assert_eq!(text_of(&events), "Written and read back: it matches.");
    assert_eq!(
        std::fs::read_to_string(e.wd().join("notes/hello.txt")).unwrap(),
        "Phase 3 测试成功！"
    );

    let reqs = server.chat_requests();
    assert_eq!(reqs.len(), 3);
    let body = reqs[0].json();
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"]["include_usage"], true);
    assert_eq!(body["model"], "test-model");
    let tool_names: Vec<&str> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    for n in [
        "local_list_dir",
        "local_read_file",
        "local_write_file",
        "local_exec",
        "http_request",
        "open_view",
    ] {
        assert!(tool_names.contains(&n), "{n} missing from tools");
    }
    assert_eq!(tool_ids(&reqs[1]), vec!["call_w"]);
    assert_eq!(tool_ids(&reqs[2]), vec!["call_w", "call_r"]);
    let last = messages(&reqs[2]);
    let read_result = last.iter().find(|m| m["tool_call_id"] == "call_r").unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(read_result.contains("Phase 3 测试成功！"), "{read_result}");
    assert!(
        read_result.starts_with("<tool_output trust=\"untrusted\">"),
        "tool output is marked untrusted"
    );
    assert!(
        last[0]["content"]
            .as_str()
            .unwrap()
            .contains("untrusted data")
    );

    // SQLite holds the same conversation, and usage per turn.
    let stored = e.brain.session_messages("s1").unwrap();
    let roles: Vec<&str> = stored.iter().map(|m| m.message.role.as_str()).collect();
    assert_eq!(
        roles,
        vec![
            "user",
            "assistant",
            "tool",
            "assistant",
            "tool",
            "assistant"
        ]
    );
    let usage = e.brain.turn_usage("s1").unwrap();
    assert_eq!(usage.len(), 1);
    assert_eq!(usage[0].stop, "completed");
    assert_eq!(
        usage[0].total_tokens,
        45 + 45 + 30,
        "usage summed over three rounds"
    );
    // Every call was audited: the write asked (and was approved), the read
    // inside the working directory ran without a question.
    let audit = e.brain.audit(50, None).unwrap();
    let rows: Vec<(&str, &str, Option<&str>)> = audit
        .iter()
        .map(|a| (a.tool.as_str(), a.verdict.as_str(), a.outcome.as_deref()))
        .collect();
    assert_eq!(
        rows,
        [
            ("local_write_file", "ask", Some("ok")),
            ("local_read_file", "allow", Some("ok"))
        ],
        "{audit:?}"
    );
}

#[tokio::test]
async fn unknown_tools_and_bad_arguments_go_back_to_the_model_which_recovers() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[
            ("c1", "file_read", r#"{"path":"x"}"#),
            ("c2", "local_read_file", r#"{"path": "#),
        ]),
        Reply::text("Sorry, fixed."),
    ])
    .await
    .unwrap();
    let mut e = env(Setup::new(server.base_url(), Arc::new(AllowOnceApprover)));
    e.ask("s", "go");
    let events = e.until_finished("s").await;
    assert_eq!(stop_of(&events), StopReason::Completed);
    let reqs = server.chat_requests();
    let msgs = messages(&reqs[1]);
    let r1 = msgs.iter().find(|m| m["tool_call_id"] == "c1").unwrap()["content"]
        .as_str()
        .unwrap();
    assert!(
        r1.contains("no tool named \"file_read\"") && r1.contains("local_read_file"),
        "{r1}"
    );
    let r2 = msgs.iter().find(|m| m["tool_call_id"] == "c2").unwrap()["content"]
        .as_str()
        .unwrap();
    assert!(r2.contains("not a valid JSON object"), "{r2}");
}

#[tokio::test]
async fn identical_calls_in_a_row_are_stopped() {
    let same = Reply::tool_calls(&[("c", "local_list_dir", r#"{"path":"."}"#)]);
    let server = MockServer::scripted(vec![same.clone(), same.clone(), same.clone(), same])
        .await
        .unwrap();
    let mut e = env(Setup::new(server.base_url(), Arc::new(AllowOnceApprover)));
    e.ask("s", "loop");
    let events = e.until_finished("s").await;
    assert_eq!(stop_of(&events), StopReason::Repetition);
    assert_eq!(server.chat_requests().len(), 3);
    let ran = e.brain.audit(50, None).unwrap().len();
    assert_eq!(ran, 2, "the third identical call is not run");
    assert!(text_of(&events).contains("same tool call"));
}

#[tokio::test]
async fn max_rounds_ends_the_turn_honestly() {
    let script: Vec<Reply> = (0..5)
        .map(|i| Reply::tool_calls(&[("c", "local_list_dir", &format!(r#"{{"path":"d{i}"}}"#))]))
        .collect();
    let server = MockServer::scripted(script).await.unwrap();
    let mut e = env(Setup {
        config: &[("llm.max_rounds", "3")],
        ..Setup::new(server.base_url(), Arc::new(AllowOnceApprover))
    });
    e.ask("s", "explore");
    let events = e.until_finished("s").await;
    assert_eq!(stop_of(&events), StopReason::MaxRounds);
    assert_eq!(server.chat_requests().len(), 3);
    assert!(text_of(&events).contains("stopped after 3 rounds"));
}

#[tokio::test]
async fn blocked_commands_never_reach_the_approver_and_are_audited() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("c", "local_exec", r#"{"command":"sudo rm -rf /home/test"}"#)]),
        Reply::text("That command was refused by the safety policy."),
    ])
    .await
    .unwrap();
    let approver = Arc::new(ScriptedApprover::new([ApprovalDecision::AlwaysAllow]));
    let mut e = env(Setup {
        config: &[("tools.exec", "true")],
        ..Setup::new(server.base_url(), approver.clone())
    });
    e.ask("s", "执行命令 sudo rm -rf /home/test");
    let events = e.until_finished("s").await;
    assert!(
        approver.asked().is_empty(),
        "a block is never put to the user"
    );
    let fin = events.iter().find_map(|ev| match ev {
        Event::ToolCallFinished {
            status, summary, ..
        } => Some((*status, summary.clone())),
        _ => None,
    });
    assert_eq!(
        fin.as_ref().map(|f| f.0),
        Some(ToolStatus::Refused),
        "{fin:?}"
    );
    let audit = e.brain.audit(5, None).unwrap();
    assert_eq!(audit[0].verdict, "block");
    assert!(
        audit[0].reason.contains("privilege escalation"),
        "{}",
        audit[0].reason
    );
    let msgs = messages(&server.chat_requests()[1]);
    let r = msgs.iter().find(|m| m["role"] == "tool").unwrap()["content"]
        .as_str()
        .unwrap();
    assert!(r.contains("refused by Jarvis's safety policy"), "{r}");
}

#[tokio::test]
async fn approvals_deny_with_reason_always_allow_and_time_out() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("a", "local_exec", r#"{"command":"touch one"}"#)]),
        Reply::text("ok"),
        Reply::tool_calls(&[("b", "local_exec", r#"{"command":"touch two"}"#)]),
        Reply::text("ok"),
        Reply::tool_calls(&[("c", "local_exec", r#"{"command":"touch three"}"#)]),
        Reply::text("ok"),
        Reply::tool_calls(&[("d", "local_exec", r#"{"command":"mkdir four"}"#)]),
        Reply::text("ok"),
    ])
    .await
    .unwrap();
    let approver = Arc::new(ScriptedApprover::new([
        ApprovalDecision::Deny {
            reason: Some("not now, I'm presenting".into()),
        },
        ApprovalDecision::AlwaysAllow,
    ]));
    let mut e = env(Setup {
        config: &[("approval_timeout_sec", "1")],
        ..Setup::new(server.base_url(), approver.clone())
    });
    e.ask("s", "one");
    e.until_finished("s").await;
    let r = messages(&server.chat_requests()[1]);
    assert!(r.iter().any(|m| {
        m["content"]
            .as_str()
            .unwrap_or("")
            .contains("not now, I'm presenting")
    }));
    e.ask("s", "two");
    e.until_finished("s").await;
    assert_eq!(approver.asked().len(), 2);
    let req = &approver.asked()[1];
    assert_eq!(req.tool, "local_exec");
    assert!(req.subject.contains("touch two"), "{}", req.subject);
    assert_eq!(req.workdir, e.wd().display().to_string());
    // `touch` is granted now: no question.
    e.ask("s", "three");
    e.until_finished("s").await;
    assert_eq!(
        approver.asked().len(),
        2,
        "the always-allow grant covered touch"
    );
    assert!(
        e.brain
            .grants()
            .unwrap()
            .contains(&("local_exec".to_string(), "touch".to_string()))
    );
    // `mkdir` is not granted and the script has no more answers: denied.
    e.ask("s", "four");
    e.until_finished("s").await;
    let audit = e.brain.audit(10, None).unwrap();
    // Asked calls stay "ask" whatever the answer; `allow` is what ran
    // without a question.
    let decided: Vec<(&str, &str, &str)> = audit
        .iter()
        .map(|a| {
            (
                a.verdict.as_str(),
                a.decided_by.as_str(),
                a.outcome.as_deref().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(decided[0], ("ask", "user (scripted)", "denied"));
    assert_eq!(decided[1], ("ask", "user (scripted)", "ok"));
    assert_eq!(decided[2], ("allow", "grant", "ok"));
    assert_eq!((decided[3].0, decided[3].2), ("ask", "denied"));
}

#[tokio::test]
async fn no_answer_within_the_timeout_is_a_denial_and_an_op_can_answer() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("a", "local_exec", r#"{"command":"touch hi"}"#)]),
        Reply::text("ok"),
        Reply::tool_calls(&[("b", "local_exec", r#"{"command":"touch op && echo op"}"#)]),
        Reply::text("ok"),
    ])
    .await
    .unwrap();
    let mut e = env(Setup {
        config: &[("approval_timeout_sec", "1")],
        ..Setup::new(server.base_url(), Arc::new(NoApprover))
    });
    let t0 = Instant::now();
    e.ask("s", "x");
    let events = e.until_finished("s").await;
    let waited = t0.elapsed();
    assert!(
        waited >= Duration::from_millis(950) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    let resolved = events.iter().find_map(|ev| match ev {
        Event::ApprovalResolved {
            decided_by,
            decision,
            ..
        } => Some((decided_by.clone(), decision.clone())),
        _ => None,
    });
    assert_eq!(resolved.map(|r| r.0), Some("timeout".to_string()));
    // Another host (the HUD) answers through the brain API.
    e.ask("s", "y");
    let req = e
        .wait_for(|ev| matches!(ev, Event::ApprovalRequested { .. }))
        .await;
    let Event::ApprovalRequested { request } = req else {
        unreachable!()
    };
    e.brain
        .submit(Op::ApprovalDecision {
            request_id: request.request_id,
            decision: ApprovalDecision::AllowOnce,
            decided_by: "hud".into(),
        })
        .unwrap();
    e.until_finished("s").await;
    let msgs = messages(&server.chat_requests()[3]);
    let r = msgs.iter().rev().find(|m| m["role"] == "tool").unwrap()["content"]
        .as_str()
        .unwrap();
    assert!(r.contains("exit code: 0") && r.contains("op"), "{r}");
}

#[tokio::test]
async fn cancel_during_a_running_tool_leaves_exactly_one_result_per_call() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[
            ("c_sleep", "local_exec", r#"{"command":"sleep 30"}"#),
            ("c_after", "local_list_dir", r#"{"path":"."}"#),
        ]),
        Reply::text("next turn answer"),
    ])
    .await
    .unwrap();
    let mut e = env(Setup {
        config: &[("approvals.auto", r#"["exec"]"#)],
        ..Setup::new(server.base_url(), Arc::new(NoApprover))
    });
    e.ask("s", "run a long thing");
    e.wait_for(|ev| matches!(ev, Event::ToolCallStarted { name, .. } if name == "local_list_dir"))
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let t0 = Instant::now();
    e.brain
        .submit(Op::CancelTurn {
            session_id: "s".into(),
        })
        .unwrap();
    let events = e.until_finished("s").await;
    assert!(
        t0.elapsed() < Duration::from_secs(3),
        "cancel took {:?}",
        t0.elapsed()
    );
    assert_eq!(stop_of(&events), StopReason::Cancelled);
    let statuses: Vec<ToolStatus> = events
        .iter()
        .filter_map(|ev| match ev {
            Event::ToolCallFinished { status, .. } => Some(*status),
            _ => None,
        })
        .collect();
    assert_eq!(statuses, vec![ToolStatus::Cancelled, ToolStatus::Cancelled]);
    // SQLite: one tool message per call id.
    let stored = e.brain.session_messages("s").unwrap();
    let ids: Vec<String> = stored
        .iter()
        .filter_map(|m| m.message.tool_call_id.clone())
        .collect();
    assert_eq!(ids, vec!["c_sleep", "c_after"]);
    // The next request: the same, exactly once each.
    e.ask("s", "and now?");
    let events = e.until_finished("s").await;
    assert_eq!(text_of(&events), "next turn answer");
    assert_eq!(
        tool_ids(&server.chat_requests()[1]),
        vec!["c_sleep", "c_after"]
    );
}

struct SlowRead;

#[async_trait::async_trait]
impl Tool for SlowRead {
    fn name(&self) -> &str {
        "slow_read"
    }
    fn description(&self) -> &str {
        "test"
    }
    fn parameters(&self) -> Value {
        json!({"type": "object"})
    }
    fn capabilities(&self, _: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        Ok(vec![Capability::Read(ctx.workdir.clone())])
    }
    async fn execute(&self, _: &ToolContext, _: Value) -> Result<ToolOutput, ToolError> {
        tokio::time::sleep(Duration::from_millis(600)).await;
        Ok(ToolOutput {
            content: "done".into(),
            summary: "done".into(),
        })
    }
}

#[tokio::test]
async fn read_only_calls_run_concurrently() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[
            ("a", "slow_read", "{}"),
            ("b", "slow_read", "{\"x\":1}"),
            ("c", "slow_read", "{\"x\":2}"),
        ]),
        Reply::text("done"),
    ])
    .await
    .unwrap();
    let mut reg = ToolRegistry::with_builtins();
    reg.register(Arc::new(SlowRead));
    let mut e = env(Setup {
        config: &[("tools.read", "true")],
        registry: Some(reg),
        ..Setup::new(server.base_url(), Arc::new(NoApprover))
    });
    let t0 = Instant::now();
    e.ask("s", "read three things");
    e.until_finished("s").await;
    assert!(
        t0.elapsed() < Duration::from_millis(1500),
        "three 600 ms reads took {:?}",
        t0.elapsed()
    );
    assert_eq!(tool_ids(&server.chat_requests()[1]), vec!["a", "b", "c"]);
}

#[tokio::test]
async fn a_tiny_context_window_keeps_requests_small() {
    let big = "lorem ipsum ".repeat(5000);
    std::fs::create_dir_all("/tmp").ok();
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("r1", "local_read_file", r#"{"path":"big.txt"}"#)]),
        Reply::text("first answer"),
        Reply::text("second answer"),
    ])
    .await
    .unwrap();
    let mut e = env(Setup {
        config: &[("tools.read", "true"), ("llm.context_window", "5120")],
        ..Setup::new(server.base_url(), Arc::new(NoApprover))
    });
    std::fs::write(e.wd().join("big.txt"), &big).unwrap();
    e.ask("s", "read big.txt");
    e.until_finished("s").await;
    e.ask("s", "what did it say?");
    e.until_finished("s").await;
    let reqs = server.chat_requests();
    // In the current turn the whole (60 K) result is too big for 5 K tokens: it is cut.
    let second = reqs[1].body.len();
    assert!(second < 16_000, "request 2 is {second} bytes");
    // The next turn still carries the earlier turn, with the result cut short.
    let third = messages(&reqs[2]);
    let t = third.iter().find(|m| m["role"] == "tool").unwrap()["content"]
        .as_str()
        .unwrap();
    assert!(t.contains("cut to fit the context window"), "{}", &t[..200]);
    assert_eq!(third.last().unwrap()["content"], "what did it say?");
}

#[tokio::test]
async fn open_view_emits_an_action() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("v", "open_view", r#"{"view":"audit"}"#)]),
        Reply::text("Here is the audit."),
    ])
    .await
    .unwrap();
    let mut e = env(Setup::new(server.base_url(), Arc::new(NoApprover)));
    e.ask("s", "show me the audit");
    let events = e.until_finished("s").await;
    assert!(events.iter().any(|ev| matches!(ev, Event::Action { action: jarvis_protocol::UiAction::Navigate { view, .. } } if view == "audit")));
}

#[tokio::test]
async fn the_api_key_reaches_the_server_but_no_file_or_child_process() {
    use jarvis_core::llm::Secret;
    use jarvis_core::secrets::{MemorySecretStore, SecretStore};
    let key = "sk-test-0123456789abcdefSECRET";
    let secrets = Arc::new(MemorySecretStore::default());
    secrets.set("api_key", &Secret::new(key)).unwrap();
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[(
            "h",
            "local_exec",
            r#"{"command":"env; echo JARVIS_AGENT_EXEC=$JARVIS_AGENT_EXEC"}"#,
        )]),
        Reply::text("done"),
    ])
    .await
    .unwrap();
    let mut e = env(Setup {
        secrets,
        config: &[("approvals.auto", r#"["exec"]"#)],
        ..Setup::new(server.base_url(), Arc::new(NoApprover))
    });
    e.ask("s", "hi");
    e.until_finished("s").await;
    assert_eq!(
        server.chat_requests()[0].header("authorization"),
        Some(format!("Bearer {key}").as_str())
    );
    let msgs = messages(&server.chat_requests()[1]);
    let out = msgs.iter().find(|m| m["role"] == "tool").unwrap()["content"]
        .as_str()
        .unwrap();
    assert!(
        out.contains("JARVIS_AGENT_EXEC=1"),
        "the child is marked as the agent's: {out}"
    );
    for m in &msgs {
        assert!(!m.to_string().contains(key), "the key reached the model");
    }
    drop(e.brain);
    for entry in std::fs::read_dir(e.home.path()).unwrap() {
        let p = entry.unwrap().path();
        let bytes = std::fs::read(&p).unwrap_or_default();
        assert!(
            !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
            "{} holds the key",
            p.display()
        );
    }
}

#[tokio::test]
async fn set_workdir_and_reload_take_effect_for_the_next_call() {
    let server = MockServer::scripted(vec![]).await.unwrap();
    let e = env(Setup {
        config: &[("tools.read", "false")],
        ..Setup::new(
            server.base_url(),
            Arc::new(jarvis_core::policy::DenyApprover),
        )
    });
    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("marker.txt"), "here").unwrap();
    // Local file access is off: refused, whoever would approve.
    let out = e.brain.run_tool("local_list_dir", "{}").await;
    assert_eq!(out.status, ToolStatus::Refused);
    assert!(
        out.content.contains("local file access is off"),
        "{}",
        out.content
    );
    // Turn reads on in config.json (as `jarvis config set` would), then reload.
    jarvis_core::config::ConfigStore::new(e.home.path())
        .update(|c| Ok(c.set("tools.read", "true")?))
        .unwrap();
    e.brain.submit(Op::Reload).unwrap();
    e.brain
        .submit(Op::SetWorkdir {
            path: other.path().display().to_string(),
        })
        .unwrap();
    let out = e.brain.run_tool("local_list_dir", "{}").await;
    assert_eq!(out.status, ToolStatus::Ok, "{}", out.content);
    assert!(out.content.contains("marker.txt"));
    // A workdir that does not exist is an error, and the old one stays.
    assert!(
        e.brain
            .submit(Op::SetWorkdir {
                path: "/definitely/not/here".into()
            })
            .is_err()
    );
    assert_eq!(
        e.brain.workdir(),
        std::fs::canonicalize(other.path()).unwrap()
    );
    // Two turns at once in one session are refused, not interleaved.
    let slow = MockServer::scripted(vec![jarvis_testkit::Reply::Stream {
        pieces: vec![jarvis_testkit::Piece::StallForever],
    }])
    .await
    .unwrap();
    let mut e2 = env(Setup::new(slow.base_url(), Arc::new(NoApprover)));
    e2.ask("busy", "one");
    let err = e2
        .brain
        .submit(Op::UserInput {
            session_id: "busy".into(),
            text: "two".into(),
        })
        .unwrap_err();
    assert!(err.to_string().contains("already running"), "{err}");
    e2.brain
        .submit(Op::CancelTurn {
            session_id: "busy".into(),
        })
        .unwrap();
    assert_eq!(
        stop_of(&e2.until_finished("busy").await),
        StopReason::Cancelled
    );
}

#[tokio::test]
async fn skills_are_in_the_next_request_and_readable_without_approval() {
    let server = MockServer::scripted(vec![Reply::text("no skill yet")])
        .await
        .unwrap();
    let mut e = env(Setup::new(server.base_url(), Arc::new(NoApprover)));
    e.ask("s", "hello");
    e.until_finished("s").await;
    let sys0 = messages(&server.chat_requests()[0])[0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!sys0.contains("<available_skills>"), "no skills, no block");
    // A skill appears on disk between turns.
    let dir = e.home.path().join("skills/translator");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), "---\nname: translator\ndescription: Translate text between languages & keep <tone>.\n---\n# Translator\nSay bonjour.\n").unwrap();
    let location = std::fs::canonicalize(dir.join("SKILL.md"))
        .unwrap()
        .display()
        .to_string();
    let read = json!({"path": location}).to_string();
    let server2 = MockServer::scripted(vec![
        Reply::tool_calls(&[("r", "local_read_file", &read)]),
        Reply::text("Bonjour!"),
    ])
    .await
    .unwrap();
    jarvis_core::config::ConfigStore::new(e.home.path())
        .update(|c| Ok(c.set("llm.base_url", &server2.base_url())?))
        .unwrap();
    e.brain.submit(Op::Reload).unwrap();
    e.ask("s", "translate hello to French");
    let events = e.until_finished("s").await;
    assert_eq!(text_of(&events), "Bonjour!");
    let first = &server2.chat_requests()[0];
    let sys = messages(first)[0]["content"].as_str().unwrap().to_string();
    assert!(
        sys.contains("<available_skills>") && sys.contains("<name>\ntranslator\n</name>"),
        "{sys}"
    );
    assert!(
        sys.contains("Translate text between languages &amp; keep &lt;tone&gt;."),
        "escaped: {sys}"
    );
    assert!(sys.contains(&location));
    // tools.read is off and nobody can approve, yet the skill was read: skill roots are read-only, no approval.
    let result = tool_ids(&server2.chat_requests()[1]);
    assert_eq!(result, vec!["r"]);
    let content = messages(&server2.chat_requests()[1])
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(content.contains("Say bonjour."), "{content}");
    // Reading the SKILL.md counted as a use of the skill.
    assert_eq!(e.brain.skill_usage("translator").unwrap().0, 1);
    // Skill roots are never writable by tools.
    let out = e
        .brain
        .run_tool(
            "local_write_file",
            &json!({"path": location, "content": "pwned"}).to_string(),
        )
        .await;
    assert_eq!(out.status, ToolStatus::Refused);
    assert!(
        std::fs::read_to_string(dir.join("SKILL.md"))
            .unwrap()
            .contains("Say bonjour.")
    );
}

#[tokio::test]
async fn skills_hot_reload_edits_renames_removals_and_one_rebuild_per_burst() {
    let server = MockServer::with_handler(|_, _| Reply::text("ok"))
        .await
        .unwrap();
    let mut e = env(Setup {
        config: &[("skills.prompt_budget", "100000")],
        ..Setup::new(server.base_url(), Arc::new(NoApprover))
    });
    let skills = e.home.path().join("skills");
    std::fs::create_dir_all(&skills).unwrap();
    // The turns' own requests (a long catalog may also bring a side call
    // that summarises earlier turns; it offers no tools).
    let system = |i: usize| {
        let turns: Vec<_> = server
            .chat_requests()
            .into_iter()
            .filter(|r| r.json()["tools"].as_array().is_some_and(|t| !t.is_empty()))
            .collect();
        messages(&turns[i])[0]["content"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let settle = || tokio::time::sleep(Duration::from_millis(300));
    turn(&mut e).await;
    assert!(!system(0).contains("<available_skills>"));
    // Added.
    std::fs::create_dir_all(skills.join("alpha")).unwrap();
    std::fs::write(
        skills.join("alpha/SKILL.md"),
        "---\nname: alpha\ndescription: first version\n---\n",
    )
    .unwrap();
    settle().await;
    turn(&mut e).await;
    assert!(system(1).contains("first version"));
    // Edited the way editors save: a temp file renamed over the original.
    std::fs::write(
        skills.join("alpha/.SKILL.md.swp"),
        "---\nname: alpha\ndescription: second version\n---\n",
    )
    .unwrap();
    std::fs::rename(
        skills.join("alpha/.SKILL.md.swp"),
        skills.join("alpha/SKILL.md"),
    )
    .unwrap();
    settle().await;
    turn(&mut e).await;
    assert!(system(2).contains("second version") && !system(2).contains("first version"));
    // Removed.
    std::fs::remove_dir_all(skills.join("alpha")).unwrap();
    settle().await;
    turn(&mut e).await;
    assert!(!system(3).contains("alpha"));
    // Unchanged: no rebuild.
    let before = e.brain.skill_rebuilds();
    turn(&mut e).await;
    assert_eq!(
        e.brain.skill_rebuilds(),
        before,
        "nothing changed, nothing rebuilt"
    );
    // A burst of 100 skills costs one rebuild.
    for i in 0..100 {
        let d = skills.join(format!("burst-{i}"));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: burst-{i}\ndescription: burst skill {i}\n---\n"),
        )
        .unwrap();
    }
    settle().await;
    let before = e.brain.skill_rebuilds();
    turn(&mut e).await;
    assert_eq!(
        e.brain.skill_rebuilds(),
        before + 1,
        "one rebuild for the burst"
    );
    let sys = system(5);
    assert_eq!(sys.matches("<name>\nburst-").count(), 100);
}

async fn turn(e: &mut Env) {
    e.ask("s", "another turn");
    e.until_finished("s").await;
}
