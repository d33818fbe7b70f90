//! Background tasks and what Jarvis says about them unprompted.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{Origin, Usage};

/// Where a task is: `queued → running →` one of the final states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    Queued,
    Running,
    Succeeded,
    Failed,
    TimedOut,
    Cancelled,
    /// It met something only a person could approve; see `needs`.
    NeedsApproval,
    /// Refused before it ran (over the budget, a run that may not start tasks).
    Refused,
    /// It was running when its process died; never re-run by itself.
    Lost,
}

impl TaskStatus {
    pub const ALL: [TaskStatus; 9] = [
        TaskStatus::Queued,
        TaskStatus::Running,
        TaskStatus::Succeeded,
        TaskStatus::Failed,
        TaskStatus::TimedOut,
        TaskStatus::Cancelled,
        TaskStatus::NeedsApproval,
        TaskStatus::Refused,
        TaskStatus::Lost,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Queued => "queued",
            TaskStatus::Running => "running",
            TaskStatus::Succeeded => "succeeded",
            TaskStatus::Failed => "failed",
            TaskStatus::TimedOut => "timed_out",
            TaskStatus::Cancelled => "cancelled",
            TaskStatus::NeedsApproval => "needs_approval",
            TaskStatus::Refused => "refused",
            TaskStatus::Lost => "lost",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }

    pub fn is_final(self) -> bool {
        !matches!(self, TaskStatus::Queued | TaskStatus::Running)
    }
}

/// When Jarvis speaks up about a task.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum NotifyPolicy {
    /// Once, when it ends.
    #[default]
    DoneOnly,
    /// When it starts and when it ends.
    StateChanges,
    Silent,
}

impl NotifyPolicy {
    pub fn as_str(self) -> &'static str {
        match self {
            NotifyPolicy::DoneOnly => "done_only",
            NotifyPolicy::StateChanges => "state_changes",
            NotifyPolicy::Silent => "silent",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [
            NotifyPolicy::DoneOnly,
            NotifyPolicy::StateChanges,
            NotifyPolicy::Silent,
        ]
        .into_iter()
        .find(|p| p.as_str() == s)
    }
}

/// One task, as `jarvis tasks list --json` and the HUD show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct TaskInfo {
    pub id: String,
    /// Where it was started from (chat, voice, schedule, cli).
    pub origin: Origin,
    pub schedule_id: Option<String>,
    /// The user's words, verbatim.
    pub instruction: String,
    pub status: TaskStatus,
    /// The task's own conversation.
    pub session_id: String,
    /// The conversation that started it, if any: where its chat line goes.
    pub parent_session: Option<String>,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    /// A line or two from its answer.
    pub summary: Option<String>,
    /// Why it ended as it did, when not plainly.
    pub reason: Option<String>,
    pub usage: Usage,
    /// The Markdown report it wrote, when one was asked for.
    pub report: Option<String>,
    /// What it may do without a question (approved when it was started).
    pub allow: Vec<String>,
    /// Kinds of call that were refused because nobody could approve them.
    pub needs: Vec<String>,
    pub notify: NotifyPolicy,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    Low,
    #[default]
    Normal,
    High,
}

impl Priority {
    /// The stored name (`low`, `normal`, `high`); anything else is normal.
    pub fn from_name(name: &str) -> Self {
        match name {
            "low" => Priority::Low,
            "high" => Priority::High,
            _ => Priority::Normal,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Priority::Low => "low",
            Priority::Normal => "normal",
            Priority::High => "high",
        }
    }
}

/// Something Jarvis said of its own accord (a finished task, a hub note),
/// as the Cockpit lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct AnnouncementInfo {
    pub id: String,
    pub text: String,
    pub task_id: Option<String>,
    pub priority: Priority,
    /// When it was said (ms).
    pub at: i64,
}

/// Today's model use against the caps (`jarvis budget --json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct BudgetReport {
    /// The local date (`2026-12-01`) in `tz`.
    pub day: String,
    pub tz: String,
    pub tokens: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// Of `tokens`, what was estimated from the text (the server reported none).
    pub estimated_tokens: u64,
    pub cost_usd: f64,
    pub requests: u64,
    /// 0: no cap.
    pub daily_tokens: u64,
    pub daily_cost_usd: f64,
    /// Tokens by who asked (chat, voice, task, schedule, …).
    pub by_origin: Vec<(String, u64)>,
}
