use std::path::PathBuf;

/// Everything that can go wrong between a microphone and a speaker.
#[derive(Debug, thiserror::Error)]
pub enum VoiceError {
    #[error("no microphone: {0}")]
    NoInput(String),
    #[error("audio device error: {0}")]
    Device(String),
    #[error("cannot read audio {path}: {reason}")]
    BadAudio { path: PathBuf, reason: String },
    #[error("audio is empty")]
    EmptyAudio,
    #[error("resampling {from} Hz to {to} Hz failed: {reason}")]
    Resample { from: u32, to: u32, reason: String },
    #[error("VAD: {0}")]
    Vad(String),
    #[error("model not found at {path}: {hint}")]
    ModelMissing { path: PathBuf, hint: String },
    #[error("cannot load model {path}: {reason}")]
    ModelLoad { path: PathBuf, reason: String },
    #[error("speech recognition failed: {0}")]
    Stt(String),
    #[error("speech synthesis failed: {0}")]
    Tts(String),
    #[error("{engine} is not available: {reason}")]
    EngineUnavailable { engine: String, reason: String },
    #[error(transparent)]
    Model(#[from] jarvis_core::models::ModelError),
    #[error("voice turn cancelled")]
    Cancelled,
    #[error("brain: {0}")]
    Brain(String),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}
