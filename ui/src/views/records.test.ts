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
});
