//! Services run in exactly one process: the one holding the lease in the
//! database. A clean stop hands over at once; a crashed leader's lease
//! expires and another process takes over.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use jarvis_core::notify::RecordingNotifier;
use jarvis_core::policy::NoApprover;
use jarvis_core::secrets::MemorySecretStore;
use jarvis_core::services::{LeaseTiming, Service, ServiceContext, ServiceHost};
use jarvis_core::{Brain, BrainOptions, Overrides};
use tokio_util::sync::CancellationToken;

struct Ticker {
    ticks: Arc<AtomicU32>,
    /// Ticks while the lease, by the wall clock, was not this process's.
    outside: Arc<AtomicU32>,
}

#[async_trait]
impl Service for Ticker {
    fn name(&self) -> &str {
        "ticker"
    }
    async fn run(&self, ctx: ServiceContext, stop: CancellationToken) {
        loop {
            self.ticks.fetch_add(1, Ordering::SeqCst);
            if !ctx.lease.still_leads() {
                self.outside.fetch_add(1, Ordering::SeqCst);
            }
            tokio::select! {
                _ = stop.cancelled() => return,
                _ = tokio::time::sleep(Duration::from_millis(20)) => {}
            }
        }
    }
}

fn brain(home: &std::path::Path) -> Brain {
    Brain::open(BrainOptions {
        home: home.to_path_buf(),
        secrets: Arc::new(MemorySecretStore::default()),
        approver: Arc::new(NoApprover),
        overrides: Overrides::default(),
        registry: None,
        resolver: None,
        sandbox_helper: None,
    })
    .unwrap()
}

static OUTSIDE: std::sync::LazyLock<Arc<AtomicU32>> =
    std::sync::LazyLock::new(|| Arc::new(AtomicU32::new(0)));

const FAST: LeaseTiming = LeaseTiming {
    ttl: Duration::from_millis(800),
    heartbeat: Duration::from_millis(100),
    follow: Duration::from_millis(100),
};

async fn until(what: &str, f: impl Fn() -> bool) {
    for _ in 0..100 {
        if f() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{what} did not happen within 5 s");
}

/// Starts a ticking service under the lease; returns its host and its count.
fn ticking(brain: &Brain) -> (ServiceHost, Arc<AtomicU32>) {
    let ticks = Arc::new(AtomicU32::new(0));
    let host = brain.start_services(
        vec![Arc::new(Ticker {
            ticks: ticks.clone(),
            outside: OUTSIDE.clone(),
        })],
        Arc::new(RecordingNotifier::default()),
        FAST,
    );
    (host, ticks)
}

#[tokio::test]
async fn one_leader_runs_the_services_and_hands_over() {
    let home = tempfile::tempdir().unwrap();
    // Two brains on one home: two connections competing exactly as two
    // processes do (the lease is a row in the shared database).
    let (a, b) = (brain(home.path()), brain(home.path()));
    let (ha, ta) = ticking(&a);
    until("a leads", || ha.is_leader()).await;
    let (hb, tb) = ticking(&b);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(ha.is_leader() && !hb.is_leader());
    assert!(ta.load(Ordering::SeqCst) > 0);
    assert_eq!(tb.load(Ordering::SeqCst), 0, "the follower ran nothing");
    // A clean stop gives the lease up: the other leads within a heartbeat or two.
    ha.stop().await;
    let stopped_at = ta.load(Ordering::SeqCst);
    until("b leads", || hb.is_leader()).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(tb.load(Ordering::SeqCst) > 0);
    assert_eq!(
        ta.load(Ordering::SeqCst),
        stopped_at,
        "a's services stopped"
    );
    hb.stop().await;
}

#[tokio::test]
async fn a_crashed_leaders_lease_expires_and_is_taken_over() {
    let home = tempfile::tempdir().unwrap();
    let (a, b) = (brain(home.path()), brain(home.path()));
    let (ha, ta) = ticking(&a);
    until("a leads", || ha.is_leader()).await;
    let (hb, tb) = ticking(&b);
    // As kill -9 would: no release, no more heartbeats.
    ha.crash_for_test();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let crashed_at = ta.load(Ordering::SeqCst);
    assert!(!hb.is_leader(), "the lease has not expired yet");
    assert_eq!(tb.load(Ordering::SeqCst), 0);
    until("b takes over", || hb.is_leader()).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(tb.load(Ordering::SeqCst) > 0, "b runs the services now");
    assert_eq!(
        ta.load(Ordering::SeqCst),
        crashed_at,
        "nothing of a runs on"
    );
    hb.stop().await;
}
