// Tasks and Schedules: what runs in the background and when it will, with
// the controls the user has over them. Both follow the event stream
// (`task_changed`, `schedule_changed`); nothing polls.
import type { Api, ScheduleInfo, TaskInfo, When } from "../api";
import { errorText } from "../api";
import { clear, h, when as at } from "../dom";
import type { EventEnvelope } from "../protocol";
import { undoSummary } from "./chat";
import type { View } from "./view";

const ACTIVE = new Set(["queued", "running"]);
/** What a task may be allowed before it runs (the brain's own list). */
const PRE_APPROVABLE = ["write", "exec", "network", "mcp"];

/** `3 s`, `4 min 10 s`, `1 h 2 min`. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** A schedule's time in words. */
export function describe(w: When): string {
  switch (w.kind) {
    case "once":
      return `once, ${at(Date.parse(w.at))}`;
    case "every":
      return `every ${w.minutes} min`;
    case "daily":
      return `${w.weekdays.length ? w.weekdays.join(", ") : "every day"} at ${w.time}`;
    case "cron":
      return `cron ${w.expr}`;
  }
}

/** A button that runs `run` once at a time and says what went wrong. */
function action(label: string, run: () => Promise<unknown>, toast: (m: string) => void): HTMLButtonElement {
  const b = h("button", {}, label);
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      await run();
    } catch (e) {
      toast(errorText(e));
    } finally {
      b.disabled = false;
    }
  });
  return b;
}

function taskTime(t: TaskInfo, now: number): string {
  if (!t.started_at) return "not started";
  return duration((t.finished_at ?? now) - t.started_at);
}

export class TasksView implements View {
  readonly name = "tasks";
  readonly title = "Tasks";
  readonly el: HTMLElement;
  private list: HTMLElement;
  private filter: HTMLSelectElement;
  private tasks = new Map<string, TaskInfo>();
  private selected: string | null = null;

  constructor(private api: Api, private toast: (m: string) => void, private openSession: (id: string) => void) {
    this.filter = h(
      "select",
      { "aria-label": "Show tasks", onchange: () => this.render() },
      ...[["all", "All tasks"], ["active", "Queued and running"], ["attention", "Needing attention"], ["done", "Finished"]].map(([v, t]) => h("option", { value: v }, t)),
    );
    this.list = h("ul", { class: "hub-list", "aria-label": "Tasks" });
    this.el = h(
      "section",
      { class: "view hub", "aria-label": "Tasks" },
      h("header", { class: "view-head" }, h("h1", {}, "Tasks"), h("div", { class: "filters" }, this.filter)),
      this.list,
    );
  }

  async enter(params?: Record<string, unknown>) {
    this.selected = typeof params?.task === "string" ? params.task : this.selected;
    try {
      this.tasks = new Map((await this.api.tasks()).map((t) => [t.id, t]));
    } catch (e) {
      this.toast(errorText(e));
    }
    this.render();
  }

  onEvent(env: EventEnvelope) {
    if (env.type !== "task_changed") return;
    this.tasks.set(env.task.id, env.task);
    if (!this.el.hidden) this.render();
  }

  private shown(t: TaskInfo): boolean {
    switch (this.filter.value) {
      case "active":
        return ACTIVE.has(t.status);
      case "attention":
        return ["needs_approval", "failed", "timed_out", "lost", "refused"].includes(t.status);
      case "done":
        return !ACTIVE.has(t.status);
      default:
        return true;
    }
  }

  private render() {
    clear(this.list);
    const now = Date.now();
    const rows = [...this.tasks.values()].filter((t) => this.shown(t)).sort((a, b) => b.created_at - a.created_at);
    if (!rows.length) this.list.append(h("li", { class: "muted" }, "No tasks here yet."));
    for (const t of rows) this.list.append(this.row(t, now));
    this.list.querySelector('[aria-current="true"]')?.scrollIntoView?.({ block: "nearest" });
  }

  private row(t: TaskInfo, now: number): HTMLElement {
    const actions = h("div", { class: "row" });
    if (ACTIVE.has(t.status)) {
      actions.append(this.button("Cancel", () => this.api.cancelTask(t.id)));
    }
    if (t.status === "needs_approval" || t.status === "failed" || t.status === "timed_out") {
      // The approval it missed, given up front and named on the button;
      // only what a task may be allowed in advance.
      const allow = t.needs.filter((k) => PRE_APPROVABLE.includes(k));
      const label = allow.length ? `Retry, allowing ${allow.join(", ")}` : "Retry";
      actions.append(this.button(label, () => this.api.retryTask(t.id, allow)));
      const never = t.needs.filter((k) => !PRE_APPROVABLE.includes(k));
      if (never.length) actions.append(h("span", { class: "muted" }, `${never.join(", ")} can only be approved by a person, in a chat`));
    }
    actions.append(this.button("Open its conversation", async () => this.openSession(t.session_id)));
    if (!ACTIVE.has(t.status)) {
      actions.append(this.button("Undo its file changes", async () => this.toast(undoSummary(await this.api.undoTask(t.id)))));
    }
    const details = h(
      "dl",
      { class: "details" },
      h("dt", {}, "Started"),
      h("dd", {}, t.started_at ? at(t.started_at) : "not yet"),
      h("dt", {}, "Took"),
      h("dd", {}, taskTime(t, now)),
      h("dt", {}, "From"),
      h("dd", {}, t.origin),
      ...(t.reason ? [h("dt", {}, "Why"), h("dd", {}, t.reason)] : []),
      ...(t.summary ? [h("dt", {}, "Answer"), h("dd", {}, t.summary)] : []),
      ...(t.report ? [h("dt", {}, "Report"), h("dd", {}, h("code", {}, t.report))] : []),
    );
    return h(
      "li",
      { class: "hub-item", "data-task": t.id, "data-status": t.status, "aria-current": t.id === this.selected ? "true" : null },
      h("div", { class: "hub-line" }, h("span", { class: `badge status-${t.status}` }, t.status.replace("_", " ")), h("strong", {}, t.instruction)),
      details,
      actions,
    );
  }

  private button(label: string, run: () => Promise<unknown>): HTMLButtonElement {
    return action(label, run, this.toast);
  }
}

export class SchedulesView implements View {
  readonly name = "schedules";
  readonly title = "Schedules";
  readonly el: HTMLElement;
  private list: HTMLElement;
  private schedules = new Map<string, ScheduleInfo>();
  private editing: string | null = null;
  private selected: string | null = null;

  constructor(private api: Api, private toast: (m: string) => void) {
    this.list = h("ul", { class: "hub-list", "aria-label": "Schedules" });
    this.el = h("section", { class: "view hub", "aria-label": "Schedules" }, h("header", { class: "view-head" }, h("h1", {}, "Schedules")), this.list);
  }

  async enter(params?: Record<string, unknown>) {
    this.selected = typeof params?.schedule === "string" ? params.schedule : this.selected;
    try {
      this.schedules = new Map((await this.api.schedules()).map((s) => [s.id, s]));
    } catch (e) {
      this.toast(errorText(e));
    }
    this.render();
  }

  onEvent(env: EventEnvelope) {
    if (env.type !== "schedule_changed") return;
    const s = env.schedule;
    // A cancelled schedule comes back paused with no next run: it is gone.
    if (s.paused && s.next_run === null) this.schedules.delete(s.id);
    else this.schedules.set(s.id, s);
    if (!this.el.hidden && this.editing !== s.id) this.render();
  }

  private render() {
    clear(this.list);
    const rows = [...this.schedules.values()].sort((a, b) => (a.next_run ?? Infinity) - (b.next_run ?? Infinity));
    if (!rows.length) this.list.append(h("li", { class: "muted" }, "No schedules. Ask Jarvis, or `jarvis schedule add`."));
    for (const s of rows) this.list.append(this.editing === s.id ? this.editor(s) : this.row(s));
    this.list.querySelector('[aria-current="true"]')?.scrollIntoView?.({ block: "nearest" });
  }

  private row(s: ScheduleInfo): HTMLElement {
    const last = s.runs[0];
    const skipped = s.runs.filter((r) => r.status === "skipped").length;
    const act = (label: string, run: () => Promise<unknown>) => action(label, run, this.toast);
    return h(
      "li",
      { class: "hub-item", "data-schedule": s.id, "data-paused": String(s.paused), "aria-current": s.id === this.selected ? "true" : null },
      h("div", { class: "hub-line" }, h("span", { class: `badge ${s.paused ? "status-paused" : "status-running"}` }, s.paused ? "paused" : "on"), h("strong", {}, s.instruction)),
      h(
        "dl",
        { class: "details" },
        h("dt", {}, "When"),
        h("dd", {}, `${describe(s.when)} (${s.tz})`),
        h("dt", {}, "Next run"),
        h("dd", { class: "next-run" }, s.next_run && !s.paused ? at(s.next_run) : s.paused ? "paused" : "none"),
        h("dt", {}, "Last result"),
        h("dd", {}, last ? `${last.status}${last.reason ? `: ${last.reason}` : ""} (${at(last.slot)})` : "not run yet"),
        ...(skipped ? [h("dt", {}, "Skipped"), h("dd", {}, `${skipped} of the latest slots`)] : []),
      ),
      h(
        "div",
        { class: "row" },
        act(s.paused ? "Resume" : "Pause", () => this.api.pauseSchedule(s.id, !s.paused)),
        act("Run now", () => this.api.runScheduleNow(s.id)),
        act("Edit", async () => {
          this.editing = s.id;
          this.render();
        }),
        act("Cancel schedule", async () => {
          await this.api.cancelSchedule(s.id);
          this.schedules.delete(s.id);
          this.render();
        }),
      ),
    );
  }

  private editor(s: ScheduleInfo): HTMLElement {
    const id = `edit-${s.id}`;
    const text = h("textarea", { id, rows: 2 }, s.instruction);
    const time = s.when.kind === "daily" ? h("input", { id: `${id}-time`, type: "time", value: s.when.time }) : s.when.kind === "every" ? h("input", { id: `${id}-every`, type: "number", min: "1", value: String(s.when.minutes) }) : null;
    const save = h("button", { class: "primary" }, "Save");
    save.addEventListener("click", async () => {
      let next: When | null = null;
      if (s.when.kind === "daily" && time) next = { ...s.when, time: time.value };
      if (s.when.kind === "every" && time) next = { kind: "every", minutes: Number(time.value) };
      try {
        const saved = await this.api.editSchedule(s.id, text.value, next);
        this.schedules.set(saved.id, saved);
        this.editing = null;
        this.render();
      } catch (e) {
        this.toast(errorText(e));
      }
    });
    const cancel = h("button", {}, "Cancel");
    cancel.addEventListener("click", () => {
      this.editing = null;
      this.render();
    });
    return h(
      "li",
      { class: "hub-item editing", "data-schedule": s.id },
      h("div", { class: "field" }, h("label", { for: id }, "Instruction"), text),
      time ? h("div", { class: "field" }, h("label", { for: time.id }, s.when.kind === "daily" ? "At" : "Every (minutes)"), time) : h("p", { class: "muted" }, `${describe(s.when)}: ask Jarvis to change this time.`),
      h("div", { class: "row" }, cancel, save),
    );
  }
}
