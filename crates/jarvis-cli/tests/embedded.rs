//! `jarvis ask` with no server at all: `llm.provider = "embedded"` starts
//! the `jarvis-llm` worker with a real model (SmolLM2-135M, the GGUF
//! `.ci/run` fetches), shares it between runs, and starts it again after
//! it was killed — between turns with a notice, mid-answer with a clear
//! error and a working next turn.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn jarvis(home: &Path, work: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jarvis"));
    c.env("JARVIS_HOME", home)
        .env_remove("JARVIS_API_KEY")
        .env_remove("JARVIS_BASE_URL")
        .env_remove("JARVIS_MODEL")
        .current_dir(work);
    c
}

fn ask(home: &Path, work: &Path, prompt: &str) -> Output {
    jarvis(home, work).args(["ask", prompt]).output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn worker_pid(home: &Path) -> i32 {
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(home.join("llm/worker.json")).unwrap()).unwrap();
    v["pid"].as_i64().unwrap() as i32
}

fn kill(pid: i32) {
    let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    let deadline = Instant::now() + Duration::from_secs(5);
    while Path::new(&format!("/proc/{pid}")).exists() && Instant::now() < deadline {
        // A zombie until its starter reaps it; gone for our purposes once
        // it no longer listens.
        if std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.contains(") Z")) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Stops whatever worker the home has at the end, passed or not.
struct Cleanup(PathBuf);

impl Drop for Cleanup {
    fn drop(&mut self) {
        if self.0.join("llm/worker.json").exists() {
            kill(worker_pid(&self.0));
        }
    }
}

#[test]
fn ask_answers_through_the_embedded_engine_and_survives_its_death() {
    let Some(model) = jarvis_testkit::test_gguf() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let _cleanup = Cleanup(home.path().to_path_buf());
    let work = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.json"),
        serde_json::json!({
            "llm": {"provider": "embedded", "local_model": model, "local_ctx": 8192,
                    "local_idle_min": 1, "temperature": 0.0, "max_retries": 0},
            "workdir": work.path(),
        })
        .to_string(),
    )
    .unwrap();

    let first = ask(
        home.path(),
        work.path(),
        "Say hello to Ana in one short sentence.",
    );
    assert!(first.status.success(), "{}", text(&first));
    assert!(
        !String::from_utf8_lossy(&first.stdout).trim().is_empty(),
        "{}",
        text(&first)
    );
    let pid = worker_pid(home.path());

    // The next run finds the same worker.
    let second = ask(home.path(), work.path(), "Name a colour.");
    assert!(second.status.success(), "{}", text(&second));
    assert_eq!(
        worker_pid(home.path()),
        pid,
        "one worker per JARVIS_HOME, shared"
    );

    // Killed between turns: the next turn starts it again and says so.
    kill(pid);
    let third = ask(home.path(), work.path(), "Name a fruit.");
    assert!(third.status.success(), "{}", text(&third));
    assert!(
        text(&third).contains("had stopped; it has been started again"),
        "{}",
        text(&third)
    );
    let pid = worker_pid(home.path());

    // Killed mid-answer: a clear error, then a working turn.
    let long = jarvis(home.path(), work.path())
        .args([
            "ask",
            "Write a very long story about a lighthouse keeper and the sea.",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    kill(pid);
    let out = long.wait_with_output().unwrap();
    assert!(
        !out.status.success(),
        "a killed engine is not an answer: {}",
        text(&out)
    );
    let said = text(&out);
    assert!(
        said.contains("the embedded engine stopped during the answer"),
        "the error says what failed: {said}"
    );
    let after = ask(home.path(), work.path(), "Say yes.");
    assert!(after.status.success(), "{}", text(&after));
}
