//! Files the agent changed, and taking those changes back.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What a call did to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    Created,
    Modified,
    Deleted,
}

/// One file a turn changed, as the chat and `jarvis undo --list` show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChangeInfo {
    pub turn_id: String,
    pub session_id: Option<String>,
    pub tool: String,
    /// Absolute path.
    pub path: String,
    pub kind: ChangeKind,
    pub at: i64,
    pub undone: bool,
}

/// What an undo did, file by file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct UndoReport {
    /// Put back as they were before.
    pub restored: Vec<String>,
    /// Made by the agent, now gone again.
    pub removed: Vec<String>,
    /// Changed since by someone else: left as they are, with the version
    /// from before the agent's change written beside them (path, copy).
    pub kept_both: Vec<(String, String)>,
    /// What could not be undone, and why.
    pub problems: Vec<String>,
}

impl UndoReport {
    pub fn is_empty(&self) -> bool {
        self.restored.is_empty()
            && self.removed.is_empty()
            && self.kept_both.is_empty()
            && self.problems.is_empty()
    }

    /// One line for a notice or the CLI.
    pub fn summary(&self) -> String {
        if self.is_empty() {
            return "nothing to undo".into();
        }
        let mut parts = Vec::new();
        if !self.restored.is_empty() {
            parts.push(format!("restored {}", self.restored.join(", ")));
        }
        if !self.removed.is_empty() {
            parts.push(format!("removed {}", self.removed.join(", ")));
        }
        for (path, copy) in &self.kept_both {
            parts.push(format!(
                "{path} was changed since, so it stays; the version before is in {copy}"
            ));
        }
        parts.extend(self.problems.iter().cloned());
        parts.join("; ")
    }
}
