// A tool call as a chip: live status, expandable arguments and result.
import { h } from "../dom";

export type ChipStatus = "running" | "waiting" | "ok" | "error" | "refused" | "cancelled";

const ICON: Record<ChipStatus, string> = {
  running: "⟳",
  waiting: "⏸",
  ok: "✓",
  error: "✗",
  refused: "⊘",
  cancelled: "–",
};

const LABEL: Record<ChipStatus, string> = {
  running: "running",
  waiting: "waiting for approval",
  ok: "done",
  error: "failed",
  refused: "refused",
  cancelled: "cancelled",
};

export class Chip {
  readonly el: HTMLDetailsElement;
  private icon: HTMLElement;
  private state: HTMLElement;
  private summary: HTMLElement;
  private args: HTMLElement;
  private result: HTMLElement;
  status: ChipStatus = "running";

  constructor(readonly callId: string, readonly name: string) {
    this.icon = h("span", { class: "chip-icon", "aria-hidden": "true" });
    this.state = h("span", { class: "chip-state" });
    this.summary = h("span", { class: "chip-summary" });
    this.args = h("pre", { class: "chip-args" });
    this.result = h("pre", { class: "chip-result" });
    this.el = h(
      "details",
      { class: "chip", "data-call-id": callId },
      h("summary", {}, this.icon, h("code", { class: "chip-name" }, name), this.state, this.summary),
      h("div", { class: "chip-body" }, h("h4", {}, "Arguments"), this.args, h("h4", {}, "Result"), this.result),
    );
    this.set("running");
  }

  set(status: ChipStatus, summary?: string) {
    this.status = status;
    this.el.dataset.status = status;
    this.icon.textContent = ICON[status];
    this.state.textContent = LABEL[status];
    if (summary !== undefined) {
      this.summary.textContent = summary;
      this.result.textContent = summary;
    }
  }

  appendArgs(delta: string) {
    this.args.textContent = (this.args.textContent ?? "") + delta;
  }

  setArgs(text: string) {
    this.args.textContent = pretty(text);
  }

  setResult(text: string) {
    this.result.textContent = text;
  }

  /** Arguments arrive as JSON text in pieces; show them indented once whole. */
  settleArgs() {
    this.args.textContent = pretty(this.args.textContent ?? "");
  }
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
