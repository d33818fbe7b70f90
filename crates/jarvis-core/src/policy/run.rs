//! What the gate knows about the run a call belongs to: who started it,
//! whether a person can answer, and what went unanswered.

use std::sync::Mutex;

use jarvis_protocol::{ApprovalMode, Origin};

use crate::tools::Capability;

/// One per run, shared by its calls.
#[derive(Debug, Default)]
pub struct RunFacts {
    pub run_id: String,
    pub origin: Origin,
    pub approval: ApprovalMode,
    /// The run was given its own working directory, checked when it started.
    pub own_workdir: bool,
    /// One question at a time within a run; runs do not wait for each other.
    pub(crate) asking: tokio::sync::Mutex<()>,
    /// What was refused because nobody could approve it.
    needed: Mutex<Vec<String>>,
    /// The kinds of those calls (`write`, `exec`, …), for a retry to ask.
    needed_kinds: Mutex<std::collections::BTreeSet<String>>,
    /// The last error that ended the run, for whoever reports it.
    last_error: Mutex<Option<String>>,
}

impl RunFacts {
    pub fn new(run_id: impl Into<String>, origin: Origin, approval: ApprovalMode) -> Self {
        RunFacts {
            run_id: run_id.into(),
            origin,
            approval,
            ..Default::default()
        }
    }

    pub fn with_own_workdir(mut self, own: bool) -> Self {
        self.own_workdir = own;
        self
    }

    /// A call made outside any run (`jarvis tool run`): a person is there.
    pub fn interactive_call(call_id: &str) -> Self {
        Self::new(call_id, Origin::Cli, ApprovalMode::Interactive)
    }

    pub fn is_interactive(&self) -> bool {
        self.approval.is_interactive()
    }

    /// Whether the user approved, when creating this run, every capability
    /// of a call that would otherwise ask.
    pub fn pre_approves(&self, caps: &[Capability]) -> bool {
        let ApprovalMode::PreApproved { allow } = &self.approval else {
            return false;
        };
        caps.iter().all(|c| match approval_kind(c) {
            None => true,
            Some(kind) => allow.iter().any(|a| a == kind),
        })
    }

    pub(crate) fn record_needed_kinds(&self, caps: &[Capability]) {
        if let Ok(mut k) = self.needed_kinds.lock() {
            k.extend(caps.iter().filter_map(approval_kind).map(str::to_string));
        }
    }

    /// The kinds of call refused for want of an approval.
    pub fn needed_kinds(&self) -> Vec<String> {
        self.needed_kinds
            .lock()
            .map(|k| k.iter().cloned().collect())
            .unwrap_or_default()
    }

    pub(crate) fn record_error(&self, message: &str) {
        if let Ok(mut e) = self.last_error.lock() {
            *e = Some(message.to_string());
        }
    }

    pub fn last_error(&self) -> Option<String> {
        self.last_error.lock().ok().and_then(|e| e.clone())
    }

    pub(crate) fn record_needed(&self, what: String) -> usize {
        match self.needed.lock() {
            Ok(mut n) => {
                n.push(what);
                n.len()
            }
            Err(_) => usize::MAX,
        }
    }

    /// The calls refused for want of an approval, in order.
    pub fn needed(&self) -> Vec<String> {
        self.needed.lock().map(|n| n.clone()).unwrap_or_default()
    }
}

/// The kind a pre-approval names for a capability; `None` for what never
/// asks on its own (reads the policy allows, the HUD). Creating skills,
/// tools or MCP servers, and running a created tool, are kinds no
/// pre-approval may name.
pub fn approval_kind(cap: &Capability) -> Option<&'static str> {
    use crate::tools::TaskAction;
    match cap {
        Capability::Read(_) | Capability::Ui => None,
        Capability::Task { action, allow, .. } => match action {
            TaskAction::Read => None,
            TaskAction::Start if allow.is_empty() => None,
            // Handing out approvals, making a schedule, stopping the user's
            // work: a person decides, never a run's own pre-approval.
            _ => Some("hub"),
        },
        Capability::Write(_) => Some("write"),
        Capability::Exec { .. } => Some("exec"),
        // A tool Jarvis made runs only in a version the user trusted or
        // approved: never because a schedule may run commands.
        Capability::CreatedTool { .. } => Some("created-tool"),
        Capability::Network { .. } => Some("network"),
        Capability::Mcp { .. } => Some("mcp"),
        Capability::CreateExtension { .. } => Some("create"),
        // The tools themselves refuse runs nobody watches.
        Capability::Memory { .. } => None,
    }
}

/// The kinds `--allow` and a schedule may name.
pub const PRE_APPROVABLE: &[&str] = &["write", "exec", "network", "mcp"];
