//! The HUD's commands: thin, typed, each one call into the brain or a
//! manager. Errors cross as `{ kind, message }`, never as bare strings.

mod chat;
mod evolve;
mod hub;
mod records;
mod safety;
mod settings;
mod skills;
mod undo;
mod voice;

pub(crate) use chat::log_first_paint;

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
    Model(#[from] jarvis_core::models::ModelError),
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
            IpcError::Model(_) => "model",
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

/// The TypeScript types of what the commands return (`ui/src/ipc.ts`),
/// generated like the wire types so the HUD never restates them.
pub fn typescript() -> String {
    use ts_rs::TS;
    let cfg = jarvis_protocol::ts_config();
    let decls = [
        chat::HudState::decl(&cfg),
        chat::EngineStatus::decl(&cfg),
        chat::StopHold::decl(&cfg),
        hub::CockpitState::decl(&cfg),
        chat::EngineModel::decl(&cfg),
        chat::EngineSpeed::decl(&cfg),
        crate::voice::VoiceStatus::decl(&cfg),
        crate::voice::ModelRow::decl(&cfg),
        chat::HistoryMessage::decl(&cfg),
        records::Grant::decl(&cfg),
        records::Run::decl(&cfg),
        skills::Inspection::decl(&cfg),
        settings::Connection::decl(&cfg),
        safety::SandboxStatus::decl(&cfg),
        voice::ModelProgress::decl(&cfg),
    ];
    // The brain's own types come from protocol.ts; re-exported so views
    // import every command's types from one module.
    let shared = "AnnouncementInfo, AuditRow, BudgetReport, ChangeInfo, ChatMessage, Config, Finding, InstallReport, McpProject, Role, RunInfo, SessionInfo, Skill, SkillListing, SkillTest, ToolCall, TurnUsage, UndoReport";
    jarvis_protocol::ts_module(
        "the Rust types",
        "cargo run -p jarvis-desktop --example ipc-types --features tauri/custom-protocol",
        &format!(
            "import type {{ {shared}, VoiceState }} from \"./protocol\";\nexport type {{ {shared} }};\nexport type {{ Approvals, LlmConfig, McpServerConfig, Persona, Retention, SandboxConfig, SkillsConfig, TasksConfig, ToolToggles, VoiceSettings }} from \"./protocol\";\n"
        ),
        decls,
    )
}

pub fn handler() -> impl Fn(tauri::ipc::Invoke<tauri::Wry>) -> bool + Send + Sync + 'static {
    tauri::generate_handler![
        chat::hud_state,
        chat::hud_painted,
        chat::hud_ready,
        chat::send_message,
        chat::cancel_turn,
        chat::stop_everything,
        chat::resume_everything,
        hub::cockpit,
        hub::budget,
        evolve::proposals,
        evolve::proposal,
        evolve::accept_proposal,
        evolve::apply_proposal,
        evolve::dismiss_proposal,
        evolve::rollback_proposal,
        evolve::memory,
        evolve::memory_add,
        evolve::memory_edit,
        evolve::memory_forget,
        evolve::memory_confirm,
        evolve::reflect,
        hub::tasks,
        undo::session_changes,
        undo::undo_turn,
        undo::undo_task,
        hub::cancel_task,
        hub::retry_task,
        hub::schedules,
        hub::pause_schedule,
        hub::run_schedule_now,
        hub::cancel_schedule,
        hub::edit_schedule,
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
        safety::choose_workdir,
        safety::sandbox_status,
        safety::mcp_projects,
        safety::register_mcp,
        skills::skills,
        skills::set_skill_enabled,
        skills::delete_skill,
        skills::test_skill,
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

#[cfg(test)]
mod tests {
    #[test]
    fn the_huds_command_types_are_generated_from_these() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/src/ipc.ts");
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == super::typescript(),
            "{} is out of date: run `cargo run -p jarvis-desktop --example ipc-types --features tauri/custom-protocol`",
            path.display()
        );
    }
}
