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
