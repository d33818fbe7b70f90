// A recording transport for component tests: the IPC boundary, answered
// from a table, with events pushed by the test.
import { Api, type BudgetReport, type HudState, type ScheduleInfo, type TaskInfo, type Transport } from "./api";
import type { EventEnvelope } from "./protocol";

export class FakeTransport implements Transport {
  calls: { cmd: string; args?: Record<string, unknown> }[] = [];
  answers: Record<string, unknown> = {};
  private listeners = new Map<string, ((p: unknown) => void)[]>();

  async invoke<T>(cmd: string, args?: Record<string, unknown>): Promise<T> {
    this.calls.push({ cmd, args });
    const a = this.answers[cmd];
    if (a instanceof Error) throw { kind: "test", message: a.message };
    return (typeof a === "function" ? a(args) : a) as T;
  }

  async listen<T>(event: string, cb: (payload: T) => void) {
    const l = this.listeners.get(event) ?? [];
    l.push(cb as (p: unknown) => void);
    this.listeners.set(event, l);
    return () => undefined;
  }

  emit(env: EventEnvelope) {
    this.push("jarvis:event", env);
  }

  /** Delivers any app event (`jarvis:model-progress`, …) to its listeners. */
  push(event: string, payload: unknown) {
    for (const cb of this.listeners.get(event) ?? []) cb(payload);
  }
}

export function fakeApi(): [Api, FakeTransport] {
  const t = new FakeTransport();
  t.answers = {
    sessions: [],
    session_history: [],
    send_message: undefined,
    decide_approval: undefined,
    cockpit: { runs: [], budget: budget(), announcements: [] },
    budget: budget(),
    tasks: [],
    schedules: [],
    session_changes: [],
    proposals: [],
    memory: { max_chars: 2000, used_chars: 0, items: [], suggested: [], archived: [] },
  };
  return [new Api(t), t];
}

/** Today's use: 1,200 tokens, no caps unless given. */
export function budget(over: Partial<BudgetReport> = {}): BudgetReport {
  return {
    day: "2026-12-02",
    tz: "Europe/Berlin",
    tokens: 1200,
    prompt_tokens: 1000,
    completion_tokens: 200,
    estimated_tokens: 0,
    cost_usd: 0,
    requests: 3,
    daily_tokens: 0,
    daily_cost_usd: 0,
    by_origin: [["chat", 1200]],
    ...over,
  };
}

export const ev = (session_id: string | null, e: Record<string, unknown>) => ({ session_id, ...e }) as EventEnvelope;

/** The HUD's start-up state: set up, working in /home/u/proj, no voice. */
export function hudState(over: Partial<HudState> = {}): HudState {
  return {
    views: ["cockpit", "chat", "runs", "tasks", "schedules", "skills", "memory", "reflect", "audit", "grants", "settings"],
    workdir: "/home/u/proj",
    workdir_problem: null,
    suggested_workdir: "/home/u/Jarvis",
    notices: [],
    base_url: "http://x/v1",
    model: "m",
    api_key: null,
    first_run: false,
    shortcut: "Ctrl+Alt+Space",
    shortcut_problem: null,
    voice: { state: "idle", paused: false, microphones: [], models: [], problem: null },
    stop_hold: null,
    engine: {
      provider: "endpoint",
      local_model: "",
      model_file: null,
      problem: "the built-in model qwen2.5-1.5b is not downloaded yet (1.1 GB, Apache-2.0): run `jarvis models install qwen2.5-1.5b`, or set llm.local_model to a GGUF file",
      context: 8192,
      running: false,
      speed: null,
      models: [
        { name: "qwen2.5-1.5b", what: "chat with tool calling, the default (Qwen2.5 1.5B Instruct, Q4_K_M, 1.1 GB)", license: "Apache-2.0", bytes: 1_117_320_736, installed: false, default: true, user: false },
        { name: "qwen3-0.6b", what: "chat with tool calling, light (Qwen3 0.6B, Q8_0, 0.6 GB)", license: "Apache-2.0", bytes: 639_446_688, installed: false, default: false, user: false },
      ],
    },
    ...over,
  };
}

export const tick = () => new Promise((r) => setTimeout(r, 0));

const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
/** A running scheduled task, `t1`. */
export function task(over: Partial<TaskInfo>): TaskInfo {
  return {
    id: "t1", origin: "schedule", schedule_id: null, instruction: "summarise my inbox", status: "running", session_id: "task-t1",
    parent_session: null, created_at: 1_000, started_at: 1_000, finished_at: null, summary: null, reason: null, usage,
    report: null, allow: [], needs: [], notify: "done_only", ...over,
  } as TaskInfo;
}
/** A daily schedule, `s1`, with one slot skipped while held. */
export function schedule(over: Partial<ScheduleInfo>): ScheduleInfo {
  return {
    id: "s1", instruction: "check the build", when: { kind: "daily", time: "09:00", weekdays: [] }, tz: "Europe/Berlin",
    next_run: Date.parse("2026-12-02T08:00:00Z"), paused: false, allow: [], failures: 0, created_at: 0, notify: "done_only",
    runs: [{ slot: Date.parse("2026-12-01T08:00:00Z"), status: "skipped", task_id: null, reason: "held by Stop everything (the tray, …); resume to run again" }],
    ...over,
  } as ScheduleInfo;
}
