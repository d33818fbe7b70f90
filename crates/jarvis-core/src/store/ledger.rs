//! The usage ledger: one row per model request, with the local day it
//! counts against.

use rusqlite::params;

use super::{Store, StoreError};

/// One model request's use.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Spent {
    pub at: i64,
    pub day: String,
    pub origin: String,
    pub session_id: Option<String>,
    pub model: String,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// The server reported no usage: counted from the text.
    pub estimated: bool,
    pub cost_usd: f64,
}

/// A day's totals.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DayTotals {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub estimated_tokens: u64,
    pub cost_usd: f64,
    pub requests: u64,
    pub by_origin: Vec<(String, u64)>,
}

impl Store {
    pub fn record_spent(&self, s: &Spent) -> Result<(), StoreError> {
        self.with_conn(|conn| {
            conn.execute(
                "INSERT INTO usage_ledger (at, day, origin, session_id, model, prompt_tokens,
                    completion_tokens, estimated, cost_usd)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    s.at,
                    s.day,
                    s.origin,
                    s.session_id,
                    s.model,
                    s.prompt_tokens as i64,
                    s.completion_tokens as i64,
                    s.estimated,
                    s.cost_usd
                ],
            )?;
            Ok(())
        })
    }

    /// Tokens booked for one session (a task's own), estimates included.
    pub fn session_tokens(&self, session: &str) -> Result<u64, StoreError> {
        self.with_conn(|conn| {
            let n: i64 = conn.query_row(
                "SELECT COALESCE(SUM(prompt_tokens + completion_tokens), 0) FROM usage_ledger
                 WHERE session_id = ?1",
                [session],
                |r| r.get(0),
            )?;
            Ok(n.max(0) as u64)
        })
    }

    pub fn day_totals(&self, day: &str) -> Result<DayTotals, StoreError> {
        self.with_conn(|conn| {
            let (p, c, e, cost, n): (i64, i64, i64, f64, i64) = conn.query_row(
                "SELECT COALESCE(SUM(prompt_tokens), 0), COALESCE(SUM(completion_tokens), 0),
                        COALESCE(SUM(CASE WHEN estimated THEN prompt_tokens + completion_tokens ELSE 0 END), 0),
                        COALESCE(SUM(cost_usd), 0), COUNT(*)
                 FROM usage_ledger WHERE day = ?1",
                [day],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )?;
            let mut st = conn.prepare(
                "SELECT origin, SUM(prompt_tokens + completion_tokens) FROM usage_ledger
                 WHERE day = ?1 GROUP BY origin ORDER BY 2 DESC",
            )?;
            let by_origin = st
                .query_map([day], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?.max(0) as u64)))?
                .collect::<Result<_, _>>()?;
            Ok(DayTotals {
                prompt_tokens: p.max(0) as u64,
                completion_tokens: c.max(0) as u64,
                estimated_tokens: e.max(0) as u64,
                cost_usd: cost,
                requests: n.max(0) as u64,
                by_origin,
            })
        })
    }
}
