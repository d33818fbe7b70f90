//! One turn: stream, run the requested tools through the gate, feed results
//! back, repeat until a plain answer, the round limit, a loop, or a cancel.

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::future::join_all;
use jarvis_protocol::{ApprovalMode, Event, StopReason, ToolStatus, Usage};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::Inner;
use super::context::{self, estimate_tokens};
use super::prompt::system_prompt;
use super::repeats::Repeats;
use super::runs::Run;
use crate::llm::{ChatMessage, LlmError, Role, StreamDelta, ToolCall};
use crate::policy::CallOutcome;
use crate::policy::MAX_UNANSWERED;

pub(super) struct Turn<'a> {
    pub(super) inner: &'a Arc<Inner>,
    pub(super) session: &'a str,
    turn_id: String,
    pub(super) cancel: CancellationToken,
    pub(super) run: &'a Run,
    /// Tool results of the round in progress, in call order.
    results: std::sync::Mutex<Vec<ChatMessage>>,
    /// Content from a tool is in the conversation the model sees.
    tainted: std::sync::atomic::AtomicBool,
    /// The tools this turn's calls used, for the repetition detector.
    used: std::sync::Mutex<Vec<String>>,
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
    pub(super) fn emit(&self, event: Event) {
        if let Event::Error {
            message,
            fatal: true,
        } = &event
        {
            self.run.facts.record_error(message);
        }
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
        if let Ok(mut used) = self.used.lock()
            && !used.contains(&call.name)
        {
            used.push(call.name.clone());
        }
        // A failed call still carries outside text (stderr, an error page);
        // only a refusal is purely Jarvis's own words.
        if out.status != ToolStatus::Refused && brings_content(&call.name) {
            self.tainted
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
        super::runs::emit_call(
            self.inner,
            self.session,
            Event::ToolCallFinished {
                call_id: call.id.clone(),
                name: call.name.clone(),
                status: out.status,
                duration_ms: out.duration_ms,
                summary: out.summary.clone(),
            },
        );
        let msg = ChatMessage::tool(&call.id, &out.content);
        self.persist(&msg);
        if let Ok(mut r) = self.results.lock() {
            r.push(msg);
        }
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
        let Ok(path) = crate::tools::paths::resolve(&self.run.workdir, &raw) else {
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

    fn stopped_outcome(call: &ToolCall) -> CallOutcome {
        CallOutcome {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            status: ToolStatus::Refused,
            content: format!(
                "not run: the run stopped after {MAX_UNANSWERED} steps needed an approval nobody could give."
            ),
            summary: "not run: the run stopped".into(),
            duration_ms: 0,
            read_only: true,
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
    async fn run_calls(
        &self,
        registry: &crate::tools::ToolRegistry,
        calls: &[ToolCall],
        refused: &HashMap<String, String>,
    ) {
        let inner = self.inner;
        let mut i = 0;
        while i < calls.len() {
            if self.cancel.is_cancelled() {
                for c in &calls[i..] {
                    self.finished(c, &Self::cancelled_outcome(c));
                }
                return;
            }
            // The third refusal ends the run: nothing after it runs.
            if self.run.facts.needed().len() >= MAX_UNANSWERED {
                for c in &calls[i..] {
                    self.finished(c, &Self::stopped_outcome(c));
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
                && self.read_only(registry, &calls[j])
            {
                j += 1;
            }
            let batch = if j > i { &calls[i..j] } else { &calls[i..=i] };
            let tainted = self.tainted.load(std::sync::atomic::Ordering::SeqCst);
            let runs = batch.iter().map(|c| {
                let mut ctx = self.tool_context(&c.id);
                ctx.tainted = tainted;
                async move { inner.gate.run(registry, &c.name, &c.arguments, &ctx).await }
            });
            for (c, out) in batch.iter().zip(join_all(runs).await) {
                self.finished(c, &out);
            }
            i += batch.len();
        }
    }

    /// The tools of this run: what exists now, narrowed to the run's list.
    fn registry(&self) -> crate::tools::ToolRegistry {
        let mut all = self.inner.registry();
        if let Some(only) = &self.run.spec.tools {
            all.retain(|name| only.iter().any(|n| n == name));
        }
        all
    }

    /// The tools the model is offered in this run.
    fn offered(
        &self,
        registry: &crate::tools::ToolRegistry,
        cfg: &crate::config::Config,
    ) -> Vec<Value> {
        // `registry` is this run's already (see `registry`).
        self.inner.offered_from(registry, cfg).openai_tools()
    }

    fn tool_context(&self, call_id: &str) -> crate::tools::ToolContext {
        let mut ctx = self
            .inner
            .tool_context(Some(self.session), call_id, self.cancel.clone());
        ctx.workdir = self.run.workdir.clone();
        ctx.run = self.run.facts.clone();
        ctx
    }

    fn read_only(&self, registry: &crate::tools::ToolRegistry, call: &ToolCall) -> bool {
        let Some(tool) = registry.get(&call.name) else {
            return false;
        };
        let Ok(args) = serde_json::from_str::<Value>(&call.arguments) else {
            return false;
        };
        let ctx = self.tool_context(&call.id);
        tool.capabilities(&args, &ctx)
            .map(|caps| caps.iter().all(|c| c.is_read_only()))
            .unwrap_or(false)
    }
}

/// config.json may have changed since (the CLI, the app, create_mcp): each
/// turn starts from what is on disk; a broken file keeps the last good one.
fn reload_config(turn: &Turn<'_>) {
    let inner = turn.inner;
    let problem = match inner.config_store.load() {
        Ok(fresh) if fresh != inner.config() => inner.apply(fresh).err().map(|e| e.to_string()),
        Ok(_) => None,
        Err(e) => Some(e.to_string()),
    };
    if let Some(e) = problem {
        turn.emit(Event::Notice {
            message: format!("config.json not applied: {e}"),
        });
    }
}

/// The system prompt of one request: persona and working directory, the
/// servers that are unavailable, the skills catalog.
fn build_system(turn: &Turn<'_>, cfg: &crate::config::Config) -> String {
    let inner = turn.inner;
    let mut system = system_prompt(&cfg.persona, &turn.run.workdir);
    for (server, why) in inner.mcp.failures() {
        system.push_str(&format!(
            "\n\nThe MCP server {server} is unavailable: {why}."
        ));
    }
    system.push_str(&crate::evolve::reflect::limits(cfg));
    let memory = inner.memory_section();
    if !memory.is_empty() {
        system.push_str("\n\n");
        system.push_str(&memory);
    }
    let section =
        crate::skills::catalog::prompt_section(&inner.enabled_skills(), cfg.skills.prompt_budget);
    if !section.is_empty() {
        system.push_str("\n\n");
        system.push_str(&section);
    }
    system
}

/// What one request to the model gave: the answer, or why the turn stops.
async fn request(
    turn: &Turn<'_>,
    request: &[ChatMessage],
    tools: &[Value],
    forced: Option<&str>,
) -> Result<crate::llm::Assembled, StopReason> {
    let mut call_ids: HashMap<usize, String> = HashMap::new();
    let mut on_delta = |d: StreamDelta| match d {
        StreamDelta::Content(text) => turn.emit(Event::ContentDelta { text }),
        StreamDelta::Reasoning(text) => turn.emit(Event::ReasoningDelta { text }),
        StreamDelta::ToolCallStarted { slot, id, name } => {
            call_ids.insert(slot, id.clone());
            let started = Event::ToolCallStarted { call_id: id, name };
            super::runs::emit_call(turn.inner, turn.session, started);
        }
        StreamDelta::ToolCallArguments { slot, delta } => {
            let call_id = call_ids.get(&slot).cloned().unwrap_or_default();
            turn.emit(Event::ToolCallArgumentsDelta { call_id, delta });
        }
    };
    let llm = match turn
        .inner
        .llm_ready(|message| turn.emit(Event::Notice { message }))
        .await
    {
        Ok(l) => l,
        Err(e) => {
            turn.emit(Event::Error {
                message: e.to_string(),
                fatal: true,
            });
            return Err(StopReason::Failed);
        }
    };
    match llm
        .stream_chat_choosing(request, tools, forced, &turn.cancel, &mut on_delta)
        .await
    {
        Ok(a) => Ok(a),
        Err(LlmError::Cancelled) => Err(StopReason::Cancelled),
        Err(e) => {
            let embedded =
                turn.inner.config().llm.provider == jarvis_protocol::settings::Provider::Embedded;
            let lost = matches!(
                e,
                LlmError::Connect { .. }
                    | LlmError::Sse(_)
                    | LlmError::Truncated { .. }
                    | LlmError::RetriesExhausted { .. }
            );
            let message = if embedded && lost {
                format!(
                    "the embedded engine stopped during the answer ({e}); it starts again with the next message"
                )
            } else {
                e.to_string()
            };
            turn.emit(Event::Error {
                message,
                fatal: true,
            });
            Err(StopReason::Failed)
        }
    }
}

/// Starts the turn's record and loads its history; a store that cannot do
/// either stops the turn (a fatal error ends it).
fn begin(turn: &Turn<'_>) -> Result<Vec<crate::store::StoredMessage>, StopReason> {
    let inner = turn.inner;
    let fatal = |what: &str, e: crate::store::StoreError| {
        turn.emit(Event::Error {
            message: format!("could not {what}: {e}"),
            fatal: true,
        });
        StopReason::Failed
    };
    inner
        .store
        .start_turn(&turn.turn_id, turn.session)
        .map_err(|e| fatal("save the conversation", e))?;
    inner
        .store
        .messages(turn.session)
        .map_err(|e| fatal("load the conversation", e))
}

pub(crate) async fn run(inner: &Arc<Inner>, mut run: Run) {
    let outcome = run.outcome.take();
    let turn = Turn {
        inner,
        session: &run.spec.session_id,
        turn_id: run.turn_id.clone(),
        cancel: run.cancel.clone(),
        run: &run,
        results: std::sync::Mutex::new(vec![]),
        tainted: std::sync::atomic::AtomicBool::new(false),
        used: std::sync::Mutex::new(vec![]),
    };
    // `TurnStarted` went out when the run took its session.
    reload_config(&turn);
    let (stop, usage, rounds) = match begin(&turn) {
        Ok(history) => rounds(&turn, history, run.text.clone()).await,
        Err(stop) => (stop, Usage::default(), 0),
    };
    let stop = turn.unanswered(stop);
    if let Err(e) = inner
        .store
        .finish_turn(&turn.turn_id, stop_label(stop), &usage, rounds)
    {
        turn.emit(Event::Error {
            message: format!("could not save the turn: {e}"),
            fatal: false,
        });
    }
    // The user's own request: kept, and perhaps a skill proposal now.
    if crate::evolve::counts(
        run.spec.origin,
        turn.run.facts.approval == ApprovalMode::Interactive,
    ) {
        let used = turn.used.lock().map(|u| u.clone()).unwrap_or_default();
        crate::evolve::after_turn(inner, &turn.turn_id, &used);
    }
    // The session is free when the end is told: a host that sees it may
    // start the next turn at once.
    let answer = outcome.as_ref().and_then(|_| last_answer(inner, &turn));
    super::runs::finish(
        inner,
        turn.session,
        &turn.turn_id,
        Event::TurnFinished {
            turn_id: turn.turn_id.clone(),
            stop,
            usage,
            rounds,
        },
    );
    if let Some(tx) = outcome {
        let _ = tx.send(super::runs::RunOutcome {
            stop,
            usage,
            rounds,
            answer,
            needs: run.facts.needed_kinds(),
            error: run.facts.last_error(),
        });
    }
}

/// The model's last words in this turn, as saved.
fn last_answer(inner: &Inner, turn: &Turn<'_>) -> Option<String> {
    let messages = inner.store.messages(turn.session).ok()?;
    messages
        .into_iter()
        .rev()
        .filter(|m| m.turn_id == turn.turn_id && m.message.role == Role::Assistant)
        .find_map(|m| m.message.content.filter(|c| !c.trim().is_empty()))
}

impl Turn<'_> {
    /// A run that nobody could answer ends `needs_approval`, said once.
    fn unanswered(&self, stop: StopReason) -> StopReason {
        let needed = self.run.facts.needed();
        if needed.is_empty() {
            return stop;
        }
        self.emit(Event::Notice {
            message: format!(
                "A {} run needed your approval and went on without it: {}",
                self.run.spec.origin.as_str(),
                needed.join("; ")
            ),
        });
        // A cancel or a failure says more about how the run ended.
        match stop {
            StopReason::Cancelled | StopReason::Failed => stop,
            _ => StopReason::NeedsApproval,
        }
    }
}

/// What the rounds start from: the history to send (after any summary),
/// the summary's prompt section, the turn so far, its usage so far.
struct Start {
    history: Vec<crate::store::StoredMessage>,
    summary: String,
    current: Vec<ChatMessage>,
    usage: Usage,
}

/// Saves the user's words, waits briefly for MCP servers, and fits a long
/// conversation into the window (summarising what would be dropped).
async fn start(
    turn: &Turn<'_>,
    cfg: &crate::config::Config,
    history: Vec<crate::store::StoredMessage>,
    text: String,
) -> Start {
    let inner = turn.inner;
    // An earlier turn's tool results are still in what the model reads.
    if history.iter().any(|m| m.message.role == Role::Tool) {
        turn.tainted
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }
    if crate::evolve::counts(
        turn.run.spec.origin,
        turn.run.facts.approval == ApprovalMode::Interactive,
    ) {
        crate::evolve::notice(inner, turn.session, &turn.turn_id, &text);
    }
    let user = ChatMessage::user(text);
    turn.persist(&user);
    let current = vec![user];
    // Servers start in the background; one still starting may hold the turn
    // only this long.
    inner
        .mcp
        .ensure(
            &cfg.mcp_servers,
            &inner.mcp_confinement(),
            std::time::Duration::from_millis(200),
        )
        .await;
    let mut usage = Usage::default();
    let (history, summary) = super::compact::apply_stored(turn, history);
    let registry = turn.registry();
    let tools = turn.offered(&registry, cfg);
    let system = build_system(turn, cfg);
    let (history, summary) = super::compact::fit(
        turn, &system, history, summary, &current, &tools, &mut usage,
    )
    .await;
    Start {
        history,
        summary: summary
            .map(|s| super::compact::section(&s))
            .unwrap_or_default(),
        current,
        usage,
    }
}

/// After a round's calls: why the turn stops now, if it does.
fn after_calls(
    turn: &Turn<'_>,
    looped: bool,
    current: &mut Vec<ChatMessage>,
) -> Option<StopReason> {
    if turn.cancel.is_cancelled() {
        return Some(StopReason::Cancelled);
    }
    if turn.run.facts.needed().len() >= MAX_UNANSWERED {
        turn.say(
            format!(
                "I stopped: {MAX_UNANSWERED} steps needed an approval nobody could give in this run."
            ),
            current,
        );
        return Some(StopReason::NeedsApproval);
    }
    if looped {
        turn.say(
            "I stopped because I kept making the same tool call without progress.".into(),
            current,
        );
        return Some(StopReason::Repetition);
    }
    None
}

/// The rounds of one turn: request, run the calls, until an answer or a stop.
async fn rounds(
    turn: &Turn<'_>,
    history: Vec<crate::store::StoredMessage>,
    text: String,
) -> (StopReason, Usage, u32) {
    let cfg = turn.inner.config();
    let words = text.clone();
    let Start {
        history,
        summary,
        mut current,
        mut usage,
    } = start(turn, &cfg, history, text).await;
    let max_rounds = turn.run.spec.max_rounds.unwrap_or(cfg.llm.max_rounds);
    let mut rounds = 0u32;
    let mut repeats = Repeats::default();
    let stop = loop {
        if turn.cancel.is_cancelled() {
            break StopReason::Cancelled;
        }
        if rounds >= max_rounds {
            turn.say(
                format!(
                    "I stopped after {max_rounds} rounds of tool calls without reaching an answer. \
                     Tell me how to continue, or ask for a smaller step."
                ),
                &mut current,
            );
            break StopReason::MaxRounds;
        }
        rounds += 1;
        // Built once per round, so created tools are read and hashed once:
        // a tool created in the last round is callable in this one.
        let registry = turn.registry();
        let tools = turn.offered(&registry, &cfg);
        let tools_tokens = estimate_tokens(&Value::from(tools.clone()).to_string());
        // Skills are discovered per request, so a skill added, changed or
        // removed on disk shows in the very next request.
        let system = build_system(turn, &cfg) + &summary;
        let (req, _) = context::build(&system, &history, &current, tools_tokens, cfg.llm.window());
        if let Some(why) = super::spend::before_request(turn, &usage, rounds) {
            turn.emit(Event::Error {
                message: why,
                fatal: true,
            });
            break StopReason::Failed;
        }
        // `@tool` holds the first request to that tool, and only the first.
        let forced = match (rounds, super::mention::mention(&words, &tools)) {
            (1, super::mention::Mention::Tool(name)) => Some(name),
            (1, super::mention::Mention::Unknown(name)) => {
                turn.emit(Event::Notice {
                    message: format!(
                        "no tool named {name} is offered now (its settings toggle may be off); the model chooses"
                    ),
                });
                None
            }
            _ => None,
        };
        let answer = match request(turn, &req, &tools, forced.as_deref()).await {
            Ok(a) => a,
            Err(stop) => break stop,
        };
        super::spend::after_request(turn, &req, tools_tokens, &answer);
        if let Some(u) = &answer.usage {
            usage.add(u);
        }
        let assistant = ChatMessage {
            role: Role::Assistant,
            content: answer.content.clone().or_else(|| answer.refusal.clone()),
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
        let refused = repeats.refusals(&answer.tool_calls);
        turn.run_calls(&registry, &answer.tool_calls, &refused)
            .await;
        if let Ok(mut results) = turn.results.lock() {
            current.append(&mut results);
        }
        if let Some(stop) = after_calls(turn, !refused.is_empty(), &mut current) {
            break stop;
        }
    };
    (stop, usage, rounds)
}

fn stop_label(s: StopReason) -> &'static str {
    match s {
        StopReason::Completed => "completed",
        StopReason::MaxRounds => "max_rounds",
        StopReason::Repetition => "repetition",
        StopReason::Cancelled => "cancelled",
        StopReason::Failed => "failed",
        StopReason::NeedsApproval => "needs_approval",
    }
}
