//! Task records: queued by anyone, claimed by one runner in one
//! transaction, finished once, and found `lost` when their runner died.

use jarvis_protocol::{NotifyPolicy, Origin, TaskInfo, TaskStatus, Usage};
use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior, params};

use super::{Store, StoreError, now_ms};

/// A task to queue.
#[derive(Debug, Clone, Default)]
pub struct NewTask {
    pub id: String,
    pub origin: Origin,
    pub schedule_id: Option<String>,
    pub instruction: String,
    pub session_id: String,
    pub parent_session: Option<String>,
    pub report_topic: Option<String>,
    pub allow: Vec<String>,
    pub notify: NotifyPolicy,
    pub retry_of: Option<String>,
}

/// The process that runs a task: its pid and start time tell a live
/// runner from a dead one whose pid was reused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Runner {
    pub name: String,
    pub pid: u32,
    pub start: Option<i64>,
}

/// An announcement as it is recorded (`key`: the task's id, or a hub
/// note's key; once per key and status).
#[derive(Debug, Clone)]
pub struct Said<'a> {
    pub id: &'a str,
    pub key: Option<&'a str>,
    pub status: Option<&'a str>,
    pub text: &'a str,
    pub session_id: Option<&'a str>,
    pub priority: &'a str,
    pub loud: bool,
}

/// An announcement as a follower reads it back.
#[derive(Debug, Clone, PartialEq)]
pub struct Heard {
    pub id: String,
    pub task_id: Option<String>,
    pub text: String,
    pub session_id: Option<String>,
    pub priority: String,
    pub loud: bool,
    /// When it was said (ms).
    pub at: i64,
}

/// How a task ended.
#[derive(Debug, Clone)]
pub struct TaskEnd {
    pub status: TaskStatus,
    pub summary: Option<String>,
    pub reason: Option<String>,
    pub usage: Usage,
    pub report: Option<String>,
    pub needs: Vec<String>,
}

const COLUMNS: &str = "id, origin, schedule_id, instruction, status, session_id, parent_session,
    created_at, started_at, finished_at, summary, reason, prompt_tokens, completion_tokens,
    total_tokens, report, allow, needs, notify, report_topic";

fn origin_of(s: &str) -> Origin {
    serde_json::from_value(serde_json::Value::from(s)).unwrap_or(Origin::Task)
}

fn list_of(s: String) -> Vec<String> {
    serde_json::from_str(&s).unwrap_or_default()
}

/// A task row and the topic of the report it should write.
fn task_row(r: &Row<'_>) -> rusqlite::Result<(TaskInfo, Option<String>)> {
    let status: String = r.get(4)?;
    let notify: String = r.get(18)?;
    Ok((
        TaskInfo {
            id: r.get(0)?,
            origin: origin_of(&r.get::<_, String>(1)?),
            schedule_id: r.get(2)?,
            instruction: r.get(3)?,
            // An unknown status (a newer Jarvis's) reads as lost: never re-run.
            status: TaskStatus::parse(&status).unwrap_or(TaskStatus::Lost),
            session_id: r.get(5)?,
            parent_session: r.get(6)?,
            created_at: r.get(7)?,
            started_at: r.get(8)?,
            finished_at: r.get(9)?,
            summary: r.get(10)?,
            reason: r.get(11)?,
            usage: Usage {
                prompt_tokens: r.get::<_, i64>(12)?.max(0) as u64,
                completion_tokens: r.get::<_, i64>(13)?.max(0) as u64,
                total_tokens: r.get::<_, i64>(14)?.max(0) as u64,
            },
            report: r.get(15)?,
            allow: list_of(r.get(16)?),
            needs: list_of(r.get(17)?),
            notify: NotifyPolicy::parse(&notify).unwrap_or_default(),
        },
        r.get(19)?,
    ))
}

fn json_list(v: &[String]) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "[]".into())
}

fn get(conn: &Connection, id: &str) -> Result<Option<(TaskInfo, Option<String>)>, StoreError> {
    Ok(conn
        .query_row(
            &format!("SELECT {COLUMNS} FROM tasks WHERE id = ?1"),
            [id],
            task_row,
        )
        .optional()?)
}

impl Store {
    pub fn insert_task(&self, t: &NewTask) -> Result<TaskInfo, StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "INSERT INTO tasks (id, origin, schedule_id, instruction, status, session_id,
                    parent_session, created_at, report_topic, allow, notify, retry_of)
                 VALUES (?1, ?2, ?3, ?4, 'queued', ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    t.id,
                    t.origin.as_str(),
                    t.schedule_id,
                    t.instruction,
                    t.session_id,
                    t.parent_session,
                    now_ms(),
                    t.report_topic,
                    json_list(&t.allow),
                    t.notify.as_str(),
                    t.retry_of,
                ],
            )?;
            get(conn, &t.id)?
                .map(|(t, _)| t)
                .ok_or_else(|| StoreError::Corrupt("a task vanished as it was queued".into()))
        })
    }

    pub fn task(&self, id: &str) -> Result<Option<TaskInfo>, StoreError> {
        self.with_conn(|conn| Ok(get(conn, id)?.map(|(t, _)| t)))
    }

    /// The report topic a task was started with (`gen_report`).
    pub fn task_report_topic(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.with_conn(|conn| Ok(get(conn, id)?.and_then(|(_, topic)| topic)))
    }

    /// Ids of tasks starting with `prefix` (an index lookup, not a read of
    /// every task).
    pub fn task_ids_with_prefix(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        self.with_conn(|conn| {
            let mut st = conn
                .prepare("SELECT id FROM tasks WHERE substr(id, 1, length(?1)) = ?1 ORDER BY id")?;
            let ids = st.query_map([prefix], |r| r.get(0))?;
            Ok(ids.collect::<Result<_, _>>()?)
        })
    }

    /// Newest first.
    pub fn tasks(&self, limit: usize, offset: usize) -> Result<Vec<TaskInfo>, StoreError> {
        self.with_conn(|conn| {
            let mut st = conn.prepare(&format!(
                "SELECT {COLUMNS} FROM tasks ORDER BY created_at DESC, rowid DESC LIMIT ?1 OFFSET ?2"
            ))?;
            let rows = st.query_map(params![limit as i64, offset as i64], task_row)?;
            Ok(rows.map(|r| r.map(|(t, _)| t)).collect::<Result<_, _>>()?)
        })
    }

    /// Marks the task running for `runner`, as one step with the check
    /// that fewer than `max_running` tasks run (in every process). `id`:
    /// that task, if still queued; else the oldest queued one.
    pub fn claim_task(
        &self,
        id: Option<&str>,
        runner: &Runner,
        max_running: usize,
    ) -> Result<Option<TaskInfo>, StoreError> {
        self.with_conn(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let running: i64 =
                tx.query_row("SELECT COUNT(*) FROM tasks WHERE status = 'running'", [], |r| {
                    r.get(0)
                })?;
            if running >= max_running as i64 {
                return Ok(None);
            }
            let pick: Option<String> = match id {
                Some(id) => tx
                    .query_row(
                        "SELECT id FROM tasks WHERE id = ?1 AND status = 'queued'",
                        [id],
                        |r| r.get(0),
                    )
                    .optional()?,
                None => tx
                    .query_row(
                        "SELECT id FROM tasks WHERE status = 'queued' ORDER BY created_at, rowid LIMIT 1",
                        [],
                        |r| r.get(0),
                    )
                    .optional()?,
            };
            let Some(pick) = pick else {
                return Ok(None);
            };
            let now = now_ms();
            tx.execute(
                "UPDATE tasks SET status = 'running', started_at = ?2, runner = ?3, runner_pid = ?4,
                    runner_start = ?5, heartbeat_at = ?2 WHERE id = ?1",
                params![pick, now, runner.name, runner.pid, runner.start],
            )?;
            let task = get(&tx, &pick)?.map(|(t, _)| t);
            tx.commit()?;
            Ok(task)
        })
    }

    /// The runner is alive and still running this task; false when the
    /// row says otherwise (cancelled, found lost): the run must stop.
    pub fn heartbeat_task(&self, id: &str, runner: &Runner) -> Result<bool, StoreError> {
        self.with_conn(|conn| {
            let n = conn.execute(
                "UPDATE tasks SET heartbeat_at = ?3
                 WHERE id = ?1 AND runner = ?2 AND status = 'running' AND cancel_requested = 0",
                params![id, runner.name, now_ms()],
            )?;
            Ok(n == 1)
        })
    }

    /// Cancels a task that is still queued; false if it was claimed (or
    /// ended) first.
    pub fn cancel_queued_task(
        &self,
        id: &str,
        reason: &str,
    ) -> Result<Option<TaskInfo>, StoreError> {
        self.with_conn(|conn| {
            let n = conn.execute(
                "UPDATE tasks SET status = 'cancelled', finished_at = ?2, reason = ?3
                 WHERE id = ?1 AND status = 'queued'",
                params![id, now_ms(), reason],
            )?;
            if n == 0 {
                return Ok(None);
            }
            Ok(get(conn, id)?.map(|(t, _)| t))
        })
    }

    /// Records the end of a task this runner ran (or one refused before it
    /// ran); `None` if it had already ended (the first end counts).
    pub fn finish_task(&self, id: &str, end: &TaskEnd) -> Result<Option<TaskInfo>, StoreError> {
        self.with_conn(|conn| {
            let n = conn.execute(
                "UPDATE tasks SET status = ?2, finished_at = ?3, summary = ?4, reason = ?5,
                    prompt_tokens = ?6, completion_tokens = ?7, total_tokens = ?8, report = ?9,
                    needs = ?10
                 WHERE id = ?1 AND status IN ('queued', 'running')",
                params![
                    id,
                    end.status.as_str(),
                    now_ms(),
                    end.summary,
                    end.reason,
                    end.usage.prompt_tokens as i64,
                    end.usage.completion_tokens as i64,
                    end.usage.total_tokens as i64,
                    end.report,
                    json_list(&end.needs),
                ],
            )?;
            if n == 0 {
                return Ok(None);
            }
            Ok(get(conn, id)?.map(|(t, _)| t))
        })
    }

    /// Running tasks whose runner is gone (`alive` says no, or it stopped
    /// beating before `stale_before`) become `lost`; they are returned.
    pub fn sweep_lost_tasks(
        &self,
        alive: impl Fn(u32, Option<i64>) -> bool,
        stale_before: i64,
    ) -> Result<Vec<TaskInfo>, StoreError> {
        self.with_conn(|conn| {
            // (id, runner pid, runner start, last heartbeat)
            type Row = (String, Option<u32>, Option<i64>, Option<i64>);
            // Read first: most starts find nothing lost and take no write lock.
            let candidates: Vec<Row> = {
                let mut st = conn.prepare(
                    "SELECT id, runner_pid, runner_start, heartbeat_at FROM tasks WHERE status = 'running'",
                )?;
                let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
                rows.collect::<Result<_, _>>()?
            };
            let dead: Vec<Row> = candidates
                .into_iter()
                .filter(|(_, pid, start, beat)| {
                    pid.is_none_or(|pid| !alive(pid, *start)) || beat.unwrap_or(0) < stale_before
                })
                .collect();
            if dead.is_empty() {
                return Ok(vec![]);
            }
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut lost = Vec::new();
            for (id, _, _, beat) in dead {
                // Unless it beat (or ended) since it was read.
                let n = tx.execute(
                    "UPDATE tasks SET status = 'lost', finished_at = ?2,
                        reason = 'it was running when Jarvis stopped; it was not re-run'
                     WHERE id = ?1 AND status = 'running' AND heartbeat_at IS ?3",
                    params![id, now_ms(), beat],
                )?;
                if n == 1
                    && let Some((t, _)) = get(&tx, &id)?
                {
                    lost.push(t);
                }
            }
            tx.commit()?;
            Ok(lost)
        })
    }

    /// Asks the process running the task to stop it (seen at its heartbeat).
    pub fn request_task_cancel(&self, id: &str) -> Result<(), StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "UPDATE tasks SET cancel_requested = 1 WHERE id = ?1 AND status = 'running'",
                [id],
            )?;
            Ok(())
        })
    }

    /// Deletes finished tasks older than `before`; how many.
    pub fn prune_tasks(&self, before: i64) -> Result<usize, StoreError> {
        self.with_conn(|conn| {
            // Read first: a start with nothing to forget takes no write lock.
            let any: bool = conn.query_row(
                "SELECT EXISTS (SELECT 1 FROM tasks WHERE finished_at IS NOT NULL AND finished_at < ?1
                    AND status NOT IN ('queued', 'running'))",
                [before],
                |r| r.get(0),
            )?;
            if !any {
                return Ok(0);
            }
            Ok(conn.execute(
                "DELETE FROM tasks WHERE finished_at IS NOT NULL AND finished_at < ?1
                    AND status NOT IN ('queued', 'running')",
                [before],
            )?)
        })
    }

    /// Records an announcement once per (key, status); false if it was
    /// already made (by this process or another).
    pub fn record_announcement(&self, a: &Said<'_>) -> Result<bool, StoreError> {
        self.with_conn(|conn| {
            let n = conn.execute(
                "INSERT OR IGNORE INTO announcements (id, task_id, status, text, at, session_id,
                    priority, loud)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    a.id,
                    a.key,
                    a.status,
                    a.text,
                    now_ms(),
                    a.session_id,
                    a.priority,
                    a.loud
                ],
            )?;
            Ok(n == 1)
        })
    }

    /// The newest announcement's position (where a follower starts).
    pub fn last_announcement(&self) -> Result<i64, StoreError> {
        self.with_conn(|conn| {
            Ok(conn.query_row(
                "SELECT COALESCE(MAX(rowid), 0) FROM announcements",
                [],
                |r| r.get(0),
            )?)
        })
    }

    /// Announcements made after position `after`, oldest first, with their
    /// positions.
    pub fn announcements_after(&self, after: i64) -> Result<Vec<(i64, Heard)>, StoreError> {
        self.heard(
            "SELECT rowid, id, task_id, text, session_id, priority, loud, at FROM announcements
             WHERE rowid > ?1 ORDER BY rowid LIMIT 100",
            after,
        )
    }

    /// The latest `limit` announcements, newest first.
    pub fn recent_announcements(&self, limit: usize) -> Result<Vec<Heard>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        Ok(self
            .heard(
                "SELECT rowid, id, task_id, text, session_id, priority, loud, at FROM announcements
                 ORDER BY rowid DESC LIMIT ?1",
                limit,
            )?
            .into_iter()
            .map(|(_, h)| h)
            .collect())
    }

    fn heard(&self, sql: &str, arg: i64) -> Result<Vec<(i64, Heard)>, StoreError> {
        self.with_conn(|conn| {
            let mut st = conn.prepare(sql)?;
            let rows = st.query_map([arg], |r| {
                let key: Option<String> = r.get(2)?;
                Ok((
                    r.get::<_, i64>(0)?,
                    Heard {
                        id: r.get(1)?,
                        // Keys of hub notes are not tasks.
                        task_id: key.filter(|k| !k.starts_with("hub:")),
                        text: r.get(3)?,
                        session_id: r.get(4)?,
                        priority: r.get(5)?,
                        loud: r.get::<_, i64>(6)? != 0,
                        at: r.get(7)?,
                    },
                ))
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }
}
