//! Text to speech behind [`Speaker`]: a neural Piper voice when installed,
//! the system voice otherwise.

mod espeak;
mod piper;
mod sentences;
mod system;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use piper::{PiperVoice, load_onnx_runtime, onnx_runtime_candidates};
pub use sentences::{SentenceSplitter, split_sentences};
pub use system::SystemVoice;

use crate::VoiceError;
use crate::audio::Pcm;

/// Speaks text into PCM at the engine's own rate.
pub trait Speaker: Send + Sync {
    /// "piper" or "system".
    fn engine(&self) -> &'static str;
    fn synthesize(&self, text: &str) -> Result<Pcm, VoiceError>;
}

/// Which engine the user asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineChoice {
    /// Piper when its voice and ONNX Runtime are there, else the system voice.
    Auto,
    Piper,
    System,
}

impl std::str::FromStr for EngineChoice {
    type Err = VoiceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(Self::Auto),
            "piper" => Ok(Self::Piper),
            "system" => Ok(Self::System),
            other => Err(VoiceError::EngineUnavailable {
                engine: other.into(),
                reason: "engines are auto, piper and system".into(),
            }),
        }
    }
}

/// Where Piper looks for its voice and runtime.
#[derive(Debug, Clone)]
pub struct TtsConfig {
    pub engine: EngineChoice,
    pub piper_voice: PathBuf,
    pub language: String,
    /// Extra places to find libonnxruntime (besides ORT_DYLIB_PATH).
    pub runtime_dirs: Vec<PathBuf>,
}

/// Build the speaker the settings ask for. `Auto` falls back to the system
/// voice, and says why in the log; an explicit choice fails loudly.
pub fn open_speaker(cfg: &TtsConfig) -> Result<Arc<dyn Speaker>, VoiceError> {
    let piper = || -> Result<Arc<dyn Speaker>, VoiceError> {
        Ok(Arc::new(PiperVoice::load(
            &cfg.piper_voice,
            &cfg.runtime_dirs,
        )?))
    };
    match cfg.engine {
        EngineChoice::Piper => piper(),
        EngineChoice::System => Ok(Arc::new(SystemVoice::for_language(&cfg.language)?)),
        EngineChoice::Auto => {
            let piper_fits = cfg.language == "auto" || cfg.language.starts_with("en");
            if piper_fits {
                match piper() {
                    Ok(s) => return Ok(s),
                    Err(e) => {
                        tracing::info!("Piper voice unavailable, using the system voice: {e}")
                    }
                }
            }
            Ok(Arc::new(SystemVoice::for_language(&cfg.language)?))
        }
    }
}

/// Is this a file path a voice could be at?
pub fn voice_json(onnx: &Path) -> PathBuf {
    let mut s = onnx.as_os_str().to_os_string();
    s.push(".json");
    PathBuf::from(s)
}
