//! Retries, timeouts and cancellation of the model client, on loopback, with counts and timing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use jarvis_core::llm::{ChatMessage, LlmClient, LlmError, LlmSettings};
use jarvis_testkit::{MockServer, Piece, Reply, chunk};
use serde_json::json;
use tokio_util::sync::CancellationToken;

fn client(base: String, retries: u32, idle: Duration) -> LlmClient {
    LlmClient::new(LlmSettings {
        base_url: base,
        model: "m".into(),
        max_retries: retries,
        idle_timeout: idle,
        backoff_base: Duration::from_millis(50),
        ..LlmSettings::default()
    })
    .unwrap()
}

async fn chat(c: &LlmClient, cancel: &CancellationToken) -> Result<String, LlmError> {
    let a = c
        .stream_chat(&[ChatMessage::user("hi")], &[], cancel, &mut |_| {})
        .await?;
    Ok(a.content.unwrap_or_default())
}

#[tokio::test]
async fn retry_after_is_honoured_and_retries_are_bounded() {
    let limited = Reply::status(
        429,
        r#"{"error":{"message":"slow down","type":"rate_limit"}}"#,
    )
    .with_header("Retry-After", "2");
    let server = MockServer::scripted(vec![limited.clone(), Reply::text("finally")])
        .await
        .unwrap();
    let c = client(server.base_url(), 3, Duration::from_secs(5));
    assert_eq!(
        chat(&c, &CancellationToken::new()).await.unwrap(),
        "finally"
    );
    let reqs = server.chat_requests();
    assert_eq!(reqs.len(), 2);
    let gap = reqs[1].at - reqs[0].at;
    assert!(
        gap >= Duration::from_secs(2),
        "retried after {gap:?}, sooner than Retry-After: 2"
    );
    assert!(gap < Duration::from_millis(2600), "{gap:?}");

    // Always 429: N retries, then a clear error naming the cause.
    let server = MockServer::with_handler(|_, _| {
        Reply::status(429, r#"{"error":{"message":"quota exceeded"}}"#)
            .with_header("Retry-After", "0")
    })
    .await
    .unwrap();
    let c = client(server.base_url(), 2, Duration::from_secs(5));
    let err = chat(&c, &CancellationToken::new()).await.unwrap_err();
    assert_eq!(server.chat_requests().len(), 3, "1 try + 2 retries");
    assert!(
        matches!(err, LlmError::RetriesExhausted { attempts: 3, .. }),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains("429") && msg.contains("quota exceeded"),
        "{msg}"
    );
}

#[tokio::test]
async fn server_errors_back_off_exponentially_and_client_errors_do_not_retry() {
    let server = MockServer::scripted(vec![
        Reply::status(503, "busy"),
        Reply::status(502, "bad gateway"),
        Reply::text("ok"),
    ])
    .await
    .unwrap();
    let c = client(server.base_url(), 3, Duration::from_secs(5));
    assert_eq!(chat(&c, &CancellationToken::new()).await.unwrap(), "ok");
    let r = server.chat_requests();
    assert_eq!(r.len(), 3);
    // base 50 ms: waits in [25, 50] then [50, 100] ms.
    assert!(r[1].at - r[0].at >= Duration::from_millis(25));
    assert!(r[2].at - r[1].at >= Duration::from_millis(50));

    let server = MockServer::scripted(vec![Reply::status(
        401,
        r#"{"error":{"message":"bad key"}}"#,
    )])
    .await
    .unwrap();
    let c = client(server.base_url(), 3, Duration::from_secs(5));
    let err = chat(&c, &CancellationToken::new()).await.unwrap_err();
    assert_eq!(server.chat_requests().len(), 1);
    assert!(
        err.to_string().contains("401") && err.to_string().contains("bad key"),
        "{err}"
    );
}

#[tokio::test]
async fn connect_errors_are_retried_then_reported() {
    // A port that was just free: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let c = client(
        format!("http://127.0.0.1:{port}/v1"),
        2,
        Duration::from_secs(5),
    );
    let t0 = Instant::now();
    let err = chat(&c, &CancellationToken::new()).await.unwrap_err();
    assert!(
        matches!(err, LlmError::RetriesExhausted { attempts: 3, .. }),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("cannot reach the model server"),
        "{err}"
    );
    assert!(t0.elapsed() >= Duration::from_millis(25 + 50));
}

#[tokio::test]
async fn a_stream_that_stalls_after_two_chunks_fails_within_the_idle_timeout() {
    let mut first = Vec::new();
    for d in [
        json!({"role": "assistant", "content": "Hel"}),
        json!({"content": "lo"}),
    ] {
        first.extend_from_slice(format!("data: {}\n\n", chunk(d, None)).as_bytes());
    }
    let server = MockServer::scripted(vec![Reply::Stream {
        pieces: vec![Piece::Bytes(first), Piece::StallForever],
    }])
    .await
    .unwrap();
    let c = client(server.base_url(), 3, Duration::from_millis(1500));
    let t0 = Instant::now();
    let mut seen = String::new();
    let err = c
        .stream_chat(
            &[ChatMessage::user("hi")],
            &[],
            &CancellationToken::new(),
            &mut |d| {
                if let jarvis_core::llm::StreamDelta::Content(t) = d {
                    seen.push_str(&t);
                }
            },
        )
        .await
        .unwrap_err();
    let took = t0.elapsed();
    assert_eq!(seen, "Hello", "both chunks arrived before the stall");
    assert!(matches!(err, LlmError::IdleTimeout { .. }), "{err:?}");
    assert!(
        took >= Duration::from_millis(1000) && took <= Duration::from_millis(2000),
        "failed after {took:?}"
    );
    assert_eq!(
        server.chat_requests().len(),
        1,
        "a stream that started is never retried"
    );
}

#[tokio::test]
async fn cancel_stops_a_request_in_flight() {
    let server = MockServer::scripted(vec![Reply::Stream {
        pieces: vec![Piece::StallForever],
    }])
    .await
    .unwrap();
    let c = client(server.base_url(), 3, Duration::from_secs(30));
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        trigger.cancel();
    });
    let t0 = Instant::now();
    let err = chat(&c, &cancel).await.unwrap_err();
    assert!(matches!(err, LlmError::Cancelled), "{err:?}");
    assert!(
        t0.elapsed() < Duration::from_millis(800),
        "{:?}",
        t0.elapsed()
    );
}

#[tokio::test]
async fn a_provider_error_mid_stream_is_reported_not_executed() {
    let raw = std::fs::read(
        jarvis_testkit::shared_dir().join("oracles/sse/error_midstream_data_error.sse"),
    )
    .unwrap();
    let server = MockServer::scripted(vec![Reply::raw_sse(raw)])
        .await
        .unwrap();
    let c = client(server.base_url(), 3, Duration::from_secs(5));
    let err = chat(&c, &CancellationToken::new()).await.unwrap_err();
    assert!(
        err.to_string()
            .contains("The server had an error while processing your request"),
        "{err}"
    );
}

#[tokio::test]
async fn models_lists_ids_and_context_length() {
    let server = MockServer::scripted(vec![]).await.unwrap();
    let c = client(server.base_url(), 0, Duration::from_secs(5));
    let m = c.models().await.unwrap();
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].id, "test-model");
    assert_eq!(m[0].context_length, Some(4096));
}
