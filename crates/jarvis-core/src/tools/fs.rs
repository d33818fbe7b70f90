//! `local_list_dir`, `local_read_file`, `local_write_file`: the file hands,
//! confined to the working directory by the policy.

use async_trait::async_trait;
use serde_json::{Value, json};

use super::paths::resolve;
use super::sandbox::{self, WriteMode, locate};
use super::{
    Capability, Tool, ToolContext, ToolError, ToolOutput, arg_opt_u64, arg_str, cap_chars,
};

/// The seed's cap: longer files are cut with a note.
pub const READ_CAP_CHARS: usize = 100_000;
const LIST_CAP: usize = 1000;

pub struct ListDirTool;
pub struct ReadFileTool;
pub struct WriteFileTool;

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
        let at = locate(&ctx.workdir, &ctx.roots, raw)?;
        let listed = tokio::task::spawn_blocking(move || sandbox::list(&at))
            .await
            .map_err(|e| ToolError::Failed(e.to_string()))??;
        let mut entries: Vec<String> = listed
            .into_iter()
            .map(|(name, is_dir, size)| {
                if is_dir {
                    format!("{name}/")
                } else {
                    format!("{name}  ({size} bytes)")
                }
            })
            .collect();
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
        let at = locate(&ctx.workdir, &ctx.roots, raw)?;
        let bytes = tokio::task::spawn_blocking(move || sandbox::read_all(&at, None))
            .await
            .map_err(|e| ToolError::Failed(e.to_string()))??;
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
    fn preview(&self, args: &Value, ctx: &ToolContext) -> Option<String> {
        let raw = arg_str(args, "path").ok()?;
        let content = arg_str(args, "content").ok()?;
        let mode = args
            .get("mode")
            .and_then(Value::as_str)
            .unwrap_or("overwrite");
        let at = locate(&ctx.workdir, &ctx.roots, raw).ok()?;
        let old = sandbox::read_all(&at, None).ok();
        Some(write_preview(raw, old.as_deref(), content, mode))
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
        let mode = match mode.as_str() {
            "create" => WriteMode::Create,
            "overwrite" => WriteMode::Overwrite,
            "append" => WriteMode::Append,
            other => {
                return Err(ToolError::InvalidArgs(format!(
                    "mode {other:?} is not one of create, overwrite, append"
                )));
            }
        };
        let at = locate(&ctx.workdir, &ctx.roots, &raw)?;
        let bytes = content.len();
        let (written, before_append, at, content) = tokio::task::spawn_blocking(move || {
            // Appends keep the file before them too, for undo.
            let before = match mode {
                WriteMode::Append => sandbox::read_all(&at, None).ok(),
                _ => None,
            };
            sandbox::write(&at, content.as_bytes(), mode).map(|w| (w, before, at, content))
        })
        .await
        .map_err(|e| ToolError::Failed(e.to_string()))??;
        let mut what = match (mode, written.created, &written.old_content) {
            (WriteMode::Append, _, _) => format!("appended {bytes} bytes to {raw}"),
            (_, true, _) => format!("created {raw} ({bytes} bytes)"),
            (_, false, Some(old)) => format!("overwrote {raw} ({} → {bytes} bytes)", old.len()),
            (_, false, None) => format!("wrote {bytes} bytes to {raw}"),
        };
        let before = written.old_content.as_deref().or(before_append.as_deref());
        // What the append left is what was there and what it added.
        let after = match (mode, before) {
            (WriteMode::Append, Some(b)) => Some([b, content.as_bytes()].concat()),
            _ => Some(content.into_bytes()),
        };
        // The change is recorded so the turn can be undone; the previous
        // version is kept aside either way.
        // An append to a file that could not be read first has no "before":
        // undoing it must not remove the file.
        let knowable = written.created || before.is_some();
        let kept = if knowable {
            crate::undo::record(ctx, self.name(), &at, before, after.as_deref())
        } else {
            None
        };
        if let Some(old) = written.old_content.as_deref() {
            let kept = match kept {
                Some(p) => Ok(p),
                None => crate::undo::keep(&ctx.jarvis_home, &ctx.run.run_id, &at.rel, old),
            };
            match kept {
                Ok(p) => what.push_str(&format!(
                    "; the previous version is kept in {}",
                    p.display()
                )),
                Err(e) => tracing::warn!("could not keep the previous version of {raw}: {e}"),
            }
        }
        Ok(ToolOutput {
            content: what.clone(),
            summary: what,
        })
    }
}

/// Lines of a diff shown in an approval request at most.
const PREVIEW_LINES: usize = 40;

/// "create/overwrite/append, size, a short diff" for the approval request.
pub fn write_preview(raw: &str, old: Option<&[u8]>, new: &str, mode: &str) -> String {
    let new_lines = new.lines().count();
    match (mode, old) {
        ("append", _) => format!("append {} bytes ({new_lines} lines) to {raw}", new.len()),
        (_, None) => {
            let head: Vec<&str> = new.lines().take(PREVIEW_LINES / 2).collect();
            let more = if new_lines > head.len() {
                format!("\n… {} more lines", new_lines - head.len())
            } else {
                String::new()
            };
            format!(
                "create {raw} ({} bytes, {new_lines} lines)\n{}{more}",
                new.len(),
                head.join("\n")
            )
        }
        (_, Some(old)) => {
            let old_text = String::from_utf8_lossy(old);
            let diff = similar::TextDiff::from_lines(old_text.as_ref(), new);
            let unified = diff
                .unified_diff()
                .context_radius(2)
                .header("before", "after")
                .to_string();
            let lines: Vec<&str> = unified.lines().collect();
            let mut shown = lines
                .iter()
                .take(PREVIEW_LINES)
                .copied()
                .collect::<Vec<_>>()
                .join("\n");
            if lines.len() > PREVIEW_LINES {
                shown.push_str(&format!(
                    "\n… {} more diff lines",
                    lines.len() - PREVIEW_LINES
                ));
            }
            format!(
                "overwrite {raw} ({} → {} bytes)\n{shown}",
                old.len(),
                new.len()
            )
        }
    }
}
