// Settings: every field writes one config key through the app (atomic, one
// writer); the API key goes to the OS keyring and only its tail comes back.
import type { Api, Config, HudState } from "../api";
import { errorText } from "../api";
import { bytes, clear, h } from "../dom";
import { engineLine, modelRows } from "./engine";
import type { View } from "./view";

export class SettingsView implements View {
  readonly name = "settings";
  readonly title = "Settings";
  readonly el: HTMLElement;
  private body: HTMLElement;
  private progress = new Map<string, HTMLProgressElement>();

  constructor(private api: Api, private toast: (m: string) => void, private refreshHud: () => Promise<HudState>) {
    this.body = h("div", { class: "settings-body" });
    this.el = h("section", { class: "view settings", "aria-label": "Settings" }, h("header", { class: "view-head" }, h("h1", {}, "Settings")), this.body);
    void this.api.onModelProgress((p) => {
      const bar = this.progress.get(p.model);
      if (bar && p.total) {
        bar.max = p.total;
        bar.value = p.done;
      }
    });
  }

  private async save(key: string, value: string): Promise<Config | null> {
    try {
      const cfg = await this.api.setConfig(key, value);
      this.toast(`Saved ${key}`);
      return cfg;
    } catch (e) {
      this.toast(errorText(e));
      return null;
    }
  }

  private text(label: string, key: string, value: string, opts: { placeholder?: string; json?: boolean } = {}) {
    const id = `set-${key.replace(/\./g, "-")}`;
    const input = h("input", { id, type: "text", value, placeholder: opts.placeholder ?? "" });
    input.addEventListener("change", () => void this.save(key, opts.json ? JSON.stringify(input.value) : input.value));
    return h("div", { class: "field" }, h("label", { for: id }, label), input);
  }

  private toggle(label: string, key: string, on: boolean, help: string) {
    const id = `set-${key.replace(/\./g, "-")}`;
    const input = h("input", { id, type: "checkbox", role: "switch", checked: on, "data-key": key });
    input.addEventListener("change", async () => {
      if (!(await this.save(key, String(input.checked)))) input.checked = !input.checked;
    });
    return h("div", { class: "field toggle" }, input, h("label", { for: id }, label), h("span", { class: "muted" }, help));
  }

  private select(label: string, key: string, value: string, options: [string, string][]) {
    const id = `set-${key.replace(/\./g, "-")}`;
    const sel = h("select", { id }, ...options.map(([v, t]) => h("option", { value: v, selected: v === value }, t)));
    sel.addEventListener("change", () => void this.save(key, sel.value));
    return h("div", { class: "field" }, h("label", { for: id }, label), sel);
  }

  async enter() {
    let cfg: Config;
    let state: HudState;
    try {
      [cfg, state] = await Promise.all([this.api.config(), this.refreshHud()]);
    } catch (e) {
      this.toast(errorText(e));
      return;
    }
    // Everything is fetched before the old form goes: no empty moment.
    const [sandbox, mcp] = await Promise.all([this.sandbox(cfg), this.mcp()]);
    clear(this.body);
    this.body.append(this.engine(state), this.connection(cfg, state), this.assistant(cfg), this.hands(cfg, state), this.dontAsk(cfg), sandbox, mcp, this.voice(cfg, state), this.learning(cfg));
  }

  /** Where answers come from: the built-in engine or a server. */
  private engine(state: HudState): HTMLElement {
    const provider = this.select("Answers come from", "llm.provider", JSON.stringify(state.engine.provider), [
      [JSON.stringify("embedded"), "The built-in engine, on this computer"],
      [JSON.stringify("endpoint"), "A server (the endpoint below)"],
    ]);
    provider.querySelector("select")!.addEventListener("change", () => void this.enter());
    return h(
      "fieldset",
      { id: "engine" },
      h("legend", {}, "Engine"),
      provider,
      engineLine(state),
      modelRows(this.api, state, this.progress, this.toast, () => void this.enter()),
    );
  }

  connection(cfg: Config, state: HudState): HTMLElement {
    const result = h("p", { class: "muted", role: "status" });
    const models = h("select", { id: "set-llm-model-pick", "aria-label": "Model" }, h("option", { value: cfg.llm.model }, cfg.llm.model));
    models.addEventListener("change", () => void this.save("llm.model", models.value));
    const test = h("button", {}, "Test connection");
    test.addEventListener("click", async () => {
      result.textContent = "Connecting…";
      try {
        const c = await this.api.testConnection();
        if (c.ok) {
          result.textContent = `Connected: ${c.models.length} models`;
          clear(models);
          const ids = c.models.includes(cfg.llm.model) ? c.models : [cfg.llm.model, ...c.models];
          for (const m of ids) models.appendChild(h("option", { value: m, selected: m === cfg.llm.model }, m));
        } else {
          result.textContent = `Not connected: ${c.error}`;
        }
      } catch (e) {
        result.textContent = errorText(e);
      }
    });
    const key = h("input", { id: "set-api-key", type: "password", autocomplete: "off", placeholder: state.api_key ?? "not set" });
    const keyState = h("span", { class: "muted", id: "api-key-state", role: "status" }, state.api_key ? `Stored in the OS keyring: ${state.api_key}` : "No key stored");
    const saveKey = h("button", { id: "save-api-key" }, "Save key");
    saveKey.addEventListener("click", async () => {
      try {
        const masked = await this.api.setApiKey(key.value);
        key.value = "";
        keyState.textContent = `Stored in the OS keyring: ${masked}`;
      } catch (e) {
        keyState.textContent = errorText(e);
      }
    });
    return h(
      "fieldset",
      {},
      h("legend", {}, "Model endpoint"),
      this.text("Endpoint (OpenAI-compatible base URL)", "llm.base_url", cfg.llm.base_url, { json: true }),
      h("div", { class: "row" }, test, result),
      h("div", { class: "field" }, h("label", { for: "set-llm-model-pick" }, "Model"), models),
      h("div", { class: "field" }, h("label", { for: "set-api-key" }, "API key"), h("div", { class: "row" }, key, saveKey), keyState),
    );
  }

  private assistant(cfg: Config): HTMLElement {
    return h(
      "fieldset",
      {},
      h("legend", {}, "Persona"),
      this.text("Name", "persona.name", cfg.persona.name, { json: true }),
      this.text("Style", "persona.style", cfg.persona.style, { json: true }),
    );
  }

  /** Self-evolution: proposals from repeated requests, and memory's bound. */
  private learning(cfg: Config): HTMLElement {
    const e = cfg.evolve;
    return h(
      "fieldset",
      {},
      h("legend", {}, "Learning"),
      this.toggle("Propose skills from requests I repeat", "evolve.enabled", e.enabled, `after ${e.min_requests} similar requests in ${e.min_sessions} conversations within ${e.window_days} days; nothing is installed until you apply it`),
      this.text("Memory limit (characters)", "memory.max_chars", String(cfg.memory.max_chars)),
    );
  }

  private hands(cfg: Config, state: HudState): HTMLElement {
    const roots = h("textarea", { id: "set-granted-roots", rows: 3 }, cfg.granted_roots.join("\n"));
    roots.addEventListener("change", () => void this.save("granted_roots", JSON.stringify(roots.value.split("\n").map((s) => s.trim()).filter(Boolean))));
    const folder = h("input", { id: "set-workdir", type: "text", value: state.workdir_problem ? state.suggested_workdir : (cfg.workdir ?? state.workdir), spellcheck: "false" });
    const folderState = h("p", { id: "workdir-state", role: "status", class: state.workdir_problem ? "warn" : "muted" }, state.workdir_problem ?? `Jarvis works in ${state.workdir}`);
    const useFolder = h("button", { id: "use-workdir" }, "Use this folder");
    useFolder.addEventListener("click", async () => {
      try {
        const chosen = await this.api.chooseWorkdir(folder.value);
        folder.value = chosen;
        folderState.className = "muted";
        folderState.textContent = `Jarvis works in ${chosen}`;
      } catch (e) {
        // Refused (home, a system folder, Jarvis's own state): nothing changes.
        folderState.className = "warn";
        folderState.textContent = errorText(e);
      }
    });
    return h(
      "fieldset",
      {},
      h("legend", {}, "Hands"),
      h("p", { class: "muted" }, "Off means the model is not offered the tool and any call is refused. On means reads inside the folder run; every write, command and request that could carry data out asks you first (no answer in time means no)."),
      this.toggle("Local file access", "tools.read", cfg.tools.read, "list and read files in the folder and granted roots"),
      this.toggle("Write files", "tools.write", cfg.tools.write, "each write inside the folder asks"),
      this.toggle("Run commands", "tools.exec", cfg.tools.exec, "each command asks; sandboxed; the blacklist always applies"),
      this.toggle("Web requests", "tools.network", cfg.tools.network, "public GETs run until a tool's content is in the conversation; then every request asks"),
      h("div", { class: "field" }, h("label", { for: "set-workdir" }, "Working folder"), h("div", { class: "row" }, folder, useFolder), folderState),
      h("div", { class: "field" }, h("label", { for: "set-granted-roots" }, "Granted roots (one folder per line)"), roots),
      this.text("Approval timeout (seconds)", "approval_timeout_sec", String(cfg.approval_timeout_sec)),
    );
  }

  /** "Don't ask" is its own choice per kind, apart from the toggles. */
  private dontAsk(cfg: Config): HTMLElement {
    const kinds: [string, string][] = [
      ["write", "Don't ask before writing files"],
      ["exec", "Don't ask before running commands"],
      ["network", "Don't ask before web requests (still asks once a tool's content is in the conversation)"],
    ];
    const auto = new Set(cfg.approvals.auto);
    const boxes = kinds.map(([kind, label]) => {
      const id = `set-auto-${kind}`;
      const input = h("input", { id, type: "checkbox", checked: auto.has(kind), "data-kind": kind });
      input.addEventListener("change", async () => {
        const next = boxes.filter(([, b]) => b.checked).map(([k]) => k);
        if (!(await this.save("approvals.auto", JSON.stringify(next)))) input.checked = !input.checked;
      });
      return [kind, input, h("div", { class: "field toggle" }, input, h("label", { for: id, class: "warn-label" }, label))] as const;
    });
    return h(
      "fieldset",
      { id: "dont-ask" },
      h("legend", {}, "Don't ask"),
      h("p", { class: "muted" }, "Each box lets one kind of call run without a question. The blacklist, the sandbox and per-command grants still apply."),
      ...boxes.map(([, , row]) => row),
    );
  }

  private async sandbox(cfg: Config): Promise<HTMLElement> {
    const status = await this.api.sandboxStatus().catch((e) => ({ ok: false, what: errorText(e), allow_unconfined: cfg.sandbox.allow_unconfined }));
    const unconfined = this.toggle("Run commands unconfined where the sandbox is unavailable", "sandbox.allow_unconfined", cfg.sandbox.allow_unconfined, "unsafe: commands could read your keys and write anywhere in home");
    unconfined.classList.add("danger-zone");
    return h(
      "fieldset",
      { id: "sandbox" },
      h("legend", {}, "Sandbox"),
      h("p", { id: "sandbox-state", class: status.ok && !status.allow_unconfined ? "ok" : "warn", role: "status" }, status.what),
      status.allow_unconfined ? h("p", { class: "danger", role: "alert" }, "sandbox.allow_unconfined is ON: where confinement fails, commands run unconfined.") : null,
      this.toggle("Commands may use the network", "sandbox.network", cfg.sandbox.network, "otherwise only a call you allow “with network”"),
      unconfined,
    );
  }

  /** MCP server projects Jarvis built: registered only here, after reading the whole server file. */
  private async mcp(): Promise<HTMLElement> {
    const projects = await this.api.mcpProjects().catch((e) => {
      this.toast(errorText(e));
      return [];
    });
    const box = h("fieldset", { id: "mcp-projects" }, h("legend", {}, "MCP servers Jarvis built"));
    if (!projects.length) box.appendChild(h("p", { class: "muted" }, "None yet. When Jarvis builds one, it waits here until you read it and register it."));
    for (const p of projects) {
      const register = h("button", { class: "primary", "data-action": "register", disabled: p.registered }, p.registered ? "Registered" : "Register");
      register.addEventListener("click", async () => {
        register.disabled = true;
        try {
          await this.api.registerMcp(p.name);
          register.textContent = "Registered";
          this.toast(`Registered ${p.name}: its tools ask before each call`);
        } catch (e) {
          register.disabled = false;
          this.toast(errorText(e));
        }
      });
      box.appendChild(
        h(
          "div",
          { class: "mcp-project", "data-project": p.name },
          h("h3", {}, p.name),
          h("p", { class: "muted" }, `${p.server_file} — runs confined in its folder, without network; each call asks until you trust it.`),
          h("pre", { class: "server-file", tabindex: "0", "aria-label": `${p.name} server file` }, h("code", {}, p.server_text)),
          h("div", { class: "row" }, register),
        ),
      );
    }
    return box;
  }

  private voice(cfg: Config, state: HudState): HTMLElement {
    const v = cfg.voice;
    const mics: [string, string][] = [["null", "System default"], ...state.voice.microphones.map((m) => [JSON.stringify(m), m] as [string, string])];
    const models = h(
      "table",
      { class: "models" },
      h("caption", {}, "Voice models"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Model"), h("th", { scope: "col" }, "State"), h("th", { scope: "col" }, ""))),
      h(
        "tbody",
        {},
        ...state.voice.models.map((m) => {
          const bar = h("progress", { max: 1, value: m.installed ? 1 : 0, "aria-label": `${m.name} download` });
          this.progress.set(m.name, bar);
          const btn = h("button", { disabled: m.installed }, m.installed ? "Installed" : "Download");
          btn.addEventListener("click", async () => {
            btn.disabled = true;
            btn.textContent = "Downloading…";
            try {
              await this.api.installModel(m.name);
              btn.textContent = "Installed";
            } catch (e) {
              btn.disabled = false;
              btn.textContent = "Retry";
              this.toast(errorText(e));
            }
          });
          return h("tr", { "data-model": m.name }, h("td", {}, h("strong", {}, m.name), h("br"), h("span", { class: "muted" }, m.what)), h("td", {}, m.installed ? bytes(m.bytes) : "not installed", bar), h("td", {}, btn));
        }),
      ),
    );
    return h(
      "fieldset",
      {},
      h("legend", {}, "Voice"),
      state.voice.microphones.length ? this.select("Microphone", "voice.input_device", v.input_device === null ? "null" : JSON.stringify(v.input_device), mics) : h("p", { class: "warn", role: "status" }, "No microphone found. Connect one; until then, type."),
      this.select("Language", "voice.language", v.language, [["auto", "Automatic"], ["en", "English"], ["zh", "Chinese"], ["de", "German"], ["fr", "French"], ["es", "Spanish"]]),
      this.select("Voice engine", "voice.engine", v.engine, [["auto", "Automatic (Piper if installed)"], ["piper", "Piper"], ["system", "System voice"]]),
      this.toggle("Keep the microphone warm", "voice.keep_mic_warm", v.keep_mic_warm, "faster start; the mic-in-use light stays on"),
      this.text("Push-to-talk shortcut", "voice.ptt_shortcut", v.ptt_shortcut, { json: true }),
      state.shortcut_problem ? h("p", { class: "warn" }, state.shortcut_problem) : null,
      this.text("Do not disturb (e.g. 22:00-07:00)", "voice.do_not_disturb", v.do_not_disturb, { json: true }),
      models,
    );
  }
}
