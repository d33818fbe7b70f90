//! The brain: hosts send [`Op`]s and subscribe to events; nothing else.

mod admin;
mod compact;
pub use admin::MAX_AUDIT_PAGE;
pub mod context;
mod mention;
mod prompt;
mod repeats;
pub(crate) mod runs;
mod spend;
mod stop;
mod turn;
pub mod workdir;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use jarvis_protocol::{Event, HostEvent, Op, Origin, RunSpec, Snapshot, ToolStatus};
use thiserror::Error;
use tokio_util::sync::CancellationToken;

use crate::config::{Config, ConfigError, ConfigStore};
use crate::events::EventSink;
use crate::llm::{LlmClient, LlmError, LlmSettings};
use crate::policy::{Approver, CallOutcome, Gate, Policy, PolicySettings};
use crate::secrets::{API_KEY, SecretStore};
use crate::store::{SessionInfo, Store, StoreError, StoredMessage};
use crate::tools::net::{Resolver, SystemResolver};
use crate::tools::{ExecSandbox, ToolContext, ToolRegistry};

#[derive(Debug, Error)]
pub enum BrainError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error("working directory {path}: {reason}")]
    Workdir { path: String, reason: String },
    #[error("session {0} is already running a turn")]
    Busy(String),
    #[error("{0}")]
    Skill(String),
    #[error("this run cannot start: {0}")]
    InvalidRun(String),
    #[error("{0}")]
    Other(String),
}

pub use jarvis_protocol::skills::SkillListing;

/// Where the CLI or app overrides settings (environment, flags).
#[derive(Default, Clone, Debug)]
pub struct Overrides {
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub workdir: Option<PathBuf>,
    /// Never fall back to the process's current directory (the desktop app,
    /// started from a launcher, would land in home).
    pub no_cwd_fallback: bool,
}

impl Overrides {
    /// `JARVIS_BASE_URL` and `JARVIS_MODEL` (empty counts as unset), and
    /// the given working directory: what every host reads the same way.
    pub fn from_env(workdir: Option<PathBuf>) -> Self {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        Overrides {
            base_url: var("JARVIS_BASE_URL"),
            model: var("JARVIS_MODEL"),
            workdir,
            no_cwd_fallback: false,
        }
    }
}

pub struct BrainOptions {
    pub home: PathBuf,
    pub secrets: Arc<dyn SecretStore>,
    pub approver: Arc<dyn Approver>,
    pub overrides: Overrides,
    /// Extra tools (tests, later: MCP and created tools).
    pub registry: Option<ToolRegistry>,
    /// Name resolution for http_request (the system's unless a test says otherwise).
    pub resolver: Option<Arc<dyn Resolver>>,
    /// The `jarvis-sandbox` helper; found beside the program when `None`.
    pub sandbox_helper: Option<PathBuf>,
}

pub(crate) struct Inner {
    pub home: PathBuf,
    pub config_store: ConfigStore,
    pub config: RwLock<Config>,
    pub store: Arc<Store>,
    /// Built-in tools; created tools are added per request by `registry()`.
    pub builtins: ToolRegistry,
    pub gate: Gate,
    pub events: EventSink,
    pub llm: RwLock<Arc<LlmClient>>,
    pub workdir: RwLock<Workdir>,
    /// Said once to the user by the host (a config.json from an older Jarvis).
    notices: Mutex<Vec<String>>,
    /// Runs in progress, by session.
    pub(crate) running: Mutex<HashMap<String, runs::ActiveRun>>,
    /// When a conversation's summary last could not be made.
    pub(crate) compaction_failures: Mutex<HashMap<String, std::time::Instant>>,
    /// The latest Stop everything this process has acted on.
    pub(crate) stop_seen: std::sync::atomic::AtomicI64,
    secrets: Arc<dyn SecretStore>,
    overrides: Overrides,
    protected: Vec<PathBuf>,
    resolver: Arc<dyn Resolver>,
    sandbox_helper: Option<PathBuf>,
    pub(crate) skill_index: crate::skills::index::SkillIndex,
    pub mcp: crate::tools::mcp::McpManager,
    pub(crate) tasks: crate::tasks::TaskHub,
    /// The time, for the ledger's days (tests set their own).
    pub(crate) clock: RwLock<Arc<dyn crate::hub::Clock>>,
    /// Itself, weakly, for the hub's tools; set once the brain is built.
    this: std::sync::OnceLock<std::sync::Weak<Inner>>,
}

/// The working directory in use, or why there is none.
#[derive(Debug, Clone)]
pub struct Workdir {
    pub path: PathBuf,
    pub problem: Option<String>,
}

/// A handle to the brain; cheap to clone.
#[derive(Clone)]
pub struct Brain {
    pub(crate) inner: Arc<Inner>,
}

/// `$JARVIS_HOME` and the app's data and config directories.
pub fn protected_paths(home: &Path) -> Vec<PathBuf> {
    let mut v = vec![std::fs::canonicalize(home).unwrap_or_else(|_| home.to_path_buf())];
    if let Some(h) = std::env::var_os("HOME") {
        let h = PathBuf::from(h);
        for p in [
            h.join(".jarvis"),
            h.join(".local/share/jarvis"),
            h.join(".config/jarvis"),
        ] {
            v.push(std::fs::canonicalize(&p).unwrap_or(p));
        }
    }
    // The running program and its sandbox helper.
    if let Ok(exe) = std::env::current_exe() {
        if let Some(dir) = exe.parent() {
            v.push(dir.join("jarvis-sandbox"));
        }
        v.push(exe);
    }
    v.sort();
    v.dedup();
    v
}

impl Inner {
    pub(crate) fn now(&self) -> jiff::Timestamp {
        match self.clock.read() {
            Ok(c) => c.now(),
            Err(_) => jiff::Timestamp::now(),
        }
    }

    fn llm_settings(&self, cfg: &Config) -> LlmSettings {
        LlmSettings {
            base_url: self
                .overrides
                .base_url
                .clone()
                .unwrap_or_else(|| cfg.llm.base_url.clone()),
            model: self
                .overrides
                .model
                .clone()
                .unwrap_or_else(|| cfg.llm.model.clone()),
            api_key: self.secrets.get(API_KEY).ok().flatten(),
            temperature: cfg.llm.temperature,
            max_retries: cfg.llm.max_retries,
            connect_timeout: Duration::from_secs_f64(cfg.llm.connect_timeout_sec.max(0.1)),
            idle_timeout: Duration::from_secs_f64(cfg.llm.idle_timeout_sec.max(0.1)),
            ..LlmSettings::default()
        }
    }

    fn policy(&self, cfg: &Config, wd: &Workdir) -> Policy {
        Policy::new(PolicySettings {
            read: cfg.tools.read,
            write: cfg.tools.write,
            exec: cfg.tools.exec,
            network: cfg.tools.network,
            auto_write: cfg.auto("write"),
            auto_exec: cfg.auto("exec"),
            auto_network: cfg.auto("network"),
            workdir_problem: wd.problem.clone(),
            home: std::env::var_os("HOME").map(PathBuf::from),
            granted_roots: cfg
                .granted_roots
                .iter()
                .filter_map(|r| std::fs::canonicalize(r).ok())
                .collect(),
            protected: self.protected.clone(),
            skill_roots: self
                .skill_roots(cfg)
                .into_iter()
                .filter_map(|r| std::fs::canonicalize(r.path).ok())
                .collect(),
        })
    }

    /// The built-in tools plus every tool Jarvis created, as they are on disk
    /// now: a new or changed tool is there without a restart.
    pub fn registry(&self) -> ToolRegistry {
        let mut r = self.builtins.clone();
        let (created, broken) = crate::tools::created::load_all(&self.home.join("tools"));
        for (dir, why) in broken {
            tracing::warn!("created tool in {} is broken: {why}", dir.display());
        }
        for t in created {
            // A created tool never replaces a built-in one.
            if r.get(&t.manifest.name).is_none() {
                r.register(Arc::new(t));
            }
        }
        for t in self.mcp.tools() {
            r.register(t);
        }
        r
    }

    /// Starts configured MCP servers in the background (when this process
    /// uses them and has a runtime), so the next turn finds them ready.
    pub fn kick_mcp(&self) {
        if tokio::runtime::Handle::try_current().is_ok() {
            self.mcp
                .kick_if_active(&self.config().mcp_servers, &self.mcp_confinement());
        }
    }

    /// How MCP servers are confined (the same sandbox settings as commands).
    pub fn mcp_confinement(&self) -> crate::tools::mcp::Confinement {
        crate::tools::mcp::Confinement {
            sandbox: self
                .tool_context(None, "", CancellationToken::new())
                .exec_sandbox,
            jarvis_home: self.home.clone(),
        }
    }

    /// The tools the model is offered: what the toggles leave on. A call to
    /// one that is off still reaches the gate, which refuses and audits it.
    pub fn offered(&self, cfg: &Config) -> ToolRegistry {
        self.offered_from(&self.registry(), cfg)
    }

    /// [`Inner::offered`] from a registry already built.
    pub fn offered_from(&self, all: &ToolRegistry, cfg: &Config) -> ToolRegistry {
        let t = &cfg.tools;
        let has_skills = !self.enabled_skills().skills.is_empty();
        let mut out = ToolRegistry::new();
        for tool in all.iter() {
            let on = match tool.name() {
                "local_list_dir" => t.read,
                // Skills stay readable whatever the toggles.
                "local_read_file" => t.read || has_skills,
                "local_write_file" | "create_skill" => t.write,
                "local_exec" => t.exec,
                "http_request" => t.network,
                "create_tool" | "create_mcp" => t.write && t.exec,
                "open_view" | "recent_tasks" | "task_status" | "gen_report" | "cancel_task"
                | "schedule_create" | "schedule_list" | "schedule_cancel" | "remember"
                | "forget" => true,
                name if name.starts_with("mcp__") => true,
                // Tools Jarvis made run like commands.
                _ => t.exec,
            };
            if on {
                out.register(tool.clone());
            }
        }
        out
    }

    /// Skill roots, lowest precedence first.
    pub fn skill_roots(&self, cfg: &Config) -> Vec<crate::skills::SkillRoot> {
        let extra: Vec<PathBuf> = cfg.skills.extra_dirs.iter().map(PathBuf::from).collect();
        let bundled = std::env::var_os("JARVIS_BUNDLED_SKILLS").map(PathBuf::from);
        crate::skills::default_roots(&self.home, bundled.as_deref(), &extra)
    }

    /// The catalog as it is on disk now (cached; a watcher marks it stale).
    pub fn skills(&self) -> crate::skills::Catalog {
        self.skill_index.catalog(self.skill_roots(&self.config()))
    }

    /// The catalog the model sees: disabled skills left out.
    pub fn enabled_skills(&self) -> crate::skills::Catalog {
        let mut c = self.skills();
        let disabled = self.store.disabled_skills().unwrap_or_default();
        c.skills.retain(|s| !disabled.contains(&s.name));
        c
    }

    /// Applies a config: policy, model client, secrets the audit must hide.
    pub(crate) fn apply(&self, cfg: Config) -> Result<(), BrainError> {
        let settings = self.llm_settings(&cfg);
        let secrets: Vec<String> = settings
            .api_key
            .iter()
            .map(|k| k.expose().to_string())
            .collect();
        let client = LlmClient::new(settings)?;
        // A working directory changed in Settings applies to the next call.
        let wd = self.resolve_workdir(&cfg);
        self.gate.set_policy(
            self.policy(&cfg, &wd),
            Duration::from_secs(cfg.approval_timeout_sec),
        );
        if let Ok(mut w) = self.workdir.write() {
            *w = wd;
        }
        self.gate.set_known_secrets(secrets);
        if let Ok(mut l) = self.llm.write() {
            *l = Arc::new(client);
        }
        if let Ok(mut c) = self.config.write() {
            *c = cfg;
        }
        Ok(())
    }

    pub fn workdir(&self) -> PathBuf {
        self.workdir
            .read()
            .map(|w| w.path.clone())
            .unwrap_or_else(|_| PathBuf::from("/nonexistent"))
    }

    pub fn workdir_problem(&self) -> Option<String> {
        self.workdir.read().ok().and_then(|w| w.problem.clone())
    }

    /// Where the tools work: the host's override, else `workdir` in
    /// config.json, else (the CLI) the current directory; judged by
    /// [`workdir::check`].
    fn resolve_workdir(&self, cfg: &Config) -> Workdir {
        let raw = match (&self.overrides.workdir, &cfg.workdir) {
            (Some(w), _) => Some(w.clone()),
            (None, Some(w)) if !w.trim().is_empty() => Some(PathBuf::from(w)),
            _ if self.overrides.no_cwd_fallback => None,
            _ => std::env::current_dir().ok(),
        };
        let Some(raw) = raw else {
            return Workdir {
                path: PathBuf::from("/nonexistent"),
                problem: Some("no working directory has been chosen yet: choose a project folder in Settings (or `jarvis config set workdir DIR`)".into()),
            };
        };
        match workdir::validate(&raw, &self.protected) {
            Ok(path) => Workdir {
                path,
                problem: None,
            },
            Err(e) => Workdir {
                problem: Some(match e {
                    BrainError::Workdir { reason, path } if reason.contains(&path) => reason,
                    BrainError::Workdir { reason, path } => format!("{path}: {reason}"),
                    other => other.to_string(),
                }),
                path: std::fs::canonicalize(&raw).unwrap_or(raw),
            },
        }
    }

    pub fn config(&self) -> Config {
        self.config.read().map(|c| c.clone()).unwrap_or_default()
    }

    pub fn llm(&self) -> Arc<LlmClient> {
        match self.llm.read() {
            Ok(l) => l.clone(),
            Err(e) => e.into_inner().clone(),
        }
    }

    /// The client for the next request. With the embedded engine its
    /// worker is found or started first (loading the model the first time)
    /// and the client pointed at it; `notice` hears when a worker that had
    /// stopped was started again.
    pub async fn llm_ready(&self, notice: impl FnOnce(String)) -> Result<Arc<LlmClient>, LlmError> {
        let cfg = self.config();
        if cfg.llm.provider != jarvis_protocol::settings::Provider::Embedded {
            return Ok(self.llm());
        }
        let (home, llm_cfg) = (self.home.clone(), cfg.llm.clone());
        let ep = tokio::task::spawn_blocking(move || crate::llm::local::endpoint(&home, &llm_cfg))
            .await
            .map_err(|e| LlmError::Config(format!("the embedded engine's starter failed: {e}")))?
            .map_err(|e| LlmError::Config(e.to_string()))?;
        if ep.was_lost {
            notice("The embedded engine had stopped; it has been started again.".into());
        }
        let current = self.llm();
        if current.settings().base_url == ep.base_url {
            return Ok(current);
        }
        let mut settings = self.llm_settings(&cfg);
        settings.base_url = ep.base_url;
        settings.api_key = Some(ep.token.clone());
        let client = Arc::new(LlmClient::new(settings)?);
        self.gate.add_known_secret(ep.token.expose());
        if let Ok(mut l) = self.llm.write() {
            *l = client.clone();
        }
        Ok(client)
    }

    pub fn tool_context(
        &self,
        session_id: Option<&str>,
        call_id: &str,
        cancel: CancellationToken,
    ) -> ToolContext {
        ToolContext {
            session_id: session_id.map(str::to_string),
            call_id: call_id.to_string(),
            workdir: self.workdir(),
            // Granted roots, then the skill roots (the policy keeps those read-only).
            roots: {
                let cfg = self.config();
                let granted = cfg
                    .granted_roots
                    .iter()
                    .filter_map(|r| std::fs::canonicalize(r).ok());
                let skills = self
                    .skill_roots(&cfg)
                    .into_iter()
                    .filter_map(|r| std::fs::canonicalize(r.path).ok());
                granted.chain(skills).collect()
            },
            jarvis_home: self.home.clone(),
            cancel,
            events: self.events.clone(),
            resolver: self.resolver.clone(),
            pinned: vec![],
            exec_sandbox: {
                let cfg = self.config().sandbox;
                ExecSandbox {
                    helper: self.sandbox_helper.clone(),
                    abi: cfg.abi,
                    network: cfg.network,
                    allow_unconfined: cfg.allow_unconfined,
                    env: cfg.env.clone(),
                    read: cfg
                        .read
                        .iter()
                        .filter_map(|r| std::fs::canonicalize(r).ok())
                        .collect(),
                }
            },
            network_approved: false,
            tainted: false,
            run: Arc::new(crate::policy::run::RunFacts::interactive_call(call_id)),
            brain: self.this.get().cloned(),
        }
    }
}

impl Brain {
    pub fn open(opts: BrainOptions) -> Result<Self, BrainError> {
        std::fs::create_dir_all(&opts.home)
            .map_err(|e| BrainError::Other(format!("{}: {e}", opts.home.display())))?;
        let config_store = ConfigStore::new(&opts.home);
        let mut cfg = config_store.load()?;
        let mut notices = Vec::new();
        if cfg.version < crate::config::CONFIG_VERSION && config_store.path().exists() {
            // Written by an older Jarvis: brought up to date once, and said once.
            let mut said = None;
            cfg = config_store.update(|c| {
                said = c.migrate();
                Ok(())
            })?;
            notices.extend(said);
        }
        let store = Arc::new(Store::open(&opts.home.join("jarvis.db"))?);
        match store.prune(cfg.retention.audit_days, cfg.retention.messages_days) {
            Ok(0) => {}
            Ok(n) => tracing::info!("retention: {n} old rows deleted"),
            Err(e) => tracing::warn!("retention: {e}"),
        }
        let protected = protected_paths(&opts.home);
        let stop_seen = store.stop_epoch().unwrap_or(0);
        let placeholder = Policy::new(PolicySettings {
            protected: protected.clone(),
            ..Default::default()
        });
        let gate = Gate::new(
            placeholder,
            store.clone(),
            opts.approver,
            Duration::from_secs(60),
        );
        let inner = Inner {
            home: opts.home,
            config_store,
            config: RwLock::new(cfg.clone()),
            store,
            builtins: opts.registry.unwrap_or_else(ToolRegistry::with_builtins),
            gate,
            events: EventSink::new(),
            llm: RwLock::new(Arc::new(LlmClient::new(LlmSettings::default())?)),
            workdir: RwLock::new(Workdir {
                path: PathBuf::from("/nonexistent"),
                problem: Some("not resolved yet".into()),
            }),
            notices: Mutex::new(notices),
            running: Mutex::new(HashMap::new()),
            compaction_failures: Mutex::new(HashMap::new()),
            stop_seen: std::sync::atomic::AtomicI64::new(stop_seen),
            secrets: opts.secrets,
            overrides: opts.overrides,
            protected,
            resolver: opts.resolver.unwrap_or_else(|| Arc::new(SystemResolver)),
            sandbox_helper: opts.sandbox_helper.or_else(ExecSandbox::find_helper),
            skill_index: crate::skills::index::SkillIndex::new(),
            mcp: crate::tools::mcp::McpManager::new(),
            tasks: crate::tasks::TaskHub::new(),
            this: std::sync::OnceLock::new(),
            clock: RwLock::new(Arc::new(crate::hub::SystemClock)),
        };
        inner.apply(cfg)?;
        let inner = Arc::new(inner);
        let _ = inner.this.set(Arc::downgrade(&inner));
        let brain = Brain { inner };
        // Tasks whose process died are lost, said once, never re-run.
        if let Err(e) = brain.sweep_tasks() {
            tracing::warn!("tasks: {e}");
        }
        Ok(brain)
    }

    pub fn subscribe(&self) -> crate::events::Subscription {
        self.inner.events.subscribe()
    }

    /// Publishes a host's own device state (voice) on the one stream every
    /// host listens to; brain events are the brain's alone.
    pub fn host_event(&self, session_id: Option<&str>, event: HostEvent) {
        self.inner.events.emit(session_id, event.into());
    }

    /// Starts an agent run described by `spec`; returns its id at once.
    pub fn start_run(&self, spec: RunSpec, text: String) -> Result<String, BrainError> {
        runs::start(&self.inner, spec, text)
    }

    /// Running turns and pending approvals, with the number of the last
    /// lifecycle event they include: a host that subscribes, then takes a
    /// snapshot, has the whole picture from the events numbered after it.
    pub fn snapshot(&self) -> Snapshot {
        runs::snapshot(&self.inner)
    }

    /// The approval questions waiting for an answer.
    pub fn pending_approvals(&self) -> Vec<jarvis_protocol::ApprovalRequest> {
        self.inner.gate.pending()
    }

    /// Takes one operation. A user input starts a turn in the background;
    /// its progress and end arrive as events.
    pub fn submit(&self, op: Op) -> Result<(), BrainError> {
        let inner = &self.inner;
        match op {
            Op::UserInput { session_id, text } => {
                self.start_run(RunSpec::interactive(Origin::Chat, session_id), text)?;
                Ok(())
            }
            Op::StartRun { spec, text } => {
                self.start_run(spec, text)?;
                Ok(())
            }
            Op::CancelTurn { session_id } => {
                runs::cancel(inner, &session_id);
                Ok(())
            }
            Op::ApprovalDecision {
                request_id,
                decision,
                decided_by,
            } => {
                if !inner.gate.resolve(&request_id, decision, &decided_by) {
                    inner.events.emit(
                        None,
                        Event::Notice {
                            message: format!("approval {request_id} is no longer pending"),
                        },
                    );
                }
                Ok(())
            }
            Op::SetWorkdir { path } => {
                let wd = workdir::validate(Path::new(&path), &inner.protected)?;
                let cfg = inner.config();
                let next = Workdir {
                    path: wd,
                    problem: None,
                };
                inner.gate.set_policy(
                    inner.policy(&cfg, &next),
                    Duration::from_secs(cfg.approval_timeout_sec),
                );
                if let Ok(mut w) = inner.workdir.write() {
                    *w = next;
                }
                Ok(())
            }
            Op::StopEverything { by } => {
                self.stop_everything(&by)?;
                Ok(())
            }
            Op::ResumeEverything => {
                self.resume_everything()?;
                Ok(())
            }
            Op::Reload => {
                let cfg = inner.config_store.load()?;
                inner.skill_index.invalidate();
                inner.apply(cfg)?;
                inner.kick_mcp();
                Ok(())
            }
        }
    }

    /// True while a turn runs in this session.
    pub fn is_running(&self, session_id: &str) -> bool {
        self.inner
            .running
            .lock()
            .map(|r| r.contains_key(session_id))
            .unwrap_or(false)
    }

    /// Runs one tool exactly as the agent would: the same gate, policy,
    /// approvals and audit.
    /// Starts configured MCP servers that are not running yet (and stops removed ones).
    pub async fn refresh_mcp(&self) {
        self.inner
            .mcp
            .settle(
                &self.inner.config().mcp_servers,
                &self.inner.mcp_confinement(),
            )
            .await;
    }

    /// MCP servers that could not be started, with the reason.
    pub fn mcp_failures(&self) -> Vec<(String, String)> {
        self.inner.mcp.failures()
    }

    pub async fn run_tool(&self, tool_name: &str, raw_args: &str) -> CallOutcome {
        self.refresh_mcp().await;
        let call_id = format!("cli_{}", uuid::Uuid::new_v4().simple());
        let ctx = self
            .inner
            .tool_context(None, &call_id, CancellationToken::new());
        self.inner.events.emit(
            None,
            Event::ToolCallStarted {
                call_id: call_id.clone(),
                name: tool_name.into(),
            },
        );
        let out = self
            .inner
            .gate
            .run(&self.inner.registry(), tool_name, raw_args, &ctx)
            .await;
        self.inner.events.emit(
            None,
            Event::ToolCallFinished {
                call_id,
                name: tool_name.into(),
                status: out.status,
                duration_ms: out.duration_ms,
                summary: out.summary.clone(),
            },
        );
        out
    }

    /// How `local_exec` confines commands right now.
    pub fn exec_sandbox(&self) -> ExecSandbox {
        self.inner
            .tool_context(None, "", CancellationToken::new())
            .exec_sandbox
    }

    /// Skills discovered across the roots right now.
    pub fn skills(&self) -> crate::skills::Catalog {
        self.inner.skills()
    }

    /// The catalog the model sees (disabled skills left out).
    pub fn enabled_skills(&self) -> crate::skills::Catalog {
        self.inner.enabled_skills()
    }

    /// How many times the skills catalog was rebuilt.
    pub fn skill_rebuilds(&self) -> u64 {
        self.inner.skill_index.rebuilds()
    }

    /// Skills with their state, for `skill list`.
    pub fn skill_listing(&self) -> Result<Vec<SkillListing>, BrainError> {
        let catalog = self.inner.skills();
        let mut out = Vec::new();
        for skill in catalog.skills {
            let (enabled, usage_count, last_used) = self.inner.store.skill_state(&skill.name)?;
            let problems = crate::skills::validate::validate_dir(&skill.dir);
            out.push(SkillListing {
                valid: problems.is_empty(),
                problems: problems.into_iter().map(|p| p.message).collect(),
                enabled,
                usage_count,
                last_used,
                skill,
            });
        }
        Ok(out)
    }

    pub fn set_skill_enabled(&self, name: &str, enabled: bool) -> Result<(), BrainError> {
        if self.inner.skills().get(name).is_none() {
            return Err(BrainError::Other(format!(
                "no skill named {name:?} (see `jarvis skill list`)"
            )));
        }
        Ok(self.inner.store.set_skill_enabled(name, enabled)?)
    }

    pub fn tools(&self) -> ToolRegistry {
        self.inner.registry()
    }

    /// What the model is offered now (the toggles applied).
    pub fn offered_tools(&self) -> ToolRegistry {
        self.inner.offered(&self.inner.config())
    }

    pub fn workdir(&self) -> PathBuf {
        self.inner.workdir()
    }

    /// Why the tools cannot work in a folder right now, if they cannot.
    pub fn workdir_problem(&self) -> Option<String> {
        self.inner.workdir_problem()
    }

    /// What the host should tell the user once (taken, so said once).
    pub fn take_notices(&self) -> Vec<String> {
        self.inner
            .notices
            .lock()
            .map(|mut n| std::mem::take(&mut *n))
            .unwrap_or_default()
    }

    pub fn config(&self) -> Config {
        self.inner.config()
    }

    pub fn home(&self) -> &Path {
        &self.inner.home
    }

    pub fn llm(&self) -> Arc<LlmClient> {
        self.inner.llm()
    }

    /// The client the next request would use, the embedded engine's worker
    /// started if it is the provider (for `doctor` and the Settings view).
    pub async fn llm_ready(&self) -> Result<Arc<LlmClient>, LlmError> {
        self.inner.llm_ready(|_| {}).await
    }

    pub fn sessions(&self) -> Result<Vec<SessionInfo>, BrainError> {
        Ok(self.inner.store.list_sessions()?)
    }

    pub fn session_messages(&self, id: &str) -> Result<Vec<StoredMessage>, BrainError> {
        if !self.inner.store.session_exists(id)? {
            return Err(StoreError::NoSession(id.into()).into());
        }
        Ok(self.inner.store.messages(id)?)
    }

    /// The database, for the brain's own services (never handed to hosts).
    pub(crate) fn store_handle(&self) -> Arc<Store> {
        self.inner.store.clone()
    }

    /// Marks a finished outcome for hosts that only want a yes/no.
    pub fn succeeded(out: &CallOutcome) -> bool {
        out.status == ToolStatus::Ok
    }
}
