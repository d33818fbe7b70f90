//! What Jarvis says unprompted about tasks: once per (task, status), in
//! short spoken-friendly words built from the task's own summary (no model
//! call), loud (spoken and notified) only outside do-not-disturb hours.
//! Every host renders the one `Announcement` event its own way.

use jarvis_protocol::{Event, NotifyPolicy, Priority, TaskInfo, TaskStatus};

use crate::Brain;

/// The instruction, short enough to say: up to 60 characters, at a word.
pub fn short(instruction: &str) -> String {
    cut_at_word(
        &instruction.split_whitespace().collect::<Vec<_>>().join(" "),
        60,
    )
}

/// Text of at most `max` characters, cut at the last word that fits with
/// an ellipsis when it is longer: what is said aloud or shown in a line.
pub fn cut_at_word(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    let at = cut.rfind(' ').unwrap_or(cut.len());
    format!("{}…", cut[..at].trim_end())
}

/// The words for a task that ended; `None` when nothing is worth saying.
pub fn wording(task: &TaskInfo, topic: Option<&str>) -> Option<(String, Priority)> {
    let what = short(&task.instruction);
    let reason = task.reason.clone().unwrap_or_default();
    let summary = task
        .summary
        .as_deref()
        .filter(|s| !s.is_empty())
        .map(|s| format!(": {s}"))
        .unwrap_or_else(|| ".".into());
    Some(match task.status {
        TaskStatus::Succeeded => (
            match (topic, task.schedule_id.is_some()) {
                (Some(t), _) => format!("Your report on {} is ready{summary}", short(t)),
                (None, true) => format!("Your scheduled task “{what}” is done{summary}"),
                (None, false) => format!("“{what}” is done{summary}"),
            },
            Priority::Normal,
        ),
        TaskStatus::NeedsApproval => (
            format!("“{what}” stopped: it {reason}. Retry it when you can approve that."),
            Priority::High,
        ),
        TaskStatus::Failed => (format!("“{what}” failed: {reason}."), Priority::High),
        TaskStatus::TimedOut => (
            format!("“{what}” ran out of time: {reason}."),
            Priority::High,
        ),
        TaskStatus::Refused => (format!("“{what}” was not run: {reason}."), Priority::High),
        TaskStatus::Lost => (
            format!("“{what}” was interrupted when Jarvis stopped; it was not run again."),
            Priority::Normal,
        ),
        // The user stopped it: saying so again is noise.
        TaskStatus::Cancelled | TaskStatus::Queued | TaskStatus::Running => return None,
    })
}

/// Said when a task starts, for tasks that asked to hear about every change.
pub fn task_started(brain: &Brain, task: &TaskInfo) {
    if task.notify == NotifyPolicy::StateChanges {
        let text = format!("Started “{}”.", short(&task.instruction));
        say(brain, task, "running", text, Priority::Low);
    }
}

/// Said once when a task ends (unless its policy is silent).
pub fn task_ended(brain: &Brain, task: &TaskInfo) {
    if task.notify == NotifyPolicy::Silent {
        return;
    }
    let topic = brain.inner.store.task_report_topic(&task.id).ok().flatten();
    if let Some((text, priority)) = wording(task, topic.as_deref()) {
        say(brain, task, task.status.as_str(), text, priority);
    }
}

/// Something the hub says that is not one task's end (a schedule paused,
/// runs skipped while closed); once per `key`.
pub fn note(brain: &Brain, key: &str, text: String, priority: Priority) {
    emit(brain, None, None, key, text, priority);
}

fn say(brain: &Brain, task: &TaskInfo, status: &str, text: String, priority: Priority) {
    emit(
        brain,
        Some(&task.id),
        task.parent_session.as_deref(),
        status,
        text,
        priority,
    );
}

fn emit(
    brain: &Brain,
    task_id: Option<&str>,
    session: Option<&str>,
    status: &str,
    text: String,
    priority: Priority,
) {
    let id = uuid::Uuid::new_v4().to_string();
    // Without a task, the key alone says whether it was said.
    let key_task = task_id
        .map(str::to_string)
        .or_else(|| Some(format!("hub:{status}")));
    let loud = match crate::services::quiet::quiet_now(&brain.config().voice.do_not_disturb) {
        Ok(quiet) => !quiet,
        Err(e) => {
            tracing::warn!("{e}");
            true
        }
    };
    let said = crate::store::Said {
        id: &id,
        key: key_task.as_deref(),
        status: Some(status),
        text: &text,
        session_id: session,
        priority: priority.name(),
        loud,
    };
    match brain.inner.store.record_announcement(&said) {
        Ok(true) => {
            if let Ok(mut own) = brain.inner.tasks.said_here.lock() {
                own.insert(id.clone());
            }
        }
        // Already said, by this process or another.
        Ok(false) => return,
        // Better said twice than never.
        Err(e) => tracing::warn!("announcements: {e}"),
    }
    // Shown first: a host that hears the event finds the notification up.
    if loud
        && let Some(n) = brain.inner.tasks.notifier()
        && let Err(e) = crate::notify::notify_about(n.as_ref(), "Jarvis", &text, task_id)
    {
        tracing::warn!("{e}");
    }
    brain.inner.events.emit(
        session,
        Event::Announcement {
            id,
            text: text.clone(),
            task_id: task_id.map(str::to_string),
            priority,
            loud,
        },
    );
}

/// Says here what the leader (another process) announced since `after`:
/// the event for this process's hosts, and its notifier when loud.
/// Returns the new position.
pub(crate) fn relay(brain: &Brain, after: i64) -> i64 {
    let heard = match brain.inner.store.announcements_after(after) {
        Ok(h) => h,
        Err(e) => {
            tracing::warn!("announcements: {e}");
            return after;
        }
    };
    let mut last = after;
    for (pos, a) in heard {
        last = pos;
        let own = brain
            .inner
            .tasks
            .said_here
            .lock()
            .map(|mut own| own.remove(&a.id))
            .unwrap_or(false);
        if own {
            continue;
        }
        if a.loud
            && let Some(n) = brain.inner.tasks.notifier()
            && let Err(e) =
                crate::notify::notify_about(n.as_ref(), "Jarvis", &a.text, a.task_id.as_deref())
        {
            tracing::warn!("{e}");
        }
        let priority = Priority::from_name(&a.priority);
        brain.inner.events.emit(
            a.session_id.as_deref(),
            Event::Announcement {
                id: a.id,
                text: a.text,
                task_id: a.task_id,
                priority,
                loud: a.loud,
            },
        );
    }
    last
}

impl Brain {
    /// What Jarvis said of its own accord lately, newest first.
    pub fn announcements(
        &self,
        limit: usize,
    ) -> Result<Vec<jarvis_protocol::AnnouncementInfo>, crate::agent::BrainError> {
        Ok(self
            .inner
            .store
            .recent_announcements(limit)?
            .into_iter()
            .map(|a| jarvis_protocol::AnnouncementInfo {
                priority: Priority::from_name(&a.priority),
                id: a.id,
                text: a.text,
                task_id: a.task_id,
                at: a.at,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_instructions_are_cut_at_a_word() {
        let s = short(
            "summarise every message in my inbox folder and tell me which ones need an answer today",
        );
        assert!(s.chars().count() <= 61 && s.ends_with('…'), "{s}");
        assert_eq!(short("  two\nlines "), "two lines");
    }
}
