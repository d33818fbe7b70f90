//! Counts over what Jarvis did, for its account of itself: every figure
//! is a plain count from a table, so the same data gives the same report.

use super::{Store, StoreError};

/// What the tables hold, counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Tool calls that ran (an outcome other than blocked or denied).
    pub calls_run: u64,
    /// ... of which ended `ok`.
    pub calls_ok: u64,
    /// Calls refused by the policy (`blocked`).
    pub blocked: u64,
    /// Calls a person (or an unattended run) said no to.
    pub denied: u64,
    /// Calls that asked a person.
    pub asked: u64,
    /// ... and were allowed.
    pub approved: u64,
    /// Every tool call with an outcome.
    pub calls: u64,
    /// Background runs (tasks and schedules) that ended, by status.
    pub background: Vec<(String, u64)>,
    /// Model requests and tokens in the ledger.
    pub requests: u64,
    pub tokens: u64,
    /// The user's requests the detector kept.
    pub user_requests: u64,
    /// Uses of any skill.
    pub skill_uses: u64,
    /// Proposals by status.
    pub proposals: Vec<(String, u64)>,
}

/// Audit rows that record a change the user made, not a tool call.
const NOT_CALLS: &str = "tool NOT IN ('undo', 'memory', 'evolve')";

impl Store {
    pub fn tally(&self) -> Result<Tally, StoreError> {
        self.with_conn(|conn| {
            let one = |sql: &str| -> Result<u64, StoreError> {
                Ok(conn.query_row(sql, [], |r| r.get::<_, Option<i64>>(0))?.unwrap_or(0).max(0) as u64)
            };
            let pairs = |sql: &str| -> Result<Vec<(String, u64)>, StoreError> {
                let mut st = conn.prepare(sql)?;
                let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?.max(0) as u64)))?;
                Ok(rows.collect::<Result<_, _>>()?)
            };
            Ok(Tally {
                calls: one(&format!("SELECT COUNT(*) FROM audit WHERE outcome IS NOT NULL AND {NOT_CALLS}"))?,
                calls_run: one(&format!(
                    "SELECT COUNT(*) FROM audit WHERE outcome IN ('ok', 'error', 'cancelled') AND {NOT_CALLS}"
                ))?,
                calls_ok: one(&format!("SELECT COUNT(*) FROM audit WHERE outcome = 'ok' AND {NOT_CALLS}"))?,
                blocked: one("SELECT COUNT(*) FROM audit WHERE outcome = 'blocked'")?,
                denied: one("SELECT COUNT(*) FROM audit WHERE outcome = 'denied'")?,
                asked: one("SELECT COUNT(*) FROM audit WHERE verdict = 'ask'")?,
                approved: one(
                    "SELECT COUNT(*) FROM audit WHERE verdict = 'ask' AND outcome IN ('ok', 'error', 'cancelled')",
                )?,
                background: pairs(
                    "SELECT status, COUNT(*) FROM tasks WHERE origin IN ('task', 'schedule')
                     AND status NOT IN ('queued', 'running') GROUP BY status ORDER BY status",
                )?,
                requests: one("SELECT COUNT(*) FROM usage_ledger")?,
                tokens: one("SELECT SUM(prompt_tokens + completion_tokens) FROM usage_ledger")?,
                user_requests: one("SELECT COUNT(*) FROM requests")?,
                skill_uses: one("SELECT SUM(usage_count) FROM skill_state")?,
                proposals: pairs("SELECT status, COUNT(*) FROM proposals GROUP BY status ORDER BY status")?,
            })
        })
    }
}
