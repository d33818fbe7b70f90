//! `open_view`: the agent drives the HUD through an `Action` event.

use async_trait::async_trait;
use jarvis_protocol::{Event, UiAction};
use serde_json::{Value, json};

use super::{Capability, Tool, ToolContext, ToolError, ToolOutput, arg_str};

pub use jarvis_protocol::VIEWS;

pub struct OpenViewTool;

#[async_trait]
impl Tool for OpenViewTool {
    fn name(&self) -> &str {
        "open_view"
    }
    fn description(&self) -> &str {
        "Show a HUD view: cockpit, chat, runs, tasks ({task: ID}), schedules, skills, audit, grants, settings."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "view": {"type": "string", "enum": VIEWS},
            "params": {"type": "object"}},
            "required": ["view"], "additionalProperties": false})
    }
    fn capabilities(&self, args: &Value, _ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        let view = arg_str(args, "view")?;
        if !VIEWS.contains(&view) {
            return Err(ToolError::InvalidArgs(format!(
                "unknown view {view:?}; views: {}",
                VIEWS.join(", ")
            )));
        }
        Ok(vec![Capability::Ui])
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let view = arg_str(&args, "view")?.to_string();
        ctx.events.emit(
            ctx.session_id.as_deref(),
            Event::Action {
                action: UiAction::Navigate {
                    view: view.clone(),
                    params: args.get("params").cloned().unwrap_or(Value::Null),
                },
            },
        );
        Ok(ToolOutput {
            content: format!("the HUD now shows {view}"),
            summary: format!("opened {view}"),
        })
    }
}
