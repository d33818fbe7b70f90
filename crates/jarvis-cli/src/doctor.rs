//! `jarvis doctor`: what works, what does not, and how to fix each failure.

use std::sync::Arc;

use anyhow::Result;
use jarvis_core::config::ConfigStore;
use jarvis_core::secrets::{API_KEY, KeyringSecretStore};
use jarvis_core::store::Store;
use serde::Serialize;

use crate::{TurnArgs, approver, home, open_brain, secrets};

#[derive(Serialize)]
struct Check {
    check: &'static str,
    ok: bool,
    detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<String>,
}

fn pass(check: &'static str, detail: impl Into<String>) -> Check {
    Check {
        check,
        ok: true,
        detail: detail.into(),
        fix: None,
    }
}

fn fail(check: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
    Check {
        check,
        ok: false,
        detail: detail.into(),
        fix: Some(fix.into()),
    }
}

/// Models, the voice engine and the microphone.
fn voice_checks(home: &std::path::Path, cfg_store: &ConfigStore, checks: &mut Vec<Check>) {
    use jarvis_voice::{capture, models, setup};
    let settings = cfg_store.load().map(|c| c.voice).unwrap_or_default();
    for m in models::list(home)
        .into_iter()
        .filter(|m| m.kind == models::ModelKind::Voice)
    {
        let check = match m.name.as_str() {
            "whisper-tiny.en" => "stt model",
            "silero-vad" => "vad model",
            _ => "voice model",
        };
        if m.installed {
            checks.push(pass(check, format!("{} {}", m.name, m.path.display())));
        } else if check == "voice model" {
            // Optional: the system voice speaks without it.
            checks.push(pass(
                check,
                format!("{} not installed; the system voice is used", m.name),
            ));
        } else {
            checks.push(fail(
                check,
                format!("{} missing at {}", m.name, m.path.display()),
                format!("jarvis models install {}", m.name),
            ));
        }
    }
    match setup::speaker(home, &settings, None) {
        Ok(s) => checks.push(pass("voice", format!("{} engine (voice.engine = {})", s.engine(), settings.engine))),
        Err(e) => checks.push(fail("voice", e.to_string(), "install espeak-ng (the system voice), or `jarvis models install piper-joe` and ONNX Runtime (ORT_DYLIB_PATH)")),
    }
    let inputs = capture::input_devices();
    if inputs.is_empty() {
        checks.push(fail(
            "microphone",
            "no input device found",
            "connect a microphone; `jarvis listen --wav FILE` works without one",
        ));
    } else {
        checks.push(pass("microphone", inputs.join(", ")));
    }
}

/// The embedded engine: its model file, its binary, and that it answers.
async fn engine_checks(
    home: &std::path::Path,
    brain: &jarvis_core::Brain,
    checks: &mut Vec<Check>,
) {
    use jarvis_core::llm::local;
    let cfg = brain.config().llm;
    if let Err(e) = jarvis_core::models::user::load(home) {
        checks.push(fail(
            "model catalog",
            e.to_string(),
            "mend the file (each model: name, license, file, url, sha256, bytes) or move it away",
        ));
    }
    let model = match local::model_path(home, &cfg) {
        Ok(p) => {
            let size = std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
            checks.push(pass(
                "engine model",
                format!(
                    "{} ({})",
                    p.display(),
                    jarvis_core::models::human_size(size)
                ),
            ));
            true
        }
        Err(e) => {
            let fix = match &e {
                local::LocalError::NotDownloaded { id, .. } => {
                    format!("jarvis models install {id}")
                }
                _ => {
                    let id = jarvis_core::models::default_language_model(home)
                        .map(|m| m.name.to_string())
                        .unwrap_or_else(|| jarvis_core::models::DEFAULT_LANGUAGE_MODEL.into());
                    format!(
                        "jarvis config set llm.local_model {id} (then `jarvis models install {id}`), or a path to a GGUF file"
                    )
                }
            };
            checks.push(fail("engine model", e.to_string(), fix));
            false
        }
    };
    match local::worker_exe() {
        Ok(p) => checks.push(pass("engine", p.display().to_string())),
        Err(e) => {
            checks.push(fail("engine", e.to_string(), "build the whole workspace (`cargo build --release`) so jarvis-llm sits beside jarvis"));
            return;
        }
    }
    if !model {
        return;
    }
    let started = std::time::Instant::now();
    let answered = match brain.llm_ready().await {
        Ok(llm) => llm.models().await.map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    match answered {
        Ok(_) => checks.push(pass(
            "engine",
            format!(
                "answers on loopback (ready in {:.1} s); context {} tokens",
                started.elapsed().as_secs_f64(),
                cfg.window()
            ),
        )),
        Err(e) => checks.push(fail(
            "engine",
            e,
            format!("see {}", home.join("llm/worker.log").display()),
        )),
    }
}

pub async fn run(json: bool) -> Result<i32> {
    let home = home()?;
    let mut checks = Vec::new();
    let cfg_store = ConfigStore::new(&home);
    let config_ok = match cfg_store.load() {
        Ok(_) => {
            checks.push(pass("config", cfg_store.path().display().to_string()));
            true
        }
        Err(e) => {
            checks.push(fail(
                "config",
                e.to_string(),
                "fix the JSON at that line, or move the file away to start from defaults",
            ));
            false
        }
    };
    let db = home.join("jarvis.db");
    match std::fs::create_dir_all(&home)
        .map_err(anyhow::Error::from)
        .and_then(|_| Ok(Store::open(&db)?))
    {
        Ok(s) => {
            let probe = tempfile::NamedTempFile::new_in(&home);
            match (s.schema_version(), probe) {
                (Ok(v), Ok(_)) => checks.push(pass(
                    "database",
                    format!("{} (schema {v}), writable", db.display()),
                )),
                (Err(e), _) => checks.push(fail(
                    "database",
                    e.to_string(),
                    format!("move {} away; Jarvis creates a new one", db.display()),
                )),
                (_, Err(e)) => checks.push(fail(
                    "database",
                    e.to_string(),
                    format!("make {} writable", home.display()),
                )),
            }
        }
        Err(e) => checks.push(fail(
            "database",
            e.to_string(),
            format!("make {} writable, or set JARVIS_HOME", home.display()),
        )),
    }
    if config_ok {
        let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
        if !brain.config().mcp_servers.is_empty() {
            brain.refresh_mcp().await;
            let failures = brain.mcp_failures();
            if failures.is_empty() {
                let n = brain.config().mcp_servers.len();
                checks.push(pass("mcp", format!("{n} server(s) started")));
            } else {
                for (server, why) in failures {
                    checks.push(fail("mcp", format!("{server}: {why}"), format!("check mcp_servers.{server} in config.json (command, args); the other servers still work")));
                }
            }
        }
        let (confined, what) = jarvis_core::tools::sandbox_report(&brain.exec_sandbox());
        if confined {
            checks.push(pass("sandbox", what));
        } else {
            checks.push(fail("sandbox", what, "build the whole workspace (`cargo build --release`) so jarvis-sandbox sits beside jarvis, on Linux ≥ 5.13 with Landlock enabled"));
        }
        let embedded = brain.config().llm.provider == jarvis_protocol::settings::Provider::Embedded;
        if embedded {
            engine_checks(&home, &brain, &mut checks).await;
        }
        let llm = brain.llm();
        let settings = llm.settings().clone();
        let window = brain.config().llm.context_window;
        match llm.models().await {
            _ if embedded => {}
            Ok(models) => {
                checks.push(pass("endpoint", format!("{} answers, {} model(s)", settings.base_url, models.len())));
                let found = models.iter().find(|m| m.id == settings.model);
                match found {
                    Some(_) => checks.push(pass("model", settings.model.clone())),
                    None => {
                        let ids: Vec<&str> = models.iter().map(|m| m.id.as_str()).take(10).collect();
                        checks.push(fail(
                            "model",
                            format!("{} is not served (available: {})", settings.model, ids.join(", ")),
                            format!("`ollama pull {}`, or `jarvis config set llm.model NAME` with one of the available models", settings.model),
                        ));
                    }
                }
                let ctx = match found.and_then(|m| m.context_length) {
                    Some(n) => Some(n),
                    None => llm.server_context_length().await,
                };
                match ctx {
                    Some(n) if n < window => checks.push(fail(
                        "context",
                        format!("the server runs the model with {n} tokens, but llm.context_window is {window}"),
                        format!("jarvis config set llm.context_window {n}"),
                    )),
                    Some(n) => checks.push(pass("context", format!("server: {n} tokens; llm.context_window: {window}"))),
                    None => checks.push(pass("context", format!("the server does not report it; llm.context_window: {window}"))),
                }
            }
            Err(e) => checks.push(fail(
                "endpoint",
                e.to_string(),
                "start Ollama (`ollama serve`), or point Jarvis at your server: `jarvis config set llm.base_url http://HOST:PORT/v1`",
            )),
        }
    }
    match KeyringSecretStore::status() {
        Ok(()) => checks.push(pass("keyring", "the OS keyring is usable")),
        Err(e) => checks.push(fail(
            "keyring",
            e.to_string(),
            "start a Secret Service (e.g. gnome-keyring) in your session, or give the key as JARVIS_API_KEY",
        )),
    }
    let key = match secrets().get(API_KEY) {
        Ok(Some(_)) => "set",
        Ok(None) => "not set (fine for a local Ollama)",
        Err(_) => "unknown",
    };
    checks.push(pass("api key", key));
    if config_ok {
        voice_checks(&home, &cfg_store, &mut checks);
    }

    if json {
        println!("{}", serde_json::to_string_pretty(&checks)?);
    } else {
        for c in &checks {
            println!(
                "{} {:<9} {}",
                if c.ok { "✓" } else { "✗" },
                c.check,
                c.detail
            );
            if let Some(f) = &c.fix {
                println!("  fix: {f}");
            }
        }
    }
    Ok(if checks.iter().all(|c| c.ok) { 0 } else { 1 })
}
