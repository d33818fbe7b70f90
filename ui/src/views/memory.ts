// Memory: everything Jarvis remembers about the user, bounded; what it
// only suggested waits for a yes; the user reads, edits and deletes it all.
import type { Api, MemoryItem, MemoryList } from "../api";
import { errorText } from "../api";
import { clear, h } from "../dom";
import type { View } from "./view";

const KINDS: [string, string][] = [
  ["preference", "Preference"],
  ["fact", "Fact"],
  ["do_not_disturb", "Do not disturb"],
];

export class MemoryView implements View {
  readonly name = "memory";
  readonly title = "Memory";
  readonly el: HTMLElement;
  private body: HTMLElement;
  private gauge: HTMLElement;
  private text: HTMLInputElement;
  private kind: HTMLSelectElement;

  constructor(private api: Api, private toast: (m: string) => void) {
    this.body = h("div", { class: "memory-list" });
    this.gauge = h("p", { class: "muted", role: "status" });
    this.text = h("input", { id: "memory-text", type: "text", placeholder: "I prefer metric units", "aria-label": "Something to remember" });
    this.kind = h("select", { id: "memory-kind", "aria-label": "Kind" }, ...KINDS.map(([v, l]) => h("option", { value: v }, l)));
    const add = h("button", { class: "primary", id: "memory-add" }, "Remember");
    add.addEventListener("click", () => void this.add());
    this.el = h(
      "section",
      { class: "view memory", "aria-label": "Memory" },
      h(
        "header",
        { class: "view-head" },
        h("h1", {}, "Memory"),
        h("p", { class: "muted" }, "What Jarvis knows about you, in every conversation's prompt. It keeps your own words; what it only guessed waits here for your yes; text from files or pages never becomes memory."),
      ),
      this.gauge,
      h("div", { class: "row" }, this.text, this.kind, add),
      this.body,
    );
  }

  async enter() {
    try {
      this.render(await this.api.memory());
    } catch (e) {
      this.toast(errorText(e));
    }
  }

  private async add() {
    const text = this.text.value.trim();
    if (!text) return;
    try {
      await this.api.memoryAdd(text, this.kind.value);
      this.text.value = "";
      await this.enter();
    } catch (e) {
      this.toast(errorText(e));
    }
  }

  private render(m: MemoryList) {
    this.gauge.textContent = `${m.used_chars.toLocaleString("en")} of ${m.max_chars.toLocaleString("en")} characters`;
    clear(this.body);
    const section = (title: string, items: MemoryItem[], empty: string, suggested = false) =>
      h(
        "section",
        { class: "memory-group", "aria-label": title },
        h("h2", {}, title),
        items.length ? h("ul", {}, ...items.map((i) => this.row(i, suggested))) : h("p", { class: "muted empty" }, empty),
      );
    this.body.append(
      section("Remembered", m.items, "Nothing yet. Tell Jarvis “remember that…”, or add it here."),
      section("Suggested by Jarvis", m.suggested, "No suggestions waiting.", true),
    );
    if (m.archived.length) this.body.append(section("Archived (over the limit, not in the prompt)", m.archived, "", true));
  }

  private row(i: MemoryItem, suggested: boolean): HTMLElement {
    const label = KINDS.find(([v]) => v === i.kind)?.[1] ?? i.kind;
    const text = h("span", { class: "memory-text" }, i.text);
    const edit = h("button", { "aria-label": `Edit “${i.text}”` }, "Edit");
    edit.addEventListener("click", () => {
      const input = h("input", { type: "text", value: i.text, "aria-label": "New words" });
      const save = h("button", { class: "primary" }, "Save");
      save.addEventListener("click", async () => {
        try {
          await this.api.memoryEdit(i.id, input.value);
          await this.enter();
        } catch (e) {
          this.toast(errorText(e));
        }
      });
      text.replaceWith(h("span", { class: "row" }, input, save));
      input.focus();
    });
    const forget = h("button", { class: "danger", "aria-label": `Forget “${i.text}”` }, "Forget");
    forget.addEventListener("click", async () => {
      try {
        await this.api.memoryForget(i.id);
        await this.enter();
      } catch (e) {
        this.toast(errorText(e));
      }
    });
    const keep = h("button", { class: "primary", "aria-label": `Keep “${i.text}”` }, "Keep");
    keep.addEventListener("click", async () => {
      try {
        await this.api.memoryConfirm(i.id);
        await this.enter();
      } catch (e) {
        this.toast(errorText(e));
      }
    });
    return h(
      "li",
      { "data-memory": i.id },
      text,
      h("span", { class: "muted" }, ` · ${label} · ${i.source === "user" ? "you said it" : i.source === "confirmed" ? "you confirmed it" : "suggested"} · ${new Date(i.at).toLocaleDateString()}`),
      h("span", { class: "row" }, ...(suggested ? [keep, forget] : [edit, forget])),
    );
  }
}
