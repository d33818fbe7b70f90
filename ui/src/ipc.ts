// Generated from the Rust types by `cargo run -p jarvis-desktop --example ipc-types --features tauri/custom-protocol`.
// Do not edit: change the Rust types and regenerate.
import type { AuditRow, SessionInfo, TurnUsage, VoiceState } from "./protocol";
export type { AuditRow, SessionInfo, TurnUsage };

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
first_run: boolean, shortcut: string, shortcut_problem: string | null, voice: VoiceStatus, };

export type VoiceStatus = { state: VoiceState, paused: boolean, microphones: Array<string>, models: Array<ModelRow>, 
/**
 * Why voice cannot start, when it cannot.
 */
problem: string | null, };

export type ModelRow = { name: string, what: string, installed: boolean, bytes: number, };

export type HistoryMessage = { turn_id: string, role: Role, content: string | null, tool_calls?: Array<ToolCall>, tool_call_id?: string | null, };

export type ChatMessage = { role: Role, content: string | null, tool_calls?: Array<ToolCall>, tool_call_id?: string | null, };

export type Role = "system" | "user" | "assistant" | "tool";

export type ToolCall = { id: string, name: string, arguments: string, };

export type Grant = { tool: string, scope: string, };

export type Run = { session_id: string, title: string, updated_at: number, turns: Array<TurnUsage>, calls: Array<AuditRow>, };

export type SkillListing = { enabled: boolean, valid: boolean, problems: Array<string>, usage_count: number, last_used: number | null, name: string, description: string, dir: string, 
/**
 * The SKILL.md, resolved: what the model reads.
 */
location: string, source: string, warnings: Array<string>, 
/**
 * Sources whose skill of the same name this one hides.
 */
shadows: Array<string>, };

export type Skill = { name: string, description: string, dir: string, 
/**
 * The SKILL.md, resolved: what the model reads.
 */
location: string, source: string, warnings: Array<string>, 
/**
 * Sources whose skill of the same name this one hides.
 */
shadows: Array<string>, };

export type InstallReport = { name: string, description: string, target: string, exists: boolean, files: Array<[string, number]>, 
/**
 * Where the skill departs from the spec (it still loads).
 */
problems: Array<string>, warnings: Array<string>, findings: Array<Finding>, };

export type Finding = { file: string, line: number, reason: string, text: string, };

export type Inspection = { 
/**
 * Pass back to `install_skill` to confirm.
 */
token: string, report: InstallReport, };

export type SkillTest = { name: string, 
/**
 * Where it departs from the Agent Skills spec.
 */
problems: Array<string>, findings: Array<Finding>, };

export type Connection = { ok: boolean, models: Array<string>, error: string | null, };

export type SandboxStatus = { ok: boolean, what: string, 
/**
 * `sandbox.allow_unconfined`: shown in red wherever it is on.
 */
allow_unconfined: boolean, };

export type McpProject = { name: string, dir: string, server_file: string, server_text: string, 
/**
 * Already in config.json's `mcp_servers`.
 */
registered: boolean, };

export type ModelProgress = { model: string, file: string, done: number, total: number | null, };

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
mcp_servers: { [key in string]: McpServerConfig }, voice: VoiceSettings, retention: Retention, };

export type LlmConfig = { base_url: string, model: string, temperature: number | null, max_rounds: number, 
/**
 * Tokens the server gives a request (prompt + answer).
 */
context_window: number, max_retries: number, connect_timeout_sec: number, idle_timeout_sec: number, };

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
