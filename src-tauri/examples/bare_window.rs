//! An empty Tauri window built exactly like the app (same crate, profile and
//! features): the baseline of the memory benchmark.

fn main() -> std::process::ExitCode {
    match jarvis_desktop::run_bare() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bare-window: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
