//! Schedule records. A slot is claimed in the same transaction that moves
//! `next_run` past it, and `(schedule, slot)` is a primary key: however
//! many processes tick, and wherever one is killed, a slot runs at most once.

use jarvis_protocol::{NotifyPolicy, ScheduleInfo, ScheduleRun, When};
use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior, params};

use super::{Store, StoreError, now_ms};

#[derive(Debug, Clone)]
pub struct NewSchedule {
    pub id: String,
    pub instruction: String,
    pub when: When,
    pub tz: String,
    pub next_run: Option<i64>,
    pub allow: Vec<String>,
    pub notify: NotifyPolicy,
    /// Anchors interval schedules (the scheduler's clock, not the store's).
    pub created_at: i64,
}

/// A slot passed over without running, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    pub slot: i64,
    pub reason: String,
}

const COLUMNS: &str =
    "id, instruction, when_json, tz, next_run, paused, allow, failures, notify, created_at";
/// Slots shown with each schedule.
const RECENT_RUNS: i64 = 10;

fn schedule_row(r: &Row<'_>) -> rusqlite::Result<ScheduleInfo> {
    let when: String = r.get(2)?;
    let allow: String = r.get(6)?;
    let notify: String = r.get(8)?;
    Ok(ScheduleInfo {
        id: r.get(0)?,
        instruction: r.get(1)?,
        when: serde_json::from_str(&when).unwrap_or(When::Once {
            at: "unreadable".into(),
        }),
        tz: r.get(3)?,
        next_run: r.get(4)?,
        paused: r.get::<_, i64>(5)? != 0,
        allow: serde_json::from_str(&allow).unwrap_or_default(),
        failures: r.get::<_, i64>(7)?.max(0) as u32,
        notify: NotifyPolicy::parse(&notify).unwrap_or_default(),
        created_at: r.get(9)?,
        runs: vec![],
    })
}

/// `slot, status, task_id, reason` of `schedule_runs`.
fn run_row(r: &Row<'_>) -> rusqlite::Result<ScheduleRun> {
    Ok(ScheduleRun {
        slot: r.get(0)?,
        status: r.get(1)?,
        task_id: r.get(2)?,
        reason: r.get(3)?,
    })
}

fn with_runs(conn: &Connection, mut s: ScheduleInfo) -> Result<ScheduleInfo, StoreError> {
    let mut st = conn.prepare(
        "SELECT slot, status, task_id, reason FROM schedule_runs WHERE schedule_id = ?1
         ORDER BY slot DESC LIMIT ?2",
    )?;
    let rows = st.query_map(params![s.id, RECENT_RUNS], run_row)?;
    s.runs = rows.collect::<Result<_, _>>()?;
    Ok(s)
}

fn get(conn: &Connection, id: &str) -> Result<Option<ScheduleInfo>, StoreError> {
    let s = conn
        .query_row(
            &format!("SELECT {COLUMNS} FROM schedules WHERE id = ?1"),
            [id],
            schedule_row,
        )
        .optional()?;
    s.map(|s| with_runs(conn, s)).transpose()
}

fn insert_skips(conn: &Connection, id: &str, skips: &[Skip]) -> Result<(), StoreError> {
    for k in skips {
        conn.execute(
            "INSERT OR IGNORE INTO schedule_runs (schedule_id, slot, status, reason, at)
             VALUES (?1, ?2, 'skipped', ?3, ?4)",
            params![id, k.slot, k.reason, now_ms()],
        )?;
    }
    Ok(())
}

impl Store {
    pub fn insert_schedule(&self, s: &NewSchedule) -> Result<ScheduleInfo, StoreError> {
        self.with_conn(|conn| {
            let when = serde_json::to_string(&s.when).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            let allow = serde_json::to_string(&s.allow).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            conn.execute(
                "INSERT INTO schedules (id, instruction, when_json, tz, next_run, allow, notify, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![s.id, s.instruction, when, s.tz, s.next_run, allow, s.notify.as_str(), s.created_at],
            )?;
            get(conn, &s.id)?.ok_or_else(|| StoreError::Corrupt("a schedule vanished".into()))
        })
    }

    pub fn schedule(&self, id: &str) -> Result<Option<ScheduleInfo>, StoreError> {
        self.with_conn(|conn| get(conn, id))
    }

    /// By next run (paused ones last).
    pub fn schedules(&self) -> Result<Vec<ScheduleInfo>, StoreError> {
        self.with_conn(|conn| {
            let mut st = conn.prepare(&format!(
                "SELECT {COLUMNS} FROM schedules ORDER BY paused, next_run IS NULL, next_run, created_at"
            ))?;
            let list: Vec<ScheduleInfo> =
                st.query_map([], schedule_row)?.collect::<Result<_, _>>()?;
            list.into_iter().map(|s| with_runs(conn, s)).collect()
        })
    }

    /// Schedules whose next slot has come, earliest first (indexed).
    pub fn due_schedules(&self, now: i64, limit: usize) -> Result<Vec<ScheduleInfo>, StoreError> {
        self.with_conn(|conn| {
            let mut st = conn.prepare(&format!(
                "SELECT {COLUMNS} FROM schedules WHERE paused = 0 AND next_run IS NOT NULL
                 AND next_run <= ?1 ORDER BY next_run LIMIT ?2"
            ))?;
            let list = st
                .query_map(params![now, limit as i64], schedule_row)?
                .collect::<Result<_, _>>()?;
            Ok(list)
        })
    }

    /// Moves a schedule from the slot `expected` to `next`, recording the
    /// skipped slots and claiming `run` (a slot to run now), as one step.
    /// False when another process already moved it: nothing was recorded.
    pub fn advance_schedule(
        &self,
        id: &str,
        expected: i64,
        next: Option<i64>,
        skips: &[Skip],
        run: Option<i64>,
    ) -> Result<bool, StoreError> {
        self.with_conn(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let current: Option<Option<i64>> = tx
                .query_row(
                    "SELECT next_run FROM schedules WHERE id = ?1 AND paused = 0",
                    [id],
                    |r| r.get(0),
                )
                .optional()?;
            if current != Some(Some(expected)) {
                return Ok(false);
            }
            insert_skips(&tx, id, skips)?;
            if let Some(slot) = run {
                // The primary key refuses a slot that was ever claimed.
                let n = tx.execute(
                    "INSERT OR IGNORE INTO schedule_runs (schedule_id, slot, status, at)
                     VALUES (?1, ?2, 'started', ?3)",
                    params![id, slot, now_ms()],
                )?;
                if n == 0 {
                    tx.execute(
                        "UPDATE schedules SET next_run = ?2 WHERE id = ?1",
                        params![id, next],
                    )?;
                    tx.commit()?;
                    return Ok(false);
                }
            }
            tx.execute(
                "UPDATE schedules SET next_run = ?2 WHERE id = ?1",
                params![id, next],
            )?;
            tx.commit()?;
            Ok(true)
        })
    }

    /// A run outside the slots (`run-now`), recorded like one.
    pub fn record_manual_run(&self, id: &str, slot: i64) -> Result<(), StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "INSERT OR IGNORE INTO schedule_runs (schedule_id, slot, status, reason, at)
                 VALUES (?1, ?2, 'started', 'run now', ?3)",
                params![id, slot, now_ms()],
            )?;
            Ok(())
        })
    }

    /// The task a claimed slot started (or why it could not start).
    pub fn attach_schedule_task(
        &self,
        id: &str,
        slot: i64,
        task_id: Option<&str>,
        status: &str,
        reason: Option<&str>,
    ) -> Result<(), StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "UPDATE schedule_runs SET task_id = ?3, status = ?4, reason = COALESCE(?5, reason)
                 WHERE schedule_id = ?1 AND slot = ?2",
                params![id, slot, task_id, status, reason],
            )?;
            Ok(())
        })
    }

    /// A scheduled task ended: its slot shows how, and the run of failures
    /// resets (`Some(true)`), grows (`Some(false)`) or stays (`None`).
    /// Returns the schedule's failures now.
    pub fn schedule_task_ended(
        &self,
        schedule_id: &str,
        task_id: &str,
        status: &str,
        succeeded: Option<bool>,
    ) -> Result<u32, StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "UPDATE schedule_runs SET status = ?3 WHERE schedule_id = ?1 AND task_id = ?2",
                params![schedule_id, task_id, status],
            )?;
            if succeeded == Some(true) {
                conn.execute(
                    "UPDATE schedules SET failures = 0 WHERE id = ?1",
                    [schedule_id],
                )?;
            } else if succeeded == Some(false) {
                conn.execute(
                    "UPDATE schedules SET failures = failures + 1 WHERE id = ?1",
                    [schedule_id],
                )?;
            }
            Ok(conn
                .query_row(
                    "SELECT failures FROM schedules WHERE id = ?1",
                    [schedule_id],
                    |r| r.get::<_, i64>(0),
                )
                .optional()?
                .unwrap_or(0)
                .max(0) as u32)
        })
    }

    /// Pauses, or resumes from `next_run`; false if there is no such schedule.
    pub fn set_schedule_paused(
        &self,
        id: &str,
        paused: bool,
        next_run: Option<i64>,
    ) -> Result<bool, StoreError> {
        self.with_conn(|conn| {
            let n = if paused {
                conn.execute("UPDATE schedules SET paused = 1 WHERE id = ?1", [id])?
            } else {
                conn.execute(
                    "UPDATE schedules SET paused = 0, failures = 0, next_run = ?2 WHERE id = ?1",
                    params![id, next_run],
                )?
            };
            Ok(n == 1)
        })
    }

    pub fn update_schedule(
        &self,
        id: &str,
        instruction: &str,
        when: &When,
        tz: &str,
        next_run: Option<i64>,
    ) -> Result<bool, StoreError> {
        self.with_conn(|conn| {
            let when = serde_json::to_string(when).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            let n = conn.execute(
                "UPDATE schedules SET instruction = ?2, when_json = ?3, tz = ?4, next_run = ?5 WHERE id = ?1",
                params![id, instruction, when, tz, next_run],
            )?;
            Ok(n == 1)
        })
    }

    /// Removes a schedule and its slots; false if there was none.
    pub fn delete_schedule(&self, id: &str) -> Result<bool, StoreError> {
        self.with_conn(|conn| {
            let tx = conn.transaction()?;
            tx.execute("DELETE FROM schedule_runs WHERE schedule_id = ?1", [id])?;
            let n = tx.execute("DELETE FROM schedules WHERE id = ?1", [id])?;
            tx.commit()?;
            Ok(n == 1)
        })
    }

    /// Every slot of a schedule, oldest first (tests and `schedule show`).
    pub fn schedule_runs(&self, id: &str) -> Result<Vec<ScheduleRun>, StoreError> {
        self.with_conn(|conn| {
            let mut st = conn.prepare(
                "SELECT slot, status, task_id, reason FROM schedule_runs WHERE schedule_id = ?1 ORDER BY slot",
            )?;
            let rows = st.query_map([id], run_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }
}
