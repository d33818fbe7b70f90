// First run: endpoint, model, folder, microphone — four steps, then the
// chat. The folder step alone comes back whenever the working folder cannot
// be used (none chosen, home, a system folder): the app never guesses one.
import type { Api, HudState } from "../api";
import { errorText } from "../api";
import { clear, h } from "../dom";

export class FirstRun {
  readonly el: HTMLElement;
  private step = 0;
  private body: HTMLElement;
  private models: string[] = [];

  constructor(private api: Api, private state: HudState, private done: () => void, private folderOnly = false) {
    this.body = h("div", { class: "firstrun-body" });
    const title = folderOnly ? "Choose a folder" : "Set up Jarvis";
    this.el = h("div", { class: "firstrun", role: "dialog", "aria-modal": "true", "aria-label": title }, h("h1", {}, title), this.body);
    if (folderOnly) this.step = 2;
    this.render();
  }

  private steps(): HTMLElement {
    return h("ol", { class: "steps" }, ...["Endpoint", "Model", "Folder", "Microphone"].map((s, i) => h("li", { "aria-current": i === this.step ? "step" : null }, s)));
  }

  private render() {
    clear(this.body);
    if (!this.folderOnly) this.body.appendChild(this.steps());
    if (this.step === 0) this.endpoint();
    else if (this.step === 1) this.model();
    else if (this.step === 2) this.folder();
    else this.microphone();
  }

  private folder() {
    const offer = this.state.workdir_problem ? this.state.suggested_workdir : this.state.workdir;
    const dir = h("input", { id: "fr-folder", type: "text", value: offer, spellcheck: "false" });
    const status = h("p", { role: "status", class: this.state.workdir_problem ? "warn" : "muted" }, this.state.workdir_problem ?? "");
    const next = h("button", { class: "primary" }, "Use this folder");
    next.addEventListener("click", async () => {
      try {
        const chosen = await this.api.chooseWorkdir(dir.value);
        this.state = { ...this.state, workdir: chosen, workdir_problem: null };
        if (this.folderOnly) return this.close();
        this.step = 3;
        this.render();
      } catch (e) {
        status.className = "warn";
        status.textContent = errorText(e);
      }
    });
    this.body.append(
      h("p", {}, "Which folder may Jarvis work in? Its file tools and commands stay inside it; the rest of your home, your keys and Jarvis's own settings stay out of reach. It is created if it does not exist."),
      h("div", { class: "field" }, h("label", { for: "fr-folder" }, "Folder"), dir),
      status,
      h("div", { class: "row" }, next),
    );
    dir.focus();
  }

  private endpoint() {
    const url = h("input", { id: "fr-url", type: "url", value: this.state.base_url });
    const key = h("input", { id: "fr-key", type: "password", autocomplete: "off", placeholder: this.state.api_key ?? "optional for local servers" });
    const status = h("p", { role: "status", class: "muted" });
    const next = h("button", { class: "primary" }, "Connect");
    next.addEventListener("click", async () => {
      status.textContent = "Connecting…";
      try {
        await this.api.setConfig("llm.base_url", JSON.stringify(url.value.trim()));
        if (key.value.trim()) await this.api.setApiKey(key.value);
        const c = await this.api.testConnection();
        if (!c.ok) {
          status.textContent = `Not connected: ${c.error}`;
          return;
        }
        this.models = c.models;
        this.step = 1;
        this.render();
      } catch (e) {
        status.textContent = errorText(e);
      }
    });
    this.body.append(
      h("p", {}, "Where is your model? Any OpenAI-compatible server works: llama.cpp, Ollama, vLLM, or a hosted API."),
      h("div", { class: "field" }, h("label", { for: "fr-url" }, "Endpoint"), url),
      h("div", { class: "field" }, h("label", { for: "fr-key" }, "API key"), key),
      status,
      h("div", { class: "row" }, h("button", { onclick: () => this.finish() }, "Skip setup"), next),
    );
    url.focus();
  }

  private model() {
    const sel = h("select", { id: "fr-model" }, ...this.models.map((m) => h("option", { value: m, selected: m === this.state.model }, m)));
    const next = h("button", { class: "primary" }, "Use this model");
    next.addEventListener("click", async () => {
      if (sel.value) await this.api.setConfig("llm.model", JSON.stringify(sel.value)).catch(() => undefined);
      this.step = this.state.workdir_problem ? 2 : 3;
      this.render();
    });
    this.body.append(
      this.models.length ? h("div", { class: "field" }, h("label", { for: "fr-model" }, "Model"), sel) : h("p", { class: "warn" }, "The server lists no models; the configured one is kept."),
      h("div", { class: "row" }, next),
    );
    sel.focus();
  }

  private microphone() {
    const v = this.state.voice;
    const missing = v.models.filter((m) => !m.installed);
    this.body.append(
      v.microphones.length
        ? h("p", {}, `Microphone: ${v.microphones[0]}${v.microphones.length > 1 ? ` (+${v.microphones.length - 1} more in Settings)` : ""}`)
        : h("p", { class: "warn", role: "status" }, "No microphone found. You can type to Jarvis; connect a microphone any time."),
      missing.length
        ? h("p", { class: "warn", role: "status" }, `No ${missing.map((m) => m.name).join(", ")} model yet: download it in Settings → Voice to talk.`)
        : h("p", { class: "ok" }, "Speech models are installed."),
      h("div", { class: "row" }, h("button", { class: "primary", onclick: () => this.finish() }, "Start")),
    );
  }

  private async finish() {
    // Saving any key creates config.json, which ends the first run.
    await this.api.setConfig("voice.paused", String(this.state.voice.paused)).catch(() => undefined);
    this.close();
  }

  private close() {
    this.el.remove();
    this.done();
  }
}
