//! The desktop shell: a Tauri host of the brain API. It owns windows, the
//! tray, native dialogs, the global shortcut and the keyring; everything
//! else is the brain's (jarvis-core) or the voice coordinator's.

mod approval;
mod bridge;
mod ipc;
mod memory;
mod notifier;
mod secrets;
mod shell;
mod shortcut;
mod tray;
mod voice;

use std::sync::OnceLock;
use std::time::Instant;

use tauri::Manager;

pub use ipc::typescript as ipc_typescript;
pub use shell::Shell;

/// When the process started, for the first-paint figure.
pub(crate) static STARTED: OnceLock<Instant> = OnceLock::new();

/// Runs the app until the user quits.
pub fn run() -> anyhow::Result<()> {
    STARTED.get_or_init(Instant::now);
    init_tracing();
    tauri::Builder::default()
        // First, so a second launch hands over before anything else starts.
        .plugin(tauri_plugin_single_instance::init(|app, _argv, _cwd| {
            tray::show_main(app);
        }))
        .plugin(tauri_plugin_notification::init())
        .invoke_handler(ipc::handler())
        .setup(|app| {
            if let Err(e) = shell::start(app.handle()) {
                // Launched from a menu there is no terminal: say it in a
                // window, then leave (an Err here would make Tauri panic).
                approval::show_fatal(&format!("Jarvis could not start.\n\n{e}"));
                std::process::exit(1);
            }
            main_window(app)?;
            Ok(())
        })
        .on_window_event(|window, event| {
            // With a tray the app keeps running when its window closes.
            if let tauri::WindowEvent::CloseRequested { api, .. } = event
                && window.app_handle().tray_by_id(tray::TRAY_ID).is_some()
                && std::env::var_os("JARVIS_QUIT_ON_CLOSE").is_none()
            {
                api.prevent_close();
                let _ = window.hide();
            }
        })
        .build(tauri::generate_context!())?
        .run(|app, event| {
            if let tauri::RunEvent::Exit = event
                && let Some(shell) = app.try_state::<Shell>()
            {
                shell.stop_services();
            }
        });
    Ok(())
}

/// The HUD's window, opened once the brain is up. Before, a window shown
/// while the start-up held the main thread drew its first frame only after
/// WebKit gave up waiting for its web process (half a second).
fn main_window(app: &tauri::App) -> tauri::Result<()> {
    let Some(cfg) = app
        .config()
        .app
        .windows
        .iter()
        .find(|w| w.label == "main")
        .cloned()
    else {
        return Ok(());
    };
    tauri::WebviewWindowBuilder::from_config(app.handle(), &cfg)?.build()?;
    Ok(())
}

/// A window with the same Tauri build showing `page` (one of the HUD's
/// bundled pages): the baseline of the memory and start-up benchmarks. The
/// page reports its first frame in the same log line as the HUD.
pub fn run_bare(page: &'static str) -> anyhow::Result<()> {
    STARTED.get_or_init(Instant::now);
    init_tracing();
    let mut ctx: tauri::Context<tauri::Wry> = tauri::generate_context!();
    ctx.config_mut().app.windows.clear();
    tauri::Builder::default()
        .invoke_handler(tauri::generate_handler![bare_painted])
        .setup(|app| {
            tauri::WebviewWindowBuilder::new(app, "main", tauri::WebviewUrl::App(page.into()))
                .title("bare")
                .inner_size(1180.0, 780.0)
                .build()?;
            Ok(())
        })
        .run(ctx)?;
    Ok(())
}

/// The bare page's first frame, logged as the HUD's is.
#[tauri::command]
fn bare_painted() {
    ipc::log_first_paint();
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("JARVIS_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,jarvis_desktop=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
