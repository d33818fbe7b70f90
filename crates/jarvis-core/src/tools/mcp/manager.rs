//! Keeps the configured MCP servers running. Servers start in the
//! background: a turn never waits for a slow server beyond a short grace,
//! a server still starting offers the tools it had at its last successful
//! start (a call waits for it), and a failed server is retried with
//! backoff, not before every turn.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::Notify;

use super::{Client, Confinement, McpTool, Running, start, tool_name};
use crate::config::McpServerConfig;

/// What the registry reads synchronously.
#[derive(Default)]
struct Snapshot {
    tools: Vec<Arc<McpTool>>,
    /// Servers that are not usable now, with the reason.
    failures: Vec<(String, String)>,
}

enum Phase {
    Starting,
    Running(Running),
    Failed {
        why: String,
        attempts: u32,
        retry_at: Instant,
    },
}

struct Entry {
    config: McpServerConfig,
    phase: Phase,
    /// The tools of its last successful start with this configuration.
    remembered: Vec<rmcp::model::Tool>,
}

#[derive(Default)]
struct State {
    servers: Mutex<HashMap<String, Entry>>,
    snapshot: RwLock<Snapshot>,
    /// Woken whenever a start ends.
    settled: Notify,
    cache_dir: Mutex<Option<PathBuf>>,
    /// Servers were asked for in this process (a turn, the app's start):
    /// only then does a settings change start them (`jarvis config set`
    /// must not spawn servers on its way out).
    active: std::sync::atomic::AtomicBool,
}

#[derive(Default, Clone)]
pub struct McpManager {
    state: Arc<State>,
}

/// What a tool keeps of its manager: not a strong reference, since the
/// manager's snapshot holds the tools (a cycle would keep every server
/// process alive after the brain is gone).
#[derive(Clone, Default)]
pub struct WeakManager(std::sync::Weak<State>);

impl WeakManager {
    pub fn upgrade(&self) -> Option<McpManager> {
        self.0.upgrade().map(|state| McpManager { state })
    }
}

/// The first retry of a failed server after this long, doubling to `MAX_BACKOFF`.
const FIRST_BACKOFF: Duration = Duration::from_secs(5);
const MAX_BACKOFF: Duration = Duration::from_secs(300);

fn backoff(attempts: u32) -> Duration {
    FIRST_BACKOFF
        .saturating_mul(1u32 << attempts.saturating_sub(1).min(8))
        .min(MAX_BACKOFF)
}

/// A server's tool list as last seen, on disk so the next process has it.
#[derive(Serialize, Deserialize)]
struct Remembered {
    config: McpServerConfig,
    tools: Vec<rmcp::model::Tool>,
}

fn cache_file(dir: &Path, server: &str) -> PathBuf {
    dir.join(format!("{}.json", tool_name(server, "tools")))
}

fn recall(dir: Option<&Path>, server: &str, cfg: &McpServerConfig) -> Vec<rmcp::model::Tool> {
    let Some(dir) = dir else { return vec![] };
    std::fs::read(cache_file(dir, server))
        .ok()
        .and_then(|b| serde_json::from_slice::<Remembered>(&b).ok())
        .filter(|r| r.config == *cfg)
        .map(|r| r.tools)
        .unwrap_or_default()
}

fn remember(dir: &Path, server: &str, cfg: &McpServerConfig, tools: &[rmcp::model::Tool]) {
    let body = Remembered {
        config: cfg.clone(),
        tools: tools.to_vec(),
    };
    let written = std::fs::create_dir_all(dir).and_then(|_| {
        let json = serde_json::to_vec(&body).map_err(std::io::Error::other)?;
        crate::config::atomic_write(&cache_file(dir, server), &json)
    });
    if let Err(e) = written {
        tracing::warn!("could not remember the tools of {server}: {e}");
    }
}

impl McpManager {
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts in the background what is configured and neither running nor
    /// waiting out a backoff, stops what was removed or changed, then waits
    /// at most `grace` for servers still starting.
    pub async fn ensure(
        &self,
        servers: &BTreeMap<String, McpServerConfig>,
        jail: &Confinement,
        grace: Duration,
    ) {
        self.kick(servers, jail);
        self.wait_until(Instant::now() + grace, |all| {
            !all.values().any(|e| matches!(e.phase, Phase::Starting))
        })
        .await;
    }

    /// Like `ensure`, waiting as long as the slowest server may take to start.
    pub async fn settle(&self, servers: &BTreeMap<String, McpServerConfig>, jail: &Confinement) {
        let longest = servers
            .values()
            .map(|c| c.startup_timeout_sec.max(1))
            .max()
            .unwrap_or(0);
        self.ensure(servers, jail, Duration::from_secs(longest + 1))
            .await;
    }

    /// Waits until `done` holds for the servers, or the deadline.
    async fn wait_until(&self, deadline: Instant, done: impl Fn(&HashMap<String, Entry>) -> bool) {
        loop {
            let notified = self.state.settled.notified();
            let mut notified = std::pin::pin!(notified);
            // Registered before looking, so a start that ends in between wakes us.
            notified.as_mut().enable();
            if self.state.servers.lock().map(|a| done(&a)).unwrap_or(true) {
                return;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || tokio::time::timeout(left, notified).await.is_err() {
                return;
            }
        }
    }

    /// The running client of a server, waiting for one that is starting.
    pub(super) async fn client_for(&self, server: &str) -> Result<Arc<Client>, String> {
        let limit = self
            .state
            .servers
            .lock()
            .ok()
            .and_then(|a| a.get(server).map(|e| e.config.startup_timeout_sec.max(1)))
            .unwrap_or(1);
        self.wait_until(Instant::now() + Duration::from_secs(limit + 1), |all| {
            !matches!(all.get(server).map(|e| &e.phase), Some(Phase::Starting))
        })
        .await;
        let all = self.state.servers.lock().map_err(|e| e.to_string())?;
        match all.get(server).map(|e| &e.phase) {
            Some(Phase::Running(r)) => Ok(r.client.clone()),
            Some(Phase::Failed { why, .. }) => Err(format!("the MCP server {server}: {why}")),
            Some(Phase::Starting) => Err(format!("the MCP server {server} is still starting")),
            None => Err(format!("the MCP server {server} is no longer configured")),
        }
    }

    /// `kick`, if servers were already in use in this process.
    pub fn kick_if_active(&self, servers: &BTreeMap<String, McpServerConfig>, jail: &Confinement) {
        if self.state.active.load(std::sync::atomic::Ordering::SeqCst) {
            self.kick(servers, jail);
        }
    }

    /// Starts what is due in the background; never waits.
    pub fn kick(&self, servers: &BTreeMap<String, McpServerConfig>, jail: &Confinement) {
        self.state
            .active
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let cache_dir = jail.jarvis_home.join("cache/mcp-tools");
        if let Ok(mut d) = self.state.cache_dir.lock() {
            *d = Some(cache_dir.clone());
        }
        let Ok(mut all) = self.state.servers.lock() else {
            return;
        };
        all.retain(|name, e| servers.get(name) == Some(&e.config));
        let now = Instant::now();
        for (name, cfg) in servers {
            let (attempts, remembered) = match all.get(name) {
                None => (0, recall(Some(&cache_dir), name, cfg)),
                Some(Entry {
                    phase:
                        Phase::Failed {
                            attempts, retry_at, ..
                        },
                    remembered,
                    ..
                }) if *retry_at <= now => (*attempts, remembered.clone()),
                Some(_) => continue,
            };
            all.insert(
                name.clone(),
                Entry {
                    config: cfg.clone(),
                    phase: Phase::Starting,
                    remembered,
                },
            );
            let (me, name, cfg, jail) = (self.clone(), name.clone(), cfg.clone(), jail.clone());
            tokio::spawn(async move {
                // A start that panics is a failed start, not one for ever "starting".
                let (n, c, j) = (name.clone(), cfg.clone(), jail.clone());
                let result = match tokio::spawn(async move { start(&n, &c, &j).await }).await {
                    Ok(r) => r,
                    Err(e) => Err(format!("its start failed: {e}")),
                };
                me.started(&name, &cfg, result, attempts);
            });
        }
        drop(all);
        self.rebuild();
    }

    fn started(
        &self,
        name: &str,
        cfg: &McpServerConfig,
        result: Result<Running, String>,
        attempts: u32,
    ) {
        let mut learned = None;
        if let Ok(mut all) = self.state.servers.lock()
            && let Some(e) = all.get_mut(name)
            && e.config == *cfg
            && matches!(e.phase, Phase::Starting)
        {
            e.phase = match result {
                Ok(r) => {
                    if r.tools != e.remembered {
                        e.remembered = r.tools.clone();
                        learned = Some(r.tools.clone());
                    }
                    Phase::Running(r)
                }
                Err(why) => {
                    tracing::warn!("MCP server {name}: {why}");
                    Phase::Failed {
                        why,
                        attempts: attempts + 1,
                        retry_at: Instant::now() + backoff(attempts + 1),
                    }
                }
            };
        }
        let dir = self.state.cache_dir.lock().ok().and_then(|d| d.clone());
        if let (Some(tools), Some(dir)) = (learned, dir) {
            remember(&dir, name, cfg, &tools);
        }
        self.rebuild();
        self.state.settled.notify_waiters();
    }

    fn tools_of(&self, server: &str, e: &Entry, client: Option<Arc<Client>>) -> Vec<Arc<McpTool>> {
        let listed = match &e.phase {
            Phase::Running(r) => &r.tools,
            _ => &e.remembered,
        };
        listed
            .iter()
            .map(|t| {
                Arc::new(McpTool {
                    name: tool_name(server, &t.name),
                    server: server.to_string(),
                    tool: t.name.to_string(),
                    description: t.description.as_deref().unwrap_or("").to_string(),
                    schema: Value::Object((*t.input_schema).clone()),
                    trusted: e.config.trusted,
                    timeout: Duration::from_secs(e.config.call_timeout_sec.max(1)),
                    client: client.clone(),
                    manager: WeakManager(Arc::downgrade(&self.state)),
                })
            })
            .collect()
    }

    /// Rebuilds what the registry reads from the servers' phases.
    fn rebuild(&self) {
        let Ok(all) = self.state.servers.lock() else {
            return;
        };
        let mut tools = Vec::new();
        let mut failures = Vec::new();
        for (server, e) in all.iter() {
            match &e.phase {
                Phase::Running(r) => tools.extend(self.tools_of(server, e, Some(r.client.clone()))),
                Phase::Starting if !e.remembered.is_empty() => {
                    tools.extend(self.tools_of(server, e, None))
                }
                Phase::Starting => failures.push((
                    server.clone(),
                    "it is still starting; its tools will be offered once it answers".into(),
                )),
                Phase::Failed { why, retry_at, .. } => failures.push((
                    server.clone(),
                    format!(
                        "{why} (tried again in {} s)",
                        retry_at.saturating_duration_since(Instant::now()).as_secs()
                    ),
                )),
            }
        }
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        failures.sort();
        if let Ok(mut s) = self.state.snapshot.write() {
            *s = Snapshot { tools, failures };
        }
    }

    pub fn tools(&self) -> Vec<Arc<McpTool>> {
        self.state
            .snapshot
            .read()
            .map(|s| s.tools.clone())
            .unwrap_or_default()
    }

    /// Servers that are not usable now, with the reason.
    pub fn failures(&self) -> Vec<(String, String)> {
        self.state
            .snapshot
            .read()
            .map(|s| s.failures.clone())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_and_are_capped() {
        assert_eq!(backoff(1), Duration::from_secs(5));
        assert_eq!(backoff(2), Duration::from_secs(10));
        assert_eq!(backoff(4), Duration::from_secs(40));
        assert_eq!(backoff(30), MAX_BACKOFF);
    }
}
