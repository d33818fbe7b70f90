//! The tray icon: the voice state at a glance, the tasks running now (a
//! click opens one), open/hide, pause voice, stop everything, quit.

use std::collections::BTreeMap;
use std::sync::Mutex;

use jarvis_protocol::{TaskInfo, TaskStatus, VoiceState};
use tauri::image::Image;
use tauri::menu::{CheckMenuItem, Menu, MenuItem, PredefinedMenuItem};
use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Manager};

use crate::Shell;

pub const TRAY_ID: &str = "jarvis";

/// The tasks queued or running, as the event stream tells them.
#[derive(Default)]
pub struct TrayTasks(Mutex<BTreeMap<String, TaskInfo>>);

/// The menu line of a task: what it is doing, in the user's words.
pub fn task_label(t: &TaskInfo) -> String {
    let words = jarvis_core::announce::cut_at_word(&t.instruction, 40);
    match t.status {
        TaskStatus::Queued => format!("Queued: {words}"),
        _ => format!("Running: {words}"),
    }
}

fn active(t: &TaskInfo) -> bool {
    matches!(t.status, TaskStatus::Queued | TaskStatus::Running)
}

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

/// The menu: the tasks running now above the fixed items.
fn menu(app: &AppHandle, tasks: &[TaskInfo]) -> tauri::Result<Menu<tauri::Wry>> {
    let paused = app
        .try_state::<Shell>()
        .is_some_and(|s| s.brain.config().voice.paused);
    let menu = Menu::new(app)?;
    for t in tasks {
        menu.append(&MenuItem::with_id(
            app,
            format!("task:{}", t.id),
            task_label(t),
            true,
            None::<&str>,
        )?)?;
    }
    if !tasks.is_empty() {
        menu.append(&PredefinedMenuItem::separator(app)?)?;
    }
    menu.append(&MenuItem::with_id(
        app,
        "open",
        "Open Jarvis",
        true,
        None::<&str>,
    )?)?;
    menu.append(&MenuItem::with_id(app, "hide", "Hide", true, None::<&str>)?)?;
    menu.append(&CheckMenuItem::with_id(
        app,
        "pause",
        "Pause voice",
        true,
        paused,
        None::<&str>,
    )?)?;
    menu.append(&PredefinedMenuItem::separator(app)?)?;
    menu.append(&MenuItem::with_id(
        app,
        "stop",
        "Stop everything",
        true,
        None::<&str>,
    )?)?;
    menu.append(&MenuItem::with_id(
        app,
        "resume",
        "Resume schedules",
        true,
        None::<&str>,
    )?)?;
    menu.append(&PredefinedMenuItem::separator(app)?)?;
    menu.append(&MenuItem::with_id(app, "quit", "Quit", true, None::<&str>)?)?;
    Ok(menu)
}

/// A task changed: the menu lists the ones queued or running.
pub fn task_changed(app: &AppHandle, task: &TaskInfo) {
    let Some(state) = app.try_state::<TrayTasks>() else {
        return;
    };
    let tasks: Vec<TaskInfo> = {
        let mut map = state
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if active(task) {
            map.insert(task.id.clone(), task.clone());
        } else if map.remove(&task.id).is_none() {
            return;
        }
        map.values().cloned().collect()
    };
    if let Some(tray) = app.tray_by_id(TRAY_ID) {
        match menu(app, &tasks) {
            Ok(m) => {
                let _ = tray.set_menu(Some(m));
            }
            Err(e) => tracing::warn!("tray menu: {e}"),
        }
    }
}

pub fn create(app: &AppHandle) -> tauri::Result<()> {
    // Tasks already running when the app starts (a hub elsewhere).
    let running: Vec<TaskInfo> = app
        .try_state::<Shell>()
        .and_then(|s| s.brain.tasks(50, 0).ok())
        .unwrap_or_default()
        .into_iter()
        .filter(active)
        .collect();
    app.manage(TrayTasks(Mutex::new(
        running.iter().map(|t| (t.id.clone(), t.clone())).collect(),
    )));
    let menu = menu(app, &running)?;
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
            id => {
                if let Some(task) = id.strip_prefix("task:") {
                    open_task(app, task);
                }
            }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn task(status: TaskStatus, instruction: &str) -> TaskInfo {
        serde_json::from_value(serde_json::json!({
            "id": "t1", "origin": "schedule", "schedule_id": null, "instruction": instruction,
            "status": status, "session_id": "task-t1", "parent_session": null, "created_at": 0,
            "started_at": null, "finished_at": null, "summary": null, "reason": null,
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
            "report": null, "allow": [], "needs": [], "notify": "done_only"
        }))
        .unwrap()
    }

    #[test]
    fn a_task_is_listed_in_its_own_words_while_it_is_queued_or_running() {
        assert_eq!(
            task_label(&task(TaskStatus::Running, "summarise my inbox folder")),
            "Running: summarise my inbox folder"
        );
        let long = "make a report on every async runtime for Rust and how they compare in practice";
        let label = task_label(&task(TaskStatus::Queued, long));
        assert!(
            label.starts_with("Queued: make a report on every"),
            "{label}"
        );
        assert!(label.chars().count() < 52, "{label}");
        assert!(active(&task(TaskStatus::Queued, "x")));
        assert!(!active(&task(TaskStatus::Succeeded, "x")));
        assert!(!active(&task(TaskStatus::NeedsApproval, "x")));
    }
}
