//! A bare Tauri window built exactly like the app (same crate, profile and
//! features): the baseline of the memory benchmark. It shows one line of
//! text; `--empty` shows an empty page instead, which WebKit renders without
//! ever setting up text rendering (fonts, shaping, glyph caches), about
//! 10 MB lighter than any page that shows a word.

fn main() -> std::process::ExitCode {
    let page = if std::env::args().any(|a| a == "--empty") {
        "bare-empty.html"
    } else {
        "bare.html"
    };
    match jarvis_desktop::run_bare(page) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bare-window: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
