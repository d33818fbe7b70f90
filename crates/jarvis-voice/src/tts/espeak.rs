//! espeak-ng as a subprocess: the system voice on Linux and Piper's
//! phonemizer everywhere. A subprocess, so nothing GPL is linked.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::VoiceError;

/// Run espeak-ng with `args`, the text on stdin (so nothing in it is read
/// as an option), and return its stdout. `engine` names who asked, for the
/// error when espeak-ng is missing.
pub fn run(args: &[&str], text: &str, engine: &str) -> Result<Vec<u8>, VoiceError> {
    let mut child = Command::new("espeak-ng")
        .args(args)
        // UTF-8 input.
        .args(["-b", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| VoiceError::EngineUnavailable {
            engine: engine.into(),
            reason: format!("espeak-ng: {e}; install the espeak-ng package"),
        })?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(text.as_bytes())?;
    }
    let out = child.wait_with_output()?;
    if !out.status.success() {
        return Err(VoiceError::Tts(format!(
            "espeak-ng: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(out.stdout)
}

/// Whether espeak-ng can be started.
pub fn available() -> bool {
    Command::new("espeak-ng")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}
