import { describe, expect, it } from "vitest";
import { fakeApi, hudState, tick } from "../testing";
import { SettingsView } from "./settings";

const config = {
  version: 2,
  llm: { base_url: "http://x/v1", model: "m" },
  persona: { name: "Jarvis", style: "" },
  tools: { read: true, write: true, exec: false, network: false },
  approvals: { auto: ["write"] },
  workdir: "/home/u/proj",
  granted_roots: [],
  approval_timeout_sec: 60,
  sandbox: { abi: 0, network: false, allow_unconfined: true, env: [], read: [] },
  skills: { extra_dirs: [], prompt_budget: 1000 },
  mcp_servers: {},
  voice: { input_device: null, language: "auto", engine: "auto", keep_mic_warm: false, ptt_shortcut: "Ctrl+Alt+Space", do_not_disturb: "", paused: false },
  evolve: { enabled: true, min_requests: 3, min_sessions: 2, window_days: 30, similarity: 0.4 },
  memory: { max_chars: 2000 },
};
const state = hudState();
const server = "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('weather')\n";

async function settings() {
  const [api, t] = fakeApi();
  Object.assign(t.answers, {
    config,
    set_config: config,
    sandbox_status: { ok: true, what: "Landlock ABI 6: reads the system…", allow_unconfined: true },
    mcp_projects: [{ name: "weather", dir: "/j/mcp/weather", server_file: "/j/mcp/weather/server.py", server_text: server, registered: false }],
    register_mcp: undefined,
  });
  const v = new SettingsView(api, () => undefined, async () => state);
  await v.enter();
  // Checkboxes fire change events only when in a document.
  document.body.replaceChildren(v.el);
  return { v, t };
}

describe("settings: learning", () => {
  it("turns proposals off and sets the memory's bound", async () => {
    const { v, t } = await settings();
    const sw = v.el.querySelector<HTMLInputElement>("#set-evolve-enabled")!;
    expect(sw.checked).toBe(true);
    expect(sw.closest(".field")!.textContent).toContain("after 3 similar requests in 2 conversations within 30 days");
    sw.click();
    await tick();
    expect(t.calls.find((c) => c.cmd === "set_config")!.args).toEqual({ key: "evolve.enabled", value: "false" });
    const limit = v.el.querySelector<HTMLInputElement>("#set-memory-max_chars")!;
    limit.value = "4000";
    limit.dispatchEvent(new Event("change"));
    await tick();
    expect(t.calls.filter((c) => c.cmd === "set_config").at(-1)!.args).toEqual({ key: "memory.max_chars", value: "4000" });
  });
});

describe("settings: the trust controls", () => {
  it("shows the four access toggles apart from the per-kind Don't ask choices", async () => {
    const { v, t } = await settings();
    const labels = [...v.el.querySelectorAll("fieldset:first-of-type ~ fieldset .toggle label")].map((l) => l.textContent);
    for (const l of ["Local file access", "Write files", "Run commands", "Web requests"]) expect(labels).toContain(l);
    const auto = (k: string) => v.el.querySelector<HTMLInputElement>(`#set-auto-${k}`)!;
    expect([auto("write").checked, auto("exec").checked, auto("network").checked]).toEqual([true, false, false]);
    auto("exec").click();
    await tick();
    expect(t.calls.filter((c) => c.cmd === "set_config").at(-1)!.args).toEqual({ key: "approvals.auto", value: '["write","exec"]' });
  });

  it("says in red that commands may run unconfined", async () => {
    const { v } = await settings();
    const alert = v.el.querySelector('#sandbox [role="alert"]')!;
    expect(alert.className).toBe("danger");
    expect(alert.textContent).toContain("allow_unconfined is ON");
  });

  it("registers a built MCP server only from its card, which shows the whole server file", async () => {
    const { v, t } = await settings();
    const card = v.el.querySelector('[data-project="weather"]')!;
    expect(card.querySelector("pre")!.textContent).toBe(server);
    card.querySelector<HTMLButtonElement>('[data-action="register"]')!.click();
    await tick();
    expect(t.calls.at(-1)).toEqual({ cmd: "register_mcp", args: { name: "weather" } });
    expect(card.querySelector('[data-action="register"]')!.textContent).toBe("Registered");
  });

  it("keeps the folder when the new one is refused, with the reason", async () => {
    const { v, t } = await settings();
    t.answers.choose_workdir = new Error("the working directory cannot be your home folder /home/u");
    v.el.querySelector<HTMLInputElement>("#set-workdir")!.value = "/home/u";
    v.el.querySelector<HTMLButtonElement>("#use-workdir")!.click();
    await tick();
    expect(v.el.querySelector("#workdir-state")!.textContent).toContain("home folder");
    expect(t.calls.filter((c) => c.cmd === "set_config").some((c) => c.args?.key === "workdir")).toBe(false);
  });
});

describe("settings: the engine", () => {
  it("says where answers come from and offers each built-in model with its licence and size", async () => {
    const { v, t } = await settings();
    const engine = v.el.querySelector("#engine")!;
    expect(engine.textContent).toContain("Answers come from the server below");
    const rows = [...engine.querySelectorAll("tr[data-model]")].map((r) => r.textContent);
    expect(rows[0]).toContain("licence Apache-2.0");
    expect(rows[0]).toContain("not downloaded (1.1 GB)");
    const pick = engine.querySelector<HTMLSelectElement>("#set-llm-provider")!;
    pick.value = '"embedded"';
    pick.dispatchEvent(new Event("change"));
    await tick();
    expect(t.calls.find((c) => c.cmd === "set_config")!.args).toEqual({ key: "llm.provider", value: '"embedded"' });
    t.calls.length = 0;
    engine.querySelector<HTMLButtonElement>('[data-engine-model="qwen3-0.6b"]')!.click();
    await tick();
    await tick();
    expect(t.calls.filter((c) => c.cmd === "install_model").map((c) => c.args)).toEqual([{ name: "qwen3-0.6b" }]);
    expect(t.calls.filter((c) => c.cmd === "set_config").map((c) => c.args)).toContainEqual({ key: "llm.local_model", value: '"qwen3-0.6b"' });
  });

  it("shows a running engine's model and context", async () => {
    const [api, t] = fakeApi();
    Object.assign(t.answers, { config, sandbox_status: { ok: true, what: "", allow_unconfined: true }, mcp_projects: [] });
    const speed = { model: "Qwen3-0.6B-Q8_0", tokens_per_second: 41.26, prompt_tokens_per_second: 612.4, tokens: 128, at_ms: 1 };
    const running = hudState({ engine: { ...state.engine, provider: "embedded", local_model: "qwen3-0.6b", problem: null, model_file: "/h/models/llm/Qwen3-0.6B-Q8_0.gguf", running: true, context: 8192, speed } });
    const v = new SettingsView(api, () => undefined, async () => running);
    await v.enter();
    expect(v.el.querySelector("#engine")!.textContent).toContain("Running: qwen3-0.6b, context 8,192 tokens, on this computer.");
    expect(v.el.querySelector("#engine")!.textContent).toContain("Last answer: 41.3 tokens/s over 128 tokens, reading the prompt at 612 tokens/s.");
    expect(v.el.querySelector<HTMLButtonElement>('[data-engine-model="qwen3-0.6b"]')!.textContent).toBe("In use");
  });
});
