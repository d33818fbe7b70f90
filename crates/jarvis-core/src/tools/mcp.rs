//! MCP servers as tool providers, through the official Rust SDK (`rmcp`).
//! A server starts on first use (with a startup timeout); its tools are
//! named `mcp__server__tool` and go through the one gate like every tool —
//! `ask` unless the user trusts the server. A server that fails is reported
//! and does not hold up the others.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use async_trait::async_trait;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::Value;

use super::{Capability, Tool, ToolContext, ToolError, ToolOutput};
use crate::config::McpServerConfig;

type Client = RunningService<RoleClient, ()>;

struct Running {
    config: McpServerConfig,
    client: Arc<Client>,
    tools: Vec<rmcp::model::Tool>,
}

/// What the registry reads synchronously.
#[derive(Default)]
struct Snapshot {
    tools: Vec<Arc<McpTool>>,
    /// Servers that could not be started, with the reason.
    failures: Vec<(String, String)>,
}

/// The MCP side of the registry.
#[derive(Default)]
pub struct McpManager {
    running: tokio::sync::Mutex<HashMap<String, Running>>,
    snapshot: RwLock<Snapshot>,
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
    use sha2::Digest;
    let h: String = sha2::Sha256::digest(name.as_bytes())
        .iter()
        .take(4)
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{}_{h}", &name[..55])
}

async fn start(name: &str, cfg: &McpServerConfig) -> Result<Running, String> {
    let limit = Duration::from_secs(cfg.startup_timeout_sec.max(1));
    let connect = async {
        let client = match cfg.url.as_deref().filter(|u| !u.trim().is_empty()) {
            Some(url) => {
                let transport =
                    rmcp::transport::StreamableHttpClientTransport::from_uri(url.to_string());
                ().serve(transport)
                    .await
                    .map_err(|e| format!("handshake with {url} failed: {e}"))?
            }
            None => {
                if cfg.command.trim().is_empty() {
                    return Err("neither a command nor a url is configured".to_string());
                }
                let mut cmd = tokio::process::Command::new(&cfg.command);
                cmd.args(&cfg.args)
                    .envs(&cfg.env)
                    .env_remove("JARVIS_API_KEY")
                    .kill_on_drop(true);
                if let Some(cwd) = &cfg.cwd {
                    cmd.current_dir(cwd);
                }
                let transport = TokioChildProcess::builder(cmd)
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .map(|(t, _)| t)
                    .map_err(|e| format!("cannot start {}: {e}", cfg.command))?;
                ().serve(transport)
                    .await
                    .map_err(|e| format!("handshake failed: {e}"))?
            }
        };
        let tools = client
            .list_all_tools()
            .await
            .map_err(|e| format!("tools/list failed: {e}"))?;
        Ok::<_, String>(Running {
            config: cfg.clone(),
            client: Arc::new(client),
            tools,
        })
    };
    tokio::time::timeout(limit, connect)
        .await
        .map_err(|_| format!("{name} did not answer within {} s", limit.as_secs()))?
}

impl McpManager {
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts what is configured and not running (or changed), stops what
    /// was removed, and refreshes the snapshot the registry reads.
    pub async fn refresh(&self, servers: &std::collections::BTreeMap<String, McpServerConfig>) {
        let mut running = self.running.lock().await;
        running.retain(|name, r| servers.get(name) == Some(&r.config));
        let mut failures = Vec::new();
        for (name, cfg) in servers {
            if running.contains_key(name) {
                continue;
            }
            match start(name, cfg).await {
                Ok(r) => {
                    running.insert(name.clone(), r);
                }
                Err(e) => {
                    tracing::warn!("MCP server {name}: {e}");
                    failures.push((name.clone(), e));
                }
            }
        }
        let mut tools = Vec::new();
        for (server, r) in running.iter() {
            for t in &r.tools {
                tools.push(Arc::new(McpTool {
                    name: tool_name(server, &t.name),
                    server: server.clone(),
                    tool: t.name.to_string(),
                    description: t.description.as_deref().unwrap_or("").to_string(),
                    schema: Value::Object((*t.input_schema).clone()),
                    trusted: r.config.trusted,
                    timeout: Duration::from_secs(r.config.call_timeout_sec.max(1)),
                    client: r.client.clone(),
                }));
            }
        }
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        if let Ok(mut s) = self.snapshot.write() {
            *s = Snapshot { tools, failures };
        }
    }

    pub fn tools(&self) -> Vec<Arc<McpTool>> {
        self.snapshot
            .read()
            .map(|s| s.tools.clone())
            .unwrap_or_default()
    }

    /// Servers that could not be started, with the reason.
    pub fn failures(&self) -> Vec<(String, String)> {
        self.snapshot
            .read()
            .map(|s| s.failures.clone())
            .unwrap_or_default()
    }
}

pub struct McpTool {
    pub name: String,
    pub server: String,
    pub tool: String,
    description: String,
    schema: Value,
    trusted: bool,
    timeout: Duration,
    client: Arc<Client>,
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
        let call = CallToolRequestParams::new(self.tool.clone()).with_arguments(map);
        let result = self.client.call_tool(call).await.map_err(|e| {
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
