//! Settings: config.json through the core's one writer, the API key
//! through the keyring.

use jarvis_core::config::Config;
use jarvis_core::llm::Secret;
use jarvis_core::secrets::API_KEY;
use jarvis_protocol::Op;
use serde::Serialize;
use tauri::{AppHandle, State};

use super::{IpcError, IpcResult};
use crate::Shell;

#[tauri::command]
pub async fn config(shell: State<'_, Shell>) -> IpcResult<Config> {
    Ok(shell.brain.stored_config()?)
}

/// Sets one dotted key (`tools.exec`, `llm.model`, …) as `jarvis config set`
/// does, then the brain and the shell pick it up.
#[tauri::command]
pub async fn set_config(
    app: AppHandle,
    shell: State<'_, Shell>,
    key: String,
    value: String,
) -> IpcResult<Config> {
    let cfg = shell.brain.set_config(&key, &value)?;
    if key.starts_with("voice.") {
        shell.voice.reset();
    }
    if key == "voice.ptt_shortcut" {
        crate::shortcut::register_from_settings(&app, false);
    }
    Ok(cfg)
}

#[derive(Debug, Serialize, ts_rs::TS)]
pub struct Connection {
    pub ok: bool,
    pub models: Vec<String>,
    pub error: Option<String>,
}

/// Asks the endpoint for its models: a connection test and the model picker.
#[tauri::command]
pub async fn test_connection(shell: State<'_, Shell>) -> IpcResult<Connection> {
    Ok(match shell.brain.llm().models().await {
        Ok(models) => Connection {
            ok: true,
            models: models.into_iter().map(|m| m.id).collect(),
            error: None,
        },
        Err(e) => Connection {
            ok: false,
            models: vec![],
            error: Some(e.to_string()),
        },
    })
}

/// Stores the key in the OS keyring; only its masked form comes back.
#[tauri::command]
pub async fn set_api_key(shell: State<'_, Shell>, key: String) -> IpcResult<String> {
    let key = key.trim();
    if key.is_empty() {
        return Err(IpcError::Invalid("the key is empty".into()));
    }
    let secret = Secret::new(key);
    shell.secrets.set(API_KEY, &secret)?;
    shell.brain.submit(Op::Reload)?;
    Ok(secret.masked())
}

#[tauri::command]
pub async fn delete_api_key(shell: State<'_, Shell>) -> IpcResult<()> {
    shell.secrets.delete(API_KEY)?;
    shell.brain.submit(Op::Reload)?;
    Ok(())
}
