//! The embedded engine, as a worker process: llama.cpp behind the OpenAI
//! chat API on loopback, so the rest of Jarvis talks to it as to any
//! server. It is not linked into the app: whisper's ggml and llama's ggml
//! clash in one binary, and an abort in ggml must not take the app down.

pub mod api;
pub mod engine;
pub mod grammar;
pub mod llama3;
pub mod server;
pub mod template;
pub mod toolcall;
