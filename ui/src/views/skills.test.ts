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
});
