//! The seed's scenarios through the `jarvis` binary against a third-party
//! OpenAI-compatible server: `@copilotkit/aimock` (npm), started for real.
//! `.ci/run` installs it; `JARVIS_AIMOCK` points at its `llmock` binary.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const DEFAULT_LLMOCK: &str = "/var/cache/jarvis-ci/aimock/node_modules/.bin/llmock";

struct Aimock {
    child: Child,
    port: u16,
}

impl Drop for Aimock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn llmock() -> PathBuf {
    let p = std::env::var_os("JARVIS_AIMOCK")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_LLMOCK));
    assert!(
        p.exists(),
        "aimock's llmock is not at {} — run .ci/run (it installs @copilotkit/aimock) or set JARVIS_AIMOCK",
        p.display()
    );
    p
}

fn start() -> Aimock {
    let fixtures =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/aimock-seed-scenarios.json");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(llmock())
        .args(["-p", &port.to_string(), "-h", "127.0.0.1", "-f"])
        .arg(&fixtures)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = Aimock { child, port };
    let t0 = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "aimock did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    server
}

impl Aimock {
    /// Every request aimock recorded (`GET /__aimock/journal`).
    fn journal(&self) -> Vec<Value> {
        use std::io::{Read, Write};
        let mut sock = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(
            sock,
            "GET /__aimock/journal HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut raw = String::new();
        sock.read_to_string(&mut raw).unwrap();
        let (head, body) = raw.split_once("\r\n\r\n").unwrap();
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_string()
        };
        let v: Value = serde_json::from_str(&body).unwrap();
        v.as_array()
            .cloned()
            .or_else(|| v["entries"].as_array().cloned())
            .unwrap_or_default()
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

struct Run {
    home: tempfile::TempDir,
    work: tempfile::TempDir,
}

impl Run {
    fn new() -> Self {
        let home = tempfile::tempdir().unwrap();
        // The four toggles on, as a user who turned them on in Settings.
        std::fs::write(
            home.path().join("config.json"),
            r#"{"version": 2, "tools": {"read": true, "write": true, "exec": true, "network": true}}"#,
        )
        .unwrap();
        Run {
            home,
            work: tempfile::tempdir().unwrap(),
        }
    }
    fn ask(&self, server: &Aimock, prompt: &str, extra: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_jarvis"))
            .arg("ask")
            .arg(prompt)
            .args(extra)
            .env("JARVIS_HOME", self.home.path())
            .env(
                "JARVIS_BASE_URL",
                format!("http://127.0.0.1:{}/v1", server.port),
            )
            .env("JARVIS_MODEL", "gpt-4o")
            .env_remove("JARVIS_AGENT_EXEC")
            .current_dir(self.work.path())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

#[test]
fn seed_scenarios_against_aimock() {
    let server = start();

    // 1. Read a config file and summarise it.
    let r = Run::new();
    std::fs::write(
        r.work.path().join("app-config.json"),
        r#"{"think_interval": 60, "model": "claude-sonnet-4"}"#,
    )
    .unwrap();
    let out = r.ask(
        &server,
        "please read app-config.json and tell me what it configures",
        &["--yes"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("every 60 seconds"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stderr).contains("✓ local_read_file"));

    // 2. List a directory, then read a file's first ten lines.
    let r = Run::new();
    let tools = r.work.path().join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    let lines: Vec<String> = (1..=25).map(|i| format!("line {i} of base.py")).collect();
    std::fs::write(tools.join("base.py"), lines.join("\n")).unwrap();
    std::fs::write(tools.join("registry.py"), "").unwrap();
    std::fs::write(tools.join("__init__.py"), "").unwrap();
    let out = r.ask(
        &server,
        "list the tools folder, then the first 10 lines of base.py",
        &["--yes"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("tools/ holds"),
        "{}",
        text(&out.stdout)
    );
    let err = text(&out.stderr);
    assert!(
        err.find("✓ local_list_dir").unwrap() < err.find("✓ local_read_file").unwrap(),
        "{err}"
    );

    // 3. Write a file, then read it back: check the disk.
    let r = Run::new();
    let out = r.ask(&server, "write a file and read it back", &["--yes"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(r.work.path().join("out/test.txt")).unwrap(),
        "Phase 3 测试成功！"
    );
    assert!(text(&out.stdout).contains("content matches"));

    // 4. A dangerous command is refused, even with --yes.
    let r = Run::new();
    let out = r.ask(
        &server,
        "run sudo rm -rf /home/test for me",
        &["--yes", "--json"],
    );
    assert_eq!(out.status.code(), Some(0));
    let events: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let fin = events
        .iter()
        .find(|e| e["type"] == "tool_call_finished")
        .unwrap();
    assert_eq!(fin["status"], "refused");
    assert!(
        fin["summary"]
            .as_str()
            .unwrap()
            .contains("privilege escalation")
    );
    assert!(
        !events.iter().any(|e| e["type"] == "approval_requested"),
        "a block is never asked"
    );

    // What the server received: tool results answered every call, marked untrusted.
    let journal = server.journal();
    let chats: Vec<&Value> = journal
        .iter()
        .filter(|e| {
            e["path"]
                .as_str()
                .unwrap_or("")
                .contains("chat/completions")
        })
        .collect();
    assert_eq!(
        chats.len(),
        2 + 3 + 3 + 2,
        "requests aimock received: {}",
        journal.len()
    );
    for c in &chats {
        let body = &c["body"];
        assert_eq!(body["stream"], true, "{c}");
        let msgs = body["messages"].as_array().unwrap();
        let calls: Vec<String> = msgs
            .iter()
            .flat_map(|m| m["tool_calls"].as_array().cloned().unwrap_or_default())
            .map(|t| t["id"].as_str().unwrap_or("").to_string())
            .collect();
        let results: Vec<String> = msgs
            .iter()
            .filter(|m| m["role"] == "tool")
            .map(|m| m["tool_call_id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(calls, results, "every call has exactly one result");
        for m in msgs.iter().filter(|m| m["role"] == "tool") {
            assert!(
                m["content"]
                    .as_str()
                    .unwrap()
                    .starts_with("<tool_output trust=\"untrusted\">")
            );
        }
    }
}
