// Runs, audit and grants: what the agent did and what it may do unasked.
import type { Api, AuditRow, Run } from "../api";
import { errorText, RUNS_PAGE } from "../api";
import { clear, h, when } from "../dom";
import type { View } from "./view";

function table(head: string[], caption: string): [HTMLElement, HTMLTableSectionElement] {
  const body = h("tbody");
  const t = h(
    "table",
    {},
    h("caption", { class: "sr-only" }, caption),
    h("thead", {}, h("tr", {}, ...head.map((c) => h("th", { scope: "col" }, c)))),
    body,
  );
  // Focusable so a keyboard can scroll a long table.
  return [h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": caption }, t), body];
}

export class AuditView implements View {
  readonly name = "audit";
  readonly title = "Audit";
  readonly el: HTMLElement;
  private body: HTMLTableSectionElement;
  private filter: HTMLInputElement;
  private verdict: HTMLSelectElement;
  private rows: AuditRow[] = [];
  private selected: number | null = null;

  constructor(private api: Api, private toast: (m: string) => void) {
    this.filter = h("input", { type: "search", placeholder: "Filter by tool or text", "aria-label": "Filter audit", oninput: () => this.render() });
    this.verdict = h(
      "select",
      { "aria-label": "Verdict", onchange: () => this.render() },
      ...["any", "allow", "ask", "block"].map((v) => h("option", { value: v }, v === "any" ? "Any verdict" : v)),
    );
    const [t, body] = table(["When", "Tool", "Call", "Verdict", "Decided by", "Reason", "Outcome", "ms"], "Audit of every tool call");
    this.body = body;
    this.el = h(
      "section",
      { class: "view records", "aria-label": "Audit" },
      h("header", { class: "view-head" }, h("h1", {}, "Audit"), h("div", { class: "filters" }, this.filter, this.verdict)),
      t,
    );
  }

  async enter(params?: Record<string, unknown>) {
    this.selected = typeof params?.audit === "number" ? params.audit : null;
    try {
      this.rows = await this.api.audit();
    } catch (e) {
      this.toast(errorText(e));
    }
    this.render();
  }

  private render() {
    clear(this.body);
    const q = this.filter.value.trim().toLowerCase();
    const v = this.verdict.value;
    for (const r of this.rows) {
      if (v !== "any" && !r.verdict.startsWith(v)) continue;
      if (q && !`${r.tool} ${r.arguments} ${r.reason} ${r.outcome ?? ""}`.toLowerCase().includes(q)) continue;
      const tr = h(
        "tr",
        { "data-audit": r.id, class: r.id === this.selected ? "selected" : null, "data-verdict": r.verdict },
        h("td", {}, when(r.at)),
        h("td", {}, h("code", {}, r.tool)),
        h("td", { class: "args" }, h("code", {}, r.arguments.length > 160 ? r.arguments.slice(0, 160) + "…" : r.arguments)),
        h("td", {}, h("span", { class: `badge ${r.verdict}` }, r.verdict)),
        h("td", {}, r.decided_by),
        h("td", {}, r.reason),
        h("td", {}, r.outcome ?? ""),
        h("td", { class: "num" }, r.duration_ms === null ? "" : String(r.duration_ms)),
      );
      this.body.appendChild(tr);
      if (r.id === this.selected) tr.scrollIntoView({ block: "center" });
    }
    if (!this.body.firstChild) this.body.appendChild(h("tr", {}, h("td", { colspan: "8", class: "muted empty" }, "Nothing recorded yet")));
  }
}

export class GrantsView implements View {
  readonly name = "grants";
  readonly title = "Grants";
  readonly el: HTMLElement;
  private body: HTMLTableSectionElement;

  constructor(private api: Api, private toast: (m: string) => void) {
    const [t, body] = table(["Tool", "Scope", ""], "Standing grants");
    this.body = body;
    this.el = h(
      "section",
      { class: "view records", "aria-label": "Grants" },
      h("header", { class: "view-head" }, h("h1", {}, "Grants"), h("p", { class: "muted" }, "What Jarvis may do without asking, from your “always allow” answers.")),
      t,
    );
  }

  async enter() {
    clear(this.body);
    try {
      const grants = await this.api.grants();
      for (const g of grants) {
        const revoke = h("button", { class: "danger", "aria-label": `Revoke ${g.tool} ${g.scope}` }, "Revoke");
        revoke.addEventListener("click", async () => {
          try {
            await this.api.revoke(g.tool, g.scope);
            await this.enter();
          } catch (e) {
            this.toast(errorText(e));
          }
        });
        this.body.appendChild(h("tr", { "data-grant": `${g.tool}:${g.scope}` }, h("td", {}, h("code", {}, g.tool)), h("td", {}, h("code", {}, g.scope)), h("td", {}, revoke)));
      }
      if (!grants.length) this.body.appendChild(h("tr", {}, h("td", { colspan: "3", class: "muted empty" }, "No standing grants: every call that needs approval asks.")));
    } catch (e) {
      this.toast(errorText(e));
    }
  }
}

export class RunsView implements View {
  readonly name = "runs";
  readonly title = "Runs";
  readonly el: HTMLElement;
  private list: HTMLElement;
  private generation = 0;
  private shown = new Set<string>();

  constructor(private api: Api, private toast: (m: string) => void, private openSession: (id: string) => void) {
    this.list = h("div", { class: "runs" });
    this.el = h(
      "section",
      { class: "view records", "aria-label": "Runs" },
      h("header", { class: "view-head" }, h("h1", {}, "Runs"), h("p", { class: "muted" }, "What the agent did, conversation by conversation.")),
      this.list,
    );
  }

  async enter() {
    this.generation++;
    this.shown.clear();
    clear(this.list);
    await this.page(0, this.generation);
  }

  /** Appends one page; "Show more" fetches the next (and retries a page
   * that failed). A page that comes back after the view was entered again
   * is dropped, and a conversation already shown is not shown twice. */
  private async page(offset: number, generation: number) {
    this.list.querySelector(".more")?.remove();
    let runs: Run[] | null = null;
    try {
      runs = await this.api.runs(offset);
    } catch (e) {
      this.toast(errorText(e));
    }
    if (generation !== this.generation) return;
    const more = (next: number) =>
      this.list.appendChild(h("button", { class: "more", onclick: () => void this.page(next, generation) }, "Show more"));
    if (runs === null) {
      more(offset);
      return;
    }
    for (const r of runs) {
      if (this.shown.has(r.session_id)) continue;
      this.shown.add(r.session_id);
      this.list.appendChild(this.article(r));
    }
    if (!runs.length && offset === 0) this.list.appendChild(h("p", { class: "muted empty" }, "No runs yet."));
    if (runs.length === RUNS_PAGE) more(offset + runs.length);
  }

  private article(r: Run): HTMLElement {
    const tokens = r.turns.reduce((n, t) => n + t.total_tokens, 0);
    const stops = r.turns.map((t) => t.stop).filter((s) => s !== "completed");
    return h(
      "article",
      { class: "run", "data-session": r.session_id },
      h(
        "header",
        {},
        h("button", { class: "link", onclick: () => this.openSession(r.session_id) }, r.title || "Untitled"),
        h("span", { class: "muted" }, `${when(r.updated_at)} · ${r.turns.length} turns · ${r.calls.length} tool calls · ${tokens} tokens${stops.length ? " · " + stops.join(", ") : ""}`),
      ),
      r.calls.length
        ? h("ul", { class: "calls" }, ...r.calls.slice(0, 20).map((c) => h("li", { "data-verdict": c.verdict }, h("code", {}, c.tool), " ", h("span", { class: `badge ${c.verdict}` }, c.verdict), " ", h("span", { class: "muted" }, c.outcome ?? c.reason))))
        : null,
    );
  }
}
