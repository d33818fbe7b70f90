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

/// A home whose config has these `llm` settings, and a working folder.
fn homes(llm: serde_json::Value) -> (tempfile::TempDir, tempfile::TempDir) {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let config = serde_json::json!({"llm": llm, "workdir": work.path()});
    std::fs::write(home.path().join("config.json"), config.to_string()).unwrap();
    (home, work)
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
    let (home, work) = homes(serde_json::json!({
        "provider": "embedded", "local_model": model, "local_ctx": 8192,
        "local_idle_min": 1, "temperature": 0.0, "max_retries": 0}));
    let _cleanup = Cleanup(home.path().to_path_buf());

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_built_in_model_is_offered_then_downloaded_then_answers() {
    let Some(model) = jarvis_testkit::test_gguf() else {
        return;
    };
    let (home, work) = homes(serde_json::json!({
        "provider": "embedded", "local_ctx": 4096, "local_idle_min": 1,
        "temperature": 0.0, "max_retries": 0}));
    let _cleanup = Cleanup(home.path().to_path_buf());
    let (h, w) = (home.path().to_path_buf(), work.path().to_path_buf());
    let run = move |args: Vec<String>| {
        let (h, w) = (h.clone(), w.clone());
        tokio::task::spawn_blocking(move || jarvis(&h, &w).args(&args).output().unwrap())
    };
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();

    // No model yet: the turn says which one to fetch and how big it is,
    // at once, and doctor gives the same fix.
    let started = Instant::now();
    let out = run(args(&["ask", "hello"])).await.unwrap();
    assert!(!out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("qwen2.5-1.5b is not downloaded yet"),
        "{said}"
    );
    assert!(
        said.contains("jarvis models install qwen2.5-1.5b"),
        "{said}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "it did not wait for anything"
    );
    let doc = run(args(&["doctor", "--json"])).await.unwrap();
    let checks: serde_json::Value = serde_json::from_slice(&doc.stdout).unwrap();
    let engine_model = checks
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "engine model")
        .unwrap_or_else(|| panic!("{checks}"));
    assert_eq!(engine_model["ok"], false, "{engine_model}");
    assert_eq!(engine_model["fix"], "jarvis models install qwen2.5-1.5b");

    // A mirror on loopback serving the SmolLM2 file under the light
    // model's name: the catalog pins Qwen's digest, so the wrong bytes are
    // refused and nothing is left behind to be used or resumed.
    let mirror = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(mirror.path().join("llm")).unwrap();
    std::os::unix::fs::symlink(&model, mirror.path().join("llm/Qwen3-0.6B-Q8_0.gguf")).unwrap();
    std::os::unix::fs::symlink(&model, mirror.path().join("llm/smol.gguf")).unwrap();
    let server = jarvis_testkit::FileServer::start(mirror.path().to_path_buf(), None)
        .await
        .unwrap();
    let out = run(args(&[
        "models",
        "install",
        "qwen3-0.6b",
        "--mirror",
        &server.base_url(),
    ]))
    .await
    .unwrap();
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains(
            "checksum mismatch for llm/Qwen3-0.6B-Q8_0.gguf: expected sha256 9465e63a22add5354d9bb4b99e90117043c7124007664907259bd16d043bb031"
        ),
        "{}",
        text(&out)
    );
    let llm_dir = home.path().join("models/llm");
    let left: Vec<_> = std::fs::read_dir(&llm_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".lock"))
        .collect();
    assert!(
        left.is_empty(),
        "nothing of the bad download is kept: {left:?}"
    );

    // A model of the user's own, pinned by its digest, from the mirror.
    let sha = jarvis_core::digest::sha256_file(&model).unwrap();
    let size = std::fs::metadata(&model).unwrap().len().to_string();
    let url = format!("{}/llm/smol.gguf", server.base_url());
    let add = |sha: &str| {
        args(&[
            "models",
            "add",
            "smollm2-135m",
            "--url",
            &url,
            "--sha256",
            sha,
            "--bytes",
            &size,
            "--license",
            "Apache-2.0",
            "--what",
            "SmolLM2 135M Instruct, Q4_1",
        ])
    };
    let out = run(add("00")).await.unwrap();
    assert!(
        !out.status.success(),
        "a digest is 64 hex digits: {}",
        text(&out)
    );
    assert!(text(&out).contains("64 hex digits"), "{}", text(&out));
    let out = run(add(&sha)).await.unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let out = run(args(&["models", "install", "smollm2-135m"]))
        .await
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("jarvis config set llm.provider embedded && jarvis config set llm.local_model smollm2-135m"),
        "{}",
        text(&out)
    );
    let list = run(args(&["models", "list", "--json"])).await.unwrap();
    let list: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let row = list
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "smollm2-135m")
        .unwrap();
    assert_eq!(row["installed"], true, "{row}");
    assert_eq!(row["kind"], "language");
    assert_eq!(row["license"], "Apache-2.0");
    assert_eq!(row["user"], true);
    let verify = run(args(&["models", "verify", "smollm2-135m"]))
        .await
        .unwrap();
    assert!(verify.status.success(), "{}", text(&verify));

    let set = run(args(&["config", "set", "llm.local_model", "smollm2-135m"]))
        .await
        .unwrap();
    assert!(set.status.success(), "{}", text(&set));
    let out = run(args(&["ask", "Say hello to Ana in one short sentence."]))
        .await
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(!String::from_utf8_lossy(&out.stdout).trim().is_empty());
    let doc = run(args(&["doctor", "--json"])).await.unwrap();
    let checks: serde_json::Value = serde_json::from_slice(&doc.stdout).unwrap();
    for name in ["engine model", "engine"] {
        let c = checks
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["check"] == name)
            .unwrap_or_else(|| panic!("{checks}"));
        assert_eq!(c["ok"], true, "{c}");
    }
    assert!(
        !checks
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["check"] == "endpoint"),
        "no server is asked for: {checks}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_first_run_offers_the_built_in_model_downloads_it_and_answers() {
    let Some(model) = jarvis_testkit::test_gguf() else {
        return;
    };
    let user = tempfile::tempdir().unwrap();
    let home = user.path().join(".jarvis");
    let _cleanup = Cleanup(home.clone());
    let mirror = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(mirror.path().join("llm")).unwrap();
    std::os::unix::fs::symlink(&model, mirror.path().join("llm/smol.gguf")).unwrap();
    let server = jarvis_testkit::FileServer::start(mirror.path().to_path_buf(), None)
        .await
        .unwrap();
    // This machine's own default chat model, in the user's catalog (as an
    // organisation would provision it): the first run offers it.
    let sha = jarvis_core::digest::sha256_file(&model).unwrap();
    let size = std::fs::metadata(&model).unwrap().len().to_string();
    let add = jarvis(&home, user.path())
        .env("HOME", user.path())
        .args([
            "models",
            "add",
            "smollm2-135m",
            "--url",
            &format!("{}/llm/smol.gguf", server.base_url()),
            "--sha256",
            &sha,
            "--bytes",
            &size,
            "--license",
            "Apache-2.0",
            "--default",
        ])
        .output()
        .unwrap();
    assert!(add.status.success(), "{}", text(&add));
    assert!(
        !home.join("config.json").exists(),
        "adding a model saves no settings: the first run is still to come"
    );
    let (h, u, m) = (home.clone(), user.path().to_path_buf(), server.base_url());
    let out = tokio::task::spawn_blocking(move || {
        use std::io::Write;
        let mut child = jarvis(&h, &u)
            .env("HOME", &u)
            .env("JARVIS_MODELS_MIRROR", m)
            // Nothing answers here: the built-in model is the default.
            .env("JARVIS_BASE_URL", "http://127.0.0.1:9/v1")
            .arg("chat")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The folder (the offered ~/Jarvis), the engine (the default), a
        // message, then leave.
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"\n\nSay hello to Ana in one short sentence.\n/quit\n")
            .unwrap();
        child.wait_with_output().unwrap()
    })
    .await
    .unwrap();
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("Where should answers come from?"), "{said}");
    assert!(
        said.contains("1) a model on this computer: smollm2-135m (added by you)"),
        "{said}"
    );
    let mb = format!(
        "{} download, once; licence Apache-2.0",
        jarvis_core::models::human_size(size.parse().unwrap())
    );
    assert!(said.contains(&mb), "{said}");
    assert!(said.contains("does not answer now"), "{said}");
    assert!(
        said.contains("Answers come from smollm2-135m on this computer"),
        "{said}"
    );
    assert!(
        home.join("models/llm/smol.gguf").is_file(),
        "downloaded into the models folder"
    );
    let cfg: serde_json::Value =
        serde_json::from_slice(&std::fs::read(home.join("config.json")).unwrap()).unwrap();
    assert_eq!(cfg["llm"]["provider"], "embedded", "{cfg}");
    assert_eq!(cfg["llm"]["local_model"], "smollm2-135m", "{cfg}");
    // The message was answered by the engine: its worker runs for this home.
    assert!(home.join("llm/worker.json").is_file(), "{said}");
    assert!(
        !String::from_utf8_lossy(&out.stdout).trim().is_empty(),
        "an answer was printed: {said}"
    );
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("error:"),
        "the turn answered without an error: {said}"
    );
}

/// `@tool` at the start of a message holds the first request to that tool
/// (a named `tool_choice`, which the engine's grammar enforces, so even the
/// 135M test model calls it): the call goes through the gate, its result
/// goes back to the model, and an answer follows in the next round.
#[test]
fn a_mentioned_tool_is_called_through_the_gate_and_its_result_answered() {
    let Some(model) = jarvis_testkit::test_gguf() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("launch-notes.txt"), "ship on Friday\n").unwrap();
    // Read on, the rest off, as a user who turned on file access only.
    let config = serde_json::json!({
        "version": 2,
        "llm": {"provider": "embedded", "local_model": model, "local_ctx": 4096,
                "local_idle_min": 1, "temperature": 0.0, "max_retries": 0},
        "tools": {"read": true},
        "workdir": work.path(),
    });
    std::fs::write(home.path().join("config.json"), config.to_string()).unwrap();
    let _cleanup = Cleanup(home.path().to_path_buf());

    let out = jarvis(home.path(), work.path())
        .args([
            "ask",
            "--json",
            "@local_list_dir Which files are in my folder?",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let events: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    let started = events
        .iter()
        .position(|e| e["type"] == "tool_call_started")
        .unwrap_or_else(|| panic!("no call: {kinds:?}\n{}", text(&out)));
    assert_eq!(
        events[started]["name"], "local_list_dir",
        "{}",
        events[started]
    );
    let finished = events
        .iter()
        .position(|e| e["type"] == "tool_call_finished" && e["name"] == "local_list_dir")
        .unwrap_or_else(|| panic!("the call never finished: {kinds:?}"));
    assert!(finished > started);
    // The gate decided it: read inside the folder runs, anything else is
    // refused with the reason, and either way the model is told.
    let status = events[finished]["status"].as_str().unwrap_or_default();
    assert!(
        matches!(status, "ok" | "refused" | "error"),
        "{}",
        events[finished]
    );
    let answered = events[finished..].iter().any(|e| {
        e["type"] == "content_delta" && !e["text"].as_str().unwrap_or("").trim().is_empty()
    });
    assert!(answered, "an answer followed the result: {kinds:?}");
    let end = events
        .iter()
        .rfind(|e| e["type"] == "turn_finished")
        .unwrap_or_else(|| panic!("{kinds:?}"));
    assert_eq!(end["stop"], "completed", "{end}");
    assert_eq!(
        end["rounds"], 2,
        "one round for the call, one for the answer: {end}"
    );

    // The audit has the call's row, as for any call the agent makes.
    let audit = jarvis(home.path(), work.path())
        .args(["audit", "--json", "--tool", "local_list_dir"])
        .output()
        .unwrap();
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&audit.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert!(
        rows.iter().any(|r| r["tool"] == "local_list_dir"),
        "{}",
        text(&audit)
    );

    // A tool that is off is not reached by naming it: said, and the model
    // answers without it.
    let out = jarvis(home.path(), work.path())
        .args(["ask", "@local_exec ls"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("no tool named local_exec is offered now"),
        "{}",
        text(&out)
    );
}
