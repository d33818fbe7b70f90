//! Long-running services (the hub's scheduler, task runner and announcer;
//! later the pattern detector). A host starts them; they run only in the one
//! process that holds the services lease in the database, so the app and
//! `jarvis serve` never both run them; another process takes over when the
//! leader stops or its lease expires.

pub mod quiet;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::Brain;
use crate::notify::{Notifier, NotifyError};

/// The lease every service runs under.
pub const LEASE: &str = "services";

#[async_trait]
pub trait Service: Send + Sync {
    fn name(&self) -> &str;
    /// Runs until `stop` is cancelled, then returns promptly.
    async fn run(&self, ctx: ServiceContext, stop: CancellationToken);
}

/// What a service works with.
#[derive(Clone)]
pub struct ServiceContext {
    pub brain: Brain,
    /// The host's notifications, silent during do-not-disturb hours.
    pub notifier: Arc<dyn Notifier>,
    /// Whether this process still holds the lease, by the wall clock.
    pub lease: Arc<LeaseWatch>,
}

/// The lease as the leader last renewed it. A service checks it before
/// work that must not happen twice: after a suspend the wall clock may
/// have passed the expiry before the leader's next heartbeat notices.
#[derive(Debug, Default)]
pub struct LeaseWatch {
    leader: AtomicBool,
    valid_until_ms: std::sync::atomic::AtomicI64,
    /// Told when this process starts or stops leading.
    changed: tokio::sync::Notify,
}

impl LeaseWatch {
    /// Leading or not; a change is told (a permit is kept, so a waiter that
    /// was not waiting yet does not miss it).
    fn set(&self, leads: bool) {
        if self.leader.swap(leads, Ordering::SeqCst) != leads {
            self.changed.notify_one();
        }
    }

    pub fn still_leads(&self) -> bool {
        self.leader.load(Ordering::SeqCst)
            && crate::store::now_ms() < self.valid_until_ms.load(Ordering::SeqCst)
    }
}

/// How long a service may take to stop before it is aborted.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// How long a lease lasts without a heartbeat, and how often it is renewed.
#[derive(Debug, Clone, Copy)]
pub struct LeaseTiming {
    pub ttl: Duration,
    pub heartbeat: Duration,
    /// How often a follower looks for what the leader announced.
    pub follow: Duration,
}

impl Default for LeaseTiming {
    fn default() -> Self {
        // A killed leader gives way at once (its pid is gone); the expiry
        // is for one that hangs or sleeps. A slow heartbeat keeps an idle
        // hub's wake-ups down.
        LeaseTiming {
            ttl: Duration::from_secs(90),
            heartbeat: Duration::from_secs(30),
            follow: Duration::from_secs(5),
        }
    }
}

/// Notifications that respect `voice.do_not_disturb`, read at each one.
struct Quiet {
    brain: Brain,
    inner: Arc<dyn Notifier>,
}

impl Quiet {
    /// Whether to show anything now.
    fn may_show(&self, title: &str) -> bool {
        match quiet::quiet_now(&self.brain.config().voice.do_not_disturb) {
            Ok(true) => {
                tracing::info!("do not disturb: {title} not shown");
                false
            }
            Ok(false) => true,
            // A window we cannot read must not swallow everything.
            Err(why) => {
                tracing::warn!("{why}");
                true
            }
        }
    }
}

impl Notifier for Quiet {
    fn notify(&self, title: &str, body: &str) -> Result<(), NotifyError> {
        if self.may_show(title) {
            self.inner.notify(title, body)?;
        }
        Ok(())
    }
    fn notify_task(&self, title: &str, body: &str, task_id: &str) -> Result<(), NotifyError> {
        if self.may_show(title) {
            self.inner.notify_task(title, body, task_id)?;
        }
        Ok(())
    }
}

/// The running services of one process.
pub struct ServiceHost {
    stop: CancellationToken,
    leader: Arc<LeaseWatch>,
    task: JoinHandle<()>,
    pub holder: String,
}

impl ServiceHost {
    /// Whether this process holds the lease (and runs the services) now.
    pub fn is_leader(&self) -> bool {
        self.leader.leader.load(Ordering::SeqCst)
    }

    /// Stops the services, waits for them, and gives the lease up so
    /// another process can take over at once.
    pub async fn stop(self) {
        self.stop.cancel();
        if let Err(e) = self.task.await {
            tracing::warn!("services stopped badly: {e}");
        }
    }
}

impl ServiceHost {
    /// Stops everything without giving the lease up, as a killed process
    /// would: for tests of the takeover.
    #[doc(hidden)]
    pub fn crash_for_test(self) {
        self.task.abort();
        self.leader.set(false);
    }
}

struct Leading {
    stop: CancellationToken,
    tasks: Vec<JoinHandle<()>>,
}

impl Leading {
    async fn end(mut self) {
        self.stop.cancel();
        for mut t in std::mem::take(&mut self.tasks) {
            if tokio::time::timeout(STOP_GRACE, &mut t).await.is_err() {
                tracing::warn!("a service did not stop within {STOP_GRACE:?}; aborted");
                t.abort();
            }
        }
    }
}

impl Drop for Leading {
    /// The leader's task itself went away (aborted): its services go too.
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

impl Brain {
    /// Starts `services` under the lease; they run whenever this process leads.
    pub fn start_services(
        &self,
        services: Vec<Arc<dyn Service>>,
        notifier: Arc<dyn Notifier>,
        timing: LeaseTiming,
    ) -> ServiceHost {
        let holder = crate::tasks::process::this_runner().name;
        let stop = CancellationToken::new();
        let leader = Arc::new(LeaseWatch::default());
        let ctx = ServiceContext {
            brain: self.clone(),
            notifier: Arc::new(Quiet {
                brain: self.clone(),
                inner: notifier,
            }),
            lease: leader.clone(),
        };
        // A follower says what the leader announces (a task this app
        // started may run in `jarvis serve`).
        tokio::spawn(follow(
            self.clone(),
            leader.clone(),
            timing.follow,
            stop.clone(),
        ));
        let task = tokio::spawn(lead(
            ctx,
            services,
            timing,
            holder.clone(),
            stop.clone(),
            leader.clone(),
        ));
        ServiceHost {
            stop,
            leader,
            task,
            holder,
        }
    }
}

/// While this process follows, says what the leader announced, every
/// `every`, and notices a Stop everything made elsewhere within a second
/// (its speech stops even with no turn of its own running). While it leads
/// it sleeps until that changes (an idle leader does not wake for this);
/// what it said as leader was its own.
async fn follow(brain: Brain, leader: Arc<LeaseWatch>, every: Duration, stop: CancellationToken) {
    let last = |or: i64| brain.inner.store.last_announcement().unwrap_or(or);
    let mut seen = last(0);
    let tick = every.min(Duration::from_secs(1));
    let mut since = Duration::ZERO;
    loop {
        if leader.leader.load(Ordering::SeqCst) {
            tokio::select! {
                _ = stop.cancelled() => return,
                _ = leader.changed.notified() => {}
            }
            seen = last(seen);
            continue;
        }
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep(tick) => {}
        }
        if leader.leader.load(Ordering::SeqCst) {
            continue;
        }
        brain.notice_stop();
        since += tick;
        if since >= every {
            since = Duration::ZERO;
            seen = crate::announce::relay(&brain, seen);
        }
    }
}

async fn lead(
    ctx: ServiceContext,
    services: Vec<Arc<dyn Service>>,
    timing: LeaseTiming,
    holder: String,
    stop: CancellationToken,
    leader: Arc<LeaseWatch>,
) {
    let store = ctx.brain.store_handle();
    let ttl = timing.ttl.as_millis() as i64;
    let mut leading: Option<Leading> = None;
    loop {
        // Woken after the lease ran out by the wall clock (a suspend, a
        // stall): stop first, so two processes never run services at once.
        if leading.is_some() && !leader.still_leads() {
            tracing::warn!("{holder}'s lease expired before it was renewed");
            if let Some(l) = leading.take() {
                l.end().await;
            }
            leader.set(false);
        }
        let asked_at = crate::store::now_ms();
        let s = store.clone();
        let h = holder.clone();
        let held = tokio::task::spawn_blocking(move || s.try_lease(LEASE, &h, ttl))
            .await
            .map_err(|e| e.to_string())
            .and_then(|r| r.map_err(|e| e.to_string()));
        let held = match held {
            Ok(h) => h,
            Err(e) => {
                // Unsure whether we still lead: stop, rather than maybe run twice.
                tracing::warn!("services lease: {e}");
                false
            }
        };
        if held {
            // Marked held before any service starts, so one that checks at
            // once sees the lease it runs under.
            leader
                .valid_until_ms
                .store(asked_at + ttl, Ordering::SeqCst);
            leader.set(true);
        }
        match (held, leading.take()) {
            (true, None) => {
                tracing::info!("{holder} leads the services");
                let child = stop.child_token();
                let tasks = services
                    .iter()
                    .map(|svc| {
                        let (svc, ctx, child) = (svc.clone(), ctx.clone(), child.clone());
                        tokio::spawn(async move { svc.run(ctx, child).await })
                    })
                    .collect();
                leading = Some(Leading { stop: child, tasks });
            }
            (false, Some(l)) => {
                tracing::warn!("{holder} lost the services lease");
                l.end().await;
            }
            (_, l) => leading = l,
        }
        leader.set(leading.is_some());
        tokio::select! {
            _ = stop.cancelled() => break,
            _ = tokio::time::sleep(timing.heartbeat) => {}
        }
    }
    if let Some(l) = leading {
        l.end().await;
    }
    leader.set(false);
    let h = holder.clone();
    let released = tokio::task::spawn_blocking(move || store.release_lease(LEASE, &h)).await;
    if let Ok(Err(e)) = released {
        tracing::warn!("could not release the services lease: {e}");
    }
}
