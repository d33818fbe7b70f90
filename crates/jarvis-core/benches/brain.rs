//! `cargo bench -p jarvis-core --bench brain`: the brain's speed figures.
//!
//! 1. SSE assembly throughput: a synthetic stream of 1–8-character content
//!    deltas and interleaved tool-argument fragments, decoded and assembled
//!    by the same code path as a live response.
//! 2. Loop overhead per tool round against a loopback server that answers
//!    instantly, beside the same conversation driven by the official
//!    `openai` Python SDK (when `python3 -c 'import openai'` works).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use jarvis_core::llm::assemble_stream;
use jarvis_core::policy::NoApprover;
use jarvis_core::secrets::MemorySecretStore;
use jarvis_core::{Brain, BrainOptions, Overrides};
use jarvis_protocol::{Event, Op};
use jarvis_testkit::{MockServer, Reply, chunk};
use serde_json::json;
use tokio_util::sync::CancellationToken;

const ROUNDS_PER_TURN: usize = 5;

fn synthetic_stream(target_bytes: usize) -> Vec<u8> {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut out = String::new();
    let words = "the quick brown fox jumps over the lazy dog 快速的狐狸 ";
    let chars: Vec<char> = words.chars().collect();
    let mut i = 0usize;
    out.push_str(&format!(
        "data: {}\n\n",
        chunk(json!({"role": "assistant", "content": ""}), None)
    ));
    for idx in 0..2 {
        let d = json!({"tool_calls": [{"index": idx, "id": format!("call_{idx}"), "type": "function",
            "function": {"name": "local_read_file", "arguments": ""}}]});
        out.push_str(&format!("data: {}\n\n", chunk(d, None)));
    }
    while out.len() < target_bytes {
        let n = rng.usize(1..=8);
        let piece: String = (0..n).map(|k| chars[(i + k) % chars.len()]).collect();
        i += n;
        let d = if i.is_multiple_of(4) {
            json!({"tool_calls": [{"index": (i / 4) % 2, "function": {"arguments": piece}}]})
        } else {
            json!({"content": piece})
        };
        out.push_str(&format!("data: {}\n\n", chunk(d, None)));
    }
    out.push_str(&format!(
        "data: {}\n\ndata: [DONE]\n\n",
        chunk(json!({}), Some("tool_calls"))
    ));
    out.into_bytes()
}

async fn sse_throughput() -> f64 {
    let raw = synthetic_stream(8 * 1024 * 1024);
    let pieces: Vec<Bytes> = raw.chunks(16 * 1024).map(Bytes::copy_from_slice).collect();
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let input: Vec<Result<Bytes, std::io::Error>> = pieces.iter().cloned().map(Ok).collect();
        let mut n = 0usize;
        let t0 = Instant::now();
        let a = assemble_stream(
            futures_util::stream::iter(input),
            Duration::from_secs(60),
            &CancellationToken::new(),
            &mut |_| n += 1,
        )
        .await
        .unwrap();
        best = best.min(t0.elapsed());
        assert_eq!(a.tool_calls.len(), 2);
        assert!(n > 20_000, "{n} deltas");
    }
    raw.len() as f64 / best.as_secs_f64() / 1e6
}

fn conversation_server()
-> impl Fn(&jarvis_testkit::Recorded, usize) -> Reply + Send + Sync + 'static {
    |req, _| {
        let body = req.json();
        let done = body["messages"]
            .as_array()
            .map(|m| m.iter().filter(|m| m["role"] == "tool").count())
            .unwrap_or(0);
        if done < ROUNDS_PER_TURN {
            let args = format!(r#"{{"path":"d{done}"}}"#);
            Reply::tool_calls(&[(&format!("c{done}"), "local_list_dir", &args)])
        } else {
            Reply::text("Listed everything.")
        }
    }
}

async fn jarvis_loop(turns: usize) -> (f64, usize) {
    let server = MockServer::with_handler(conversation_server())
        .await
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    for i in 0..ROUNDS_PER_TURN {
        std::fs::create_dir_all(work.path().join(format!("d{i}/sub"))).unwrap();
    }
    let store = jarvis_core::config::ConfigStore::new(home.path());
    store
        .update(|c| {
            c.set("llm.base_url", &server.base_url())?;
            c.set("tools.read", "true")?;
            Ok(())
        })
        .unwrap();
    let brain = Brain::open(BrainOptions {
        home: home.path().into(),
        secrets: Arc::new(MemorySecretStore::default()),
        approver: Arc::new(NoApprover),
        overrides: Overrides {
            workdir: Some(work.path().into()),
            ..Default::default()
        },
        registry: None,
        resolver: None,
        sandbox_helper: None,
    })
    .unwrap();
    let mut rx = brain.subscribe();
    run_turns(&brain, &mut rx, 3).await; // warm-up
    let before = server.chat_requests().len();
    let t0 = Instant::now();
    run_turns(&brain, &mut rx, turns).await;
    let secs = t0.elapsed().as_secs_f64();
    (secs, server.chat_requests().len() - before)
}

async fn run_turns(brain: &Brain, rx: &mut jarvis_core::events::Subscription, n: usize) {
    for t in 0..n {
        let sid = format!("s{t}-{}", uuid::Uuid::new_v4());
        brain
            .submit(Op::UserInput {
                session_id: sid.clone(),
                text: "list".into(),
            })
            .unwrap();
        loop {
            let ev = rx.recv().await.unwrap();
            if ev.session_id.as_deref() == Some(sid.as_str())
                && matches!(ev.event, Event::TurnFinished { .. })
            {
                break;
            }
        }
    }
}

async fn python_loop(turns: usize) -> Option<(f64, usize)> {
    let server = MockServer::with_handler(conversation_server())
        .await
        .unwrap();
    let work = tempfile::tempdir().unwrap();
    for i in 0..ROUNDS_PER_TURN {
        std::fs::create_dir_all(work.path().join(format!("d{i}/sub"))).unwrap();
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/openai_loop.py");
    let run = |n: usize| {
        tokio::process::Command::new("python3")
            .arg(script)
            .arg(server.base_url())
            .arg(work.path())
            .arg(n.to_string())
            .output()
    };
    let warm = run(3).await.ok()?;
    if !warm.status.success() {
        eprintln!(
            "python bench unavailable: {}",
            String::from_utf8_lossy(&warm.stderr)
                .lines()
                .last()
                .unwrap_or("")
        );
        return None;
    }
    let out = run(turns).await.ok()?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mut parts = text.split_whitespace();
    let secs: f64 = parts.next()?.parse().ok()?;
    let reqs: usize = parts.next()?.parse().ok()?;
    Some((secs, reqs))
}

/// Resolving a model-given path against the working directory: µs per call.
fn path_resolution(iters: usize) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("a/b/c")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("a"), dir.path().join("link")).unwrap();
    let wd = std::fs::canonicalize(dir.path()).unwrap();
    let t0 = Instant::now();
    for i in 0..iters {
        let p = if i % 2 == 0 {
            "a/b/c/file.txt"
        } else {
            "link/b/../b/c"
        };
        std::hint::black_box(jarvis_core::tools::paths::resolve(&wd, p).unwrap());
    }
    t0.elapsed().as_secs_f64() * 1e6 / iters as f64
}

/// Generates `n` skills (a third in nested collections) under a temp root.
fn skill_tree(n: usize) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    for i in 0..n {
        let dir = if i % 3 == 0 {
            root.path().join(format!("collection-{}/skill-{i}", i % 17))
        } else {
            root.path().join(format!("skill-{i}"))
        };
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: skill-{i}\ndescription: >\n  Does task number {i} for the user, carefully and well.\n  Use when the user asks about topic {i}.\nlicense: MIT\n---\n# Skill {i}\n\nInstructions.\n"),
        )
        .unwrap();
    }
    root
}

/// Discovery + catalog: (first run, best of `runs`) in ms.
fn skills_discovery(root: &std::path::Path, runs: usize) -> (f64, f64) {
    let roots = [jarvis_core::skills::SkillRoot {
        path: root.to_path_buf(),
        source: "bench".into(),
    }];
    let once = || {
        let t0 = Instant::now();
        let c = jarvis_core::skills::discover(&roots);
        std::hint::black_box(jarvis_core::skills::catalog::prompt_section(&c, 15_000));
        t0.elapsed().as_secs_f64() * 1e3
    };
    let first = once();
    let best = (0..runs).map(|_| once()).fold(f64::MAX, f64::min);
    (first, best)
}

/// The watched index between changes: (first build, a request with nothing changed) in ms.
fn skills_index(root: &std::path::Path) -> (f64, f64) {
    let roots = vec![jarvis_core::skills::SkillRoot {
        path: root.to_path_buf(),
        source: "bench".into(),
    }];
    let index = jarvis_core::skills::index::SkillIndex::new();
    let t0 = Instant::now();
    std::hint::black_box(index.catalog(roots.clone()));
    let first = t0.elapsed().as_secs_f64() * 1e3;
    std::thread::sleep(Duration::from_millis(200));
    let t0 = Instant::now();
    std::hint::black_box(index.catalog(roots));
    (first, t0.elapsed().as_secs_f64() * 1e3)
}

fn seed_discovery(root: &std::path::Path, runs: usize) -> Option<f64> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/seed_skills.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(root)
        .arg(runs.to_string())
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse::<f64>()
        .ok()
        .map(|s| s * 1e3)
}

#[tokio::main]
async fn main() {
    // `cargo test --benches` runs this with --bench absent: keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let turns = if quick { 2 } else { 40 };
    let mb_s = sse_throughput().await;
    let (secs, reqs) = jarvis_loop(turns).await;
    let jarvis_ms = secs * 1000.0 / reqs as f64;
    println!();
    println!("| benchmark | measured | goal |");
    println!("|---|---|---|");
    println!(
        "| SSE assembly throughput (8 MiB synthetic stream, 16 KiB reads) | {mb_s:.0} MB/s | ≥ 200 MB/s |"
    );
    println!(
        "| agent loop, per tool round (loopback, {reqs} requests) | {jarvis_ms:.2} ms | ≤ 5 ms |"
    );
    match python_loop(turns).await {
        Some((psecs, preqs)) => {
            let py_ms = psecs * 1000.0 / preqs as f64;
            println!("| same conversation, official `openai` Python SDK | {py_ms:.2} ms | — |");
            println!(
                "| ratio openai-python / Jarvis | {:.1}× | — |",
                py_ms / jarvis_ms
            );
        }
        None => println!(
            "| same conversation, official `openai` Python SDK | n/a (pip install openai) | — |"
        ),
    }
    let per_path = path_resolution(if quick { 100 } else { 20_000 });
    println!("| path resolution (4 components, one symlink) | {per_path:.1} µs | — |");
    for n in if quick { vec![50] } else { vec![1_000, 10_000] } {
        let tree = skill_tree(n);
        let (cold, warm) = skills_discovery(tree.path(), if quick { 1 } else { 5 });
        let goal = if n == 1_000 { "≤ 30 ms" } else { "—" };
        println!(
            "| skills discovery + catalog, {n} skills, first run / warm | {cold:.1} ms / {warm:.1} ms | {goal} |"
        );
        let (built, cached) = skills_index(tree.path());
        println!(
            "| watched skills index, {n} skills, build / request with no change | {built:.1} ms / {cached:.2} ms | — |"
        );
        match seed_discovery(tree.path(), if quick { 1 } else { 3 }) {
            Some(ms) => println!(
                "| the seed's loader (Python, regex frontmatter), {n} skills, warm | {ms:.1} ms | — |"
            ),
            None => println!("| the seed's loader (Python), {n} skills | n/a | — |"),
        }
    }
}
