//! Self-evolution as hosts see it: skill proposals made from repeated
//! requests, what Jarvis remembers of the user, and its account of itself.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::skills::Finding;

/// A skill proposed from requests the user repeated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ProposalInfo {
    pub id: String,
    /// `pending`, `drafted`, `applied`, `dismissed` or `stale`.
    pub status: String,
    /// The skill's suggested name.
    pub name: String,
    /// The request that says it best, its specifics taken out.
    pub summary: String,
    /// The user's requests in the group, as asked.
    pub requests: Vec<String>,
    /// The tools that served them.
    pub tools: Vec<String>,
    pub created_at: i64,
    /// The drafted SKILL.md, once accepted.
    pub draft: Option<String>,
    /// The Agent Skills validator's problems with the draft.
    #[serde(default)]
    pub problems: Vec<String>,
    /// The install scan's findings in the draft.
    #[serde(default)]
    pub findings: Vec<Finding>,
    /// Against the installed skill of that name, when there is one.
    #[serde(default)]
    pub diff: Option<String>,
}

/// One thing Jarvis remembers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MemoryItem {
    pub id: String,
    pub text: String,
    /// `preference`, `fact` or `do_not_disturb`.
    pub kind: String,
    /// `user`: the user said it; `confirmed`: Jarvis inferred it and the
    /// user confirmed it; `suggested`: waiting for the user.
    pub source: String,
    pub at: i64,
}

/// The memory as `jarvis memory list --json` and the Memory view show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MemoryList {
    pub max_chars: u32,
    /// Characters the items in the prompt take.
    pub used_chars: u32,
    /// In the prompt, oldest first.
    pub items: Vec<MemoryItem>,
    /// Waiting for the user's yes (not in the prompt).
    #[serde(default)]
    pub suggested: Vec<MemoryItem>,
    /// Pushed out by the bound (listed, not in the prompt).
    #[serde(default)]
    pub archived: Vec<MemoryItem>,
}

/// One axis of the capability radar: a measured rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RadarAxis {
    pub axis: String,
    /// 0 to 1; 0 when there were no samples.
    pub score: f64,
    pub samples: u64,
    /// What was counted, in words.
    pub metric: String,
}

/// Jarvis's account of itself: what it can do now, what it cannot, what
/// it did, and the radar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ReflectReport {
    pub can: Vec<String>,
    pub cannot: Vec<String>,
    /// Figures from the audit, the tasks and the budget ledger, each a
    /// line.
    pub did: Vec<String>,
    pub radar: Vec<RadarAxis>,
}
