//! The curator keeps the skills Jarvis made tidy: one nobody used for 30
//! days is marked stale, one unused for 60 moves to the trash (restorable
//! with `jarvis skill restore`), never deleted. A skill the user pinned, or
//! one a schedule names, is left alone. What changed is said once a week.

use jarvis_protocol::Priority;

use crate::Brain;
use crate::agent::BrainError;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
pub const STALE_DAYS: i64 = 30;
pub const TRASH_DAYS: i64 = 60;

/// What one pass changed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Curation {
    pub staled: Vec<String>,
    pub trashed: Vec<String>,
    /// Used again since it was marked stale.
    pub refreshed: Vec<String>,
}

impl Brain {
    /// Pins (or unpins) a skill: the curator leaves it alone.
    pub fn pin_skill(&self, name: &str, pinned: bool) -> Result<(), BrainError> {
        if self.skills().get(name).is_none() {
            return Err(BrainError::Skill(format!("no skill named {name:?}")));
        }
        Ok(self.inner.store.set_skill_pinned(name, pinned)?)
    }

    /// One pass of the curator at `now` (ms).
    pub fn curate(&self, now: i64) -> Result<Curation, BrainError> {
        let mut out = Curation::default();
        let catalog = self.skills();
        let scheduled: Vec<String> = self
            .schedules()?
            .into_iter()
            .map(|s| s.instruction.to_lowercase())
            .collect();
        let own = self.inner.home.join("skills");
        for s in self.inner.store.made_skills()? {
            // Only the copy in Jarvis's own skills folder: one of that name
            // elsewhere (~/.claude/skills, an extra folder) is the user's.
            let same = |a: &std::path::Path, b: &std::path::Path| {
                a == b
                    || matches!(
                        (std::fs::canonicalize(a), std::fs::canonicalize(b)),
                        (Ok(x), Ok(y)) if x == y
                    )
            };
            let ours = catalog
                .get(&s.name)
                .is_some_and(|c| same(&c.dir, &own.join(&s.name)));
            if s.trashed_at.is_some() || !ours {
                continue;
            }
            let named = scheduled.iter().any(|i| names(i, &s.name));
            if s.pinned || named {
                if s.stale_since.is_some() {
                    self.inner.store.set_skill_care(&s.name, None, None)?;
                }
                continue;
            }
            let idle = now - s.last_used.unwrap_or(s.made_at).max(s.made_at);
            if idle >= TRASH_DAYS * DAY_MS {
                self.delete_skill(&s.name)?;
                self.inner
                    .store
                    .set_skill_care(&s.name, s.stale_since, Some(now))?;
                out.trashed.push(s.name);
            } else if idle >= STALE_DAYS * DAY_MS {
                if s.stale_since.is_none() {
                    self.inner.store.set_skill_care(&s.name, Some(now), None)?;
                    out.staled.push(s.name);
                }
            } else if s.stale_since.is_some() {
                self.inner.store.set_skill_care(&s.name, None, None)?;
                out.refreshed.push(s.name);
            }
        }
        Ok(out)
    }

    /// The week's summary of the curator's work, when there is any.
    pub fn curation_summary(&self, now: i64) -> Result<Option<String>, BrainError> {
        let week = now - 7 * DAY_MS;
        let mut stale = Vec::new();
        let mut trashed = Vec::new();
        for s in self.inner.store.made_skills()? {
            if s.trashed_at.is_some_and(|t| t >= week) {
                trashed.push(s.name);
            } else if s.stale_since.is_some_and(|t| t >= week) {
                stale.push(s.name);
            }
        }
        if stale.is_empty() && trashed.is_empty() {
            return Ok(None);
        }
        let mut parts = Vec::new();
        if !stale.is_empty() {
            parts.push(format!(
                "{} went unused for {STALE_DAYS} days and {} now stale ({})",
                if stale.len() == 1 {
                    "one skill I made"
                } else {
                    "skills I made"
                },
                if stale.len() == 1 { "is" } else { "are" },
                stale.join(", ")
            ));
        }
        if !trashed.is_empty() {
            parts.push(format!(
                "unused for {TRASH_DAYS} days, {} moved to the trash (`jarvis skill restore NAME` brings one back)",
                trashed.join(", ")
            ));
        }
        Ok(Some(format!(
            "This week: {}. Pin a skill to keep it.",
            parts.join("; ")
        )))
    }
}

/// Whether an instruction names the skill as a word of its own ("run the
/// log skill" names `log`; "the catalog" does not).
fn names(instruction: &str, skill: &str) -> bool {
    let skill = skill.to_lowercase();
    instruction
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
        .any(|w| w == skill)
}

/// Once a day at most, across processes: a pass, and once a week the summary.
pub(crate) fn maybe_curate(brain: &Brain, now: i64) {
    let run = || -> Result<(), BrainError> {
        if !brain.inner.store.mark_due("curator", DAY_MS, now)? {
            return Ok(());
        }
        brain.curate(now)?;
        if brain
            .inner
            .store
            .mark_due("curator-summary", 7 * DAY_MS, now)?
            && let Some(text) = brain.curation_summary(now)?
        {
            crate::announce::note(
                brain,
                &format!("curator:{}", now / (7 * DAY_MS)),
                text,
                Priority::Low,
            );
        }
        Ok(())
    };
    if let Err(e) = run() {
        tracing::warn!("curator: {e}");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_schedule_names_a_skill_as_a_whole_word() {
        assert!(super::names("every morning, run the log skill", "log"));
        assert!(super::names("use daily-standup at 9", "daily-standup"));
        assert!(!super::names("tidy the catalog", "log"));
        assert!(!super::names("run daily-standup-old", "daily-standup"));
    }
}
