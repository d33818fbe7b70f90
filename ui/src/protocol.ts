// Generated from crates/jarvis-protocol by `cargo run -p jarvis-protocol --example typescript`.
// Do not edit: change the Rust types and regenerate.

export type Op = { "op": "user_input", session_id: string, text: string, } | { "op": "cancel_turn", session_id: string, } | { "op": "approval_decision", request_id: string, decision: ApprovalDecision, decided_by: string, } | { "op": "start_run", spec: RunSpec, text: string, } | { "op": "set_workdir", path: string, } | { "op": "reload" } | { "op": "stop_everything", by: string, } | { "op": "resume_everything" };

export type Origin = "chat" | "voice" | "task" | "schedule" | "evolution" | "cli";

export type ApprovalMode = { "mode": "interactive" } | { "mode": "unattended" } | { "mode": "pre_approved", allow: Array<string>, };

export type RunSpec = { origin: Origin, session_id: string, 
/**
 * The brain's working directory when absent.
 */
workdir?: string | null, approval: ApprovalMode, 
/**
 * Rounds of tool calls at most (`llm.max_rounds` when absent).
 */
max_rounds?: number | null, 
/**
 * Only these tools are offered (all that the toggles allow when absent).
 */
tools?: Array<string> | null, 
/**
 * Tokens the run may use at most (the daily budget still holds).
 */
max_tokens?: number | null, };

export type RunInfo = { run_id: string, session_id: string, origin: Origin, approval: ApprovalMode, started_at: number, 
/**
 * The user's words that began it, shortened.
 */
title: string, 
/**
 * The tool it is calling now, if any.
 */
tool: string | null, };

export type Snapshot = { seq: number, runs: Array<RunInfo>, pending_approvals: Array<ApprovalRequest>, };

export type SessionInfo = { id: string, title: string, created_at: number, updated_at: number, messages: number, };

export type TurnUsage = { turn_id: string, stop: string, prompt_tokens: number, completion_tokens: number, total_tokens: number, };

export type AuditRow = { id: number, at: number, call_id: string, session_id: string | null, tool: string, arguments: string, verdict: string, reason: string, decided_by: string, outcome: string | null, duration_ms: number | null, };

export type EventEnvelope = { 
/**
 * Lifecycle events are numbered in the order they were sent; deltas
 * and levels are not.
 */
seq?: number | null, session_id: string | null, } & ({ "type": "turn_started", turn_id: string, } | { "type": "content_delta", text: string, } | { "type": "reasoning_delta", text: string, } | { "type": "tool_call_started", call_id: string, name: string, } | { "type": "tool_call_arguments_delta", call_id: string, delta: string, } | { "type": "tool_call_finished", call_id: string, name: string, status: ToolStatus, duration_ms: number, summary: string, } | { "type": "approval_requested", request: ApprovalRequest, } | { "type": "approval_resolved", request_id: string, decision: ApprovalDecision, decided_by: string, } | { "type": "turn_finished", turn_id: string, stop: StopReason, usage: Usage, rounds: number, } | { "type": "error", message: string, fatal: boolean, } | { "type": "action", action: UiAction, } | { "type": "notice", message: string, } | { "type": "schedule_changed", schedule: ScheduleInfo, } | { "type": "task_changed", task: TaskInfo, } | { "type": "stopped", by: string, turns: number, tasks: number, } | { "type": "resumed" } | { "type": "announcement", id: string, text: string, task_id: string | null, priority: Priority, 
/**
 * Spoken and notified; false in do-not-disturb hours (the chat
 * line still appears).
 */
loud: boolean, } | { "type": "voice_state", state: VoiceState, } | { "type": "voice_mic", capturing: boolean, } | { "type": "voice_level", level: number, } | { "type": "voice_transcript", text: string, language: string, audio_ms: number, } | { "type": "voice_timings", timings: VoiceTimings, } | { "type": "voice_notice", message: string, });

export type Event = { "type": "turn_started", turn_id: string, } | { "type": "content_delta", text: string, } | { "type": "reasoning_delta", text: string, } | { "type": "tool_call_started", call_id: string, name: string, } | { "type": "tool_call_arguments_delta", call_id: string, delta: string, } | { "type": "tool_call_finished", call_id: string, name: string, status: ToolStatus, duration_ms: number, summary: string, } | { "type": "approval_requested", request: ApprovalRequest, } | { "type": "approval_resolved", request_id: string, decision: ApprovalDecision, decided_by: string, } | { "type": "turn_finished", turn_id: string, stop: StopReason, usage: Usage, rounds: number, } | { "type": "error", message: string, fatal: boolean, } | { "type": "action", action: UiAction, } | { "type": "notice", message: string, } | { "type": "schedule_changed", schedule: ScheduleInfo, } | { "type": "task_changed", task: TaskInfo, } | { "type": "stopped", by: string, turns: number, tasks: number, } | { "type": "resumed" } | { "type": "announcement", id: string, text: string, task_id: string | null, priority: Priority, 
/**
 * Spoken and notified; false in do-not-disturb hours (the chat
 * line still appears).
 */
loud: boolean, } | { "type": "voice_state", state: VoiceState, } | { "type": "voice_mic", capturing: boolean, } | { "type": "voice_level", level: number, } | { "type": "voice_transcript", text: string, language: string, audio_ms: number, } | { "type": "voice_timings", timings: VoiceTimings, } | { "type": "voice_notice", message: string, };

export type ToolStatus = "ok" | "error" | "refused" | "cancelled";

export type StopReason = "completed" | "max_rounds" | "repetition" | "cancelled" | "failed" | "needs_approval";

export type Usage = { prompt_tokens: number, completion_tokens: number, total_tokens: number, };

export type UiAction = { "kind": "navigate", view: string, params?: unknown, } | { "kind": "open_panel", panel: string, } | { "kind": "focus", target: string, };

export type ApprovalRequest = { request_id: string, call_id: string, session_id: string | null, tool: string, 
/**
 * The exact command, path or URL, as it will be used.
 */
subject: string, workdir: string, 
/**
 * What the call will do, when the tool can say (a write's size and diff).
 */
details?: string | null, 
/**
 * Why the policy asks.
 */
reason: string, 
/**
 * What "always allow" would cover (a base command or the tool).
 */
grant_scope: string, 
/**
 * "Always allow" is offered (never for what creates skills, tools or
 * MCP servers).
 */
allow_always: boolean, 
/**
 * "Allow with network" is offered: a command that runs without the
 * network unless this one call is given it.
 */
offer_network: boolean, timeout_sec: number, origin: Origin, run_id: string, 
/**
 * When the question expires (a denial), ms since the epoch.
 */
expires_at: number, };

export type ApprovalDecision = { "decision": "allow_once" } | { "decision": "allow_with_network" } | { "decision": "always_allow" } | { "decision": "deny", reason?: string | null, };

export type VoiceState = "idle" | "listening" | "transcribing" | "thinking" | "speaking";

export type VoiceTimings = { 
/**
 * Length of the captured utterance.
 */
audio_ms: number, 
/**
 * Trimming/confirming the utterance with the VAD.
 */
vad_ms: number, stt_ms: number, 
/**
 * From the transcript going to the brain to its first text.
 */
llm_first_text_ms?: number | null, 
/**
 * From the transcript going to the brain to the first whole sentence.
 */
first_sentence_ms?: number | null, 
/**
 * Synthesis of the first sentence.
 */
tts_first_ms?: number | null, 
/**
 * Push-to-talk release to the first reply audio reaching the sink.
 */
release_to_audio_ms?: number | null, 
/**
 * Last speech frame to the first reply audio.
 */
speech_end_to_audio_ms?: number | null, 
/**
 * The whole turn, end of speech to the last audio.
 */
total_ms: number, };

export type ChatMessage = { role: Role, content: string | null, tool_calls?: Array<ToolCall>, tool_call_id?: string | null, };

export type Role = "system" | "user" | "assistant" | "tool";

export type ToolCall = { id: string, name: string, arguments: string, };

export type Skill = { name: string, description: string, dir: string, 
/**
 * The SKILL.md, resolved: what the model reads.
 */
location: string, source: string, warnings: Array<string>, 
/**
 * Sources whose skill of the same name this one hides.
 */
shadows: Array<string>, };

export type SkillListing = { enabled: boolean, valid: boolean, problems: Array<string>, usage_count: number, last_used: number | null, name: string, description: string, dir: string, 
/**
 * The SKILL.md, resolved: what the model reads.
 */
location: string, source: string, warnings: Array<string>, 
/**
 * Sources whose skill of the same name this one hides.
 */
shadows: Array<string>, };

export type Finding = { file: string, line: number, reason: string, text: string, };

export type InstallReport = { name: string, description: string, target: string, exists: boolean, files: Array<[string, number]>, 
/**
 * Where the skill departs from the spec (it still loads).
 */
problems: Array<string>, warnings: Array<string>, findings: Array<Finding>, };

export type SkillTest = { name: string, 
/**
 * Where it departs from the Agent Skills spec.
 */
problems: Array<string>, findings: Array<Finding>, };

export type McpProject = { name: string, dir: string, server_file: string, server_text: string, 
/**
 * Already in config.json's `mcp_servers`.
 */
registered: boolean, };

export type Config = { 
/**
 * Layout version (see [`CONFIG_VERSION`]).
 */
version: number, llm: LlmConfig, persona: Persona, tools: ToolToggles, approvals: Approvals, 
/**
 * The working directory that confines the tools; the current one if unset.
 */
workdir: string | null, granted_roots: Array<string>, approval_timeout_sec: number, sandbox: SandboxConfig, skills: SkillsConfig, 
/**
 * MCP servers by name.
 */
mcp_servers: { [key in string]: McpServerConfig }, voice: VoiceSettings, retention: Retention, tasks: TasksConfig, budget: BudgetConfig, evolve: EvolveConfig, memory: MemoryConfig, };

export type LlmConfig = { 
/**
 * `endpoint`: an OpenAI-compatible server at `base_url`; `embedded`:
 * Jarvis's own engine (the `jarvis-llm` worker) with `local_model`.
 */
provider: Provider, 
/**
 * The GGUF the embedded engine loads.
 */
local_model: string, 
/**
 * The embedded engine's context, in tokens.
 */
local_ctx: number, 
/**
 * Minutes without a request before the embedded engine stops (0: never).
 */
local_idle_min: number, base_url: string, model: string, temperature: number | null, max_rounds: number, 
/**
 * Tokens the server gives a request (prompt + answer).
 */
context_window: number, max_retries: number, connect_timeout_sec: number, idle_timeout_sec: number, };

export type Provider = "endpoint" | "embedded";

export type Persona = { name: string, style: string, };

export type ToolToggles = { 
/**
 * Local file access: list and read.
 */
read: boolean, write: boolean, exec: boolean, 
/**
 * `http_request`.
 */
network: boolean, };

export type Approvals = { auto: Array<string>, };

export type McpServerConfig = { 
/**
 * A streamable-HTTP server's endpoint; when set, `command` is not used.
 */
url: string | null, command: string, args: Array<string>, env: { [key in string]: string }, cwd: string | null, 
/**
 * Its tools run without asking.
 */
trusted: boolean, 
/**
 * The server may use the network (a stdio server runs confined).
 */
network: boolean, startup_timeout_sec: number, call_timeout_sec: number, };

export type SkillsConfig = { 
/**
 * Project or extra skill directories (highest precedence, in order).
 */
extra_dirs: Array<string>, 
/**
 * Characters the catalog may take in the system prompt.
 */
prompt_budget: number, };

export type SandboxConfig = { 
/**
 * Force an older Landlock ABI (0 = the newest the kernel has).
 */
abi: number, 
/**
 * Let every command use the network (otherwise only a call approved
 * "with network" does).
 */
network: boolean, 
/**
 * Run commands unconfined where the sandbox cannot be applied.
 */
allow_unconfined: boolean, 
/**
 * Environment variables passed to commands beyond the built-in list.
 */
env: Array<string>, 
/**
 * More folders commands may read (read-only).
 */
read: Array<string>, };

export type VoiceSettings = { 
/**
 * "auto" or a whisper language code ("en", "zh", ...); also picks the voice.
 */
language: string, 
/**
 * "auto" (Piper when installed, else the system voice), "piper" or "system".
 */
engine: string, 
/**
 * Microphone by name; the system default when unset.
 */
input_device: string | null, 
/**
 * Keep the microphone open between presses (faster start, pre-roll;
 * the mic-in-use light stays on).
 */
keep_mic_warm: boolean, 
/**
 * In conversation mode, silence that ends listening.
 */
silence_timeout_sec: number, 
/**
 * Unload the speech model after this long unused.
 */
stt_idle_unload_sec: number, 
/**
 * The desktop app's global push-to-talk shortcut (held down to talk).
 */
ptt_shortcut: string, 
/**
 * The desktop app's global Stop everything shortcut.
 */
stop_shortcut: string, 
/**
 * Paused from the tray: no listening, no speech.
 */
paused: boolean, 
/**
 * Hours when announcements stay silent, "22:00-07:00"; empty for never.
 */
do_not_disturb: string, };

export type Retention = { 
/**
 * Audit rows older than this many days are deleted.
 */
audit_days: number, 
/**
 * Conversations untouched for this many days are deleted.
 */
messages_days: number, };

export type TasksConfig = { 
/**
 * Tasks running at once, across every Jarvis process; the rest queue.
 */
max_parallel: number, 
/**
 * Finished tasks are forgotten after this many days (0: kept).
 */
keep_days: number, 
/**
 * A task still running after this many minutes is stopped (`timed_out`).
 */
timeout_min: number, };

export type BudgetConfig = { 
/**
 * Tokens a day, every run and side call counted.
 */
daily_tokens: number, 
/**
 * Dollars a day, from `prices`.
 */
daily_cost_usd: number, 
/**
 * By model name; a model without a price (the embedded one) costs 0.
 */
prices: { [key in string]: Price }, 
/**
 * Tokens one task may use (0: only the daily cap).
 */
task_max_tokens: number, 
/**
 * Rounds of tool calls one task may take (0: `llm.max_rounds`).
 */
task_max_rounds: number, };

export type Price = { prompt_per_mtok: number, completion_per_mtok: number, };

export type EvolveConfig = { 
/**
 * Off: requests are not kept and nothing is proposed.
 */
enabled: boolean, 
/**
 * Similar requests a group needs before a skill is proposed.
 */
min_requests: number, 
/**
 * In at least this many conversations.
 */
min_sessions: number, 
/**
 * Within this many days.
 */
window_days: number, 
/**
 * How alike two requests must be to count as one (TF-IDF cosine, 0–1).
 */
similarity: number, };

export type MemoryConfig = { 
/**
 * Characters of memory at most (the prompt carries all of it).
 */
max_chars: number, };

export type ProposalInfo = { id: string, 
/**
 * `pending`, `drafted`, `applied`, `dismissed` or `stale`.
 */
status: string, 
/**
 * The skill's suggested name.
 */
name: string, 
/**
 * The request that says it best, its specifics taken out.
 */
summary: string, 
/**
 * The user's requests in the group, as asked.
 */
requests: Array<string>, 
/**
 * The tools that served them.
 */
tools: Array<string>, created_at: number, 
/**
 * The drafted SKILL.md, once accepted.
 */
draft: string | null, 
/**
 * The Agent Skills validator's problems with the draft.
 */
problems: Array<string>, 
/**
 * The install scan's findings in the draft.
 */
findings: Array<Finding>, 
/**
 * Against the installed skill of that name, when there is one.
 */
diff: string | null, };

export type MemoryItem = { id: string, text: string, 
/**
 * `preference`, `fact` or `do_not_disturb`.
 */
kind: string, 
/**
 * `user`: the user said it; `confirmed`: Jarvis inferred it and the
 * user confirmed it; `suggested`: waiting for the user.
 */
source: string, at: number, };

export type MemoryList = { max_chars: number, 
/**
 * Characters the items in the prompt take.
 */
used_chars: number, 
/**
 * In the prompt, oldest first.
 */
items: Array<MemoryItem>, 
/**
 * Waiting for the user's yes (not in the prompt).
 */
suggested: Array<MemoryItem>, 
/**
 * Pushed out by the bound (listed, not in the prompt).
 */
archived: Array<MemoryItem>, };

export type RadarAxis = { axis: string, 
/**
 * 0 to 1; 0 when there were no samples.
 */
score: number, samples: number, 
/**
 * What was counted, in words.
 */
metric: string, };

export type ReflectReport = { can: Array<string>, cannot: Array<string>, 
/**
 * Figures from the audit, the tasks and the budget ledger, each a
 * line.
 */
did: Array<string>, radar: Array<RadarAxis>, };

export type BudgetReport = { 
/**
 * The local date (`2026-12-01`) in `tz`.
 */
day: string, tz: string, tokens: number, prompt_tokens: number, completion_tokens: number, 
/**
 * Of `tokens`, what was estimated from the text (the server reported none).
 */
estimated_tokens: number, cost_usd: number, requests: number, 
/**
 * 0: no cap.
 */
daily_tokens: number, daily_cost_usd: number, 
/**
 * Tokens by who asked (chat, voice, task, schedule, …).
 */
by_origin: Array<[string, number]>, };

export type AnnouncementInfo = { id: string, text: string, task_id: string | null, priority: Priority, 
/**
 * When it was said (ms).
 */
at: number, };

export type ChangeKind = "created" | "modified" | "deleted";

export type ChangeInfo = { turn_id: string, session_id: string | null, tool: string, 
/**
 * Absolute path.
 */
path: string, kind: ChangeKind, at: number, undone: boolean, };

export type UndoReport = { 
/**
 * Put back as they were before.
 */
restored: Array<string>, 
/**
 * Made by the agent, now gone again.
 */
removed: Array<string>, 
/**
 * Changed since by someone else: left as they are, with the version
 * from before the agent's change written beside them (path, copy).
 */
kept_both: Array<[string, string]>, 
/**
 * What could not be undone, and why.
 */
problems: Array<string>, };

export type TaskInfo = { id: string, 
/**
 * Where it was started from (chat, voice, schedule, cli).
 */
origin: Origin, schedule_id: string | null, 
/**
 * The user's words, verbatim.
 */
instruction: string, status: TaskStatus, 
/**
 * The task's own conversation.
 */
session_id: string, 
/**
 * The conversation that started it, if any: where its chat line goes.
 */
parent_session: string | null, created_at: number, started_at: number | null, finished_at: number | null, 
/**
 * A line or two from its answer.
 */
summary: string | null, 
/**
 * Why it ended as it did, when not plainly.
 */
reason: string | null, usage: Usage, 
/**
 * The Markdown report it wrote, when one was asked for.
 */
report: string | null, 
/**
 * What it may do without a question (approved when it was started).
 */
allow: Array<string>, 
/**
 * Kinds of call that were refused because nobody could approve them.
 */
needs: Array<string>, notify: NotifyPolicy, };

export type TaskStatus = "queued" | "running" | "succeeded" | "failed" | "timed_out" | "cancelled" | "needs_approval" | "refused" | "lost";

export type NotifyPolicy = "done_only" | "state_changes" | "silent";

export type Priority = "low" | "normal" | "high";

export type When = { "kind": "once", at: string, } | { "kind": "every", minutes: number, } | { "kind": "daily", time: string, weekdays: Array<string>, } | { "kind": "cron", expr: string, };

export type ScheduleInfo = { id: string, 
/**
 * The user's words, verbatim.
 */
instruction: string, when: When, 
/**
 * IANA time zone (`Europe/Berlin`).
 */
tz: string, 
/**
 * The next slot, ms since the epoch; none when it will not run again.
 */
next_run: number | null, paused: boolean, 
/**
 * What its runs may do without a question, approved when it was made.
 */
allow: Array<string>, 
/**
 * Runs that failed in a row (five pause it).
 */
failures: number, created_at: number, notify: NotifyPolicy, 
/**
 * The latest slots, newest first.
 */
runs: Array<ScheduleRun>, };

export type ScheduleRun = { 
/**
 * The slot's instant, ms since the epoch.
 */
slot: number, 
/**
 * `started` (then the task's own status), `skipped`.
 */
status: string, task_id: string | null, reason: string | null, };
