// Chat: the conversation list, the streaming transcript with tool chips,
// and the composer.
import type { Api, ChangeInfo, SessionInfo, HistoryMessage, UndoReport } from "../api";
import { errorText } from "../api";
import { clear, h, when } from "../dom";
import type { EventEnvelope } from "../protocol";
import { Chip } from "./chips";
import type { View } from "./view";

export function newSessionId(): string {
  return crypto.randomUUID();
}

/** What an undo did, in a line. */
export function undoSummary(r: UndoReport): string {
  const parts: string[] = [];
  if (r.restored.length) parts.push(`restored ${r.restored.map(base).join(", ")}`);
  if (r.removed.length) parts.push(`removed ${r.removed.map(base).join(", ")}`);
  for (const [path, copy] of r.kept_both) parts.push(`${base(path)} was changed since: kept, with the earlier version in ${base(copy)}`);
  parts.push(...r.problems);
  return parts.length ? `Undone: ${parts.join("; ")}` : "Nothing left to undo";
}

const base = (p: string) => p.split("/").pop() ?? p;

export class ChatView implements View {
  readonly name = "chat";
  readonly title = "Chat";
  readonly el: HTMLElement;
  session = newSessionId();
  running = false;
  private log: HTMLElement;
  private input: HTMLTextAreaElement;
  private sendBtn: HTMLButtonElement;
  private cancelBtn: HTMLButtonElement;
  private list: HTMLElement;
  readonly search: HTMLInputElement;
  private sessions: SessionInfo[] = [];
  private turn: HTMLElement | null = null;
  private text: Text | null = null;
  private reasoning: Text | null = null;
  private chips = new Map<string, Chip>();
  /** Each turn's element, for its Undo bar. */
  private turnEls = new Map<string, HTMLElement>();

  constructor(private api: Api, private toast: (m: string) => void) {
    this.search = h("input", {
      type: "search",
      placeholder: "Search conversations",
      "aria-label": "Search conversations",
      oninput: () => this.renderList(),
    });
    this.list = h("ul", { class: "session-list", "aria-label": "Conversations" });
    this.log = h("div", { class: "log", role: "log", "aria-live": "polite", "aria-label": "Conversation", tabindex: "0" });
    this.input = h("textarea", {
      rows: 2,
      placeholder: "Ask Jarvis… (Enter sends, Shift+Enter for a new line)",
      "aria-label": "Message",
      onkeydown: (e: Event) => {
        const k = e as KeyboardEvent;
        if (k.key === "Enter" && !k.shiftKey) {
          k.preventDefault();
          void this.submit();
        }
      },
    });
    this.sendBtn = h("button", { class: "primary", onclick: () => void this.submit() }, "Send");
    this.cancelBtn = h("button", { disabled: true, onclick: () => void this.cancel() }, "Cancel");
    this.el = h(
      "section",
      { class: "view chat", "aria-label": "Chat" },
      h(
        "div",
        { class: "sessions" },
        h("div", { class: "sessions-head" }, h("button", { onclick: () => this.startNew() }, "+ New conversation")),
        this.search,
        this.list,
      ),
      h("div", { class: "conversation" }, this.log, h("div", { class: "composer" }, this.input, this.sendBtn, this.cancelBtn)),
    );
  }

  async enter(params?: Record<string, unknown>) {
    const s = params?.session;
    if (typeof s === "string" && s !== this.session) await this.open(s);
    await this.refreshList();
  }

  focusInput() {
    this.input.focus();
  }

  startNew() {
    this.session = newSessionId();
    this.resetTurn();
    this.turnEls.clear();
    clear(this.log);
    this.setRunning(false);
    this.renderList();
    this.input.focus();
  }

  async refreshList() {
    try {
      this.sessions = await this.api.sessions();
    } catch (e) {
      this.toast(errorText(e));
    }
    this.renderList();
  }

  private renderList() {
    clear(this.list);
    const q = this.search.value.trim().toLowerCase();
    for (const s of this.sessions) {
      if (q && !s.title.toLowerCase().includes(q)) continue;
      const current = s.id === this.session;
      const open = h(
        "button",
        { class: "session-open", "aria-current": current ? "true" : null, onclick: () => void this.open(s.id) },
        h("span", { class: "session-title" }, s.title || "Untitled"),
        h("span", { class: "muted" }, when(s.updated_at)),
      );
      const rename = h("button", { class: "icon", "aria-label": `Rename ${s.title}`, title: "Rename", onclick: () => this.renameInline(li, s) }, "✎");
      const del = h("button", { class: "icon danger", "aria-label": `Delete ${s.title}`, title: "Delete" }, "✕");
      del.addEventListener("click", () => {
        if (del.dataset.armed) {
          void this.api.deleteSession(s.id).then(() => {
            if (s.id === this.session) this.startNew();
            void this.refreshList();
          }, (e) => this.toast(errorText(e)));
        } else {
          del.dataset.armed = "1";
          del.textContent = "Delete?";
          setTimeout(() => {
            delete del.dataset.armed;
            del.textContent = "✕";
          }, 4000);
        }
      });
      const li = h("li", { "data-session": s.id }, open, rename, del);
      this.list.appendChild(li);
    }
    if (!this.list.firstChild) this.list.appendChild(h("li", { class: "muted empty" }, q ? "No match" : "No conversations yet"));
  }

  private renameInline(li: HTMLElement, s: SessionInfo) {
    const field = h("input", { value: s.title, "aria-label": "New title" });
    const done = async (save: boolean) => {
      if (save && field.value.trim() && field.value !== s.title) {
        try {
          await this.api.rename(s.id, field.value);
        } catch (e) {
          this.toast(errorText(e));
        }
      }
      await this.refreshList();
    };
    field.addEventListener("keydown", (e) => {
      if (e.key === "Enter") void done(true);
      if (e.key === "Escape") void done(false);
    });
    field.addEventListener("blur", () => void done(true));
    clear(li);
    li.appendChild(field);
    field.focus();
    field.select();
  }

  async open(sessionId: string) {
    this.session = sessionId;
    this.resetTurn();
    this.turnEls.clear();
    clear(this.log);
    this.renderList();
    try {
      this.renderHistory(await this.api.history(sessionId));
      await this.showChanges();
    } catch (e) {
      this.toast(errorText(e));
    }
  }

  /** Under each turn that changed files: what it changed, and Undo. */
  async showChanges() {
    const session = this.session;
    const changes = await this.api.sessionChanges(session);
    if (session !== this.session) return;
    const byTurn = new Map<string, ChangeInfo[]>();
    for (const c of changes) if (!c.undone) byTurn.set(c.turn_id, [...(byTurn.get(c.turn_id) ?? []), c]);
    for (const [turn, el] of this.turnEls) {
      el.querySelector(".undo-bar")?.remove();
      const these = byTurn.get(turn);
      if (these?.length) el.appendChild(this.undoBar(turn, these));
    }
  }

  private undoBar(turn: string, changes: ChangeInfo[]): HTMLElement {
    const files = [...new Set(changes.map((c) => c.path.split("/").pop() ?? c.path))];
    const label = h("span", { class: "muted" }, `Changed ${files.length} file${files.length === 1 ? "" : "s"}: ${files.join(", ")}`);
    const undo = h("button", { "data-turn": turn, title: "Put these files back as they were before this turn" }, "Undo");
    const bar = h("div", { class: "undo-bar row" }, label, undo);
    undo.addEventListener("click", async () => {
      undo.disabled = true;
      try {
        const report: UndoReport = await this.api.undoTurn(turn);
        bar.replaceChildren(h("span", { class: "muted undone" }, undoSummary(report)));
      } catch (e) {
        undo.disabled = false;
        this.toast(errorText(e));
      }
    });
    return bar;
  }

  renderHistory(messages: HistoryMessage[]) {
    const chips = new Map<string, Chip>();
    for (const m of messages) {
      if (m.role === "user") {
        this.addUser(m.content ?? "");
        this.turn = null;
      } else if (m.role === "assistant") {
        const turn = this.ensureTurn();
        this.turnEls.set(m.turn_id, turn);
        if (m.content) turn.appendChild(h("div", { class: "text" }, m.content));
        for (const c of m.tool_calls ?? []) {
          const chip = new Chip(c.id, c.name);
          chip.setArgs(c.arguments);
          chip.set("ok");
          chips.set(c.id, chip);
          turn.appendChild(chip.el);
        }
      } else if (m.role === "tool" && m.tool_call_id) {
        const chip = chips.get(m.tool_call_id);
        const content = m.content ?? "";
        if (chip) {
          chip.setResult(content);
          if (/^(refused|denied|blocked)/i.test(content)) chip.set("refused");
          else if (/^error/i.test(content)) chip.set("error");
        }
      }
    }
    this.resetTurn();
    this.log.scrollTop = this.log.scrollHeight;
  }

  private addUser(text: string) {
    this.log.appendChild(h("div", { class: "msg user" }, h("div", { class: "who" }, "You"), h("div", { class: "text" }, text)));
  }

  private ensureTurn(): HTMLElement {
    if (!this.turn) {
      this.turn = h("div", { class: "msg assistant" }, h("div", { class: "who" }, "Jarvis"));
      this.log.appendChild(this.turn);
    }
    return this.turn;
  }

  private resetTurn() {
    this.turn = null;
    this.text = null;
    this.reasoning = null;
    this.chips.clear();
  }

  private setRunning(on: boolean) {
    this.running = on;
    this.cancelBtn.disabled = !on;
    this.el.dataset.running = on ? "true" : "false";
  }

  async submit() {
    const text = this.input.value.trim();
    if (!text || this.running) return;
    this.input.value = "";
    this.addUser(text);
    this.resetTurn();
    this.setRunning(true);
    try {
      await this.api.send(this.session, text);
    } catch (e) {
      this.setRunning(false);
      this.showError(errorText(e));
    }
  }

  private async cancel() {
    try {
      await this.api.cancel(this.session);
    } catch (e) {
      this.toast(errorText(e));
    }
  }

  private showError(message: string) {
    this.ensureTurn().appendChild(h("div", { class: "error", role: "alert" }, message));
  }

  /** One event of the stream; only this session's are drawn. */
  onEvent(env: EventEnvelope) {
    if (env.session_id !== this.session) {
      if (env.type === "turn_finished") void this.refreshList();
      return;
    }
    const ev = env;
    const stick = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 40;
    switch (ev.type) {
      case "turn_started":
        this.setRunning(true);
        this.turnEls.set(ev.turn_id, this.ensureTurn());
        break;
      case "content_delta":
        if (!this.text) {
          const div = h("div", { class: "text" });
          this.text = document.createTextNode("");
          div.appendChild(this.text);
          this.ensureTurn().appendChild(div);
        }
        this.text.appendData(ev.text);
        break;
      case "reasoning_delta":
        if (!this.reasoning) {
          const body = h("div", { class: "reasoning-text" });
          this.reasoning = document.createTextNode("");
          body.appendChild(this.reasoning);
          this.ensureTurn().appendChild(h("details", { class: "reasoning" }, h("summary", {}, "Reasoning"), body));
        }
        this.reasoning.appendData(ev.text);
        break;
      case "tool_call_started": {
        const chip = new Chip(ev.call_id, ev.name);
        this.chips.set(ev.call_id, chip);
        this.ensureTurn().appendChild(chip.el);
        // Text after a tool call starts a new paragraph below the chip.
        this.text = null;
        break;
      }
      case "tool_call_arguments_delta":
        this.chips.get(ev.call_id)?.appendArgs(ev.delta);
        break;
      case "approval_requested":
        this.chips.get(ev.request.call_id)?.set("waiting");
        break;
      case "approval_resolved":
        for (const c of this.chips.values()) if (c.status === "waiting") c.set("running");
        break;
      case "tool_call_finished": {
        const chip = this.chips.get(ev.call_id);
        if (chip) {
          chip.settleArgs();
          chip.set(ev.status, ev.summary);
        }
        break;
      }
      case "turn_finished":
        this.setRunning(false);
        if (ev.stop !== "completed") {
          this.ensureTurn().appendChild(h("div", { class: "muted stop" }, `stopped: ${ev.stop.replace("_", " ")}`));
        }
        this.resetTurn();
        void this.refreshList();
        this.showChanges().catch((e) => this.toast(errorText(e)));
        break;
      case "error":
        this.showError(ev.message);
        if (ev.fatal) this.setRunning(false);
        break;
      case "notice":
        this.ensureTurn().appendChild(h("div", { class: "muted notice" }, ev.message));
        break;
      case "announcement":
        // Jarvis speaking up (a task it started here ended): its own line.
        this.log.appendChild(h("div", { class: "announcement", role: "status" }, ev.text));
        break;
      default:
        return;
    }
    if (stick) this.log.scrollTop = this.log.scrollHeight;
  }
}
