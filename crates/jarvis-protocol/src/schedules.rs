//! Schedules: an instruction stored verbatim and when to run it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::NotifyPolicy;

/// When a schedule runs, in its time zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum When {
    /// Once, at an RFC 3339 instant (`2026-12-24T09:00:00+01:00`).
    Once { at: String },
    /// Every N minutes from when it was made.
    Every { minutes: u32 },
    /// At a local time (`09:00`), on these days (`mon`…`sun`; empty: every day).
    Daily {
        time: String,
        #[serde(default)]
        weekdays: Vec<String>,
    },
    /// A cron expression (`0 9 * * 1-5`), in the schedule's time zone.
    Cron { expr: String },
}

/// One slot of a schedule: run (with its task) or skipped (with why).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ScheduleRun {
    /// The slot's instant, ms since the epoch.
    pub slot: i64,
    /// `started` (then the task's own status), `skipped`.
    pub status: String,
    pub task_id: Option<String>,
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ScheduleInfo {
    pub id: String,
    /// The user's words, verbatim.
    pub instruction: String,
    pub when: When,
    /// IANA time zone (`Europe/Berlin`).
    pub tz: String,
    /// The next slot, ms since the epoch; none when it will not run again.
    pub next_run: Option<i64>,
    pub paused: bool,
    /// What its runs may do without a question, approved when it was made.
    pub allow: Vec<String>,
    /// Runs that failed in a row (five pause it).
    pub failures: u32,
    pub created_at: i64,
    pub notify: NotifyPolicy,
    /// The latest slots, newest first.
    pub runs: Vec<ScheduleRun>,
}
