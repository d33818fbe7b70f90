import { describe, expect, it } from "vitest";
import { StatusBar } from "./statusbar";
import { ev, fakeApi, hudState, tick } from "./testing";

describe("status bar: Stop everything", () => {
  it("stops from a button, then offers Resume while the schedules are held", async () => {
    const [api, t] = fakeApi();
    t.answers.stop_everything = undefined;
    t.answers.resume_everything = undefined;
    const toasts: string[] = [];
    const bar = new StatusBar(api, (m) => toasts.push(m), () => undefined);
    bar.show(hudState());
    const resume = bar.el.querySelector<HTMLButtonElement>(".resume-all")!;
    expect(resume.hidden).toBe(true);
    bar.stop.click();
    await tick();
    expect(t.calls.map((c) => c.cmd)).toContain("stop_everything");
    bar.onEvent(ev(null, { type: "stopped", by: "the HUD", turns: 1, tasks: 2 }));
    expect(resume.hidden).toBe(false);
    expect(toasts.at(-1)).toBe("Stopped everything (the HUD): 1 turn(s), 2 task(s); schedules held");
    resume.click();
    await tick();
    expect(t.calls.map((c) => c.cmd)).toContain("resume_everything");
    bar.onEvent(ev(null, { type: "resumed" }));
    expect(resume.hidden).toBe(true);
  });

  it("shows the hold a stop made before the window opened", () => {
    const [api] = fakeApi();
    const bar = new StatusBar(api, () => undefined, () => undefined);
    bar.show(hudState({ stop_hold: { by: "jarvis stop", at: 1 } }));
    expect(bar.el.querySelector<HTMLButtonElement>(".resume-all")!.hidden).toBe(false);
  });
});
