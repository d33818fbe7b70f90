//! The one gate: every tool call passes `Gate::run`, which checks the policy,
//! asks a human when the policy says so, audits before and after, and only
//! then runs the tool, within its own timeout counted from after approval.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use jarvis_protocol::{ApprovalDecision, ApprovalRequest, Event, ToolStatus};
use serde_json::Value;
use tokio::sync::oneshot;

use super::{Decision, Policy, TurnFacts, Verdict, redact, shell};
use crate::store::{AuditEntry, Store};
use crate::tools::{Capability, ToolContext, ToolError, ToolRegistry};

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
type Pending =
    Mutex<HashMap<String, (ApprovalRequest, oneshot::Sender<(ApprovalDecision, String)>)>>;

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
            .and_then(|mut p| p.remove(request_id));
        match tx {
            Some((_, tx)) => tx.send((decision, decided_by.to_string())).is_ok(),
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
        };
        match self.policy.read() {
            Ok(p) => p.check(caps, &ctx.workdir, turn),
            Err(_) => Decision {
                verdict: Verdict::Block,
                reason: "policy unavailable".into(),
            },
        }
    }

    /// Runs one call through the gate. Never fails: every call gets exactly
    /// one outcome, which is what the model sees.
    pub async fn run(
        &self,
        registry: &ToolRegistry,
        tool_name: &str,
        raw_args: &str,
        ctx: &ToolContext,
    ) -> CallOutcome {
        let started = Instant::now();
        let secrets = self.secrets();
        let audit_args = match serde_json::from_str::<Value>(raw_args) {
            Ok(v) => super::redact::summarize(&redact(&v, &secrets)).to_string(),
            Err(_) => {
                super::redact::summarize_text(&super::redact::redact_text(raw_args, &secrets))
            }
        };
        let mut outcome = CallOutcome {
            call_id: ctx.call_id.clone(),
            tool: tool_name.to_string(),
            status: ToolStatus::Error,
            content: String::new(),
            summary: String::new(),
            duration_ms: 0,
            read_only: false,
        };
        let audit = |verdict: &str, reason: &str, by: &str| {
            self.store
                .audit_begin(&AuditEntry {
                    call_id: &ctx.call_id,
                    session_id: ctx.session_id.as_deref(),
                    tool: tool_name,
                    arguments: &audit_args,
                    verdict,
                    reason,
                    decided_by: by,
                })
                .map_err(|e| tracing::error!("audit write failed: {e}"))
                .ok()
        };
        let finish = |row: Option<i64>, outcome: &mut CallOutcome, label: &str| {
            outcome.duration_ms = started.elapsed().as_millis() as u64;
            if let Some(id) = row
                && let Err(e) = self.store.audit_finish(id, label, outcome.duration_ms)
            {
                tracing::error!("audit write failed: {e}");
            }
        };

        let Some(tool) = registry.get(tool_name) else {
            let row = audit("invalid", "unknown tool", "gate");
            outcome.content = format!(
                "error: there is no tool named {tool_name:?}. Valid tools: {}",
                registry.names().join(", ")
            );
            outcome.summary = "unknown tool".into();
            finish(row, &mut outcome, "error");
            return outcome;
        };
        let args: Value = match serde_json::from_str(if raw_args.trim().is_empty() {
            "{}"
        } else {
            raw_args
        }) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) | Err(_) => {
                let row = audit("invalid", "arguments are not a JSON object", "gate");
                outcome.content = format!(
                    "error: the arguments for {tool_name} are not a valid JSON object: {}. Expected parameters: {}",
                    raw_args.chars().take(200).collect::<String>(),
                    tool.parameters()
                );
                outcome.summary = "invalid JSON arguments".into();
                finish(row, &mut outcome, "error");
                return outcome;
            }
        };
        let caps = match tool.capabilities(&args, ctx) {
            Ok(c) => c,
            Err(e) => {
                let row = audit("invalid", &e.to_string(), "gate");
                outcome.content = format!("error: {e}");
                outcome.summary = e.to_string();
                finish(row, &mut outcome, "error");
                return outcome;
            }
        };
        outcome.read_only = caps.iter().all(Capability::is_read_only);
        // Resolve host names now, so the policy judges every address and the
        // request is pinned to what was judged.
        let mut caps = caps;
        let mut pinned = Vec::new();
        for cap in caps.iter_mut() {
            if let Capability::Network { url, addrs, .. } = cap
                && let Ok((target, _)) = super::url::check_static(url)
                && let Some(domain) = target
                    .domain
                    .clone()
                    .filter(|d| d != "localhost" && !d.ends_with(".localhost"))
                && let Ok(found) = ctx.resolver.lookup(&domain, target.port).await
            {
                pinned.push((
                    domain,
                    found
                        .iter()
                        .map(|ip| std::net::SocketAddr::new(*ip, target.port))
                        .collect(),
                ));
                *addrs = found;
            }
        }
        let pinned_ctx = ToolContext {
            pinned,
            ..ctx.clone()
        };
        let ctx = &pinned_ctx;
        let decision = self.policy_check(&caps, ctx);
        let row = audit(decision.verdict.as_str(), &decision.reason, "policy");
        if row.is_none() {
            // No record of it, no call.
            outcome.status = ToolStatus::Refused;
            outcome.content = "refused: the audit log could not be written, so nothing was run. Tell the user to check the disk and Jarvis's database.".into();
            outcome.summary = "refused: the audit could not be written".into();
            outcome.duration_ms = started.elapsed().as_millis() as u64;
            return outcome;
        }
        let mut network_approved = false;
        match decision.verdict {
            Verdict::Block => {
                outcome.status = ToolStatus::Refused;
                outcome.content = format!(
                    "refused by Jarvis's safety policy: {}. This cannot be approved; do not retry it.",
                    decision.reason
                );
                outcome.summary = format!("blocked: {}", decision.reason);
                finish(row, &mut outcome, "blocked");
                return outcome;
            }
            Verdict::Ask if !ctx.run.is_interactive() => {
                if ctx.run.pre_approves(&caps) {
                    if let Some(id) = row {
                        let _ = self.store.audit_decided(
                            id,
                            "ask",
                            &format!("{} (approved when the run was created)", decision.reason),
                            "pre-approved",
                        );
                    }
                } else {
                    let subject = caps
                        .iter()
                        .map(Capability::subject)
                        .collect::<Vec<_>>()
                        .join("; ");
                    let n = ctx.run.record_needed(format!("{tool_name}: {subject}"));
                    if let Some(id) = row {
                        let _ = self.store.audit_decided(
                            id,
                            "ask",
                            &decision.reason,
                            &format!("unattended ({})", ctx.run.origin.as_str()),
                        );
                    }
                    outcome.status = ToolStatus::Refused;
                    outcome.content = format!(
                        "not run: this needs your approval ({}), and nobody can approve it in this {} run; the user has been told. {}",
                        decision.reason,
                        ctx.run.origin.as_str(),
                        if n >= MAX_UNANSWERED {
                            "The run stops here."
                        } else {
                            "Do what you can without it, or finish and say what is missing."
                        }
                    );
                    outcome.summary = "needs approval (unattended)".into();
                    finish(row, &mut outcome, "needs_approval");
                    return outcome;
                }
            }
            Verdict::Ask => {
                let (tool_key, scopes) = grant_scopes(tool_name, &caps);
                let granted = !scopes.is_empty()
                    && scopes
                        .iter()
                        .all(|s| self.store.has_grant(&tool_key, s).unwrap_or(false));
                if granted {
                    if let Some(id) = row {
                        let _ = self.store.audit_decided(
                            id,
                            "allow",
                            &format!("{} (always-allow grant)", decision.reason),
                            "grant",
                        );
                    }
                } else {
                    let (d, by) = self
                        .ask(
                            tool_name,
                            &caps,
                            &decision,
                            &scopes,
                            tool.preview(&args, ctx),
                            ctx,
                        )
                        .await;
                    // The verdict stays "ask" (`allow` means it ran without a
                    // question); who answered is `decided_by`, what came of
                    // it the outcome ("denied" or the tool's).
                    if let Some(id) = row {
                        let reason = match d {
                            ApprovalDecision::AllowWithNetwork => {
                                format!("{} (allowed with network)", decision.reason)
                            }
                            _ => decision.reason.clone(),
                        };
                        let _ = self.store.audit_decided(id, "ask", &reason, &by);
                    }
                    match d {
                        // Nothing creates a lasting grant where none is offered.
                        ApprovalDecision::AlwaysAllow if !scopes.is_empty() => {
                            for s in &scopes {
                                if let Err(e) = self.store.add_grant(&tool_key, s) {
                                    tracing::error!("cannot store grant: {e}");
                                }
                            }
                        }
                        ApprovalDecision::AllowWithNetwork => {
                            network_approved = offers_network(&caps)
                        }
                        ApprovalDecision::AlwaysAllow | ApprovalDecision::AllowOnce => {}
                        ApprovalDecision::Deny { reason } => {
                            outcome.status = ToolStatus::Refused;
                            outcome.content = match reason {
                                Some(r) if !r.is_empty() => {
                                    format!("the user denied this call: {r}")
                                }
                                _ => "the user denied this call.".to_string(),
                            };
                            outcome.summary = format!("denied ({by})");
                            finish(row, &mut outcome, "denied");
                            return outcome;
                        }
                    }
                }
            }
            Verdict::Allow => {}
        }
        let approved_ctx;
        let ctx = if network_approved {
            approved_ctx = ToolContext {
                network_approved: true,
                ..ctx.clone()
            };
            &approved_ctx
        } else {
            ctx
        };
        // The tool's own timeout starts now, after any approval.
        let limit = tool.timeout(&args);
        let work = tokio::time::timeout(limit, tool.execute(ctx, args));
        let mut work = std::pin::pin!(work);
        let timed_out = || Err(ToolError::Timeout(limit.as_secs()));
        let result = tokio::select! {
            r = &mut work => r.unwrap_or_else(|_| timed_out()),
            _ = ctx.cancel.cancelled() => {
                // A tool that watches the cancel stops itself (a command is
                // killed); one that cannot (a write under way) finishes, and
                // what it did is what is reported.
                match tokio::time::timeout(CANCEL_GRACE, &mut work).await {
                    Ok(r) => r.unwrap_or_else(|_| timed_out()),
                    Err(_) => Err(ToolError::Cancelled),
                }
            }
        };
        let label = match result {
            Ok(out) => {
                outcome.status = ToolStatus::Ok;
                outcome.content = out.content;
                outcome.summary = out.summary;
                "ok"
            }
            Err(ToolError::Refused(why)) => {
                outcome.status = ToolStatus::Refused;
                outcome.content =
                    format!("refused by Jarvis's safety policy: {why}. Do not retry it.");
                outcome.summary = format!("blocked: {why}");
                "blocked"
            }
            Err(ToolError::Cancelled) => {
                outcome.status = ToolStatus::Cancelled;
                outcome.content = "cancelled by the user before it finished.".into();
                outcome.summary = "cancelled".into();
                "cancelled"
            }
            Err(e) => {
                outcome.content = format!("error: {e}");
                outcome.summary = e.to_string();
                "error"
            }
        };
        finish(row, &mut outcome, label);
        outcome
    }

    async fn ask(
        &self,
        tool_name: &str,
        caps: &[Capability],
        decision: &Decision,
        scopes: &[String],
        details: Option<String>,
        ctx: &ToolContext,
    ) -> (ApprovalDecision, String) {
        // The timeout runs from the moment the question is asked, even while
        // an earlier question of the same run is still on screen.
        let timeout = self
            .approval_timeout
            .read()
            .map(|t| *t)
            .unwrap_or(Duration::from_secs(60));
        let deadline = tokio::time::sleep(timeout);
        let mut deadline = std::pin::pin!(deadline);
        let expires_at = crate::store::now_ms() + timeout.as_millis() as i64;
        let _one_per_run = tokio::select! {
            g = ctx.run.asking.lock() => g,
            _ = &mut deadline => return (
                ApprovalDecision::Deny { reason: Some(format!("no answer within {} s", timeout.as_secs())) },
                "timeout".into(),
            ),
            _ = ctx.cancel.cancelled() => return (
                ApprovalDecision::Deny { reason: Some("the turn was cancelled".into()) },
                "cancel".into(),
            ),
        };
        let request = ApprovalRequest {
            request_id: uuid::Uuid::new_v4().to_string(),
            call_id: ctx.call_id.clone(),
            session_id: ctx.session_id.clone(),
            tool: tool_name.to_string(),
            subject: neutralize(
                &caps
                    .iter()
                    .map(Capability::subject)
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
            details: details.map(|d| neutralize(&d)),
            workdir: ctx.workdir.display().to_string(),
            reason: neutralize(&decision.reason),
            grant_scope: if scopes.is_empty() {
                String::new()
            } else if scopes.iter().all(|s| s == "*") {
                format!("always allow {tool_name}")
            } else {
                format!("always allow {tool_name} for: {}", scopes.join(", "))
            },
            allow_always: !scopes.is_empty(),
            offer_network: offers_network(caps) && !ctx.exec_sandbox.network,
            timeout_sec: timeout.as_secs(),
            origin: ctx.run.origin,
            run_id: ctx.run.run_id.clone(),
            expires_at,
        };
        let (tx, mut rx) = oneshot::channel();
        if let Ok(mut p) = self.pending.lock() {
            p.insert(request.request_id.clone(), (request.clone(), tx));
        }
        ctx.events.emit(
            ctx.session_id.as_deref(),
            Event::ApprovalRequested {
                request: request.clone(),
            },
        );
        let mut from_approver = std::pin::pin!(self.approver.decide(&request));
        let mut approver_silent = false;
        // Whichever answers first wins: the approver (dialog, terminal,
        // script) or an Op from another host (the HUD).
        let (decision, by) = loop {
            tokio::select! {
                d = &mut from_approver, if !approver_silent => match d {
                    Some(d) => break (d, format!("user ({})", self.approver.name())),
                    None => approver_silent = true,
                },
                r = &mut rx => match r {
                    Ok((d, by)) => break (d, format!("user ({by})")),
                    Err(_) => break (ApprovalDecision::Deny { reason: Some("the approval channel closed".into()) }, "gate".into()),
                },
                _ = &mut deadline => break (
                    ApprovalDecision::Deny { reason: Some(format!("no answer within {} s", timeout.as_secs())) },
                    "timeout".into(),
                ),
                _ = ctx.cancel.cancelled() => break (
                    ApprovalDecision::Deny { reason: Some("the turn was cancelled".into()) },
                    "cancel".into(),
                ),
            }
        };
        if let Ok(mut p) = self.pending.lock() {
            p.remove(&request.request_id);
        }
        ctx.events.emit(
            ctx.session_id.as_deref(),
            Event::ApprovalResolved {
                request_id: request.request_id.clone(),
                decision: decision.clone(),
                decided_by: by.clone(),
            },
        );
        (decision, by)
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
/// tools or MCP servers, or for an MCP server's tools (trusting a server is
/// a setting the user changes, not an answer to a dialog).
fn grant_scopes(tool_name: &str, caps: &[Capability]) -> (String, Vec<String>) {
    if caps.iter().any(|c| {
        matches!(
            c,
            Capability::CreateExtension { .. } | Capability::Mcp { .. }
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
