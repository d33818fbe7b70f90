import { describe, expect, it } from "vitest";
import { RUNS_PAGE } from "../api";
import { fakeApi } from "../testing";
import { RunsView } from "./records";

const tick = () => new Promise((r) => setTimeout(r, 0));

const run = (i: number) => ({ session_id: `s${i}`, title: `conversation ${i}`, updated_at: 0, turns: [{ turn_id: "t", stop: "needs_approval", prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }], calls: [] });

describe("runs view", () => {
  it("pages through conversations instead of fetching them all", async () => {
    const [api, t] = fakeApi();
    const total = RUNS_PAGE + 3;
    t.answers.runs = (args: { offset: number; limit: number }) => Array.from({ length: Math.max(0, Math.min(args.limit, total - args.offset)) }, (_, k) => run(args.offset + k));
    const v = new RunsView(api, () => undefined, () => undefined);
    await v.enter();
    expect(v.el.querySelectorAll("article.run").length).toBe(RUNS_PAGE);
    expect(t.calls.filter((c) => c.cmd === "runs").map((c) => c.args)).toEqual([{ limit: RUNS_PAGE, offset: 0 }]);
    v.el.querySelector<HTMLButtonElement>("button.more")!.click();
    await tick();
    expect(v.el.querySelectorAll("article.run").length).toBe(total);
    expect(t.calls.filter((c) => c.cmd === "runs").at(-1)!.args).toEqual({ limit: RUNS_PAGE, offset: RUNS_PAGE });
    expect(v.el.querySelector("button.more")).toBeNull();
    expect(v.el.textContent).toContain("needs_approval");
  });

  it("keeps one copy when pages overlap or the view is entered twice, and retries a failed page", async () => {
    const [api, t] = fakeApi();
    let fail = false;
    // The list moved between pages: the second page repeats s24.
    t.answers.runs = (args: { offset: number }) => {
      if (fail) throw { kind: "test", message: "offline" };
      return args.offset === 0 ? Array.from({ length: RUNS_PAGE }, (_, k) => run(k)) : [run(RUNS_PAGE - 1), run(RUNS_PAGE)];
    };
    const v = new RunsView(api, () => undefined, () => undefined);
    await Promise.all([v.enter(), v.enter()]);
    expect(v.el.querySelectorAll("article.run").length).toBe(RUNS_PAGE);
    expect(v.el.querySelectorAll("button.more").length).toBe(1);
    fail = true;
    v.el.querySelector<HTMLButtonElement>("button.more")!.click();
    await tick();
    expect(v.el.querySelector("button.more"), "still there to retry").not.toBeNull();
    fail = false;
    v.el.querySelector<HTMLButtonElement>("button.more")!.click();
    await tick();
    expect(v.el.querySelectorAll("article.run").length).toBe(RUNS_PAGE + 1);
  });
});
