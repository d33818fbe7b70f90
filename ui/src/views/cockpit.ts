// The Cockpit: what Jarvis is doing now and what comes next, at a glance.
// It opens with one snapshot (`cockpit`, tasks, schedules) and follows the
// event stream from there; the only timer is the clock on running work.
import type { AnnouncementInfo, Api, BudgetReport, RunInfo, ScheduleInfo, TaskInfo } from "../api";
import { errorText } from "../api";
import { clear, h, when as at } from "../dom";
import type { EventEnvelope, VoiceState } from "../protocol";
import { describe, duration } from "./hub";
import type { View } from "./view";

const ACTIVE = new Set(["queued", "running"]);
const TASKS_SHOWN = 6;
const NEXT_SHOWN = 5;
const SAID_SHOWN = 8;
/** Skipped slots older than this are history, not news. */
const SKIPPED_WINDOW_MS = 7 * 24 * 3600 * 1000;

/** The larger share of a cap used today, in percent; null without caps. */
export function budgetShare(b: BudgetReport): number | null {
  const shares: number[] = [];
  if (b.daily_tokens > 0) shares.push((b.tokens * 100) / b.daily_tokens);
  if (b.daily_cost_usd > 0) shares.push((b.cost_usd * 100) / b.daily_cost_usd);
  return shares.length ? Math.max(...shares) : null;
}

/** `12,345 tokens` and, when priced, `$0.12`. */
export function budgetUse(b: BudgetReport): string {
  const caps = [b.daily_tokens > 0 ? `${b.tokens.toLocaleString()} of ${b.daily_tokens.toLocaleString()} tokens` : `${b.tokens.toLocaleString()} tokens`];
  if (b.daily_cost_usd > 0) caps.push(`$${b.cost_usd.toFixed(2)} of $${b.daily_cost_usd.toFixed(2)}`);
  else if (b.cost_usd > 0) caps.push(`$${b.cost_usd.toFixed(2)}`);
  return caps.join(" · ");
}

/** Fills a budget meter (`role=meter`, its fill inside); returns the
 * percent shown, or null when no cap is set. */
export function paintBudget(meter: HTMLElement, fill: HTMLElement, b: BudgetReport): number | null {
  const share = budgetShare(b);
  const pct = share === null ? 0 : Math.min(100, Math.round(share));
  fill.style.width = `${pct}%`;
  meter.dataset.level = pct >= 100 ? "over" : pct >= 80 ? "high" : "ok";
  meter.setAttribute("aria-valuenow", String(pct));
  meter.setAttribute("aria-valuetext", share === null ? "no cap set" : `${pct} percent`);
  return share === null ? null : pct;
}

/** Slots a schedule missed (Jarvis was closed, or held), newest first. */
export function skippedSlots(schedules: ScheduleInfo[], now: number): { schedule: ScheduleInfo; slot: number; reason: string | null }[] {
  return schedules
    .flatMap((s) => s.runs.filter((r) => r.status === "skipped" && now - r.slot < SKIPPED_WINDOW_MS).map((r) => ({ schedule: s, slot: r.slot, reason: r.reason })))
    .sort((a, b) => b.slot - a.slot);
}

function tile(title: string, id: string, ...body: (Node | null)[]): HTMLElement {
  return h("section", { class: "tile", "aria-labelledby": id }, h("h2", { id }, title), ...body);
}

export class CockpitView implements View {
  readonly name = "cockpit";
  readonly title = "Cockpit";
  readonly el: HTMLElement;
  /** Where the approval panel sits while the Cockpit is shown. */
  readonly approvalsSlot: HTMLElement;
  private voice: HTMLElement;
  private now: HTMLElement;
  private taskList: HTMLElement;
  private nextList: HTMLElement;
  private skipped: HTMLElement;
  private gauge: HTMLElement;
  private gaugeFill: HTMLElement;
  private gaugeText: HTMLElement;
  private said: HTMLElement;
  private waitingNone: HTMLElement;
  private runs = new Map<string, RunInfo>();
  private tasks = new Map<string, TaskInfo>();
  private schedules = new Map<string, ScheduleInfo>();
  private announcements: AnnouncementInfo[] = [];
  private clock: number | null = null;
  /** Calls begun and not finished, per session: the first is running. */
  private calls = new Map<string, string[][]>();
  private fetching = false;
  /** A run event came while the snapshot was on its way: read it again. */
  private stale = false;

  constructor(
    private api: Api,
    private toast: (m: string) => void,
    private open: (view: "chat" | "tasks" | "schedules", params: Record<string, unknown>) => void,
  ) {
    this.voice = h("span", { class: "voice-state", "data-state": "idle" }, "idle");
    this.now = h("ul", { class: "now-list", "aria-label": "Running now" });
    this.waitingNone = h("p", { class: "muted" }, "Nothing is waiting for you.");
    this.approvalsSlot = h("div", { class: "approvals-slot" });
    this.taskList = h("ul", { class: "cockpit-list", "aria-label": "Recent tasks" });
    this.nextList = h("ul", { class: "cockpit-list", "aria-label": "Next scheduled runs" });
    this.skipped = h("div", { class: "skipped" });
    this.gaugeFill = h("span", { class: "gauge-fill" });
    this.gauge = h("div", { class: "gauge", role: "meter", "aria-label": "Today's budget used", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0" }, this.gaugeFill);
    this.gaugeText = h("p", { class: "gauge-text" }, "…");
    this.said = h("ul", { class: "cockpit-list", "aria-label": "Latest announcements" });
    const stop = h("button", { class: "danger", title: "Cancel every running turn and task, silence speech, hold the schedules" }, "Stop everything");
    stop.addEventListener("click", () => this.api.stopEverything().catch((e) => this.toast(errorText(e))));
    this.el = h(
      "section",
      { class: "view cockpit", "aria-label": "Cockpit" },
      h("header", { class: "view-head" }, h("h1", {}, "Cockpit"), h("span", { class: "spacer" }), stop),
      h(
        "div",
        { class: "tiles" },
        tile("Now", "ck-now", h("p", { class: "row" }, h("span", { class: "muted" }, "Voice"), this.voice), this.now),
        tile("Waiting for you", "ck-waiting", this.waitingNone, this.approvalsSlot),
        tile("Tasks", "ck-tasks", this.taskList),
        tile("Next up", "ck-next", this.nextList, this.skipped),
        tile("Today's budget", "ck-budget", this.gauge, this.gaugeText),
        tile("Said lately", "ck-said", this.said),
      ),
    );
  }

  async enter() {
    this.fetching = true;
    this.stale = false;
    try {
      const [state, tasks, schedules] = await Promise.all([this.api.cockpit(), this.api.tasks(20), this.api.schedules()]);
      this.setRuns(state.runs);
      this.tasks = new Map(tasks.map((t) => [t.id, t]));
      this.schedules = new Map(schedules.map((s) => [s.id, s]));
      this.announcements = state.announcements;
      this.showBudget(state.budget);
    } catch (e) {
      this.toast(errorText(e));
    } finally {
      this.fetching = false;
    }
    if (this.stale) await this.refetchRuns();
    this.render();
  }

  private setRuns(runs: RunInfo[]) {
    this.runs = new Map(runs.map((r) => [r.session_id, r]));
    this.calls = new Map(runs.map((r) => [r.session_id, r.tool ? [["?", r.tool]] : []]));
  }

  setVoice(state: VoiceState | "paused") {
    this.voice.textContent = state;
    this.voice.dataset.state = state;
  }

  /** The approval panel moved here says how many are waiting. */
  setWaiting(count: number) {
    this.waitingNone.hidden = count > 0;
  }

  showBudget(b: BudgetReport) {
    const pct = paintBudget(this.gauge, this.gaugeFill, b);
    const by = b.by_origin.filter(([, n]) => n > 0).map(([o, n]) => `${o} ${n.toLocaleString()}`);
    this.gaugeText.textContent = `${pct === null ? "No daily cap" : `${pct} % used`}: ${budgetUse(b)}${by.length ? ` (${by.join(", ")})` : ""}${b.estimated_tokens ? `, ${b.estimated_tokens.toLocaleString()} estimated` : ""}`;
  }

  onEvent(env: EventEnvelope) {
    const sid = env.session_id ?? "";
    switch (env.type) {
      case "turn_started":
        // The snapshot has its words and origin.
        void this.refetchRuns();
        return;
      case "tool_call_started":
      case "tool_call_finished": {
        if (this.fetching) this.stale = true;
        const run = this.runs.get(sid);
        if (!run) return;
        const calls = (this.calls.get(sid) ?? []).filter(([id]) => id !== env.call_id && !(env.type === "tool_call_finished" && id === "?"));
        if (env.type === "tool_call_started") calls.push([env.call_id, env.name]);
        this.calls.set(sid, calls);
        run.tool = calls[0]?.[1] ?? null;
        break;
      }
      case "turn_finished":
        if (this.fetching) this.stale = true;
        this.runs.delete(sid);
        this.calls.delete(sid);
        break;
      case "stopped":
        this.runs.clear();
        this.calls.clear();
        break;
      case "task_changed":
        this.tasks.set(env.task.id, env.task);
        break;
      case "schedule_changed":
        if (env.schedule.paused && env.schedule.next_run === null) this.schedules.delete(env.schedule.id);
        else this.schedules.set(env.schedule.id, env.schedule);
        break;
      case "announcement":
        this.announcements = [{ id: env.id, text: env.text, task_id: env.task_id, priority: env.priority, at: Date.now() }, ...this.announcements.filter((a) => a.id !== env.id)].slice(0, SAID_SHOWN);
        break;
      case "voice_state":
        this.setVoice(env.state);
        return;
      default:
        return;
    }
    if (!this.el.hidden) this.render();
  }

  /** Reads the running work again; once more if it changed meanwhile. */
  private async refetchRuns() {
    if (this.fetching) {
      this.stale = true;
      return;
    }
    this.fetching = true;
    try {
      do {
        this.stale = false;
        this.setRuns((await this.api.cockpit()).runs);
      } while (this.stale);
    } catch (e) {
      this.toast(errorText(e));
    } finally {
      this.fetching = false;
    }
    if (!this.el.hidden) this.render();
  }

  render() {
    const now = Date.now();
    this.renderNow(now);
    this.renderTasks(now);
    this.renderNext(now);
    this.renderSaid();
    this.tick();
  }

  private renderNow(now: number) {
    clear(this.now);
    const runs = [...this.runs.values()].sort((a, b) => a.started_at - b.started_at);
    if (!runs.length) this.now.append(h("li", { class: "muted" }, "Idle: nothing is running."));
    for (const r of runs) {
      const cancel = h("button", {}, "Cancel");
      cancel.addEventListener("click", () => this.api.cancel(r.session_id).catch((e) => this.toast(errorText(e))));
      const open = h("button", {}, "Open");
      open.addEventListener("click", () => this.open("chat", { session: r.session_id }));
      this.now.append(
        h(
          "li",
          { class: "now-item", "data-session": r.session_id },
          h("span", { class: "badge" }, r.origin),
          h("strong", { class: "now-title" }, r.title || "a turn"),
          h("span", { class: "now-tool" }, r.tool ? `calling ${r.tool}` : "thinking"),
          h("span", { class: "muted elapsed", "data-since": String(r.started_at) }, duration(now - r.started_at)),
          open,
          cancel,
        ),
      );
    }
  }

  private renderTasks(now: number) {
    clear(this.taskList);
    const all = [...this.tasks.values()].sort((a, b) => b.created_at - a.created_at);
    const rows = [...all.filter((t) => ACTIVE.has(t.status)), ...all.filter((t) => !ACTIVE.has(t.status))].slice(0, TASKS_SHOWN);
    if (!rows.length) this.taskList.append(h("li", { class: "muted" }, "No tasks yet."));
    for (const t of rows) {
      const took = t.started_at ? h("span", { class: "muted elapsed", "data-since": ACTIVE.has(t.status) ? String(t.started_at) : null }, duration((t.finished_at ?? now) - t.started_at)) : h("span", { class: "muted" }, "waiting to start");
      const open = h("button", { class: "link", "aria-label": `Open the task: ${t.instruction}` }, t.instruction);
      open.addEventListener("click", () => this.open("tasks", { task: t.id }));
      this.taskList.append(h("li", { "data-task": t.id, "data-status": t.status }, h("span", { class: `badge status-${t.status}` }, t.status.replace("_", " ")), open, took));
    }
  }

  private renderNext(now: number) {
    clear(this.nextList);
    const next = [...this.schedules.values()].filter((s) => !s.paused && s.next_run !== null).sort((a, b) => (a.next_run ?? 0) - (b.next_run ?? 0)).slice(0, NEXT_SHOWN);
    if (!next.length) this.nextList.append(h("li", { class: "muted" }, "Nothing scheduled."));
    for (const s of next) {
      const open = h("button", { class: "link", "aria-label": `Open the schedule: ${s.instruction}` }, s.instruction);
      open.addEventListener("click", () => this.open("schedules", { schedule: s.id }));
      this.nextList.append(h("li", { "data-schedule": s.id }, h("time", { class: "next-at", datetime: new Date(s.next_run ?? 0).toISOString() }, at(s.next_run ?? 0)), open, h("span", { class: "muted" }, describe(s.when))));
    }
    clear(this.skipped);
    const missed = skippedSlots([...this.schedules.values()], now);
    if (missed.length) {
      this.skipped.append(
        h("h3", {}, "Skipped"),
        h("ul", { class: "cockpit-list", "aria-label": "Skipped runs" }, ...missed.slice(0, NEXT_SHOWN).map((m) => h("li", { "data-schedule": m.schedule.id }, h("span", { class: "badge status-skipped" }, "skipped"), h("span", {}, m.schedule.instruction), h("span", { class: "muted" }, `${at(m.slot)}${m.reason ? `: ${m.reason}` : ""}`)))),
      );
    }
  }

  private renderSaid() {
    clear(this.said);
    if (!this.announcements.length) this.said.append(h("li", { class: "muted" }, "Nothing announced yet."));
    for (const a of this.announcements) {
      const line = h("li", { class: `said priority-${a.priority}` }, h("span", { class: "muted" }, at(a.at)), h("span", {}, a.text));
      if (a.task_id) {
        const task = a.task_id;
        const open = h("button", { class: "link" }, "Open");
        open.addEventListener("click", () => this.open("tasks", { task }));
        line.append(open);
      }
      this.said.append(line);
    }
  }

  /** Running work's clock: once a second while anything runs and the view is shown. */
  private tick() {
    const live = () => this.el.querySelectorAll<HTMLElement>(".elapsed[data-since]");
    if (this.clock !== null || !live().length) return;
    this.clock = window.setInterval(() => {
      const shown = live();
      if (this.el.hidden || !shown.length) {
        if (this.clock !== null) window.clearInterval(this.clock);
        this.clock = null;
        return;
      }
      const now = Date.now();
      for (const e of shown) e.textContent = duration(now - Number(e.dataset.since));
    }, 1000);
  }
}
