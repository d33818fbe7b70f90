//! Files the agent changed, per call: what undo restores.

use rusqlite::params;

use super::{Store, StoreError, now_ms};

/// One file changed by one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub id: i64,
    pub session_id: Option<String>,
    pub turn_id: String,
    pub call_id: String,
    pub tool: String,
    /// The folder the write was confined beneath (the working directory or
    /// a granted root) and the path in it.
    pub root: String,
    pub path: String,
    /// Where the bytes before the change are kept; `None`: no file before.
    pub before_file: Option<String>,
    pub before_sha: Option<String>,
    /// The file's hash right after the change; `None`: no file after.
    pub after_sha: Option<String>,
    /// The file existed before, but its bytes could not be kept.
    pub lost: bool,
    pub at: i64,
    pub undone_at: Option<i64>,
}

/// Which changes an undo takes back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeScope {
    Turn(String),
    Session(String),
}

impl ChangeScope {
    /// The column it selects by, as the audit names it.
    pub fn name(&self) -> &'static str {
        match self {
            ChangeScope::Turn(_) => "turn",
            ChangeScope::Session(_) => "session",
        }
    }

    pub fn id(&self) -> &str {
        match self {
            ChangeScope::Turn(id) | ChangeScope::Session(id) => id,
        }
    }
}

const COLUMNS: &str = "id, session_id, turn_id, call_id, tool, root, path, before_file, \
                       before_sha, after_sha, lost, at, undone_at";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Change> {
    Ok(Change {
        id: r.get(0)?,
        session_id: r.get(1)?,
        turn_id: r.get(2)?,
        call_id: r.get(3)?,
        tool: r.get(4)?,
        root: r.get(5)?,
        path: r.get(6)?,
        before_file: r.get(7)?,
        before_sha: r.get(8)?,
        after_sha: r.get(9)?,
        lost: r.get::<_, i64>(10)? != 0,
        at: r.get(11)?,
        undone_at: r.get(12)?,
    })
}

impl Store {
    pub fn record_change(&self, c: &Change) -> Result<i64, StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "INSERT INTO changes (session_id, turn_id, call_id, tool, root, path, before_file,
                    before_sha, after_sha, lost, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    c.session_id,
                    c.turn_id,
                    c.call_id,
                    c.tool,
                    c.root,
                    c.path,
                    c.before_file,
                    c.before_sha,
                    c.after_sha,
                    i64::from(c.lost),
                    now_ms()
                ],
            )?;
            Ok(conn.last_insert_rowid())
        })
    }

    /// The changes in a turn or a session, oldest first (undone ones too).
    pub fn changes(&self, scope: &ChangeScope) -> Result<Vec<Change>, StoreError> {
        let filter = format!("{}_id", scope.name());
        let key = scope.id();
        self.with_conn(|conn| {
            let mut st = conn.prepare(&format!(
                "SELECT {COLUMNS} FROM changes WHERE {filter} = ?1 ORDER BY id"
            ))?;
            let rows = st.query_map([key], row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// The latest turn with changes not undone yet, in any session.
    pub fn last_changed_turn(&self) -> Result<Option<String>, StoreError> {
        use rusqlite::OptionalExtension;
        self.with_conn(|conn| {
            Ok(conn
                .query_row(
                    "SELECT turn_id FROM changes WHERE undone_at IS NULL ORDER BY id DESC LIMIT 1",
                    [],
                    |r| r.get(0),
                )
                .optional()?)
        })
    }

    pub fn mark_undone(&self, ids: &[i64]) -> Result<(), StoreError> {
        self.with_conn(|conn| {
            let tx = conn.transaction()?;
            let at = now_ms();
            for id in ids {
                tx.execute(
                    "UPDATE changes SET undone_at = ?2 WHERE id = ?1 AND undone_at IS NULL",
                    params![id, at],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
    }
}
