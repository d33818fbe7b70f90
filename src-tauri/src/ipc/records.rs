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
    Ok(shell.brain.audit(
        limit.unwrap_or(500).min(jarvis_core::agent::MAX_AUDIT_PAGE),
        tool.as_deref(),
    )?)
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
        .grants()?
        .into_iter()
        .map(|(tool, scope)| Grant { tool, scope })
        .collect())
}

#[tauri::command]
pub async fn revoke_grant(shell: State<'_, Shell>, tool: String, scope: String) -> IpcResult<bool> {
    Ok(shell.brain.revoke_grant(&tool, &scope)?)
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

/// A page of conversations (newest first), each with its turns and its
/// latest calls; the view asks for the next page as it scrolls.
#[tauri::command]
pub async fn runs(
    shell: State<'_, Shell>,
    limit: Option<usize>,
    offset: Option<usize>,
) -> IpcResult<Vec<Run>> {
    let mut out = Vec::new();
    for s in shell
        .brain
        .sessions()?
        .into_iter()
        .skip(offset.unwrap_or(0))
        .take(limit.unwrap_or(50).min(200))
    {
        out.push(Run {
            turns: shell.brain.turn_usage(&s.id)?,
            calls: shell.brain.session_audit(&s.id, 200)?,
            session_id: s.id,
            title: s.title,
            updated_at: s.updated_at,
        });
    }
    Ok(out)
}
