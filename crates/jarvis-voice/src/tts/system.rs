//! The operating system's own voice: espeak-ng on Linux, `say` on macOS,
//! SAPI on Windows. Always there, fast, robotic.

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
        if super::espeak::available() {
            Ok(())
        } else {
            Err(VoiceError::EngineUnavailable {
                engine: "system (espeak-ng)".into(),
                reason: "espeak-ng is not installed (apt install espeak-ng)".into(),
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
        let wav = super::espeak::run(&["--stdout", "-v", &self.voice], text, "system (espeak-ng)")?;
        crate::audio::parse_streamed_wav(&wav)
    }

    #[cfg(target_os = "macos")]
    fn synthesize(&self, text: &str) -> Result<Pcm, VoiceError> {
        use std::process::Command;
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
        use std::io::Write;
        use std::process::{Command, Stdio};
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
