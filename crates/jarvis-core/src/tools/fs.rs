//! `local_list_dir`, `local_read_file`, `local_write_file`: the file hands,
//! confined to the working directory by the policy.

use std::path::Path;

use async_trait::async_trait;
use serde_json::{Value, json};

use super::paths::resolve;
use super::{
    Capability, Tool, ToolContext, ToolError, ToolOutput, arg_opt_u64, arg_str, cap_chars,
};

/// The seed's cap: longer files are cut with a note.
pub const READ_CAP_CHARS: usize = 100_000;
const LIST_CAP: usize = 1000;

pub struct ListDirTool;
pub struct ReadFileTool;
pub struct WriteFileTool;

fn io_err(path: &str, e: std::io::Error) -> ToolError {
    let what = match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    };
    ToolError::Failed(format!("{path}: {what}"))
}

#[async_trait]
impl Tool for ListDirTool {
    fn name(&self) -> &str {
        "local_list_dir"
    }
    fn description(&self) -> &str {
        "List a directory in the working directory: one entry per line, directories end with '/', files show their size."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "path": {"type": "string", "description": "Directory, relative to the working directory (default '.')"}},
            "additionalProperties": false})
    }
    fn capabilities(&self, args: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        let p = args.get("path").and_then(Value::as_str).unwrap_or(".");
        Ok(vec![Capability::Read(resolve(&ctx.workdir, p)?)])
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let raw = args.get("path").and_then(Value::as_str).unwrap_or(".");
        let path = resolve(&ctx.workdir, raw)?;
        let mut rd = tokio::fs::read_dir(&path)
            .await
            .map_err(|e| io_err(raw, e))?;
        let mut entries = Vec::new();
        while let Some(e) = rd.next_entry().await.map_err(|e| io_err(raw, e))? {
            let name = e.file_name().to_string_lossy().to_string();
            let line = match e.metadata().await {
                Ok(m) if m.is_dir() => format!("{name}/"),
                Ok(m) => format!("{name}  ({} bytes)", m.len()),
                Err(_) => name,
            };
            entries.push(line);
        }
        entries.sort();
        let total = entries.len();
        let mut content = entries
            .iter()
            .take(LIST_CAP)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n");
        if total > LIST_CAP {
            content.push_str(&format!(
                "\n[… {} more entries not shown]",
                total - LIST_CAP
            ));
        }
        if total == 0 {
            content = "(empty directory)".into();
        }
        Ok(ToolOutput {
            content,
            summary: format!("{total} entries in {raw}"),
        })
    }
}

/// UTF-8, or Latin-1 when the bytes are not UTF-8 (every byte is a Latin-1 char).
fn decode(bytes: &[u8]) -> (String, &'static str) {
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), "utf-8"),
        Err(_) => (bytes.iter().map(|&b| b as char).collect(), "latin-1"),
    }
}

fn looks_binary(bytes: &[u8]) -> bool {
    bytes.iter().take(8192).any(|&b| b == 0)
}

#[async_trait]
impl Tool for ReadFileTool {
    fn name(&self) -> &str {
        "local_read_file"
    }
    fn description(&self) -> &str {
        "Read a text file in the working directory, optionally only lines start_line..=end_line (1-based). Long files are cut at 100,000 characters with a note."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "path": {"type": "string", "description": "File path, relative to the working directory"},
            "start_line": {"type": "integer", "minimum": 1},
            "end_line": {"type": "integer", "minimum": 1}},
            "required": ["path"], "additionalProperties": false})
    }
    fn capabilities(&self, args: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        Ok(vec![Capability::Read(resolve(
            &ctx.workdir,
            arg_str(args, "path")?,
        )?)])
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let raw = arg_str(&args, "path")?;
        let start = arg_opt_u64(&args, "start_line")?;
        let end = arg_opt_u64(&args, "end_line")?;
        if let (Some(s), Some(e)) = (start, end)
            && e < s
        {
            return Err(ToolError::InvalidArgs(format!(
                "end_line {e} is before start_line {s}"
            )));
        }
        if start == Some(0) || end == Some(0) {
            return Err(ToolError::InvalidArgs("lines are numbered from 1".into()));
        }
        let path = resolve(&ctx.workdir, raw)?;
        let meta = tokio::fs::metadata(&path)
            .await
            .map_err(|e| io_err(raw, e))?;
        if meta.is_dir() {
            return Err(ToolError::Failed(format!(
                "{raw} is a directory: use local_list_dir to see what is in it"
            )));
        }
        let bytes = tokio::fs::read(&path).await.map_err(|e| io_err(raw, e))?;
        if looks_binary(&bytes) {
            return Err(ToolError::Failed(format!(
                "{raw} is a binary file ({} bytes); it cannot be shown as text",
                bytes.len()
            )));
        }
        let (text, encoding) = decode(&bytes);
        let total_lines = text.lines().count();
        let selected = match (start, end) {
            (None, None) => text,
            (s, e) => {
                let s = s.unwrap_or(1) as usize;
                let e = e.map(|e| e as usize).unwrap_or(total_lines);
                if s > total_lines.max(1) {
                    return Err(ToolError::InvalidArgs(format!(
                        "start_line {s} is past the end of {raw} ({total_lines} lines)"
                    )));
                }
                text.lines()
                    .skip(s - 1)
                    .take(e + 1 - s)
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        };
        let (content, cut) = cap_chars(
            &selected,
            READ_CAP_CHARS,
            "read the rest with start_line/end_line",
        );
        let mut summary = format!("{raw}: {total_lines} lines ({encoding})");
        if cut {
            summary.push_str(", cut at 100,000 characters");
        }
        Ok(ToolOutput { content, summary })
    }
}

#[async_trait]
impl Tool for WriteFileTool {
    fn name(&self) -> &str {
        "local_write_file"
    }
    fn description(&self) -> &str {
        "Write a text file in the working directory. mode: 'create' (fails if it exists), 'overwrite' (default) or 'append'. Parent directories are created. Replacement is atomic."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "path": {"type": "string"},
            "content": {"type": "string"},
            "mode": {"type": "string", "enum": ["create", "overwrite", "append"]}},
            "required": ["path", "content"], "additionalProperties": false})
    }
    fn capabilities(&self, args: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        Ok(vec![Capability::Write(resolve(
            &ctx.workdir,
            arg_str(args, "path")?,
        )?)])
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let raw = arg_str(&args, "path")?.to_string();
        let content = arg_str(&args, "content")?.to_string();
        let mode = args
            .get("mode")
            .and_then(Value::as_str)
            .unwrap_or("overwrite")
            .to_string();
        let path = resolve(&ctx.workdir, &raw)?;
        let bytes = content.len();
        tokio::task::spawn_blocking(move || write_file(&path, &raw, &content, &mode))
            .await
            .map_err(|e| ToolError::Failed(e.to_string()))??;
        Ok(ToolOutput {
            content: format!("wrote {bytes} bytes"),
            summary: format!("wrote {bytes} bytes"),
        })
    }
}

fn write_file(path: &Path, raw: &str, content: &str, mode: &str) -> Result<(), ToolError> {
    use std::io::Write;
    if path.is_dir() {
        return Err(ToolError::Failed(format!("{raw} is a directory")));
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| io_err(raw, e))?;
    }
    match mode {
        "create" => {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| match e.kind() {
                    std::io::ErrorKind::AlreadyExists => {
                        ToolError::Failed(format!("{raw} already exists (use mode 'overwrite')"))
                    }
                    _ => io_err(raw, e),
                })?;
            f.write_all(content.as_bytes()).map_err(|e| io_err(raw, e))
        }
        "append" => {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .map_err(|e| io_err(raw, e))?;
            f.write_all(content.as_bytes()).map_err(|e| io_err(raw, e))
        }
        "overwrite" => {
            crate::config::atomic_write(path, content.as_bytes()).map_err(|e| io_err(raw, e))
        }
        other => Err(ToolError::InvalidArgs(format!(
            "mode {other:?} is not one of create, overwrite, append"
        ))),
    }
}
