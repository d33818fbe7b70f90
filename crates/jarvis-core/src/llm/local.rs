//! The embedded engine, supervised: one `jarvis-llm` worker per
//! `JARVIS_HOME`, shared by the app and the CLI. Whoever needs it first
//! starts it (under a lock, so two processes never start two); it outlives
//! the process that started it and stops itself when idle; a worker that
//! died is started again at the next request.

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use jarvis_protocol::settings::LlmConfig;
use serde::{Deserialize, Serialize};

use crate::llm::Secret;
use crate::tasks::process;

#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    #[error(
        "the built-in model {id} is not downloaded yet ({size}, {license}): run `jarvis models install {id}`, or set llm.local_model to a GGUF file"
    )]
    NotDownloaded {
        id: String,
        size: String,
        license: String,
    },
    #[error(
        "llm.local_model is {0:?}, which is neither a model Jarvis knows ({1}) nor a GGUF file"
    )]
    Unknown(String, String),
    #[error("the local model {0} does not exist")]
    Missing(PathBuf),
    #[error("the embedded engine (jarvis-llm) is not installed: looked for {0}")]
    NoWorker(PathBuf),
    #[error("cannot start the embedded engine: {0}")]
    Start(String),
    #[error("the embedded engine stopped while loading the model: {0}")]
    Exited(String),
    #[error("the embedded engine was not ready after {0} s (see {1})")]
    Timeout(u64, PathBuf),
    #[error("the embedded engine's files in {0}: {1}")]
    Files(PathBuf, std::io::Error),
}

/// Where the running worker answers.
#[derive(Debug, Clone)]
pub struct LocalEndpoint {
    pub base_url: String,
    pub token: Secret,
    /// It had been running and was found dead.
    pub was_lost: bool,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct State {
    pid: u32,
    start: Option<i64>,
    port: u16,
    model: String,
    ctx: u32,
}

const READY: Duration = Duration::from_secs(300);
/// What the worker logs when it stops itself for want of requests.
const IDLE_EXIT: &str = "jarvis-llm: idle for";

/// The worker for `cfg`, started if it is not running.
pub fn endpoint(home: &Path, cfg: &LlmConfig) -> Result<LocalEndpoint, LocalError> {
    let model = model_path(home, cfg)?;
    let dir = home.join("llm");
    let files = |e| LocalError::Files(dir.clone(), e);
    std::fs::create_dir_all(&dir).map_err(files)?;
    // One starter at a time: the second waits, then finds the first's worker.
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join("worker.lock"))
        .map_err(files)?;
    rustix::fs::flock(&lock, rustix::fs::FlockOperation::LockExclusive)
        .map_err(|e| files(e.into()))?;
    let token = token(&dir).map_err(files)?;
    let state_file = dir.join("worker.json");
    let old: Option<State> = std::fs::read(&state_file)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let wanted = |s: &State| s.model == model.display().to_string() && s.ctx == cfg.local_ctx;
    let mut was_lost = false;
    if let Some(s) = &old {
        let live = process::alive(s.pid, s.start) && answers(s.port);
        // The right worker, gone (killed, crashed): said once it is back.
        // One that stopped itself when idle said so in its log.
        let idled = std::fs::read_to_string(dir.join("worker.log"))
            .is_ok_and(|log| log.contains(IDLE_EXIT));
        was_lost = wanted(s) && !live && !idled;
        if live && wanted(s) {
            return Ok(LocalEndpoint {
                base_url: format!("http://127.0.0.1:{}/v1", s.port),
                token,
                was_lost: false,
            });
        }
        if live {
            // Another model or context: this one replaces it.
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(s.pid as i32),
                nix::sys::signal::Signal::SIGTERM,
            );
        }
    }
    let state = spawn(&dir, &model, cfg)?;
    let tmp = dir.join("worker.json.tmp");
    let body = serde_json::to_vec(&state).unwrap_or_default();
    std::fs::write(&tmp, body)
        .and_then(|()| std::fs::rename(&tmp, &state_file))
        .map_err(files)?;
    Ok(LocalEndpoint {
        base_url: format!("http://127.0.0.1:{}/v1", state.port),
        token,
        was_lost,
    })
}

/// The worker running for this home, if any: what it serves and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WorkerStatus {
    pub pid: u32,
    pub port: u16,
    pub model: String,
    pub ctx: u32,
}

/// The worker's record of its last answer (`--stats-file`).
const STATS: &str = "stats.json";

/// How fast the engine answered last, as the worker measured it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Speed {
    /// The model file's name the worker serves.
    pub model: String,
    /// Tokens generated per second, the prompt's reading left out.
    pub tokens_per_second: f64,
    /// Prompt tokens read per second.
    pub prompt_tokens_per_second: f64,
    /// Tokens the answer had.
    pub tokens: u64,
    /// When it ended (ms since the epoch).
    pub at_ms: u64,
}

/// The last answer's speed, when the engine gave one.
pub fn speed(home: &Path) -> Option<Speed> {
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(home.join("llm").join(STATS)).ok()?).ok()?;
    let t = &v["timings"];
    let prompt_ms = t["prompt_ms"].as_f64().unwrap_or(0.0);
    let prompt_n = t["prompt_n"].as_f64().unwrap_or(0.0);
    Some(Speed {
        model: v["model"].as_str()?.to_string(),
        tokens_per_second: t["predicted_per_second"].as_f64().filter(|x| *x > 0.0)?,
        prompt_tokens_per_second: if prompt_ms > 0.0 {
            prompt_n * 1000.0 / prompt_ms
        } else {
            0.0
        },
        tokens: t["predicted_n"].as_u64().unwrap_or(0),
        at_ms: v["at_ms"].as_u64().unwrap_or(0),
    })
}

/// Reads the worker's state file and checks the worker is alive and
/// answering; `None` when none runs (never started, idle-stopped, dead).
pub fn status(home: &Path) -> Option<WorkerStatus> {
    let bytes = std::fs::read(home.join("llm/worker.json")).ok()?;
    let s: State = serde_json::from_slice(&bytes).ok()?;
    (process::alive(s.pid, s.start) && answers(s.port)).then_some(WorkerStatus {
        pid: s.pid,
        port: s.port,
        model: s.model,
        ctx: s.ctx,
    })
}

/// `llm.local_model`: a catalog id (empty is the default model), or a
/// path to a GGUF file.
pub fn model_path(home: &Path, cfg: &LlmConfig) -> Result<PathBuf, LocalError> {
    use crate::models;
    let raw = cfg.local_model.trim();
    let spec = if raw.is_empty() {
        models::default_language_model(home)
    } else {
        models::language_model(home, raw)
    };
    if let Some(spec) = spec {
        let path = models::model_path(home, &spec.name).unwrap_or_else(|_| {
            let first = spec
                .files
                .first()
                .map(|f| f.path.as_ref())
                .unwrap_or_default();
            models::models_dir(home).join(first)
        });
        if !path.is_file() {
            return Err(LocalError::NotDownloaded {
                id: spec.name.to_string(),
                size: models::human_size(spec.approx_bytes()),
                license: spec.license.to_string(),
            });
        }
        return Ok(path);
    }
    let path = match (raw.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(h)) => PathBuf::from(h).join(rest),
        _ => PathBuf::from(raw),
    };
    if !raw.contains('/') && !raw.to_ascii_lowercase().ends_with(".gguf") {
        let known: Vec<String> = models::catalog(home)
            .into_iter()
            .filter(|m| m.kind == models::ModelKind::Language)
            .map(|m| m.name.to_string())
            .collect();
        return Err(LocalError::Unknown(raw.into(), known.join(", ")));
    }
    if !path.is_file() {
        return Err(LocalError::Missing(path));
    }
    Ok(path)
}

/// The bearer token every request to the worker carries (only this user
/// can read it).
fn token(dir: &Path) -> std::io::Result<Secret> {
    let path = dir.join("token");
    if let Ok(t) = std::fs::read_to_string(&path)
        && t.trim().len() >= 32
    {
        return Ok(Secret::new(t.trim()));
    }
    let t = format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    );
    let mut f = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .mode(0o600)
            .open(&path)?
    };
    f.write_all(t.as_bytes())?;
    Ok(Secret::new(t))
}

fn answers(port: u16) -> bool {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    TcpStream::connect_timeout(&addr, Duration::from_millis(500)).is_ok()
}

/// The worker binary: `JARVIS_LLM_BIN`, else beside this executable.
pub fn worker_exe() -> Result<PathBuf, LocalError> {
    if let Some(p) = std::env::var_os("JARVIS_LLM_BIN") {
        return Ok(PathBuf::from(p));
    }
    let here = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|d| d.join("jarvis-llm")))
        .unwrap_or_else(|| PathBuf::from("jarvis-llm"));
    if here.is_file() {
        Ok(here)
    } else {
        Err(LocalError::NoWorker(here))
    }
}

fn spawn(dir: &Path, model: &Path, cfg: &LlmConfig) -> Result<State, LocalError> {
    use std::os::unix::process::CommandExt;
    let exe = worker_exe()?;
    let log_path = dir.join("worker.log");
    // Another model's speed is not this one's.
    let _ = std::fs::remove_file(dir.join(STATS));
    let log =
        std::fs::File::create(&log_path).map_err(|e| LocalError::Files(dir.to_path_buf(), e))?;
    let mut child = std::process::Command::new(&exe)
        .arg("--model")
        .arg(model)
        .args(["--host", "127.0.0.1", "--port", "0"])
        .args(["--ctx", &cfg.local_ctx.to_string()])
        .arg("--token-file")
        .arg(dir.join("token"))
        .arg("--stats-file")
        .arg(dir.join(STATS))
        .args([
            "--idle-exit",
            &(u64::from(cfg.local_idle_min) * 60).to_string(),
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(log)
        // Its own process group: Ctrl-C in a terminal stops the CLI, not
        // the engine the app shares.
        .process_group(0)
        .spawn()
        .map_err(|e| LocalError::Start(format!("{}: {e}", exe.display())))?;
    let pid = child.id();
    let deadline = Instant::now() + READY;
    let port = loop {
        let text = std::fs::read_to_string(&log_path).unwrap_or_default();
        if let Some(port) = ready_port(&text) {
            break port;
        }
        if let Ok(Some(status)) = child.try_wait() {
            let tail: String = text.lines().rev().take(5).collect::<Vec<_>>().join(" / ");
            return Err(LocalError::Exited(format!("{status}: {tail}")));
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(LocalError::Timeout(READY.as_secs(), log_path));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    // Reaped when it exits, so no zombie lingers in a long-lived app.
    let _ = std::thread::Builder::new()
        .name("jarvis-llm-reaper".into())
        .spawn(move || child.wait());
    Ok(State {
        pid,
        start: process::start_time(pid),
        port,
        model: model.display().to_string(),
        ctx: cfg.local_ctx,
    })
}

/// The port in the worker's "ready on http://127.0.0.1:PORT/v1" line.
fn ready_port(log: &str) -> Option<u16> {
    log.lines().find_map(|l| {
        l.strip_prefix("jarvis-llm: ready on http://")?
            .split('/')
            .next()?
            .rsplit(':')
            .next()?
            .parse()
            .ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agent_plans_within_the_engines_context() {
        let mut cfg = LlmConfig {
            context_window: 8192,
            local_ctx: 4096,
            ..LlmConfig::default()
        };
        assert_eq!(cfg.window(), 8192, "a server's window is its own");
        cfg.provider = jarvis_protocol::settings::Provider::Embedded;
        assert_eq!(cfg.window(), 4096);
    }

    #[test]
    fn the_ready_line_gives_the_port() {
        assert_eq!(
            ready_port("loading\njarvis-llm: ready on http://127.0.0.1:40631/v1\n"),
            Some(40631)
        );
        assert_eq!(ready_port("jarvis-llm: cannot load"), None);
    }

    #[test]
    fn a_missing_model_is_said_before_anything_starts() {
        let home = tempfile::tempdir().unwrap();
        let mut cfg = LlmConfig::default();
        let e = endpoint(home.path(), &cfg).unwrap_err();
        assert!(
            matches!(e, LocalError::NotDownloaded { ref id, .. } if id == "qwen2.5-1.5b"),
            "{e}"
        );
        assert!(
            e.to_string().contains("jarvis models install qwen2.5-1.5b"),
            "{e}"
        );
        assert!(e.to_string().contains("1.1 GB"), "{e}");
        cfg.local_model = "qwen3-0.6b".into();
        let e = endpoint(home.path(), &cfg).unwrap_err();
        assert!(e.to_string().contains("models install qwen3-0.6b"), "{e}");
        cfg.local_model = "qwen9".into();
        let e = endpoint(home.path(), &cfg).unwrap_err();
        assert!(matches!(e, LocalError::Unknown(..)), "{e}");
        cfg.local_model = "/nonexistent/model.gguf".into();
        let e = endpoint(home.path(), &cfg).unwrap_err();
        assert!(matches!(e, LocalError::Missing(_)), "{e}");
        assert!(
            !home.path().join("llm").exists(),
            "nothing was made for a missing model"
        );
    }
}
