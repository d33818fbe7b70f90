//! The daily budget: every model request (turns, tasks, side calls such as
//! compaction) goes in the ledger by local day, with its cost from
//! `budget.prices`; a server that reports no usage is estimated from the
//! text and marked so. Runs check the caps before each request: a task
//! over them is refused before any model call, a chat turn warns at 80 %
//! and stops at 100 % until the cap is raised or the day ends (local
//! midnight).

use std::sync::Arc;

use jarvis_protocol::{BudgetReport, Origin, Usage};
use jiff::Timestamp;

use crate::Brain;
use crate::agent::{BrainError, Inner};
use crate::store::Spent;

/// Where a day is counted: the user's zone.
fn zone() -> jiff::tz::TimeZone {
    jiff::tz::TimeZone::system()
}

/// The local date of an instant (`2026-12-01`).
pub fn day_of(at: Timestamp) -> String {
    at.to_zoned_datetime(zone()).date().to_string()
}

fn cost(cfg: &crate::config::Config, model: &str, prompt: u64, completion: u64) -> f64 {
    cfg.budget.prices.get(model).map_or(0.0, |p| {
        (prompt as f64 * p.prompt_per_mtok + completion as f64 * p.completion_per_mtok) / 1e6
    })
}

/// Books one model request. `estimate` (prompt, completion) stands in
/// when the server said nothing.
pub(crate) fn record(
    inner: &Inner,
    origin: Origin,
    session: Option<&str>,
    usage: Option<&Usage>,
    estimate: (u64, u64),
) {
    let cfg = inner.config();
    let (prompt, completion, estimated) = match usage {
        Some(u) if u.total_tokens > 0 || u.prompt_tokens > 0 => {
            (u.prompt_tokens, u.completion_tokens, false)
        }
        _ => (estimate.0, estimate.1, true),
    };
    let at = inner.now();
    let spent = Spent {
        at: at.as_millisecond(),
        day: day_of(at),
        origin: origin.as_str().into(),
        session_id: session.map(str::to_string),
        cost_usd: cost(&cfg, &cfg.llm.model, prompt, completion),
        model: cfg.llm.model.clone(),
        prompt_tokens: prompt,
        completion_tokens: completion,
        estimated,
    };
    if let Err(e) = inner.store.record_spent(&spent) {
        tracing::warn!("budget: could not record usage: {e}");
    }
}

/// Today's use and the caps.
pub(crate) fn report(inner: &Inner) -> Result<BudgetReport, BrainError> {
    let cfg = inner.config();
    let day = day_of(inner.now());
    let t = inner.store.day_totals(&day)?;
    Ok(BudgetReport {
        day,
        tz: zone().iana_name().unwrap_or("UTC").to_string(),
        tokens: t.prompt_tokens + t.completion_tokens,
        prompt_tokens: t.prompt_tokens,
        completion_tokens: t.completion_tokens,
        estimated_tokens: t.estimated_tokens,
        cost_usd: t.cost_usd,
        requests: t.requests,
        daily_tokens: cfg.budget.daily_tokens,
        daily_cost_usd: cfg.budget.daily_cost_usd,
        by_origin: t.by_origin,
    })
}

/// The larger share of a cap used today, in percent (0 without caps).
fn share(r: &BudgetReport) -> f64 {
    let tokens = if r.daily_tokens > 0 {
        r.tokens as f64 * 100.0 / r.daily_tokens as f64
    } else {
        0.0
    };
    let cost = if r.daily_cost_usd > 0.0 {
        r.cost_usd * 100.0 / r.daily_cost_usd
    } else {
        0.0
    };
    tokens.max(cost)
}

/// Why no more model requests may go out today, if that is so.
pub(crate) fn exhausted(inner: &Inner) -> Option<String> {
    let r = match report(inner) {
        Ok(r) => r,
        Err(e) => {
            // A ledger that cannot be read must not stop the user's work.
            tracing::warn!("budget: {e}");
            return None;
        }
    };
    if r.daily_tokens > 0 && r.tokens >= r.daily_tokens {
        return Some(format!(
            "today's budget is used up: {} of {} tokens (budget.daily_tokens); it resets at midnight, or raise the cap",
            r.tokens, r.daily_tokens
        ));
    }
    if r.daily_cost_usd > 0.0 && r.cost_usd >= r.daily_cost_usd {
        return Some(format!(
            "today's budget is used up: ${:.2} of ${:.2} (budget.daily_cost_usd); it resets at midnight, or raise the cap",
            r.cost_usd, r.daily_cost_usd
        ));
    }
    None
}

/// A warning once today's use passes 80 % of a cap.
pub(crate) fn warning(inner: &Inner) -> Option<String> {
    let r = report(inner).ok()?;
    let used = share(&r);
    (used >= 80.0).then(|| {
        format!(
            "{used:.0} % of today's budget is used ({} tokens, ${:.2}); at 100 % Jarvis stops until midnight",
            r.tokens, r.cost_usd
        )
    })
}

impl Brain {
    /// Today's model use and the caps.
    pub fn budget(&self) -> Result<BudgetReport, BrainError> {
        report(&self.inner)
    }

    /// The brain's clock: the ledger's days and the budget's midnight.
    pub fn set_clock(&self, clock: Arc<dyn crate::hub::Clock>) {
        if let Ok(mut c) = self.inner.clock.write() {
            *c = clock;
        }
    }
}
