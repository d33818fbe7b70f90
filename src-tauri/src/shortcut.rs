//! The global push-to-talk shortcut: held down, Jarvis listens. Where the
//! desktop cannot grab keys (Wayland), the HUD says so and offers its button.

use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_global_shortcut::{GlobalShortcutExt, ShortcutState};

use crate::Shell;

pub fn plugin<R: Runtime>() -> tauri::plugin::TauriPlugin<R> {
    tauri_plugin_global_shortcut::Builder::new()
        .with_handler(|app, _shortcut, event| {
            let Some(shell) = app.try_state::<Shell>() else {
                return;
            };
            match event.state() {
                ShortcutState::Pressed => shell.voice.press(),
                ShortcutState::Released => shell.voice.release(),
            }
        })
        .build()
}

fn wayland_only() -> bool {
    std::env::var_os("WAYLAND_DISPLAY").is_some() && std::env::var_os("DISPLAY").is_none()
}

/// (Re-)registers the shortcut from the settings; the problem, if any, is
/// kept for the HUD.
pub fn register_from_settings(app: &AppHandle) {
    let Some(shell) = app.try_state::<Shell>() else {
        return;
    };
    let wanted = shell.brain.config().voice.ptt_shortcut;
    let gs = app.global_shortcut();
    let _ = gs.unregister_all();
    let problem = if wanted.trim().is_empty() {
        Some("no push-to-talk shortcut is set; use the button".to_string())
    } else if wayland_only() {
        Some("global shortcuts are not available on Wayland; use the push-to-talk button".into())
    } else {
        gs.register(wanted.as_str())
            .err()
            .map(|e| format!("shortcut {wanted:?} unavailable ({e}); use the push-to-talk button"))
    };
    if let Some(p) = &problem {
        tracing::warn!("{p}");
    }
    if let Ok(mut slot) = shell.shortcut_problem.lock() {
        *slot = problem;
    }
}
