//! Stop everything against a model server that never finishes: a running
//! chat turn and a running task are cancelled (the task even when the stop
//! comes from another process of the same home), schedules are held (their
//! slots pass, recorded skipped) until resumed, and hosts hear of it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Setup, env};
use jarvis_core::policy::NoApprover;
use jarvis_core::schedule::ScheduleRequest;
use jarvis_core::tasks::TaskRequest;
use jarvis_protocol::{Event, Op, Origin, TaskStatus, When};
use jarvis_testkit::{MockServer, Piece, Reply};
use jiff::Timestamp;

/// A model that starts its answer and then says nothing more, for as long
/// as the client waits.
async fn stalling() -> MockServer {
    MockServer::with_handler(|_, _| Reply::Stream {
        pieces: vec![
            Piece::Bytes(
                b"data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Working on it\"},\"finish_reason\":null}]}\n\n"
                    .to_vec(),
            ),
            Piece::StallForever,
        ],
    })
    .await
    .unwrap()
}

async fn next_matching(
    sub: &mut jarvis_core::events::Subscription,
    f: impl Fn(&Event) -> bool,
) -> Event {
    loop {
        let ev = tokio::time::timeout(Duration::from_secs(30), sub.recv())
            .await
            .expect("no such event in 30 s")
            .expect("event stream closed");
        if f(&ev.event) {
            return ev.event;
        }
    }
}

async fn until_running(brain: &jarvis_core::Brain, id: &str) {
    for _ in 0..500 {
        if brain.task(id).unwrap().status == TaskStatus::Running {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the task never started");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_everything_cancels_turns_and_tasks_and_holds_schedules_until_resumed() {
    let server = stalling().await;
    let mut e = env(Setup::new(server.base_url(), Arc::new(NoApprover)));
    e.ask("chat", "summarise the project");
    e.wait_for(|ev| matches!(ev, Event::ContentDelta { .. }))
        .await;
    let task = e
        .brain
        .start_task(TaskRequest {
            instruction: "write the weekly report".into(),
            origin: Origin::Cli,
            ..Default::default()
        })
        .unwrap();
    until_running(&e.brain, &task.id).await;
    let made = Timestamp::now();
    let sched = e
        .brain
        .create_schedule_at(
            ScheduleRequest {
                instruction: "check the inbox".into(),
                when: When::Every { minutes: 1 },
                tz: Some("UTC".into()),
                allow: vec![],
                notify: Default::default(),
            },
            made,
        )
        .unwrap();

    let mut heard = e.brain.subscribe();
    let asked = Instant::now();
    e.brain
        .submit(Op::StopEverything {
            by: "the test".into(),
        })
        .unwrap();
    let stopped = next_matching(&mut heard, |ev| matches!(ev, Event::Stopped { .. })).await;
    assert_eq!(
        stopped,
        Event::Stopped {
            by: "the test".into(),
            turns: 1,
            tasks: 1
        }
    );
    e.until_finished("chat").await;
    let done = e.brain.wait_task(&task.id).await.unwrap();
    assert_eq!(done.status, TaskStatus::Cancelled, "{done:?}");
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "stopped in {:?}",
        asked.elapsed()
    );
    assert_eq!(
        e.brain.stop_hold().unwrap().map(|h| h.1),
        Some("the test".into())
    );

    // Held: the next slot passes, recorded skipped with the reason.
    let slot = e.brain.schedule(&sched.id).unwrap().next_run.unwrap();
    let at = Timestamp::from_millisecond(slot + 1_000).unwrap();
    let r = e.brain.schedule_tick(at).unwrap();
    assert_eq!((r.started, r.skipped), (0, 1));
    let runs = e.brain.schedule(&sched.id).unwrap().runs;
    assert!(
        runs[0]
            .reason
            .as_deref()
            .unwrap()
            .contains("held by Stop everything (the test"),
        "{runs:?}"
    );

    // Resumed: the slot after runs.
    e.brain.submit(Op::ResumeEverything).unwrap();
    next_matching(&mut heard, |ev| matches!(ev, Event::Resumed)).await;
    assert_eq!(e.brain.stop_hold().unwrap(), None);
    let next = e.brain.schedule(&sched.id).unwrap().next_run.unwrap();
    let r = e
        .brain
        .schedule_tick(Timestamp::from_millisecond(next + 1_000).unwrap())
        .unwrap();
    assert_eq!(r.started, 1);
    // A second resume has nothing to lift.
    assert!(!e.brain.resume_everything().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_from_another_process_cancels_the_turn_running_here() {
    let server = stalling().await;
    let mut e = env(Setup::new(server.base_url(), Arc::new(NoApprover)));
    e.ask("chat", "summarise the project");
    e.wait_for(|ev| matches!(ev, Event::ContentDelta { .. }))
        .await;
    // Another brain on the same home: `jarvis stop` in a terminal.
    let other = jarvis_core::Brain::open(jarvis_core::BrainOptions {
        home: e.home.path().to_path_buf(),
        secrets: Arc::new(jarvis_core::secrets::MemorySecretStore::default()),
        approver: Arc::new(NoApprover),
        overrides: jarvis_core::Overrides {
            workdir: Some(e.work.path().to_path_buf()),
            ..Default::default()
        },
        registry: None,
        resolver: None,
        sandbox_helper: None,
    })
    .unwrap();
    let mut heard = e.brain.subscribe();
    let asked = Instant::now();
    let report = other.stop_everything("jarvis stop").unwrap();
    assert_eq!(report.turns, 0, "the other process runs no turn");
    e.until_finished("chat").await;
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "the turn here saw the stop in {:?}",
        asked.elapsed()
    );
    // The leader is told (speech stops there too); once only.
    assert!(e.brain.notice_stop());
    next_matching(
        &mut heard,
        |ev| matches!(ev, Event::Stopped { by, .. } if by == "jarvis stop"),
    )
    .await;
    assert!(!e.brain.notice_stop());
}
