//! The hub's views: tasks and schedules, and what the user may do to them.
//! Every change goes through the brain (the only writer); the views follow
//! `task_changed` and `schedule_changed` events, with no polling.

use jarvis_protocol::{AnnouncementInfo, BudgetReport, RunInfo, ScheduleInfo, TaskInfo, When};
use serde::Serialize;
use tauri::State;

use super::{IpcError, IpcResult};
use crate::Shell;

/// What the Cockpit opens with; it follows the event stream from there.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct CockpitState {
    /// Turns and tasks running now, oldest first, each with its tool in flight.
    pub runs: Vec<RunInfo>,
    pub budget: BudgetReport,
    /// The latest things Jarvis said of its own accord, newest first.
    pub announcements: Vec<AnnouncementInfo>,
}

/// How many announcements the Cockpit lists.
const ANNOUNCEMENTS: usize = 8;

#[tauri::command]
pub async fn cockpit(shell: State<'_, Shell>) -> IpcResult<CockpitState> {
    Ok(CockpitState {
        runs: shell.brain.snapshot().runs,
        budget: shell.brain.budget()?,
        announcements: shell.brain.announcements(ANNOUNCEMENTS)?,
    })
}

/// Today's model use against the caps: read again after a turn or task ends.
#[tauri::command]
pub async fn budget(shell: State<'_, Shell>) -> IpcResult<BudgetReport> {
    Ok(shell.brain.budget()?)
}

/// Recent tasks, newest first.
#[tauri::command]
pub async fn tasks(shell: State<'_, Shell>, limit: Option<usize>) -> IpcResult<Vec<TaskInfo>> {
    Ok(shell.brain.tasks(limit.unwrap_or(100).min(1000), 0)?)
}

#[tauri::command]
pub async fn cancel_task(shell: State<'_, Shell>, id: String) -> IpcResult<TaskInfo> {
    Ok(shell.brain.cancel_task(&id)?)
}

/// Runs a `needs_approval` (or failed) task again with `allow` granted up
/// front: the HUD shows what it will allow before the user clicks.
#[tauri::command]
pub async fn retry_task(
    shell: State<'_, Shell>,
    id: String,
    allow: Vec<String>,
) -> IpcResult<TaskInfo> {
    const KINDS: &[&str] = &["write", "exec", "network", "mcp"];
    if let Some(k) = allow.iter().find(|k| !KINDS.contains(&k.as_str())) {
        return Err(IpcError::Invalid(format!(
            "{k:?} is not something a task can be allowed (write, exec, network, mcp)"
        )));
    }
    Ok(shell.brain.retry_task(&id, allow)?)
}

#[tauri::command]
pub async fn schedules(shell: State<'_, Shell>) -> IpcResult<Vec<ScheduleInfo>> {
    Ok(shell.brain.schedules()?)
}

#[tauri::command]
pub async fn pause_schedule(
    shell: State<'_, Shell>,
    id: String,
    paused: bool,
) -> IpcResult<ScheduleInfo> {
    Ok(shell.brain.pause_schedule(&id, paused)?)
}

#[tauri::command]
pub async fn run_schedule_now(shell: State<'_, Shell>, id: String) -> IpcResult<TaskInfo> {
    Ok(shell.brain.run_schedule_now(&id)?)
}

#[tauri::command]
pub async fn cancel_schedule(shell: State<'_, Shell>, id: String) -> IpcResult<ScheduleInfo> {
    Ok(shell.brain.cancel_schedule(&id)?)
}

/// A new instruction (kept verbatim) and, when given, a new time; the next
/// slot is worked out again, and a time that cannot be read is refused.
#[tauri::command]
pub async fn edit_schedule(
    shell: State<'_, Shell>,
    id: String,
    instruction: String,
    when: Option<When>,
) -> IpcResult<ScheduleInfo> {
    let instruction = instruction.trim().to_string();
    if instruction.is_empty() {
        return Err(IpcError::Invalid("a schedule needs an instruction".into()));
    }
    Ok(shell
        .brain
        .edit_schedule(&id, Some(instruction), when, None)?)
}
