//! The policy behind the one gate: every call of every tool is judged here
//! from its declared capabilities, before it runs.

mod gate;
mod redact;
pub mod run;
pub mod shell;
pub mod url;

use std::path::{Path, PathBuf};

use crate::tools::Capability;
use crate::tools::paths::is_within;

pub use gate::{
    AllowOnceApprover, Approver, CallOutcome, DenyApprover, Gate, MAX_UNANSWERED, NoApprover,
    ScriptedApprover,
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
#[derive(Debug, Clone, Default)]
pub struct PolicySettings {
    /// Local file access (list, read).
    pub read: bool,
    pub write: bool,
    pub exec: bool,
    pub network: bool,
    /// Kinds that run without asking (`approvals.auto`).
    pub auto_write: bool,
    pub auto_exec: bool,
    pub auto_network: bool,
    pub granted_roots: Vec<PathBuf>,
    /// `$JARVIS_HOME` and the app's own directories, canonical.
    pub protected: Vec<PathBuf>,
    /// Skill roots: readable without approval, never writable by tools.
    pub skill_roots: Vec<PathBuf>,
    /// Why the working directory cannot be used, when it cannot.
    pub workdir_problem: Option<String>,
    /// The user's home, for the command analysis.
    pub home: Option<PathBuf>,
}

/// What the policy knows about the turn a call belongs to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TurnFacts {
    /// Content from a tool (a file, a page, an MCP result) has entered the
    /// conversation: from now on nothing leaves without a question.
    pub tainted: bool,
    /// Nobody can answer a question in this run: the "don't ask" settings
    /// (`approvals.auto`) do not apply, since they stand for a person.
    pub unattended: bool,
    /// The run has its own working directory, checked when it started: the
    /// brain's (missing or refused) one does not bind it.
    pub own_workdir: bool,
}

#[derive(Debug, Clone)]
pub struct Policy {
    pub settings: PolicySettings,
}

fn off(what: &str, key: &str) -> Decision {
    Decision::new(
        Verdict::Block,
        format!("{what} is off (Settings, or `jarvis config set tools.{key} true`)"),
    )
}

impl Policy {
    pub fn new(settings: PolicySettings) -> Self {
        Policy { settings }
    }

    /// The strictest verdict over all capabilities of one call.
    pub fn check(&self, caps: &[Capability], workdir: &Path, turn: TurnFacts) -> Decision {
        let mut worst = Decision::new(Verdict::Allow, "nothing to check");
        for cap in caps {
            let d = self.check_one(cap, workdir, turn);
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

    /// Reads and writes share one rule: own state, credentials, system paths
    /// (writes), then the roots.
    fn check_path(
        &self,
        p: &Path,
        workdir: &Path,
        kind: &str,
        is_write: bool,
        turn: TurnFacts,
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
        } else if !is_write {
            Decision::new(
                Verdict::Allow,
                format!("{kind} inside the working directory"),
            )
        } else if self.settings.auto_write && !turn.unattended {
            Decision::new(
                Verdict::Allow,
                format!("{kind} inside the working directory (\"don't ask\" for writes is on)"),
            )
        } else {
            Decision::new(Verdict::Ask, format!("{kind} inside the working directory"))
        }
    }

    fn workdir_ok(&self, turn: TurnFacts) -> Result<(), Decision> {
        match &self.settings.workdir_problem {
            Some(why) if !turn.own_workdir => Err(Decision::new(Verdict::Block, why.clone())),
            _ => Ok(()),
        }
    }

    fn check_one(&self, cap: &Capability, workdir: &Path, turn: TurnFacts) -> Decision {
        let s = &self.settings;
        match cap {
            Capability::Read(p) if s.skill_roots.iter().any(|r| is_within(p, r)) => {
                match p.to_str().and_then(|x| shell::paths::credential(x, None)) {
                    Some(why) => {
                        Decision::new(Verdict::Block, format!("secrets stay out of reach: {why}"))
                    }
                    None => {
                        Decision::new(Verdict::Allow, "reads a skill (skill roots are read-only)")
                    }
                }
            }
            Capability::Read(_) if !s.read => off("local file access", "read"),
            Capability::Read(p) => match self.workdir_ok(turn) {
                Err(d) => d,
                Ok(()) => self.check_path(p, workdir, "read", false, turn),
            },
            Capability::Write(_) if !s.write => off("writing files", "write"),
            Capability::Write(p) => match self.workdir_ok(turn) {
                Err(d) => d,
                Ok(()) => self.check_path(p, workdir, "write", true, turn),
            },
            Capability::Exec { .. } if !s.exec => off("running commands", "exec"),
            Capability::Exec { command, .. } => {
                if let Err(d) = self.workdir_ok(turn) {
                    return d;
                }
                let env =
                    shell::ShellEnv::with_protected(&s.protected).at(workdir, s.home.as_deref());
                let a = shell::analyze(command, &env);
                match a.verdict {
                    Verdict::Block => {
                        Decision::new(Verdict::Block, format!("blacklisted: {}", a.reason))
                    }
                    Verdict::Allow => Decision::new(Verdict::Allow, "a read-only command"),
                    Verdict::Ask if s.auto_exec && !turn.unattended => Decision::new(
                        Verdict::Allow,
                        format!("{} (\"don't ask\" for commands is on)", a.reason),
                    ),
                    Verdict::Ask => Decision::new(Verdict::Ask, a.reason),
                }
            }
            Capability::Network { .. } if !s.network => off("web requests", "network"),
            Capability::Network { method, url, addrs } => {
                let d = match url::check_static(url) {
                    Err(dec) => return dec,
                    Ok((target, dec)) => url::check_resolved(&target, &dec, addrs),
                };
                if d.verdict != Verdict::Allow {
                    return d;
                }
                if turn.tainted {
                    // Once a file, a page or a tool's result is in the turn, a
                    // request can carry it out whatever its method or URL.
                    Decision::new(
                        Verdict::Ask,
                        format!(
                            "{method} {url}: content from a tool is in this conversation, and any request could carry it out"
                        ),
                    )
                } else if !matches!(method.as_str(), "GET" | "HEAD")
                    && (!s.auto_network || turn.unattended)
                {
                    Decision::new(Verdict::Ask, format!("{method} sends data to {url}"))
                } else {
                    d
                }
            }
            Capability::Ui => Decision::new(Verdict::Allow, "HUD navigation"),
            // The tool keeps only the user's own words (a suggestion
            // otherwise); forgetting what the user told Jarvis is theirs to say.
            Capability::Memory { forget: false, .. } => {
                Decision::new(Verdict::Allow, "the user's own words, or a suggestion")
            }
            Capability::Memory { forget: true, .. } => {
                Decision::new(Verdict::Ask, "forgets something you told Jarvis")
            }
            // A task runs unattended: each of its calls meets the gate,
            // and what it may do without a question is asked here.
            Capability::Task { allow, action, .. } => match action {
                crate::tools::TaskAction::Start if !allow.is_empty() => Decision::new(
                    Verdict::Ask,
                    format!(
                        "a background task that may {} without asking",
                        allow.join(", ")
                    ),
                ),
                crate::tools::TaskAction::Read => Decision::new(Verdict::Allow, "your tasks"),
                crate::tools::TaskAction::Cancel => {
                    Decision::new(Verdict::Ask, "stops the user's background work")
                }
                crate::tools::TaskAction::Schedule => Decision::new(
                    Verdict::Ask,
                    "a schedule runs later, when nobody may be there",
                ),
                _ => Decision::new(Verdict::Allow, "a background task (it runs unattended)"),
            },
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
            Capability::CreatedTool { .. } if !s.exec => {
                off("running commands (and tools Jarvis made)", "exec")
            }
            Capability::CreatedTool { name, .. } => match self.workdir_ok(turn) {
                Err(d) => d,
                Ok(()) => Decision::new(
                    Verdict::Ask,
                    format!(
                        "{name} is a tool Jarvis created; it runs only with your approval until you trust this version"
                    ),
                ),
            },
            Capability::CreateExtension { .. } if !s.write => off(
                "writing files (and making skills, tools and MCP servers)",
                "write",
            ),
            Capability::CreateExtension { kind, .. } if kind != "skill" && !s.exec => off(
                "running commands (needed for a tool or MCP server that runs)",
                "exec",
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

    fn policy(read: bool, write: bool) -> Policy {
        Policy::new(PolicySettings {
            read,
            write,
            exec: true,
            network: true,
            protected: vec![PathBuf::from("/home/u/.jarvis")],
            ..Default::default()
        })
    }

    #[test]
    fn verdicts_follow_place_and_toggles() {
        let wd = Path::new("/home/u/proj");
        let t = TurnFacts::default();
        let p = policy(true, true);
        let read = |x: &str| {
            p.check(&[Capability::Read(PathBuf::from(x))], wd, t)
                .verdict
        };
        assert_eq!(read("/home/u/proj/a.txt"), Verdict::Allow);
        assert_eq!(
            policy(false, false)
                .check(&[Capability::Read("/home/u/proj/a".into())], wd, t)
                .verdict,
            Verdict::Block,
            "local file access off: refused"
        );
        assert_eq!(read("/home/u/projX/a.txt"), Verdict::Block);
        assert_eq!(read("/etc/passwd"), Verdict::Block);
        assert_eq!(read("/home/u/.jarvis/config.json"), Verdict::Block);
        let write = |x: &str| {
            p.check(&[Capability::Write(PathBuf::from(x))], Path::new("/"), t)
                .verdict
        };
        assert_eq!(
            write("/usr/lib/x"),
            Verdict::Block,
            "system paths even with / as workdir"
        );
        assert_eq!(write("/home/u/.jarvis/jarvis.db"), Verdict::Block);
        assert_eq!(
            p.check(&[Capability::Write("/home/u/proj/a".into())], wd, t)
                .verdict,
            Verdict::Ask,
            "writes ask"
        );
        let get = |url: &str, method: &str, tainted: bool| {
            p.check(
                &[Capability::Network {
                    method: method.into(),
                    url: url.into(),
                    addrs: vec!["93.184.216.34".parse().unwrap()],
                }],
                wd,
                TurnFacts {
                    tainted,
                    ..Default::default()
                },
            )
            .verdict
        };
        assert_eq!(get("https://example.com/", "GET", false), Verdict::Allow);
        assert_eq!(get("https://example.com/", "POST", false), Verdict::Ask);
        assert_eq!(
            get("https://example.com/?q=1", "GET", true),
            Verdict::Ask,
            "after tool content every request asks"
        );
        assert_eq!(
            url::check_url("http://127.0.0.1:8080/").verdict,
            Verdict::Ask
        );
        assert_eq!(
            url::check_url("http://169.254.169.254/latest/meta-data").verdict,
            Verdict::Block
        );
    }
}
