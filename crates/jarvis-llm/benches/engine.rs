//! The worker's streaming path against a bare llama-cpp-2 decode loop, in
//! one run, on the same model, prompt (the worker's own template), threads
//! and greedy sampling: tokens per second, time to first token, and the
//! worker's resident memory.
//!
//! `JARVIS_TEST_GGUF=FILE cargo bench -p jarvis-llm --bench engine`
//! (`JARVIS_BENCH_TOKENS`, default 128; 3 runs each, the median kept).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use jarvis_llm::api::{ChatRequest, Choice};
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::sampling::LlamaSampler;
use serde_json::{Value, json};

const THREADS: i32 = 2;
const CTX: u32 = 2048;
const QUESTION: &str =
    "Tell me about lighthouses: how they work, who kept them and why they matter.";

struct Run {
    first_ms: f64,
    tokens: usize,
    per_second: f64,
}

fn median(mut v: Vec<Run>) -> Run {
    v.sort_by(|a, b| a.per_second.total_cmp(&b.per_second));
    v.swap_remove(v.len() / 2)
}

fn request(n: usize) -> Value {
    json!({"stream": true, "temperature": 0, "max_tokens": n,
           "messages": [{"role": "user", "content": QUESTION}]})
}

/// The bare loop: tokenize, decode the prompt, then sample greedily and
/// decode one token at a time, as llama-cpp-2's own example does.
fn bare(model: &LlamaModel, backend: &LlamaBackend, prompt: &str, n: usize) -> Run {
    let params = LlamaContextParams::default()
        .with_n_ctx(NonZeroU32::new(CTX))
        .with_n_batch(512)
        .with_n_threads(THREADS)
        .with_n_threads_batch(THREADS);
    let started = Instant::now();
    let mut ctx = model.new_context(backend, params).expect("context");
    let vocab = model.vocab();
    let tokens = vocab.tokenize(prompt.as_bytes(), true, true);
    let mut batch = LlamaBatch::new(512, 1);
    let last = tokens.len() - 1;
    for (i, t) in tokens.iter().enumerate() {
        batch.add(*t, i as i32, &[0], i == last).expect("batch");
    }
    ctx.decode(&mut batch).expect("decode");
    let mut sampler = LlamaSampler::chain_simple([LlamaSampler::greedy()]);
    let mut pos = tokens.len();
    let mut first = None;
    let mut made = 0;
    while made < n {
        let token = sampler.sample(&ctx, batch.n_tokens() - 1);
        if vocab.is_eog(token) {
            break;
        }
        let _piece = vocab.token_to_piece(token, false, None);
        first.get_or_insert_with(|| started.elapsed());
        made += 1;
        batch.clear();
        batch.add(token, pos as i32, &[0], true).expect("batch");
        pos += 1;
        ctx.decode(&mut batch).expect("decode");
    }
    let first = first.unwrap_or_default();
    let rest = started.elapsed() - first;
    Run {
        first_ms: first.as_secs_f64() * 1000.0,
        tokens: made,
        per_second: (made.saturating_sub(1)) as f64 / rest.as_secs_f64().max(1e-9),
    }
}

/// The worker: the same prompt through HTTP and SSE, timed at the client.
fn worker(port: u16, n: usize) -> Run {
    let body = request(n).to_string();
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let started = Instant::now();
    write!(
        s,
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut reader = BufReader::new(s);
    let mut first = None;
    let mut last = started.elapsed();
    let mut tokens = 0;
    let mut line = String::new();
    while reader.read_line(&mut line).unwrap_or(0) > 0 {
        if let Some(data) = line.trim().strip_prefix("data:") {
            let data = data.trim();
            if data == "[DONE]" {
                break;
            }
            if let Ok(v) = serde_json::from_str::<Value>(data) {
                if v["choices"][0]["delta"]["content"]
                    .as_str()
                    .is_some_and(|t| !t.is_empty())
                {
                    first.get_or_insert_with(|| started.elapsed());
                    last = started.elapsed();
                }
                if let Some(c) = v["usage"]["completion_tokens"].as_u64() {
                    tokens = c as usize;
                }
            }
        }
        line.clear();
    }
    let first = first.unwrap_or_default();
    Run {
        first_ms: first.as_secs_f64() * 1000.0,
        tokens,
        per_second: (tokens.saturating_sub(1)) as f64 / (last - first).as_secs_f64().max(1e-9),
    }
}

fn rss_mib(pid: u32) -> f64 {
    let mut s = String::new();
    let _ = std::fs::File::open(format!("/proc/{pid}/status"))
        .and_then(|mut f| f.read_to_string(&mut s));
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn start_worker(model: &Path) -> (std::process::Child, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jarvis-llm"))
        .arg("--model")
        .arg(model)
        .args([
            "--port",
            "0",
            "--ctx",
            &CTX.to_string(),
            "--threads",
            &THREADS.to_string(),
        ])
        .stderr(Stdio::piped())
        .spawn()
        .expect("worker");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let port = loop {
        let l = lines.next().expect("the worker exited").expect("stderr");
        if let Some(url) = l.strip_prefix("jarvis-llm: ready on http://") {
            break url
                .split('/')
                .next()
                .and_then(|a| a.rsplit(':').next())
                .and_then(|p| p.parse().ok())
                .expect("port");
        }
    };
    std::thread::spawn(move || for _ in lines {});
    (child, port)
}

fn main() {
    let Some(model_path) = std::env::var_os("JARVIS_TEST_GGUF").map(PathBuf::from) else {
        println!("skipped: set JARVIS_TEST_GGUF to a GGUF file");
        return;
    };
    let n: usize = std::env::var("JARVIS_BENCH_TOKENS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(128);
    let req: ChatRequest = serde_json::from_value(request(n)).expect("request");
    let prompt = jarvis_llm::template::render(&req, &Choice::None);

    let (mut child, port) = start_worker(&model_path);
    let workers: Vec<Run> = (0..3).map(|_| worker(port, n)).collect();
    let rss = rss_mib(child.id());
    let _ = child.kill();
    let _ = child.wait();
    std::thread::sleep(Duration::from_millis(200));

    let mut backend = LlamaBackend::init().expect("backend");
    backend.void_logs();
    let model = LlamaModel::load_from_file(&backend, &model_path, &LlamaModelParams::default())
        .expect("model");
    let bares: Vec<Run> = (0..3).map(|_| bare(&model, &backend, &prompt, n)).collect();

    let (w, b) = (median(workers), median(bares));
    let name = model_path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    println!();
    println!(
        "| {name}, {THREADS} threads, greedy, up to {n} tokens | tokens | tokens/s | first token | goal |"
    );
    println!("|---|---|---|---|---|");
    println!(
        "| worker: HTTP + SSE + template + call parser | {} | {:.1} | {:.0} ms | ≥ bare / 1.05 |",
        w.tokens, w.per_second, w.first_ms
    );
    println!(
        "| bare llama-cpp-2 decode loop (baseline) | {} | {:.1} | {:.0} ms | |",
        b.tokens, b.per_second, b.first_ms
    );
    println!(
        "| ratio bare / worker | | {:.3}× | | ≤ 1.05× |",
        b.per_second / w.per_second.max(1e-9)
    );
    println!("| worker resident memory after the runs | {rss:.0} MiB | | | |");
}
