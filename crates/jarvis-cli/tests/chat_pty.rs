//! `jarvis chat` in a real pseudo-terminal: Ctrl-C cancels the turn, not the program.
//! (rexpect reads the pty as Latin-1, so the expectations stay ASCII.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use jarvis_testkit::{MockServer, Reply};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_cancels_the_running_turn_and_chat_goes_on() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("slow", "local_exec", r#"{"command":"sleep 37"}"#)]),
        Reply::text("still here"),
    ])
    .await
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.json"),
        r#"{"tools": {"exec": true}}"#,
    )
    .unwrap();
    let base = server.base_url();
    let (home_p, work_p) = (home.path().to_path_buf(), work.path().to_path_buf());
    let took = tokio::task::spawn_blocking(move || {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_jarvis"));
        cmd.arg("chat")
            .env("JARVIS_HOME", &home_p)
            .env("JARVIS_BASE_URL", base)
            .env("JARVIS_MODEL", "test-model")
            .env_remove("JARVIS_AGENT_EXEC")
            .current_dir(&work_p);
        let mut p = rexpect::session::spawn_command(cmd, Some(15_000)).unwrap();
        p.exp_string("you> ").unwrap();
        p.send_line("run something slow").unwrap();
        p.exp_string(" local_exec ").unwrap();
        std::thread::sleep(Duration::from_millis(500));
        let t0 = Instant::now();
        p.send_control('c').unwrap();
        p.exp_string("cancelling the turn").unwrap();
        p.exp_string("cancelled: local_exec").unwrap();
        p.exp_string("you> ").unwrap();
        let took = t0.elapsed();
        // Still alive: the next message gets an answer.
        p.send_line("are you there?").unwrap();
        p.exp_string("still here").unwrap();
        p.exp_string("you> ").unwrap();
        p.send_line("/history").unwrap();
        p.exp_string("you: are you there?").unwrap();
        p.send_line("/quit").unwrap();
        p.exp_eof().unwrap();
        took
    })
    .await
    .unwrap();
    assert!(took < Duration::from_secs(3), "cancel took {took:?}");
    // The cancelled call has exactly one result in the next request.
    let reqs = server.chat_requests();
    assert_eq!(reqs.len(), 2);
    let msgs = reqs[1].json()["messages"].as_array().unwrap().clone();
    let results: Vec<&serde_json::Value> = msgs.iter().filter(|m| m["role"] == "tool").collect();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["tool_call_id"], "slow");
    // And the slow command is gone, not orphaned.
    let ps = std::process::Command::new("pgrep")
        .args(["-f", "sleep 37"])
        .output()
        .unwrap();
    assert!(ps.stdout.is_empty(), "sleep 37 survived the cancel");
}
