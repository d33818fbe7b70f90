//! Starting runs, keeping track of them, and making sure each one ends: a
//! run that panics or errors still frees its session and says it finished.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use jarvis_protocol::{Event, RunInfo, RunSpec, Snapshot, StopReason, Usage};
use tokio_util::sync::CancellationToken;

use super::{BrainError, Inner, turn, workdir};
use crate::policy::run::{PRE_APPROVABLE, RunFacts};

/// A run in progress.
pub(crate) struct ActiveRun {
    pub cancel: CancellationToken,
    pub info: RunInfo,
    /// The latest Stop everything when the run began: only a newer one
    /// stops it.
    pub stop_epoch: i64,
    /// Tool calls the model has begun and that have not finished, in order:
    /// the first is the snapshot's `tool`.
    pub calls: Vec<(String, String)>,
}

/// How a run ended, for whoever started it and waits (the task runner).
#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub stop: StopReason,
    pub usage: Usage,
    pub rounds: u32,
    /// The model's last answer in this run.
    pub answer: Option<String>,
    /// Kinds of call refused because nobody could approve them.
    pub needs: Vec<String>,
    pub error: Option<String>,
}

/// Everything one turn needs to know about its run.
pub(crate) struct Run {
    pub outcome: Option<tokio::sync::oneshot::Sender<RunOutcome>>,
    pub spec: RunSpec,
    pub text: String,
    pub turn_id: String,
    pub cancel: CancellationToken,
    pub facts: Arc<RunFacts>,
    pub workdir: PathBuf,
}

/// Frees the session however the run ends; if it ended without saying so
/// (a panic), says so.
struct EndGuard {
    inner: Arc<Inner>,
    session: String,
    turn_id: String,
    /// Ends the run's stop watcher with the run.
    _watch: tokio_util::sync::DropGuard,
}

impl Drop for EndGuard {
    fn drop(&mut self) {
        release(&self.inner, &self.session, &self.turn_id);
    }
}

/// Frees the session of this run (not of a later run in the same session).
pub(crate) fn release(inner: &Inner, session: &str, run_id: &str) {
    let mut r = inner
        .running
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if r.get(session).is_some_and(|a| a.info.run_id == run_id) {
        r.remove(session);
    }
}

/// Frees the session and says the run finished, as one step: a snapshot
/// never shows a run whose `TurnFinished` it already includes.
pub(crate) fn finish(inner: &Inner, session: &str, run_id: &str, event: Event) {
    inner.events.emit_with(Some(session), || {
        release(inner, session, run_id);
        Some(event)
    });
}

impl EndGuard {
    fn abandoned(&self, why: String) {
        self.inner.events.emit(
            Some(&self.session),
            Event::Error {
                message: format!("the turn stopped unexpectedly: {why}"),
                fatal: true,
            },
        );
        if let Err(e) = self
            .inner
            .store
            .finish_turn(&self.turn_id, "failed", &Usage::default(), 0)
        {
            tracing::warn!("could not record the failed turn: {e}");
        }
        finish(
            &self.inner,
            &self.session,
            &self.turn_id,
            Event::TurnFinished {
                turn_id: self.turn_id.clone(),
                stop: StopReason::Failed,
                usage: Usage::default(),
                rounds: 0,
            },
        );
    }
}

fn check_spec(inner: &Inner, spec: &RunSpec) -> Result<PathBuf, BrainError> {
    if spec.session_id.trim().is_empty() {
        return Err(BrainError::InvalidRun("it needs a session id".into()));
    }
    if let jarvis_protocol::ApprovalMode::PreApproved { allow } = &spec.approval
        && let Some(bad) = allow.iter().find(|k| !PRE_APPROVABLE.contains(&k.as_str()))
    {
        return Err(BrainError::InvalidRun(format!(
            "{bad:?} cannot be approved in advance; allowed: {}",
            PRE_APPROVABLE.join(", ")
        )));
    }
    match &spec.workdir {
        Some(w) => workdir::validate(Path::new(w), &inner.protected),
        // With a problem, the policy refuses each tool with the reason and
        // the model can still talk.
        None => Ok(inner.workdir()),
    }
}

/// Starts a run in the background; returns its turn id at once. Its
/// progress and end arrive as events, and it always ends with `TurnFinished`.
pub(crate) fn start(inner: &Arc<Inner>, spec: RunSpec, text: String) -> Result<String, BrainError> {
    start_with(inner, spec, text, None)
}

/// As [`start`]; `outcome` hears how the run ended (dropped unsent if it
/// panicked).
pub(crate) fn start_with(
    inner: &Arc<Inner>,
    spec: RunSpec,
    text: String,
    outcome: Option<tokio::sync::oneshot::Sender<RunOutcome>>,
) -> Result<String, BrainError> {
    let workdir = check_spec(inner, &spec)?;
    let session = spec.session_id.clone();
    let turn_id = uuid::Uuid::new_v4().to_string();
    let cancel = CancellationToken::new();
    // Cheap first: a busy session is refused without touching the database
    // (voice retries every few ms); the check that counts is below.
    if inner
        .running
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .contains_key(&session)
    {
        return Err(BrainError::Busy(session));
    }
    let title: String = text.chars().take(60).collect();
    inner.store.ensure_session(&session, title.trim())?;
    // Read before the run is registered: a stop recorded from here on is
    // newer and stops it.
    let stop_epoch = inner.store.stop_epoch().unwrap_or(0);
    // Taken, and said, as one step (see `finish`).
    let mut busy = true;
    inner.events.emit_with(Some(&session), || {
        let mut running = inner
            .running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if running.contains_key(&session) {
            return None;
        }
        busy = false;
        running.insert(
            session.clone(),
            ActiveRun {
                stop_epoch,
                cancel: cancel.clone(),
                calls: Vec::new(),
                info: RunInfo {
                    run_id: turn_id.clone(),
                    session_id: session.clone(),
                    origin: spec.origin,
                    approval: spec.approval.clone(),
                    started_at: crate::store::now_ms(),
                    // A task's prompt adds its instructions after the user's words.
                    title: text.lines().next().unwrap_or("").chars().take(60).collect(),
                    tool: None,
                },
            },
        );
        Some(Event::TurnStarted {
            turn_id: turn_id.clone(),
        })
    });
    if busy {
        return Err(BrainError::Busy(session));
    }
    let guard = EndGuard {
        inner: inner.clone(),
        session: session.clone(),
        turn_id: turn_id.clone(),
        _watch: watch_for_stop(inner, &cancel, stop_epoch),
    };
    let run = Run {
        outcome,
        facts: Arc::new(
            RunFacts::new(&turn_id, spec.origin, spec.approval.clone())
                .with_own_workdir(spec.workdir.is_some()),
        ),
        spec,
        text,
        turn_id: turn_id.clone(),
        cancel,
        workdir,
    };
    let task_inner = inner.clone();
    let work = tokio::spawn(async move { turn::run(&task_inner, run).await });
    tokio::spawn(async move {
        if let Err(e) = work.await {
            let why = if e.is_panic() {
                let p = e.into_panic();
                p.downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into())
            } else {
                e.to_string()
            };
            tracing::error!("turn {} panicked: {why}", guard.turn_id);
            guard.abandoned(why);
        }
        drop(guard);
    });
    Ok(turn_id)
}

/// How often a running turn looks for a Stop everything made by another
/// process of this home (only while it runs: nothing wakes when idle).
const STOP_CHECK: std::time::Duration = std::time::Duration::from_millis(400);

/// Cancels the turn when a stop newer than its start is recorded; the
/// watcher ends when the returned guard is dropped (the run ended).
fn watch_for_stop(
    inner: &Arc<Inner>,
    cancel: &CancellationToken,
    baseline: i64,
) -> tokio_util::sync::DropGuard {
    let store = inner.store.clone();
    let done = CancellationToken::new();
    let (cancel, ended) = (cancel.clone(), done.clone());
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = ended.cancelled() => return,
                _ = cancel.cancelled() => return,
                _ = tokio::time::sleep(STOP_CHECK) => {
                    if store.stop_epoch().is_ok_and(|e| e > baseline) {
                        cancel.cancel();
                        return;
                    }
                }
            }
        }
    });
    done.drop_guard()
}

pub(crate) fn cancel(inner: &Inner, session: &str) -> bool {
    match inner
        .running
        .lock()
        .ok()
        .and_then(|r| r.get(session).map(|a| a.cancel.clone()))
    {
        Some(t) => {
            t.cancel();
            true
        }
        None => false,
    }
}

/// What is going on now, exact with respect to the numbered events.
/// Sends a tool call's start or end and keeps the run's current tool with
/// it, as one step (a snapshot sees both or neither).
pub(crate) fn emit_call(inner: &Inner, session: &str, event: Event) {
    inner.events.emit_with(Some(session), || {
        if let Ok(mut running) = inner.running.lock()
            && let Some(run) = running.get_mut(session)
        {
            match &event {
                Event::ToolCallStarted { call_id, name } => {
                    run.calls.push((call_id.clone(), name.clone()));
                }
                Event::ToolCallFinished { call_id, .. } => {
                    run.calls.retain(|(id, _)| id != call_id);
                }
                _ => {}
            }
            // Calls run in the order the model made them: the first one not
            // finished is the one running (or waiting for its approval).
            run.info.tool = run.calls.first().map(|(_, name)| name.clone());
        }
        Some(event)
    });
}

pub(crate) fn snapshot(inner: &Inner) -> Snapshot {
    let (seq, (runs, pending_approvals)) = inner.events.quiesced(|| {
        let mut runs: Vec<RunInfo> = inner
            .running
            .lock()
            .map(|r| r.values().map(|a| a.info.clone()).collect())
            .unwrap_or_default();
        runs.sort_by_key(|r| r.started_at);
        (runs, inner.gate.pending())
    });
    Snapshot {
        seq,
        runs,
        pending_approvals,
    }
}
