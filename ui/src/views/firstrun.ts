// First run: the engine (a built-in model, downloaded here, or a server and
// its model), the folder, the microphone, then the chat. The folder step
// alone comes back whenever the working folder cannot be used (none chosen,
// home, a system folder): the app never guesses one.
import type { Api, HudState } from "../api";
import { errorText } from "../api";
import { clear, h } from "../dom";
import { chosen, size, useBuiltIn } from "./engine";

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
    return h("ol", { class: "steps" }, ...["Engine", "Model", "Folder", "Microphone"].map((s, i) => h("li", { "aria-current": i === this.step ? "step" : null }, s)));
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
    // Skipped, Jarvis talks but its hands wait: the folder is asked again
    // at the next start, never guessed.
    const later = h("button", { onclick: () => (this.folderOnly ? this.close() : this.skipTo(3)) }, this.folderOnly ? "Not now" : "Skip this step");
    this.body.append(
      h("p", {}, "Which folder may Jarvis work in? Its file tools and commands stay inside it; the rest of your home, your keys and Jarvis's own settings stay out of reach. It is created if it does not exist."),
      h("div", { class: "field" }, h("label", { for: "fr-folder" }, "Folder"), dir),
      status,
      h("p", { class: "muted" }, "Without a folder Jarvis can talk, but not read, write or run anything."),
      h("div", { class: "row" }, later, next),
    );
    dir.focus();
  }

  /** A built-in model, offered with its size and licence before any byte moves. */
  private builtIn(): HTMLElement | null {
    const m = chosen(this.state) ?? this.state.engine.models.find((x) => x.default);
    if (!m) return null;
    const status = h("p", { role: "status", class: "muted" });
    const bar = h("progress", { max: 1, value: m.installed ? 1 : 0, "aria-label": `${m.name} download`, hidden: !m.installed });
    const use = h("button", { class: "primary", id: "fr-builtin" }, m.installed ? `Use ${m.name}` : `Download and use (${size(m.bytes)})`);
    const stop = this.api.onModelProgress((p) => {
      if (p.model === m.name && p.total) {
        bar.hidden = false;
        bar.max = p.total;
        bar.value = p.done;
        status.textContent = `Downloading ${m.name}: ${size(p.done)} of ${size(p.total)}`;
      }
    });
    use.addEventListener("click", async () => {
      use.disabled = true;
      status.className = "muted";
      status.textContent = m.installed ? "Switching to the built-in engine…" : `Downloading ${m.name}…`;
      try {
        await useBuiltIn(this.api, m);
        void stop.then((f) => f());
        this.step = this.state.workdir_problem ? 2 : 3;
        this.render();
      } catch (e) {
        use.disabled = false;
        use.textContent = "Retry";
        status.className = "warn";
        status.textContent = errorText(e);
      }
    });
    return h(
      "section",
      { class: "choice", "aria-label": "Built-in model" },
      h("h2", {}, "Use a built-in model"),
      h("p", {}, `${m.what}. Runs on this computer, no account or server; licence ${m.license}.`),
      m.installed ? h("p", { class: "ok" }, "Already downloaded.") : h("p", { class: "muted" }, `No model yet: the download is ${size(m.bytes)}, once.`),
      bar,
      status,
      h("div", { class: "row" }, use),
    );
  }

  private endpoint() {
    const url = h("input", { id: "fr-url", type: "url", value: this.state.base_url });
    const key = h("input", { id: "fr-key", type: "password", autocomplete: "off", placeholder: this.state.api_key ?? "optional for local servers" });
    const status = h("p", { role: "status", class: "muted", id: "fr-endpoint-status" });
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
    const builtIn = this.builtIn();
    if (builtIn) this.body.append(builtIn, h("h2", {}, "Or connect to a server"));
    this.body.append(
      h("p", {}, "Any OpenAI-compatible server works: llama.cpp, Ollama, vLLM, or a hosted API."),
      h("div", { class: "field" }, h("label", { for: "fr-url" }, "Endpoint"), url),
      h("div", { class: "field" }, h("label", { for: "fr-key" }, "API key"), key),
      status,
      h("div", { class: "row" }, h("button", { onclick: () => this.skipTo(this.state.workdir_problem ? 2 : 3) }, "Skip this step"), next),
    );
    (builtIn?.querySelector<HTMLButtonElement>("#fr-builtin") ?? url).focus();
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

  private skipTo(step: number) {
    this.step = step;
    this.render();
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
