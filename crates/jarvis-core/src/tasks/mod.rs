//! Background tasks: agent runs off the conversation, each in its own
//! session, unattended or pre-approved, queued in the store so any Jarvis
//! process can list, cancel or retry them. The services leader runs what is
//! queued; a process with no leader around runs its own.

pub(crate) mod process;
mod runner;
pub mod tools;
pub(crate) mod wake;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use jarvis_protocol::{Event, NotifyPolicy, Origin, TaskInfo, TaskStatus};
use tokio_util::sync::CancellationToken;

use crate::Brain;
use crate::agent::BrainError;
use crate::notify::Notifier;
use crate::policy::run::PRE_APPROVABLE;
use crate::store::{NewTask, Runner};

pub use runner::summary_of;

/// The first eight characters of an id: enough to tell tasks (and
/// schedules) apart when people read them.
pub fn short_id(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}

/// What to start.
#[derive(Debug, Clone, Default)]
pub struct TaskRequest {
    /// The user's words, stored verbatim.
    pub instruction: String,
    /// Where it was asked for (chat, voice, cli, schedule).
    pub origin: Origin,
    /// The conversation it was asked in: its chat line goes there.
    pub parent_session: Option<String>,
    /// A report to write from the final answer, on this topic.
    pub report_topic: Option<String>,
    /// What it may do without a question, approved by the user now.
    pub allow: Vec<String>,
    pub notify: NotifyPolicy,
    pub schedule_id: Option<String>,
    pub retry_of: Option<String>,
}

/// The task machinery of one process.
pub(crate) struct TaskHub {
    pub runner: Runner,
    /// Tasks this process runs now: their cancel switches.
    running: Mutex<HashMap<String, CancellationToken>>,
    /// Tasks this process queued and will run itself if no leader takes them.
    local: Mutex<HashSet<String>>,
    /// This process runs whatever is queued (it leads the services).
    serving: AtomicBool,
    notifier: RwLock<Option<Arc<dyn Notifier>>>,
    /// Announcements this process made itself: a follower does not say
    /// them again when it catches up.
    pub(crate) said_here: Mutex<HashSet<String>>,
}

impl TaskHub {
    pub fn new() -> Self {
        TaskHub {
            runner: process::this_runner(),
            running: Mutex::new(HashMap::new()),
            local: Mutex::new(HashSet::new()),
            serving: AtomicBool::new(false),
            notifier: RwLock::new(None),
            said_here: Mutex::new(HashSet::new()),
        }
    }

    pub fn notifier(&self) -> Option<Arc<dyn Notifier>> {
        self.notifier.read().ok().and_then(|n| n.clone())
    }

    fn running_ids(&self) -> Vec<String> {
        self.running
            .lock()
            .map(|r| r.keys().cloned().collect())
            .unwrap_or_default()
    }
}

pub(crate) fn check_allow(allow: &[String]) -> Result<(), BrainError> {
    match allow.iter().find(|k| !PRE_APPROVABLE.contains(&k.as_str())) {
        Some(bad) => Err(BrainError::InvalidRun(format!(
            "{bad:?} cannot be approved in advance; allowed: {}",
            PRE_APPROVABLE.join(", ")
        ))),
        None => Ok(()),
    }
}

impl Brain {
    /// Queues a task and returns at once; it runs in the services leader,
    /// or here when no leader is running.
    pub fn start_task(&self, req: TaskRequest) -> Result<TaskInfo, BrainError> {
        if req.instruction.trim().is_empty() {
            return Err(BrainError::InvalidRun("a task needs an instruction".into()));
        }
        check_allow(&req.allow)?;
        let id = uuid::Uuid::new_v4().to_string();
        let task = self.inner.store.insert_task(&NewTask {
            session_id: format!("task-{id}"),
            id,
            origin: req.origin,
            schedule_id: req.schedule_id,
            instruction: req.instruction,
            parent_session: req.parent_session,
            report_topic: req.report_topic,
            allow: req.allow,
            notify: req.notify,
            retry_of: req.retry_of,
        })?;
        self.task_changed(&task);
        let hub = &self.inner.tasks;
        if !hub.serving.load(Ordering::SeqCst) {
            if wake::poke(&self.inner.home) || self.leader_alive() {
                // The leader takes it (at once when woken, else at its tick).
            } else if let Ok(mut l) = hub.local.lock() {
                l.insert(task.id.clone());
            }
        }
        self.pump();
        Ok(task)
    }

    fn leader_alive(&self) -> bool {
        self.inner
            .store
            .lease_holder(crate::services::LEASE)
            .ok()
            .flatten()
            .is_some_and(|h| {
                h.expires_at > crate::store::now_ms() && process::name_alive(&h.holder)
            })
    }

    /// Newest first.
    pub fn tasks(&self, limit: usize, offset: usize) -> Result<Vec<TaskInfo>, BrainError> {
        Ok(self.inner.store.tasks(limit, offset)?)
    }

    /// A task by its id or a unique prefix of it (`tasks show 3f2a9c1e`).
    pub fn task(&self, id: &str) -> Result<TaskInfo, BrainError> {
        if let Some(t) = self.inner.store.task(id)? {
            return Ok(t);
        }
        let id = id.trim();
        if id.len() >= 4 {
            let hits = self.inner.store.task_ids_with_prefix(id)?;
            if let [only] = hits.as_slice()
                && let Some(t) = self.inner.store.task(only)?
            {
                return Ok(t);
            }
            if hits.len() > 1 {
                return Err(BrainError::Other(format!(
                    "{id:?} names {} tasks; give more of the id",
                    hits.len()
                )));
            }
        }
        Err(BrainError::Other(format!(
            "no task {id:?} (see `jarvis tasks list`)"
        )))
    }

    /// Cancels a queued task at once, or a running one in this process; one
    /// running in another process is asked to stop at its next heartbeat.
    pub fn cancel_task(&self, id: &str) -> Result<TaskInfo, BrainError> {
        let task = self.task(id)?;
        if task.status.is_final() {
            return Ok(task);
        }
        // Only while still queued: a runner that claimed it meanwhile
        // is asked to stop instead, below.
        if task.status == TaskStatus::Queued
            && let Some(t) = self
                .inner
                .store
                .cancel_queued_task(&task.id, "cancelled before it started")?
        {
            self.task_changed(&t);
            return Ok(t);
        }
        let here = self
            .inner
            .tasks
            .running
            .lock()
            .ok()
            .and_then(|r| r.get(&task.id).cloned());
        match here {
            Some(token) => token.cancel(),
            None => self.inner.store.request_task_cancel(&task.id)?,
        }
        self.task(&task.id)
    }

    /// Runs a `needs_approval` (or failed) task again as a new task, with
    /// `allow` added to what it may do without a question: the approval the
    /// first run missed, asked for by the host before calling this.
    pub fn retry_task(&self, id: &str, allow: Vec<String>) -> Result<TaskInfo, BrainError> {
        let old = self.task(id)?;
        if !old.status.is_final() {
            return Err(BrainError::Other(format!(
                "task {} is still {}; cancel it first",
                short_id(&old.id),
                old.status.as_str()
            )));
        }
        let mut kinds = old.allow.clone();
        for k in allow {
            if !kinds.contains(&k) {
                kinds.push(k);
            }
        }
        let topic = self.inner.store.task_report_topic(&old.id)?;
        self.start_task(TaskRequest {
            instruction: old.instruction,
            origin: old.origin,
            parent_session: old.parent_session,
            report_topic: topic,
            allow: kinds,
            notify: old.notify,
            schedule_id: old.schedule_id,
            retry_of: Some(old.id),
        })
    }

    /// Waits until the task has ended, however and wherever it runs.
    pub async fn wait_task(&self, id: &str) -> Result<TaskInfo, BrainError> {
        let mut sub = self.subscribe();
        loop {
            let t = self.task(id)?;
            if t.status.is_final() {
                return Ok(t);
            }
            // Events for tasks run here; the store for those run elsewhere.
            let _ = tokio::time::timeout(std::time::Duration::from_millis(500), sub.next()).await;
        }
    }

    /// Tasks this process runs, or queued to run itself: a CLI command that
    /// started one waits for them before it exits.
    pub fn tasks_here(&self) -> Vec<String> {
        let hub = &self.inner.tasks;
        let mut ids = hub.running_ids();
        if let Ok(l) = hub.local.lock() {
            ids.extend(l.iter().cloned());
        }
        ids
    }

    /// Cancels what [`Brain::tasks_here`] lists, and waits up to `grace`.
    pub async fn cancel_tasks_here(&self, grace: std::time::Duration) {
        let queued: Vec<String> = self
            .inner
            .tasks
            .local
            .lock()
            .map(|l| l.iter().cloned().collect())
            .unwrap_or_default();
        for id in queued {
            let _ = self.cancel_task(&id);
        }
        self.stop_running_tasks(grace).await;
    }

    /// Announcements and notifications of tasks that end in this process
    /// go to the host's notifier.
    pub fn set_notifier(&self, notifier: Arc<dyn Notifier>) {
        if let Ok(mut n) = self.inner.tasks.notifier.write() {
            *n = Some(notifier);
        }
    }

    /// This process runs every queued task (it leads the services).
    pub(crate) fn serve_tasks(&self, on: bool) {
        self.inner.tasks.serving.store(on, Ordering::SeqCst);
        if on {
            self.pump();
        }
    }

    /// Cancels the tasks this process runs (a clean stop) and waits for
    /// them to record it, up to `grace`.
    pub(crate) async fn stop_running_tasks(&self, grace: std::time::Duration) {
        let hub = &self.inner.tasks;
        let tokens: Vec<CancellationToken> = hub
            .running
            .lock()
            .map(|r| r.values().cloned().collect())
            .unwrap_or_default();
        for t in &tokens {
            t.cancel();
        }
        let until = tokio::time::Instant::now() + grace;
        while !hub.running_ids().is_empty() && tokio::time::Instant::now() < until {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    pub(crate) fn task_changed(&self, task: &TaskInfo) {
        self.inner.events.emit(
            task.parent_session.as_deref(),
            Event::TaskChanged { task: task.clone() },
        );
    }

    /// Marks lost what was running in a process that is gone; forgets
    /// finished tasks past `tasks.keep_days`.
    pub fn sweep_tasks(&self) -> Result<Vec<TaskInfo>, BrainError> {
        let stale = crate::store::now_ms() - runner::STALE_AFTER.as_millis() as i64;
        let lost = self.inner.store.sweep_lost_tasks(process::alive, stale)?;
        for t in &lost {
            self.task_changed(t);
            crate::announce::task_ended(self, t);
            crate::schedule::task_ended(self, t);
        }
        let keep = self.config().tasks.keep_days;
        if keep > 0 {
            let before = crate::store::now_ms() - i64::from(keep) * 86_400_000;
            self.inner.store.prune_tasks(before)?;
        }
        Ok(lost)
    }

    /// Starts what this process may run now, up to `tasks.max_parallel`.
    pub(crate) fn pump(&self) {
        let brain = self.clone();
        let Ok(handle) = tokio::runtime::Handle::try_current() else {
            return;
        };
        handle.spawn(async move { runner::pump(brain).await });
    }
}
