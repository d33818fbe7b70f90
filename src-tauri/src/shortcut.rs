//! The global shortcuts: push-to-talk (held down, Jarvis listens) and Stop
//! everything. Where the desktop cannot grab keys (Wayland), the HUD says
//! so and offers its buttons.

use tauri::{AppHandle, Manager};
use tauri_plugin_global_shortcut::{GlobalShortcutExt, ShortcutState};

use crate::Shell;

pub fn plugin() -> tauri::plugin::TauriPlugin<tauri::Wry> {
    tauri_plugin_global_shortcut::Builder::new()
        .with_handler(|app, shortcut, event| {
            let Some(shell) = app.try_state::<Shell>() else {
                return;
            };
            let stop = shell.brain.config().voice.stop_shortcut;
            let is_stop = stop
                .parse::<tauri_plugin_global_shortcut::Shortcut>()
                .is_ok_and(|s| s == *shortcut);
            match event.state() {
                ShortcutState::Pressed if is_stop => {
                    crate::tray::stop_everything(app, "the shortcut")
                }
                ShortcutState::Pressed => shell.voice.press(),
                ShortcutState::Released if is_stop => {}
                ShortcutState::Released => shell.voice.release(),
            }
        })
        .build()
}

fn wayland_only() -> bool {
    std::env::var_os("WAYLAND_DISPLAY").is_some() && std::env::var_os("DISPLAY").is_none()
}

/// What stands in the way of the push-to-talk shortcut before any key is
/// grabbed: none set, or a desktop that lets nobody grab keys.
fn foreseen_problem(wanted: &str) -> Option<String> {
    if wanted.trim().is_empty() {
        Some("no push-to-talk shortcut is set; use the button".to_string())
    } else if wayland_only() {
        Some("global shortcuts are not available on Wayland; use the push-to-talk button".into())
    } else {
        None
    }
}

/// At start, before the keys are grabbed: the problem the HUD can show
/// from its first frame.
pub fn foresee(app: &AppHandle) {
    let Some(shell) = app.try_state::<Shell>() else {
        return;
    };
    let problem = foreseen_problem(&shell.brain.config().voice.ptt_shortcut);
    if let Ok(mut slot) = shell.shortcut_problem.lock() {
        *slot = problem;
    }
}

/// (Re-)registers the shortcut from the settings; the problem, if any, is
/// kept for the HUD, and a failed grab is said (`announce`) when the HUD
/// may have read the state before the keys were grabbed.
pub fn register_from_settings(app: &AppHandle, announce: bool) {
    let Some(shell) = app.try_state::<Shell>() else {
        return;
    };
    let wanted = shell.brain.config().voice.ptt_shortcut;
    // Before the plugin is added (the first seconds) the start-up will
    // register what the settings say by then.
    if app
        .try_state::<tauri_plugin_global_shortcut::GlobalShortcut<tauri::Wry>>()
        .is_none()
    {
        return;
    }
    let gs = app.global_shortcut();
    let _ = gs.unregister_all();
    let foreseen = foreseen_problem(&wanted);
    let failed = match foreseen {
        Some(_) => None,
        None => gs
            .register(wanted.as_str())
            .err()
            .map(|e| format!("shortcut {wanted:?} unavailable ({e}); use the push-to-talk button")),
    };
    let stop = shell.brain.config().voice.stop_shortcut;
    if !stop.trim().is_empty()
        && !wayland_only()
        && let Err(e) = gs.register(stop.as_str())
    {
        tracing::warn!(
            "the Stop everything shortcut {stop:?} is unavailable ({e}); use the tray or the HUD"
        );
    }
    if let Some(p) = &failed {
        tracing::warn!("{p}");
        if announce {
            shell.brain.host_event(
                None,
                jarvis_protocol::HostEvent::VoiceNotice { message: p.clone() },
            );
        }
    }
    if let Ok(mut slot) = shell.shortcut_problem.lock() {
        *slot = foreseen.or(failed);
    }
}
