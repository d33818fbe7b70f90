// No console window behind the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

// The allocator the command guard is measured with (the policy bench).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // A one-shot keyring read for the app itself (see HelperKeyringStore):
    // answered before any window or runtime starts.
    let args: Vec<String> = std::env::args().collect();
    if let Some(code) = jarvis_core::secrets::helper_main(&args) {
        return std::process::ExitCode::from(u8::try_from(code).unwrap_or(1));
    }
    match jarvis_desktop::run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("jarvis-desktop: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
