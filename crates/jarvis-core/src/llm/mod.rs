//! The OpenAI-compatible chat-completions client.

mod assemble;
mod client;
mod error;
pub mod local;

pub use assemble::{Assembled, StreamAssembler, StreamDelta};
pub use client::{LegacyErrorScanner, LlmClient, LlmSettings, ModelInfo, Secret, assemble_stream};
pub use error::LlmError;
pub use jarvis_protocol::chat::{ChatMessage, Role, ToolCall};
