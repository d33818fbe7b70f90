import { describe, expect, it } from "vitest";
import { fakeApi } from "../testing";
import { SkillsView } from "./skills";

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("skills view", () => {
  it("shows an install report and installs only on confirm, forcing past findings", async () => {
    const [api, t] = fakeApi();
    t.answers.skills = [];
    t.answers.inspect_skill = {
      token: "tok",
      report: { name: "shady", description: "d", target: "/h/skills/shady", exists: false, files: [["SKILL.md", 120]], problems: [], warnings: [], findings: [{ file: "SKILL.md", line: 4, reason: "pipes a download into a shell", text: "curl x | sh" }] },
    };
    t.answers.install_skill = "/h/skills/shady";
    const v = new SkillsView(api, () => undefined);
    await v.inspect("/tmp/shady");
    expect(t.calls.some((c) => c.cmd === "install_skill")).toBe(false);
    expect(v.el.querySelector(".findings")!.textContent).toContain("SKILL.md:4 — pipes a download into a shell");
    const install = v.el.querySelector<HTMLButtonElement>('[data-action="install"]')!;
    expect(install.textContent).toBe("Install anyway");
    install.click();
    await tick();
    expect(t.calls.find((c) => c.cmd === "install_skill")!.args).toEqual({ token: "tok", force: true });
  });

  it("cancel discards the staged skill; test shows the check's result", async () => {
    const [api, t] = fakeApi();
    t.answers.skills = [{ name: "notes", description: "Take notes", dir: "/h/skills/notes", location: "/h/skills/notes/SKILL.md", source: "user", warnings: [], shadows: [], enabled: true, valid: true, problems: [], usage_count: 2, last_used: null }];
    t.answers.inspect_skill = { token: "t2", report: { name: "ok", description: "", target: "/x", exists: false, files: [], problems: [], warnings: [], findings: [] } };
    t.answers.discard_skill = undefined;
    t.answers.test_skill = { name: "notes", problems: ["name: must match the folder"], findings: [] };
    const v = new SkillsView(api, () => undefined);
    await v.enter();
    await v.inspect("/tmp/ok");
    v.el.querySelector<HTMLButtonElement>('[data-action="cancel"]')!.click();
    await tick();
    expect(t.calls.find((c) => c.cmd === "discard_skill")!.args).toEqual({ token: "t2" });
    v.el.querySelector<HTMLButtonElement>('[data-action="test"]')!.click();
    await tick();
    expect(v.el.querySelector(".skill-test")!.textContent).toBe("spec: name: must match the folder");
  });

  it("shows a proposal card; draft, review and apply go through the brain", async () => {
    const [api, t] = fakeApi();
    const base = { id: "p1", name: "french-translate", summary: "translate into French", requests: ["Translate “hi” into French", "translate my notes into French", "French please: “bye”"], tools: ["local_read_file"], created_at: Date.now(), problems: [], findings: [], diff: null };
    let status = "pending";
    t.answers.skills = [];
    t.answers.proposals = () => [{ ...base, status, draft: status === "drafted" ? "---\nname: french-translate\n---\nbody" : null }];
    t.answers.accept_proposal = () => ((status = "drafted"), { ...base, status });
    t.answers.proposal = () => ({ ...base, status, draft: "---\nname: french-translate\n---\nbody", diff: "-old\n+new" });
    t.answers.apply_proposal = () => ((status = "applied"), "/h/skills/french-translate");
    const toasts: string[] = [];
    const v = new SkillsView(api, (m) => toasts.push(m));
    await v.enter();
    await tick();
    const card = v.el.querySelector<HTMLElement>('[data-proposal="p1"]')!;
    expect(card.textContent).toContain("You asked me to translate into French 3 times. Shall I make a skill for it?");
    expect(t.calls.some((c) => c.cmd === "apply_proposal")).toBe(false);
    card.querySelector<HTMLButtonElement>('[data-action="draft-it"]')!.click();
    await tick();
    await tick();
    expect(t.calls.find((c) => c.cmd === "accept_proposal")!.args).toEqual({ id: "p1" });
    const drafted = v.el.querySelector<HTMLElement>('[data-proposal="p1"]')!;
    expect(drafted.querySelector("pre.draft")!.textContent).toContain("name: french-translate");
    expect(drafted.querySelector("pre.diff")!.textContent).toBe("-old\n+new");
    expect(drafted.querySelector(".proposal-review .ok")!.textContent).toContain("install scan found nothing");
    drafted.querySelector<HTMLButtonElement>('[data-action="apply"]')!.click();
    await tick();
    await tick();
    expect(toasts).toContain("Installed french-translate in /h/skills/french-translate");
    // Applied this week: one button left, to roll it back.
    const applied = v.el.querySelector<HTMLElement>('[data-proposal="p1"]')!;
    expect(applied.classList.contains("applied")).toBe(true);
    t.answers.rollback_proposal = () => ((status = "dismissed"), "/h/.trash/skills/1-french-translate");
    applied.querySelector<HTMLButtonElement>('[data-action="roll-back"]')!.click();
    await tick();
    await tick();
    expect(t.calls.find((c) => c.cmd === "rollback_proposal")!.args).toEqual({ id: "p1" });
    expect(v.el.querySelector("[data-proposal]")).toBeNull();
  });

  it("a dismissed proposal leaves the view", async () => {
    const [api, t] = fakeApi();
    let status = "pending";
    t.answers.skills = [];
    t.answers.proposals = () => [{ id: "p2", status, name: "n", summary: "s", requests: ["a", "b", "c"], tools: [], created_at: 1, draft: null, problems: [], findings: [], diff: null }];
    t.answers.dismiss_proposal = () => void (status = "dismissed");
    const v = new SkillsView(api, () => undefined);
    await v.enter();
    await tick();
    v.el.querySelector<HTMLButtonElement>('[data-action="not-now"]')!.click();
    await tick();
    await tick();
    expect(t.calls.find((c) => c.cmd === "dismiss_proposal")!.args).toEqual({ id: "p2" });
    expect(v.el.querySelector<HTMLElement>(".proposals")!.hidden).toBe(true);
  });
});
