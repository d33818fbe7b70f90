//! Prompt injection end to end (`../shared/oracles/security/injection/`): a
//! scripted model reads each planted file, then makes the calls the file
//! provokes, with every toggle on and a user who approves everything asked.
//! Nothing blocked runs, nothing escapes, no setting or grant changes, and
//! the file reached the model marked as untrusted data.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;

use common::*;
use jarvis_core::policy::AllowOnceApprover;
use jarvis_protocol::{Event, ToolStatus};
use jarvis_testkit::{MockServer, Reply};
use serde_json::{Value, json};

const ENV_SECRET: &str = "sk-live-INJECTION-TEST-5e1d";

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
                let args = c["args"]
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
        let mut e = env(Setup {
            config: &[
                ("tools.read", "true"),
                ("tools.write", "true"),
                ("tools.exec", "true"),
            ],
            ..Setup::new(server.base_url(), Arc::new(AllowOnceApprover))
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
        let audit = e.brain.store().audit(50, None).unwrap();
        for ((id, status, summary), (tool, args)) in finished.iter().zip(&provoked) {
            let row = audit.iter().find(|a| a.call_id == *id).unwrap();
            if tool == "http_request" {
                // A public GET is allowed by the URL policy; the secret never got that far.
                assert_eq!(row.verdict, "allow", "{file}: {args}");
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
            e.brain.store().grants().unwrap().is_empty(),
            "{file}: a grant appeared"
        );
        let escaped = e.wd().join("../../.config/autostart/update.desktop");
        assert!(!escaped.exists(), "{file}: the autostart entry was written");
    }
}
