//! Conversation commands: send, cancel, approve, and the conversation list.

use jarvis_core::llm::ChatMessage;
use jarvis_protocol::{ApprovalDecision, Op};
use serde::Serialize;
use tauri::State;

use super::{IpcError, IpcResult};
use crate::Shell;
use crate::voice::VoiceStatus;

/// Everything the HUD needs to draw itself on start.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct HudState {
    pub views: Vec<String>,
    pub workdir: String,
    /// Why the tools cannot work in `workdir` (none chosen yet, home, …):
    /// the HUD asks for a folder.
    pub workdir_problem: Option<String>,
    /// The folder offered when one is asked for: `~/Jarvis`.
    pub suggested_workdir: String,
    /// What the brain has to say once (settings migrated from an older
    /// Jarvis): taken by the first call, so shown once.
    pub notices: Vec<String>,
    pub base_url: String,
    pub model: String,
    /// The key as it may be shown back: its last characters only.
    pub api_key: Option<String>,
    /// No settings saved yet: show the three-step setup.
    pub first_run: bool,
    pub shortcut: String,
    pub shortcut_problem: Option<String>,
    pub voice: VoiceStatus,
    pub engine: EngineStatus,
    /// Stop everything is holding the schedules: who stopped, and when (ms).
    pub stop_hold: Option<StopHold>,
}

#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct StopHold {
    pub by: String,
    pub at: i64,
}

/// Stop everything from the HUD: every turn and task, speech, and the
/// schedules until resumed.
#[tauri::command]
pub async fn stop_everything(shell: State<'_, Shell>) -> IpcResult<()> {
    shell.voice.stop();
    shell.brain.submit(jarvis_protocol::Op::StopEverything {
        by: "the HUD".into(),
    })?;
    Ok(())
}

#[tauri::command]
pub async fn resume_everything(shell: State<'_, Shell>) -> IpcResult<()> {
    shell.brain.submit(jarvis_protocol::Op::ResumeEverything)?;
    Ok(())
}

/// The embedded engine as Settings and the first run show it.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct EngineStatus {
    /// `embedded` or `endpoint`.
    pub provider: String,
    /// `llm.local_model` as set (a catalog id, a path, or empty: the default).
    pub local_model: String,
    /// The model file the engine would load, when there is one.
    pub model_file: Option<String>,
    /// Why the engine cannot start now (no model downloaded, …).
    pub problem: Option<String>,
    /// The context the engine runs with (tokens).
    pub context: u64,
    /// A worker is up and answering.
    pub running: bool,
    /// How fast the last answer came, as the engine measured it.
    pub speed: Option<EngineSpeed>,
    pub models: Vec<EngineModel>,
}

/// The engine's last answer: generation and prompt speed.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct EngineSpeed {
    pub model: String,
    pub tokens_per_second: f64,
    pub prompt_tokens_per_second: f64,
    pub tokens: u64,
    /// When the answer ended (ms since the epoch).
    pub at_ms: u64,
}

/// A chat model from the catalog.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct EngineModel {
    pub name: String,
    pub what: String,
    pub license: String,
    /// What the download fetches.
    pub bytes: u64,
    pub installed: bool,
    /// The one used when `llm.local_model` is empty.
    pub default: bool,
    /// Added by the user (`models/catalog.json`), not built in.
    pub user: bool,
}

fn engine_status(
    home: &std::path::Path,
    cfg: &jarvis_protocol::settings::LlmConfig,
) -> EngineStatus {
    use jarvis_core::models;
    let resolved = jarvis_core::llm::local::model_path(home, cfg);
    EngineStatus {
        provider: match cfg.provider {
            jarvis_protocol::settings::Provider::Embedded => "embedded",
            jarvis_protocol::settings::Provider::Endpoint => "endpoint",
        }
        .into(),
        local_model: cfg.local_model.clone(),
        model_file: resolved.as_ref().ok().map(|p| p.display().to_string()),
        problem: resolved.err().map(|e| e.to_string()),
        context: cfg.engine_window(),
        running: jarvis_core::llm::local::status(home).is_some(),
        speed: jarvis_core::llm::local::speed(home).map(|s| EngineSpeed {
            model: s.model,
            tokens_per_second: s.tokens_per_second,
            prompt_tokens_per_second: s.prompt_tokens_per_second,
            tokens: s.tokens,
            at_ms: s.at_ms,
        }),
        models: models::list(home)
            .into_iter()
            .filter(|m| m.kind == models::ModelKind::Language)
            .map(|m| EngineModel {
                default: m.default,
                user: m.user,
                name: m.name,
                what: m.what,
                license: m.license,
                bytes: m.approx_bytes,
                installed: m.installed,
            })
            .collect(),
    }
}

#[tauri::command]
pub async fn hud_state(shell: State<'_, Shell>) -> IpcResult<HudState> {
    let cfg = shell.brain.config();
    let llm = shell.brain.llm();
    let api_key = shell
        .secrets
        .get(jarvis_core::secrets::API_KEY)
        .ok()
        .flatten()
        .map(|k| k.masked());
    Ok(HudState {
        views: jarvis_protocol::VIEWS
            .iter()
            .map(|v| v.to_string())
            .collect(),
        workdir: shell.brain.workdir().display().to_string(),
        workdir_problem: shell.brain.workdir_problem(),
        notices: shell.brain.take_notices(),
        suggested_workdir: std::env::var_os("HOME")
            .map(|h| jarvis_core::agent::workdir::suggested(std::path::Path::new(&h)))
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        base_url: llm.settings().base_url.clone(),
        model: llm.settings().model.clone(),
        api_key,
        first_run: !shell.config_store().path().exists(),
        shortcut: cfg.voice.ptt_shortcut.clone(),
        shortcut_problem: shell.shortcut_problem.lock().ok().and_then(|p| p.clone()),
        voice: shell.voice.status(),
        engine: engine_status(&shell.home, &cfg.llm),
        stop_hold: shell
            .brain
            .stop_hold()
            .ok()
            .flatten()
            .map(|(at, by)| StopHold { by, at }),
    })
}

/// The HUD drew its first frame: logged with the time since the process
/// started (the startup benchmark reads it).
#[tauri::command]
pub async fn hud_painted() -> IpcResult<()> {
    log_first_paint();
    Ok(())
}

/// The HUD drew the brain's state: the rest of the app starts now.
#[tauri::command]
pub async fn hud_ready(app: tauri::AppHandle) -> IpcResult<()> {
    if let Some(t) = crate::STARTED.get() {
        tracing::info!("HUD ready {} ms after start", t.elapsed().as_millis());
    }
    crate::shell::hud_ready(&app);
    crate::memory::trim_later(crate::memory::AFTER_START);
    Ok(())
}

/// The line the start-up benchmark waits for, the app's and the bare
/// window's alike.
pub(crate) fn log_first_paint() {
    if let Some(t) = crate::STARTED.get() {
        tracing::info!("HUD first paint {} ms after start", t.elapsed().as_millis());
    }
}

#[tauri::command]
pub async fn send_message(
    shell: State<'_, Shell>,
    session_id: String,
    text: String,
) -> IpcResult<()> {
    if text.trim().is_empty() {
        return Err(IpcError::Invalid("the message is empty".into()));
    }
    shell.brain.submit(Op::UserInput { session_id, text })?;
    Ok(())
}

#[tauri::command]
pub async fn cancel_turn(shell: State<'_, Shell>, session_id: String) -> IpcResult<()> {
    shell.brain.submit(Op::CancelTurn { session_id })?;
    Ok(())
}

#[tauri::command]
pub async fn decide_approval(
    shell: State<'_, Shell>,
    request_id: String,
    decision: ApprovalDecision,
) -> IpcResult<()> {
    shell.brain.submit(Op::ApprovalDecision {
        request_id,
        decision,
        decided_by: "hud".into(),
    })?;
    Ok(())
}

#[tauri::command]
pub async fn sessions(shell: State<'_, Shell>) -> IpcResult<Vec<jarvis_core::store::SessionInfo>> {
    Ok(shell.brain.sessions()?)
}

/// One stored message with the turn it belongs to.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct HistoryMessage {
    pub turn_id: String,
    #[serde(flatten)]
    pub message: ChatMessage,
}

/// The stored messages of a session, each with its turn.
#[tauri::command]
pub async fn session_history(
    shell: State<'_, Shell>,
    session_id: String,
) -> IpcResult<Vec<HistoryMessage>> {
    Ok(shell
        .brain
        .session_messages(&session_id)?
        .into_iter()
        .map(|m| HistoryMessage {
            turn_id: m.turn_id,
            message: m.message,
        })
        .collect())
}

#[tauri::command]
pub async fn rename_session(
    shell: State<'_, Shell>,
    session_id: String,
    title: String,
) -> IpcResult<()> {
    let title = title.trim();
    if title.is_empty() {
        return Err(IpcError::Invalid("a conversation needs a title".into()));
    }
    Ok(shell.brain.rename_session(&session_id, title)?)
}

#[tauri::command]
pub async fn delete_session(shell: State<'_, Shell>, session_id: String) -> IpcResult<()> {
    if shell.brain.is_running(&session_id) {
        return Err(IpcError::Invalid(
            "this conversation is running a turn; cancel it first".into(),
        ));
    }
    Ok(shell.brain.delete_session(&session_id)?)
}
