// A recording transport for component tests: the IPC boundary, answered
// from a table, with events pushed by the test.
import { Api, type Transport } from "./api";
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
