//! Voice: the status bar's button and state, and model downloads.

use serde::Serialize;
use tauri::{AppHandle, Emitter, State};

use super::IpcResult;
use crate::Shell;
use crate::voice::VoiceStatus;

#[tauri::command]
pub async fn voice_status(shell: State<'_, Shell>) -> IpcResult<VoiceStatus> {
    Ok(shell.voice.status())
}

#[tauri::command]
pub async fn voice_press(shell: State<'_, Shell>) -> IpcResult<()> {
    shell.voice.press();
    Ok(())
}

#[tauri::command]
pub async fn voice_release(shell: State<'_, Shell>) -> IpcResult<()> {
    shell.voice.release();
    Ok(())
}

#[tauri::command]
pub async fn voice_stop(shell: State<'_, Shell>) -> IpcResult<()> {
    shell.voice.stop();
    Ok(())
}

#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct ModelProgress {
    pub model: String,
    pub file: String,
    pub done: u64,
    pub total: Option<u64>,
}

/// Downloads a model (resumable, checksummed), reporting `jarvis:model-progress`.
#[tauri::command]
pub async fn install_model(app: AppHandle, shell: State<'_, Shell>, name: String) -> IpcResult<()> {
    let home = shell.home.clone();
    let mirror = std::env::var("JARVIS_MODELS_MIRROR").ok();
    let mut last = std::time::Instant::now();
    jarvis_voice::models::install(&home, &name, mirror.as_deref(), |p| {
        let finished = p.total.is_some_and(|t| p.done >= t);
        if finished || last.elapsed().as_millis() >= 100 {
            last = std::time::Instant::now();
            let _ = app.emit(
                "jarvis:model-progress",
                ModelProgress {
                    model: p.model.clone(),
                    file: p.file.clone(),
                    done: p.done,
                    total: p.total,
                },
            );
        }
    })
    .await?;
    shell.voice.reset();
    Ok(())
}
