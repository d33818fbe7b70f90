//! `local_exec` under Landlock and seccomp: an approved command cannot create or
//! truncate a file outside the working directory, in the full ABI and in a
//! forced ABI-2 mode (Debian 12's kernel 6.1), where only what ABI 2 can
//! enforce plus seccomp holds. No socket at all with the network off.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;

use common::*;
use jarvis_core::policy::AllowOnceApprover;
use jarvis_protocol::ToolStatus;
use serde_json::json;

async fn exec(e: &Env, cmd: &str) -> (ToolStatus, String) {
    let out = e
        .brain
        .run_tool("local_exec", &json!({"command": cmd}).to_string())
        .await;
    (out.status, out.content)
}

fn kernel_abi() -> u8 {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jarvis-sandbox"))
        .arg("--probe")
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .trim_start_matches("abi ")
        .parse()
        .unwrap()
}

fn sandboxed(abi: &str, network: &str) -> (Env, tempfile::TempDir) {
    let e = env(Setup {
        config: &[
            ("tools.exec", "true"),
            ("sandbox.abi", abi),
            ("sandbox.network", network),
        ],
        ..Setup::new("http://127.0.0.1:9/v1".into(), Arc::new(AllowOnceApprover))
    });
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("existing.txt"), "keep me").unwrap();
    (e, outside)
}

#[tokio::test]
async fn full_abi_confines_creation_writes_and_truncation() {
    let abi = kernel_abi();
    assert!(
        abi >= 3,
        "this test needs Landlock ABI ≥ 3 (kernel has {abi})"
    );
    let (e, out) = sandboxed("0", "true");
    let o = out.path().display().to_string();
    let (s, c) = exec(
        &e,
        "touch inside.txt && echo tmp > \"$TMPDIR/t\" && cat \"$TMPDIR/t\"",
    )
    .await;
    assert_eq!(s, ToolStatus::Ok);
    assert!(c.starts_with("exit code: 0") && c.contains("tmp"), "{c}");
    assert!(e.wd().join("inside.txt").exists());
    for cmd in [
        format!("touch {o}/new.txt"),
        format!("echo pwned > {o}/existing.txt"),
        format!("python3 -c \"import os; os.truncate('{o}/existing.txt', 0)\""),
        format!("mkdir {o}/d"),
        format!("rm {o}/existing.txt"),
    ] {
        let (_, c) = exec(&e, &cmd).await;
        assert!(!c.starts_with("exit code: 0"), "{cmd} succeeded: {c}");
    }
    assert_eq!(
        std::fs::read_to_string(out.path().join("existing.txt")).unwrap(),
        "keep me"
    );
    assert!(!out.path().join("new.txt").exists() && !out.path().join("d").exists());
}

#[tokio::test]
async fn forced_abi_2_still_confines_creation_writes_and_truncation() {
    // Debian 12's kernel 6.1 has ABI 2, with no truncate right: seccomp
    // refuses truncate(2) there, so the guarantee does not shrink.
    let (e, out) = sandboxed("2", "true");
    let o = out.path().display().to_string();
    for cmd in [
        format!("touch {o}/new.txt"),
        format!("echo pwned > {o}/existing.txt"),
        format!("python3 -c \"import os; os.truncate('{o}/existing.txt', 0)\""),
    ] {
        let (_, c) = exec(&e, &cmd).await;
        assert!(!c.starts_with("exit code: 0"), "{cmd} succeeded: {c}");
    }
    assert!(!out.path().join("new.txt").exists());
    assert_eq!(
        std::fs::read_to_string(out.path().join("existing.txt")).unwrap(),
        "keep me"
    );
    // Inside the working directory truncation is fine (ftruncate on an fd
    // the write right opened).
    let (_, c) = exec(
        &e,
        "echo abc > f && python3 -c \"open('f', 'r+').truncate(1)\" && cat f",
    )
    .await;
    assert!(c.starts_with("exit code: 0") && c.contains("\na"), "{c}");
    let (ok, what) = jarvis_core::tools::sandbox_report(&e.brain.exec_sandbox());
    assert!(
        ok && what.contains("ABI 2 (forced") && what.contains("truncate(2) refused by seccomp"),
        "{what}"
    );
}

#[tokio::test]
async fn network_off_blocks_every_socket_family() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    // A script file: the command analysis does not read it, the sandbox decides.
    let probe = format!(
        "import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=2)\nprint('connected')\n"
    );
    let connect = "python3 probe.py".to_string();
    let (e, _out) = sandboxed("0", "true");
    std::fs::write(e.wd().join("probe.py"), &probe).unwrap();
    let (_, c) = exec(&e, &connect).await;
    assert!(c.contains("connected"), "network on: {c}");
    // Off, at the kernel's ABI and at ABI 2 (no Landlock network rights):
    // seccomp refuses the socket itself.
    for abi in ["0", "2"] {
        let (e, _out) = sandboxed(abi, "false");
        std::fs::write(e.wd().join("probe.py"), &probe).unwrap();
        let (_, c) = exec(&e, &connect).await;
        assert!(
            !c.contains("connected") && c.contains("PermissionError"),
            "network off at ABI {abi}: {c}"
        );
        std::fs::write(
            e.wd().join("unix.py"),
            "import socket\nsocket.socket(socket.AF_UNIX).connect('/run/dbus/system_bus_socket')\n",
        )
        .unwrap();
        let (_, c) = exec(&e, "python3 unix.py").await;
        assert!(
            c.contains("PermissionError"),
            "unix socket at ABI {abi}: {c}"
        );
        let (_, what) = jarvis_core::tools::sandbox_report(&e.brain.exec_sandbox());
        assert!(
            what.contains("network: none unless a call is approved with network"),
            "{what}"
        );
    }
}
