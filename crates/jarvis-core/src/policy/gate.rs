//! The one gate: every tool call passes `Gate::run`, which checks the policy,
//! asks a human when the policy says so, audits before and after, and only
//! then runs the tool, within its own timeout counted from after approval.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use async_trait::async_trait;
use jarvis_protocol::{ApprovalDecision, ApprovalRequest, ToolStatus};
use tokio::sync::oneshot;

mod ask;
mod call;

use super::{Decision, Policy, TurnFacts, Verdict, shell};
use crate::store::Store;
use crate::tools::{Capability, ToolContext};

/// A human (or a script standing in for one) who answers approval requests.
/// `None` means "I cannot answer"; the gate then waits for an answer through
/// the brain API until the timeout, which is a denial.
#[async_trait]
pub trait Approver: Send + Sync {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision>;
    fn name(&self) -> &str;
}

/// No UI: answers come only as `Op::ApprovalDecision`, or the timeout denies.
pub struct NoApprover;

#[async_trait]
impl Approver for NoApprover {
    async fn decide(&self, _: &ApprovalRequest) -> Option<ApprovalDecision> {
        None
    }
    fn name(&self) -> &str {
        "none"
    }
}

/// `--yes`: allow once, every time. A `block` never reaches an approver.
pub struct AllowOnceApprover;

#[async_trait]
impl Approver for AllowOnceApprover {
    async fn decide(&self, _: &ApprovalRequest) -> Option<ApprovalDecision> {
        Some(ApprovalDecision::AllowOnce)
    }
    fn name(&self) -> &str {
        "--yes"
    }
}

pub struct DenyApprover;

#[async_trait]
impl Approver for DenyApprover {
    async fn decide(&self, _: &ApprovalRequest) -> Option<ApprovalDecision> {
        Some(ApprovalDecision::Deny { reason: None })
    }
    fn name(&self) -> &str {
        "deny-all"
    }
}

/// Answers from a script, in order, and remembers what it was asked.
/// Past the end of the script it denies.
#[derive(Default)]
pub struct ScriptedApprover {
    answers: Mutex<VecDeque<(Option<Duration>, ApprovalDecision)>>,
    pub asked: Mutex<Vec<ApprovalRequest>>,
}

impl ScriptedApprover {
    pub fn new(answers: impl IntoIterator<Item = ApprovalDecision>) -> Self {
        ScriptedApprover {
            answers: Mutex::new(answers.into_iter().map(|a| (None, a)).collect()),
            asked: Mutex::new(vec![]),
        }
    }
    /// Answers after a delay, like a person reading the dialog.
    pub fn delayed(answers: impl IntoIterator<Item = (Duration, ApprovalDecision)>) -> Self {
        ScriptedApprover {
            answers: Mutex::new(answers.into_iter().map(|(d, a)| (Some(d), a)).collect()),
            asked: Mutex::new(vec![]),
        }
    }
    pub fn asked(&self) -> Vec<ApprovalRequest> {
        self.asked.lock().map(|a| a.clone()).unwrap_or_default()
    }
}

#[async_trait]
impl Approver for ScriptedApprover {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision> {
        if let Ok(mut a) = self.asked.lock() {
            a.push(request.clone());
        }
        let next = self.answers.lock().ok().and_then(|mut q| q.pop_front());
        match next {
            Some((delay, d)) => {
                if let Some(delay) = delay {
                    tokio::time::sleep(delay).await;
                }
                Some(d)
            }
            None => Some(ApprovalDecision::Deny {
                reason: Some("the script had no more answers".into()),
            }),
        }
    }
    fn name(&self) -> &str {
        "scripted"
    }
}

/// How one call ended: the text the model gets and the line people see.
#[derive(Debug, Clone, PartialEq)]
pub struct CallOutcome {
    pub call_id: String,
    pub tool: String,
    pub status: ToolStatus,
    pub content: String,
    pub summary: String,
    pub duration_ms: u64,
    pub read_only: bool,
}

/// Questions waiting for an answer, each with the channel that answers it.
/// The sender is taken by the first answer; the entry itself goes when the
/// question is taken down (with its `ApprovalResolved`, as one step).
type Pending = Mutex<
    HashMap<
        String,
        (
            ApprovalRequest,
            Option<oneshot::Sender<(ApprovalDecision, String)>>,
        ),
    >,
>;

/// The model is told this many refusals for want of an approval, then the
/// run stops.
pub const MAX_UNANSWERED: usize = 3;

/// How long a tool that was cancelled mid-way may take to finish on its own,
/// so that work which completed is reported as completed.
const CANCEL_GRACE: Duration = Duration::from_secs(2);

pub struct Gate {
    policy: RwLock<Policy>,
    store: Arc<Store>,
    approver: Arc<dyn Approver>,
    pending: Pending,
    approval_timeout: RwLock<Duration>,
    known_secrets: RwLock<Vec<String>>,
}

impl Gate {
    pub fn new(
        policy: Policy,
        store: Arc<Store>,
        approver: Arc<dyn Approver>,
        approval_timeout: Duration,
    ) -> Self {
        Gate {
            policy: RwLock::new(policy),
            store,
            approver,
            pending: Mutex::new(HashMap::new()),
            approval_timeout: RwLock::new(approval_timeout),
            known_secrets: RwLock::new(vec![]),
        }
    }

    pub fn set_policy(&self, policy: Policy, approval_timeout: Duration) {
        if let Ok(mut p) = self.policy.write() {
            *p = policy;
        }
        if let Ok(mut t) = self.approval_timeout.write() {
            *t = approval_timeout;
        }
    }

    /// Values that must never be written to the audit (the API key).
    pub fn set_known_secrets(&self, secrets: Vec<String>) {
        if let Ok(mut s) = self.known_secrets.write() {
            *s = secrets;
        }
    }

    /// One more such value (the embedded engine's token), kept beside the rest.
    pub fn add_known_secret(&self, secret: &str) {
        if let Ok(mut s) = self.known_secrets.write()
            && !s.iter().any(|k| k == secret)
        {
            s.push(secret.to_string());
        }
    }

    fn secrets(&self) -> Vec<String> {
        self.known_secrets
            .read()
            .map(|s| s.clone())
            .unwrap_or_default()
    }

    /// Answers a pending request; false if nothing is waiting under that id.
    pub fn resolve(&self, request_id: &str, decision: ApprovalDecision, decided_by: &str) -> bool {
        let tx = self
            .pending
            .lock()
            .ok()
            .and_then(|mut p| p.get_mut(request_id).and_then(|(_, tx)| tx.take()));
        match tx {
            Some(tx) => tx.send((decision, decided_by.to_string())).is_ok(),
            None => false,
        }
    }

    /// The questions waiting for an answer now, oldest first.
    pub fn pending(&self) -> Vec<ApprovalRequest> {
        let mut v: Vec<ApprovalRequest> = self
            .pending
            .lock()
            .map(|p| p.values().map(|(r, _)| r.clone()).collect())
            .unwrap_or_default();
        v.sort_by_key(|r| r.expires_at);
        v
    }

    fn policy_check(&self, caps: &[Capability], ctx: &ToolContext) -> Decision {
        let turn = TurnFacts {
            tainted: ctx.tainted,
            unattended: !ctx.run.is_interactive(),
            own_workdir: ctx.run.own_workdir,
        };
        match self.policy.read() {
            Ok(p) => p.check(caps, &ctx.workdir, turn),
            Err(_) => Decision {
                verdict: Verdict::Block,
                reason: "policy unavailable".into(),
            },
        }
    }
}

/// A command or a created tool, which runs without the network unless this
/// call is given it.
fn offers_network(caps: &[Capability]) -> bool {
    caps.iter()
        .any(|c| matches!(c, Capability::Exec { .. } | Capability::CreatedTool { .. }))
}

/// What an "always allow" covers: each base command for exec, the version
/// for a created tool, else the tool. Nothing for what creates skills,
/// tools or MCP servers, for an MCP server's tools (trusting a server is
/// a setting the user changes, not an answer to a dialog), or for the
/// hub's (each schedule, each approval handed to a task, is its own).
fn grant_scopes(tool_name: &str, caps: &[Capability]) -> (String, Vec<String>) {
    if caps.iter().any(|c| {
        matches!(
            c,
            Capability::CreateExtension { .. } | Capability::Mcp { .. } | Capability::Task { .. }
        )
    }) {
        return (tool_name.to_string(), vec![]);
    }
    let mut scopes = Vec::new();
    for c in caps {
        if let Capability::Exec { command, .. } = c {
            let bases = shell::base_commands(command);
            // Nothing nameable: the grant covers this exact command only.
            if bases.is_empty() {
                scopes.push(format!("exactly: {command}"));
            }
            scopes.extend(bases);
        }
        if let Capability::CreatedTool { hash, .. } = c {
            scopes.push(format!("sha256:{hash}"));
        }
    }
    if scopes.is_empty() {
        scopes.push("*".into());
    }
    scopes.sort();
    scopes.dedup();
    (tool_name.to_string(), scopes)
}

/// Control characters and bidi overrides made visible, so an approval shows
/// what will run, not what a terminal or a renderer makes of it.
pub fn neutralize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{061C}'
            | '\u{200B}'..='\u{200D}'
            | '\u{FEFF}' => {
                out.push_str(&format!("<U+{:04X}>", c as u32));
            }
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}
