//! Running one task: claim it, run it as an unattended (or pre-approved)
//! agent run in its own session, keep its heartbeat, stop it on cancel or
//! timeout, write its report, record and announce how it ended.

use std::time::Duration;

use jarvis_protocol::{ApprovalMode, Origin, RunSpec, StopReason, TaskInfo, TaskStatus, Usage};
use tokio_util::sync::CancellationToken;

use crate::Brain;
use crate::agent::runs::{self, RunOutcome};
use crate::store::TaskEnd;

/// A running task whose runner has not beaten for this long is lost even
/// when its process cannot be checked. (A dead runner on this machine is
/// found by its pid at once; a suspended laptop is not dead.)
pub const STALE_AFTER: Duration = Duration::from_secs(600);
const HEARTBEAT: Duration = Duration::from_secs(10);
/// When this process's own queued tasks wait for a free slot.
const RECHECK: Duration = Duration::from_secs(2);

pub(super) fn end_without_run(status: TaskStatus, reason: &str) -> TaskEnd {
    TaskEnd {
        status,
        summary: None,
        reason: Some(reason.to_string()),
        usage: Usage::default(),
        report: None,
        needs: vec![],
    }
}

/// Claims and starts tasks until none may start now.
pub(super) async fn pump(brain: Brain) {
    let hub = &brain.inner.tasks;
    loop {
        let serving = hub.serving.load(std::sync::atomic::Ordering::SeqCst);
        let pick = if serving {
            None
        } else {
            match hub.local.lock().ok().and_then(|l| l.iter().next().cloned()) {
                Some(id) => Some(id),
                None => return,
            }
        };
        let max = brain.config().tasks.max_parallel.max(1) as usize;
        match brain
            .inner
            .store
            .claim_task(pick.as_deref(), &hub.runner, max)
        {
            Ok(Some(task)) => {
                // Running before it leaves the local set: a CLI waiting for
                // its tasks never sees neither.
                let cancel = CancellationToken::new();
                if let Ok(mut r) = hub.running.lock() {
                    r.insert(task.id.clone(), cancel.clone());
                }
                if let Ok(mut l) = hub.local.lock() {
                    l.remove(&task.id);
                }
                let b = brain.clone();
                tokio::spawn(async move { execute(b, task, cancel).await });
            }
            Ok(None) => {
                let Some(id) = pick else { return };
                let still_queued = brain
                    .inner
                    .store
                    .task(&id)
                    .ok()
                    .flatten()
                    .is_some_and(|t| t.status == TaskStatus::Queued);
                if still_queued {
                    // Every slot is taken: look again shortly.
                    let b = brain.clone();
                    tokio::spawn(async move {
                        tokio::time::sleep(RECHECK).await;
                        b.pump();
                    });
                    return;
                }
                // Taken by a leader, or cancelled: not ours to run.
                if let Ok(mut l) = hub.local.lock() {
                    l.remove(&id);
                }
            }
            Err(e) => {
                tracing::warn!("tasks: could not claim: {e}");
                // A task of our own is tried again (the leader's are, at
                // its tick): a CLI waiting for it must not wait for ever.
                if pick.is_some() {
                    let b = brain.clone();
                    tokio::spawn(async move {
                        tokio::time::sleep(RECHECK).await;
                        b.pump();
                    });
                }
                return;
            }
        }
    }
}

/// What the run is told, beyond the user's words.
fn prompt(task: &TaskInfo, topic: Option<&str>) -> String {
    let alone = "This runs as a background task: nobody is at the keyboard, so questions cannot be answered and calls that need an approval are refused.";
    match topic {
        Some(topic) => format!(
            "Make a report on: {topic}\n\n{}\n\n{alone} Your final answer is saved as the report: write it in Markdown, starting with a one-line summary.",
            task.instruction
        ),
        None => format!(
            "{}\n\n{alone} End with a short answer that says what you found or did.",
            task.instruction
        ),
    }
}

async fn execute(brain: Brain, task: TaskInfo, cancel: CancellationToken) {
    let hub = &brain.inner.tasks;
    brain.task_changed(&task);
    crate::announce::task_started(&brain, &task);
    let end = run_task(&brain, &task, &cancel).await;
    if let Ok(mut r) = hub.running.lock() {
        r.remove(&task.id);
    }
    match brain.inner.store.finish_task(&task.id, &end) {
        Ok(Some(done)) => {
            brain.task_changed(&done);
            crate::announce::task_ended(&brain, &done);
            crate::schedule::task_ended(&brain, &done);
        }
        Ok(None) => {}
        Err(e) => tracing::warn!("tasks: could not record the end of {}: {e}", task.id),
    }
    brain.pump();
}

async fn run_task(brain: &Brain, task: &TaskInfo, cancel: &CancellationToken) -> TaskEnd {
    let topic = brain.inner.store.task_report_topic(&task.id).ok().flatten();
    if let Some(why) = crate::budget::exhausted(&brain.inner) {
        return end_without_run(TaskStatus::Refused, &why);
    }
    let limits = brain.config().budget;
    let spec = RunSpec {
        origin: if task.schedule_id.is_some() {
            Origin::Schedule
        } else {
            Origin::Task
        },
        session_id: task.session_id.clone(),
        workdir: None,
        approval: if task.allow.is_empty() {
            ApprovalMode::Unattended
        } else {
            ApprovalMode::PreApproved {
                allow: task.allow.clone(),
            }
        },
        max_rounds: (limits.task_max_rounds > 0).then_some(limits.task_max_rounds),
        tools: None,
        max_tokens: (limits.task_max_tokens > 0).then_some(limits.task_max_tokens),
    };
    let (tx, mut rx) = tokio::sync::oneshot::channel();
    if let Err(e) = runs::start_with(&brain.inner, spec, prompt(task, topic.as_deref()), Some(tx)) {
        return end_without_run(TaskStatus::Failed, &e.to_string());
    }
    let limit = Duration::from_secs(u64::from(brain.config().tasks.timeout_min.max(1)) * 60);
    let deadline = tokio::time::sleep(limit);
    tokio::pin!(deadline);
    let mut beat = tokio::time::interval(HEARTBEAT);
    beat.tick().await;
    let mut timed_out = false;
    let mut stopping = false;
    let outcome = loop {
        tokio::select! {
            r = &mut rx => break r.ok(),
            _ = cancel.cancelled(), if !stopping => {
                stopping = true;
                runs::cancel(&brain.inner, &task.session_id);
            }
            _ = &mut deadline, if !stopping => {
                stopping = true;
                timed_out = true;
                runs::cancel(&brain.inner, &task.session_id);
            }
            _ = beat.tick() => {
                // Still ours and wanted: else (cancelled from another
                // process, found lost) the run stops.
                match brain.inner.store.heartbeat_task(&task.id, &brain.inner.tasks.runner) {
                    Ok(true) => {}
                    Ok(false) => cancel.cancel(),
                    Err(e) => tracing::warn!("tasks: heartbeat: {e}"),
                }
            }
        }
    };
    let Some(out) = outcome else {
        return end_without_run(TaskStatus::Failed, "the run stopped unexpectedly");
    };
    let mut end = end_of(&out, timed_out, limit);
    if end.status == TaskStatus::Succeeded
        && let (Some(topic), Some(answer)) = (topic.as_deref(), out.answer.as_deref())
    {
        match write_report(brain, task, topic, answer) {
            Ok(path) => end.report = Some(path),
            Err(e) => {
                end.status = TaskStatus::Failed;
                end.reason = Some(format!("the report could not be written: {e}"));
            }
        }
    }
    end
}

fn end_of(out: &RunOutcome, timed_out: bool, limit: Duration) -> TaskEnd {
    let (status, reason) = match out.stop {
        StopReason::Completed => (TaskStatus::Succeeded, None),
        StopReason::Cancelled if timed_out => (
            TaskStatus::TimedOut,
            Some(format!(
                "stopped after {} minutes (tasks.timeout_min)",
                limit.as_secs() / 60
            )),
        ),
        StopReason::Cancelled => (TaskStatus::Cancelled, Some("cancelled".into())),
        StopReason::NeedsApproval => (
            TaskStatus::NeedsApproval,
            Some(format!(
                "needs your approval to {}",
                if out.needs.is_empty() {
                    "go on".to_string()
                } else {
                    out.needs.join(", ")
                }
            )),
        ),
        StopReason::MaxRounds => (
            TaskStatus::Failed,
            Some(format!(
                "stopped at the round limit ({} rounds) before finishing",
                out.rounds
            )),
        ),
        StopReason::Repetition => (
            TaskStatus::Failed,
            Some("stopped: it repeated the same call".into()),
        ),
        StopReason::Failed => (
            TaskStatus::Failed,
            Some(out.error.clone().unwrap_or_else(|| "the run failed".into())),
        ),
    };
    TaskEnd {
        status,
        summary: out.answer.as_deref().map(summary_of),
        reason,
        usage: out.usage,
        report: None,
        needs: out.needs.clone(),
    }
}

/// A line from an answer, short enough to say aloud: its first real line,
/// without Markdown marks, cut at a word near 200 characters.
pub fn summary_of(answer: &str) -> String {
    let lines: Vec<&str> = answer
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    // A title says less than the first sentence under it.
    let line = lines
        .iter()
        .find(|l| !l.starts_with('#'))
        .or(lines.first())
        .map(|l| l.trim_start_matches(['#', '*', '-', '>', ' ']).trim())
        .unwrap_or("")
        .replace("**", "");
    crate::announce::cut_at_word(&line, 200)
}

fn slug(topic: &str) -> String {
    let mut s = String::new();
    for c in topic.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
        if s.chars().count() >= 40 {
            break;
        }
    }
    let s = s.trim_end_matches('-').to_string();
    if s.is_empty() { "report".into() } else { s }
}

/// `$JARVIS_HOME/reports/DATE-topic-ID.md`, written atomically.
fn write_report(
    brain: &Brain,
    task: &TaskInfo,
    topic: &str,
    answer: &str,
) -> std::io::Result<String> {
    let dir = brain.home().join("reports");
    std::fs::create_dir_all(&dir)?;
    let date = jiff::ZonedDateTime::now().date();
    let path = dir.join(format!(
        "{date}-{}-{}.md",
        slug(topic),
        super::short_id(&task.id)
    ));
    let body = if answer.trim_start().starts_with('#') {
        format!("{}\n", answer.trim_end())
    } else {
        format!("# {topic}\n\n{}\n", answer.trim_end())
    };
    crate::config::atomic_write(&path, body.as_bytes())?;
    Ok(path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_are_one_spoken_line() {
        assert_eq!(
            summary_of("## Inbox\n\n**3 new messages**, one from Ana.\nMore."),
            "3 new messages, one from Ana."
        );
        assert_eq!(summary_of("# Only a title"), "Only a title");
        assert_eq!(summary_of("\n- 3 new messages\n"), "3 new messages");
        let long = "word ".repeat(100);
        let s = summary_of(&long);
        assert!(s.chars().count() <= 201 && s.ends_with('…'), "{s}");
    }

    #[test]
    fn report_names_are_safe_slugs() {
        assert_eq!(slug("Rust's async: a survey!"), "rust-s-async-a-survey");
        assert_eq!(slug("../../etc/passwd"), "etc-passwd");
        assert_eq!(slug("???"), "report");
    }
}
