//! The API key in a real Secret Service (gnome-keyring on a private session
//! bus), reached through the one-shot helper process: stored, shown by its
//! tail, read back byte-exact, deleted; a long-lived `jarvis serve` that
//! read it keeps no D-Bus client thread of its own.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `script` in a fresh session bus with an unlocked gnome-keyring
/// whose files live in a temp dir; `$J` is the jarvis binary.
fn in_keyring_session(script: &str) -> String {
    let data = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let full = format!(
        "set -e\n\
         eval \"$(printf jarvis-test | gnome-keyring-daemon --unlock --components=secrets)\"\n\
         {script}"
    );
    let out = Command::new("dbus-run-session")
        .args(["--", "sh", "-c", &full])
        .env("XDG_DATA_HOME", data.path())
        .env("JARVIS_HOME", home.path())
        .env("J", env!("CARGO_BIN_EXE_jarvis"))
        .env_remove("JARVIS_API_KEY")
        .env_remove("JARVIS_KEYRING")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    text
}

#[test]
fn the_key_round_trips_through_the_helper_and_the_server_keeps_no_bus_thread() {
    if !have("dbus-run-session") || !have("gnome-keyring-daemon") {
        eprintln!("skipped: no dbus-run-session or gnome-keyring-daemon (.ci/run installs them)");
        return;
    }
    let out = in_keyring_session(
        r#"printf 'sk-live-0123456789' | "$J" key set
echo "status: $("$J" key status)"
echo "helper: [$("$J" --keyring-helper get api_key)]"
"$J" serve --json > serve.log 2>&1 &
pid=$!
sleep 3
echo "threads: $(ls /proc/$pid/task | while read t; do cat /proc/$pid/task/$t/comm; done | sort | tr '\n' ' ')"
kill $pid; wait $pid || true
"$J" key delete
set +e
"$J" --keyring-helper get api_key
echo "after delete: $?"
"#,
    );
    assert!(out.contains("status: set (…6789)"), "{out}");
    assert!(out.contains("helper: [sk-live-0123456789]"), "{out}");
    assert!(out.contains("after delete: 3"), "{out}");
    let threads = out
        .lines()
        .find_map(|l| l.strip_prefix("threads: "))
        .unwrap_or_default();
    assert!(!threads.is_empty(), "{out}");
    // Read in-process, the key leaves `zbus::Connection` and `async-io`
    // threads behind for good; the helper's die with the helper.
    assert!(
        !threads.contains("zbus") && !threads.contains("async-io"),
        "the server holds a D-Bus client thread: {threads}"
    );
}
