//! Notifications outside the app's window (tray / desktop notifications).
//! The desktop shell implements [`Notifier`]; tests and the CLI use
//! [`RecordingNotifier`].

use std::sync::Mutex;

use thiserror::Error;

#[derive(Debug, Error)]
#[error("notification not shown: {0}")]
pub struct NotifyError(pub String);

pub trait Notifier: Send + Sync {
    fn notify(&self, title: &str, body: &str) -> Result<(), NotifyError>;
    /// A notification about one task: a host that can opens the task when
    /// the notification is clicked.
    fn notify_task(&self, title: &str, body: &str, task_id: &str) -> Result<(), NotifyError> {
        let _ = task_id;
        self.notify(title, body)
    }
}

/// `notify_task` when the notification is about a task, else `notify`.
pub fn notify_about(
    n: &dyn Notifier,
    title: &str,
    body: &str,
    task_id: Option<&str>,
) -> Result<(), NotifyError> {
    match task_id {
        Some(id) => n.notify_task(title, body, id),
        None => n.notify(title, body),
    }
}

/// Keeps what it was asked to show.
#[derive(Default)]
pub struct RecordingNotifier {
    shown: Mutex<Vec<(String, String)>>,
    tasks: Mutex<Vec<Option<String>>>,
}

impl RecordingNotifier {
    pub fn shown(&self) -> Vec<(String, String)> {
        self.shown.lock().map(|s| s.clone()).unwrap_or_default()
    }
    /// The task each notification was about (what a click would open).
    pub fn about(&self) -> Vec<Option<String>> {
        self.tasks.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

impl Notifier for RecordingNotifier {
    fn notify(&self, title: &str, body: &str) -> Result<(), NotifyError> {
        self.shown
            .lock()
            .map_err(|e| NotifyError(e.to_string()))?
            .push((title.to_string(), body.to_string()));
        self.tasks
            .lock()
            .map_err(|e| NotifyError(e.to_string()))?
            .push(None);
        Ok(())
    }
    fn notify_task(&self, title: &str, body: &str, task_id: &str) -> Result<(), NotifyError> {
        self.notify(title, body)?;
        if let Some(last) = self
            .tasks
            .lock()
            .map_err(|e| NotifyError(e.to_string()))?
            .last_mut()
        {
            *last = Some(task_id.to_string());
        }
        Ok(())
    }
}

/// For hosts with nowhere to show a notification (`jarvis serve` prints
/// announcements instead).
pub struct NoNotifier;

impl Notifier for NoNotifier {
    fn notify(&self, _title: &str, _body: &str) -> Result<(), NotifyError> {
        Ok(())
    }
}
