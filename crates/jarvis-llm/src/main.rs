//! `jarvis-llm --model FILE [--host 127.0.0.1] --port N [--ctx N]
//! [--threads N] [--token-file F] [--stats-file F] [--chat-format F]`:
//! loads the model, then opens the port, so `/v1/models` answering means
//! ready.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Parser;
use jarvis_llm::engine::{Engine, EngineOptions};
use jarvis_llm::server::{Worker, router};
use jarvis_llm::template::Format;

#[derive(Parser)]
#[command(
    name = "jarvis-llm",
    about = "Jarvis's embedded model, served on loopback"
)]
struct Args {
    /// A GGUF model file.
    #[arg(long)]
    model: PathBuf,
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// 0 picks a free port (printed on stderr once ready).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Context length in tokens.
    #[arg(long, default_value_t = 4096)]
    ctx: u32,
    /// Threads for decoding (default: the machine's cores).
    #[arg(long)]
    threads: Option<i32>,
    /// A file holding the bearer token every request must carry.
    #[arg(long)]
    token_file: Option<PathBuf>,
    /// Exit after this many seconds without a request (0: never).
    #[arg(long, default_value_t = 0)]
    idle_exit: u64,
    /// The prompt format: the model's own template decides (auto), or
    /// ChatML with Hermes tool calls, or Llama 3's (for a GGUF whose
    /// template is missing or wrong).
    #[arg(long, value_enum, default_value_t = ChatFormat::Auto)]
    chat_format: ChatFormat,
    /// Write each answer's speed (tokens/s) to this file, for the hosts.
    #[arg(long)]
    stats_file: Option<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ChatFormat {
    Auto,
    Hermes,
    Llama3,
}

// One runtime thread: the decode threads get the cores, the server needs little.
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("JARVIS_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let args = Args::parse();
    let token = match &args.token_file {
        Some(f) => Some(
            std::fs::read_to_string(f)
                .with_context(|| format!("reading the token file {}", f.display()))?
                .trim()
                .to_string(),
        )
        .filter(|t| !t.is_empty()),
        None => None,
    };
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get() as i32)
            .unwrap_or(2)
    });
    let path = args.model.clone();
    let opts = EngineOptions {
        ctx: args.ctx,
        threads,
    };
    let engine = tokio::task::spawn_blocking(move || Engine::load(&path, opts)).await??;
    let name = args
        .model
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "local".into());
    let mut worker = Worker::new(engine, name, token);
    match args.chat_format {
        ChatFormat::Auto => {}
        ChatFormat::Hermes => worker = worker.with_format(Format::Hermes),
        ChatFormat::Llama3 => worker = worker.with_format(Format::Llama3),
    }
    if let Some(f) = args.stats_file.clone() {
        worker = worker.with_stats_file(f);
    }
    let worker = Arc::new(worker);
    // Bound only now: a port that answers has a loaded model behind it.
    let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
        .await
        .with_context(|| format!("binding {}:{}", args.host, args.port))?;
    let addr = listener.local_addr()?;
    eprintln!("jarvis-llm: ready on http://{addr}/v1");
    let idle = args.idle_exit;
    let app = router(worker.clone());
    let shutdown = async move {
        if idle == 0 {
            std::future::pending::<()>().await;
        }
        loop {
            tokio::time::sleep(std::time::Duration::from_secs(idle.clamp(1, 30))).await;
            if worker.idle_for().as_secs() >= idle {
                eprintln!("jarvis-llm: idle for {idle} s, exiting");
                return;
            }
        }
    };
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
        .context("serving")?;
    Ok(())
}
