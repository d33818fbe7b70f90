//! The operating system's own voice: espeak-ng on Linux, `say` on macOS,
//! SAPI on Windows. Always there, fast, robotic.

use std::io::Write;
use std::process::{Command, Stdio};

use super::Speaker;
use crate::VoiceError;
use crate::audio::Pcm;

pub struct SystemVoice {
    voice: String,
}

impl SystemVoice {
    /// The voice for a whisper language code ("auto"/"en" English, "zh" Mandarin).
    pub fn for_language(language: &str) -> Result<Self, VoiceError> {
        let voice = match language {
            "zh" | "cmn" | "zh-cn" => "cmn",
            "auto" | "en" => "en-us",
            other => other,
        };
        let me = Self {
            voice: voice.to_string(),
        };
        me.check()?;
        Ok(me)
    }

    pub fn voice(&self) -> &str {
        &self.voice
    }

    #[cfg(target_os = "linux")]
    fn check(&self) -> Result<(), VoiceError> {
        let out = Command::new("espeak-ng")
            .arg("--version")
            .output()
            .map_err(|e| VoiceError::EngineUnavailable {
                engine: "system (espeak-ng)".into(),
                reason: format!("{e}; install the espeak-ng package"),
            })?;
        if out.status.success() {
            Ok(())
        } else {
            Err(VoiceError::EngineUnavailable {
                engine: "system (espeak-ng)".into(),
                reason: "espeak-ng --version failed".into(),
            })
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn check(&self) -> Result<(), VoiceError> {
        Ok(())
    }
}

impl Speaker for SystemVoice {
    fn engine(&self) -> &'static str {
        "system"
    }

    #[cfg(target_os = "linux")]
    fn synthesize(&self, text: &str) -> Result<Pcm, VoiceError> {
        // Text goes through stdin so nothing in it is read as an option.
        let mut child = Command::new("espeak-ng")
            .args(["--stdout", "-b", "1", "-v", &self.voice])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| VoiceError::EngineUnavailable {
                engine: "system (espeak-ng)".into(),
                reason: e.to_string(),
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
        crate::audio::parse_streamed_wav(&out.stdout)
    }

    #[cfg(target_os = "macos")]
    fn synthesize(&self, text: &str) -> Result<Pcm, VoiceError> {
        let tmp = tempfile::Builder::new().suffix(".wav").tempfile()?;
        let status = Command::new("say")
            .args(["--file-format=WAVE", "--data-format=LEI16@22050", "-o"])
            .arg(tmp.path())
            .arg("--")
            .arg(text)
            .status()?;
        if !status.success() {
            return Err(VoiceError::Tts("say failed".into()));
        }
        crate::audio::read_wav(tmp.path())
    }

    #[cfg(windows)]
    fn synthesize(&self, text: &str) -> Result<Pcm, VoiceError> {
        let tmp = tempfile::Builder::new().suffix(".wav").tempfile()?;
        let script = "Add-Type -AssemblyName System.Speech; $s = New-Object System.Speech.Synthesis.SpeechSynthesizer; \
                      $s.SetOutputToWaveFile($env:JARVIS_SAY_OUT); $s.Speak([Console]::In.ReadToEnd()); $s.Dispose()";
        let mut child = Command::new("powershell")
            .args(["-NoProfile", "-Command", script])
            .env("JARVIS_SAY_OUT", tmp.path())
            .stdin(Stdio::piped())
            .spawn()?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(text.as_bytes())?;
        }
        if !child.wait()?.success() {
            return Err(VoiceError::Tts("SAPI failed".into()));
        }
        crate::audio::read_wav(tmp.path())
    }
}
