// The HUD's only way to the app: typed commands and the one event stream.
import type {
  AuditRow,
  BudgetReport,
  ChangeInfo,
  CockpitState,
  Config,
  Connection,
  Grant,
  HistoryMessage,
  HudState,
  Inspection,
  McpProject,
  ModelProgress,
  Run,
  SandboxStatus,
  SessionInfo,
  SkillListing,
  SkillTest,
  UndoReport,
  VoiceStatus,
} from "./ipc";
import type { ApprovalDecision, EventEnvelope, MemoryItem, MemoryList, ProposalInfo, ReflectReport, ScheduleInfo, TaskInfo, When } from "./protocol";
export type { MemoryItem, MemoryList, ProposalInfo, RadarAxis, ReflectReport, ScheduleInfo, TaskInfo, When } from "./protocol";

export interface Transport {
  invoke<T>(cmd: string, args?: Record<string, unknown>): Promise<T>;
  listen<T>(event: string, cb: (payload: T) => void): Promise<() => void>;
}

// The command result types, for the views.
export type * from "./ipc";

export interface IpcError {
  kind: string;
  message: string;
}

export function errorText(e: unknown): string {
  if (e && typeof e === "object" && "message" in e) return String((e as IpcError).message);
  return String(e);
}

/** Conversations per page in the Runs view. */
export const RUNS_PAGE = 25;

export class Api {
  constructor(private t: Transport) {}
  private call<T>(cmd: string, args?: Record<string, unknown>): Promise<T> {
    return this.t.invoke<T>(cmd, args);
  }
  onEvent(cb: (e: EventEnvelope) => void) {
    return this.t.listen<EventEnvelope>("jarvis:event", cb);
  }
  onModelProgress(cb: (p: ModelProgress) => void) {
    return this.t.listen("jarvis:model-progress", cb);
  }
  hudState = () => this.call<HudState>("hud_state");
  send = (sessionId: string, text: string) => this.call<void>("send_message", { sessionId, text });
  cancel = (sessionId: string) => this.call<void>("cancel_turn", { sessionId });
  stopEverything = () => this.call<void>("stop_everything");
  cockpit = () => this.call<CockpitState>("cockpit");
  budget = () => this.call<BudgetReport>("budget");
  sessionChanges = (sessionId: string) => this.call<ChangeInfo[]>("session_changes", { sessionId });
  undoTurn = (turnId: string) => this.call<UndoReport>("undo_turn", { turnId });
  undoTask = (id: string) => this.call<UndoReport>("undo_task", { id });
  tasks = (limit?: number) => this.call<TaskInfo[]>("tasks", { limit });
  cancelTask = (id: string) => this.call<TaskInfo>("cancel_task", { id });
  retryTask = (id: string, allow: string[]) => this.call<TaskInfo>("retry_task", { id, allow });
  schedules = () => this.call<ScheduleInfo[]>("schedules");
  pauseSchedule = (id: string, paused: boolean) => this.call<ScheduleInfo>("pause_schedule", { id, paused });
  runScheduleNow = (id: string) => this.call<TaskInfo>("run_schedule_now", { id });
  cancelSchedule = (id: string) => this.call<ScheduleInfo>("cancel_schedule", { id });
  editSchedule = (id: string, instruction: string, when: When | null) => this.call<ScheduleInfo>("edit_schedule", { id, instruction, when });
  resumeEverything = () => this.call<void>("resume_everything");
  decide = (requestId: string, decision: ApprovalDecision) =>
    this.call<void>("decide_approval", { requestId, decision });
  sessions = () => this.call<SessionInfo[]>("sessions");
  history = (sessionId: string) => this.call<HistoryMessage[]>("session_history", { sessionId });
  rename = (sessionId: string, title: string) => this.call<void>("rename_session", { sessionId, title });
  deleteSession = (sessionId: string) => this.call<void>("delete_session", { sessionId });
  audit = (tool?: string) => this.call<AuditRow[]>("audit", { limit: 500, tool: tool ?? null });
  grants = () => this.call<Grant[]>("grants");
  revoke = (tool: string, scope: string) => this.call<boolean>("revoke_grant", { tool, scope });
  /** One page of conversations with their turns and latest calls. */
  runs = (offset = 0, limit = RUNS_PAGE) => this.call<Run[]>("runs", { limit, offset });
  config = () => this.call<Config>("config");
  setConfig = (key: string, value: string) => this.call<Config>("set_config", { key, value });
  testConnection = () => this.call<Connection>("test_connection");
  setApiKey = (key: string) => this.call<string>("set_api_key", { key });
  chooseWorkdir = (path: string) => this.call<string>("choose_workdir", { path });
  sandboxStatus = () => this.call<SandboxStatus>("sandbox_status");
  mcpProjects = () => this.call<McpProject[]>("mcp_projects");
  registerMcp = (name: string) => this.call<void>("register_mcp", { name });
  skills = () => this.call<SkillListing[]>("skills");
  setSkillEnabled = (name: string, enabled: boolean) => this.call<void>("set_skill_enabled", { name, enabled });
  deleteSkill = (name: string) => this.call<string>("delete_skill", { name });
  testSkill = (name: string) => this.call<SkillTest>("test_skill", { name });
  inspectSkill = (path: string) => this.call<Inspection>("inspect_skill", { path });
  installSkill = (token: string, force: boolean) => this.call<string>("install_skill", { token, force });
  discardSkill = (token: string) => this.call<void>("discard_skill", { token });
  proposals = () => this.call<ProposalInfo[]>("proposals");
  proposal = (id: string) => this.call<ProposalInfo>("proposal", { id });
  /** Drafts the proposed skill for review; nothing is installed. */
  acceptProposal = (id: string) => this.call<ProposalInfo>("accept_proposal", { id });
  applyProposal = (id: string) => this.call<string>("apply_proposal", { id });
  dismissProposal = (id: string) => this.call<void>("dismiss_proposal", { id });
  rollbackProposal = (id: string) => this.call<string>("rollback_proposal", { id });
  memory = () => this.call<MemoryList>("memory");
  memoryAdd = (text: string, kind: string) => this.call<MemoryItem>("memory_add", { text, kind });
  memoryEdit = (id: string, text: string) => this.call<MemoryItem>("memory_edit", { id, text });
  memoryForget = (id: string) => this.call<MemoryItem>("memory_forget", { id });
  memoryConfirm = (id: string) => this.call<MemoryItem>("memory_confirm", { id });
  reflect = () => this.call<ReflectReport>("reflect");
  voiceStatus = () => this.call<VoiceStatus>("voice_status");
  voicePress = () => this.call<void>("voice_press");
  voiceRelease = () => this.call<void>("voice_release");
  voiceStop = () => this.call<void>("voice_stop");
  installModel = (name: string) => this.call<void>("install_model", { name });
}
