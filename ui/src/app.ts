// The HUD: navigation, the views, the approval panel and the status bar,
// fed by one event stream. The agent drives it through whitelisted actions.
import type { Api, HudState } from "./api";
import { errorText } from "./api";
import { ApprovalPanel } from "./approvals";
import { h } from "./dom";
import type { EventEnvelope, UiAction } from "./protocol";
import { StatusBar } from "./statusbar";
import { ChatView } from "./views/chat";
import { CockpitView } from "./views/cockpit";
import { FirstRun } from "./views/firstrun";
import { SchedulesView, TasksView } from "./views/hub";
import { AuditView, GrantsView, RunsView } from "./views/records";
import { MemoryView } from "./views/memory";
import { ReflectView } from "./views/reflect";
import { SettingsView } from "./views/settings";
import { SkillsView } from "./views/skills";
import type { View } from "./views/view";

export const VIEWS = ["cockpit", "chat", "runs", "tasks", "schedules", "skills", "memory", "reflect", "audit", "grants", "settings"] as const;
/** Alt+digit opens the view at that place; Settings, the last, is also Ctrl+, as elsewhere. */
const DIGITS = "1234567890";
export function shortcutOf(view: ViewName): string {
  const i = VIEWS.indexOf(view);
  if (view === "settings") return "Ctrl+,";
  return i < DIGITS.length ? `Alt+${DIGITS[i]}` : "";
}
export type ViewName = (typeof VIEWS)[number];
const PANELS = ["approvals", "conversations"];
const FOCUS = ["input", "push_to_talk", "search"];

/** The HUD's own check of an agent action (the shell checks it too). */
export function acceptAction(a: UiAction): string | null {
  switch (a.kind) {
    case "navigate":
      return (VIEWS as readonly string[]).includes(a.view) ? null : `unknown view ${a.view}`;
    case "open_panel":
      return PANELS.includes(a.panel) ? null : `unknown panel ${a.panel}`;
    case "focus":
      return FOCUS.includes(a.target) ? null : `unknown focus target ${a.target}`;
    default:
      return "unknown action";
  }
}

export class App {
  readonly root: HTMLElement;
  readonly chat: ChatView;
  readonly cockpit: CockpitView;
  readonly skills: SkillsView;
  readonly approvals: ApprovalPanel;
  readonly status: StatusBar;
  private views: Map<ViewName, View>;
  private nav: HTMLElement;
  private main: HTMLElement;
  private toasts: HTMLElement;
  private center: HTMLElement;
  private budgetTimer: number | null = null;
  current: ViewName = "cockpit";
  state: HudState | null = null;

  constructor(private api: Api) {
    const toast = (m: string) => this.toast(m);
    this.chat = new ChatView(api, toast);
    this.skills = new SkillsView(api, toast);
    this.cockpit = new CockpitView(api, toast, (view, params) => void this.navigate(view, params));
    const views: View[] = [
      this.cockpit,
      this.chat,
      new RunsView(api, toast, (id) => void this.navigate("chat", { session: id })),
      new TasksView(api, toast, (id) => void this.navigate("chat", { session: id })),
      new SchedulesView(api, toast),
      this.skills,
      new MemoryView(api, toast),
      new ReflectView(api, toast),
      new AuditView(api, toast),
      new GrantsView(api, toast),
      new SettingsView(api, toast, () => this.refresh()),
    ];
    this.views = new Map(views.map((v) => [v.name as ViewName, v]));
    for (const v of views) v.el.hidden = v.name !== this.current;
    this.approvals = new ApprovalPanel(api, toast);
    this.status = new StatusBar(api, toast, () => this.toggleTheme());
    this.nav = h(
      "nav",
      { class: "sidebar", "aria-label": "Views" },
      h("div", { class: "brand" }, h("span", { class: "logo", "aria-hidden": "true" }, "J"), "Jarvis"),
      h(
        "ul",
        {},
        ...views.map((v) =>
          h("li", {}, h("button", { "data-view": v.name, title: `${v.title} (${shortcutOf(v.name as ViewName)})`, onclick: () => void this.navigate(v.name as ViewName) }, v.title)),
        ),
      ),
    );
    this.main = h("main", { id: "main", tabindex: "-1" }, ...views.map((v) => v.el));
    this.toasts = h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    this.center = h("div", { class: "center" }, this.approvals.el, this.main);
    this.root = h("div", { class: "app" }, this.nav, this.center, this.status.el, this.toasts);
    document.addEventListener("keydown", (e) => this.onKey(e));
    // Dark by default: a cockpit is read at a glance, often beside other windows.
    this.applyTheme(localStorage.getItem("jarvis-theme") ?? "dark");
  }

  async start() {
    await this.api.onEvent((env) => this.onEvent(env));
    const state = await this.refresh();
    for (const n of state.notices) this.toast(n);
    if (state.first_run || state.workdir_problem) {
      // No folder the tools may use yet: ask for one (alone when the rest is
      // set up), over the conversation the setup is for.
      await this.navigate("chat");
      const done = () => void this.refresh().then(() => this.chat.focusInput());
      this.root.appendChild(new FirstRun(this.api, state, done, !state.first_run).el);
    } else {
      await this.navigate("cockpit");
    }
    this.refreshBudget(0);
  }

  /** Today's budget, read again once the work that spent it has ended. */
  refreshBudget(delayMs = 300) {
    if (this.budgetTimer !== null) return;
    this.budgetTimer = window.setTimeout(() => {
      this.budgetTimer = null;
      this.api.budget().then(
        (b) => {
          this.status.showBudget(b);
          this.cockpit.showBudget(b);
        },
        (e) => console.warn(`budget: ${errorText(e)}`),
      );
    }, delayMs);
  }

  async refresh(): Promise<HudState> {
    const s = await this.api.hudState();
    this.state = s;
    this.status.show(s);
    this.cockpit.setVoice(s.voice.paused ? "paused" : s.voice.state);
    return s;
  }

  async navigate(view: ViewName, params?: Record<string, unknown>) {
    this.current = view;
    for (const [name, v] of this.views) v.el.hidden = name !== view;
    // The approvals sit in the Cockpit's own tile there, above the view elsewhere.
    if (view === "cockpit") this.cockpit.approvalsSlot.appendChild(this.approvals.el);
    else if (this.approvals.el.parentElement !== this.center) this.center.insertBefore(this.approvals.el, this.main);
    for (const b of this.nav.querySelectorAll<HTMLButtonElement>("button[data-view]")) {
      if (b.dataset.view === view) b.setAttribute("aria-current", "page");
      else b.removeAttribute("aria-current");
    }
    this.root.dataset.view = view;
    document.title = `Jarvis — ${this.views.get(view)?.title ?? view}`;
    try {
      await this.views.get(view)?.enter(params);
    } catch (e) {
      this.toast(errorText(e));
    }
  }

  onEvent(env: EventEnvelope) {
    const ev = env;
    this.approvals.onEvent(env);
    this.cockpit.setWaiting(this.approvals.pending);
    this.status.onEvent(env);
    if (ev.type === "turn_finished" || (ev.type === "task_changed" && !["queued", "running"].includes(ev.task.status))) this.refreshBudget();
    if (ev.type === "voice_transcript" && env.session_id && env.session_id !== this.chat.session) {
      // A spoken turn: show its conversation.
      void this.navigate("chat", { session: env.session_id });
    }
    this.chat.onEvent(env);
    for (const v of this.views.values()) if (v !== this.chat) v.onEvent?.(env);
    if (ev.type === "action") this.act(ev.action);
    if (ev.type === "voice_notice" || (ev.type === "notice" && !env.session_id)) this.toast(ev.message);
    // Said about a schedule, or in a conversation not on screen.
    if (ev.type === "announcement" && env.session_id !== this.chat.session) this.toast(ev.text);
    if (ev.type === "error" && env.session_id !== this.chat.session) this.toast(ev.message);
  }

  act(a: UiAction) {
    const problem = acceptAction(a);
    if (problem) {
      console.warn(`rejected HUD action: ${problem}`);
      this.toast(`Ignored an action: ${problem}`);
      return;
    }
    if (a.kind === "navigate") {
      const params = a.params && typeof a.params === "object" ? (a.params as Record<string, unknown>) : undefined;
      void this.navigate(a.view as ViewName, params);
    } else if (a.kind === "open_panel") {
      if (a.panel === "approvals") this.approvals.focus();
      else void this.navigate("chat").then(() => this.chat.search.focus());
    } else if (a.kind === "focus") {
      if (a.target === "input") void this.navigate("chat").then(() => this.chat.focusInput());
      else if (a.target === "search") void this.navigate("chat").then(() => this.chat.search.focus());
      else this.status.ptt.focus();
    }
  }

  toast(message: string) {
    const t = h("div", { class: "toast" }, message);
    this.toasts.appendChild(t);
    setTimeout(() => t.remove(), 6000);
  }

  private onKey(e: KeyboardEvent) {
    const digit = e.altKey && !e.ctrlKey ? DIGITS.indexOf(e.key) : -1;
    if (digit >= 0 && digit < VIEWS.length) {
      e.preventDefault();
      void this.navigate(VIEWS[digit]).then(() => this.main.focus());
    } else if ((e.ctrlKey || e.metaKey) && e.key === ",") {
      e.preventDefault();
      void this.navigate("settings").then(() => this.main.focus());
    } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
      e.preventDefault();
      void this.navigate("chat").then(() => this.chat.search.focus());
    } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "n") {
      e.preventDefault();
      void this.navigate("chat").then(() => this.chat.startNew());
    }
  }

  private applyTheme(theme: string) {
    document.documentElement.dataset.theme = theme === "light" ? "light" : "dark";
  }

  toggleTheme() {
    const next = document.documentElement.dataset.theme === "light" ? "dark" : "light";
    localStorage.setItem("jarvis-theme", next);
    this.applyTheme(next);
  }

  /** Paths dropped on the window: a skill to inspect. */
  async dropped(paths: string[]) {
    if (!paths.length) return;
    await this.navigate("skills");
    await this.skills.inspect(paths[0]);
  }
}
