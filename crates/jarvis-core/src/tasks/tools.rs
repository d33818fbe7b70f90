//! The hub's tools for the model: `recent_tasks`, `task_status`,
//! `gen_report` and `cancel_task`. They reach the tasks through a narrow
//! desk, never the store: the brain's state stays out of the tools' reach.

use std::sync::Weak;

use async_trait::async_trait;
use jarvis_protocol::{Origin, TaskInfo};
use serde_json::{Value, json};

use super::TaskRequest;
use crate::tools::{
    Capability, TaskAction, Tool, ToolContext, ToolError, ToolOutput, arg_opt_u64, arg_str,
};

/// The brain, for the hub's tools; weak in the context, so a tool call
/// never keeps it alive.
pub(crate) fn brain(ctx: &ToolContext) -> Result<crate::Brain, ToolError> {
    ctx.brain
        .as_ref()
        .and_then(Weak::upgrade)
        .map(|inner| crate::Brain { inner })
        .ok_or_else(|| ToolError::Failed("the hub is not available here".into()))
}

pub(crate) fn failed(e: crate::agent::BrainError) -> ToolError {
    ToolError::Failed(e.to_string())
}

use super::short_id as short;

/// One task as the model reads it: status and summary, never its conversation.
fn line(t: &TaskInfo) -> String {
    let mut s = format!(
        "{} [{}] {}",
        short(&t.id),
        t.status.as_str(),
        t.instruction.lines().next().unwrap_or("")
    );
    if let Some(sum) = &t.summary {
        s.push_str(&format!(" — {sum}"));
    }
    if let Some(r) = &t.reason {
        s.push_str(&format!(" ({r})"));
    }
    if let Some(p) = &t.report {
        s.push_str(&format!(" report: {p}"));
    }
    s
}

/// Runs nobody watches may not start or stop tasks or schedules (no task
/// storms, no schedule that multiplies itself).
pub(crate) fn attended(ctx: &ToolContext, what: &str) -> Result<(), ToolError> {
    match ctx.run.origin {
        Origin::Task | Origin::Schedule | Origin::Evolution => Err(ToolError::Refused(format!(
            "a background run cannot {what}; finish with your answer instead"
        ))),
        _ => Ok(()),
    }
}

pub struct RecentTasksTool;

#[async_trait]
impl Tool for RecentTasksTool {
    fn name(&self) -> &str {
        "recent_tasks"
    }
    fn description(&self) -> &str {
        "The user's recent background tasks, newest first, with status and result."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "limit": {"type": "integer"}}})
    }
    fn capabilities(
        &self,
        _args: &Value,
        _ctx: &ToolContext,
    ) -> Result<Vec<Capability>, ToolError> {
        Ok(vec![Capability::Task {
            action: TaskAction::Read,
            subject: "recent tasks".into(),
            allow: vec![],
        }])
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let limit = arg_opt_u64(&args, "limit")?.unwrap_or(10).clamp(1, 50) as usize;
        let tasks = brain(ctx)?.tasks(limit, 0).map_err(failed)?;
        let content = if tasks.is_empty() {
            "no tasks yet".to_string()
        } else {
            tasks.iter().map(line).collect::<Vec<_>>().join("\n")
        };
        Ok(ToolOutput {
            content,
            summary: format!("{} tasks", tasks.len()),
        })
    }
}

pub struct TaskStatusTool;

#[async_trait]
impl Tool for TaskStatusTool {
    fn name(&self) -> &str {
        "task_status"
    }
    fn description(&self) -> &str {
        "Status and result of one background task, by id."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"task_id": {"type": "string"}},
            "required": ["task_id"]})
    }
    fn capabilities(&self, args: &Value, _ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        Ok(vec![Capability::Task {
            action: TaskAction::Read,
            subject: arg_str(args, "task_id")?.to_string(),
            allow: vec![],
        }])
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let t = brain(ctx)?
            .task(arg_str(&args, "task_id")?)
            .map_err(failed)?;
        Ok(ToolOutput {
            content: json!({
                "id": t.id, "status": t.status, "instruction": t.instruction,
                "created_at": t.created_at, "started_at": t.started_at,
                "finished_at": t.finished_at, "summary": t.summary, "reason": t.reason,
                "report": t.report, "usage": t.usage,
            })
            .to_string(),
            summary: format!("{} {}", short(&t.id), t.status.as_str()),
        })
    }
}

pub struct GenReportTool;

pub(crate) fn allow_of(args: &Value) -> Result<Vec<String>, ToolError> {
    match args.get("allow") {
        None | Some(Value::Null) => Ok(vec![]),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| ToolError::InvalidArgs("`allow` is a list of kinds".into()))
            })
            .collect(),
        Some(_) => Err(ToolError::InvalidArgs("`allow` is a list of kinds".into())),
    }
}

fn sources_of(args: &Value) -> Vec<String> {
    match args.get("sources") {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => vec![],
    }
}

/// What a report task is told, in full.
fn instruction_of(topic: &str, sources: &[String]) -> String {
    let mut instruction = format!("Make a report on {topic}.");
    if !sources.is_empty() {
        instruction.push_str(&format!(" Sources: {}.", sources.join(", ")));
    }
    instruction
}

#[async_trait]
impl Tool for GenReportTool {
    fn name(&self) -> &str {
        "gen_report"
    }
    fn description(&self) -> &str {
        "Start a background task that writes a Markdown report on a topic; returns its id at once. allow: write/exec/network/mcp without asking."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "topic": {"type": "string"},
            "sources": {"type": "array", "items": {"type": "string"}},
            "allow": {"type": "array", "items": {"type": "string"}}},
            "required": ["topic"]})
    }
    fn capabilities(&self, args: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        attended(ctx, "start tasks")?;
        let topic = arg_str(args, "topic")?.trim();
        if topic.is_empty() {
            return Err(ToolError::InvalidArgs("`topic` is empty".into()));
        }
        // The question shows everything the task will be told.
        Ok(vec![Capability::Task {
            action: TaskAction::Start,
            subject: instruction_of(topic, &sources_of(args)),
            allow: allow_of(args)?,
        }])
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let topic = arg_str(&args, "topic")?.trim().to_string();
        let instruction = instruction_of(&topic, &sources_of(&args));
        let t = brain(ctx)?
            .start_task(TaskRequest {
                instruction,
                origin: ctx.run.origin,
                parent_session: ctx.session_id.clone(),
                report_topic: Some(topic.clone()),
                allow: allow_of(&args)?,
                ..Default::default()
            })
            .map_err(failed)?;
        Ok(ToolOutput {
            content: format!(
                "started: task {} (id {}) is making the report on {topic}; the user will be told when it is ready. Tell the user it has started; do not wait for it.",
                short(&t.id),
                t.id
            ),
            summary: format!("started task {}", short(&t.id)),
        })
    }
}

pub struct CancelTaskTool;

#[async_trait]
impl Tool for CancelTaskTool {
    fn name(&self) -> &str {
        "cancel_task"
    }
    fn description(&self) -> &str {
        "Cancel a queued or running background task by its id."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"task_id": {"type": "string"}},
            "required": ["task_id"]})
    }
    fn capabilities(&self, args: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        attended(ctx, "cancel tasks")?;
        Ok(vec![Capability::Task {
            action: TaskAction::Cancel,
            subject: arg_str(args, "task_id")?.to_string(),
            allow: vec![],
        }])
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let t = brain(ctx)?
            .cancel_task(arg_str(&args, "task_id")?)
            .map_err(failed)?;
        Ok(ToolOutput {
            content: format!("task {} is {}", short(&t.id), t.status.as_str()),
            summary: format!("cancelled {}", short(&t.id)),
        })
    }
}
