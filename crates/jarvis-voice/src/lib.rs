//! Jarvis's ears and voice: capture, VAD, speech to text, text to speech,
//! playback, and the coordinator that runs a spoken turn against the brain.
//! No GUI dependency; devices sit behind traits so tests can use files.

pub mod accuracy;
pub mod audio;
pub mod capture;
pub mod coordinator;
mod error;
pub mod models;
pub mod setup;
pub mod sink;
pub mod stt;
pub mod tts;
pub mod vad;

pub use error::VoiceError;
