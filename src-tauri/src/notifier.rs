//! Desktop notifications (freedesktop on Linux) behind the core's `Notifier`.
//! A task's notification carries a default action: clicking it brings the
//! window up on the task's conversation.

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

    #[cfg(target_os = "linux")]
    fn notify_task(&self, title: &str, body: &str, task_id: &str) -> Result<(), NotifyError> {
        let handle = notify_rust::Notification::new()
            .appname("Jarvis")
            .summary(title)
            .body(body)
            .action("default", "Open")
            .show()
            .map_err(|e| NotifyError(e.to_string()))?;
        let app = self.app.clone();
        let task_id = task_id.to_string();
        // Waits for the click or the close (the server says which), then ends.
        std::thread::Builder::new()
            .name("notification".into())
            .spawn(move || {
                handle.wait_for_action(|action| {
                    if action == "default" {
                        crate::tray::open_task(&app, &task_id);
                    }
                });
            })
            .map(|_| ())
            .map_err(|e| NotifyError(e.to_string()))
    }
}
