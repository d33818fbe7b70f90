//! The tray icon: the voice state at a glance, open/hide, pause voice, quit.

use jarvis_protocol::VoiceState;
use tauri::image::Image;
use tauri::menu::{CheckMenuItem, Menu, MenuItem, PredefinedMenuItem};
use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Manager};

use crate::Shell;

pub const TRAY_ID: &str = "jarvis";

fn icon(state: VoiceState) -> Option<Image<'static>> {
    let bytes: &'static [u8] = match state {
        VoiceState::Idle => include_bytes!("../../icons/tray/idle.png"),
        VoiceState::Listening => include_bytes!("../../icons/tray/listening.png"),
        VoiceState::Transcribing => include_bytes!("../../icons/tray/transcribing.png"),
        VoiceState::Thinking => include_bytes!("../../icons/tray/thinking.png"),
        VoiceState::Speaking => include_bytes!("../../icons/tray/speaking.png"),
    };
    Image::from_bytes(bytes).ok()
}

pub fn label(state: VoiceState) -> &'static str {
    match state {
        VoiceState::Idle => "idle",
        VoiceState::Listening => "listening",
        VoiceState::Transcribing => "transcribing",
        VoiceState::Thinking => "thinking",
        VoiceState::Speaking => "speaking",
    }
}

pub fn show_main(app: &AppHandle) {
    if let Some(w) = app.get_webview_window("main") {
        let _ = w.unminimize();
        let _ = w.show();
        let _ = w.set_focus();
    }
}

/// Brings the window up on a task's conversation (its instruction, tool
/// calls and answer), as a click on its notification asks.
pub fn open_task(app: &AppHandle, task_id: &str) {
    show_main(app);
    let Some(shell) = app.try_state::<Shell>() else {
        return;
    };
    match shell.brain.task(task_id) {
        Ok(task) => {
            tracing::info!("opening task {} from its notification", task.id);
            crate::bridge::deliver_action(
                app,
                jarvis_protocol::UiAction::Navigate {
                    view: "chat".into(),
                    params: serde_json::json!({ "session": task.session_id }),
                },
            );
        }
        Err(e) => tracing::warn!("task {task_id}: {e}"),
    }
}

pub fn create(app: &AppHandle) -> tauri::Result<()> {
    let paused = app
        .try_state::<Shell>()
        .is_some_and(|s| s.brain.config().voice.paused);
    let open = MenuItem::with_id(app, "open", "Open Jarvis", true, None::<&str>)?;
    let hide = MenuItem::with_id(app, "hide", "Hide", true, None::<&str>)?;
    let pause = CheckMenuItem::with_id(app, "pause", "Pause voice", true, paused, None::<&str>)?;
    let quit = MenuItem::with_id(app, "quit", "Quit", true, None::<&str>)?;
    let stop = MenuItem::with_id(app, "stop", "Stop everything", true, None::<&str>)?;
    let resume = MenuItem::with_id(app, "resume", "Resume schedules", true, None::<&str>)?;
    let sep = PredefinedMenuItem::separator(app)?;
    let sep2 = PredefinedMenuItem::separator(app)?;
    let menu = Menu::with_items(
        app,
        &[&open, &hide, &pause, &sep, &stop, &resume, &sep2, &quit],
    )?;
    let mut builder = TrayIconBuilder::with_id(TRAY_ID)
        .menu(&menu)
        .tooltip("Jarvis — idle")
        .on_menu_event(|app, event| match event.id().as_ref() {
            "open" => show_main(app),
            "hide" => {
                if let Some(w) = app.get_webview_window("main") {
                    let _ = w.hide();
                }
            }
            "pause" => toggle_pause(app),
            "stop" => stop_everything(app, "the tray"),
            "resume" => {
                if let Some(shell) = app.try_state::<Shell>()
                    && let Err(e) = shell.brain.submit(jarvis_protocol::Op::ResumeEverything)
                {
                    tracing::warn!("resume: {e}");
                }
            }
            "quit" => app.exit(0),
            _ => {}
        });
    if let Some(i) = icon(VoiceState::Idle) {
        builder = builder.icon(i);
    }
    builder.build(app)?;
    Ok(())
}

/// Stop everything, from the tray or the shortcut: the brain cancels every
/// turn and task and holds the schedules; speech stops here at once.
pub fn stop_everything(app: &AppHandle, by: &str) {
    let Some(shell) = app.try_state::<Shell>() else {
        return;
    };
    shell.voice.stop();
    // Off the UI thread: the store may wait on another process's write.
    let (brain, by) = (shell.brain.clone(), by.to_string());
    tauri::async_runtime::spawn_blocking(move || {
        if let Err(e) = brain.submit(jarvis_protocol::Op::StopEverything { by }) {
            tracing::warn!("stop everything: {e}");
        }
    });
}

fn toggle_pause(app: &AppHandle) {
    let Some(shell) = app.try_state::<Shell>() else {
        return;
    };
    match shell.brain.update_config(|c| {
        c.voice.paused = !c.voice.paused;
        Ok(())
    }) {
        Ok(cfg) => {
            if cfg.voice.paused {
                shell.voice.stop();
            }
        }
        Err(e) => tracing::warn!("pause voice: {e}"),
    }
}

pub fn show_state(app: &AppHandle, state: VoiceState) {
    if let Some(tray) = app.tray_by_id(TRAY_ID) {
        let _ = tray.set_icon(icon(state));
        let _ = tray.set_tooltip(Some(format!("Jarvis — {}", label(state))));
    }
}
