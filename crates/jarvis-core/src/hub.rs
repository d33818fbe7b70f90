//! The hub as one service in the services leader: it runs queued tasks
//! (woken at once when another process queues one), ticks the scheduler,
//! and marks lost what a dead process left running. One 30 s tick does
//! all of it, so an idle hub wakes rarely.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use jiff::Timestamp;
use tokio_util::sync::CancellationToken;

use crate::Brain;
use crate::services::{Service, ServiceContext};

/// How often the leader ticks.
pub const TICK: Duration = Duration::from_secs(30);

/// The time, injected so tests can run the scheduler through a year.
pub trait Clock: Send + Sync {
    fn now(&self) -> Timestamp;
}

pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}

pub struct HubService {
    clock: Arc<dyn Clock>,
    tick: Duration,
}

impl HubService {
    /// The real clock and the 30 s tick (`JARVIS_HUB_TICK_MS` sets a faster
    /// one, for tests and benchmarks).
    pub fn service() -> Arc<dyn Service> {
        let tick = std::env::var("JARVIS_HUB_TICK_MS")
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .filter(|&ms| ms > 0)
            .map(Duration::from_millis)
            .unwrap_or(TICK);
        Self::with(Arc::new(SystemClock), tick)
    }

    pub fn with(clock: Arc<dyn Clock>, tick: Duration) -> Arc<dyn Service> {
        Arc::new(HubService { clock, tick })
    }
}

/// One tick: what is due runs, what was missed is recorded. Slots since
/// the previous tick are on time (the first tick allows one tick's delay).
fn tick(brain: &Brain, now: Timestamp, previous: Option<Timestamp>) {
    let first = previous.is_none();
    if let Err(e) = brain.sweep_tasks() {
        tracing::warn!("tasks: {e}");
    }
    let on_time_from = previous
        .map(|p| p.as_millisecond() - 1_000)
        .unwrap_or(now.as_millisecond() - crate::schedule::LATE_MS);
    match brain.schedule_tick_since(now, on_time_from) {
        Ok(r) if first && r.skipped > 0 => crate::announce::note(
            brain,
            &format!("skipped-at-start:{}", now.as_millisecond()),
            format!(
                "While Jarvis was not running, {} scheduled run{} {} skipped; each runs again at its next time.",
                r.skipped,
                if r.skipped == 1 { "" } else { "s" },
                if r.skipped == 1 { "was" } else { "were" }
            ),
            jarvis_protocol::Priority::Normal,
        ),
        Ok(_) => {}
        Err(e) => tracing::warn!("schedules: {e}"),
    }
    crate::evolve::curator::maybe_curate(brain, now.as_millisecond());
    brain.pump();
}

#[async_trait]
impl Service for HubService {
    fn name(&self) -> &str {
        "hub"
    }

    async fn run(&self, ctx: ServiceContext, stop: CancellationToken) {
        let brain = ctx.brain;
        #[cfg(unix)]
        let listener = match crate::tasks::wake::Listener::bind(brain.home()) {
            Ok(l) => Some(l),
            Err(e) => {
                tracing::warn!(
                    "hub: cannot listen for wake-ups ({e}); the queue is read at each tick"
                );
                None
            }
        };
        brain.serve_tasks(true);
        // At once: a new leader runs what is due without waiting a tick.
        let mut previous = self.clock.now();
        tick(&brain, previous, None);
        // One timer for the whole run: wake-ups do not push the tick back.
        let mut ticks = tokio::time::interval(self.tick);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticks.tick().await;
        loop {
            let woken = async {
                #[cfg(unix)]
                if let Some(l) = &listener {
                    return l.next().await;
                }
                std::future::pending::<std::io::Result<()>>().await
            };
            tokio::select! {
                _ = stop.cancelled() => break,
                w = woken => match w {
                    Ok(()) => {
                        brain.notice_stop();
                        brain.pump();
                    }
                    // A listener that keeps failing must not spin.
                    Err(e) => {
                        tracing::warn!("hub: wake-up socket: {e}");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                },
                _ = ticks.tick() => {
                    if ctx.lease.still_leads() {
                        // A stop whose wake-up was missed.
                        brain.notice_stop();
                        let now = self.clock.now();
                        tick(&brain, now, Some(previous));
                        previous = now;
                    }
                }
            }
        }
        // No more wake-ups accepted: what is queued now waits for the next leader.
        #[cfg(unix)]
        drop(listener);
        brain.serve_tasks(false);
        brain.stop_running_tasks(Duration::from_secs(3)).await;
    }
}
