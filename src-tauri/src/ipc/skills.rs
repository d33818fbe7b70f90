//! Skills: list, enable/disable, delete, and the two-step install of a
//! dropped folder or `.zip` (report first, install on confirm).

use std::path::PathBuf;

use jarvis_core::SkillListing;
use jarvis_core::skills::install::{self, InstallReport};
use jarvis_core::skills::manage;
use serde::Serialize;
use tauri::State;

use super::{IpcError, IpcResult};
use crate::Shell;

#[tauri::command]
pub async fn skills(shell: State<'_, Shell>) -> IpcResult<Vec<SkillListing>> {
    Ok(shell.brain.skill_listing()?)
}

#[tauri::command]
pub async fn set_skill_enabled(
    shell: State<'_, Shell>,
    name: String,
    enabled: bool,
) -> IpcResult<()> {
    Ok(shell.brain.set_skill_enabled(&name, enabled)?)
}

/// Moves the skill to the trash (it can be restored with `jarvis skill restore`).
#[tauri::command]
pub async fn delete_skill(shell: State<'_, Shell>, name: String) -> IpcResult<String> {
    let to = shell
        .brain
        .delete_skill(&name)
        .map_err(|e| IpcError::Skill(e.to_string()))?;
    Ok(to.display().to_string())
}

/// Validates and scans an installed skill now.
#[tauri::command]
pub async fn test_skill(shell: State<'_, Shell>, name: String) -> IpcResult<manage::SkillTest> {
    manage::test(&shell.brain.skills(), &name).map_err(|e| IpcError::Skill(e.to_string()))
}

#[derive(Debug, Serialize, ts_rs::TS)]
pub struct Inspection {
    /// Pass back to `install_skill` to confirm.
    pub token: String,
    pub report: InstallReport,
}

/// Stages, validates and scans; nothing is installed yet.
#[tauri::command]
pub async fn inspect_skill(shell: State<'_, Shell>, path: String) -> IpcResult<Inspection> {
    let home = shell.home.clone();
    let staged =
        tauri::async_runtime::spawn_blocking(move || install::inspect(&PathBuf::from(path), &home))
            .await
            .map_err(|e| IpcError::Skill(e.to_string()))?
            .map_err(|e| IpcError::Skill(e.to_string()))?;
    let token = uuid::Uuid::new_v4().to_string();
    let report = staged.report.clone();
    if let Ok(mut s) = shell.staged.lock() {
        s.insert(token.clone(), staged);
    }
    Ok(Inspection { token, report })
}

/// The user confirmed the report: install (replacing or despite findings
/// only with `force`).
#[tauri::command]
pub async fn install_skill(
    shell: State<'_, Shell>,
    token: String,
    force: bool,
) -> IpcResult<String> {
    let staged = shell
        .staged
        .lock()
        .ok()
        .and_then(|mut s| s.remove(&token))
        .ok_or_else(|| {
            IpcError::Invalid("that install report has expired; drop the skill again".into())
        })?;
    let to = shell
        .brain
        .install_skill(staged, force)
        .map_err(|e| IpcError::Skill(e.to_string()))?;
    Ok(to.display().to_string())
}

#[tauri::command]
pub async fn discard_skill(shell: State<'_, Shell>, token: String) -> IpcResult<()> {
    if let Ok(mut s) = shell.staged.lock() {
        s.remove(&token);
    }
    Ok(())
}
