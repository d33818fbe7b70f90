import { describe, expect, it } from "vitest";
import { ev, fakeApi, schedule, task, tick } from "../testing";
import { SchedulesView, TasksView, describe as words, duration } from "./hub";

describe("tasks view", () => {
  it("lists tasks, follows their status live, and cancels one", async () => {
    const [api, t] = fakeApi();
    t.answers.tasks = [task({})];
    t.answers.cancel_task = task({ status: "cancelled" });
    const v = new TasksView(api, () => undefined, () => undefined);
    await v.enter();
    const row = () => v.el.querySelector<HTMLElement>('[data-task="t1"]')!;
    expect(row().dataset.status).toBe("running");
    [...row().querySelectorAll("button")].find((b) => b.textContent === "Cancel")!.click();
    await tick();
    expect(t.calls.find((c) => c.cmd === "cancel_task")!.args).toEqual({ id: "t1" });
    v.onEvent(ev(null, { type: "task_changed", task: task({ status: "cancelled", finished_at: 4_000 }) }));
    expect(row().dataset.status).toBe("cancelled");
    expect(row().textContent).toContain("3 s");
    expect([...row().querySelectorAll("button")].some((b) => b.textContent === "Cancel")).toBe(false);
  });

  it("retries a task that needed an approval with that approval named up front", async () => {
    const [api, t] = fakeApi();
    t.answers.tasks = [task({ status: "needs_approval", needs: ["exec", "hub"], finished_at: 2_000, reason: "needs approval for exec" })];
    t.answers.retry_task = task({ id: "t2", status: "queued" });
    const v = new TasksView(api, () => undefined, () => undefined);
    await v.enter();
    const retry = [...v.el.querySelectorAll("button")].find((b) => b.textContent === "Retry, allowing exec")!;
    retry.click();
    await tick();
    expect(t.calls.find((c) => c.cmd === "retry_task")!.args).toEqual({ id: "t1", allow: ["exec"] });
    expect(v.el.textContent).toContain("hub can only be approved by a person");
  });
});

describe("schedules view", () => {
  it("shows next run, last result and skipped runs; pauses, runs now and edits", async () => {
    const [api, t] = fakeApi();
    t.answers.schedules = [schedule({})];
    t.answers.pause_schedule = schedule({ paused: true });
    t.answers.run_schedule_now = task({});
    t.answers.edit_schedule = schedule({ instruction: "check the nightly build", when: { kind: "daily", time: "07:30", weekdays: [] } });
    const v = new SchedulesView(api, () => undefined);
    document.body.replaceChildren(v.el);
    await v.enter();
    const text = v.el.textContent!;
    expect(text).toContain("every day at 09:00 (Europe/Berlin)");
    expect(text).toContain("held by Stop everything");
    expect(text).toContain("1 of the latest slots");
    const button = (label: string) => [...v.el.querySelectorAll("button")].find((b) => b.textContent === label)!;
    button("Pause").click();
    await tick();
    expect(t.calls.find((c) => c.cmd === "pause_schedule")!.args).toEqual({ id: "s1", paused: true });
    v.onEvent(ev(null, { type: "schedule_changed", schedule: schedule({ paused: true }) }));
    expect(v.el.querySelector<HTMLElement>('[data-schedule="s1"]')!.dataset.paused).toBe("true");
    button("Run now").click();
    await tick();
    expect(t.calls.some((c) => c.cmd === "run_schedule_now")).toBe(true);
    button("Edit").click();
    await tick();
    v.el.querySelector<HTMLTextAreaElement>("textarea")!.value = "check the nightly build";
    v.el.querySelector<HTMLInputElement>('input[type="time"]')!.value = "07:30";
    button("Save").click();
    await tick();
    expect(t.calls.find((c) => c.cmd === "edit_schedule")!.args).toEqual({
      id: "s1", instruction: "check the nightly build", when: { kind: "daily", time: "07:30", weekdays: [] },
    });
    expect(v.el.textContent).toContain("check the nightly build");
    // Cancelled elsewhere: the row goes.
    v.onEvent(ev(null, { type: "schedule_changed", schedule: schedule({ paused: true, next_run: null }) }));
    expect(v.el.querySelector('[data-schedule="s1"]')).toBeNull();
  });

  it("says times and durations plainly", () => {
    expect(words({ kind: "every", minutes: 15 })).toBe("every 15 min");
    expect(words({ kind: "daily", time: "09:00", weekdays: ["mon", "fri"] })).toBe("mon, fri at 09:00");
    expect(duration(250_000)).toBe("4 min 10 s");
  });
});
