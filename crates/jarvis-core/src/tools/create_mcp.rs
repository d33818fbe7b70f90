//! `create_mcp`: Jarvis writes a runnable MCP server project for itself —
//! `pyproject.toml` + `server.py` on the current official Python SDK (mcp
//! 2.x, `MCPServer`; pinned, since 2.0 renamed `FastMCP`) — in
//! `$JARVIS_HOME/mcp/NAME/`, with its own venv. It asks first and never
//! overwrites. It never registers the server: the user does, seeing the
//! whole server file (`jarvis mcp add NAME DIR`, or Register in the HUD),
//! and it starts untrusted.

use async_trait::async_trait;
use serde_json::{Value, json};

use super::staging::Staged;
use super::{Capability, Tool, ToolContext, ToolError, ToolOutput, arg_str};

pub struct CreateMcpTool;

/// The SDK range the generated project is written for.
pub const MCP_REQUIREMENT: &str = "mcp>=2.3,<3";

fn check(args: &Value) -> Result<(String, Vec<(String, String)>), ToolError> {
    let name = arg_str(args, "name")?;
    let ok = !name.is_empty()
        && name.len() <= 40
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.ends_with('-')
        && !name.contains("--");
    if !ok {
        return Err(ToolError::InvalidArgs(format!(
            "{name:?}: lowercase letters, digits and single hyphens"
        )));
    }
    arg_str(args, "description")?;
    let tools = args
        .get("tools")
        .and_then(Value::as_array)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| ToolError::InvalidArgs("`tools` must list at least one tool".into()))?;
    let mut out = Vec::new();
    for t in tools {
        let tname = t.get("name").and_then(Value::as_str).unwrap_or("");
        let code = t.get("code").and_then(Value::as_str).unwrap_or("");
        let valid = !tname.is_empty()
            && tname.starts_with(|c: char| c.is_ascii_lowercase())
            && tname
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !valid {
            return Err(ToolError::InvalidArgs(format!(
                "tool name {tname:?}: a Python identifier in lowercase"
            )));
        }
        if !code.trim_start().starts_with(&format!("def {tname}(")) {
            return Err(ToolError::InvalidArgs(format!(
                "tool {tname}: `code` must be a Python function `def {tname}(...) -> ...:` with a docstring"
            )));
        }
        out.push((tname.to_string(), code.to_string()));
    }
    Ok((name.to_string(), out))
}

/// server.py: every tool registered on one `MCPServer`, stdio by default.
pub fn render_server(name: &str, description: &str, tools: &[(String, String)]) -> String {
    let mut s = format!(
        "\"\"\"{name}: an MCP server written by Jarvis. {}\"\"\"\nfrom mcp.server import MCPServer\n\nmcp = MCPServer({}, instructions={})\n",
        description.replace("\"\"\"", "'''"),
        json!(name),
        json!(description)
    );
    for (_, code) in tools {
        s.push_str("\n\n@mcp.tool()\n");
        s.push_str(code.trim_end());
        s.push('\n');
    }
    s.push_str("\n\ndef main() -> None:\n    mcp.run()  # stdio\n\n\nif __name__ == \"__main__\":\n    main()\n");
    s
}

pub fn render_pyproject(name: &str, description: &str) -> String {
    format!(
        "[project]\nname = {}\nversion = \"0.1.0\"\ndescription = {}\nrequires-python = \">=3.10\"\ndependencies = [\"{MCP_REQUIREMENT}\"]\n\n[project.scripts]\n{name} = \"server:main\"\n\n[build-system]\nrequires = [\"setuptools>=61\"]\nbuild-backend = \"setuptools.build_meta\"\n\n[tool.setuptools]\npy-modules = [\"server\"]\n",
        json!(name),
        json!(description)
    )
}

#[async_trait]
impl Tool for CreateMcpTool {
    fn name(&self) -> &str {
        "create_mcp"
    }
    fn description(&self) -> &str {
        "Create a runnable MCP server project (Python, official mcp SDK 2.x) with the tools you write as Python functions (type-annotated, with docstrings). It is not used until the user registers it (they see the server file first); then its tools are `mcp__NAME__TOOL`, asked before each call until they trust it."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "name": {"type": "string", "pattern": "^[a-z][a-z0-9-]*$"},
            "description": {"type": "string"},
            "tools": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"},
                "code": {"type": "string", "description": "def NAME(arg: type, ...) -> type:\\n    \\\"\\\"\\\"Docstring.\\\"\\\"\\\"\\n    ..."}},
                "required": ["name", "code"]}}},
            "required": ["name", "description", "tools"], "additionalProperties": false})
    }
    fn timeout(&self, _args: &Value) -> std::time::Duration {
        // Building the server's venv downloads the SDK.
        std::time::Duration::from_secs(300)
    }
    fn capabilities(&self, args: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        let (name, _) = check(args)?;
        Ok(vec![Capability::CreateExtension {
            kind: "MCP server".into(),
            path: super::mcp_projects::projects_dir(&ctx.jarvis_home).join(name),
        }])
    }
    fn preview(&self, args: &Value, _ctx: &ToolContext) -> Option<String> {
        let (name, tools) = check(args).ok()?;
        let server = render_server(&name, arg_str(args, "description").ok()?, &tools);
        Some(format!(
            "new MCP server project {name} (not registered: you register it yourself)\n{}",
            server.lines().take(40).collect::<Vec<_>>().join("\n")
        ))
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let (name, tools) = check(&args)?;
        let description = arg_str(&args, "description")?.trim().to_string();
        let staged = Staged::new(
            &super::mcp_projects::projects_dir(&ctx.jarvis_home),
            &name,
            "mcp",
            "an MCP server",
            "the project",
        )?;
        staged.write("server.py", render_server(&name, &description, &tools))?;
        staged.write("pyproject.toml", render_pyproject(&name, &description))?;
        staged.write(
            "README.md",
            format!("# {name}\n\n{description}\n\nRun: `python server.py` (stdio). Requires `{MCP_REQUIREMENT}`.\n"),
        )?;
        // Syntax is checked before the project is put in place.
        let checked = std::process::Command::new("python3")
            .args(["-c", "import ast,sys; ast.parse(open(sys.argv[1]).read())"])
            .arg(staged.dir.join("server.py"))
            .output();
        if let Ok(o) = checked
            && !o.status.success()
        {
            return Err(ToolError::Failed(format!(
                "server.py is not valid Python: {}",
                String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            )));
        }
        let target = staged.place()?;
        // Its own venv with the pinned SDK, so the project runs once registered.
        let note = match install_venv(&target).await {
            Ok(_) => String::new(),
            Err(e) => format!(" (its venv could not be built: {e}; it will run with python3)"),
        };
        let note = format!(
            "{note}. It is not registered: the user registers it with `jarvis mcp add {name} {}` or Register in the HUD, after reading server.py",
            target.display()
        );
        Ok(ToolOutput {
            content: format!("created the MCP server project {}{note}", target.display()),
            summary: format!("created MCP server {name}"),
        })
    }
}

/// `python3 -m venv DIR/.venv` and the pinned SDK in it; returns its python.
async fn install_venv(dir: &std::path::Path) -> Result<String, String> {
    let venv = dir.join(".venv");
    let run = |program: std::path::PathBuf, args: Vec<String>| async move {
        let out = tokio::process::Command::new(&program)
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output()
            .await
            .map_err(|e| format!("{}: {e}", program.display()))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("failed")
                .to_string())
        }
    };
    run(
        "python3".into(),
        vec!["-m".into(), "venv".into(), venv.display().to_string()],
    )
    .await?;
    let python = venv.join("bin/python");
    run(
        python.clone(),
        vec![
            "-m".into(),
            "pip".into(),
            "install".into(),
            "-q".into(),
            "--disable-pip-version-check".into(),
            MCP_REQUIREMENT.into(),
        ],
    )
    .await?;
    Ok(python.display().to_string())
}
