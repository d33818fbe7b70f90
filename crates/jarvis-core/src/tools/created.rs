//! Tools Jarvis made for itself with `create_tool`: a manifest and a script
//! in `$JARVIS_HOME/tools/NAME/`, loaded without a restart. A run gets its
//! arguments as JSON on stdin and answers JSON on stdout, confined like
//! `local_exec`. A created tool starts untrusted: each version (the hash of
//! its files) asks until the user trusts that version.

use std::path::{Path, PathBuf};
use std::time::Duration;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::confined::Reach;
use super::exec::run_confined;
use super::{Capability, Tool, ToolContext, ToolError, ToolOutput};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub name: String,
    pub description: String,
    /// JSON Schema of the arguments.
    pub parameters: Value,
    /// Program and arguments; the script is named relative to the tool folder.
    pub command: Vec<String>,
    #[serde(default = "default_timeout")]
    pub timeout_sec: u64,
    /// The tool talks to the network (shown when it is approved).
    #[serde(default)]
    pub network: bool,
}

fn default_timeout() -> u64 {
    30
}

pub const MANIFEST: &str = "tool.json";

pub struct ScriptTool {
    pub dir: PathBuf,
    pub manifest: Manifest,
    /// sha256 over every file of the tool: what a trust grant covers.
    pub hash: String,
}

/// Hash of every file below `dir` (names and contents, in order).
pub fn hash_dir(dir: &Path) -> std::io::Result<String> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)? {
            let e = e?;
            if e.file_type()?.is_dir() {
                stack.push(e.path());
            } else {
                files.push(e.path());
            }
        }
    }
    files.sort();
    let mut h = Sha256::new();
    for f in files {
        h.update(
            f.strip_prefix(dir)
                .unwrap_or(&f)
                .to_string_lossy()
                .as_bytes(),
        );
        h.update([0]);
        h.update(std::fs::read(&f)?);
        h.update([0]);
    }
    Ok(crate::digest::hex(&h.finalize()))
}

impl ScriptTool {
    pub fn load(dir: &Path) -> Result<Self, String> {
        let text =
            std::fs::read_to_string(dir.join(MANIFEST)).map_err(|e| format!("{MANIFEST}: {e}"))?;
        let manifest: Manifest =
            serde_json::from_str(&text).map_err(|e| format!("{MANIFEST}: {e}"))?;
        if manifest.command.is_empty() {
            return Err("the manifest has no command".into());
        }
        if !manifest.parameters.is_object() {
            return Err("parameters must be a JSON Schema object".into());
        }
        let hash = hash_dir(dir).map_err(|e| e.to_string())?;
        Ok(ScriptTool {
            dir: dir.to_path_buf(),
            manifest,
            hash,
        })
    }

    /// The command with files of the tool folder made absolute.
    fn argv(&self) -> Vec<String> {
        self.manifest
            .command
            .iter()
            .map(|a| {
                let p = self.dir.join(a);
                if !a.starts_with('-') && !a.contains('/') && p.is_file() {
                    p.display().to_string()
                } else {
                    a.clone()
                }
            })
            .collect()
    }

    fn script_text(&self) -> String {
        self.manifest
            .command
            .iter()
            .filter_map(|a| std::fs::read_to_string(self.dir.join(a)).ok())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Every created tool under `dir`; broken ones come back with the reason.
pub fn load_all(dir: &Path) -> (Vec<ScriptTool>, Vec<(PathBuf, String)>) {
    let (mut ok, mut broken) = (Vec::new(), Vec::new());
    let Ok(rd) = std::fs::read_dir(dir) else {
        return (ok, broken);
    };
    let mut dirs: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(MANIFEST).is_file())
        .collect();
    dirs.sort();
    for d in dirs {
        match ScriptTool::load(&d) {
            Ok(t) => ok.push(t),
            Err(e) => broken.push((d, e)),
        }
    }
    (ok, broken)
}

#[async_trait]
impl Tool for ScriptTool {
    fn name(&self) -> &str {
        &self.manifest.name
    }
    fn description(&self) -> &str {
        &self.manifest.description
    }
    fn parameters(&self) -> Value {
        self.manifest.parameters.clone()
    }
    fn capabilities(
        &self,
        _args: &Value,
        _ctx: &ToolContext,
    ) -> Result<Vec<Capability>, ToolError> {
        Ok(vec![Capability::CreatedTool {
            name: self.manifest.name.clone(),
            hash: self.hash.clone(),
            command: self.argv().join(" "),
        }])
    }
    fn preview(&self, _args: &Value, _ctx: &ToolContext) -> Option<String> {
        let script: Vec<String> = self
            .script_text()
            .lines()
            .take(40)
            .map(str::to_string)
            .collect();
        Some(format!(
            "created tool {} (sha256 {})\n{}",
            self.manifest.name,
            &self.hash[..16],
            script.join("\n")
        ))
    }
    fn timeout(&self, _args: &Value) -> Duration {
        Duration::from_secs(self.manifest.timeout_sec.clamp(1, 600) + 5)
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        // What was judged (and maybe trusted) is this exact version; a tool
        // changed since it was loaded is not run under that judgement.
        let now = hash_dir(&self.dir).map_err(|e| ToolError::Failed(e.to_string()))?;
        if now != self.hash {
            return Err(ToolError::Refused(format!(
                "{} changed on disk after it was checked (sha256 {} → {}); it is checked again in the next turn",
                self.manifest.name,
                &self.hash[..16],
                &now[..16.min(now.len())]
            )));
        }
        let input = serde_json::to_vec(&args).map_err(|e| ToolError::InvalidArgs(e.to_string()))?;
        let limit = Duration::from_secs(self.manifest.timeout_sec.clamp(1, 600));
        // Its own folder to read, the working directory to work in; the
        // network only when its manifest says so (shown when it was approved).
        let reach = Reach {
            write: vec![ctx.workdir.clone()],
            read: vec![self.dir.clone()],
            network: self.manifest.network || ctx.exec_sandbox.network,
        };
        let f = run_confined(ctx, &self.argv(), Some(input), limit, 256 * 1024, reach).await?;
        let stderr = String::from_utf8_lossy(&f.err)
            .trim()
            .chars()
            .take(2000)
            .collect::<String>();
        if f.code != Some(0) {
            return Err(ToolError::Failed(format!(
                "{} exited with {}: {stderr}",
                self.manifest.name,
                f.code.map_or("a signal".to_string(), |c| c.to_string())
            )));
        }
        let out = String::from_utf8_lossy(&f.out);
        let json: Value = serde_json::from_str(out.trim()).map_err(|e| {
            ToolError::Failed(format!(
                "{} did not print JSON on stdout ({e}): {}",
                self.manifest.name,
                out.chars().take(500).collect::<String>()
            ))
        })?;
        Ok(ToolOutput {
            content: format!(
                "{}{}",
                serde_json::to_string_pretty(&json).unwrap_or_default(),
                f.note
            ),
            summary: format!(
                "{} ran in {:.1} s",
                self.manifest.name,
                f.elapsed.as_secs_f64()
            ),
        })
    }
}
