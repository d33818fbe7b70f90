//! A named lease in the database: one holder at a time across processes,
//! renewed by its holder's heartbeat, taken over once it expires.

use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::{Store, StoreError, now_ms};

/// Who holds a lease, and until when (ms since the epoch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseHolder {
    pub holder: String,
    pub expires_at: i64,
}

impl Store {
    /// Takes or renews the lease for `ttl_ms`; false if someone else holds
    /// it and it has not expired. One `BEGIN IMMEDIATE` transaction, so two
    /// processes never both succeed.
    pub fn try_lease(&self, name: &str, holder: &str, ttl_ms: i64) -> Result<bool, StoreError> {
        let now = now_ms();
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let current: Option<(String, i64)> = tx
            .query_row(
                "SELECT holder, expires_at FROM leases WHERE name = ?1",
                [name],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        // A holder whose process is gone (killed) gives way at once.
        let free = match &current {
            None => true,
            Some((h, expires)) => {
                h == holder || *expires <= now || !crate::tasks::process::name_alive(h)
            }
        };
        if free {
            tx.execute(
                "INSERT INTO leases (name, holder, expires_at, heartbeat_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(name) DO UPDATE SET holder = ?2, expires_at = ?3, heartbeat_at = ?4",
                params![name, holder, now + ttl_ms, now],
            )?;
        }
        tx.commit()?;
        Ok(free)
    }

    /// Gives the lease up at once (a clean stop), if `holder` has it.
    pub fn release_lease(&self, name: &str, holder: &str) -> Result<(), StoreError> {
        super::off_runtime(|| {
            self.conn().execute(
                "DELETE FROM leases WHERE name = ?1 AND holder = ?2",
                params![name, holder],
            )?;
            Ok(())
        })
    }

    pub fn lease_holder(&self, name: &str) -> Result<Option<LeaseHolder>, StoreError> {
        super::off_runtime(|| {
            Ok(self
                .conn()
                .query_row(
                    "SELECT holder, expires_at FROM leases WHERE name = ?1",
                    [name],
                    |r| {
                        Ok(LeaseHolder {
                            holder: r.get(0)?,
                            expires_at: r.get(1)?,
                        })
                    },
                )
                .optional()?)
        })
    }
}
