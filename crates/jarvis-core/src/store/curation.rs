//! The skills Jarvis made, for the curator: when each was made and last
//! used, whether the user pinned it, and what the curator did to it.

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError, now_ms};

/// A skill Jarvis made, as the curator sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MadeSkill {
    pub name: String,
    pub made_at: i64,
    pub last_used: Option<i64>,
    pub usage_count: i64,
    pub pinned: bool,
    pub stale_since: Option<i64>,
    pub trashed_at: Option<i64>,
}

impl Store {
    /// Records that Jarvis made (or remade) this skill.
    pub fn mark_made_by_jarvis(&self, name: &str) -> Result<(), StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "INSERT INTO skill_state (name, made_by_jarvis, made_at) VALUES (?1, 1, ?2)
                 ON CONFLICT(name) DO UPDATE SET made_by_jarvis = 1, made_at = ?2,
                    stale_since = NULL, trashed_at = NULL",
                params![name, now_ms()],
            )?;
            Ok(())
        })
    }

    /// The skill of that name is the user's again (installed or restored
    /// by them): the curator leaves it alone.
    pub fn clear_made_by_jarvis(&self, name: &str) -> Result<(), StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "UPDATE skill_state SET made_by_jarvis = 0, stale_since = NULL WHERE name = ?1",
                params![name],
            )?;
            Ok(())
        })
    }

    pub fn set_skill_pinned(&self, name: &str, pinned: bool) -> Result<(), StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "INSERT INTO skill_state (name, pinned) VALUES (?1, ?2)
                 ON CONFLICT(name) DO UPDATE SET pinned = ?2",
                params![name, pinned as i64],
            )?;
            Ok(())
        })
    }

    pub fn made_skills(&self) -> Result<Vec<MadeSkill>, StoreError> {
        self.with_conn(|conn| {
            let mut st = conn.prepare(
                "SELECT name, COALESCE(made_at, 0), last_used, usage_count, pinned, stale_since, trashed_at
                 FROM skill_state WHERE made_by_jarvis = 1 ORDER BY name",
            )?;
            let rows = st.query_map([], |r| {
                Ok(MadeSkill {
                    name: r.get(0)?,
                    made_at: r.get(1)?,
                    last_used: r.get(2)?,
                    usage_count: r.get(3)?,
                    pinned: r.get::<_, i64>(4)? != 0,
                    stale_since: r.get(5)?,
                    trashed_at: r.get(6)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// Marks (or clears) a made skill stale, or records it trashed.
    pub fn set_skill_care(
        &self,
        name: &str,
        stale_since: Option<i64>,
        trashed_at: Option<i64>,
    ) -> Result<(), StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "UPDATE skill_state SET stale_since = ?2, trashed_at = ?3 WHERE name = ?1",
                params![name, stale_since, trashed_at],
            )?;
            Ok(())
        })
    }

    /// Skills Jarvis made that still exist, and how many of them were used.
    pub fn made_skills_used(&self) -> Result<(u64, u64), StoreError> {
        self.with_conn(|conn| {
            Ok(conn.query_row(
                "SELECT COUNT(*), COALESCE(SUM(usage_count > 0), 0) FROM skill_state
                 WHERE made_by_jarvis = 1 AND trashed_at IS NULL",
                [],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?.max(0) as u64,
                        r.get::<_, i64>(1)?.max(0) as u64,
                    ))
                },
            )?)
        })
    }

    /// True (and the mark moved to `now`) when `every` ms passed since the
    /// mark `name` was last set: something done at most that often, across
    /// processes.
    pub fn mark_due(&self, name: &str, every: i64, now: i64) -> Result<bool, StoreError> {
        self.with_conn(|conn| {
            let tx = conn.transaction()?;
            let last: Option<i64> = tx
                .query_row("SELECT at FROM marks WHERE name = ?1", [name], |r| r.get(0))
                .optional()?;
            let due = last.is_none_or(|at| now - at >= every);
            if due {
                tx.execute(
                    "INSERT INTO marks (name, at) VALUES (?1, ?2)
                     ON CONFLICT(name) DO UPDATE SET at = ?2",
                    params![name, now],
                )?;
            }
            tx.commit()?;
            Ok(due)
        })
    }
}
