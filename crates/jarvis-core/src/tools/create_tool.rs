//! `create_tool`: Jarvis writes a new tool for itself — a manifest and a
//! script in `$JARVIS_HOME/tools/NAME/` — that the registry picks up on the
//! next round. It asks first, never overwrites, and the new tool starts
//! untrusted (see `created.rs`).

use async_trait::async_trait;
use serde_json::{Value, json};

use super::created::{MANIFEST, Manifest, ScriptTool};
use super::staging::Staged;
use super::{Capability, Tool, ToolContext, ToolError, ToolOutput, arg_str};

/// Built-in names a created tool may not take.
const RESERVED: &[&str] = &[
    "local_list_dir",
    "local_read_file",
    "local_write_file",
    "local_exec",
    "http_request",
    "open_view",
    "create_skill",
    "create_tool",
    "create_mcp",
];

pub struct CreateToolTool;

fn check(args: &Value) -> Result<(String, &'static str, &'static str), ToolError> {
    let name = arg_str(args, "name")?;
    let ok = !name.is_empty()
        && name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !ok {
        return Err(ToolError::InvalidArgs(format!(
            "{name:?}: lowercase letters, digits and _ only, starting with a letter"
        )));
    }
    if RESERVED.contains(&name) || name.starts_with("mcp__") {
        return Err(ToolError::InvalidArgs(format!(
            "{name} is a built-in tool's name"
        )));
    }
    let (interp, file) = match args
        .get("language")
        .and_then(Value::as_str)
        .unwrap_or("python")
    {
        "python" => ("python3", "run.py"),
        "sh" | "shell" | "bash" => ("sh", "run.sh"),
        "node" | "javascript" => ("node", "run.js"),
        other => {
            return Err(ToolError::InvalidArgs(format!(
                "language {other:?} is not python, sh or node"
            )));
        }
    };
    let desc = arg_str(args, "description")?;
    if desc.trim().is_empty() {
        return Err(ToolError::InvalidArgs("the description is empty".into()));
    }
    arg_str(args, "code")?;
    let params = args
        .get("parameters")
        .cloned()
        .unwrap_or(json!({"type": "object"}));
    if params.get("type").and_then(Value::as_str) != Some("object") {
        return Err(ToolError::InvalidArgs(
            "parameters must be a JSON Schema with \"type\": \"object\"".into(),
        ));
    }
    Ok((name.to_string(), interp, file))
}

#[async_trait]
impl Tool for CreateToolTool {
    fn name(&self) -> &str {
        "create_tool"
    }
    fn description(&self) -> &str {
        "Create a new tool for yourself: a script (python, sh or node) that reads its arguments as a JSON object on stdin and prints a JSON result on stdout. It becomes callable in your next step, and runs only with the user's approval until they trust it."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "name": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$", "maxLength": 64},
            "description": {"type": "string"},
            "parameters": {"type": "object", "description": "JSON Schema of the tool's arguments"},
            "language": {"type": "string", "enum": ["python", "sh", "node"]},
            "code": {"type": "string"},
            "network": {"type": "boolean", "description": "the tool needs the network (it runs without it otherwise)"},
            "timeout_sec": {"type": "integer", "minimum": 1, "maximum": 600}},
            "required": ["name", "description", "code"], "additionalProperties": false})
    }
    fn capabilities(&self, args: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        let (name, _, _) = check(args)?;
        Ok(vec![Capability::CreateExtension {
            kind: "tool".into(),
            path: ctx.jarvis_home.join("tools").join(name),
        }])
    }
    fn preview(&self, args: &Value, _ctx: &ToolContext) -> Option<String> {
        let (name, interp, file) = check(args).ok()?;
        let code: Vec<&str> = arg_str(args, "code").ok()?.lines().take(40).collect();
        let network = if args.get("network").and_then(Value::as_bool) == Some(true) {
            " (with network)"
        } else {
            ""
        };
        Some(format!(
            "new tool {name}: {interp} {file}{network}\n{}",
            code.join("\n")
        ))
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let (name, interp, file) = check(&args)?;
        let staged = Staged::new(
            &ctx.jarvis_home.join("tools"),
            &name,
            "tool",
            "a tool",
            "the tool",
        )?;
        let manifest = Manifest {
            name: name.clone(),
            description: arg_str(&args, "description")?.trim().to_string(),
            parameters: args
                .get("parameters")
                .cloned()
                .unwrap_or(json!({"type": "object"})),
            command: vec![interp.to_string(), file.to_string()],
            timeout_sec: args
                .get("timeout_sec")
                .and_then(Value::as_u64)
                .unwrap_or(30)
                .clamp(1, 600),
            network: args.get("network").and_then(Value::as_bool) == Some(true),
        };
        let text = serde_json::to_string_pretty(&manifest)
            .map_err(|e| ToolError::Failed(e.to_string()))?;
        staged.write(MANIFEST, text)?;
        staged.write(file, arg_str(&args, "code")?)?;
        ScriptTool::load(&staged.dir)
            .map_err(|e| ToolError::Failed(format!("the tool would not load: {e}")))?;
        staged.place()?;
        Ok(ToolOutput {
            content: format!(
                "created the tool {name}; call it from your next step. It asks the user before each run until they trust it."
            ),
            summary: format!("created tool {name}"),
        })
    }
}
