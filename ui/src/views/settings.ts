// Settings: every field writes one config key through the app (atomic, one
// writer); the API key goes to the OS keyring and only its tail comes back.
import type { Api, Config, HudState } from "../api";
import { errorText } from "../api";
import { bytes, clear, h } from "../dom";
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
    clear(this.body);
    this.body.append(this.connection(cfg, state), this.assistant(cfg), this.hands(cfg, state), this.voice(cfg, state));
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

  private hands(cfg: Config, state: HudState): HTMLElement {
    const roots = h("textarea", { id: "set-granted-roots", rows: 3 }, cfg.granted_roots.join("\n"));
    roots.addEventListener("change", () => void this.save("granted_roots", JSON.stringify(roots.value.split("\n").map((s) => s.trim()).filter(Boolean))));
    return h(
      "fieldset",
      {},
      h("legend", {}, "Hands"),
      this.toggle("Read files without asking", "tools.read", cfg.tools.read, "inside the working directory and granted roots"),
      this.toggle("Write files without asking", "tools.write", cfg.tools.write, "inside the working directory"),
      this.toggle("Run commands without asking", "tools.exec", cfg.tools.exec, "sandboxed; the blacklist always applies"),
      this.text("Working directory", "workdir", cfg.workdir ?? state.workdir, { json: true }),
      h("div", { class: "field" }, h("label", { for: "set-granted-roots" }, "Granted roots (one folder per line)"), roots),
      this.text("Approval timeout (seconds)", "approval_timeout_sec", String(cfg.approval_timeout_sec)),
    );
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
