//! Self-evolution from the HUD: skill proposals (review, then apply),
//! what Jarvis remembers (read, edit, delete everything), and its account
//! of itself. Every change goes through the brain, which audits it.

use jarvis_protocol::evolve::{MemoryItem, MemoryList, ProposalInfo, ReflectReport};
use tauri::State;

use super::IpcResult;
use crate::Shell;

const BY: &str = "the user (the HUD)";

#[tauri::command]
pub async fn proposals(shell: State<'_, Shell>) -> IpcResult<Vec<ProposalInfo>> {
    Ok(shell.brain.proposals()?)
}

#[tauri::command]
pub async fn proposal(shell: State<'_, Shell>, id: String) -> IpcResult<ProposalInfo> {
    Ok(shell.brain.proposal(&id)?)
}

/// Drafts the skill for review (one model request); nothing is installed.
#[tauri::command]
pub async fn accept_proposal(shell: State<'_, Shell>, id: String) -> IpcResult<ProposalInfo> {
    Ok(shell.brain.accept_proposal(&id).await?)
}

#[tauri::command]
pub async fn apply_proposal(shell: State<'_, Shell>, id: String) -> IpcResult<String> {
    Ok(shell.brain.apply_proposal(&id, BY)?.display().to_string())
}

#[tauri::command]
pub async fn dismiss_proposal(shell: State<'_, Shell>, id: String) -> IpcResult<()> {
    Ok(shell.brain.dismiss_proposal(&id, BY)?)
}

/// Undoes an apply: the skill to the trash, the one it replaced back.
#[tauri::command]
pub async fn rollback_proposal(shell: State<'_, Shell>, id: String) -> IpcResult<String> {
    Ok(shell
        .brain
        .rollback_proposal(&id, BY)?
        .display()
        .to_string())
}

#[tauri::command]
pub async fn memory(shell: State<'_, Shell>) -> IpcResult<MemoryList> {
    Ok(shell.brain.memory()?)
}

#[tauri::command]
pub async fn memory_add(
    shell: State<'_, Shell>,
    text: String,
    kind: String,
) -> IpcResult<MemoryItem> {
    Ok(shell.brain.memory_add(&text, &kind, BY)?)
}

#[tauri::command]
pub async fn memory_edit(
    shell: State<'_, Shell>,
    id: String,
    text: String,
) -> IpcResult<MemoryItem> {
    Ok(shell.brain.memory_edit(&id, &text, BY)?)
}

#[tauri::command]
pub async fn memory_forget(shell: State<'_, Shell>, id: String) -> IpcResult<MemoryItem> {
    Ok(shell.brain.memory_forget(&id, BY)?)
}

#[tauri::command]
pub async fn memory_confirm(shell: State<'_, Shell>, id: String) -> IpcResult<MemoryItem> {
    Ok(shell.brain.memory_confirm(&id, BY)?)
}

#[tauri::command]
pub async fn reflect(shell: State<'_, Shell>) -> IpcResult<ReflectReport> {
    Ok(shell.brain.reflect()?)
}
