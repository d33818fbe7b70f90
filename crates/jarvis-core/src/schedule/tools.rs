//! `schedule_create`, `schedule_list`, `schedule_cancel`: the model turns
//! the user's words into a structured `when`; the instruction is stored as
//! the user said it. Making a schedule always asks: it will act unattended.

use async_trait::async_trait;
use jarvis_protocol::{ScheduleInfo, When};
use serde_json::{Value, json};

use super::ScheduleRequest;
use crate::tasks::short_id;
use crate::tasks::tools::{allow_of, attended, brain, failed};
use crate::tools::{Capability, TaskAction, Tool, ToolContext, ToolError, ToolOutput, arg_str};

fn when_of(args: &Value) -> Result<When, ToolError> {
    let w = args
        .get("when")
        .cloned()
        .ok_or_else(|| ToolError::InvalidArgs("`when` is required".into()))?;
    serde_json::from_value(w).map_err(|e| {
        ToolError::InvalidArgs(format!(
            "`when`: {e}; one of {{\"kind\":\"once\",\"at\":RFC3339}}, {{\"kind\":\"every\",\"minutes\":N}}, {{\"kind\":\"daily\",\"time\":\"HH:MM\",\"weekdays\":[\"mon\",…]}}, {{\"kind\":\"cron\",\"expr\":\"0 9 * * 1-5\"}}"
        ))
    })
}

/// How a schedule reads to the model and in the question.
pub fn describe(when: &When) -> String {
    match when {
        When::Once { at } => format!("once at {at}"),
        When::Every { minutes } if minutes % 60 == 0 => format!("every {} h", minutes / 60),
        When::Every { minutes } => format!("every {minutes} min"),
        When::Daily { time, weekdays } if weekdays.is_empty() => format!("daily at {time}"),
        When::Daily { time, weekdays } => format!("at {time} on {}", weekdays.join(", ")),
        When::Cron { expr } => format!("cron {expr}"),
    }
}

fn line(s: &ScheduleInfo) -> String {
    let next = s
        .next_run
        .map(|n| super::local(n, &s.tz))
        .unwrap_or_else(|| "never".into());
    format!(
        "{} {} — {} ({}; next {next}{})",
        short_id(&s.id),
        s.instruction,
        describe(&s.when),
        s.tz,
        if s.paused { "; paused" } else { "" }
    )
}

pub struct ScheduleCreateTool;

#[async_trait]
impl Tool for ScheduleCreateTool {
    fn name(&self) -> &str {
        "schedule_create"
    }
    fn description(&self) -> &str {
        "Schedule the user's instruction (verbatim) to run as a background task; tz: IANA, default the user's; allow: write/exec/network/mcp without asking."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "instruction": {"type": "string"},
            "when": {"type": "object", "description":
                "{kind:once,at:RFC3339} {kind:every,minutes} {kind:daily,time:HH:MM,weekdays?:[mon..]} {kind:cron,expr}"},
            "tz": {"type": "string"},
            "allow": {"type": "array", "items": {"type": "string"}}},
            "required": ["instruction", "when"]})
    }
    fn capabilities(&self, args: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        attended(ctx, "create or cancel schedules")?;
        let when = when_of(args)?;
        let tz = args
            .get("tz")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(super::when::local_zone_name);
        super::when::validate(&when, &tz).map_err(|e| ToolError::InvalidArgs(e.to_string()))?;
        Ok(vec![Capability::Task {
            action: TaskAction::Schedule,
            subject: format!(
                "“{}” {} ({tz})",
                arg_str(args, "instruction")?,
                describe(&when)
            ),
            allow: allow_of(args)?,
        }])
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let s = brain(ctx)?
            .create_schedule(ScheduleRequest {
                instruction: arg_str(&args, "instruction")?.to_string(),
                when: when_of(&args)?,
                tz: args.get("tz").and_then(Value::as_str).map(str::to_string),
                allow: allow_of(&args)?,
                notify: Default::default(),
            })
            .map_err(failed)?;
        Ok(ToolOutput {
            content: format!("scheduled: {}", line(&s)),
            summary: format!("scheduled {}", describe(&s.when)),
        })
    }
}

pub struct ScheduleListTool;

#[async_trait]
impl Tool for ScheduleListTool {
    fn name(&self) -> &str {
        "schedule_list"
    }
    fn description(&self) -> &str {
        "The user's schedules with their next run."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    fn capabilities(
        &self,
        _args: &Value,
        _ctx: &ToolContext,
    ) -> Result<Vec<Capability>, ToolError> {
        Ok(vec![Capability::Task {
            action: TaskAction::Read,
            subject: "schedules".into(),
            allow: vec![],
        }])
    }
    async fn execute(&self, ctx: &ToolContext, _args: Value) -> Result<ToolOutput, ToolError> {
        let list = brain(ctx)?.schedules().map_err(failed)?;
        Ok(ToolOutput {
            content: if list.is_empty() {
                "no schedules".into()
            } else {
                list.iter().map(line).collect::<Vec<_>>().join("\n")
            },
            summary: format!("{} schedules", list.len()),
        })
    }
}

pub struct ScheduleCancelTool;

#[async_trait]
impl Tool for ScheduleCancelTool {
    fn name(&self) -> &str {
        "schedule_cancel"
    }
    fn description(&self) -> &str {
        "Cancel a schedule by id."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"schedule_id": {"type": "string"}},
            "required": ["schedule_id"]})
    }
    fn capabilities(&self, args: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        attended(ctx, "create or cancel schedules")?;
        Ok(vec![Capability::Task {
            action: TaskAction::Cancel,
            subject: format!("schedule {}", arg_str(args, "schedule_id")?),
            allow: vec![],
        }])
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let s = brain(ctx)?
            .cancel_schedule(arg_str(&args, "schedule_id")?)
            .map_err(failed)?;
        Ok(ToolOutput {
            content: format!(
                "cancelled the schedule {} ({})",
                short_id(&s.id),
                s.instruction
            ),
            summary: "schedule cancelled".into(),
        })
    }
}
