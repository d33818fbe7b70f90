//! The hands, each through the one gate (`Brain::run_tool`), against real
//! files, processes and a loopback HTTP server.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use jarvis_core::policy::{AllowOnceApprover, ScriptedApprover};
use jarvis_core::tools::{Capability, Tool, ToolContext, ToolError, ToolOutput, ToolRegistry};
use jarvis_protocol::{ApprovalDecision, ToolStatus};
use jarvis_testkit::{MockServer, Reply};
use serde_json::{Value, json};

fn setup(toggles: &[(&str, &str)]) -> Env {
    env(Setup {
        config: toggles,
        ..Setup::new("http://127.0.0.1:9/v1".into(), Arc::new(AllowOnceApprover))
    })
}

async fn run(e: &Env, tool: &str, args: Value) -> (ToolStatus, String) {
    let out = e.brain.run_tool(tool, &args.to_string()).await;
    (out.status, out.content)
}

#[tokio::test]
async fn read_file_ranges_encodings_caps_and_clear_errors() {
    let e = setup(&[("tools.read", "true")]);
    let wd = e.wd();
    let lines: Vec<String> = (1..=20).map(|i| format!("line{i}")).collect();
    std::fs::write(wd.join("a.txt"), lines.join("\n")).unwrap();
    let (s, c) = run(
        &e,
        "local_read_file",
        json!({"path": "a.txt", "start_line": 2, "end_line": 3}),
    )
    .await;
    assert_eq!((s, c.as_str()), (ToolStatus::Ok, "line2\nline3"));
    let (_, c) = run(
        &e,
        "local_read_file",
        json!({"path": "a.txt", "start_line": "19"}),
    )
    .await;
    assert_eq!(c, "line19\nline20");
    // Latin-1 when the bytes are not UTF-8.
    std::fs::write(wd.join("latin.txt"), b"caf\xe9 cr\xe8me").unwrap();
    let (s, c) = run(&e, "local_read_file", json!({"path": "latin.txt"})).await;
    assert_eq!((s, c.as_str()), (ToolStatus::Ok, "café crème"));
    // The 100,000-character cap, with a note.
    std::fs::write(wd.join("big.txt"), "é".repeat(150_000)).unwrap();
    let (_, c) = run(&e, "local_read_file", json!({"path": "big.txt"})).await;
    assert_eq!(c.chars().filter(|&ch| ch == 'é').count(), 100_000);
    assert!(
        c.contains("50000 more characters not shown"),
        "{}",
        &c[c.len() - 120..]
    );
    // Clear errors.
    let (s, c) = run(&e, "local_read_file", json!({"path": "missing.txt"})).await;
    assert_eq!(s, ToolStatus::Error);
    assert!(c.contains("missing.txt: no such file"), "{c}");
    std::fs::write(wd.join("bin.dat"), [0u8, 1, 2, 0, 255]).unwrap();
    let (_, c) = run(&e, "local_read_file", json!({"path": "bin.dat"})).await;
    assert!(c.contains("binary file"), "{c}");
    std::fs::create_dir(wd.join("dir")).unwrap();
    let (_, c) = run(&e, "local_read_file", json!({"path": "dir"})).await;
    assert!(
        c.contains("is a directory") && c.contains("local_list_dir"),
        "{c}"
    );
    let (_, c) = run(
        &e,
        "local_read_file",
        json!({"path": "a.txt", "start_line": 5, "end_line": 2}),
    )
    .await;
    assert!(c.contains("before start_line"), "{c}");
    let (_, c) = run(&e, "local_read_file", json!({})).await;
    assert!(c.contains("`path` (string) is required"), "{c}");
}

#[tokio::test]
async fn the_sandbox_refuses_escapes_and_jarvis_state() {
    let e = setup(&[("tools.read", "true"), ("tools.write", "true")]);
    let wd = e.wd();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "s3cret").unwrap();
    std::os::unix::fs::symlink(outside.path(), wd.join("link")).unwrap();
    std::os::unix::fs::symlink(e.home.path(), wd.join("home-link")).unwrap();
    for (tool, args) in [
        ("local_read_file", json!({"path": "../x"})),
        ("local_read_file", json!({"path": "/etc/passwd"})),
        ("local_read_file", json!({"path": "link/secret.txt"})),
        ("local_read_file", json!({"path": "home-link/config.json"})),
        (
            "local_write_file",
            json!({"path": "link/new.txt", "content": "x"}),
        ),
        (
            "local_write_file",
            json!({"path": "home-link/config.json", "content": "{}"}),
        ),
        ("local_list_dir", json!({"path": "link"})),
    ] {
        let (s, c) = run(&e, tool, args.clone()).await;
        assert_eq!(s, ToolStatus::Refused, "{tool} {args}: {c}");
        assert!(!c.contains("s3cret"));
    }
    assert!(!outside.path().join("new.txt").exists());
    let (s, c) = run(&e, "local_read_file", json!({"path": "~/.bashrc"})).await;
    assert_eq!(s, ToolStatus::Error, "{c}");
    let audit = e.brain.audit(20, None).unwrap();
    assert!(audit.iter().filter(|a| a.verdict == "block").count() >= 7);
    assert!(
        audit
            .iter()
            .any(|a| a.reason.contains("Jarvis's own state")),
        "{audit:?}"
    );
}

#[tokio::test]
async fn write_file_modes_parents_and_atomic_replace() {
    let e = setup(&[("tools.read", "true"), ("tools.write", "true")]);
    let wd = e.wd();
    let (s, _) = run(
        &e,
        "local_write_file",
        json!({"path": "deep/er/f.txt", "content": "one", "mode": "create"}),
    )
    .await;
    assert_eq!(s, ToolStatus::Ok);
    let (s, c) = run(
        &e,
        "local_write_file",
        json!({"path": "deep/er/f.txt", "content": "two", "mode": "create"}),
    )
    .await;
    assert_eq!(s, ToolStatus::Error);
    assert!(c.contains("already exists"), "{c}");
    run(
        &e,
        "local_write_file",
        json!({"path": "deep/er/f.txt", "content": "+more", "mode": "append"}),
    )
    .await;
    assert_eq!(
        std::fs::read_to_string(wd.join("deep/er/f.txt")).unwrap(),
        "one+more"
    );
    // Overwrite replaces the inode (temp + rename): a reader holding the old file sees the old content.
    let held = std::fs::File::open(wd.join("deep/er/f.txt")).unwrap();
    run(
        &e,
        "local_write_file",
        json!({"path": "deep/er/f.txt", "content": "new"}),
    )
    .await;
    let mut old = String::new();
    std::io::Read::read_to_string(&mut &held, &mut old).unwrap();
    assert_eq!(old, "one+more");
    assert_eq!(
        std::fs::read_to_string(wd.join("deep/er/f.txt")).unwrap(),
        "new"
    );
    let leftovers: Vec<_> = std::fs::read_dir(wd.join("deep/er")).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temp files left behind");
    let (_, c) = run(
        &e,
        "local_write_file",
        json!({"path": "x", "content": "y", "mode": "truncate"}),
    )
    .await;
    assert!(c.contains("not one of create, overwrite, append"), "{c}");
    let (s, _) = run(
        &e,
        "local_write_file",
        json!({"path": "/usr/lib/jarvis-test", "content": "x"}),
    )
    .await;
    assert_eq!(s, ToolStatus::Refused);
}

#[tokio::test]
async fn exec_reports_exit_codes_caps_output_and_kills_the_whole_group_on_timeout() {
    let e = setup(&[("tools.exec", "true")]);
    let (s, c) = run(
        &e,
        "local_exec",
        json!({"command": "echo out; echo err >&2; exit 3"}),
    )
    .await;
    assert_eq!(s, ToolStatus::Ok);
    assert!(
        c.starts_with("exit code: 3") && c.contains("out\n") && c.contains("err\n"),
        "{c}"
    );
    let (_, c) = run(
        &e,
        "local_exec",
        json!({"command": "head -c 200000 /dev/zero | tr '\\0' a"}),
    )
    .await;
    assert!(
        c.contains("stdout cut: 65536 of 200000 bytes shown"),
        "{}",
        &c[c.len().saturating_sub(200)..]
    );
    // Runs in the working directory, with injection variables stripped.
    let (_, c) = run(
        &e,
        "local_exec",
        json!({"command": "pwd; echo \"preload=[$LD_PRELOAD]\""}),
    )
    .await;
    assert!(
        c.contains(&e.wd().display().to_string()) && c.contains("preload=[]"),
        "{c}"
    );
    // A timeout kills the shell and what it started in the background.
    let marker = e.wd().join("survivor");
    let cmd = format!("(sleep 3; touch {}) & sleep 30", marker.display());
    let t0 = Instant::now();
    let (s, c) = run(&e, "local_exec", json!({"command": cmd, "timeout_sec": 1})).await;
    let took = t0.elapsed();
    assert_eq!(s, ToolStatus::Error);
    assert!(c.contains("timed out after 1 s"), "{c}");
    assert!(took < Duration::from_millis(2500), "{took:?}");
    tokio::time::sleep(Duration::from_millis(3000)).await;
    assert!(!marker.exists(), "a background child outlived the timeout");
}

#[tokio::test]
async fn http_request_methods_headers_and_limits() {
    let server = MockServer::with_handler(|req, _| {
        Reply::json(json!({"method": req.method, "path": req.path,
            "x": req.header("x-test"), "body": String::from_utf8_lossy(&req.body)}))
    })
    .await
    .unwrap();
    let url = server.base_url().replace("/v1", "/echo");
    let approver = Arc::new(ScriptedApprover::new([
        ApprovalDecision::AllowOnce,
        ApprovalDecision::AllowOnce,
    ]));
    let e = env(Setup::new("http://127.0.0.1:9/v1".into(), approver.clone()));
    let (s, c) = run(
        &e,
        "http_request",
        json!({"url": url, "method": "POST", "headers": {"X-Test": "1"}, "body": "hello"}),
    )
    .await;
    assert_eq!(s, ToolStatus::Ok, "{c}");
    assert!(
        c.starts_with("HTTP 200")
            && c.contains(r#""method":"POST""#)
            && c.contains(r#""body":"hello""#)
            && c.contains(r#""x":"1""#),
        "{c}"
    );
    assert_eq!(approver.asked().len(), 1, "loopback asks");
    let (s, c) = run(&e, "http_request", json!({"url": "file:///etc/passwd"})).await;
    assert_eq!(s, ToolStatus::Refused, "a file: URL is a policy refusal");
    assert!(c.contains("only http and https"), "{c}");
    let (s, _) = run(
        &e,
        "http_request",
        json!({"url": "http://169.254.169.254/latest/meta-data/"}),
    )
    .await;
    assert_eq!(s, ToolStatus::Refused);
    let (_, c) = run(&e, "http_request", json!({"url": url, "method": "PATCH"})).await;
    assert!(c.contains("not one of"), "{c}");
    let (_, c) = run(
        &e,
        "http_request",
        json!({"url": "http://user:pw@example.com/"}),
    )
    .await;
    assert!(c.contains("credentials (user:pass@) in the URL"), "{c}");
    // The audit never holds the header secret.
    run(
        &e,
        "http_request",
        json!({"url": url, "headers": {"Authorization": "Bearer topsecret123"}}),
    )
    .await;
    let audit = e.brain.audit(10, None).unwrap();
    assert!(audit.iter().all(|a| !a.arguments.contains("topsecret123")));
}

/// A tool whose own argument is called `name`: the registry's dispatch
/// parameter is `tool_name`, so they cannot collide (the seed's bug).
struct Greeter;

#[async_trait::async_trait]
impl Tool for Greeter {
    fn name(&self) -> &str {
        "greet"
    }
    fn description(&self) -> &str {
        "greets"
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
    }
    fn capabilities(&self, _: &Value, _: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        Ok(vec![Capability::Ui])
    }
    fn timeout(&self, _: &Value) -> Duration {
        Duration::from_millis(300)
    }
    async fn execute(&self, _: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let n = args["name"].as_str().unwrap_or("?").to_string();
        if n == "slow" {
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
        Ok(ToolOutput {
            content: format!("hello {n}"),
            summary: "greeted".into(),
        })
    }
}

#[tokio::test]
async fn an_argument_called_name_and_a_tools_own_timeout_after_approval() {
    let mut reg = ToolRegistry::with_builtins();
    reg.register(Arc::new(Greeter));
    let tools = reg.openai_tools();
    assert!(
        tools
            .iter()
            .all(|t| t["type"] == "function" && t["function"]["parameters"]["type"] == "object")
    );
    let approver = Arc::new(ScriptedApprover::delayed([
        (Duration::from_millis(1000), ApprovalDecision::AllowOnce),
        (Duration::from_millis(10), ApprovalDecision::AllowOnce),
    ]));
    let e = env(Setup {
        registry: Some(reg),
        ..Setup::new("http://127.0.0.1:9/v1".into(), approver)
    });
    let (s, c) = run(&e, "greet", json!({"name": "Ada"})).await;
    assert_eq!((s, c.as_str()), (ToolStatus::Ok, "hello Ada"));
    let (s, c) = run(&e, "greet", json!({"name": "slow"})).await;
    assert_eq!(s, ToolStatus::Error);
    assert!(c.contains("timed out"), "{c}");
    // The approver takes 1 s to answer; the command's 1 s limit starts after that.
    let t0 = Instant::now();
    let (s, c) = run(
        &e,
        "local_exec",
        json!({"command": "sleep 0.5; touch ok", "timeout_sec": 1}),
    )
    .await;
    assert_eq!(s, ToolStatus::Ok, "{c}");
    assert!(
        t0.elapsed() >= Duration::from_millis(1400),
        "approval then the command: {:?}",
        t0.elapsed()
    );
}

#[tokio::test]
async fn approvals_show_what_a_write_does_and_overwrites_can_be_undone() {
    let approver = Arc::new(ScriptedApprover::new([
        ApprovalDecision::AllowOnce,
        ApprovalDecision::AllowOnce,
        ApprovalDecision::AllowOnce,
    ]));
    let e = env(Setup::new("http://127.0.0.1:9/v1".into(), approver.clone()));
    std::fs::write(e.wd().join("notes.txt"), "alpha\nbeta\ngamma\n").unwrap();
    let (s, c) = run(
        &e,
        "local_write_file",
        json!({"path": "notes.txt", "content": "alpha\nBETA\ngamma\n"}),
    )
    .await;
    assert_eq!(s, ToolStatus::Ok, "{c}");
    let req = approver.asked()[0].clone();
    let details = req.details.expect("a write says what it will do");
    assert!(
        details.starts_with("overwrite notes.txt (17 → 17 bytes)"),
        "{details}"
    );
    assert!(
        details.contains("-beta") && details.contains("+BETA"),
        "{details}"
    );
    // The previous version is kept for undo, with its exact content.
    let kept = c
        .split("previous version is kept in ")
        .nth(1)
        .unwrap_or_else(|| panic!("{c}"));
    assert!(
        std::path::Path::new(kept).starts_with(e.home.path().join("undo")),
        "{kept}"
    );
    assert_eq!(
        std::fs::read_to_string(kept).unwrap(),
        "alpha\nbeta\ngamma\n"
    );
    // A new file says so, with its first lines.
    run(
        &e,
        "local_write_file",
        json!({"path": "new.md", "content": "# Title\nbody\n"}),
    )
    .await;
    let d = approver.asked()[1].details.clone().unwrap();
    assert!(
        d.starts_with("create new.md (13 bytes, 2 lines)") && d.contains("# Title"),
        "{d}"
    );
    // Control characters and bidi overrides are shown, not obeyed.
    run(
        &e,
        "local_exec",
        json!({"command": "touch a\u{1b}[2K\u{202e}txt.exe"}),
    )
    .await;
    let subject = approver.asked()[2].subject.clone();
    assert!(
        subject.contains("\\x1b[2K") && subject.contains("<U+202E>"),
        "{subject}"
    );
    assert!(!subject.contains('\u{1b}') && !subject.contains('\u{202e}'));
}

#[tokio::test]
async fn a_grant_covers_a_compound_only_if_every_base_command_was_granted() {
    let approver = Arc::new(ScriptedApprover::new([
        ApprovalDecision::AlwaysAllow,
        ApprovalDecision::Deny { reason: None },
    ]));
    let e = env(Setup::new("http://127.0.0.1:9/v1".into(), approver.clone()));
    let (s, _) = run(&e, "local_exec", json!({"command": "git init -q"})).await;
    assert_eq!(s, ToolStatus::Ok);
    assert!(
        e.brain
            .grants()
            .unwrap()
            .contains(&("local_exec".to_string(), "git".to_string()))
    );
    // `git` is granted, `touch` is not: the compound asks again (and is denied).
    let (s, _) = run(
        &e,
        "local_exec",
        json!({"command": "git add -A && touch pwned"}),
    )
    .await;
    assert_eq!(s, ToolStatus::Refused);
    assert_eq!(approver.asked().len(), 2);
    assert!(!e.wd().join("pwned").exists());
    // A blacklisted tail never rides on a grant, and is not even asked.
    let (s, _) = run(
        &e,
        "local_exec",
        json!({"command": "git status && rm -rf ~"}),
    )
    .await;
    assert_eq!(s, ToolStatus::Refused);
    assert_eq!(approver.asked().len(), 2);
    // A granted command alone runs without asking.
    let (s, c) = run(
        &e,
        "local_exec",
        json!({"command": "git commit -q --allow-empty -m x -c user.name=a || true"}),
    )
    .await;
    assert_eq!(s, ToolStatus::Ok, "{c}");
    assert_eq!(approver.asked().len(), 2);
}
