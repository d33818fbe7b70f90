//! The daily budget against a scripted server: every request is booked
//! (estimated when the server reports no usage), a chat turn warns at 80 %
//! and stops at 100 % without a request, a task over the cap is refused
//! before any model call and said once, and the day resets at local
//! midnight (the clock injected).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::{Arc, Mutex};

use common::{Setup, env};
use jarvis_core::hub::Clock;
use jarvis_core::policy::NoApprover;
use jarvis_core::tasks::TaskRequest;
use jarvis_protocol::{Event, Origin, StopReason, TaskStatus};
use jarvis_testkit::{MockServer, Piece, Reply, chunk, frame};
use jiff::Timestamp;
use serde_json::json;

struct TestClock(Mutex<Timestamp>);

impl Clock for TestClock {
    fn now(&self) -> Timestamp {
        *self.0.lock().unwrap()
    }
}

/// A local wall-clock time today-ish, as an instant in this machine's zone.
fn local(y: i16, m: i8, d: i8, h: i8, min: i8) -> Timestamp {
    jiff::civil::date(y, m, d)
        .at(h, min, 0, 0)
        .to_zoned_datetime(jiff::tz::TimeZone::system())
        .unwrap()
        .timestamp()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_cap_warns_stops_refuses_tasks_and_resets_at_midnight() {
    // Each reply reports 20 + 10 tokens.
    let server = MockServer::with_handler(|_, _| Reply::text("fine"))
        .await
        .unwrap();
    let mut e = env(Setup {
        config: &[("budget.daily_tokens", "70")],
        ..Setup::new(server.base_url(), Arc::new(NoApprover))
    });
    let clock = Arc::new(TestClock(Mutex::new(local(2026, 12, 1, 23, 50))));
    e.brain.set_clock(clock.clone());
    for _ in 0..2 {
        e.ask("s", "hello");
        assert_eq!(
            common::stop_of(&e.until_finished("s").await),
            StopReason::Completed
        );
    }
    let b = e.brain.budget().unwrap();
    assert_eq!((b.tokens, b.requests, b.estimated_tokens), (60, 2, 0));
    assert_eq!(b.by_origin, vec![("chat".to_string(), 60)]);
    // 60 of 70: the turn is warned, and goes out.
    e.ask("s", "and again");
    let events = e.until_finished("s").await;
    assert!(
        events
            .iter()
            .any(|ev| matches!(ev, Event::Notice { message } if message.contains("86 % of today's budget"))),
        "{events:?}"
    );
    assert_eq!(server.chat_requests().len(), 3);
    // 90 of 70: the next turn stops before any request.
    e.ask("s", "one more");
    let events = e.until_finished("s").await;
    assert_eq!(common::stop_of(&events), StopReason::Failed);
    assert!(events.iter().any(
        |ev| matches!(ev, Event::Error { message, .. } if message.contains("today's budget is used up"))
    ));
    assert_eq!(server.chat_requests().len(), 3, "no request went out");
    // A task is refused before any model call, and said once.
    let t = e
        .brain
        .start_task(TaskRequest {
            instruction: "summarise the inbox".into(),
            origin: Origin::Cli,
            ..Default::default()
        })
        .unwrap();
    let done = e.brain.wait_task(&t.id).await.unwrap();
    assert_eq!(done.status, TaskStatus::Refused);
    assert!(done.reason.unwrap().contains("budget.daily_tokens"));
    assert_eq!(server.chat_requests().len(), 3);
    let said = e
        .wait_for(|ev| matches!(ev, Event::Announcement { .. }))
        .await;
    let Event::Announcement { text, .. } = said else {
        unreachable!()
    };
    assert!(
        text.contains("was not run: today's budget is used up"),
        "{text}"
    );
    // Past local midnight the day starts again.
    *clock.0.lock().unwrap() = local(2026, 12, 2, 0, 1);
    assert_eq!(e.brain.budget().unwrap().tokens, 0);
    let t = e
        .brain
        .start_task(TaskRequest {
            instruction: "summarise the inbox".into(),
            origin: Origin::Cli,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(
        e.brain.wait_task(&t.id).await.unwrap().status,
        TaskStatus::Succeeded
    );
    let b = e.brain.budget().unwrap();
    assert_eq!(b.day, "2026-12-02");
    assert_eq!(b.by_origin, vec![("task".to_string(), 30)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_reports_no_usage_is_estimated_and_priced() {
    // A stream with no usage chunk.
    let server = MockServer::with_handler(|_, _| {
        let events = vec![
            chunk(
                json!({"role": "assistant", "content": "a reply of some words"}),
                None,
            ),
            chunk(json!({}), Some("stop")),
        ];
        Reply::Stream {
            pieces: vec![Piece::Bytes(frame(&events))],
        }
    })
    .await
    .unwrap();
    let mut e = env(Setup {
        config: &[(
            "budget.prices",
            r#"{"test-model": {"prompt_per_mtok": 1000000, "completion_per_mtok": 2000000}}"#,
        )],
        ..Setup::new(server.base_url(), Arc::new(NoApprover))
    });
    e.ask("s", "hello there");
    e.until_finished("s").await;
    let b = e.brain.budget().unwrap();
    assert_eq!(b.requests, 1);
    assert!(b.tokens > 0 && b.estimated_tokens == b.tokens, "{b:?}");
    // $1 per prompt token and $2 per completion token, by the price table.
    let expected = b.prompt_tokens as f64 + 2.0 * b.completion_tokens as f64;
    assert!((b.cost_usd - expected).abs() < 1e-6, "{b:?}");
}
