//! MCP servers as tool providers, through the official Rust SDK (`rmcp`).
//! A server starts on first use (with a startup timeout); its tools are
//! named `mcp__server__tool` and go through the one gate like every tool —
//! `ask` unless the user trusts the server. A server that fails is reported
//! and does not hold up the others.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::Value;

use std::path::{Path, PathBuf};

use super::{Capability, Tool, ToolContext, ToolError, ToolOutput};
use crate::config::McpServerConfig;

type Client = RunningService<RoleClient, ()>;

mod manager;
pub use manager::McpManager;

struct Running {
    client: Arc<Client>,
    tools: Vec<rmcp::model::Tool>,
    /// The server's private temp dir and home, kept while it runs.
    _scratch: Option<super::confined::Scratch>,
}

/// `mcp__server__tool`, in the characters tool names allow, at most 64 long.
pub fn tool_name(server: &str, tool: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let name = format!("mcp__{}__{}", clean(server), clean(tool));
    if name.len() <= 64 {
        return name;
    }
    let h = &crate::digest::sha256(name.as_bytes())[..8];
    format!("{}_{h}", &name[..55])
}

/// How stdio servers are confined: the sandbox settings and Jarvis's home.
#[derive(Clone, Debug, Default)]
pub struct Confinement {
    pub sandbox: super::ExecSandbox,
    pub jarvis_home: std::path::PathBuf,
}

/// A server's own folder: its `cwd`, else the folder of the script it runs,
/// else `$JARVIS_HOME/mcp-data/NAME`. It reads and writes there and nowhere
/// else outside the system.
fn own_folder(name: &str, cfg: &McpServerConfig, jarvis_home: &Path) -> PathBuf {
    if let Some(cwd) = cfg.cwd.as_deref().filter(|c| !c.trim().is_empty()) {
        return PathBuf::from(cwd);
    }
    for a in &cfg.args {
        let p = Path::new(a);
        if p.is_absolute()
            && p.is_file()
            && let Some(dir) = p.parent()
        {
            return dir.to_path_buf();
        }
    }
    jarvis_home.join("mcp-data").join(name)
}

/// The installation a program runs from (`…/venv` for `…/venv/bin/python`,
/// and where its link points), which it needs to read.
fn install_prefixes(program: &str) -> Vec<PathBuf> {
    let found = if program.contains('/') {
        Some(PathBuf::from(program))
    } else {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|d| d.join(program))
                .find(|p| p.is_file())
        })
    };
    let mut out = Vec::new();
    for p in found.into_iter().flat_map(|p| {
        let real = std::fs::canonicalize(&p).ok();
        std::iter::once(p).chain(real)
    }) {
        if let Some(bin) = p.parent() {
            out.push(if bin.ends_with("bin") {
                bin.parent().unwrap_or(bin).to_path_buf()
            } else {
                bin.to_path_buf()
            });
        }
    }
    out
}

/// A stdio server started under the sandbox in its own folder; its stderr
/// is kept so a refusal or a crash can be told.
async fn spawn_confined(
    name: &str,
    cfg: &McpServerConfig,
    jail: &Confinement,
) -> Result<(Client, super::confined::Scratch), String> {
    if cfg.command.trim().is_empty() {
        return Err("neither a command nor a url is configured".to_string());
    }
    let folder = own_folder(name, cfg, &jail.jarvis_home);
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    let mut read = vec![folder.clone()];
    read.extend(install_prefixes(&cfg.command));
    let reach = super::confined::Reach {
        write: vec![folder.clone()],
        read,
        network: cfg.network,
    };
    let place = super::confined::Place {
        sandbox: &jail.sandbox,
        jarvis_home: &jail.jarvis_home,
        roots: &[],
    };
    let scratch = super::confined::Scratch::new().map_err(|e| e.to_string())?;
    let (mut cmd, _) = super::confined::command(&place, &reach, &scratch, &cfg.command)
        .map_err(|e| e.to_string())?;
    cmd.args(&cfg.args)
        .envs(&cfg.env)
        .current_dir(&folder)
        .kill_on_drop(true);
    let log_path = scratch.dir.path().join("stderr.log");
    let log = std::fs::File::create(&log_path).map_err(|e| e.to_string())?;
    let transport = TokioChildProcess::builder(cmd)
        .stderr(std::process::Stdio::from(log))
        .spawn()
        .map(|(t, _)| t)
        .map_err(|e| format!("cannot start {}: {e}", cfg.command))?;
    match ().serve(transport).await {
        Ok(client) => Ok((client, scratch)),
        Err(e) => {
            let said = std::fs::read_to_string(&log_path).unwrap_or_default();
            let last = said
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            Err(
                if let Some(why) = last.strip_prefix("jarvis-sandbox: cannot run ") {
                    format!("cannot start {why}")
                } else if last.starts_with(crate::sandbox::REFUSED_PREFIX) {
                    last.to_string()
                } else if last.is_empty() {
                    format!("handshake failed: {e}")
                } else {
                    format!("handshake failed: {e} ({last})")
                },
            )
        }
    }
}

async fn start(name: &str, cfg: &McpServerConfig, jail: &Confinement) -> Result<Running, String> {
    let limit = Duration::from_secs(cfg.startup_timeout_sec.max(1));
    let connect = async {
        let (client, scratch) = match cfg.url.as_deref().filter(|u| !u.trim().is_empty()) {
            Some(url) => {
                let transport =
                    rmcp::transport::StreamableHttpClientTransport::from_uri(url.to_string());
                let client = ()
                    .serve(transport)
                    .await
                    .map_err(|e| format!("handshake with {url} failed: {e}"))?;
                (client, None)
            }
            None => {
                let (client, scratch) = spawn_confined(name, cfg, jail).await?;
                (client, Some(scratch))
            }
        };
        let tools = client
            .list_all_tools()
            .await
            .map_err(|e| format!("tools/list failed: {e}"))?;
        Ok::<_, String>(Running {
            client: Arc::new(client),
            tools,
            _scratch: scratch,
        })
    };
    tokio::time::timeout(limit, connect)
        .await
        .map_err(|_| format!("{name} did not answer within {} s", limit.as_secs()))?
}

/// A server project the user registers: what runs, and its file to show.
#[derive(Debug, Clone)]
pub struct Registration {
    pub config: McpServerConfig,
    pub server_file: PathBuf,
    pub server_text: String,
}

/// The configuration for the MCP server project in `dir` (`server.py`, run
/// with the project's own `.venv` when it has one), untrusted and without
/// network; the user sees `server_text` before it is saved.
pub fn registration(name: &str, dir: &Path) -> Result<Registration, ToolError> {
    let ok = !name.is_empty()
        && name.len() <= 40
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !ok {
        return Err(ToolError::InvalidArgs(format!(
            "{name:?}: lowercase letters, digits, - and _"
        )));
    }
    let dir = std::fs::canonicalize(dir)
        .map_err(|e| ToolError::Failed(format!("{}: {e}", dir.display())))?;
    let server_file = dir.join("server.py");
    let server_text = std::fs::read_to_string(&server_file).map_err(|e| {
        ToolError::Failed(format!(
            "{}: {e} (an MCP server project has a server.py)",
            server_file.display()
        ))
    })?;
    let venv = dir.join(".venv/bin/python");
    let command = if venv.is_file() {
        venv.display().to_string()
    } else {
        "python3".to_string()
    };
    Ok(Registration {
        config: McpServerConfig {
            command,
            args: vec![server_file.display().to_string()],
            cwd: Some(dir.display().to_string()),
            ..Default::default()
        },
        server_file,
        server_text,
    })
}

pub struct McpTool {
    pub name: String,
    pub server: String,
    pub tool: String,
    description: String,
    schema: Value,
    trusted: bool,
    timeout: Duration,
    /// `None` for a tool remembered from the server's last start while it
    /// starts again: the call waits for the server.
    client: Option<Arc<Client>>,
    manager: manager::WeakManager,
}

#[async_trait]
impl Tool for McpTool {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        &self.description
    }
    fn parameters(&self) -> Value {
        self.schema.clone()
    }
    fn capabilities(
        &self,
        _args: &Value,
        _ctx: &ToolContext,
    ) -> Result<Vec<Capability>, ToolError> {
        Ok(vec![Capability::Mcp {
            server: self.server.clone(),
            tool: self.tool.clone(),
            trusted: self.trusted,
        }])
    }
    fn timeout(&self, _args: &Value) -> Duration {
        self.timeout
    }
    async fn execute(&self, _ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let Value::Object(map) = args else {
            return Err(ToolError::InvalidArgs(
                "arguments must be a JSON object".into(),
            ));
        };
        let client = match &self.client {
            Some(c) => c.clone(),
            None => self
                .manager
                .upgrade()
                .ok_or_else(|| ToolError::Failed("Jarvis is shutting down".into()))?
                .client_for(&self.server)
                .await
                .map_err(ToolError::Failed)?,
        };
        let call = CallToolRequestParams::new(self.tool.clone()).with_arguments(map);
        let result = client.call_tool(call).await.map_err(|e| {
            ToolError::Failed(format!("{} on MCP server {}: {e}", self.tool, self.server))
        })?;
        let mut text: Vec<String> = result
            .content
            .iter()
            .map(|c| match c.as_text() {
                Some(t) => t.text.clone(),
                None => serde_json::to_string(c).unwrap_or_default(),
            })
            .collect();
        if let Some(s) = &result.structured_content
            && text.is_empty()
        {
            text.push(s.to_string());
        }
        let body = text.join("\n");
        if result.is_error == Some(true) {
            return Err(ToolError::Failed(format!(
                "{} reported an error: {body}",
                self.tool
            )));
        }
        Ok(ToolOutput {
            summary: format!("{}/{} answered", self.server, self.tool),
            content: body,
        })
    }
}
