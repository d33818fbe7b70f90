//! The long-lived state the shell keeps in Tauri: the brain, the voice
//! coordinator (started on first use), staged skill installs.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use jarvis_core::config::{ConfigStore, default_home};
use jarvis_core::notify::Notifier;
use jarvis_core::secrets::SecretStore;
use jarvis_core::skills::install::Staged;
use jarvis_core::{Brain, BrainOptions, Overrides};
use tauri::{AppHandle, Manager};

use crate::approval::DesktopApprover;
use crate::notifier::DesktopNotifier;
use crate::voice::Voice;
use crate::{bridge, tray};

pub struct Shell {
    pub brain: Brain,
    pub home: PathBuf,
    pub secrets: Arc<dyn SecretStore>,
    pub notifier: Arc<dyn Notifier>,
    pub voice: Voice,
    /// Skills inspected and waiting for the user's confirmation, by token.
    pub staged: Mutex<HashMap<String, Staged>>,
    /// Why the global shortcut is not available, when it is not.
    pub shortcut_problem: Mutex<Option<String>>,
    /// The hub (tasks, scheduler), run while this app leads the services.
    pub services: Mutex<Option<jarvis_core::services::ServiceHost>>,
    /// What starts once the HUD has drawn the brain's state.
    after_hud: Mutex<Option<Box<dyn FnOnce() + Send>>>,
}

impl Shell {
    /// Stops the hub and gives its lease up, so `jarvis serve` (or the next
    /// start) takes over at once.
    pub fn stop_services(&self) {
        let host = self.services.lock().ok().and_then(|mut h| h.take());
        if let Some(host) = host {
            tauri::async_runtime::block_on(host.stop());
        }
    }
}

impl Shell {
    pub fn config_store(&self) -> ConfigStore {
        ConfigStore::new(&self.home)
    }
}

fn shell_notifier(app: &AppHandle) -> Arc<dyn Notifier> {
    match app.try_state::<Shell>() {
        Some(shell) => shell.notifier.clone(),
        None => Arc::new(DesktopNotifier::new(app.clone())),
    }
}

/// Opens the brain and starts the bridge, tray, shortcut and hub.
pub fn start(app: &AppHandle) -> Result<(), Box<dyn std::error::Error>> {
    let home = default_home().ok_or("neither JARVIS_HOME nor HOME is set")?;
    let notifier: Arc<dyn Notifier> = Arc::new(DesktopNotifier::new(app.clone()));
    let primed = crate::secrets::PrimedSecrets::new(Box::new(jarvis_core::secrets::host_store()));
    let secrets: Arc<dyn SecretStore> = primed.clone();
    let brain = Brain::open(BrainOptions {
        home: home.clone(),
        secrets: secrets.clone(),
        approver: Arc::new(DesktopApprover::new(app.clone())),
        // Started from a launcher the current directory is home: the
        // folder is always one the user chose.
        overrides: Overrides {
            no_cwd_fallback: true,
            ..Overrides::from_env(None)
        },
        registry: None,
        resolver: None,
        sandbox_helper: None,
    })?;
    let shell = Shell {
        voice: Voice::new(brain.clone(), home.clone()),
        brain: brain.clone(),
        home,
        secrets,
        notifier,
        staged: Mutex::new(HashMap::new()),
        shortcut_problem: Mutex::new(None),
        services: Mutex::new(None),
        after_hud: Mutex::new(None),
    };
    app.manage(shell);
    bridge::spawn(app.clone(), brain.clone());
    // Tasks that end in this process are notified here.
    brain.set_notifier(shell_notifier(app));
    crate::shortcut::foresee(app);
    // The rest (grabbing the keys alone takes ~100 ms of X round trips)
    // competes with the webview for the main thread and the two cores it
    // starts on: it waits for the HUD to show the brain's state, or a few
    // seconds when the window never draws (started hidden).
    let later = {
        let app = app.clone();
        move || {
            let main = app.clone();
            let scheduled = app.run_on_main_thread(move || start_after_hud(&main, brain, primed));
            if let Err(e) = scheduled {
                tracing::warn!("start-up after the HUD: {e}");
            }
        }
    };
    if let Some(shell) = app.try_state::<Shell>()
        && let Ok(mut slot) = shell.after_hud.lock()
    {
        *slot = Some(Box::new(later));
    }
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(UNREADY_START).await;
        hud_ready(&app);
    });
    Ok(())
}

/// How long the rest of the start-up waits for the HUD at most.
const UNREADY_START: std::time::Duration = std::time::Duration::from_secs(3);

/// The HUD drew the brain's state (or the wait ran out): the rest starts, once.
pub fn hud_ready(app: &AppHandle) {
    let later = app
        .try_state::<Shell>()
        .and_then(|s| s.after_hud.lock().ok().and_then(|mut l| l.take()));
    if let Some(later) = later {
        later();
    }
}

/// The keyring read, the hub (tasks, scheduler; while this app leads the
/// services, not while `jarvis serve` does), the tray and the MCP servers.
fn start_after_hud(app: &AppHandle, brain: Brain, primed: Arc<crate::secrets::PrimedSecrets>) {
    // The shortcut plugin opens its own X connection and thread: added now.
    if let Err(e) = app.plugin(crate::shortcut::plugin()) {
        tracing::warn!("global shortcuts unavailable: {e}");
    }
    crate::shortcut::register_from_settings(app, true);
    {
        let brain = brain.clone();
        primed.prime(jarvis_core::secrets::API_KEY, move || {
            if let Err(e) = brain.submit(jarvis_protocol::Op::Reload) {
                tracing::warn!("reload after reading the keyring: {e}");
            }
        });
    }
    let host = tauri::async_runtime::block_on(async {
        brain.start_services(
            vec![jarvis_core::hub::HubService::service()],
            shell_notifier(app),
            Default::default(),
        )
    });
    if let Some(shell) = app.try_state::<Shell>()
        && let Ok(mut h) = shell.services.lock()
    {
        *h = Some(host);
    }
    if let Err(e) = tray::create(app) {
        // No status-notifier host (a bare X server): the window is the app.
        tracing::warn!("tray icon unavailable: {e}");
    }
    tauri::async_runtime::spawn(async move { brain.refresh_mcp().await });
    tracing::info!("shortcuts, keyring, hub and tray started after the HUD");
}
