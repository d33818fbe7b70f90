//! Undo from the HUD: the files a conversation's turns changed, and taking
//! a turn's or a task's changes back (the brain does it, and audits it).

use jarvis_core::undo::UndoScope;
use jarvis_protocol::{ChangeInfo, UndoReport};
use tauri::State;

use super::IpcResult;
use crate::Shell;

#[tauri::command]
pub async fn session_changes(
    shell: State<'_, Shell>,
    session_id: String,
) -> IpcResult<Vec<ChangeInfo>> {
    Ok(shell.brain.session_changes(&session_id)?)
}

#[tauri::command]
pub async fn undo_turn(shell: State<'_, Shell>, turn_id: String) -> IpcResult<UndoReport> {
    Ok(shell.brain.undo(&UndoScope::Turn(turn_id), "the HUD")?)
}

#[tauri::command]
pub async fn undo_task(shell: State<'_, Shell>, id: String) -> IpcResult<UndoReport> {
    Ok(shell.brain.undo(&UndoScope::Task(id), "the HUD")?)
}
