//! The policy behind the one gate: every call of every tool is judged here
//! from its declared capabilities, before it runs.

mod gate;
mod redact;
pub mod shell;
pub mod url;

use std::path::{Path, PathBuf};

use crate::tools::Capability;
use crate::tools::paths::is_within;

pub use gate::{
    AllowOnceApprover, Approver, CallOutcome, DenyApprover, Gate, NoApprover, ScriptedApprover,
};
pub use redact::redact;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Allow,
    Ask,
    Block,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::Ask => "ask",
            Verdict::Block => "block",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub verdict: Verdict,
    pub reason: String,
}

impl Decision {
    fn new(verdict: Verdict, reason: impl Into<String>) -> Self {
        Decision {
            verdict,
            reason: reason.into(),
        }
    }
}

/// What the policy knows; nothing here comes from the model.
#[derive(Debug, Clone)]
pub struct PolicySettings {
    pub read: bool,
    pub write: bool,
    pub exec: bool,
    pub granted_roots: Vec<PathBuf>,
    /// `$JARVIS_HOME` and the app's own directories, canonical.
    pub protected: Vec<PathBuf>,
    /// Skill roots: readable without approval, never writable by tools.
    pub skill_roots: Vec<PathBuf>,
}

#[derive(Debug, Clone)]
pub struct Policy {
    pub settings: PolicySettings,
}

impl Policy {
    pub fn new(settings: PolicySettings) -> Self {
        Policy { settings }
    }

    /// The strictest verdict over all capabilities of one call.
    pub fn check(&self, caps: &[Capability], workdir: &Path) -> Decision {
        let mut worst = Decision::new(Verdict::Allow, "nothing to check");
        for cap in caps {
            let d = self.check_one(cap, workdir);
            if d.verdict > worst.verdict
                || worst.reason == "nothing to check" && d.verdict == worst.verdict
            {
                worst = d;
            }
        }
        worst
    }

    fn protected(&self, p: &Path) -> bool {
        self.settings
            .protected
            .iter()
            .any(|root| is_within(p, root))
    }

    fn in_roots(&self, p: &Path, workdir: &Path) -> bool {
        is_within(p, workdir) || self.settings.granted_roots.iter().any(|r| is_within(p, r))
    }

    /// Reads and writes share one rule: own state, then system paths (writes),
    /// then the roots, then the toggle.
    fn check_path(
        &self,
        p: &Path,
        workdir: &Path,
        kind: &str,
        toggle: bool,
        is_write: bool,
    ) -> Decision {
        let credential = p.to_str().and_then(|x| shell::paths::credential(x, None));
        if self.protected(p) {
            Decision::new(
                Verdict::Block,
                format!("{} is Jarvis's own state", p.display()),
            )
        } else if let Some(why) = credential {
            Decision::new(Verdict::Block, format!("secrets stay out of reach: {why}"))
        } else if is_write && p.to_str().is_none_or(|x| shell::paths::system(x, None)) {
            Decision::new(Verdict::Block, format!("{} is a system path", p.display()))
        } else if !self.in_roots(p, workdir) {
            Decision::new(
                Verdict::Block,
                format!(
                    "{} is outside the working directory {}",
                    p.display(),
                    workdir.display()
                ),
            )
        } else if toggle {
            Decision::new(
                Verdict::Allow,
                format!("{kind} inside the working directory (tools.{kind} is on)"),
            )
        } else {
            Decision::new(
                Verdict::Ask,
                format!("{kind} inside the working directory (tools.{kind} is off)"),
            )
        }
    }

    fn check_one(&self, cap: &Capability, workdir: &Path) -> Decision {
        let s = &self.settings;
        match cap {
            Capability::Read(p) if self.settings.skill_roots.iter().any(|r| is_within(p, r)) => {
                match p.to_str().and_then(|x| shell::paths::credential(x, None)) {
                    Some(why) => {
                        Decision::new(Verdict::Block, format!("secrets stay out of reach: {why}"))
                    }
                    None => {
                        Decision::new(Verdict::Allow, "reads a skill (skill roots are read-only)")
                    }
                }
            }
            Capability::Read(p) => self.check_path(p, workdir, "read", s.read, false),
            Capability::Write(p) => self.check_path(p, workdir, "write", s.write, true),
            Capability::Exec { command, .. } => {
                let env = shell::ShellEnv::with_protected(&s.protected);
                let a = shell::analyze(command, &env);
                match a.verdict {
                    Verdict::Block => {
                        Decision::new(Verdict::Block, format!("blacklisted: {}", a.reason))
                    }
                    Verdict::Allow => Decision::new(Verdict::Allow, "a read-only command"),
                    Verdict::Ask if s.exec => {
                        Decision::new(Verdict::Allow, format!("{} (tools.exec is on)", a.reason))
                    }
                    Verdict::Ask => Decision::new(Verdict::Ask, a.reason),
                }
            }
            Capability::Network { url, addrs, .. } => match url::check_static(url) {
                Err(dec) => dec,
                Ok((target, dec)) => url::check_resolved(&target, &dec, addrs),
            },
            Capability::Ui => Decision::new(Verdict::Allow, "HUD navigation"),
            // What Jarvis will later read as instructions is the user's call.
            Capability::Mcp {
                server,
                trusted: true,
                ..
            } => Decision::new(
                Verdict::Allow,
                format!("the MCP server {server} is trusted"),
            ),
            Capability::Mcp { server, .. } => Decision::new(
                Verdict::Ask,
                format!(
                    "the MCP server {server} is not trusted (set mcp_servers.{server}.trusted to skip asking)"
                ),
            ),
            Capability::CreatedTool { name, .. } => Decision::new(
                Verdict::Ask,
                format!(
                    "{name} is a tool Jarvis created; it runs only with your approval until you trust this version"
                ),
            ),
            Capability::CreateExtension { kind, .. } => Decision::new(
                Verdict::Ask,
                format!("creates a new {kind} Jarvis will use later"),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(read: bool) -> Policy {
        Policy::new(PolicySettings {
            read,
            write: false,
            exec: false,
            granted_roots: vec![],
            protected: vec![PathBuf::from("/home/u/.jarvis")],
            skill_roots: vec![],
        })
    }

    #[test]
    fn verdicts_follow_place_and_toggles() {
        let wd = Path::new("/home/u/proj");
        let p = policy(false);
        let read = |x: &str| p.check(&[Capability::Read(PathBuf::from(x))], wd).verdict;
        assert_eq!(read("/home/u/proj/a.txt"), Verdict::Ask);
        assert_eq!(
            policy(true)
                .check(&[Capability::Read("/home/u/proj/a".into())], wd)
                .verdict,
            Verdict::Allow
        );
        assert_eq!(read("/home/u/projX/a.txt"), Verdict::Block);
        assert_eq!(read("/etc/passwd"), Verdict::Block);
        assert_eq!(read("/home/u/.jarvis/config.json"), Verdict::Block);
        let write = |x: &str| {
            p.check(&[Capability::Write(PathBuf::from(x))], Path::new("/"))
                .verdict
        };
        assert_eq!(
            write("/usr/lib/x"),
            Verdict::Block,
            "system paths even with / as workdir"
        );
        assert_eq!(write("/home/u/.jarvis/jarvis.db"), Verdict::Block);
        let url = |x: &str| url::check_url(x).verdict;
        assert_eq!(url("https://example.com/"), Verdict::Allow);
        assert_eq!(url("http://127.0.0.1:8080/"), Verdict::Ask);
        assert_eq!(
            url("http://169.254.169.254/latest/meta-data"),
            Verdict::Block
        );
        assert_eq!(url("http://[::1]/"), Verdict::Ask);
    }
}
