// A recording transport for component tests: the IPC boundary, answered
// from a table, with events pushed by the test.
import { Api, type HudState, type Transport } from "./api";
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
    for (const cb of this.listeners.get("jarvis:event") ?? []) cb(env);
  }
}

export function fakeApi(): [Api, FakeTransport] {
  const t = new FakeTransport();
  t.answers = { sessions: [], session_history: [], send_message: undefined, decide_approval: undefined };
  return [new Api(t), t];
}

export const ev = (session_id: string | null, e: Record<string, unknown>) => ({ session_id, ...e }) as EventEnvelope;

/** The HUD's start-up state: set up, working in /home/u/proj, no voice. */
export function hudState(over: Partial<HudState> = {}): HudState {
  return {
    views: ["chat", "runs", "skills", "audit", "grants", "settings"],
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
    ...over,
  };
}

export const tick = () => new Promise((r) => setTimeout(r, 0));
