//! The tools the model can call, and the registry that dispatches them.
//! Every call reaches a tool only through [`crate::policy::Gate`].

mod confined;
mod create_mcp;
mod create_skill;
mod create_tool;
pub mod created;
mod exec;
mod fs;
mod http;
pub mod mcp;
pub mod mcp_projects;
mod memory;
pub mod net;
pub mod paths;
pub mod sandbox;
mod staging;
mod ui;

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Value, json};
use thiserror::Error;
use tokio_util::sync::CancellationToken;

use crate::events::EventSink;

pub use create_mcp::CreateMcpTool;
pub use create_skill::CreateSkillTool;
pub use create_tool::CreateToolTool;
pub use exec::{AGENT_EXEC_ENV, ExecTool, sandbox_report};
pub use fs::{ListDirTool, ReadFileTool, WriteFileTool};
pub use http::HttpRequestTool;
pub use memory::{ForgetTool, RememberTool};
pub use ui::OpenViewTool;

/// What a call will touch, derived from its arguments before it runs.
/// Paths are already resolved against the working directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Capability {
    Read(PathBuf),
    Write(PathBuf),
    Exec {
        command: String,
        cwd: PathBuf,
    },
    /// `addrs` are filled in by the gate after resolving the host.
    Network {
        method: String,
        url: String,
        addrs: Vec<IpAddr>,
    },
    Ui,
    /// A meta-tool creates a new skill, tool or MCP server in its own folder.
    CreateExtension {
        kind: String,
        path: PathBuf,
    },
    /// Calls a tool of an MCP server.
    Mcp {
        server: String,
        tool: String,
        trusted: bool,
    },
    /// Reads, starts or cancels a background task (the hub's tools).
    Task {
        action: TaskAction,
        /// What the user is shown: the instruction or the task's id.
        subject: String,
        /// Kinds the task may use without a question (a start only).
        allow: Vec<String>,
    },
    /// Keeps (or forgets) something about the user.
    Memory {
        forget: bool,
        text: String,
    },
    /// Runs a tool Jarvis created; `hash` identifies this exact version.
    CreatedTool {
        name: String,
        hash: String,
        command: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskAction {
    Read,
    Start,
    Cancel,
    /// Make a schedule: it will act when nobody is there.
    Schedule,
}

impl Capability {
    /// What a person approves for a whole call: each capability's subject.
    pub fn subjects(caps: &[Capability]) -> String {
        caps.iter()
            .map(Capability::subject)
            .collect::<Vec<_>>()
            .join("; ")
    }

    pub fn is_read_only(&self) -> bool {
        match self {
            Capability::Read(_) | Capability::Ui => true,
            Capability::Task { action, .. } => *action == TaskAction::Read,
            Capability::Network { method, .. } => method == "GET" || method == "HEAD",
            _ => false,
        }
    }
    /// The exact thing a person approves: the path, command or URL.
    pub fn subject(&self) -> String {
        match self {
            Capability::Read(p) => format!("read {}", p.display()),
            Capability::Write(p) => format!("write {}", p.display()),
            Capability::Exec { command, cwd } => format!("$ {command}   (in {})", cwd.display()),
            Capability::Network { method, url, .. } => format!("{method} {url}"),
            Capability::CreateExtension { kind, path } => {
                format!("create the {kind} {}", path.display())
            }
            Capability::CreatedTool {
                name,
                hash,
                command,
            } => {
                format!(
                    "run the created tool {name} (version {}): {command}",
                    &hash[..hash.len().min(16)]
                )
            }
            Capability::Mcp { server, tool, .. } => {
                format!("call {tool} on the MCP server {server}")
            }
            Capability::Ui => "navigate the HUD".into(),
            Capability::Memory {
                forget: false,
                text,
            } => format!("remember “{text}”"),
            Capability::Memory { forget: true, text } => format!("forget “{text}”"),
            Capability::Task {
                action,
                subject,
                allow,
            } => match action {
                TaskAction::Read => format!("read your {subject}"),
                TaskAction::Schedule if allow.is_empty() => format!("schedule {subject}"),
                TaskAction::Schedule => format!(
                    "schedule {subject}, allowed to {} without asking",
                    allow.join(", ")
                ),
                TaskAction::Cancel => format!("cancel the task {subject}"),
                TaskAction::Start if allow.is_empty() => {
                    format!("start a background task: {subject}")
                }
                TaskAction::Start => format!(
                    "start a background task that may {} without asking: {subject}",
                    allow.join(", ")
                ),
            },
        }
    }
}

/// What the host injects; the model never chooses these.
#[derive(Clone)]
pub struct ToolContext {
    pub session_id: Option<String>,
    pub call_id: String,
    /// Canonical working directory.
    pub workdir: PathBuf,
    /// Other directories the user granted, canonical.
    pub roots: Vec<PathBuf>,
    pub jarvis_home: PathBuf,
    pub cancel: CancellationToken,
    pub events: EventSink,
    pub resolver: Arc<dyn net::Resolver>,
    /// Addresses the gate checked for each host name: the request connects
    /// only to these.
    pub pinned: Vec<(String, Vec<SocketAddr>)>,
    /// How `local_exec` confines commands.
    pub exec_sandbox: ExecSandbox,
    /// The person approved this call "with network".
    pub network_approved: bool,
    /// Content from a tool is already in the conversation (see [`crate::policy::TurnFacts`]).
    pub tainted: bool,
    /// The run this call belongs to (who started it, who can approve).
    pub run: Arc<crate::policy::run::RunFacts>,
    /// The brain, for the hub's tools (weak: a context never keeps it alive).
    pub(crate) brain: Option<std::sync::Weak<crate::agent::Inner>>,
}

/// The OS sandbox for commands: the helper that applies it, and its settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExecSandbox {
    /// `jarvis-sandbox`; `None` when it could not be found.
    pub helper: Option<PathBuf>,
    /// Force an older Landlock ABI (0: the newest).
    pub abi: u8,
    /// Commands always have network (`sandbox.network`).
    pub network: bool,
    /// Run commands unconfined when they cannot be confined (`sandbox.allow_unconfined`).
    pub allow_unconfined: bool,
    /// Variables passed to commands beyond the built-in list (`sandbox.env`).
    pub env: Vec<String>,
    /// More folders commands may read (`sandbox.read`), canonical.
    pub read: Vec<PathBuf>,
}

impl ExecSandbox {
    /// `JARVIS_SANDBOX_HELPER`, else `jarvis-sandbox` beside the running program.
    pub fn find_helper() -> Option<PathBuf> {
        if let Some(p) = std::env::var_os("JARVIS_SANDBOX_HELPER")
            .map(PathBuf::from)
            .filter(|p| p.is_file())
        {
            return Some(p);
        }
        let exe = std::env::current_exe().ok()?;
        let dir = exe.parent()?;
        // Test binaries live one level down, in deps/.
        [dir.join("jarvis-sandbox"), dir.join("../jarvis-sandbox")]
            .into_iter()
            .find(|p| p.is_file())
    }
}

#[derive(Debug, Error, Clone, PartialEq)]
pub enum ToolError {
    /// The arguments were wrong; the model can fix them and retry.
    #[error("invalid arguments: {0}")]
    InvalidArgs(String),
    /// The call ran and failed; told to the model.
    #[error("{0}")]
    Failed(String),
    #[error("timed out after {0} s")]
    Timeout(u64),
    #[error("cancelled")]
    Cancelled,
    /// Refused by the policy while running (a redirect, a resolved address).
    #[error("refused by Jarvis's safety policy: {0}")]
    Refused(String),
}

/// A tool's result: full text for the model, a one-line summary for people.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    pub content: String,
    pub summary: String,
}

#[async_trait]
pub trait Tool: Send + Sync {
    fn name(&self) -> &str;
    fn description(&self) -> &str;
    /// JSON Schema of the arguments.
    fn parameters(&self) -> Value;
    /// What this call will touch. An error here refuses the call before the policy.
    fn capabilities(&self, args: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError>;
    /// What the call will do, shown in the approval request (a write's diff).
    fn preview(&self, _args: &Value, _ctx: &ToolContext) -> Option<String> {
        None
    }
    /// Counted from after approval.
    fn timeout(&self, _args: &Value) -> Duration {
        Duration::from_secs(60)
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError>;
}

/// Tools by name, in a stable order (stable prompts cache better).
#[derive(Clone, Default)]
pub struct ToolRegistry {
    tools: BTreeMap<String, Arc<dyn Tool>>,
}

impl ToolRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// The hands and `open_view`.
    pub fn with_builtins() -> Self {
        let mut r = Self::new();
        r.register(Arc::new(ListDirTool));
        r.register(Arc::new(ReadFileTool));
        r.register(Arc::new(WriteFileTool));
        r.register(Arc::new(ExecTool::default()));
        r.register(Arc::new(HttpRequestTool::default()));
        r.register(Arc::new(OpenViewTool));
        r.register(Arc::new(CreateSkillTool));
        r.register(Arc::new(CreateToolTool));
        r.register(Arc::new(CreateMcpTool));
        r.register(Arc::new(crate::tasks::tools::RecentTasksTool));
        r.register(Arc::new(crate::tasks::tools::TaskStatusTool));
        r.register(Arc::new(crate::tasks::tools::GenReportTool));
        r.register(Arc::new(crate::tasks::tools::CancelTaskTool));
        r.register(Arc::new(crate::schedule::tools::ScheduleCreateTool));
        r.register(Arc::new(crate::schedule::tools::ScheduleListTool));
        r.register(Arc::new(crate::schedule::tools::ScheduleCancelTool));
        r.register(Arc::new(RememberTool));
        r.register(Arc::new(ForgetTool));
        r
    }

    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        self.tools.insert(tool.name().to_string(), tool);
    }

    pub fn get(&self, tool_name: &str) -> Option<Arc<dyn Tool>> {
        self.tools.get(tool_name).cloned()
    }

    pub fn names(&self) -> Vec<String> {
        self.tools.keys().cloned().collect()
    }

    /// Keeps the tools whose name passes `keep`.
    pub fn retain(&mut self, mut keep: impl FnMut(&str) -> bool) {
        self.tools.retain(|name, _| keep(name));
    }

    pub fn iter(&self) -> impl Iterator<Item = &Arc<dyn Tool>> {
        self.tools.values()
    }

    /// The OpenAI `tools` array.
    pub fn openai_tools(&self) -> Vec<Value> {
        self.tools
            .values()
            .map(|t| {
                json!({"type": "function", "function": {
                    "name": t.name(), "description": t.description(), "parameters": t.parameters()}})
            })
            .collect()
    }
}

pub(crate) fn arg_str<'a>(args: &'a Value, key: &str) -> Result<&'a str, ToolError> {
    args.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| ToolError::InvalidArgs(format!("`{key}` (string) is required")))
}

pub(crate) fn arg_opt_u64(args: &Value, key: &str) -> Result<Option<u64>, ToolError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
            .map(Some)
            .ok_or_else(|| {
                ToolError::InvalidArgs(format!("`{key}` must be a non-negative integer"))
            }),
    }
}

/// Cuts text to `max` characters with a note saying how much was left out.
pub fn cap_chars(text: &str, max: usize, hint: &str) -> (String, bool) {
    match text.char_indices().nth(max) {
        None => (text.to_string(), false),
        Some((cut, _)) => {
            let rest = text[cut..].chars().count();
            (
                format!(
                    "{}\n[… {rest} more characters not shown; {hint}]",
                    &text[..cut]
                ),
                true,
            )
        }
    }
}
