//! `jarvis chat`'s first run, after the folder: where answers come from.
//! A built-in model is offered with its size and licence before a byte
//! moves; a server that already answers is offered first.

use std::io::Write;
use std::time::Duration;

use anyhow::Result;
use jarvis_core::models;

use crate::approver::Input;

/// Asks for the engine, downloads the built-in model when it is chosen and
/// missing, and saves the choice.
pub async fn choose_engine(brain: &jarvis_core::Brain, input: &Input) -> Result<()> {
    let home = brain.home().to_path_buf();
    let Some(spec) = models::default_language_model(&home) else {
        return Ok(());
    };
    let installed = models::list(&home)
        .iter()
        .any(|m| m.name == spec.name && m.installed);
    let llm = brain.llm();
    let url = llm.settings().base_url.clone();
    // A second is plenty for a server on this machine or the network.
    let served = tokio::time::timeout(Duration::from_secs(2), llm.models())
        .await
        .ok()
        .and_then(Result::ok)
        .map(|m| m.len());
    let size = models::human_size(spec.approx_bytes());
    let download = if installed {
        "already downloaded".to_string()
    } else {
        format!("a {size} download, once")
    };
    eprintln!("Where should answers come from?");
    let (kind, added) = if spec.user {
        ("a model", " (added by you)")
    } else {
        ("a built-in model", "")
    };
    eprintln!(
        "  1) {kind} on this computer: {}{added} — {}; {download}; licence {}",
        spec.name, spec.what, spec.license
    );
    match served {
        Some(n) => eprintln!("  2) the server at {url} ({n} models; it answers now)"),
        None => eprintln!(
            "  2) a server: {url} does not answer now (set another with `jarvis config set llm.base_url URL`)"
        ),
    }
    let default = if served.is_some() { "2" } else { "1" };
    eprint!("Choose [{default}] ");
    let _ = std::io::stderr().flush();
    let answer = input.line().await.unwrap_or_default();
    let answer = match answer.trim() {
        "" => default,
        a => a,
    };
    if answer != "1" {
        eprintln!(
            "Answers come from {url} (switch any time: `jarvis config set llm.provider embedded`)."
        );
        return Ok(());
    }
    if !installed {
        eprintln!(
            "Downloading {} ({size}) into {}…",
            spec.name,
            models::models_dir(&home).display()
        );
        crate::voice_cmd::install_with_bar(
            &home,
            &spec.name,
            crate::voice_cmd::env_mirror().as_deref(),
        )
        .await?;
    }
    brain.set_config("llm.local_model", &serde_json::to_string(&spec.name)?)?;
    brain.set_config("llm.provider", "\"embedded\"")?;
    eprintln!(
        "Answers come from {} on this computer (switch any time: `jarvis config set llm.provider endpoint`).",
        spec.name
    );
    Ok(())
}
