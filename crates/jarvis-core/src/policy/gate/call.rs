//! One call through the gate, step by step: read the call, pin its
//! addresses, decide (policy, grants, a person or the run's mode), audit,
//! run within the tool's own timeout.

use std::sync::Arc;
use std::time::Instant;

use jarvis_protocol::{ApprovalDecision, ToolStatus};
use serde_json::Value;

use super::{CANCEL_GRACE, CallOutcome, Gate, MAX_UNANSWERED, grant_scopes, offers_network};
use crate::policy::{Decision, Verdict, redact};
use crate::store::AuditEntry;
use crate::tools::{Capability, Tool, ToolContext, ToolError, ToolRegistry};

/// The state of one call: what the audit says of it, and its outcome so far.
struct Call<'a> {
    gate: &'a Gate,
    tool_name: &'a str,
    ctx: ToolContext,
    started: Instant,
    audit_args: String,
    row: Option<i64>,
    outcome: CallOutcome,
}

/// A call read: the tool, its arguments, what it will touch.
type Read<'a> = (Call<'a>, Arc<dyn Tool>, Value, Vec<Capability>);

/// What a decision leaves to do: run (with or without network), or stop
/// with what the model is told and the audit's outcome label.
enum Next {
    Run {
        network_approved: bool,
    },
    Stop {
        status: ToolStatus,
        content: String,
        summary: String,
        label: &'static str,
    },
}

impl<'a> Call<'a> {
    fn new(gate: &'a Gate, tool_name: &'a str, raw_args: &str, ctx: &ToolContext) -> Self {
        let secrets = gate.secrets();
        let audit_args = match serde_json::from_str::<Value>(raw_args) {
            Ok(v) => redact::summarize(&redact(&v, &secrets)).to_string(),
            Err(_) => redact::summarize_text(&redact::redact_text(raw_args, &secrets)),
        };
        Call {
            gate,
            tool_name,
            ctx: ctx.clone(),
            started: Instant::now(),
            audit_args,
            row: None,
            outcome: CallOutcome {
                call_id: ctx.call_id.clone(),
                tool: tool_name.to_string(),
                status: ToolStatus::Error,
                content: String::new(),
                summary: String::new(),
                duration_ms: 0,
                read_only: false,
            },
        }
    }

    /// Writes the row before anything runs; `None` when it could not be written.
    fn audit(&mut self, verdict: &str, reason: &str, by: &str) -> Option<i64> {
        self.row = self
            .gate
            .store
            .audit_begin(&AuditEntry {
                call_id: &self.ctx.call_id,
                session_id: self.ctx.session_id.as_deref(),
                tool: self.tool_name,
                arguments: &self.audit_args,
                verdict,
                reason,
                decided_by: by,
            })
            .map_err(|e| tracing::error!("audit write failed: {e}"))
            .ok();
        self.row
    }

    /// Who decided, once a question was answered (or stood in for).
    fn decided(&self, verdict: &str, reason: &str, by: &str) {
        if let Some(id) = self.row {
            let _ = self.gate.store.audit_decided(id, verdict, reason, by);
        }
    }

    fn finish(mut self, label: &str) -> CallOutcome {
        self.outcome.duration_ms = self.started.elapsed().as_millis() as u64;
        if let Some(id) = self.row
            && let Err(e) = self
                .gate
                .store
                .audit_finish(id, label, self.outcome.duration_ms)
        {
            tracing::error!("audit write failed: {e}");
        }
        self.outcome
    }

    /// The tool, its arguments as an object, and what it will touch; or the
    /// outcome that tells the model what was wrong.
    fn read(mut self, registry: &ToolRegistry, raw_args: &str) -> Result<Read<'a>, CallOutcome> {
        let tool_name = self.tool_name;
        let invalid = |mut call: Self, reason: &str, content: String, summary: String| {
            call.audit("invalid", reason, "gate");
            call.outcome.content = content;
            call.outcome.summary = summary;
            call.finish("error")
        };
        let Some(tool) = registry.get(tool_name) else {
            let names = registry.names().join(", ");
            return Err(invalid(
                self,
                "unknown tool",
                format!("error: there is no tool named {tool_name:?}. Valid tools: {names}"),
                "unknown tool".into(),
            ));
        };
        let text = if raw_args.trim().is_empty() {
            "{}"
        } else {
            raw_args
        };
        let args = match serde_json::from_str::<Value>(text) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) | Err(_) => {
                let content = format!(
                    "error: the arguments for {tool_name} are not a valid JSON object: {}. Expected parameters: {}",
                    raw_args.chars().take(200).collect::<String>(),
                    tool.parameters()
                );
                return Err(invalid(
                    self,
                    "arguments are not a JSON object",
                    content,
                    "invalid JSON arguments".into(),
                ));
            }
        };
        match tool.capabilities(&args, &self.ctx) {
            Ok(caps) => {
                self.outcome.read_only = caps.iter().all(Capability::is_read_only);
                Ok((self, tool, args, caps))
            }
            Err(e) => Err(invalid(
                self,
                &e.to_string(),
                format!("error: {e}"),
                e.to_string(),
            )),
        }
    }

    /// Resolves host names now, so the policy judges every address and the
    /// request is pinned to what was judged.
    async fn pin(&mut self, caps: &mut [Capability]) {
        for cap in caps.iter_mut() {
            if let Capability::Network { url, addrs, .. } = cap
                && let Ok((target, _)) = crate::policy::url::check_static(url)
                && let Some(domain) = target
                    .domain
                    .clone()
                    .filter(|d| d != "localhost" && !d.ends_with(".localhost"))
                && let Ok(found) = self.ctx.resolver.lookup(&domain, target.port).await
            {
                self.ctx.pinned.push((
                    domain,
                    found
                        .iter()
                        .map(|ip| std::net::SocketAddr::new(*ip, target.port))
                        .collect(),
                ));
                *addrs = found;
            }
        }
    }
}

impl Gate {
    /// Runs one call through the gate. Never fails: every call gets exactly
    /// one outcome, which is what the model sees.
    pub async fn run(
        &self,
        registry: &ToolRegistry,
        tool_name: &str,
        raw_args: &str,
        ctx: &ToolContext,
    ) -> CallOutcome {
        let call = Call::new(self, tool_name, raw_args, ctx);
        let (mut call, tool, args, mut caps) = match call.read(registry, raw_args) {
            Ok(x) => x,
            Err(out) => return out,
        };
        call.pin(&mut caps).await;
        let decision = self.policy_check(&caps, &call.ctx);
        if call
            .audit(decision.verdict.as_str(), &decision.reason, "policy")
            .is_none()
        {
            // No record of it, no call.
            call.outcome.status = ToolStatus::Refused;
            call.outcome.content = "refused: the audit log could not be written, so nothing was run. Tell the user to check the disk and Jarvis's database.".into();
            call.outcome.summary = "refused: the audit could not be written".into();
            call.outcome.duration_ms = call.started.elapsed().as_millis() as u64;
            return call.outcome;
        }
        let next = match decision.verdict {
            Verdict::Block => blocked(&decision),
            Verdict::Ask if !call.ctx.run.is_interactive() => unattended(&call, &caps, &decision),
            Verdict::Ask => {
                self.ask_person(&call, &*tool, &args, &caps, &decision)
                    .await
            }
            Verdict::Allow => Next::Run {
                network_approved: false,
            },
        };
        match next {
            Next::Stop {
                status,
                content,
                summary,
                label,
            } => {
                call.outcome.status = status;
                call.outcome.content = content;
                call.outcome.summary = summary;
                call.finish(label)
            }
            Next::Run { network_approved } => {
                call.ctx.network_approved = network_approved;
                execute(call, &*tool, args).await
            }
        }
    }

    /// An interactive `ask`: an always-allow grant, or a person's answer.
    async fn ask_person(
        &self,
        call: &Call<'_>,
        tool: &dyn Tool,
        args: &Value,
        caps: &[Capability],
        decision: &Decision,
    ) -> Next {
        let tool_name = call.tool_name;
        let (tool_key, scopes) = grant_scopes(tool_name, caps);
        let granted = !scopes.is_empty()
            && scopes
                .iter()
                .all(|s| self.store.has_grant(&tool_key, s).unwrap_or(false));
        if granted {
            call.decided(
                "allow",
                &format!("{} (always-allow grant)", decision.reason),
                "grant",
            );
            return Next::Run {
                network_approved: false,
            };
        }
        let preview = tool.preview(args, &call.ctx);
        let (d, by) = self
            .ask(tool_name, caps, decision, &scopes, preview, &call.ctx)
            .await;
        // The verdict stays "ask" (`allow` means it ran without a question);
        // who answered is `decided_by`, what came of it the outcome.
        let reason = match d {
            ApprovalDecision::AllowWithNetwork => {
                format!("{} (allowed with network)", decision.reason)
            }
            _ => decision.reason.clone(),
        };
        call.decided("ask", &reason, &by);
        match d {
            // Nothing creates a lasting grant where none is offered.
            ApprovalDecision::AlwaysAllow if !scopes.is_empty() => {
                for s in &scopes {
                    if let Err(e) = self.store.add_grant(&tool_key, s) {
                        tracing::error!("cannot store grant: {e}");
                    }
                }
                Next::Run {
                    network_approved: false,
                }
            }
            ApprovalDecision::AllowWithNetwork => Next::Run {
                network_approved: offers_network(caps),
            },
            ApprovalDecision::AlwaysAllow | ApprovalDecision::AllowOnce => Next::Run {
                network_approved: false,
            },
            ApprovalDecision::Deny { reason } => Next::Stop {
                status: ToolStatus::Refused,
                content: match reason {
                    Some(r) if !r.is_empty() => format!("the user denied this call: {r}"),
                    _ => "the user denied this call.".to_string(),
                },
                summary: format!("denied ({by})"),
                label: "denied",
            },
        }
    }
}

fn blocked(decision: &Decision) -> Next {
    Next::Stop {
        status: ToolStatus::Refused,
        content: format!(
            "refused by Jarvis's safety policy: {}. This cannot be approved; do not retry it.",
            decision.reason
        ),
        summary: format!("blocked: {}", decision.reason),
        label: "blocked",
    }
}

/// An `ask` in a run nobody can answer: what was approved in advance runs;
/// the rest is refused and told to the model.
fn unattended(call: &Call<'_>, caps: &[Capability], decision: &Decision) -> Next {
    let run = &call.ctx.run;
    if run.pre_approves(caps) {
        call.decided(
            "ask",
            &format!("{} (approved when the run was created)", decision.reason),
            "pre-approved",
        );
        return Next::Run {
            network_approved: false,
        };
    }
    let subject = Capability::subjects(caps);
    run.record_needed_kinds(caps);
    let n = run.record_needed(format!("{}: {subject}", call.tool_name));
    call.decided(
        "ask",
        &decision.reason,
        &format!("unattended ({})", run.origin.as_str()),
    );
    Next::Stop {
        status: ToolStatus::Refused,
        content: format!(
            "not run: this needs your approval ({}), and nobody can approve it in this {} run; the user has been told. {}",
            decision.reason,
            run.origin.as_str(),
            if n >= MAX_UNANSWERED {
                "The run stops here."
            } else {
                "Do what you can without it, or finish and say what is missing."
            }
        ),
        summary: "needs approval (unattended)".into(),
        label: "needs_approval",
    }
}

/// Runs the tool within its own timeout, counted from now (after any
/// approval), and records how it ended.
async fn execute(mut call: Call<'_>, tool: &dyn Tool, args: Value) -> CallOutcome {
    let limit = tool.timeout(&args);
    let result = {
        let ctx = &call.ctx;
        let work = tokio::time::timeout(limit, tool.execute(ctx, args));
        let mut work = std::pin::pin!(work);
        let timed_out = || Err(ToolError::Timeout(limit.as_secs()));
        tokio::select! {
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
        }
    };
    let (status, content, summary, label) = match result {
        Ok(out) => (ToolStatus::Ok, out.content, out.summary, "ok"),
        Err(ToolError::Refused(why)) => (
            ToolStatus::Refused,
            format!("refused by Jarvis's safety policy: {why}. Do not retry it."),
            format!("blocked: {why}"),
            "blocked",
        ),
        Err(ToolError::Cancelled) => (
            ToolStatus::Cancelled,
            "cancelled by the user before it finished.".into(),
            "cancelled".into(),
            "cancelled",
        ),
        Err(e) => (
            ToolStatus::Error,
            format!("error: {e}"),
            e.to_string(),
            "error",
        ),
    };
    call.outcome.status = status;
    call.outcome.content = content;
    call.outcome.summary = summary;
    call.finish(label)
}
