// Generated from the Rust types by `cargo run -p jarvis-desktop --example ipc-types --features tauri/custom-protocol`.
// Do not edit: change the Rust types and regenerate.
import type { AnnouncementInfo, AuditRow, BudgetReport, ChangeInfo, ChatMessage, Config, Finding, InstallReport, McpProject, Role, RunInfo, SessionInfo, Skill, SkillListing, SkillTest, ToolCall, TurnUsage, UndoReport, VoiceState } from "./protocol";
export type { AnnouncementInfo, AuditRow, BudgetReport, ChangeInfo, ChatMessage, Config, Finding, InstallReport, McpProject, Role, RunInfo, SessionInfo, Skill, SkillListing, SkillTest, ToolCall, TurnUsage, UndoReport };
export type { Approvals, LlmConfig, McpServerConfig, Persona, Retention, SandboxConfig, SkillsConfig, TasksConfig, ToolToggles, VoiceSettings } from "./protocol";

export type HudState = { views: Array<string>, workdir: string, 
/**
 * Why the tools cannot work in `workdir` (none chosen yet, home, …):
 * the HUD asks for a folder.
 */
workdir_problem: string | null, 
/**
 * The folder offered when one is asked for: `~/Jarvis`.
 */
suggested_workdir: string, 
/**
 * What the brain has to say once (settings migrated from an older
 * Jarvis): taken by the first call, so shown once.
 */
notices: Array<string>, base_url: string, model: string, 
/**
 * The key as it may be shown back: its last characters only.
 */
api_key: string | null, 
/**
 * No settings saved yet: show the three-step setup.
 */
first_run: boolean, shortcut: string, shortcut_problem: string | null, voice: VoiceStatus, engine: EngineStatus, 
/**
 * Stop everything is holding the schedules: who stopped, and when (ms).
 */
stop_hold: StopHold | null, };

export type EngineStatus = { 
/**
 * `embedded` or `endpoint`.
 */
provider: string, 
/**
 * `llm.local_model` as set (a catalog id, a path, or empty: the default).
 */
local_model: string, 
/**
 * The model file the engine would load, when there is one.
 */
model_file: string | null, 
/**
 * Why the engine cannot start now (no model downloaded, …).
 */
problem: string | null, 
/**
 * The context the engine runs with (tokens).
 */
context: number, 
/**
 * A worker is up and answering.
 */
running: boolean, 
/**
 * How fast the last answer came, as the engine measured it.
 */
speed: EngineSpeed | null, models: Array<EngineModel>, };

export type StopHold = { by: string, at: number, };

export type CockpitState = { 
/**
 * Turns and tasks running now, oldest first, each with its tool in flight.
 */
runs: Array<RunInfo>, budget: BudgetReport, 
/**
 * The latest things Jarvis said of its own accord, newest first.
 */
announcements: Array<AnnouncementInfo>, };

export type EngineModel = { name: string, what: string, license: string, 
/**
 * What the download fetches.
 */
bytes: number, installed: boolean, 
/**
 * The one used when `llm.local_model` is empty.
 */
default: boolean, 
/**
 * Added by the user (`models/catalog.json`), not built in.
 */
user: boolean, };

export type EngineSpeed = { model: string, tokens_per_second: number, prompt_tokens_per_second: number, tokens: number, 
/**
 * When the answer ended (ms since the epoch).
 */
at_ms: number, };

export type VoiceStatus = { state: VoiceState, paused: boolean, microphones: Array<string>, models: Array<ModelRow>, 
/**
 * Why voice cannot start, when it cannot.
 */
problem: string | null, };

export type ModelRow = { name: string, what: string, installed: boolean, bytes: number, };

export type HistoryMessage = { turn_id: string, role: Role, content: string | null, tool_calls?: Array<ToolCall>, tool_call_id?: string | null, };

export type Grant = { tool: string, scope: string, };

export type Run = { session_id: string, title: string, updated_at: number, turns: Array<TurnUsage>, calls: Array<AuditRow>, };

export type Inspection = { 
/**
 * Pass back to `install_skill` to confirm.
 */
token: string, report: InstallReport, };

export type Connection = { ok: boolean, models: Array<string>, error: string | null, };

export type SandboxStatus = { ok: boolean, what: string, 
/**
 * `sandbox.allow_unconfined`: shown in red wherever it is on.
 */
allow_unconfined: boolean, };

export type ModelProgress = { model: string, file: string, done: number, total: number | null, };
