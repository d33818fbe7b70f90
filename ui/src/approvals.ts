// The HUD's side of every approval: the same request the native dialog
// shows. Whichever answers first wins; a resolved request leaves both.
import type { Api } from "./api";
import { errorText } from "./api";
import { h } from "./dom";
import type { ApprovalDecision, ApprovalRequest, EventEnvelope } from "./protocol";

export class ApprovalPanel {
  readonly el: HTMLElement;
  private items = new Map<string, HTMLElement>();

  constructor(private api: Api, private toast: (m: string) => void) {
    this.el = h("aside", { class: "approvals", "aria-label": "Approvals", hidden: true });
  }

  get pending(): number {
    return this.items.size;
  }

  onEvent(env: EventEnvelope) {
    const ev = env;
    if (ev.type === "approval_requested") this.add(ev.request);
    if (ev.type === "approval_resolved") this.remove(ev.request_id);
  }

  private add(r: ApprovalRequest) {
    const decide = (d: ApprovalDecision) => async () => {
      card.querySelectorAll("button").forEach((b) => ((b as HTMLButtonElement).disabled = true));
      try {
        await this.api.decide(r.request_id, d);
      } catch (e) {
        this.toast(errorText(e));
      }
    };
    const countdown = h("span", { class: "muted countdown" }, `${r.timeout_sec} s`);
    const started = Date.now();
    const timer = window.setInterval(() => {
      const left = Math.max(0, r.timeout_sec - Math.floor((Date.now() - started) / 1000));
      countdown.textContent = `${left} s`;
      if (!card.isConnected) window.clearInterval(timer);
    }, 1000);
    const rows: [string, string][] = [
      ["Exactly", r.subject],
      ["In", r.workdir],
    ];
    if (r.details) rows.push(["Will do", r.details]);
    rows.push(["Why asked", r.reason]);
    if (r.offer_network) rows.push(["Network", "none: it runs offline unless you choose “Allow with network” for this one call"]);
    if (r.allow_always) rows.push(["Always allow covers", r.grant_scope]);
    const card = h(
      "div",
      { class: "approval", role: "alertdialog", "aria-label": `Approve ${r.tool}`, "data-request": r.request_id },
      h("div", { class: "approval-head" }, h("strong", {}, `Approve ${r.tool}?`), countdown),
      h("dl", {}, ...rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, h("code", {}, v))])),
      h(
        "div",
        { class: "approval-actions" },
        h("button", { class: "danger", "data-decision": "deny", onclick: decide({ decision: "deny", reason: "denied in the HUD" }) }, "Deny"),
        // Only what this request offers: no grant for what creates
        // extensions, network only for what runs a program.
        r.allow_always ? h("button", { "data-decision": "always_allow", onclick: decide({ decision: "always_allow" }) }, "Always allow") : null,
        r.offer_network ? h("button", { "data-decision": "allow_with_network", onclick: decide({ decision: "allow_with_network" }) }, "Allow with network") : null,
        h("button", { class: "primary", "data-decision": "allow_once", onclick: decide({ decision: "allow_once" }) }, "Allow once"),
      ),
    );
    this.items.set(r.request_id, card);
    this.el.appendChild(card);
    this.el.hidden = false;
  }

  private remove(id: string) {
    this.items.get(id)?.remove();
    this.items.delete(id);
    this.el.hidden = this.items.size === 0;
  }

  focus() {
    this.el.querySelector<HTMLButtonElement>("button")?.focus();
  }
}
