//! Shared by the voice CLI tests.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn shared() -> PathBuf {
    jarvis_testkit::shared_dir()
}

/// A JARVIS_HOME with the shared models in place, as `jarvis models install`
/// leaves them.
pub fn home_with_models() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let m = home.path().join("models");
    std::fs::create_dir_all(m.join("piper")).unwrap();
    for f in [
        "ggml-tiny.en.bin",
        "silero-v6.2.0-ggml.bin",
        "piper/en_US-joe-medium.onnx",
        "piper/en_US-joe-medium.onnx.json",
    ] {
        std::os::unix::fs::symlink(shared().join("models").join(f), m.join(f)).unwrap();
    }
    home
}

/// `jarvis ARGS` for this home, against `base_url` when given.
pub fn jarvis(home: &Path, base_url: Option<&str>, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_jarvis"));
    cmd.args(args)
        .env("JARVIS_HOME", home)
        .env("JARVIS_MODEL", "test-model")
        .env_remove("JARVIS_AGENT_EXEC");
    if let Some(u) = base_url {
        cmd.env("JARVIS_BASE_URL", u);
    }
    cmd
}

pub fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Line `n` (1-based) of the fixtures' transcripts.
pub fn transcript(n: usize) -> String {
    std::fs::read_to_string(shared().join("audio/transcripts.txt"))
        .unwrap()
        .lines()
        .nth(n - 1)
        .unwrap()
        .to_string()
}
