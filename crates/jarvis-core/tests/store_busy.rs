//! A write that waits for another process's lock does not stall the async
//! runtime: other tasks keep running while it waits.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use jarvis_core::store::{AuditEntry, Store};

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn a_write_waiting_for_the_lock_leaves_the_runtime_running() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("jarvis.db");
    let store = Arc::new(Store::open(&path).unwrap());
    // Another process holds the write lock for 800 ms.
    let (held_tx, held_rx) = std::sync::mpsc::channel();
    let other = std::thread::spawn({
        let path = path.clone();
        move || {
            let conn = rusqlite::Connection::open(&path).unwrap();
            conn.execute_batch("BEGIN IMMEDIATE").unwrap();
            held_tx.send(()).unwrap();
            std::thread::sleep(Duration::from_millis(800));
            conn.execute_batch("COMMIT").unwrap();
        }
    });
    held_rx.recv().unwrap();
    let ticks = Arc::new(AtomicU32::new(0));
    let ticker = tokio::spawn({
        let ticks = ticks.clone();
        async move {
            loop {
                ticks.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    });
    tokio::task::yield_now().await;
    let before = ticks.load(Ordering::SeqCst);
    // On the runtime's one worker (as a turn's task would): the audit write
    // waits for the lock.
    let (row, waited) = tokio::spawn({
        let store = store.clone();
        async move {
            let t0 = Instant::now();
            let row = store
                .audit_begin(&AuditEntry {
                    call_id: "c",
                    session_id: None,
                    tool: "local_exec",
                    arguments: "{}",
                    verdict: "ask",
                    reason: "test",
                    decided_by: "policy",
                })
                .unwrap();
            (row, t0.elapsed())
        }
    })
    .await
    .unwrap();
    let during = ticks.load(Ordering::SeqCst) - before;
    other.join().unwrap();
    ticker.abort();
    assert!(row > 0);
    assert!(
        waited >= Duration::from_millis(500),
        "it did wait: {waited:?}"
    );
    assert!(
        during >= 20,
        "the runtime kept running while the write waited ({during} ticks in {waited:?})"
    );
}

#[test]
fn retention_deletes_what_is_old_and_leaves_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("jarvis.db");
    let store = Store::open(&path).unwrap();
    assert_eq!(store.prune(90, 30).unwrap(), 0, "nothing to delete");
    let entry = AuditEntry {
        call_id: "c",
        session_id: Some("s"),
        tool: "local_exec",
        arguments: "{}",
        verdict: "ask",
        reason: "test",
        decided_by: "policy",
    };
    store.audit_begin(&entry).unwrap();
    let old = store.audit_begin(&entry).unwrap();
    store.ensure_session("s", "kept").unwrap();
    store.ensure_session("gone", "old").unwrap();
    let day = 86_400_000i64;
    let now = jarvis_core::store::now_ms();
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute(
        "UPDATE audit SET at = ?1 WHERE id = ?2",
        rusqlite::params![now - 91 * day, old],
    )
    .unwrap();
    conn.execute(
        "UPDATE sessions SET updated_at = ?1 WHERE id = 'gone'",
        [now - 31 * day],
    )
    .unwrap();
    assert_eq!(store.prune(90, 30).unwrap(), 2);
    assert_eq!(store.audit(10, None).unwrap().len(), 1);
    let ids: Vec<String> = store
        .list_sessions()
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(ids, vec!["s".to_string()]);
    assert_eq!(store.prune(90, 30).unwrap(), 0);
}
