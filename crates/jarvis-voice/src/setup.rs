//! Building the voice parts from the user's settings and `$JARVIS_HOME`,
//! the same way for the CLI and the desktop app.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use jarvis_core::config::VoiceSettings;

use crate::VoiceError;
use crate::models::model_path;
use crate::stt::{SttConfig, WhisperTranscriber};
use crate::tts::{EngineChoice, Speaker, TtsConfig, open_speaker};
use crate::vad::SileroVad;

/// Where ONNX Runtime may be besides ORT_DYLIB_PATH: `$JARVIS_HOME/lib`.
pub fn runtime_dirs(home: &Path) -> Vec<PathBuf> {
    vec![home.join("lib")]
}

pub fn transcriber(
    home: &Path,
    settings: &VoiceSettings,
) -> Result<Arc<WhisperTranscriber>, VoiceError> {
    let mut cfg = SttConfig::new(model_path(home, "whisper-tiny.en")?);
    cfg.language = settings.language.clone();
    cfg.idle_unload = Duration::from_secs(settings.stt_idle_unload_sec.max(1));
    let t = Arc::new(WhisperTranscriber::new(cfg)?);
    t.spawn_idle_reaper();
    Ok(t)
}

pub fn silero(home: &Path) -> Result<Arc<SileroVad>, VoiceError> {
    Ok(Arc::new(SileroVad::load(&model_path(home, "silero-vad")?)?))
}

/// The speaker the settings ask for; `engine` overrides the setting.
pub fn speaker(
    home: &Path,
    settings: &VoiceSettings,
    engine: Option<&str>,
) -> Result<Arc<dyn Speaker>, VoiceError> {
    let choice: EngineChoice = engine.unwrap_or(&settings.engine).parse()?;
    open_speaker(&TtsConfig {
        engine: choice,
        piper_voice: model_path(home, "piper-joe")?,
        language: settings.language.clone(),
        runtime_dirs: runtime_dirs(home),
    })
}
