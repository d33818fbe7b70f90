//! MCP server projects waiting for the user: `create_mcp` builds them under
//! `$JARVIS_HOME/mcp/NAME` and never registers them; the user does, after
//! reading the whole server file (the HUD's Register button, `jarvis mcp
//! add NAME DIR`). Both hosts register through [`register`].

use std::path::{Path, PathBuf};

use super::ToolError;
use super::mcp::registration;
use crate::config::{ConfigError, ConfigStore};

pub use jarvis_protocol::skills::McpProject;

#[derive(Debug, thiserror::Error)]
pub enum RegisterError {
    #[error(transparent)]
    Project(#[from] ToolError),
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// Where `create_mcp` builds its projects.
pub fn projects_dir(jarvis_home: &Path) -> PathBuf {
    jarvis_home.join("mcp")
}

/// Every project with a readable `server.py`, by name.
pub fn projects(jarvis_home: &Path, store: &ConfigStore) -> Vec<McpProject> {
    let registered = store.load().map(|c| c.mcp_servers).unwrap_or_default();
    let Ok(entries) = std::fs::read_dir(projects_dir(jarvis_home)) else {
        return vec![];
    };
    let mut found: Vec<McpProject> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            let reg = registration(&name, &e.path()).ok()?;
            Some(McpProject {
                registered: registered.contains_key(&name),
                dir: e.path().display().to_string(),
                server_file: reg.server_file.display().to_string(),
                server_text: reg.server_text,
                name,
            })
        })
        .collect();
    found.sort_by(|a, b| a.name.cmp(&b.name));
    found
}

/// Saves the project in `dir` as MCP server `name`: untrusted (each call
/// asks) unless `trusted`, without network unless `network`.
pub fn register(
    store: &ConfigStore,
    name: &str,
    dir: &Path,
    trusted: bool,
    network: bool,
) -> Result<super::mcp::Registration, RegisterError> {
    let reg = registration(name, dir)?;
    store.update(|c| {
        let mut cfg = reg.config.clone();
        cfg.trusted = trusted;
        cfg.network = network;
        c.mcp_servers.insert(name.to_string(), cfg);
        Ok(())
    })?;
    Ok(reg)
}
