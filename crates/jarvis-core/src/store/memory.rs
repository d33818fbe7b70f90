//! What Jarvis remembers of the user: each item with its kind, where it
//! came from, and its state (`active` in the prompt, `suggested` until the
//! user confirms it, `archived` when the bound pushed it out).

use rusqlite::params;

use super::{Store, StoreError};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryRow {
    pub id: String,
    pub text: String,
    /// `preference`, `fact` or `do_not_disturb`.
    pub kind: String,
    /// `user` (the user said it) or `confirmed` (Jarvis inferred it, the
    /// user confirmed it).
    pub source: String,
    /// `active`, `suggested` or `archived`.
    pub state: String,
    pub at: i64,
}

impl Store {
    /// Every item, oldest first.
    pub fn memory_rows(&self) -> Result<Vec<MemoryRow>, StoreError> {
        self.with_conn(|conn| {
            let mut stmt = conn
                .prepare("SELECT id, text, kind, source, state, at FROM memory ORDER BY at, id")?;
            let rows = stmt.query_map([], |r| {
                Ok(MemoryRow {
                    id: r.get(0)?,
                    text: r.get(1)?,
                    kind: r.get(2)?,
                    source: r.get(3)?,
                    state: r.get(4)?,
                    at: r.get(5)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// Writes the rows given and deletes the ids given, in one transaction:
    /// the bound is never exceeded between two statements.
    pub fn memory_apply(&self, upsert: &[MemoryRow], delete: &[String]) -> Result<(), StoreError> {
        self.with_conn(|conn| {
            let tx = conn.transaction()?;
            for id in delete {
                tx.execute("DELETE FROM memory WHERE id = ?1", [id])?;
            }
            for m in upsert {
                tx.execute(
                    "INSERT INTO memory (id, text, kind, source, state, at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                     ON CONFLICT(id) DO UPDATE SET text = ?2, kind = ?3, source = ?4,
                        state = ?5, at = ?6",
                    params![m.id, m.text, m.kind, m.source, m.state, m.at],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
    }
}
