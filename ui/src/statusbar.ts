// The status bar: voice state, the mic level meter, push-to-talk, Stop
// everything (and, while it holds the schedules, Resume), theme.
import type { Api, BudgetReport, HudState } from "./api";
import { errorText } from "./api";
import { h } from "./dom";
import type { EventEnvelope, VoiceState } from "./protocol";
import { budgetUse, paintBudget } from "./views/cockpit";

export class StatusBar {
  readonly el: HTMLElement;
  readonly ptt: HTMLButtonElement;
  private state: HTMLElement;
  private meter: HTMLElement;
  private level: HTMLElement;
  private info: HTMLElement;
  private hint: HTMLElement;
  private held = false;
  readonly stop: HTMLButtonElement;
  private resume: HTMLButtonElement;
  private budget: HTMLElement;
  private budgetFill: HTMLElement;
  private budgetText: HTMLElement;

  constructor(private api: Api, private toast: (m: string) => void, toggleTheme: () => void) {
    this.state = h("span", { class: "voice-state", "data-state": "idle", role: "status", "aria-live": "polite" }, "idle");
    this.level = h("span", { class: "meter-fill" });
    this.meter = h("span", { class: "meter", role: "meter", "aria-label": "Microphone level", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0" }, this.level);
    this.ptt = h("button", { class: "ptt", title: "Push to talk: hold" }, h("span", { "aria-hidden": "true" }, "◉ "), "Hold to talk");
    const down = (e: Event) => {
      e.preventDefault();
      if (this.held) return;
      this.held = true;
      this.ptt.classList.add("held");
      this.api.voicePress().catch((err) => this.toast(errorText(err)));
    };
    const up = () => {
      if (!this.held) return;
      this.held = false;
      this.ptt.classList.remove("held");
      this.api.voiceRelease().catch((err) => this.toast(errorText(err)));
    };
    this.ptt.addEventListener("pointerdown", down);
    this.ptt.addEventListener("pointerup", up);
    this.ptt.addEventListener("pointerleave", up);
    this.ptt.addEventListener("keydown", (e) => {
      if ((e.key === " " || e.key === "Enter") && !e.repeat) down(e);
    });
    this.ptt.addEventListener("keyup", (e) => {
      if (e.key === " " || e.key === "Enter") up();
    });
    this.stop = h("button", { class: "danger stop-all", title: "Cancel every running turn and task, silence speech, hold the schedules" }, "Stop everything");
    this.stop.addEventListener("click", () => this.api.stopEverything().catch((err) => this.toast(errorText(err))));
    this.resume = h("button", { class: "resume-all", hidden: true, title: "Let the schedules run again" }, "Schedules held — Resume");
    this.resume.addEventListener("click", () => this.api.resumeEverything().catch((err) => this.toast(errorText(err))));
    this.budgetFill = h("span", { class: "meter-fill" });
    this.budget = h("span", { class: "meter budget-meter", role: "meter", "aria-label": "Today's budget used", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0" }, this.budgetFill);
    this.budgetText = h("span", { class: "muted budget-text" }, "");
    this.info = h("span", { class: "muted info" });
    this.hint = h("span", { class: "muted hint" });
    this.el = h(
      "footer",
      { class: "statusbar" },
      h("span", { class: "label" }, "Voice"),
      this.state,
      this.meter,
      this.ptt,
      this.hint,
      h("span", { class: "spacer" }),
      h("span", { class: "label" }, "Budget"),
      this.budget,
      this.budgetText,
      this.resume,
      this.stop,
      this.info,
      h("button", { class: "icon", "aria-label": "Switch between dark and light theme", title: "Theme", onclick: toggleTheme }, "◐"),
    );
  }

  show(s: HudState) {
    this.info.textContent = `${s.model} · ${s.workdir}`;
    const problem = s.voice.problem ?? s.shortcut_problem;
    this.setHint(problem ? problem : s.shortcut ? `or hold ${s.shortcut}` : "");
    this.setState(s.voice.paused ? "paused" : s.voice.state);
    this.ptt.disabled = s.voice.paused;
    this.setHeld(s.stop_hold !== null);
  }

  /** Today's use: the share of the tighter cap, or the tokens when uncapped. */
  showBudget(b: BudgetReport) {
    const pct = paintBudget(this.budget, this.budgetFill, b);
    this.budget.hidden = pct === null;
    this.budgetText.textContent = pct === null ? `${b.tokens.toLocaleString()} tokens today` : `${pct} %`;
    this.budgetText.title = budgetUse(b);
  }

  /** Cut to the bar's width; the whole text on hover. */
  private setHint(text: string) {
    this.hint.textContent = text;
    this.hint.title = text;
  }

  /** Stop everything holds the schedules until Resume. */
  setHeld(held: boolean) {
    this.resume.hidden = !held;
  }

  setState(state: VoiceState | "paused") {
    this.state.textContent = state;
    this.state.dataset.state = state;
    if (state !== "listening") this.setLevel(0);
  }

  setLevel(level: number) {
    // RMS of speech sits around 0.02–0.3: show it on a square-root scale.
    const pct = Math.round(Math.min(1, Math.sqrt(Math.max(0, level)) * 1.8) * 100);
    this.level.style.width = `${pct}%`;
    this.meter.setAttribute("aria-valuenow", String(pct));
  }

  onEvent(env: EventEnvelope) {
    const ev = env;
    if (ev.type === "voice_state") this.setState(ev.state);
    if (ev.type === "voice_level") this.setLevel(ev.level);
    if (ev.type === "voice_notice") this.setHint(ev.message);
    if (ev.type === "stopped") {
      this.setHeld(true);
      this.toast(`Stopped everything (${ev.by}): ${ev.turns} turn(s), ${ev.tasks} task(s); schedules held`);
    }
    if (ev.type === "resumed") this.setHeld(false);
  }
}
