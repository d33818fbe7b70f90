//! The task runner as a service: in the services leader it runs whatever is
//! queued, wakes when another process queues a task, and every tick marks
//! lost what a dead process left running.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use crate::services::{Service, ServiceContext};

/// How often the leader looks at the queue without being woken.
pub const TICK: Duration = Duration::from_secs(30);

pub struct TaskService;

impl TaskService {
    pub fn service() -> Arc<dyn Service> {
        Arc::new(TaskService)
    }
}

#[async_trait]
impl Service for TaskService {
    fn name(&self) -> &str {
        "tasks"
    }

    async fn run(&self, ctx: ServiceContext, stop: CancellationToken) {
        let brain = ctx.brain;
        #[cfg(unix)]
        let listener = match super::wake::Listener::bind(brain.home()) {
            Ok(l) => Some(l),
            Err(e) => {
                tracing::warn!(
                    "tasks: cannot listen for wake-ups ({e}); the queue is read every {TICK:?}"
                );
                None
            }
        };
        if let Err(e) = brain.sweep_tasks() {
            tracing::warn!("tasks: {e}");
        }
        brain.serve_tasks(true);
        loop {
            let woken = async {
                #[cfg(unix)]
                if let Some(l) = &listener {
                    return l.next().await;
                }
                std::future::pending::<()>().await
            };
            tokio::select! {
                _ = stop.cancelled() => break,
                _ = woken => brain.pump(),
                _ = tokio::time::sleep(TICK) => {
                    if let Err(e) = brain.sweep_tasks() {
                        tracing::warn!("tasks: {e}");
                    }
                    brain.pump();
                }
            }
        }
        brain.serve_tasks(false);
        brain.stop_running_tasks(Duration::from_secs(3)).await;
    }
}
