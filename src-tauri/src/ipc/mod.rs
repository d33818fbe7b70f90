//! The HUD's commands: thin, typed, each one call into the brain or a
//! manager. Errors cross as `{ kind, message }`, never as bare strings.

mod chat;
mod records;
mod settings;
mod skills;
mod voice;

use serde::Serialize;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum IpcError {
    #[error("{0}")]
    Brain(#[from] jarvis_core::BrainError),
    #[error("{0}")]
    Config(#[from] jarvis_core::config::ConfigError),
    #[error("{0}")]
    Store(#[from] jarvis_core::store::StoreError),
    #[error("{0}")]
    Skill(String),
    #[error("{0}")]
    Secret(#[from] jarvis_core::secrets::SecretError),
    #[error("{0}")]
    Llm(#[from] jarvis_core::llm::LlmError),
    #[error("{0}")]
    Voice(#[from] jarvis_voice::VoiceError),
    #[error("{0}")]
    Invalid(String),
}

impl IpcError {
    fn kind(&self) -> &'static str {
        match self {
            IpcError::Brain(_) => "brain",
            IpcError::Config(_) => "config",
            IpcError::Store(_) => "store",
            IpcError::Skill(_) => "skill",
            IpcError::Secret(_) => "secret",
            IpcError::Llm(_) => "llm",
            IpcError::Voice(_) => "voice",
            IpcError::Invalid(_) => "invalid",
        }
    }
}

impl Serialize for IpcError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("IpcError", 2)?;
        st.serialize_field("kind", self.kind())?;
        st.serialize_field("message", &self.to_string())?;
        st.end()
    }
}

pub type IpcResult<T> = Result<T, IpcError>;

pub fn handler() -> impl Fn(tauri::ipc::Invoke<tauri::Wry>) -> bool + Send + Sync + 'static {
    tauri::generate_handler![
        chat::hud_state,
        chat::hud_painted,
        chat::send_message,
        chat::cancel_turn,
        chat::decide_approval,
        chat::sessions,
        chat::session_history,
        chat::rename_session,
        chat::delete_session,
        records::audit,
        records::grants,
        records::revoke_grant,
        records::runs,
        settings::config,
        settings::set_config,
        settings::test_connection,
        settings::set_api_key,
        settings::delete_api_key,
        skills::skills,
        skills::set_skill_enabled,
        skills::delete_skill,
        skills::inspect_skill,
        skills::install_skill,
        skills::discard_skill,
        voice::voice_status,
        voice::voice_press,
        voice::voice_release,
        voice::voice_stop,
        voice::install_model,
    ]
}
