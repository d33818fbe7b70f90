//! The `jarvis` binary end to end against a scripted server on loopback:
//! exact multi-round scripts and failure injection.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Output;

use jarvis_testkit::{MockServer, Reply};
use serde_json::{Value, json};

struct Cli {
    home: tempfile::TempDir,
    work: tempfile::TempDir,
    base: String,
}

impl Cli {
    fn new(base: String) -> Self {
        let home = tempfile::tempdir().unwrap();
        offer_the_hands(home.path());
        Cli {
            home,
            work: tempfile::tempdir().unwrap(),
            base,
        }
    }

    fn cmd(&self) -> tokio::process::Command {
        let mut c = tokio::process::Command::new(env!("CARGO_BIN_EXE_jarvis"));
        c.env("JARVIS_HOME", self.home.path())
            .env("JARVIS_BASE_URL", &self.base)
            .env("JARVIS_MODEL", "test-model")
            .env_remove("JARVIS_API_KEY")
            .env_remove("JARVIS_AGENT_EXEC")
            .current_dir(self.work.path())
            .stdin(std::process::Stdio::null());
        c
    }

    async fn run(&self, args: &[&str]) -> Output {
        self.cmd().args(args).output().await.unwrap()
    }
}

/// The four toggles on, as a user who turned them on in Settings: the
/// tools are offered, and writes and commands still ask.
fn offer_the_hands(home: &std::path::Path) {
    std::fs::write(
        home.join("config.json"),
        r#"{"version": 2, "tools": {"read": true, "write": true, "exec": true, "network": true}}"#,
    )
    .unwrap();
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

fn tool_results(req: &jarvis_testkit::Recorded) -> Vec<String> {
    req.json()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn ask_lists_a_directory_then_reads_ten_lines() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("c1", "local_list_dir", r#"{"path":"tools"}"#)]),
        Reply::tool_calls(&[(
            "c2",
            "local_read_file",
            r#"{"path":"tools/base.py","start_line":1,"end_line":10}"#,
        )]),
        Reply::text("base.py starts with the tool base class."),
    ])
    .await
    .unwrap();
    let cli = Cli::new(server.base_url());
    let tools = cli.work.path().join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    let lines: Vec<String> = (1..=30).map(|i| format!("line {i}")).collect();
    std::fs::write(tools.join("base.py"), lines.join("\n")).unwrap();
    std::fs::write(tools.join("registry.py"), "").unwrap();
    let out = cli
        .run(&[
            "ask",
            "list tools/ then read the first 10 lines of base.py",
            "--yes",
        ])
        .await;
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).trim(),
        "base.py starts with the tool base class."
    );
    assert!(
        stderr(&out).contains("✓ local_list_dir"),
        "{}",
        stderr(&out)
    );
    let reqs = server.chat_requests();
    assert_eq!(reqs.len(), 3);
    assert!(
        tool_results(&reqs[1])[0].contains("base.py")
            && tool_results(&reqs[1])[0].contains("registry.py")
    );
    let read = &tool_results(&reqs[2])[1];
    assert!(
        read.contains("line 1\n") && read.contains("line 10"),
        "{read}"
    );
    assert!(!read.contains("line 11"), "only ten lines: {read}");
    // The working directory is the current one.
    let sys = reqs[0].json()["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    let wd = std::fs::canonicalize(cli.work.path()).unwrap();
    assert!(sys.contains(&wd.display().to_string()), "{sys}");
}

#[tokio::test]
async fn json_mode_prints_events_and_provider_errors_exit_non_zero() {
    let server = MockServer::scripted(vec![
        Reply::text("hello there"),
        Reply::status(500, r#"{"error":{"message":"model exploded"}}"#),
    ])
    .await
    .unwrap();
    let cli = Cli::new(server.base_url());
    let out = cli.run(&["ask", "hi", "--json"]).await;
    assert_eq!(out.status.code(), Some(0));
    let events: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds.first(), Some(&"turn_started"));
    assert_eq!(kinds.last(), Some(&"turn_finished"));
    assert!(kinds.contains(&"content_delta"));
    assert_eq!(events.last().unwrap()["usage"]["total_tokens"], 30);

    cli.run(&["config", "set", "llm.max_retries", "0"]).await;
    let out = cli.run(&["ask", "hi again"]).await;
    assert_eq!(
        out.status.code(),
        Some(1),
        "a provider error fails the command"
    );
    assert!(stderr(&out).contains("model exploded"), "{}", stderr(&out));
    assert!(stdout(&out).trim().is_empty());
}

#[tokio::test]
async fn without_a_terminal_nobody_approves_so_the_call_is_denied() {
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[(
            "c1",
            "local_write_file",
            r#"{"path":"a.txt","content":"x"}"#,
        )]),
        Reply::text("I was not allowed to write."),
    ])
    .await
    .unwrap();
    let cli = Cli::new(server.base_url());
    let out = cli.run(&["ask", "write a.txt"]).await;
    assert_eq!(out.status.code(), Some(0));
    assert!(!cli.work.path().join("a.txt").exists());
    let r = &tool_results(&server.chat_requests()[1])[0];
    assert!(r.contains("denied") && r.contains("no terminal"), "{r}");
}

#[tokio::test]
async fn sessions_config_tools_and_tool_run() {
    let server = MockServer::scripted(vec![Reply::text("first"), Reply::text("second")])
        .await
        .unwrap();
    let cli = Cli::new(server.base_url());
    let out = cli
        .run(&["ask", "remember the word zebra", "--session", "s-1"])
        .await;
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    cli.run(&["ask", "what was the word?", "--session", "s-1"])
        .await;
    // The second request carried the first turn.
    let second = server.chat_requests()[1].json();
    assert!(
        second["messages"]
            .to_string()
            .contains("remember the word zebra")
    );
    let list: Value =
        serde_json::from_slice(&cli.run(&["sessions", "list", "--json"]).await.stdout).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["messages"], 4);
    let show = stdout(&cli.run(&["sessions", "show", "s-1"]).await);
    assert!(
        show.contains("you: remember the word zebra") && show.contains("jarvis: second"),
        "{show}"
    );
    assert_eq!(
        cli.run(&["sessions", "rename", "s-1", "Zebra"])
            .await
            .status
            .code(),
        Some(0)
    );
    let list: Value =
        serde_json::from_slice(&cli.run(&["sessions", "list", "--json"]).await.stdout).unwrap();
    assert_eq!(list[0]["title"], "Zebra");
    assert_eq!(
        cli.run(&["sessions", "delete", "s-1"]).await.status.code(),
        Some(0)
    );
    assert_eq!(
        stdout(&cli.run(&["sessions", "list"]).await).trim(),
        "no sessions yet"
    );
    let missing = cli.run(&["sessions", "show", "nope"]).await;
    assert_ne!(missing.status.code(), Some(0));
    assert!(
        stderr(&missing).contains("no session"),
        "{}",
        stderr(&missing)
    );

    // config: stable dotted keys, typed, persisted.
    assert_eq!(
        stdout(&cli.run(&["config", "get", "approvals.auto"]).await).trim(),
        "[]"
    );
    assert_eq!(
        cli.run(&["config", "set", "approvals.auto", r#"["exec"]"#])
            .await
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        stdout(&cli.run(&["config", "get", "approvals.auto"]).await).trim(),
        r#"["exec"]"#
    );
    let unknown_kind = cli
        .run(&["config", "set", "approvals.auto", r#"["everything"]"#])
        .await;
    assert_eq!(
        unknown_kind.status.code(),
        Some(2),
        "{}",
        stderr(&unknown_kind)
    );
    let bad = cli
        .run(&["config", "set", "llm.context_window", "huge"])
        .await;
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("llm.context_window"));
    let secret = cli.run(&["config", "set", "llm.api_key", "sk-123"]).await;
    assert_ne!(secret.status.code(), Some(0));
    assert!(
        !std::fs::read_to_string(cli.home.path().join("config.json"))
            .unwrap()
            .contains("sk-123")
    );

    // tools and tool run, through the same gate.
    let tools: Value = serde_json::from_slice(&cli.run(&["tools", "--json"]).await.stdout).unwrap();
    assert_eq!(tools.as_array().unwrap().len(), 18);
    let ok = cli
        .run(&[
            "tool",
            "run",
            "local_exec",
            "--args",
            r#"{"command":"echo from-tool-run"}"#,
        ])
        .await;
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(stdout(&ok).contains("from-tool-run"));
    let blocked = cli
        .run(&[
            "tool",
            "run",
            "local_exec",
            "--args",
            r#"{"command":"rm -rf ~"}"#,
            "--yes",
        ])
        .await;
    assert_eq!(blocked.status.code(), Some(3), "--yes never passes a block");
    let wd = tempfile::tempdir().unwrap();
    let w = cli
        .run(&[
            "tool",
            "run",
            "local_write_file",
            "--args",
            r#"{"path":"x.txt","content":"hi"}"#,
            "--cwd",
            wd.path().to_str().unwrap(),
            "--yes",
        ])
        .await;
    assert_eq!(w.status.code(), Some(0), "{}", stderr(&w));
    assert_eq!(
        std::fs::read_to_string(wd.path().join("x.txt")).unwrap(),
        "hi"
    );
    let audit = stdout(&cli.run(&["audit", "--json"]).await);
    assert_eq!(audit.lines().count(), 3, "every tool run audited: {audit}");
}

#[tokio::test]
async fn the_agents_own_processes_cannot_change_jarvis() {
    let server = MockServer::scripted(vec![]).await.unwrap();
    let cli = Cli::new(server.base_url());
    for args in [
        vec!["config", "set", "tools.exec", "true"],
        vec!["mcp", "add", "x", "."],
        vec![
            "tool",
            "run",
            "local_exec",
            "--args",
            "{\"command\":\"true\"}",
        ],
        vec!["ask", "hi", "--yes"],
        vec!["sessions", "delete", "x"],
    ] {
        let out = cli
            .cmd()
            .args(&args)
            .env("JARVIS_AGENT_EXEC", "1")
            .output()
            .await
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("cannot be run by the agent"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let cfg = std::fs::read_to_string(cli.home.path().join("config.json")).unwrap();
    assert!(
        !cfg.contains("mcp_servers\": {\"x\""),
        "nothing registered: {cfg}"
    );
    // Reading is fine.
    let out = cli
        .cmd()
        .args(["config", "get", "tools.exec"])
        .env("JARVIS_AGENT_EXEC", "1")
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[tokio::test]
async fn a_nested_jarvis_started_by_the_agent_is_refused() {
    // The model tries to flip its own toggle from inside a script, whose
    // content the command analysis does not see; the CLI itself refuses.
    let cmd = "sh flip.sh".to_string();
    let args = serde_json::json!({ "command": cmd }).to_string();
    let server = MockServer::scripted(vec![
        Reply::tool_calls(&[("c", "local_exec", &args)]),
        Reply::text("done"),
    ])
    .await
    .unwrap();
    let cli = Cli::new(server.base_url());
    std::fs::write(cli.work.path().join(".jbin"), env!("CARGO_BIN_EXE_jarvis")).unwrap();
    std::fs::write(
        cli.work.path().join("flip.sh"),
        "\"$(cat .jbin)\" config set approvals.auto '[\"write\",\"exec\",\"network\"]'\n",
    )
    .unwrap();
    cli.run(&["config", "set", "approvals.auto", r#"["exec"]"#])
        .await;
    let out = cli.run(&["ask", "stop asking me"]).await;
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = &tool_results(&server.chat_requests()[1])[0];
    assert!(r.contains("cannot be run by the agent"), "{r}");
    let auto = stdout(&cli.run(&["config", "get", "approvals.auto"]).await);
    assert_eq!(auto.trim(), r#"["exec"]"#, "not widened by the agent");
}

#[tokio::test]
async fn doctor_reports_each_check_with_a_fix() {
    let server = MockServer::scripted(vec![]).await.unwrap();
    let cli = Cli::new(server.base_url());
    let out = cli
        .cmd()
        .args(["doctor", "--json"])
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .output()
        .await
        .unwrap();
    let checks: Value = serde_json::from_slice(&out.stdout).unwrap();
    let by = |name: &str| jarvis_testkit::doctor_check(&checks, name);
    assert_eq!(by("endpoint")["ok"], true);
    assert_eq!(by("model")["ok"], true);
    assert!(by("context")["detail"].as_str().unwrap().contains("4096"));
    assert_eq!(
        by("context")["ok"],
        false,
        "config says 8192 but the server runs 4096"
    );
    assert!(
        by("context")["fix"]
            .as_str()
            .unwrap()
            .contains("llm.context_window 4096")
    );
    assert_eq!(by("database")["ok"], true);
    assert!(by("keyring").get("ok").is_some());
    assert_eq!(out.status.code(), Some(1));

    // Nothing listening: a clear failure and a fix.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dead = Cli::new(format!("http://127.0.0.1:{port}/v1"));
    let out = dead.run(&["doctor"]).await;
    let text = stdout(&out);
    assert!(
        text.contains("✗ endpoint") && text.contains("fix: start Ollama"),
        "{text}"
    );
    // A broken config is reported with its line, and left alone.
    let broken = "{\n  \"llm\": {\n    \"model\": ,\n  }\n}\n";
    std::fs::write(dead.home.path().join("config.json"), broken).unwrap();
    let out = dead.run(&["doctor"]).await;
    assert!(stdout(&out).contains("line 3"), "{}", stdout(&out));
    let out = dead.run(&["config", "set", "tools.read", "true"]).await;
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(dead.home.path().join("config.json")).unwrap(),
        broken
    );
}

#[tokio::test]
async fn policy_check_and_grants_from_the_command_line() {
    let server = MockServer::scripted(vec![]).await.unwrap();
    let cli = Cli::new(server.base_url());
    let out = cli.run(&["policy", "check", "--", "rm", "-rf", "/"]).await;
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).starts_with("block: recursive delete"),
        "{}",
        stdout(&out)
    );
    let out = cli
        .run(&["policy", "check", "--json", "--", "git status"])
        .await;
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "allow");
    // The whole corpus through --jsonl: every id answered, every block row blocked.
    let corpus = std::fs::read_to_string(
        jarvis_testkit::shared_dir().join("oracles/security/commands.jsonl"),
    )
    .unwrap();
    let input = corpus.replace("APPNAME", "jarvis");
    let mut child = cli
        .cmd()
        .args(["policy", "check", "--jsonl"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut stdin, input.as_bytes())
        .await
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().await.unwrap();
    let answers: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let rows: Vec<Value> = input
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), rows.len());
    for (row, ans) in rows.iter().zip(&answers) {
        assert_eq!(row["id"], ans["id"]);
        if row["verdict"] == "block" {
            assert_eq!(ans["verdict"], "block", "{row}");
        }
    }
    // Grants: an always-allow from a tool run is listed and revocable.
    std::fs::write(cli.home.path().join("config.json"), "{}").unwrap();
    assert_eq!(
        stdout(&cli.run(&["grants", "list"]).await).trim(),
        "no grants"
    );
    let store = jarvis_core::store::Store::open(&cli.home.path().join("jarvis.db")).unwrap();
    store.add_grant("local_exec", "make").unwrap();
    drop(store);
    let list: Value =
        serde_json::from_slice(&cli.run(&["grants", "list", "--json"]).await.stdout).unwrap();
    assert_eq!(list[0]["scope"], "make");
    assert_eq!(
        cli.run(&["grants", "revoke", "local_exec", "make"])
            .await
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        cli.run(&["grants", "revoke", "local_exec", "make"])
            .await
            .status
            .code(),
        Some(2)
    );
    let tool_run = cli
        .run(&["tool", "run", "local_exec", "--args", r#"{"command":"ls"}"#])
        .await;
    assert_eq!(
        tool_run.status.code(),
        Some(0),
        "read-only commands run without asking"
    );
    let audit = stdout(&cli.run(&["audit", "--tool", "local_exec", "--json"]).await);
    assert_eq!(audit.lines().count(), 1);
    assert!(
        stdout(&cli.run(&["audit", "--tool", "http_request"]).await)
            .trim()
            .is_empty()
    );
}

#[tokio::test]
async fn skills_are_listed_shadowed_disabled_deleted_and_restored() {
    let server = MockServer::scripted(vec![]).await.unwrap();
    let cli = Cli::new(server.base_url());
    let fake_home = tempfile::tempdir().unwrap();
    let write = |dir: &std::path::Path, name: &str, desc: &str| {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: {desc}\n---\nbody\n"),
        )
        .unwrap();
    };
    // The same name in ~/.claude/skills and in $JARVIS_HOME/skills: Jarvis's wins.
    write(
        &fake_home.path().join(".claude/skills/notes"),
        "notes",
        "from claude",
    );
    write(
        &cli.home.path().join("skills/notes"),
        "notes",
        "from jarvis",
    );
    write(
        &cli.home.path().join("skills/Bad_Name"),
        "Bad_Name",
        "invalid name",
    );
    std::fs::create_dir_all(cli.home.path().join("skills/broken")).unwrap();
    std::fs::write(
        cli.home.path().join("skills/broken/SKILL.md"),
        "no frontmatter here",
    )
    .unwrap();
    let run = |args: &'static [&'static str]| {
        let mut c = cli.cmd();
        c.args(args).env("HOME", fake_home.path());
        c
    };
    let out = run(&["skill", "list", "--json"]).output().await.unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let skills = v["skills"].as_array().unwrap();
    let notes = skills.iter().find(|s| s["name"] == "notes").unwrap();
    assert_eq!(notes["description"], "from jarvis");
    assert_eq!(notes["shadows"], json!(["claude"]));
    assert_eq!(notes["enabled"], true);
    assert_eq!(notes["valid"], true);
    let bad = skills.iter().find(|s| s["name"] == "Bad_Name").unwrap();
    assert_eq!(bad["valid"], false, "loaded leniently, reported invalid");
    assert!(
        v["broken"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("must start with YAML frontmatter")
    );
    // Disabled: out of the model's catalog, still listed.
    assert_eq!(
        run(&["skill", "disable", "notes"])
            .status()
            .await
            .unwrap()
            .code(),
        Some(0)
    );
    let prompt =
        String::from_utf8(run(&["skill", "prompt"]).output().await.unwrap().stdout).unwrap();
    assert!(
        !prompt.contains("<name>\nnotes\n</name>") && prompt.contains("Bad_Name"),
        "{prompt}"
    );
    assert_eq!(
        run(&["skill", "enable", "notes"])
            .status()
            .await
            .unwrap()
            .code(),
        Some(0)
    );
    let prompt =
        String::from_utf8(run(&["skill", "prompt"]).output().await.unwrap().stdout).unwrap();
    assert!(prompt.contains("<name>\nnotes\n</name>") && prompt.contains("from jarvis"));
    // Delete moves it to the trash; the claude one shows through; restore brings it back.
    assert_eq!(
        run(&["skill", "delete", "notes"])
            .status()
            .await
            .unwrap()
            .code(),
        Some(0)
    );
    assert!(!cli.home.path().join("skills/notes").exists());
    let v: Value = serde_json::from_slice(
        &run(&["skill", "list", "--json"])
            .output()
            .await
            .unwrap()
            .stdout,
    )
    .unwrap();
    let notes = v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "notes")
        .unwrap()
        .clone();
    assert_eq!(notes["description"], "from claude");
    assert_eq!(
        run(&["skill", "restore", "notes"])
            .status()
            .await
            .unwrap()
            .code(),
        Some(0)
    );
    assert!(cli.home.path().join("skills/notes/SKILL.md").exists());
    // validate agrees with the spec.
    let ok = run(&["skill", "validate", "/dev/null"])
        .output()
        .await
        .unwrap();
    assert_eq!(ok.status.code(), Some(1));
    let good = cli.home.path().join("skills/notes");
    let out = cli
        .cmd()
        .args(["skill", "validate"])
        .arg(&good)
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The agent's own processes cannot manage skills.
    let out = run(&["skill", "disable", "notes"])
        .env("JARVIS_AGENT_EXEC", "1")
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
