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
}

/// Keeps what it was asked to show.
#[derive(Default)]
pub struct RecordingNotifier {
    shown: Mutex<Vec<(String, String)>>,
}

impl RecordingNotifier {
    pub fn shown(&self) -> Vec<(String, String)> {
        self.shown.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

impl Notifier for RecordingNotifier {
    fn notify(&self, title: &str, body: &str) -> Result<(), NotifyError> {
        self.shown
            .lock()
            .map_err(|e| NotifyError(e.to_string()))?
            .push((title.to_string(), body.to_string()));
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
