//! The hub from the terminal, with real processes: `jarvis serve --json`
//! runs what `jarvis tasks run` queues from another process (woken at once,
//! not at its tick), prints the announcement as a JSON line, and on SIGTERM
//! stops and gives the lease up; without a hub, `tasks run` runs it itself.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use jarvis_testkit::{MockServer, Reply};

fn jarvis(home: &std::path::Path, work: &std::path::Path, base: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jarvis"));
    c.env("JARVIS_HOME", home)
        .env("JARVIS_BASE_URL", base)
        .env("JARVIS_MODEL", "test-model")
        .env_remove("JARVIS_AGENT_EXEC")
        .current_dir(work);
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_runs_what_another_process_queues_and_announces_it() {
    let server =
        MockServer::with_handler(|_, _| Reply::text("Inbox: 3 new messages.\n\nDetails follow."))
            .await
            .unwrap();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let base = server.base_url();
    let mut hub = jarvis(home.path(), work.path(), &base)
        .args(["serve", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let out = hub.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    // The hub holds the lease (its socket is up) before the task is queued.
    let sock = home.path().join("hub.sock");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !sock.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(sock.exists(), "the hub did not start");

    let started = Instant::now();
    let run = jarvis(home.path(), work.path(), &base)
        .args(["tasks", "run", "summarise my inbox folder", "--wait"])
        .output()
        .unwrap();
    let took = started.elapsed();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.starts_with("succeeded"), "{stdout}");
    assert!(stdout.contains("Inbox: 3 new messages."), "{stdout}");
    // Woken by the queue, not found at the 30 s tick.
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert!(
        !String::from_utf8_lossy(&run.stderr).contains("running it here"),
        "the hub ran it, not the CLI"
    );

    // The hub printed the announcement as a JSON line.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut announcement = None;
    while Instant::now() < deadline {
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            if v["type"] == "announcement" {
                announcement = Some(v);
                break;
            }
        }
    }
    let a = announcement.expect("an announcement line");
    assert_eq!(
        a["text"],
        "“summarise my inbox folder” is done: Inbox: 3 new messages."
    );
    assert!(a["task_id"].as_str().unwrap().len() > 8);

    // SIGTERM: a clean stop that gives the lease up.
    let killed = Command::new("kill")
        .args(["-TERM", &hub.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let code = hub.wait().unwrap();
    assert!(code.success(), "{code:?}");
    assert!(!sock.exists(), "the socket is removed on a clean stop");
    let list = jarvis(home.path(), work.path(), &base)
        .args(["tasks", "list", "--json"])
        .output()
        .unwrap();
    let tasks: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(tasks.as_array().unwrap().len(), 1);
    assert_eq!(tasks[0]["status"], "succeeded");
    assert_eq!(tasks[0]["origin"], "cli");
    assert!(tasks[0]["usage"]["total_tokens"].as_u64().unwrap() > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_hub_a_task_runs_in_the_process_that_started_it() {
    let server = MockServer::with_handler(|_, _| Reply::text("all done"))
        .await
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let run = jarvis(home.path(), work.path(), &server.base_url())
        .args(["tasks", "run", "say hi", "--json"])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The queued id, then the task as it ended.
    assert_eq!(lines[0]["status"], "queued");
    assert_eq!(lines[1]["status"], "succeeded");
    assert_eq!(lines[1]["summary"], "all done");
    let show = jarvis(home.path(), work.path(), &server.base_url())
        .args(["tasks", "show", &lines[0]["id"].as_str().unwrap()[..8]])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&show.stdout);
    assert!(text.contains("status   succeeded"), "{text}");
}

/// Starts `jarvis serve` and waits until it leads (its socket is up).
fn start_hub(home: &std::path::Path, work: &std::path::Path, base: &str) -> std::process::Child {
    let sock = home.join("hub.sock");
    let _ = std::fs::remove_file(&sock);
    let child = jarvis(home, work, base)
        .args(["serve"])
        .env("JARVIS_HUB_TICK_MS", "100")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !sock.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(sock.exists(), "the hub did not start");
    child
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hub_killed_mid_run_twenty_times_never_runs_a_slot_twice() {
    // Every task stalls in its model request: the hub is always mid-run
    // when it is killed.
    let server = MockServer::with_handler(|_, _| Reply::Stream {
        pieces: vec![jarvis_testkit::Piece::StallForever],
    })
    .await
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let base = server.base_url();
    let mut ids = Vec::new();
    for round in 0..20 {
        let at = jiff::Timestamp::now()
            .checked_add(jiff::SignedDuration::from_millis(700))
            .unwrap();
        let add = jarvis(home.path(), work.path(), &base)
            .args([
                "schedule",
                "add",
                &format!("job {round}"),
                "--at",
                &at.to_string(),
                "--json",
            ])
            .output()
            .unwrap();
        assert!(
            add.status.success(),
            "{}",
            String::from_utf8_lossy(&add.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&add.stdout).unwrap();
        ids.push(v["id"].as_str().unwrap().to_string());
        let mut hub = start_hub(home.path(), work.path(), &base);
        // Mid-run: the task's request has reached the model.
        let deadline = Instant::now() + Duration::from_secs(20);
        let asked = |n: usize| server.chat_requests().len() >= n;
        while !asked(round + 1) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(asked(round + 1), "round {round}: the slot did not run");
        hub.kill().unwrap();
        hub.wait().unwrap();
    }
    // One more start: every killed run is found lost, none is run again.
    let mut hub = start_hub(home.path(), work.path(), &base);
    std::thread::sleep(Duration::from_millis(800));
    hub.kill().unwrap();
    hub.wait().unwrap();
    assert_eq!(
        server.chat_requests().len(),
        20,
        "each slot ran exactly once"
    );
    let list = jarvis(home.path(), work.path(), &base)
        .args(["schedule", "list", "--json"])
        .output()
        .unwrap();
    let schedules: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    for s in schedules.as_array().unwrap() {
        let runs = s["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 1, "{s}");
        assert!(
            s["next_run"].is_null(),
            "a one-shot does not run again: {s}"
        );
    }
    let tasks = jarvis(home.path(), work.path(), &base)
        .args(["tasks", "list", "--json"])
        .output()
        .unwrap();
    let tasks: serde_json::Value = serde_json::from_slice(&tasks.stdout).unwrap();
    let tasks = tasks.as_array().unwrap();
    assert_eq!(tasks.len(), 20);
    assert!(
        tasks.iter().all(|t| t["status"] == "lost"),
        "killed mid-run: lost, never re-run"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jarvis_stop_cancels_the_task_the_hub_runs_and_resume_lifts_the_hold() {
    // The task's model call never ends: only a stop ends it.
    let server = MockServer::with_handler(|_, _| jarvis_testkit::Reply::Stream {
        pieces: vec![jarvis_testkit::Piece::StallForever],
    })
    .await
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let base = server.base_url();
    let mut hub = start_hub(home.path(), work.path(), &base);
    let queued = jarvis(home.path(), work.path(), &base)
        .args(["tasks", "run", "write the weekly report", "--json"])
        .output()
        .unwrap();
    assert!(
        queued.status.success(),
        "{}",
        String::from_utf8_lossy(&queued.stderr)
    );
    let task: serde_json::Value = serde_json::from_slice(&queued.stdout).unwrap();
    let id = task["id"].as_str().unwrap().to_string();
    let status = |id: &str| {
        let o = jarvis(home.path(), work.path(), &base)
            .args(["tasks", "show", id, "--json"])
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
        v["status"].as_str().unwrap_or_default().to_string()
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    while status(&id) != "running" && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(status(&id), "running");

    let asked = Instant::now();
    let stop = jarvis(home.path(), work.path(), &base)
        .arg("stop")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&stop.stderr).to_string();
    assert!(stop.status.success(), "{said}");
    assert!(said.contains("1 task(s) cancelled"), "{said}");
    assert!(said.contains("held until `jarvis resume`"), "{said}");
    while status(&id) != "cancelled" && Instant::now() < deadline + Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(status(&id), "cancelled");
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "the hub's task stopped in {:?}",
        asked.elapsed()
    );
    let resume = jarvis(home.path(), work.path(), &base)
        .arg("resume")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&resume.stderr).contains("resumed"));
    let again = jarvis(home.path(), work.path(), &base)
        .arg("resume")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&again.stderr).contains("nothing was held"));
    let _ = hub.kill();
    let _ = hub.wait();
}

/// `jarvis undo` from the terminal: the file a turn overwrote comes back
/// byte for byte, once; the agent's own commands cannot undo.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_puts_back_what_the_last_turn_wrote() {
    let args =
        serde_json::json!({"path": "plan.md", "content": "# the agent's plan\n"}).to_string();
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("w1", "local_write_file", args.as_str())]),
        Reply::text("Rewrote your plan."),
    ])
    .await
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let base = server.base_url();
    std::fs::write(work.path().join("plan.md"), "# my plan\n- ship it\n").unwrap();
    // Writes offered, as a user who turned them on in Settings.
    std::fs::write(
        home.path().join("config.json"),
        r#"{"version": 2, "tools": {"read": true, "write": true}}"#,
    )
    .unwrap();
    let ask = jarvis(home.path(), work.path(), &base)
        .args(["ask", "--yes", "rewrite my plan"])
        .output()
        .unwrap();
    assert!(
        ask.status.success(),
        "{}",
        String::from_utf8_lossy(&ask.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(work.path().join("plan.md")).unwrap(),
        "# the agent's plan\n"
    );

    let list = jarvis(home.path(), work.path(), &base)
        .args(["undo", "--list", "--json"])
        .output()
        .unwrap();
    let changes: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(changes.as_array().unwrap().len(), 1, "{changes}");
    assert_eq!(changes[0]["kind"], "modified");

    // The agent's own commands may not undo.
    let by_agent = jarvis(home.path(), work.path(), &base)
        .env("JARVIS_AGENT_EXEC", "1")
        .arg("undo")
        .output()
        .unwrap();
    assert!(!by_agent.status.success());
    assert!(String::from_utf8_lossy(&by_agent.stderr).contains("refused"));

    let undo = jarvis(home.path(), work.path(), &base)
        .arg("undo")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&undo.stderr);
    assert!(undo.status.success(), "{said}");
    assert!(said.contains("restored"), "{said}");
    assert_eq!(
        std::fs::read_to_string(work.path().join("plan.md")).unwrap(),
        "# my plan\n- ship it\n"
    );
    let again = jarvis(home.path(), work.path(), &base)
        .arg("undo")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&again.stderr).contains("nothing to undo"));
}

/// Undo across processes: a turn still running in another process (here a
/// `jarvis ask` whose model has not answered yet) is left alone, and two
/// undos at once restore the file once, the second finding nothing to do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_leaves_another_process_running_turn_alone_and_happens_once() {
    use jarvis_testkit::Piece;
    let args =
        serde_json::json!({"path": "plan.md", "content": "# the agent's plan\n"}).to_string();
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("w1", "local_write_file", args.as_str())]),
        // The model thinks for as long as the test needs.
        Reply::Stream {
            pieces: vec![Piece::StallForever],
        },
    ])
    .await
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let base = server.base_url();
    std::fs::write(work.path().join("plan.md"), "# my plan\n").unwrap();
    std::fs::write(
        home.path().join("config.json"),
        r#"{"version": 2, "tools": {"read": true, "write": true}}"#,
    )
    .unwrap();
    let mut ask = jarvis(home.path(), work.path(), &base)
        .args(["ask", "--yes", "rewrite my plan"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(work.path().join("plan.md")).unwrap() != "# the agent's plan\n" {
        assert!(Instant::now() < deadline, "the turn never wrote");
        std::thread::sleep(Duration::from_millis(50));
    }
    let undo = jarvis(home.path(), work.path(), &base)
        .arg("undo")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&undo.stderr).to_string();
    assert!(
        !undo.status.success(),
        "a running turn is not undone: {said}"
    );
    assert!(said.contains("already running a turn"), "{said}");
    assert_eq!(
        std::fs::read_to_string(work.path().join("plan.md")).unwrap(),
        "# the agent's plan\n"
    );

    // Killed, its turn is no longer running: undo works, once, even with
    // two asking at the same moment.
    let _ = ask.kill();
    let _ = ask.wait();
    let both: Vec<_> = (0..2)
        .map(|_| {
            jarvis(home.path(), work.path(), &base)
                .arg("undo")
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let said: Vec<String> = both
        .into_iter()
        .map(|c| String::from_utf8_lossy(&c.wait_with_output().unwrap().stderr).to_string())
        .collect();
    assert_eq!(
        said.iter().filter(|s| s.contains("restored")).count(),
        1,
        "{said:?}"
    );
    assert!(
        said.iter().any(|s| s.contains("nothing to undo")),
        "{said:?}"
    );
    assert_eq!(
        std::fs::read_to_string(work.path().join("plan.md")).unwrap(),
        "# my plan\n"
    );
    let beside: Vec<_> = std::fs::read_dir(work.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(beside.len(), 1, "no copy written beside it: {beside:?}");
}
