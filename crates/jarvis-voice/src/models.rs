//! The model manager lives in the brain, shared with the embedded engine's
//! models; voice uses it from here.

pub use jarvis_core::models::*;
