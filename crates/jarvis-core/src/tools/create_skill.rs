//! `create_skill`: Jarvis writes a new Agent Skill for itself. Its own narrow
//! code writes only the new folder `$JARVIS_HOME/skills/NAME`, never over an
//! existing one, and what it writes passes the spec's strict validation.

use std::path::Path;

use async_trait::async_trait;
use serde_json::{Value, json};

use super::staging::Staged;
use super::{Capability, Tool, ToolContext, ToolError, ToolOutput, arg_str};
use crate::skills::validate::validate_dir;

pub struct CreateSkillTool;

/// The spec's name rules (checked before anything touches the disk).
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.chars().count() > 64 {
        return Err("the name must be 1–64 characters".into());
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(format!(
            "{name:?}: only lowercase letters, digits and hyphens"
        ));
    }
    if name.starts_with('-') || name.ends_with('-') || name.contains("--") {
        return Err(format!("{name:?}: no leading, trailing or double hyphens"));
    }
    Ok(())
}

/// A YAML double-quoted scalar: safe for any text.
fn yaml_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Everything else that can be wrong, found before anyone is asked.
fn check_rest(args: &Value) -> Result<Vec<(String, String)>, ToolError> {
    let description = arg_str(args, "description")?.trim();
    if description.is_empty() || description.chars().count() > 1024 {
        return Err(ToolError::InvalidArgs(
            "the description must be 1–1024 characters".into(),
        ));
    }
    arg_str(args, "instructions")?;
    let mut scripts = Vec::new();
    if let Some(m) = args.get("scripts").and_then(Value::as_object) {
        for (file, content) in m {
            let ok = !file.is_empty()
                && !file.starts_with('.')
                && file
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
            if !ok {
                return Err(ToolError::InvalidArgs(format!(
                    "script name {file:?}: a plain file name only"
                )));
            }
            let content = content
                .as_str()
                .ok_or_else(|| ToolError::InvalidArgs(format!("scripts.{file} must be text")))?;
            scripts.push((file.clone(), content.to_string()));
        }
    }
    Ok(scripts)
}

pub fn render_skill_md(name: &str, description: &str, body: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: {}\n---\n\n{}\n",
        yaml_quote(description.trim()),
        body.trim()
    )
}

#[async_trait]
impl Tool for CreateSkillTool {
    fn name(&self) -> &str {
        "create_skill"
    }
    fn description(&self) -> &str {
        "Create a new Agent Skill (SKILL.md with instructions, optional scripts) that you can load in later conversations. Name: lowercase letters, digits, hyphens. Description: what it does and when to use it (≤ 1024 characters). Never overwrites an existing skill."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "name": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": 64},
            "description": {"type": "string", "maxLength": 1024},
            "instructions": {"type": "string", "description": "Markdown body of SKILL.md"},
            "scripts": {"type": "object", "additionalProperties": {"type": "string"},
                "description": "Optional files for scripts/, by file name"}},
            "required": ["name", "description", "instructions"], "additionalProperties": false})
    }
    fn capabilities(&self, args: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        let name = arg_str(args, "name")?;
        check_name(name).map_err(ToolError::InvalidArgs)?;
        check_rest(args)?;
        Ok(vec![Capability::CreateExtension {
            kind: "skill".into(),
            path: ctx.jarvis_home.join("skills").join(name),
        }])
    }
    fn preview(&self, args: &Value, _ctx: &ToolContext) -> Option<String> {
        let name = arg_str(args, "name").ok()?;
        let text = render_skill_md(
            name,
            arg_str(args, "description").ok()?,
            arg_str(args, "instructions").ok()?,
        );
        let scripts: Vec<String> = args
            .get("scripts")
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        let head: Vec<&str> = text.lines().take(30).collect();
        Some(format!(
            "new skill {name}{}\n{}",
            if scripts.is_empty() {
                String::new()
            } else {
                format!(" with scripts/{}", scripts.join(", scripts/"))
            },
            head.join("\n")
        ))
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let name = arg_str(&args, "name")?.to_string();
        check_name(&name).map_err(ToolError::InvalidArgs)?;
        let scripts = check_rest(&args)?;
        let description = arg_str(&args, "description")?.trim().to_string();
        let body = arg_str(&args, "instructions")?.to_string();
        let staged = Staged::new(
            &ctx.jarvis_home.join("skills"),
            &name,
            "skill",
            "a skill",
            "the skill",
        )?;
        staged.write("SKILL.md", render_skill_md(&name, &description, &body))?;
        if !scripts.is_empty() {
            std::fs::create_dir_all(staged.dir.join("scripts")).map_err(staged.io())?;
            for (file, content) in &scripts {
                staged.write(Path::new("scripts").join(file), content)?;
            }
        }
        let problems = validate_dir(&staged.dir);
        if !problems.is_empty() {
            let list: Vec<String> = problems.into_iter().map(|p| p.message).collect();
            return Err(ToolError::Failed(format!(
                "the skill would not be valid: {}",
                list.join("; ")
            )));
        }
        let target = staged.place()?;
        let location = target.join("SKILL.md");
        // The curator keeps the skills Jarvis made tidy.
        if let Ok(brain) = crate::tasks::tools::brain(ctx)
            && let Err(e) = brain.inner.store.mark_made_by_jarvis(&name)
        {
            tracing::warn!("create_skill: {e}");
        }
        Ok(ToolOutput {
            content: format!(
                "created the skill {name} at {}; it is in your catalog from the next request",
                location.display()
            ),
            summary: format!("created skill {name}"),
        })
    }
}
