//! Asking a person: one question at a time per run, each with its own
//! timeout from the moment it is shown; whichever answers first wins (the
//! approver — dialog, terminal, script — or an Op from another host), and a
//! question that goes away unanswered (a cancel, a dropped call) is
//! withdrawn everywhere.

use std::time::Duration;

use jarvis_protocol::{ApprovalDecision, ApprovalRequest, Event};
use tokio::sync::oneshot;

use super::{Gate, neutralize, offers_network};
use crate::policy::Decision;
use crate::tools::{Capability, ToolContext};

/// A question on screen; withdrawn when dropped before it was answered.
struct Shown<'a> {
    gate: &'a Gate,
    ctx: &'a ToolContext,
    request_id: String,
    answered: bool,
}

impl Shown<'_> {
    /// Takes the question down and says how it was decided, as one step.
    fn resolve(&mut self, decision: &ApprovalDecision, by: &str) {
        self.answered = true;
        let gate = self.gate;
        let id = self.request_id.clone();
        self.ctx
            .events
            .emit_with(self.ctx.session_id.as_deref(), || {
                if let Ok(mut p) = gate.pending.lock() {
                    p.remove(&id);
                }
                Some(Event::ApprovalResolved {
                    request_id: id.clone(),
                    decision: decision.clone(),
                    decided_by: by.to_string(),
                })
            });
    }
}

impl Drop for Shown<'_> {
    fn drop(&mut self) {
        if !self.answered {
            let deny = ApprovalDecision::Deny {
                reason: Some("the question was withdrawn".into()),
            };
            self.resolve(&deny, "withdrawn");
        }
    }
}

fn deny(reason: String) -> ApprovalDecision {
    ApprovalDecision::Deny {
        reason: Some(reason),
    }
}

/// The question a person sees for this call.
fn question(
    tool_name: &str,
    caps: &[Capability],
    decision: &Decision,
    scopes: &[String],
    details: Option<String>,
    ctx: &ToolContext,
    timeout: Duration,
) -> ApprovalRequest {
    ApprovalRequest {
        request_id: uuid::Uuid::new_v4().to_string(),
        call_id: ctx.call_id.clone(),
        session_id: ctx.session_id.clone(),
        tool: tool_name.to_string(),
        subject: neutralize(&Capability::subjects(caps)),
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
        expires_at: crate::store::now_ms() + timeout.as_millis() as i64,
    }
}

impl Gate {
    pub(super) async fn ask(
        &self,
        tool_name: &str,
        caps: &[Capability],
        decision: &Decision,
        scopes: &[String],
        details: Option<String>,
        ctx: &ToolContext,
    ) -> (ApprovalDecision, String) {
        // A run asks one question at a time; other runs do not wait for it.
        let _one_per_run = tokio::select! {
            g = ctx.run.asking.lock() => g,
            _ = ctx.cancel.cancelled() => return (deny("the turn was cancelled".into()), "cancel".into()),
        };
        // The timeout runs from the moment the question is shown.
        let timeout = self
            .approval_timeout
            .read()
            .map(|t| *t)
            .unwrap_or(Duration::from_secs(60));
        let deadline = tokio::time::sleep(timeout);
        let mut deadline = std::pin::pin!(deadline);
        let request = question(tool_name, caps, decision, scopes, details, ctx, timeout);
        let (tx, mut rx) = oneshot::channel();
        // Kept and told as one step, so a snapshot has it exactly when its
        // number is included.
        ctx.events.emit_with(ctx.session_id.as_deref(), || {
            if let Ok(mut p) = self.pending.lock() {
                p.insert(request.request_id.clone(), (request.clone(), Some(tx)));
            }
            Some(Event::ApprovalRequested {
                request: request.clone(),
            })
        });
        let mut shown = Shown {
            gate: self,
            ctx,
            request_id: request.request_id.clone(),
            answered: false,
        };
        let mut from_approver = std::pin::pin!(self.approver.decide(&request));
        let mut approver_silent = false;
        let no_answer = || deny(format!("no answer within {} s", timeout.as_secs()));
        let (decision, by) = loop {
            tokio::select! {
                d = &mut from_approver, if !approver_silent => match d {
                    Some(d) => break (d, format!("user ({})", self.approver.name())),
                    None => approver_silent = true,
                },
                r = &mut rx => match r {
                    Ok((d, by)) => break (d, format!("user ({by})")),
                    Err(_) => break (deny("the approval channel closed".into()), "gate".into()),
                },
                _ = &mut deadline => break (no_answer(), "timeout".into()),
                _ = ctx.cancel.cancelled() => break (deny("the turn was cancelled".into()), "cancel".into()),
            }
        };
        // An answer arriving from now on finds nothing waiting (and its
        // host is told so), instead of being accepted and ignored.
        rx.close();
        shown.resolve(&decision, &by);
        (decision, by)
    }
}
