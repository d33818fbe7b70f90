//! Desktop notifications (freedesktop on Linux) behind the core's `Notifier`.

use jarvis_core::notify::{Notifier, NotifyError};
use tauri::AppHandle;
use tauri_plugin_notification::NotificationExt;

pub struct DesktopNotifier {
    app: AppHandle,
}

impl DesktopNotifier {
    pub fn new(app: AppHandle) -> Self {
        DesktopNotifier { app }
    }
}

impl Notifier for DesktopNotifier {
    fn notify(&self, title: &str, body: &str) -> Result<(), NotifyError> {
        self.app
            .notification()
            .builder()
            .title(title)
            .body(body)
            .show()
            .map_err(|e| NotifyError(e.to_string()))
    }
}
