import { describe, expect, it } from "vitest";
import type { MemoryItem, ReflectReport } from "../api";
import { fakeApi, tick } from "../testing";
import { MemoryView } from "./memory";
import { ReflectView, radar } from "./reflect";

const item = (id: string, text: string, source = "user", kind = "preference"): MemoryItem => ({ id, text, kind, source, at: Date.parse("2026-12-01T10:00:00Z") });

describe("memory view", () => {
  it("lists what is remembered and what waits; add, keep and forget go to the brain", async () => {
    const [api, t] = fakeApi();
    t.answers.memory = { max_chars: 2000, used_chars: 23, items: [item("m1", "I prefer metric units")], suggested: [item("m2", "Likes short answers", "suggested")], archived: [] };
    t.answers.memory_add = item("m3", "No calls after 22:00");
    t.answers.memory_confirm = item("m2", "Likes short answers", "confirmed");
    t.answers.memory_forget = item("m1", "I prefer metric units");
    const v = new MemoryView(api, () => undefined);
    await v.enter();
    expect(v.el.querySelector('[role="status"]')!.textContent).toBe("23 of 2,000 characters");
    expect(v.el.querySelector('[data-memory="m1"]')!.textContent).toContain("you said it");
    expect(v.el.querySelector('[aria-label="Suggested by Jarvis"]')!.textContent).toContain("Likes short answers");
    v.el.querySelector<HTMLInputElement>("#memory-text")!.value = "No calls after 22:00";
    v.el.querySelector<HTMLSelectElement>("#memory-kind")!.value = "do_not_disturb";
    v.el.querySelector<HTMLButtonElement>("#memory-add")!.click();
    await tick();
    expect(t.calls.find((c) => c.cmd === "memory_add")!.args).toEqual({ text: "No calls after 22:00", kind: "do_not_disturb" });
    v.el.querySelector<HTMLButtonElement>('[aria-label="Keep “Likes short answers”"]')!.click();
    await tick();
    expect(t.calls.find((c) => c.cmd === "memory_confirm")!.args).toEqual({ id: "m2" });
    v.el.querySelector<HTMLButtonElement>('[aria-label="Forget “I prefer metric units”"]')!.click();
    await tick();
    expect(t.calls.find((c) => c.cmd === "memory_forget")!.args).toEqual({ id: "m1" });
  });

  it("edits an item in place and shows the brain's refusal", async () => {
    const [api, t] = fakeApi();
    t.answers.memory = { max_chars: 40, used_chars: 21, items: [item("m1", "I prefer metric units")], suggested: [], archived: [] };
    t.answers.memory_edit = new Error("that would take 45 of 40 characters: 19 left");
    const toasts: string[] = [];
    const v = new MemoryView(api, (m) => toasts.push(m));
    await v.enter();
    v.el.querySelector<HTMLButtonElement>('[aria-label="Edit “I prefer metric units”"]')!.click();
    const input = v.el.querySelector<HTMLInputElement>('[aria-label="New words"]')!;
    input.value = "I prefer metric units, and Celsius, and 24-hour clocks";
    input.nextElementSibling!.dispatchEvent(new MouseEvent("click"));
    await tick();
    expect(t.calls.find((c) => c.cmd === "memory_edit")!.args).toEqual({ id: "m1", text: "I prefer metric units, and Celsius, and 24-hour clocks" });
    expect(toasts).toEqual(["that would take 45 of 40 characters: 19 left"]);
  });
});

const report: ReflectReport = {
  can: ["run commands (asking first)"],
  cannot: ["speak: no voice model"],
  did: ["12 tool calls, 11 succeeded"],
  radar: [
    { axis: "Hands", score: 11 / 12, samples: 12, metric: "tool calls that succeeded" },
    { axis: "Skills", score: 0.5, samples: 4, metric: "requests served by a skill" },
    { axis: "Autonomy", score: 0, samples: 0, metric: "background runs that finished without help (no samples yet)" },
    { axis: "Safety", score: 1, samples: 12, metric: "calls that needed no override" },
    { axis: "Growth", score: 0.25, samples: 4, metric: "proposals accepted" },
  ],
};

describe("reflect view", () => {
  it("draws five labelled axes with the polygon at the scores, and the figures", async () => {
    const [api, t] = fakeApi();
    t.answers.reflect = report;
    const v = new ReflectView(api, () => undefined);
    await v.enter();
    const svg = v.el.querySelector("svg.radar")!;
    expect([...svg.querySelectorAll("text.axis-label")].map((l) => l.getAttribute("data-axis"))).toEqual(["Hands", "Skills", "Autonomy", "Safety", "Growth"]);
    expect(svg.getAttribute("aria-label")).toContain("Hands 92 %");
    // Hands at 11/12 of the radius (130) straight up from the centre (200,190).
    const first = svg.querySelector("polygon.score")!.getAttribute("points")!.split(" ")[0].split(",").map(Number);
    expect(first[0]).toBeCloseTo(200);
    expect(first[1]).toBeCloseTo(190 - 130 * (11 / 12));
    expect(v.el.querySelector('tr[data-axis="Autonomy"]')!.textContent).toContain("no samples yet");
    expect(v.el.querySelector('[aria-label="Cannot now"]')!.textContent).toContain("speak: no voice model");
  });

  it("the same report draws the same radar", () => {
    expect(radar(report.radar).outerHTML).toBe(radar(report.radar).outerHTML);
  });
});
