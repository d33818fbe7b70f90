// The HUD's only way to the app: typed commands and the one event stream.
import type { ApprovalDecision, EventEnvelope } from "./protocol";

export interface Transport {
  invoke<T>(cmd: string, args?: Record<string, unknown>): Promise<T>;
  listen<T>(event: string, cb: (payload: T) => void): Promise<() => void>;
}

export interface VoiceStatus {
  state: "idle" | "listening" | "transcribing" | "thinking" | "speaking";
  paused: boolean;
  microphones: string[];
  models: { name: string; what: string; installed: boolean; bytes: number }[];
  problem: string | null;
}

export interface HudState {
  views: string[];
  workdir: string;
  base_url: string;
  model: string;
  api_key: string | null;
  first_run: boolean;
  shortcut: string;
  shortcut_problem: string | null;
  voice: VoiceStatus;
}

export interface SessionInfo {
  id: string;
  title: string;
  created_at: number;
  updated_at: number;
  messages: number;
}

export interface StoredMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  tool_calls?: { id: string; name: string; arguments: string }[];
  tool_call_id?: string;
  turn_id: string;
}

export interface AuditRow {
  id: number;
  at: number;
  call_id: string;
  session_id: string | null;
  tool: string;
  arguments: string;
  verdict: string;
  reason: string;
  decided_by: string;
  outcome: string | null;
  duration_ms: number | null;
}

export interface Run {
  session_id: string;
  title: string;
  updated_at: number;
  turns: { turn_id: string; stop: string; total_tokens: number }[];
  calls: AuditRow[];
}

export interface SkillListing {
  name: string;
  description: string;
  dir: string;
  source: string;
  warnings: string[];
  enabled: boolean;
  valid: boolean;
  problems: string[];
  usage_count: number;
  last_used: number | null;
}

export interface InstallReport {
  name: string;
  description: string;
  target: string;
  exists: boolean;
  files: [string, number][];
  problems: string[];
  warnings: string[];
  findings: { file: string; line: number; reason: string; text: string }[];
}

export interface Config {
  llm: { base_url: string; model: string };
  persona: { name: string; style: string };
  tools: { read: boolean; write: boolean; exec: boolean };
  workdir: string | null;
  granted_roots: string[];
  approval_timeout_sec: number;
  voice: {
    language: string;
    engine: string;
    input_device: string | null;
    keep_mic_warm: boolean;
    ptt_shortcut: string;
    paused: boolean;
    do_not_disturb: string;
  };
}

export interface IpcError {
  kind: string;
  message: string;
}

export function errorText(e: unknown): string {
  if (e && typeof e === "object" && "message" in e) return String((e as IpcError).message);
  return String(e);
}

export class Api {
  constructor(private t: Transport) {}
  private call<T>(cmd: string, args?: Record<string, unknown>): Promise<T> {
    return this.t.invoke<T>(cmd, args);
  }
  onEvent(cb: (e: EventEnvelope) => void) {
    return this.t.listen<EventEnvelope>("jarvis:event", cb);
  }
  onModelProgress(cb: (p: { model: string; file: string; done: number; total: number | null }) => void) {
    return this.t.listen("jarvis:model-progress", cb);
  }
  hudState = () => this.call<HudState>("hud_state");
  send = (sessionId: string, text: string) => this.call<void>("send_message", { sessionId, text });
  cancel = (sessionId: string) => this.call<void>("cancel_turn", { sessionId });
  decide = (requestId: string, decision: ApprovalDecision) =>
    this.call<void>("decide_approval", { requestId, decision });
  sessions = () => this.call<SessionInfo[]>("sessions");
  history = (sessionId: string) => this.call<StoredMessage[]>("session_history", { sessionId });
  rename = (sessionId: string, title: string) => this.call<void>("rename_session", { sessionId, title });
  deleteSession = (sessionId: string) => this.call<void>("delete_session", { sessionId });
  audit = (tool?: string) => this.call<AuditRow[]>("audit", { limit: 500, tool: tool ?? null });
  grants = () => this.call<{ tool: string; scope: string }[]>("grants");
  revoke = (tool: string, scope: string) => this.call<boolean>("revoke_grant", { tool, scope });
  runs = () => this.call<Run[]>("runs", { limit: 50 });
  config = () => this.call<Config>("config");
  setConfig = (key: string, value: string) => this.call<Config>("set_config", { key, value });
  testConnection = () => this.call<{ ok: boolean; models: string[]; error: string | null }>("test_connection");
  setApiKey = (key: string) => this.call<string>("set_api_key", { key });
  skills = () => this.call<SkillListing[]>("skills");
  setSkillEnabled = (name: string, enabled: boolean) => this.call<void>("set_skill_enabled", { name, enabled });
  deleteSkill = (name: string) => this.call<string>("delete_skill", { name });
  inspectSkill = (path: string) => this.call<{ token: string; report: InstallReport }>("inspect_skill", { path });
  installSkill = (token: string, force: boolean) => this.call<string>("install_skill", { token, force });
  discardSkill = (token: string) => this.call<void>("discard_skill", { token });
  voiceStatus = () => this.call<VoiceStatus>("voice_status");
  voicePress = () => this.call<void>("voice_press");
  voiceRelease = () => this.call<void>("voice_release");
  voiceStop = () => this.call<void>("voice_stop");
  installModel = (name: string) => this.call<void>("install_model", { name });
}
