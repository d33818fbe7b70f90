// Skills: what Jarvis proposes from repeated requests (draft, review,
// apply), the catalog with enable/disable/delete, and installing a dropped
// folder or .zip after reading its report.
import type { Api, InstallReport, ProposalInfo, SkillListing } from "../api";
import { errorText } from "../api";
import { append, bytes, clear, h } from "../dom";
import type { View } from "./view";

export class SkillsView implements View {
  readonly name = "skills";
  readonly title = "Skills";
  readonly el: HTMLElement;
  private body: HTMLElement;
  private proposals: HTMLElement;
  private report: HTMLElement;
  private path: HTMLInputElement;
  private selected: string | null = null;

  constructor(private api: Api, private toast: (m: string) => void) {
    this.body = h("div", { class: "skill-list" });
    this.proposals = h("section", { class: "proposals", "aria-label": "Proposed skills", hidden: true });
    this.report = h("div", { class: "install-report", hidden: true, "aria-live": "polite" });
    this.path = h("input", { type: "text", placeholder: "/path/to/skill-folder or skill.zip", "aria-label": "Skill folder or .zip to install" });
    const drop = h(
      "div",
      { class: "dropzone" },
      h("p", {}, "Drop a skill folder or .zip anywhere on this window, or give its path:"),
      h("div", { class: "row" }, this.path, h("button", { onclick: () => void this.inspect(this.path.value) }, "Inspect")),
    );
    this.el = h(
      "section",
      { class: "view skills", "aria-label": "Skills" },
      h("header", { class: "view-head" }, h("h1", {}, "Skills")),
      this.proposals,
      drop,
      this.report,
      this.body,
    );
  }

  async enter(params?: Record<string, unknown>) {
    this.selected = typeof params?.skill === "string" ? params.skill : null;
    void this.showProposals();
    clear(this.body);
    let list: SkillListing[] = [];
    try {
      list = await this.api.skills();
    } catch (e) {
      this.toast(errorText(e));
    }
    for (const s of list) this.body.appendChild(this.card(s));
    if (!list.length) this.body.appendChild(h("p", { class: "muted empty" }, "No skills yet. Ask Jarvis to create one, or drop one here."));
  }

  /** Open proposals, each a card: pending → draft, drafted → review and apply. */
  async showProposals() {
    let all: ProposalInfo[] = [];
    try {
      all = await this.api.proposals();
    } catch (e) {
      this.toast(errorText(e));
    }
    // Open ones, and the week's applied ones (they can be rolled back).
    const week = Date.now() - 7 * 24 * 3600 * 1000;
    const open = all.filter((p) => ["pending", "drafted", "stale"].includes(p.status) || (p.status === "applied" && p.created_at >= week));
    clear(this.proposals);
    this.proposals.hidden = !open.length;
    if (!open.length) return;
    this.proposals.append(h("h2", {}, "Jarvis noticed"), ...open.map((p) => this.proposalCard(p)));
  }

  private proposalCard(p: ProposalInfo): HTMLElement {
    const act = (label: string, cls: string, run: () => Promise<unknown>, busy: string) => {
      const b = h("button", { class: cls, "data-action": label.toLowerCase().replace(/\W+/g, "-") }, label);
      b.addEventListener("click", async () => {
        b.disabled = true;
        b.textContent = busy;
        try {
          await run();
        } catch (e) {
          this.toast(errorText(e));
        }
        await this.enter();
      });
      return b;
    };
    const summary = p.summary.replace(/[.?!]+$/, "");
    const review = h("div", { class: "proposal-review" });
    const buttons: HTMLElement[] = [];
    if (p.status === "applied") {
      const undo = act("Roll back", "danger", async () => this.toast(`${p.name} moved to ${await this.api.rollbackProposal(p.id)}`), "…");
      return h(
        "article",
        { class: "proposal applied", "data-proposal": p.id },
        h("header", {}, h("strong", {}, p.name), h("span", { class: "badge ok" }, "applied")),
        h("p", {}, `Made from ${p.requests.length} requests like “${p.requests[0] ?? p.summary}”. Roll back puts it in the trash and brings back what it replaced.`),
        h("div", { class: "row" }, undo),
      );
    }
    if (p.status === "drafted") {
      void this.api.proposal(p.id).then(
        (full) => this.showDraft(review, full),
        (e) => this.toast(errorText(e)),
      );
      buttons.push(
        act("Apply", "primary", async () => this.toast(`Installed ${p.name} in ${await this.api.applyProposal(p.id)}`), "Installing…"),
        act("Redraft", "", () => this.api.acceptProposal(p.id), "Drafting…"),
      );
    } else {
      buttons.push(act(p.status === "stale" ? "Redraft" : "Draft it", "primary", () => this.api.acceptProposal(p.id), "Drafting…"));
    }
    buttons.push(act("Not now", "", () => this.api.dismissProposal(p.id), "…"));
    return h(
      "article",
      { class: `proposal ${p.status}`, "data-proposal": p.id },
      h(
        "header",
        {},
        h("strong", {}, p.name),
        h("span", { class: `badge ${p.status === "stale" ? "warn" : "ok"}` }, p.status),
      ),
      h("p", {}, `You asked me to ${summary} ${p.requests.length} times. Shall I make a skill for it?`),
      p.status === "stale" ? h("p", { class: "warn" }, "The skill of that name changed since the draft; draft it again to review what would replace it.") : null,
      h(
        "details",
        {},
        h("summary", {}, "What you asked"),
        h("ul", {}, ...p.requests.map((r) => h("li", {}, r))),
        p.tools.length ? h("p", { class: "muted" }, `Tools used: ${p.tools.join(", ")}`) : null,
      ),
      review,
      h("div", { class: "row" }, ...buttons),
    );
  }

  private showDraft(into: HTMLElement, p: ProposalInfo) {
    clear(into);
    const verdicts = [
      ...p.problems.map((x) => `spec: ${x}`),
      ...p.findings.map((f) => `scan ${f.file}:${f.line} — ${f.reason}: ${f.text}`),
    ];
    append(
      into,
      h("h3", {}, "The draft"),
      h("pre", { class: "draft", tabindex: "0", "aria-label": `Drafted SKILL.md for ${p.name}` }, p.draft ?? ""),
      verdicts.length ? h("ul", { class: "problems" }, ...verdicts.map((v) => h("li", {}, v))) : h("p", { class: "ok" }, "Valid, and the install scan found nothing."),
      p.diff ? h("details", { open: true }, h("summary", {}, "What it changes in the installed skill"), h("pre", { class: "diff", tabindex: "0" }, p.diff)) : null,
    );
  }

  onEvent(env: import("../protocol").EventEnvelope) {
    // A proposal is announced at the end of the turn that earned it.
    if (env.type === "announcement" && !env.task_id && !this.el.hidden) void this.showProposals();
  }

  private card(s: SkillListing): HTMLElement {
    const toggle = h("input", { type: "checkbox", role: "switch", checked: s.enabled, "aria-label": `Enable ${s.name}` });
    toggle.addEventListener("change", async () => {
      try {
        await this.api.setSkillEnabled(s.name, toggle.checked);
      } catch (e) {
        toggle.checked = !toggle.checked;
        this.toast(errorText(e));
      }
    });
    const del = h("button", { class: "danger", "aria-label": `Delete ${s.name}` }, "Delete");
    del.addEventListener("click", async () => {
      if (!del.dataset.armed) {
        del.dataset.armed = "1";
        del.textContent = "Move to trash?";
        return;
      }
      try {
        const to = await this.api.deleteSkill(s.name);
        this.toast(`${s.name} moved to ${to}`);
        await this.enter();
      } catch (e) {
        this.toast(errorText(e));
      }
    });
    const result = h("div", { class: "skill-test", role: "status" });
    const test = h("button", { "aria-label": `Test ${s.name}`, "data-action": "test" }, "Test");
    test.addEventListener("click", async () => {
      clear(result);
      try {
        const t = await this.api.testSkill(s.name);
        const lines = [...t.problems.map((p) => `spec: ${p}`), ...t.findings.map((f) => `danger ${f.file}:${f.line} — ${f.reason}: ${f.text}`)];
        if (!lines.length) result.appendChild(h("p", { class: "ok" }, "Valid, and the scan found nothing."));
        else result.appendChild(h("ul", { class: "problems" }, ...lines.map((l) => h("li", {}, l))));
      } catch (e) {
        result.appendChild(h("p", { class: "error" }, errorText(e)));
      }
    });
    const problems = [...s.problems, ...s.warnings];
    return h(
      "article",
      { class: `skill${s.name === this.selected ? " selected" : ""}`, "data-skill": s.name },
      h("header", {}, h("label", { class: "switch" }, toggle, h("strong", {}, s.name)), h("span", { class: `badge ${s.valid ? "ok" : "warn"}` }, s.valid ? "valid" : "has problems"), h("span", { class: "muted" }, `${s.source} · used ${s.usage_count}×`)),
      h("p", {}, s.description),
      problems.length ? h("ul", { class: "problems" }, ...problems.map((p) => h("li", {}, p))) : null,
      h("div", { class: "row" }, h("code", { class: "muted" }, s.dir), h("span", { class: "spacer" }), test, del),
      result,
    );
  }

  /** A folder or .zip dropped on the window (or typed): show its report. */
  async inspect(path: string) {
    path = path.trim();
    if (!path) return;
    clear(this.report);
    this.report.hidden = false;
    this.report.appendChild(h("p", { class: "muted" }, `Inspecting ${path}…`));
    try {
      const { token, report } = await this.api.inspectSkill(path);
      this.showReport(token, report);
    } catch (e) {
      clear(this.report);
      this.report.appendChild(h("p", { class: "error", role: "alert" }, errorText(e)));
    }
  }

  private showReport(token: string, r: InstallReport) {
    clear(this.report);
    const risky = r.findings.length > 0 || r.exists;
    const install = h("button", { class: risky ? "danger" : "primary", "data-action": "install" }, risky ? "Install anyway" : "Install");
    const cancel = h("button", { "data-action": "cancel" }, "Cancel");
    install.addEventListener("click", async () => {
      install.disabled = true;
      try {
        const to = await this.api.installSkill(token, risky);
        clear(this.report);
        this.report.appendChild(h("p", { class: "ok", role: "status" }, `Installed ${r.name} in ${to}`));
        await this.enter({ skill: r.name });
      } catch (e) {
        this.report.appendChild(h("p", { class: "error", role: "alert" }, errorText(e)));
      }
    });
    cancel.addEventListener("click", async () => {
      await this.api.discardSkill(token).catch(() => undefined);
      this.report.hidden = true;
      clear(this.report);
    });
    const list = (title: string, items: string[], cls: string) =>
      items.length ? h("div", { class: cls }, h("h3", {}, title), h("ul", {}, ...items.map((i) => h("li", {}, i)))) : null;
    append(
      this.report,
      h("h2", {}, `Install ${r.name}?`),
      h("p", {}, r.description),
      h("p", { class: "muted" }, `${r.files.length} files, ${bytes(r.files.reduce((n, f) => n + f[1], 0))} → ${r.target}${r.exists ? " (replaces the installed one; it goes to the trash)" : ""}`),
      list("Findings of the security scan", r.findings.map((f) => `${f.file}:${f.line} — ${f.reason}: ${f.text}`), "findings"),
      list("Departures from the spec", r.problems, "problems"),
      list("Warnings", r.warnings, "problems"),
      r.findings.length || r.problems.length || r.warnings.length ? null : h("p", { class: "ok" }, "Valid, and the scan found nothing."),
      h("div", { class: "row" }, cancel, install),
    );
    install.focus();
  }
}
