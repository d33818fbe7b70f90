//! The OS sandbox as the guarantee when the command analysis is fooled: an
//! approved command (a script the analysis cannot read) in a home with
//! planted keys, a real ssh-agent, a real D-Bus session bus and a loopback
//! port, run by the real `jarvis` binary. It reads none of the secrets,
//! writes none of the startup files, reaches no socket and no port; it is
//! refused where it cannot be confined; and home is never the working
//! directory.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

const KEY: &str = "-----BEGIN OPENSSH PRIVATE KEY----- planted-ssh-key-7c41";
const AWS: &str = "aws_secret_access_key = planted-aws-secret-93ab";
const STATE: &str = "planted-jarvis-state-5e2f";

struct Home {
    _dir: tempfile::TempDir,
    home: PathBuf,
    work: PathBuf,
    agent: Option<Child>,
    bus: Option<Child>,
}

impl Drop for Home {
    fn drop(&mut self) {
        for c in [self.agent.as_mut(), self.bus.as_mut()]
            .into_iter()
            .flatten()
        {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn planted() -> Home {
    let dir = tempfile::tempdir().unwrap();
    let home = std::fs::canonicalize(dir.path()).unwrap().join("home");
    let work = home.join("proj");
    for d in [".ssh", ".aws", ".jarvis", "proj"] {
        std::fs::create_dir_all(home.join(d)).unwrap();
    }
    std::fs::write(home.join(".ssh/id_rsa"), KEY).unwrap();
    std::fs::write(home.join(".aws/credentials"), AWS).unwrap();
    std::fs::write(home.join(".bashrc"), "# original\n").unwrap();
    std::fs::write(
        home.join(".jarvis/config.json"),
        format!(r#"{{"version": 2, "tools": {{"exec": true}}, "persona": {{"name": "{STATE}"}}}}"#),
    )
    .unwrap();
    Home {
        _dir: dir,
        home,
        work,
        agent: None,
        bus: None,
    }
}

impl Home {
    fn jarvis(&self) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_jarvis"));
        c.env("HOME", &self.home)
            .env("JARVIS_HOME", self.home.join(".jarvis"))
            .env_remove("JARVIS_AGENT_EXEC")
            .env_remove(jarvis_core::sandbox::SIMULATE_NO_LANDLOCK)
            .current_dir(&self.work)
            .stdin(Stdio::null());
        c
    }

    /// `jarvis tool run local_exec` of a script the analysis does not read,
    /// approved once (`--yes`).
    fn run_script(&self, script: &str, extra_env: &[(&str, &str)]) -> Output {
        std::fs::write(self.work.join("probe.sh"), script).unwrap();
        let mut c = self.jarvis();
        c.args([
            "tool",
            "run",
            "local_exec",
            "--args",
            r#"{"command": "sh probe.sh"}"#,
            "--yes",
        ]);
        for (k, v) in extra_env {
            c.env(k, v);
        }
        c.output().unwrap()
    }

    fn config(&self, key: &str, value: &str) {
        let out = self
            .jarvis()
            .args(["config", "set", key, value])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// A real ssh-agent and a real session bus, listening in the home.
    fn start_agents(&mut self) -> (PathBuf, PathBuf) {
        let agent_sock = self.home.join("agent.sock");
        self.agent = Some(
            Command::new("ssh-agent")
                .args(["-D", "-a"])
                .arg(&agent_sock)
                .stdout(Stdio::null())
                .spawn()
                .expect("ssh-agent (openssh-client)"),
        );
        let bus_sock = self.home.join("bus");
        self.bus = Some(
            Command::new("dbus-daemon")
                .args(["--session", "--nofork", "--nopidfile"])
                .arg(format!("--address=unix:path={}", bus_sock.display()))
                .stdout(Stdio::null())
                .spawn()
                .expect("dbus-daemon"),
        );
        for _ in 0..100 {
            if agent_sock.exists() && bus_sock.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        (agent_sock, bus_sock)
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn sandbox_works() -> bool {
    // `cargo test --workspace` builds the helper beside `jarvis`.
    let helper = Path::new(env!("CARGO_BIN_EXE_jarvis")).with_file_name("jarvis-sandbox");
    let out = Command::new(&helper)
        .arg("--probe")
        .output()
        .unwrap_or_else(|e| panic!("{}: {e} (build the workspace)", helper.display()));
    let abi: u8 = String::from_utf8_lossy(&out.stdout)
        .trim()
        .trim_start_matches("abi ")
        .parse()
        .unwrap_or(0);
    assert!(
        abi > 0,
        "this machine's kernel does not enforce Landlock; the sandbox tests need it"
    );
    true
}

#[test]
fn an_approved_command_reaches_no_secret_no_startup_file_no_socket_and_no_port() {
    assert!(sandbox_works());
    let mut h = planted();
    let (agent_sock, bus_sock) = h.start_agents();
    // Both are real and reachable from outside the sandbox.
    let outside = Command::new("ssh-add")
        .arg("-l")
        .env("SSH_AUTH_SOCK", &agent_sock)
        .output()
        .unwrap();
    assert_eq!(
        outside.status.code(),
        Some(1),
        "the agent answers (no identities): {}",
        text(&outside)
    );
    let bus_addr = format!("unix:path={}", bus_sock.display());
    let outside = Command::new("dbus-send")
        .args([
            "--session",
            "--print-reply",
            "--dest=org.freedesktop.DBus",
            "/",
            "org.freedesktop.DBus.ListNames",
        ])
        .env("DBUS_SESSION_BUS_ADDRESS", &bus_addr)
        .output()
        .unwrap();
    assert!(
        outside.status.success(),
        "the bus answers: {}",
        text(&outside)
    );
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let home = h.home.display().to_string();
    std::fs::write(
        h.work.join("tcp.py"),
        format!("import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=2)\n    print('TCP-REACHED')\nexcept OSError as e:\n    print('tcp refused:', e)\n"),
    )
    .unwrap();
    let script = format!(
        r#"cat "{home}/.ssh/id_rsa"
cat "{home}/.aws/credentials"
ls "{home}/.ssh" && echo LISTED-SSH
echo pwned >> "{home}/.bashrc" && echo WROTE-BASHRC
cat "{home}/.jarvis/config.json"
echo x > "{home}/.jarvis/config.json" && echo WROTE-STATE
echo "env: [$SSH_AUTH_SOCK][$DBUS_SESSION_BUS_ADDRESS][$XDG_RUNTIME_DIR]"
SSH_AUTH_SOCK="{agent}" ssh-add -l; echo "ssh-add exit $?"
DBUS_SESSION_BUS_ADDRESS="{bus_addr}" dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.ListNames && echo BUS-REACHED
python3 tcp.py
echo inside > inside.txt && echo WROTE-INSIDE
echo "home is $HOME"
"#,
        agent = agent_sock.display()
    );
    let out = h.run_script(
        &script,
        &[
            ("SSH_AUTH_SOCK", agent_sock.to_str().unwrap()),
            ("DBUS_SESSION_BUS_ADDRESS", &bus_addr),
        ],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(0), "{all}");
    for leaked in [
        KEY,
        AWS,
        STATE,
        "LISTED-SSH",
        "WROTE-BASHRC",
        "WROTE-STATE",
        "BUS-REACHED",
        "TCP-REACHED",
    ] {
        assert!(!all.contains(leaked), "{leaked} got through:\n{all}");
    }
    assert!(
        all.contains("env: [][][]"),
        "agent and bus addresses are not handed over: {all}"
    );
    assert!(
        all.contains("ssh-add exit 2"),
        "the agent socket cannot even be opened: {all}"
    );
    assert!(
        all.contains("WROTE-INSIDE") && h.work.join("inside.txt").exists(),
        "{all}"
    );
    assert!(
        !all.contains(&format!("home is {home}")),
        "the child's home is its own: {all}"
    );
    assert_eq!(
        std::fs::read_to_string(h.home.join(".bashrc")).unwrap(),
        "# original\n"
    );
    assert!(
        std::fs::read_to_string(h.home.join(".jarvis/config.json"))
            .unwrap()
            .contains(STATE)
    );
    assert!(
        listener.accept().is_err(),
        "nothing connected to the loopback port"
    );

    // With the network allowed, TCP works; Unix sockets still do not.
    h.config("sandbox.network", "true");
    let out = h.run_script(
        &format!(
            "python3 tcp.py\nDBUS_SESSION_BUS_ADDRESS=\"{bus_addr}\" dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.ListNames && echo BUS-REACHED\n"
        ),
        &[],
    );
    let all = text(&out);
    assert!(all.contains("TCP-REACHED"), "{all}");
    assert!(!all.contains("BUS-REACHED"), "{all}");
}

#[test]
fn where_commands_cannot_be_confined_they_are_refused_unless_the_user_allows() {
    assert!(sandbox_works());
    let h = planted();
    let marker = h.work.join("ran.txt");
    let script = "echo ran > ran.txt\n";
    let out = h.run_script(script, &[(jarvis_core::sandbox::SIMULATE_NO_LANDLOCK, "1")]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(3), "refused: {all}");
    assert!(
        all.contains("cannot confine the command") && all.contains("Landlock"),
        "{all}"
    );
    assert!(!marker.exists(), "nothing ran");
    // The doctor says so too.
    let doctor = h.jarvis().args(["doctor", "--json"]).output().unwrap();
    assert!(String::from_utf8_lossy(&doctor.stdout).contains("sandbox"));
    h.config("sandbox.allow_unconfined", "true");
    let out = h.run_script(script, &[(jarvis_core::sandbox::SIMULATE_NO_LANDLOCK, "1")]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(0), "{all}");
    assert!(marker.exists());
    assert!(all.contains("not sandboxed"), "the model is told: {all}");
}

#[test]
fn home_is_never_the_working_directory() {
    let h = planted();
    let ls_in = |dir: &Path| {
        h.jarvis()
            .args([
                "tool",
                "run",
                "local_exec",
                "--args",
                r#"{"command": "ls"}"#,
                "--yes",
                "--cwd",
            ])
            .arg(dir)
            .output()
            .unwrap()
    };
    let out = ls_in(&h.home);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(2), "{all}");
    assert!(all.contains("home folder"), "{all}");
    // Started in home with no folder chosen: `ask` stops with the fix.
    let out = h
        .jarvis()
        .current_dir(&h.home)
        .args(["ask", "hi"])
        .output()
        .unwrap();
    let all = text(&out);
    assert_eq!(out.status.code(), Some(2), "{all}");
    assert!(
        all.contains("home folder") && all.contains("--cwd"),
        "{all}"
    );
    // Jarvis's own state is no working directory either.
    let out = ls_in(&h.home.join(".jarvis"));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}
