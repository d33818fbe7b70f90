import { describe, expect, it } from "vitest";
import { App } from "../app";
import type { RunInfo } from "../api";
import { budget, ev, fakeApi, hudState, schedule, task, tick } from "../testing";
import { budgetShare, CockpitView } from "./cockpit";

const run: RunInfo = { run_id: "r1", session_id: "chat-1", origin: "chat", approval: { mode: "interactive" }, started_at: Date.now() - 65_000, title: "tidy the release notes", tool: "local_exec" };
const request = {
  request_id: "q1", call_id: "c1", session_id: "chat-1", tool: "local_exec", subject: "git tag v1.2", workdir: "/w", details: null,
  reason: "commands need approval", grant_scope: "always allow local_exec: git tag", allow_always: true, offer_network: true, timeout_sec: 60,
};

async function cockpit() {
  const [api, t] = fakeApi();
  const skippedAt = Date.now() - 3_600_000;
  Object.assign(t.answers, {
    hud_state: hudState(),
    cockpit: {
      runs: [run],
      budget: budget({ tokens: 8_500, daily_tokens: 10_000 }),
      announcements: [{ id: "a1", text: "Your report on runtimes is ready.", task_id: "t0", priority: "normal", at: Date.now() - 60_000 }],
    },
    budget: budget({ tokens: 8_500, daily_tokens: 10_000 }),
    tasks: [task({ id: "t0", status: "succeeded", instruction: "report on runtimes", finished_at: 31_000 }), task({})],
    schedules: [schedule({ runs: [{ slot: skippedAt, status: "skipped", task_id: null, reason: "Jarvis was closed" }] })],
  });
  const a = new App(api);
  document.body.innerHTML = "";
  document.body.appendChild(a.root);
  await a.start();
  await tick();
  return { a, t, el: a.cockpit.el };
}

describe("cockpit", () => {
  it("is the default view and shows what runs, what comes, the budget and what was said", async () => {
    const { a, el } = await cockpit();
    expect(a.root.dataset.view).toBe("cockpit");
    const now = el.querySelector<HTMLElement>('.now-item[data-session="chat-1"]')!;
    expect(now.textContent).toContain("tidy the release notes");
    expect(now.textContent).toContain("calling local_exec");
    expect(now.textContent).toContain("1 min 5 s");
    // Running tasks first, then the finished one with its duration.
    const tasks = [...el.querySelectorAll<HTMLElement>('[aria-label="Recent tasks"] li')];
    expect(tasks.map((l) => l.dataset.status)).toEqual(["running", "succeeded"]);
    expect(tasks[1].textContent).toContain("30 s");
    expect(el.querySelector('[aria-label="Next scheduled runs"]')!.textContent).toContain("check the build");
    expect(el.querySelector('[aria-label="Skipped runs"]')!.textContent).toContain("Jarvis was closed");
    const gauge = el.querySelector<HTMLElement>(".gauge")!;
    expect(gauge.getAttribute("aria-valuenow")).toBe("85");
    expect(gauge.dataset.level).toBe("high");
    expect(el.querySelector(".gauge-text")!.textContent).toContain("8,500 of 10,000 tokens");
    expect(el.querySelector('[aria-label="Latest announcements"]')!.textContent).toContain("Your report on runtimes is ready.");
    // The status bar carries the same budget.
    expect(a.root.querySelector(".statusbar .budget-text")!.textContent).toBe("85 %");
  });

  it("follows the event stream: tools, ends, new tasks and announcements", async () => {
    const { t, el } = await cockpit();
    t.emit(ev("chat-1", { type: "tool_call_finished", call_id: "c1", name: "local_exec", status: "ok", duration_ms: 4, summary: "" }));
    expect(el.querySelector(".now-item")!.textContent).toContain("thinking");
    t.answers.budget = budget({ tokens: 10_400, daily_tokens: 10_000 });
    t.emit(ev("chat-1", { type: "turn_finished", turn_id: "r1", stop: "done", usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, rounds: 1 }));
    expect(el.querySelector('[aria-label="Running now"]')!.textContent).toContain("Idle");
    t.emit(ev(null, { type: "task_changed", task: task({ id: "t9", instruction: "back up the notes", created_at: 9_000 }) }));
    expect(el.querySelector('[aria-label="Recent tasks"] li')!.textContent).toContain("back up the notes");
    t.emit(ev(null, { type: "announcement", id: "a2", text: "The backup is done.", task_id: "t9", priority: "high", loud: true }));
    expect(el.querySelector('[aria-label="Latest announcements"] li')!.textContent).toContain("The backup is done.");
    // The budget is read again once the turn has ended, not polled.
    await new Promise((r) => setTimeout(r, 350));
    expect(el.querySelector<HTMLElement>(".gauge")!.dataset.level).toBe("over");
    expect(t.calls.filter((c) => c.cmd === "budget").length).toBe(2);
  });

  it("answers an approval in its own tile", async () => {
    const { a, t, el } = await cockpit();
    t.emit(ev("chat-1", { type: "approval_requested", request }));
    const card = el.querySelector<HTMLElement>('.approval[data-request="q1"]')!;
    expect(card.textContent).toContain("git tag v1.2");
    expect(el.querySelector<HTMLElement>('[aria-labelledby="ck-waiting"] > p')!.hidden).toBe(true);
    card.querySelector<HTMLButtonElement>('[data-decision="allow_once"]')!.click();
    await tick();
    expect(t.calls.at(-1)).toEqual({ cmd: "decide_approval", args: { requestId: "q1", decision: { decision: "allow_once" } } });
    // On another view the same panel sits above it.
    await a.navigate("audit");
    expect(a.root.querySelector(".center > .approvals .approval")).not.toBeNull();
  });

  it("opens a task from its line", async () => {
    const [api, t] = fakeApi();
    t.answers.tasks = [task({})];
    const opened: unknown[] = [];
    const v = new CockpitView(api, () => undefined, (view, params) => opened.push([view, params]));
    await v.enter();
    v.el.querySelector<HTMLButtonElement>('[data-task="t1"] button')!.click();
    expect(opened).toEqual([["tasks", { task: "t1" }]]);
  });

  it("measures the tighter cap, and none without caps", () => {
    expect(budgetShare(budget())).toBeNull();
    expect(budgetShare(budget({ tokens: 100, daily_tokens: 1000, cost_usd: 0.5, daily_cost_usd: 1 }))).toBe(50);
  });

  it("reads the snapshot again when a run ends while it is on its way", async () => {
    const [api, t] = fakeApi();
    let release: () => void = () => undefined;
    let reads = 0;
    t.answers.cockpit = () => {
      reads += 1;
      if (reads > 1) return { runs: [], budget: budget(), announcements: [] };
      return new Promise((r) => (release = () => r({ runs: [run], budget: budget(), announcements: [] })));
    };
    const v = new CockpitView(api, () => undefined, () => undefined);
    const entering = v.enter();
    await tick();
    // Ended before the snapshot (which still has it) arrives.
    v.onEvent(ev("chat-1", { type: "turn_finished", turn_id: "r1", stop: "completed", usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, rounds: 1 }));
    release();
    await entering;
    expect(reads).toBe(2);
    expect(v.el.querySelector('[aria-label="Running now"]')!.textContent).toContain("Idle");
  });

  it("shows the first unfinished call, the one running", async () => {
    const { t, el } = await cockpit();
    t.emit(ev("chat-1", { type: "tool_call_started", call_id: "w", name: "local_write_file" }));
    t.emit(ev("chat-1", { type: "tool_call_finished", call_id: "c0", name: "local_exec", status: "ok", duration_ms: 1, summary: "" }));
    expect(el.querySelector(".now-item")!.textContent).toContain("calling local_write_file");
    t.emit(ev("chat-1", { type: "tool_call_started", call_id: "x", name: "http_request" }));
    expect(el.querySelector(".now-item")!.textContent).toContain("calling local_write_file");
    t.emit(ev("chat-1", { type: "tool_call_finished", call_id: "w", name: "local_write_file", status: "ok", duration_ms: 1, summary: "" }));
    expect(el.querySelector(".now-item")!.textContent).toContain("calling http_request");
  });
});
