//! The trust settings that need more than one config key: the working
//! folder (judged, created, saved by the brain), the sandbox's state, and
//! MCP projects the user registers after reading their server file.

use jarvis_core::tools::mcp_projects::{self, McpProject};
use serde::Serialize;
use tauri::State;

use super::{IpcError, IpcResult};
use crate::Shell;

/// Makes `path` the working folder (created when missing), or says why not.
#[tauri::command]
pub async fn choose_workdir(shell: State<'_, Shell>, path: String) -> IpcResult<String> {
    let path = path.trim();
    let expanded = match path.strip_prefix("~/") {
        Some(rest) => std::env::var_os("HOME")
            .map(std::path::PathBuf::from)
            .unwrap_or_default()
            .join(rest),
        None => std::path::PathBuf::from(path),
    };
    let wd = shell.brain.choose_workdir(&expanded)?;
    Ok(wd.display().to_string())
}

/// What confines commands here, in one line, and whether it holds.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct SandboxStatus {
    pub ok: bool,
    pub what: String,
    /// `sandbox.allow_unconfined`: shown in red wherever it is on.
    pub allow_unconfined: bool,
}

#[tauri::command]
pub async fn sandbox_status(shell: State<'_, Shell>) -> IpcResult<SandboxStatus> {
    let sb = shell.brain.exec_sandbox();
    let (ok, what) = jarvis_core::tools::sandbox_report(&sb);
    Ok(SandboxStatus {
        ok,
        what,
        allow_unconfined: sb.allow_unconfined,
    })
}

#[tauri::command]
pub async fn mcp_projects(shell: State<'_, Shell>) -> IpcResult<Vec<McpProject>> {
    Ok(mcp_projects::projects(&shell.home, &shell.config_store()))
}

/// Registers the project `name` from Jarvis's MCP folder (the HUD showed its
/// whole server file): untrusted and without network, as `jarvis mcp add`.
#[tauri::command]
pub async fn register_mcp(shell: State<'_, Shell>, name: String) -> IpcResult<()> {
    let dir = mcp_projects::projects_dir(&shell.home).join(&name);
    shell
        .brain
        .register_mcp(&name, &dir, false, false)
        .map_err(|e| IpcError::Invalid(e.to_string()))?;
    shell.brain.refresh_mcp().await;
    Ok(())
}
