//! Skills and MCP projects as the HUD and `jarvis skills --json` show them.

use std::path::PathBuf;

use serde::Serialize;

/// One loaded skill: where its SKILL.md is and what it says it does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Skill {
    pub name: String,
    pub description: String,
    pub dir: PathBuf,
    /// The SKILL.md, resolved: what the model reads.
    pub location: PathBuf,
    pub source: String,
    pub warnings: Vec<String>,
    /// Sources whose skill of the same name this one hides.
    pub shadows: Vec<String>,
}

/// One skill with its persisted state.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct SkillListing {
    #[serde(flatten)]
    pub skill: Skill,
    pub enabled: bool,
    pub valid: bool,
    pub problems: Vec<String>,
    pub usage_count: i64,
    pub last_used: Option<i64>,
}

/// A line of a skill the security scan flags.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
pub struct Finding {
    pub file: String,
    pub line: usize,
    pub reason: String,
    pub text: String,
}

/// What would be installed, shown before anything is written.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct InstallReport {
    pub name: String,
    pub description: String,
    pub target: PathBuf,
    pub exists: bool,
    pub files: Vec<(String, u64)>,
    /// Where the skill departs from the spec (it still loads).
    pub problems: Vec<String>,
    pub warnings: Vec<String>,
    pub findings: Vec<Finding>,
}

/// A skill checked on demand: against the spec and by the security scan.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct SkillTest {
    pub name: String,
    /// Where it departs from the Agent Skills spec.
    pub problems: Vec<String>,
    pub findings: Vec<Finding>,
}

impl SkillTest {
    pub fn passed(&self) -> bool {
        self.problems.is_empty() && self.findings.is_empty()
    }
}

/// One project in `$JARVIS_HOME/mcp`, with its server file in full.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct McpProject {
    pub name: String,
    pub dir: String,
    pub server_file: String,
    pub server_text: String,
    /// Already in config.json's `mcp_servers`.
    pub registered: bool,
}
