//! Every oracle stream and every quirk fixture assembles to its expected.json,
//! whole and cut into pieces at arbitrary byte boundaries.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use bytes::Bytes;
use jarvis_core::llm::{Assembled, LlmError, StreamDelta, assemble_stream};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

fn sse_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sse"))
        .collect();
    v.sort();
    v
}

async fn assemble(raw: &[u8], piece: usize) -> (Result<Assembled, LlmError>, Vec<StreamDelta>) {
    let pieces: Vec<Result<Bytes, std::io::Error>> = raw
        .chunks(piece.max(1))
        .map(|c| Ok(Bytes::copy_from_slice(c)))
        .collect();
    let mut deltas = Vec::new();
    let res = assemble_stream(
        futures_util::stream::iter(pieces),
        Duration::from_secs(5),
        &CancellationToken::new(),
        &mut |d| deltas.push(d),
    )
    .await;
    (res, deltas)
}

fn check(path: &Path, res: &Result<Assembled, LlmError>, deltas: &[StreamDelta], exp: &Value) {
    let name = path.file_name().unwrap().to_string_lossy();
    let legacy = exp["sse_ignored_fields"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["field"] == "error"));
    if let Some(err) = exp["error"].as_object() {
        let msg = err["message"].as_str().unwrap();
        match res {
            Err(LlmError::Provider { message }) => {
                assert!(message.contains(msg), "{name}: {message}")
            }
            other => panic!("{name}: expected provider error, got {other:?}"),
        }
        return;
    }
    if let Some(field) = legacy {
        let inner: Value = serde_json::from_str(field["value"].as_str().unwrap()).unwrap();
        let msg = inner["message"].as_str().unwrap();
        match res {
            Err(LlmError::Provider { message }) => {
                assert!(message.contains(msg), "{name}: {message}")
            }
            other => panic!("{name}: expected the legacy error, got {other:?}"),
        }
        return;
    }
    let a = res.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
    let m = &exp["message"];
    assert_eq!(
        a.content.as_deref(),
        m["content"].as_str(),
        "{name}: content"
    );
    assert_eq!(
        a.reasoning.as_deref(),
        m["reasoning_content"].as_str(),
        "{name}: reasoning"
    );
    assert_eq!(
        a.refusal.as_deref(),
        m["refusal"].as_str(),
        "{name}: refusal"
    );
    assert_eq!(
        a.finish_reason.as_deref(),
        exp["finish_reason"].as_str(),
        "{name}: finish"
    );
    assert_eq!(
        a.done_marker,
        exp["done_marker"].as_bool().unwrap(),
        "{name}: [DONE]"
    );
    let calls = m["tool_calls"].as_array().unwrap();
    assert_eq!(a.tool_calls.len(), calls.len(), "{name}: tool call count");
    for (got, want) in a.tool_calls.iter().zip(calls) {
        if let Some(id) = want["id"].as_str() {
            assert_eq!(got.id, id, "{name}: id");
        } else {
            assert!(
                got.id.starts_with("call_"),
                "{name}: generated id {}",
                got.id
            );
        }
        assert_eq!(
            Some(got.name.as_str()),
            want["function"]["name"].as_str(),
            "{name}: name"
        );
        assert_eq!(
            got.arguments,
            want["function"]["arguments"].as_str().unwrap(),
            "{name}: args"
        );
        let parsed: Option<Value> = serde_json::from_str(&got.arguments).ok();
        assert_eq!(
            parsed.unwrap_or(Value::Null),
            want["parsed_arguments"],
            "{name}: parsed"
        );
    }
    if let Some(u) = exp["usage"].as_object() {
        let got = a.usage.unwrap_or_else(|| panic!("{name}: usage missing"));
        assert_eq!(
            Some(got.prompt_tokens),
            u["prompt_tokens"].as_u64(),
            "{name}"
        );
        assert_eq!(
            Some(got.completion_tokens),
            u["completion_tokens"].as_u64(),
            "{name}"
        );
        assert_eq!(Some(got.total_tokens), u["total_tokens"].as_u64(), "{name}");
    } else {
        assert!(a.usage.is_none(), "{name}: unexpected usage");
    }
    // What was shown live adds up to what was assembled.
    let shown: String = deltas
        .iter()
        .filter_map(|d| match d {
            StreamDelta::Content(c) => Some(c.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        shown,
        a.content.clone().unwrap_or_default(),
        "{name}: live content"
    );
    for (slot, call) in a.tool_calls.iter().enumerate() {
        let _ = slot;
        let started = deltas
            .iter()
            .any(|d| matches!(d, StreamDelta::ToolCallStarted { name, .. } if *name == call.name));
        assert!(started, "{name}: no live start for {}", call.name);
    }
}

async fn run_dir(dir: PathBuf, min_files: usize) {
    let files = sse_files(&dir);
    assert!(
        files.len() >= min_files,
        "{}: only {} streams",
        dir.display(),
        files.len()
    );
    for path in files {
        let raw = std::fs::read(&path).unwrap();
        let exp: Value = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension("expected.json")).unwrap(),
        )
        .unwrap();
        for piece in [raw.len(), 1, 7, 64] {
            let (res, deltas) = assemble(&raw, piece).await;
            check(&path, &res, &deltas, &exp);
        }
    }
}

#[tokio::test]
async fn all_oracle_streams_assemble_to_their_expected_message() {
    run_dir(jarvis_testkit::shared_dir().join("oracles/sse"), 18).await;
}

#[tokio::test]
async fn quirk_fixtures_assemble_to_the_reference_assemblers_message() {
    run_dir(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sse"),
        7,
    )
    .await;
}

#[tokio::test]
async fn malformed_and_incomplete_streams_are_clear_errors() {
    type Check = fn(&LlmError) -> bool;
    let cases: &[(&str, Check)] = &[
        (
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: {not json}\n\n",
            |e| matches!(e, LlmError::MalformedChunk { chunk: 2, .. }),
        ),
        (
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"half an ans\"}}]}\n\n",
            |e| matches!(e, LlmError::Truncated { chunks: 1 }),
        ),
        ("data: [DONE]\n\n", |e| {
            matches!(e, LlmError::EmptyAnswer { .. })
        }),
        ("", |e| matches!(e, LlmError::Truncated { chunks: 0 })),
        (
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":null}]}\n\ndata: {\"error\":\"boom\"}\n\n",
            |e| matches!(e, LlmError::Provider { message } if message == "boom"),
        ),
    ];
    for (raw, ok) in cases {
        let (res, _) = assemble(raw.as_bytes(), 5).await;
        match res {
            Err(e) => {
                assert!(ok(&e), "{raw:?}: wrong error {e:?}");
                assert!(!e.to_string().is_empty());
            }
            Ok(a) => panic!("{raw:?}: expected an error, got {a:?}"),
        }
    }
}
