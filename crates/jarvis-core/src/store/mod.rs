//! `jarvis.db`: sessions, messages, turns, audit and approval grants, in one
//! SQLite file (WAL) with numbered migrations.

mod changes;
mod curation;
mod lease;
mod ledger;
mod memory;
mod migrations;
mod requests;
mod schedules;
mod stops;
mod tally;
mod tasks;

pub use changes::{Change, ChangeScope};
pub use curation::MadeSkill;
pub use jarvis_protocol::{AuditRow, SessionInfo, TurnUsage};
pub use lease::LeaseHolder;
pub use ledger::{DayTotals, Spent};
pub use memory::MemoryRow;
pub use migrations::SCHEMA_VERSION;
pub use requests::{GroupRow, Member, NewRequest, Observed, ProposalRow};
pub use schedules::{NewSchedule, Skip};
pub use tally::Tally;
pub use tasks::{Heard, NewTask, Runner, Said, TaskEnd};

use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};
use thiserror::Error;

use crate::llm::{ChatMessage, Role, ToolCall};
use jarvis_protocol::Usage;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database {path}: {message}")]
    Open { path: String, message: String },
    #[error("no session {0:?}")]
    NoSession(String),
    #[error("corrupt row: {0}")]
    Corrupt(String),
    #[error(
        "database {path} was written by a newer Jarvis (schema version {found}; this one knows up to {supported}). \
         It was left untouched: update Jarvis, or point JARVIS_HOME elsewhere."
    )]
    TooNew {
        path: String,
        found: i64,
        supported: i64,
    },
}

/// Runs a statement that may wait on the database (another process holding
/// the write lock, up to the busy timeout) without stalling the async
/// workers: on a multi-threaded runtime the worker hands its other tasks
/// to the rest of the pool first (`block_in_place`). Elsewhere it just runs.
pub(super) fn off_runtime<T>(f: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(f),
        _ => f(),
    }
}

/// Runs `f` again while SQLite says the database is busy or locked, for up
/// to ten seconds.
fn retry_busy<T>(mut f: impl FnMut() -> rusqlite::Result<T>) -> rusqlite::Result<T> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        match f() {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if matches!(
                    e.code,
                    rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
                ) && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(5 + fastrand::u64(0..20)));
            }
            other => return other,
        }
    }
}

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// One stored message with the turn it belongs to.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMessage {
    pub turn_id: String,
    pub message: ChatMessage,
}

/// What the gate records before a call runs.
#[derive(Debug, Clone)]
pub struct AuditEntry<'a> {
    pub call_id: &'a str,
    pub session_id: Option<&'a str>,
    pub tool: &'a str,
    pub arguments: &'a str,
    pub verdict: &'a str,
    pub reason: &'a str,
    pub decided_by: &'a str,
}

pub struct Store {
    conn: Mutex<Connection>,
}

impl Store {
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::Open {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
        }
        let conn = Connection::open(path)?;
        // First, so that every later statement (the WAL switch included)
        // waits for another process instead of failing "database is locked".
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        // Before anything writes: a newer schema is left byte-identical.
        let found: i64 = retry_busy(|| conn.query_row("PRAGMA user_version", [], |r| r.get(0)))?;
        migrations::refuse_newer(found, path)?;
        // Switching to WAL needs the file to itself, and SQLite reports
        // "locked" at once, without the busy handler, while another process
        // is opening it: retry for as long as the busy timeout would wait.
        retry_busy(|| conn.pragma_update(None, "journal_mode", "WAL"))?;
        // NORMAL is corruption-safe under WAL; it skips an fsync per commit, not per checkpoint.
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        Self::init(conn, path)
    }

    pub fn in_memory() -> Result<Self, StoreError> {
        Self::init(Connection::open_in_memory()?, Path::new(":memory:"))
    }

    fn init(mut conn: Connection, path: &Path) -> Result<Self, StoreError> {
        migrations::apply(&mut conn, path)?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    /// Runs `f` on the connection, off the async workers (see `off_runtime`).
    fn with_conn<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        off_runtime(|| f(&mut self.conn()))
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self
            .conn()
            .query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    /// Creates the session if it does not exist; returns whether it was new.
    pub fn ensure_session(&self, id: &str, title: &str) -> Result<bool, StoreError> {
        off_runtime(|| {
            let now = now_ms();
            let n = self.conn().execute(
                "INSERT OR IGNORE INTO sessions (id, title, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)",
                params![id, title, now],
            )?;
            Ok(n == 1)
        })
    }

    pub fn session_exists(&self, id: &str) -> Result<bool, StoreError> {
        off_runtime(|| {
            Ok(self
                .conn()
                .query_row("SELECT 1 FROM sessions WHERE id = ?1", [id], |_| Ok(()))
                .optional()?
                .is_some())
        })
    }

    pub fn list_sessions(&self) -> Result<Vec<SessionInfo>, StoreError> {
        off_runtime(|| {
            let conn = self.conn();
            let mut st = conn.prepare(
                "SELECT s.id, s.title, s.created_at, s.updated_at,
                        (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id)
                 FROM sessions s ORDER BY s.updated_at DESC, s.rowid DESC",
            )?;
            let rows = st.query_map([], |r| {
                Ok(SessionInfo {
                    id: r.get(0)?,
                    title: r.get(1)?,
                    created_at: r.get(2)?,
                    updated_at: r.get(3)?,
                    messages: r.get(4)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    pub fn rename_session(&self, id: &str, title: &str) -> Result<(), StoreError> {
        off_runtime(|| {
            let n = self.conn().execute(
                "UPDATE sessions SET title = ?2, updated_at = ?3 WHERE id = ?1",
                params![id, title, now_ms()],
            )?;
            if n == 0 {
                return Err(StoreError::NoSession(id.into()));
            }
            Ok(())
        })
    }

    pub fn delete_session(&self, id: &str) -> Result<(), StoreError> {
        off_runtime(|| {
            let mut conn = self.conn();
            let tx = conn.transaction()?;
            tx.execute("DELETE FROM messages WHERE session_id = ?1", [id])?;
            tx.execute("DELETE FROM turns WHERE session_id = ?1", [id])?;
            tx.execute("DELETE FROM summaries WHERE session_id = ?1", [id])?;
            // The user's words go with their conversation.
            tx.execute("DELETE FROM requests WHERE session_id = ?1", [id])?;
            let n = tx.execute("DELETE FROM sessions WHERE id = ?1", [id])?;
            if n == 0 {
                return Err(StoreError::NoSession(id.into()));
            }
            tx.commit()?;
            Ok(())
        })
    }

    pub fn append_message(
        &self,
        session_id: &str,
        turn_id: &str,
        msg: &ChatMessage,
    ) -> Result<(), StoreError> {
        off_runtime(|| self.append_messages(session_id, turn_id, std::slice::from_ref(msg)))
    }

    /// Appends in one transaction: all of them or none.
    pub fn append_messages(
        &self,
        session_id: &str,
        turn_id: &str,
        msgs: &[ChatMessage],
    ) -> Result<(), StoreError> {
        off_runtime(|| {
            let mut conn = self.conn();
            let tx = conn.transaction()?;
            let now = now_ms();
            for msg in msgs {
                let calls = if msg.tool_calls.is_empty() {
                    None
                } else {
                    Some(
                        serde_json::to_string(&msg.tool_calls)
                            .map_err(|e| StoreError::Corrupt(e.to_string()))?,
                    )
                };
                tx.execute(
                    "INSERT INTO messages (session_id, turn_id, role, content, tool_calls, tool_call_id, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![session_id, turn_id, msg.role.as_str(), msg.content, calls, msg.tool_call_id, now],
                )?;
            }
            tx.execute(
                "UPDATE sessions SET updated_at = ?2 WHERE id = ?1",
                params![session_id, now],
            )?;
            tx.commit()?;
            Ok(())
        })
    }

    pub fn messages(&self, session_id: &str) -> Result<Vec<StoredMessage>, StoreError> {
        off_runtime(|| {
            let conn = self.conn();
            let mut st = conn.prepare(
                "SELECT turn_id, role, content, tool_calls, tool_call_id FROM messages
                 WHERE session_id = ?1 ORDER BY id",
            )?;
            let rows = st.query_map([session_id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, Option<String>>(4)?,
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (turn_id, role, content, calls, call_id) = row?;
                let role = Role::parse(&role)
                    .ok_or_else(|| StoreError::Corrupt(format!("role {role}")))?;
                let tool_calls: Vec<ToolCall> = match calls {
                    Some(c) => {
                        serde_json::from_str(&c).map_err(|e| StoreError::Corrupt(e.to_string()))?
                    }
                    None => vec![],
                };
                out.push(StoredMessage {
                    turn_id,
                    message: ChatMessage {
                        role,
                        content,
                        tool_calls,
                        tool_call_id: call_id,
                    },
                });
            }
            Ok(out)
        })
    }

    pub fn start_turn(&self, turn_id: &str, session_id: &str) -> Result<(), StoreError> {
        let pid = std::process::id();
        let start = crate::tasks::process::start_time(pid);
        off_runtime(|| {
            self.conn().execute(
                "INSERT INTO turns (id, session_id, started_at, pid, pid_start) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![turn_id, session_id, now_ms(), pid, start],
            )?;
            Ok(())
        })
    }

    /// Whether a turn of this conversation is running now in some process
    /// (this one or another): unfinished, and its process alive. A turn a
    /// crash left unfinished does not count.
    pub fn turn_running(&self, session_id: &str) -> Result<bool, StoreError> {
        off_runtime(|| {
            let conn = self.conn();
            let mut stmt = conn.prepare(
                "SELECT pid, pid_start FROM turns
                 WHERE session_id = ?1 AND finished_at IS NULL AND pid IS NOT NULL",
            )?;
            let rows = stmt.query_map(params![session_id], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, Option<i64>>(1)?))
            })?;
            for row in rows {
                let (pid, start) = row?;
                if u32::try_from(pid).is_ok_and(|pid| crate::tasks::process::alive(pid, start)) {
                    return Ok(true);
                }
            }
            Ok(false)
        })
    }

    pub fn finish_turn(
        &self,
        turn_id: &str,
        stop: &str,
        usage: &Usage,
        rounds: u32,
    ) -> Result<(), StoreError> {
        off_runtime(|| {
            self.conn().execute(
                "UPDATE turns SET finished_at = ?2, stop = ?3, prompt_tokens = ?4, completion_tokens = ?5,
                 total_tokens = ?6, rounds = ?7 WHERE id = ?1",
                params![
                    turn_id,
                    now_ms(),
                    stop,
                    usage.prompt_tokens as i64,
                    usage.completion_tokens as i64,
                    usage.total_tokens as i64,
                    rounds
                ],
            )?;
            Ok(())
        })
    }

    /// Usage recorded per turn, oldest first.
    pub fn turn_usage(&self, session_id: &str) -> Result<Vec<TurnUsage>, StoreError> {
        off_runtime(|| {
            let conn = self.conn();
            let mut st = conn.prepare(
                "SELECT id, COALESCE(stop, ''), COALESCE(prompt_tokens, 0), COALESCE(completion_tokens, 0),
                 COALESCE(total_tokens, 0) FROM turns WHERE session_id = ?1 ORDER BY started_at, rowid",
            )?;
            let rows = st.query_map([session_id], |r| {
                Ok(TurnUsage {
                    turn_id: r.get(0)?,
                    stop: r.get(1)?,
                    prompt_tokens: r.get(2)?,
                    completion_tokens: r.get(3)?,
                    total_tokens: r.get(4)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    pub fn audit_begin(&self, e: &AuditEntry<'_>) -> Result<i64, StoreError> {
        off_runtime(|| {
            let conn = self.conn();
            conn.execute(
                "INSERT INTO audit (at, call_id, session_id, tool, arguments, verdict, reason, decided_by)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![now_ms(), e.call_id, e.session_id, e.tool, e.arguments, e.verdict, e.reason, e.decided_by],
            )?;
            Ok(conn.last_insert_rowid())
        })
    }

    pub fn audit_decided(
        &self,
        id: i64,
        verdict: &str,
        reason: &str,
        decided_by: &str,
    ) -> Result<(), StoreError> {
        off_runtime(|| {
            self.conn().execute(
                "UPDATE audit SET verdict = ?2, reason = ?3, decided_by = ?4 WHERE id = ?1",
                params![id, verdict, reason, decided_by],
            )?;
            Ok(())
        })
    }

    pub fn audit_finish(&self, id: i64, outcome: &str, duration_ms: u64) -> Result<(), StoreError> {
        off_runtime(|| {
            self.conn().execute(
                "UPDATE audit SET outcome = ?2, duration_ms = ?3 WHERE id = ?1",
                params![id, outcome, duration_ms as i64],
            )?;
            Ok(())
        })
    }

    pub fn audit(&self, limit: usize, tool: Option<&str>) -> Result<Vec<AuditRow>, StoreError> {
        off_runtime(|| self.audit_where("(?2 IS NULL OR tool = ?2)", limit, tool))
    }

    /// One session's newest `limit` calls, in the order they were made.
    pub fn session_audit(&self, session: &str, limit: usize) -> Result<Vec<AuditRow>, StoreError> {
        off_runtime(|| self.audit_where("session_id = ?2", limit, Some(session)))
    }

    fn audit_where(
        &self,
        filter: &str,
        limit: usize,
        arg: Option<&str>,
    ) -> Result<Vec<AuditRow>, StoreError> {
        let conn = self.conn();
        let mut st = conn.prepare(&format!(
            "SELECT id, at, call_id, session_id, tool, arguments, verdict, reason, decided_by, outcome, duration_ms
             FROM audit WHERE {filter} ORDER BY id DESC LIMIT ?1"
        ))?;
        let rows = st.query_map(params![limit as i64, arg], |r| {
            Ok(AuditRow {
                id: r.get(0)?,
                at: r.get(1)?,
                call_id: r.get(2)?,
                session_id: r.get(3)?,
                tool: r.get(4)?,
                arguments: r.get(5)?,
                verdict: r.get(6)?,
                reason: r.get(7)?,
                decided_by: r.get(8)?,
                outcome: r.get(9)?,
                duration_ms: r.get(10)?,
            })
        })?;
        let mut v: Vec<AuditRow> = rows.collect::<Result<_, _>>()?;
        v.reverse();
        Ok(v)
    }

    /// The stored summary of a session's earlier turns: the last turn it
    /// covers, and its text.
    pub fn summary(&self, session: &str) -> Result<Option<(String, String)>, StoreError> {
        off_runtime(|| {
            Ok(self
                .conn()
                .query_row(
                    "SELECT through_turn, text FROM summaries WHERE session_id = ?1",
                    [session],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?)
        })
    }

    pub fn save_summary(
        &self,
        session: &str,
        through_turn: &str,
        text: &str,
    ) -> Result<(), StoreError> {
        off_runtime(|| {
            self.conn().execute(
                "INSERT INTO summaries (session_id, through_turn, text, created_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(session_id) DO UPDATE SET through_turn = ?2, text = ?3, created_at = ?4",
                params![session, through_turn, text, now_ms()],
            )?;
            Ok(())
        })
    }

    /// Deletes audit rows older than `audit_days` and conversations not
    /// touched for `message_days` (0 keeps them); returns rows removed.
    pub fn prune(&self, audit_days: u32, message_days: u32) -> Result<usize, StoreError> {
        off_runtime(|| {
            let day = 86_400_000i64;
            let now = now_ms();
            let audit_cutoff = now - i64::from(audit_days) * day;
            let cutoff = now - i64::from(message_days) * day;
            let mut conn = self.conn();
            // Read first: every start of every process comes here, and a
            // DELETE takes the write lock even when it deletes nothing.
            let any = |sql: &str, at: i64| -> Result<bool, StoreError> {
                Ok(conn.query_row(sql, [at], |_| Ok(())).optional()?.is_some())
            };
            let audit_due =
                audit_days > 0 && any("SELECT 1 FROM audit WHERE at < ?1 LIMIT 1", audit_cutoff)?;
            let messages_due = message_days > 0
                && any(
                    "SELECT 1 FROM sessions WHERE updated_at < ?1 LIMIT 1",
                    cutoff,
                )?;
            if !audit_due && !messages_due {
                return Ok(0);
            }
            let tx = conn.transaction()?;
            let mut n = 0;
            if audit_due {
                n += tx.execute("DELETE FROM audit WHERE at < ?1", [audit_cutoff])?;
            }
            if messages_due {
                n += tx.execute(
                    "DELETE FROM messages WHERE session_id IN (SELECT id FROM sessions WHERE updated_at < ?1)",
                    [cutoff],
                )?;
                n += tx.execute(
                    "DELETE FROM turns WHERE session_id IN (SELECT id FROM sessions WHERE updated_at < ?1)",
                    [cutoff],
                )?;
                n += tx.execute(
                    "DELETE FROM summaries WHERE session_id IN (SELECT id FROM sessions WHERE updated_at < ?1)",
                    [cutoff],
                )?;
                n += tx.execute(
                    "DELETE FROM requests WHERE session_id IN (SELECT id FROM sessions WHERE updated_at < ?1)",
                    [cutoff],
                )?;
                n += tx.execute("DELETE FROM sessions WHERE updated_at < ?1", [cutoff])?;
            }
            tx.commit()?;
            Ok(n)
        })
    }

    /// `(enabled, usage count, last used)` of a skill; enabled and unused if unknown.
    pub fn skill_state(&self, name: &str) -> Result<(bool, i64, Option<i64>), StoreError> {
        off_runtime(|| {
            Ok(self
                .conn()
                .query_row(
                    "SELECT enabled, usage_count, last_used FROM skill_state WHERE name = ?1",
                    [name],
                    |r| Ok((r.get::<_, i64>(0)? != 0, r.get(1)?, r.get(2)?)),
                )
                .optional()?
                .unwrap_or((true, 0, None)))
        })
    }

    /// Names of the disabled skills, in one query.
    pub fn disabled_skills(&self) -> Result<std::collections::HashSet<String>, StoreError> {
        off_runtime(|| {
            let conn = self.conn();
            let mut st = conn.prepare("SELECT name FROM skill_state WHERE enabled = 0")?;
            let rows = st.query_map([], |r| r.get::<_, String>(0))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    pub fn set_skill_enabled(&self, name: &str, enabled: bool) -> Result<(), StoreError> {
        off_runtime(|| {
            self.conn().execute(
                "INSERT INTO skill_state (name, enabled) VALUES (?1, ?2)
                 ON CONFLICT(name) DO UPDATE SET enabled = excluded.enabled",
                params![name, enabled as i64],
            )?;
            Ok(())
        })
    }

    pub fn record_skill_use(&self, name: &str) -> Result<(), StoreError> {
        self.record_skill_use_at(name, now_ms())
    }

    /// A use at `at` (ms): the curator's clock is injected in its tests.
    pub fn record_skill_use_at(&self, name: &str, at: i64) -> Result<(), StoreError> {
        off_runtime(|| {
            self.conn().execute(
                "INSERT INTO skill_state (name, usage_count, last_used) VALUES (?1, 1, ?2)
                 ON CONFLICT(name) DO UPDATE SET usage_count = usage_count + 1, last_used = excluded.last_used",
                params![name, at],
            )?;
            Ok(())
        })
    }

    pub fn add_grant(&self, tool: &str, scope: &str) -> Result<(), StoreError> {
        off_runtime(|| {
            self.conn().execute(
                "INSERT OR IGNORE INTO grants (tool, scope, created_at) VALUES (?1, ?2, ?3)",
                params![tool, scope, now_ms()],
            )?;
            Ok(())
        })
    }

    pub fn has_grant(&self, tool: &str, scope: &str) -> Result<bool, StoreError> {
        off_runtime(|| {
            Ok(self
                .conn()
                .query_row(
                    "SELECT 1 FROM grants WHERE tool = ?1 AND scope = ?2",
                    params![tool, scope],
                    |_| Ok(()),
                )
                .optional()?
                .is_some())
        })
    }

    pub fn grants(&self) -> Result<Vec<(String, String)>, StoreError> {
        off_runtime(|| {
            let conn = self.conn();
            let mut st = conn.prepare("SELECT tool, scope FROM grants ORDER BY id")?;
            let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    pub fn revoke_grant(&self, tool: &str, scope: &str) -> Result<bool, StoreError> {
        off_runtime(|| {
            Ok(self.conn().execute(
                "DELETE FROM grants WHERE tool = ?1 AND scope = ?2",
                params![tool, scope],
            )? == 1)
        })
    }
}
