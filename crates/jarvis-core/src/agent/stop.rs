//! Stop everything: every running turn and task of this home cancelled,
//! wherever it runs, and the schedules held until the user resumes them.
//! Turns here stop at once; turns and tasks in other processes see the
//! stop's row in the store within half a second (turns) or at their next
//! heartbeat (tasks).

use std::sync::atomic::Ordering;

use jarvis_protocol::Event;

use super::{Brain, BrainError, runs};

/// What a stop cancelled in this call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StopReport {
    /// Turns running in this process (a task's own turn counts as the task).
    pub turns: u32,
    /// Tasks queued or running anywhere.
    pub tasks: u32,
}

/// Tasks looked at per stop: far more than ever run at once.
const TASK_SCAN: usize = 1_000;

impl Brain {
    pub fn stop_everything(&self, by: &str) -> Result<StopReport, BrainError> {
        let inner = &self.inner;
        // Recorded first: a turn starting right now in another process
        // takes this stop's number as its baseline and is not cancelled by it.
        let epoch = inner.store.record_stop(by)?;
        inner.stop_seen.fetch_max(epoch, Ordering::SeqCst);
        let mut report = StopReport::default();
        let active: Vec<_> = inner
            .store
            .tasks(TASK_SCAN, 0)?
            .into_iter()
            .filter(|t| !t.status.is_final())
            .collect();
        for s in cancel_runs_before(inner, epoch) {
            // A task's own turn is counted as the task.
            if !active.iter().any(|t| t.session_id == s) {
                report.turns += 1;
            }
        }
        for t in &active {
            // One that cannot be cancelled must not keep the rest running.
            match self.cancel_task(&t.id) {
                Ok(_) => report.tasks += 1,
                Err(e) => tracing::warn!("stop everything: task {}: {e}", t.id),
            }
        }
        // The leader's turns and tasks hear of it now, not at their tick.
        crate::tasks::wake::poke(&inner.home);
        inner.events.emit(
            None,
            Event::Stopped {
                by: by.to_string(),
                turns: report.turns,
                tasks: report.tasks,
            },
        );
        tracing::info!(
            "stop everything ({by}): {} turn(s), {} task(s); schedules held",
            report.turns,
            report.tasks
        );
        Ok(report)
    }

    /// A stop another process made (`jarvis stop` while the app runs):
    /// this process's turns are cancelled and its hosts told, so speech
    /// stops here too. The services leader calls this when woken and at
    /// each tick; false when there was none.
    pub fn notice_stop(&self) -> bool {
        let inner = &self.inner;
        let Ok(epoch) = inner.store.stop_epoch() else {
            return false;
        };
        if inner.stop_seen.fetch_max(epoch, Ordering::SeqCst) >= epoch {
            return false;
        }
        let by = inner
            .store
            .stop_hold()
            .ok()
            .flatten()
            .map_or_else(|| "another window".to_string(), |h| h.by);
        let turns = cancel_runs_before(inner, epoch).len();
        inner.events.emit(
            None,
            Event::Stopped {
                by,
                turns: u32::try_from(turns).unwrap_or(u32::MAX),
                tasks: 0,
            },
        );
        true
    }

    /// Lifts the hold on schedules; they go on from their next slot (the
    /// slots while held are recorded skipped). False when nothing was held.
    pub fn resume_everything(&self) -> Result<bool, BrainError> {
        let lifted = self.inner.store.resume_after_stop()?;
        if lifted {
            self.inner.events.emit(None, Event::Resumed);
        }
        Ok(lifted)
    }

    /// The stop holding the schedules, if any: `(when, who)`.
    pub fn stop_hold(&self) -> Result<Option<(i64, String)>, BrainError> {
        Ok(self.inner.store.stop_hold()?.map(|h| (h.at, h.by)))
    }
}

/// Cancels the runs of this process that began before stop `epoch` (one
/// started since is the user's next request); the sessions cancelled.
fn cancel_runs_before(inner: &super::Inner, epoch: i64) -> Vec<String> {
    let older: Vec<String> = inner
        .running
        .lock()
        .map(|r| {
            r.iter()
                .filter(|(_, a)| a.stop_epoch < epoch)
                .map(|(s, _)| s.clone())
                .collect()
        })
        .unwrap_or_default();
    older
        .into_iter()
        .filter(|s| runs::cancel(inner, s))
        .collect()
}
