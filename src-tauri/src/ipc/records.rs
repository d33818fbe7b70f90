//! What the agent did: runs, the audit and the standing grants.

use jarvis_core::store::{AuditRow, TurnUsage};
use serde::Serialize;
use tauri::State;

use super::IpcResult;
use crate::Shell;

#[tauri::command]
pub async fn audit(
    shell: State<'_, Shell>,
    limit: Option<usize>,
    tool: Option<String>,
) -> IpcResult<Vec<AuditRow>> {
    let tool = tool.filter(|t| !t.is_empty());
    Ok(shell
        .brain
        .store()
        .audit(limit.unwrap_or(500).min(5000), tool.as_deref())?)
}

#[derive(Debug, Serialize, ts_rs::TS)]
pub struct Grant {
    pub tool: String,
    pub scope: String,
}

#[tauri::command]
pub async fn grants(shell: State<'_, Shell>) -> IpcResult<Vec<Grant>> {
    Ok(shell
        .brain
        .store()
        .grants()?
        .into_iter()
        .map(|(tool, scope)| Grant { tool, scope })
        .collect())
}

#[tauri::command]
pub async fn revoke_grant(shell: State<'_, Shell>, tool: String, scope: String) -> IpcResult<bool> {
    Ok(shell.brain.store().revoke_grant(&tool, &scope)?)
}

/// One conversation's turns and the tool calls they made.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct Run {
    pub session_id: String,
    pub title: String,
    pub updated_at: i64,
    pub turns: Vec<TurnUsage>,
    pub calls: Vec<AuditRow>,
}

#[tauri::command]
pub async fn runs(shell: State<'_, Shell>, limit: Option<usize>) -> IpcResult<Vec<Run>> {
    let store = shell.brain.store();
    let calls = store.audit(5000, None)?;
    let mut out = Vec::new();
    for s in shell
        .brain
        .sessions()?
        .into_iter()
        .take(limit.unwrap_or(50))
    {
        out.push(Run {
            turns: store.turn_usage(&s.id)?,
            calls: calls
                .iter()
                .filter(|c| c.session_id.as_deref() == Some(s.id.as_str()))
                .cloned()
                .collect(),
            session_id: s.id,
            title: s.title,
            updated_at: s.updated_at,
        });
    }
    Ok(out)
}
