//! One turn: stream, run the requested tools through the gate, feed results
//! back, repeat until a plain answer, the round limit, a loop, or a cancel.

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::future::join_all;
use jarvis_protocol::{Event, StopReason, ToolStatus, Usage};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::Inner;
use super::context::{self, estimate_tokens};
use super::prompt::system_prompt;
use crate::llm::{ChatMessage, LlmError, Role, StreamDelta, ToolCall};
use crate::policy::CallOutcome;

/// The same call this many times in a row is not run again.
const MAX_IDENTICAL_CALLS: u32 = 3;

fn signature(call: &ToolCall) -> String {
    let args = serde_json::from_str::<Value>(&call.arguments)
        .map(|v| v.to_string())
        .unwrap_or_else(|_| call.arguments.clone());
    format!("{}\u{0}{args}", call.name)
}

struct Turn<'a> {
    inner: &'a Arc<Inner>,
    session: &'a str,
    turn_id: String,
    cancel: CancellationToken,
    /// Content from a tool is in the conversation the model sees.
    tainted: std::sync::atomic::AtomicBool,
}

/// Tools whose result carries outside content (a file, a page, a command's
/// output, an MCP server's answer) into the conversation.
fn brings_content(tool: &str) -> bool {
    !matches!(
        tool,
        "open_view" | "local_write_file" | "create_skill" | "create_tool" | "create_mcp"
    )
}

impl Turn<'_> {
    fn emit(&self, event: Event) {
        self.inner.events.emit(Some(self.session), event);
    }

    fn persist(&self, msg: &ChatMessage) {
        if let Err(e) = self
            .inner
            .store
            .append_message(self.session, &self.turn_id, msg)
        {
            self.emit(Event::Error {
                message: format!("could not save the conversation: {e}"),
                fatal: false,
            });
        }
    }

    /// Says something that did not come from the model (limits, loops), and keeps it.
    fn say(&self, text: String, current: &mut Vec<ChatMessage>) {
        self.emit(Event::ContentDelta { text: text.clone() });
        let msg = ChatMessage::assistant(text);
        self.persist(&msg);
        current.push(msg);
    }

    fn finished(&self, call: &ToolCall, out: &CallOutcome) {
        // A failed call still carries outside text (stderr, an error page);
        // only a refusal is purely Jarvis's own words.
        if out.status != ToolStatus::Refused && brings_content(&call.name) {
            self.tainted
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
        self.emit(Event::ToolCallFinished {
            call_id: call.id.clone(),
            name: call.name.clone(),
            status: out.status,
            duration_ms: out.duration_ms,
            summary: out.summary.clone(),
        });
        self.persist(&ChatMessage::tool(&call.id, &out.content));
        if call.name == "local_read_file" && out.status == ToolStatus::Ok {
            self.count_skill_use(call);
        }
    }

    /// Reading a SKILL.md is using that skill.
    fn count_skill_use(&self, call: &ToolCall) {
        let Some(raw) = serde_json::from_str::<Value>(&call.arguments)
            .ok()
            .and_then(|v| v["path"].as_str().map(str::to_string))
        else {
            return;
        };
        let Ok(path) = crate::tools::paths::resolve(&self.inner.workdir(), &raw) else {
            return;
        };
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        if let Some(skill) = self
            .inner
            .skills()
            .skills
            .into_iter()
            .find(|s| s.location == path)
            && let Err(e) = self.inner.store.record_skill_use(&skill.name)
        {
            tracing::warn!("could not count the use of {}: {e}", skill.name);
        }
    }

    fn cancelled_outcome(call: &ToolCall) -> CallOutcome {
        CallOutcome {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            status: ToolStatus::Cancelled,
            content: "cancelled by the user before it ran.".into(),
            summary: "cancelled".into(),
            duration_ms: 0,
            read_only: true,
        }
    }

    /// Runs a round's calls: consecutive read-only calls together, others one
    /// at a time in order. Every call gets exactly one result.
    async fn run_calls(&self, calls: &[ToolCall], refused: &HashMap<String, String>) {
        let inner = self.inner;
        let registry = inner.registry();
        let registry = &registry;
        let mut i = 0;
        while i < calls.len() {
            if self.cancel.is_cancelled() {
                for c in &calls[i..] {
                    self.finished(c, &Self::cancelled_outcome(c));
                }
                return;
            }
            if let Some(reason) = refused.get(&calls[i].id) {
                let out = CallOutcome {
                    call_id: calls[i].id.clone(),
                    tool: calls[i].name.clone(),
                    status: ToolStatus::Refused,
                    content: reason.clone(),
                    summary: "stopped: repeated identical call".into(),
                    duration_ms: 0,
                    read_only: true,
                };
                self.finished(&calls[i], &out);
                i += 1;
                continue;
            }
            let mut j = i;
            while j < calls.len()
                && !refused.contains_key(&calls[j].id)
                && self.read_only(&calls[j])
            {
                j += 1;
            }
            let batch = if j > i { &calls[i..j] } else { &calls[i..=i] };
            let tainted = self.tainted.load(std::sync::atomic::Ordering::SeqCst);
            let runs = batch.iter().map(|c| {
                let mut ctx = inner.tool_context(Some(self.session), &c.id, self.cancel.clone());
                ctx.tainted = tainted;
                async move { inner.gate.run(registry, &c.name, &c.arguments, &ctx).await }
            });
            for (c, out) in batch.iter().zip(join_all(runs).await) {
                self.finished(c, &out);
            }
            i += batch.len();
        }
    }

    fn read_only(&self, call: &ToolCall) -> bool {
        let Some(tool) = self.inner.registry().get(&call.name) else {
            return false;
        };
        let Ok(args) = serde_json::from_str::<Value>(&call.arguments) else {
            return false;
        };
        let ctx = self
            .inner
            .tool_context(Some(self.session), &call.id, self.cancel.clone());
        tool.capabilities(&args, &ctx)
            .map(|caps| caps.iter().all(|c| c.is_read_only()))
            .unwrap_or(false)
    }
}

pub(crate) async fn run(
    inner: &Arc<Inner>,
    session: &str,
    text: String,
    cancel: CancellationToken,
) {
    let turn = Turn {
        inner,
        session,
        turn_id: uuid::Uuid::new_v4().to_string(),
        cancel,
        tainted: std::sync::atomic::AtomicBool::new(false),
    };
    // config.json may have changed since (the CLI, the app, create_mcp):
    // each turn starts from what is on disk; a broken file keeps the last good one.
    match inner.config_store.load() {
        Ok(fresh) if fresh != inner.config() => {
            if let Err(e) = inner.apply(fresh) {
                turn.emit(Event::Notice {
                    message: format!("config.json not applied: {e}"),
                });
            }
        }
        Ok(_) => {}
        Err(e) => turn.emit(Event::Notice {
            message: format!("config.json not applied: {e}"),
        }),
    }
    let cfg = inner.config();
    if let Err(e) = inner.store.start_turn(&turn.turn_id, session) {
        turn.emit(Event::Error {
            message: format!("could not save the conversation: {e}"),
            fatal: true,
        });
    }
    turn.emit(Event::TurnStarted {
        turn_id: turn.turn_id.clone(),
    });
    let history = match inner.store.messages(session) {
        Ok(h) => h,
        Err(e) => {
            turn.emit(Event::Error {
                message: format!("could not load the conversation: {e}"),
                fatal: true,
            });
            vec![]
        }
    };
    // An earlier turn's tool results are still in what the model reads.
    if history.iter().any(|m| m.message.role == Role::Tool) {
        turn.tainted
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }
    let user = ChatMessage::user(text);
    turn.persist(&user);
    let mut current = vec![user];
    inner
        .mcp
        .refresh(&cfg.mcp_servers, &inner.mcp_confinement())
        .await;
    let mut tools = inner.offered(&cfg).openai_tools();
    let mut tools_tokens = estimate_tokens(&Value::from(tools.clone()).to_string());
    let llm = inner.llm();
    let mut usage = Usage::default();
    let mut rounds = 0u32;
    let mut last_sig: Option<String> = None;
    let mut repeats = 0u32;
    let mut warned_budget = false;

    let stop = loop {
        if turn.cancel.is_cancelled() {
            break StopReason::Cancelled;
        }
        if rounds >= cfg.llm.max_rounds {
            turn.say(
                format!(
                    "I stopped after {} rounds of tool calls without reaching an answer. \
                     Tell me how to continue, or ask for a smaller step.",
                    cfg.llm.max_rounds
                ),
                &mut current,
            );
            break StopReason::MaxRounds;
        }
        rounds += 1;
        if rounds > 1 {
            // A tool created in the last round is callable in this one.
            tools = inner.offered(&cfg).openai_tools();
            tools_tokens = estimate_tokens(&Value::from(tools.clone()).to_string());
        }
        // Skills are discovered per request, so a skill added, changed or
        // removed on disk shows in the very next request.
        let mut system = system_prompt(&cfg.persona, &inner.workdir());
        for (server, why) in inner.mcp.failures() {
            system.push_str(&format!(
                "\n\nThe MCP server {server} is unavailable: {why}."
            ));
        }
        let section = crate::skills::catalog::prompt_section(
            &inner.enabled_skills(),
            cfg.skills.prompt_budget,
        );
        if !section.is_empty() {
            system.push_str("\n\n");
            system.push_str(&section);
        }
        let (request, report) = context::build(
            &system,
            &history,
            &current,
            tools_tokens,
            cfg.llm.context_window,
        );
        if (report.dropped_turns > 0 || report.cut_results > 0) && !warned_budget {
            warned_budget = true;
            tracing::info!(?report, "request fitted to the context window");
        }
        let mut call_ids: HashMap<usize, String> = HashMap::new();
        let mut on_delta = |d: StreamDelta| match d {
            StreamDelta::Content(text) => turn.emit(Event::ContentDelta { text }),
            StreamDelta::Reasoning(text) => turn.emit(Event::ReasoningDelta { text }),
            StreamDelta::ToolCallStarted { slot, id, name } => {
                call_ids.insert(slot, id.clone());
                turn.emit(Event::ToolCallStarted { call_id: id, name });
            }
            StreamDelta::ToolCallArguments { slot, delta } => {
                let call_id = call_ids.get(&slot).cloned().unwrap_or_default();
                turn.emit(Event::ToolCallArgumentsDelta { call_id, delta });
            }
        };
        let answer = match llm
            .stream_chat(&request, &tools, &turn.cancel, &mut on_delta)
            .await
        {
            Ok(a) => a,
            Err(LlmError::Cancelled) => break StopReason::Cancelled,
            Err(e) => {
                turn.emit(Event::Error {
                    message: e.to_string(),
                    fatal: true,
                });
                break StopReason::Failed;
            }
        };
        if let Some(u) = &answer.usage {
            usage.add(u);
        }
        let content = answer.content.clone().or_else(|| answer.refusal.clone());
        let assistant = ChatMessage {
            role: Role::Assistant,
            content,
            tool_calls: answer.tool_calls.clone(),
            tool_call_id: None,
        };
        turn.persist(&assistant);
        current.push(assistant);
        if answer.tool_calls.is_empty() {
            if answer.finish_reason.as_deref() == Some("length") {
                turn.emit(Event::Notice {
                    message: "the answer was cut off by the model's length limit".into(),
                });
            }
            break StopReason::Completed;
        }
        let mut refused = HashMap::new();
        let mut looped = false;
        for call in &answer.tool_calls {
            let sig = signature(call);
            if last_sig.as_deref() == Some(sig.as_str()) {
                repeats += 1;
            } else {
                repeats = 1;
                last_sig = Some(sig);
            }
            if repeats >= MAX_IDENTICAL_CALLS {
                looped = true;
                refused.insert(
                    call.id.clone(),
                    format!(
                        "error: this exact {} call was already made {} times in a row; it was not run again. Stop repeating it.",
                        call.name,
                        repeats - 1
                    ),
                );
            }
        }
        turn.run_calls(&answer.tool_calls, &refused).await;
        // Results were saved one by one; mirror them into this turn's context.
        if let Ok(all) = inner.store.messages(session) {
            current = all
                .into_iter()
                .filter(|m| m.turn_id == turn.turn_id)
                .map(|m| m.message)
                .collect();
        }
        if turn.cancel.is_cancelled() {
            break StopReason::Cancelled;
        }
        if looped {
            turn.say(
                "I stopped because I kept making the same tool call without progress.".into(),
                &mut current,
            );
            break StopReason::Repetition;
        }
    };
    if let Err(e) = inner
        .store
        .finish_turn(&turn.turn_id, stop_label(stop), &usage, rounds)
    {
        turn.emit(Event::Error {
            message: format!("could not save the turn: {e}"),
            fatal: false,
        });
    }
    turn.emit(Event::TurnFinished {
        turn_id: turn.turn_id.clone(),
        stop,
        usage,
        rounds,
    });
}

fn stop_label(s: StopReason) -> &'static str {
    match s {
        StopReason::Completed => "completed",
        StopReason::MaxRounds => "max_rounds",
        StopReason::Repetition => "repetition",
        StopReason::Cancelled => "cancelled",
        StopReason::Failed => "failed",
    }
}
