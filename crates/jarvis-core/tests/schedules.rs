//! The scheduler with its clock injected: a year of slots in milliseconds.
//! No slot runs twice (two hubs ticking at once), missed slots are
//! recorded skipped and never run late, local times follow daylight saving
//! (a time that does not exist is skipped, one that happens twice runs
//! once), and five failures in a row pause a schedule.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use common::{Setup, env};
use jarvis_core::policy::NoApprover;
use jarvis_core::schedule::ScheduleRequest;
use jarvis_protocol::{Event, Origin, TaskStatus, When};
use jarvis_testkit::{MockServer, Reply};
use jiff::Timestamp;

fn t(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn plus(at: Timestamp, secs: i64) -> Timestamp {
    Timestamp::from_second(at.as_second() + secs).unwrap()
}

fn request(instruction: &str, when: When, tz: &str) -> ScheduleRequest {
    ScheduleRequest {
        instruction: instruction.into(),
        when,
        tz: Some(tz.into()),
        allow: vec![],
        notify: Default::default(),
    }
}

async fn ok_model() -> MockServer {
    MockServer::with_handler(|_, _| Reply::text("Inbox: 3 new messages."))
        .await
        .unwrap()
}

/// Waits until no task is queued or running.
async fn settle(brain: &jarvis_core::Brain) {
    for _ in 0..500 {
        let busy = brain
            .tasks(10_000, 0)
            .unwrap()
            .iter()
            .any(|t| !t.status.is_final());
        if !busy {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("tasks did not finish");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slots_missed_while_closed_are_skipped_not_run_late() {
    let server = ok_model().await;
    let e = env(Setup::new(server.base_url(), Arc::new(NoApprover)));
    let made = t("2026-12-01T08:00:00Z");
    let s = e
        .brain
        .create_schedule_at(
            request("check the build", When::Every { minutes: 60 }, "UTC"),
            made,
        )
        .unwrap();
    assert_eq!(s.next_run, Some(t("2026-12-01T09:00:00Z").as_millisecond()));
    // Closed from before 09:00 until 11:10: slots 09:00, 10:00 and 11:00 passed.
    let now = t("2026-12-01T11:10:00Z");
    let r = e.brain.schedule_tick(now).unwrap();
    assert_eq!((r.started, r.skipped), (0, 3));
    let s = e.brain.schedule(&s.id).unwrap();
    assert!(
        s.next_run.unwrap() > now.as_millisecond(),
        "next run in the future"
    );
    assert_eq!(s.next_run, Some(t("2026-12-01T12:00:00Z").as_millisecond()));
    assert_eq!(s.runs.len(), 3);
    assert!(
        s.runs
            .iter()
            .all(|r| r.status == "skipped" && r.task_id.is_none())
    );
    assert!(
        s.runs[0]
            .reason
            .as_deref()
            .unwrap()
            .contains("not run late")
    );
    assert_eq!(e.brain.tasks(10, 0).unwrap().len(), 0);
    assert_eq!(server.chat_requests().len(), 0);
    // On time (within a tick), the next slot runs.
    let r = e
        .brain
        .schedule_tick(plus(t("2026-12-01T12:00:00Z"), 10))
        .unwrap();
    assert_eq!((r.started, r.skipped), (1, 0));
    settle(&e.brain).await;
    let tasks = e.brain.tasks(10, 0).unwrap();
    assert_eq!(tasks.len(), 1);
    assert_eq!(tasks[0].status, TaskStatus::Succeeded);
    assert_eq!(tasks[0].origin, Origin::Schedule);
    assert_eq!(tasks[0].schedule_id.as_deref(), Some(s.id.as_str()));
    assert_eq!(tasks[0].instruction, "check the build", "stored verbatim");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn daily_local_times_across_daylight_saving_run_once_or_are_skipped() {
    let server = ok_model().await;
    let e = env(Setup::new(server.base_url(), Arc::new(NoApprover)));
    // (zone, from, local time, runs in five days, skipped): Berlin springs
    // forward on 2026-03-29 02:00 and falls back on 2026-10-25 03:00; New
    // York on 2026-03-08 02:00 and 2026-11-01 02:00.
    let cases = [
        ("Europe/Berlin", "2026-03-27T00:00:00Z", "09:00", 5, 0),
        ("Europe/Berlin", "2026-10-23T00:00:00Z", "09:00", 5, 0),
        ("Europe/Berlin", "2026-03-27T00:00:00Z", "02:30", 4, 1),
        ("Europe/Berlin", "2026-10-23T00:00:00Z", "02:30", 5, 0),
        ("America/New_York", "2026-03-06T00:00:00Z", "09:00", 5, 0),
        ("America/New_York", "2026-10-30T00:00:00Z", "09:00", 5, 0),
        ("America/New_York", "2026-03-06T00:00:00Z", "02:30", 4, 1),
        ("America/New_York", "2026-10-30T00:00:00Z", "01:30", 5, 0),
    ];
    for (tz, from, time, runs_expected, skips_expected) in cases {
        let s = e
            .brain
            .create_schedule_at(
                request(
                    &format!("{tz} {time} {from}"),
                    When::Daily {
                        time: time.into(),
                        weekdays: vec![],
                    },
                    tz,
                ),
                t(from),
            )
            .unwrap();
        // Tick every 30 s of simulated time for five days, only at and
        // around each slot (no need to tick through idle hours).
        let mut started = 0;
        for _ in 0..6 {
            let Some(next) = e.brain.schedule(&s.id).unwrap().next_run else {
                break;
            };
            if next > plus(t(from), 5 * 86_400).as_millisecond() {
                break;
            }
            let at = Timestamp::from_millisecond(next).unwrap();
            for k in 0..4 {
                started += e.brain.schedule_tick(plus(at, k * 30)).unwrap().started;
            }
            // An hour later (the second 01:30 of a fall-back night): nothing.
            started += e.brain.schedule_tick(plus(at, 3600)).unwrap().started;
        }
        let runs = e.brain.schedule(&s.id).unwrap().runs;
        let ran: Vec<String> = runs
            .iter()
            .filter(|r| r.status != "skipped")
            .map(|r| jarvis_core::schedule::local(r.slot, tz))
            .collect();
        let skipped: Vec<&str> = runs
            .iter()
            .filter(|r| r.status == "skipped")
            .filter_map(|r| r.reason.as_deref())
            .collect();
        assert!(ran.iter().all(|l| l.contains(time)), "{tz} {time}: {ran:?}");
        // A time missing on the spring-forward day is skipped with the
        // reason; one that happens twice on the fall-back day runs once.
        assert_eq!(
            skipped.len(),
            skips_expected,
            "{tz} {time} {from}: {skipped:?}"
        );
        assert!(
            skipped.iter().all(|r| r.contains("did not exist")),
            "{skipped:?}"
        );
        assert_eq!(started, runs_expected, "{tz} {time} {from}: {ran:?}");
        assert_eq!(ran.len(), runs_expected);
        settle(&e.brain).await;
        e.brain.cancel_schedule(&s.id).unwrap();
    }
    settle(&e.brain).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hubs_ticking_at_once_never_run_a_slot_twice() {
    let server = ok_model().await;
    let a = env(Setup::new(server.base_url(), Arc::new(NoApprover)));
    // A second brain on the same home, as a second process would be.
    let b = jarvis_core::Brain::open(jarvis_core::BrainOptions {
        home: a.home.path().to_path_buf(),
        secrets: Arc::new(jarvis_core::secrets::MemorySecretStore::default()),
        approver: Arc::new(NoApprover),
        overrides: jarvis_core::Overrides {
            workdir: Some(a.work.path().to_path_buf()),
            ..Default::default()
        },
        registry: None,
        resolver: None,
        sandbox_helper: None,
    })
    .unwrap();
    let start = t("2026-12-01T08:00:00Z");
    let s = a
        .brain
        .create_schedule_at(request("ping", When::Every { minutes: 1 }, "UTC"), start)
        .unwrap();
    // 100 ticks of 30 s each, both hubs at the same moments.
    for i in 1..=100 {
        let now = plus(start, i * 30);
        let (ba, bb) = (a.brain.clone(), b.clone());
        let x = tokio::task::spawn_blocking(move || ba.schedule_tick(now).unwrap());
        let y = tokio::task::spawn_blocking(move || bb.schedule_tick(now).unwrap());
        let (x, y) = (x.await.unwrap(), y.await.unwrap());
        assert!(x.started + y.started <= 1, "tick {i}: {x:?} {y:?}");
    }
    settle(&a.brain).await;
    settle(&b).await;
    let runs = a.brain.schedule_runs(&s.id).unwrap();
    assert_eq!(runs.len(), 50, "one slot a minute for 50 minutes");
    let mut per_slot: HashMap<i64, usize> = HashMap::new();
    for r in &runs {
        *per_slot.entry(r.slot).or_default() += 1;
    }
    assert!(per_slot.values().all(|&n| n == 1));
    let tasks = a.brain.tasks(10_000, 0).unwrap();
    assert_eq!(tasks.len(), 50, "one task per slot");
    assert!(tasks.iter().all(|t| t.status == TaskStatus::Succeeded));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_failures_in_a_row_pause_a_schedule_and_say_so() {
    let server = MockServer::with_handler(|_, _| Reply::status(500, "{\"error\":\"down\"}"))
        .await
        .unwrap();
    let mut e = env(Setup::new(server.base_url(), Arc::new(NoApprover)));
    let start = t("2026-12-01T08:00:00Z");
    let s = e
        .brain
        .create_schedule_at(request("ping", When::Every { minutes: 1 }, "UTC"), start)
        .unwrap();
    for i in 1..=5 {
        e.brain.schedule_tick(plus(start, i * 60)).unwrap();
        settle(&e.brain).await;
    }
    // The run's outcome is booked on the schedule just after the task
    // itself is final: wait for the bookkeeping, not only the task.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !e.brain.schedule(&s.id).unwrap().paused && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let s = e.brain.schedule(&s.id).unwrap();
    assert!(s.paused, "{s:?}");
    assert_eq!(s.failures, 5);
    let said = e
        .wait_for(|ev| matches!(ev, Event::Announcement { text, .. } if text.contains("paused")))
        .await;
    let Event::Announcement { text, .. } = said else {
        unreachable!()
    };
    assert!(text.contains("failed 5 times in a row"), "{text}");
    // Paused: the next slot does not run.
    let r = e.brain.schedule_tick(plus(start, 6 * 60)).unwrap();
    assert_eq!(r.started, 0);
}
