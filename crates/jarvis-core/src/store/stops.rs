//! Stop everything: each stop is a row, so every process can tell a stop
//! came after its turn began (the id only grows), and the latest row
//! without `resumed_at` is the hold on schedules.

use rusqlite::OptionalExtension;

use super::{Store, StoreError, now_ms};

/// A stop still holding the schedules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hold {
    pub at: i64,
    pub by: String,
}

impl Store {
    /// Records a stop; returns its number (greater than every earlier one).
    pub fn record_stop(&self, by: &str) -> Result<i64, StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "INSERT INTO stops (at, by) VALUES (?1, ?2)",
                rusqlite::params![now_ms(), by],
            )?;
            Ok(conn.last_insert_rowid())
        })
    }

    /// The latest stop's number; 0 when there was none.
    pub fn stop_epoch(&self) -> Result<i64, StoreError> {
        self.with_conn(|conn| {
            Ok(conn.query_row("SELECT COALESCE(MAX(id), 0) FROM stops", [], |r| r.get(0))?)
        })
    }

    /// The stop holding the schedules, if one is not resumed yet.
    pub fn stop_hold(&self) -> Result<Option<Hold>, StoreError> {
        self.with_conn(|conn| {
            Ok(conn
                .query_row(
                    "SELECT at, by FROM stops WHERE resumed_at IS NULL ORDER BY id DESC LIMIT 1",
                    [],
                    |r| {
                        Ok(Hold {
                            at: r.get(0)?,
                            by: r.get(1)?,
                        })
                    },
                )
                .optional()?)
        })
    }

    /// Lifts every hold; false when there was none.
    pub fn resume_after_stop(&self) -> Result<bool, StoreError> {
        self.with_conn(|conn| {
            let n = conn.execute(
                "UPDATE stops SET resumed_at = ?1 WHERE resumed_at IS NULL",
                [now_ms()],
            )?;
            Ok(n > 0)
        })
    }
}
