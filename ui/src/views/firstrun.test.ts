import { describe, expect, it } from "vitest";
import { fakeApi } from "../testing";
import { FirstRun } from "./firstrun";

const state = {
  views: [],
  workdir: "/w",
  base_url: "http://127.0.0.1:11434/v1",
  model: "llama3.2",
  api_key: null,
  first_run: true,
  shortcut: "Ctrl+Alt+Space",
  shortcut_problem: null,
  voice: {
    state: "idle" as const,
    paused: false,
    microphones: [],
    models: [
      { name: "whisper-tiny.en", what: "speech to text", installed: false, bytes: 0 },
      { name: "silero-vad", what: "voice activity", installed: true, bytes: 2 },
    ],
    problem: null,
  },
};

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("first run", () => {
  it("goes endpoint → model → microphone, saving each, and says plainly what is missing", async () => {
    const [api, t] = fakeApi();
    t.answers.set_config = {};
    t.answers.test_connection = { ok: true, models: ["e2e-a", "e2e-b"], error: null };
    let done = false;
    const fr = new FirstRun(api, state, () => (done = true));
    document.body.appendChild(fr.el);
    fr.el.querySelector<HTMLInputElement>("#fr-url")!.value = "http://10.0.0.2:8080/v1";
    [...fr.el.querySelectorAll("button")].find((b) => b.textContent === "Connect")!.click();
    await tick();
    expect(t.calls.find((c) => c.cmd === "set_config")!.args).toEqual({ key: "llm.base_url", value: '"http://10.0.0.2:8080/v1"' });
    const pick = fr.el.querySelector<HTMLSelectElement>("#fr-model")!;
    expect([...pick.options].map((o) => o.value)).toEqual(["e2e-a", "e2e-b"]);
    pick.value = "e2e-b";
    [...fr.el.querySelectorAll("button")].find((b) => b.textContent === "Use this model")!.click();
    await tick();
    expect(t.calls.filter((c) => c.cmd === "set_config").at(-1)!.args).toEqual({ key: "llm.model", value: '"e2e-b"' });
    const text = fr.el.textContent!;
    expect(text).toContain("No microphone found");
    expect(text).toContain("No whisper-tiny.en model yet");
    [...fr.el.querySelectorAll("button")].find((b) => b.textContent === "Start")!.click();
    await tick();
    expect(done).toBe(true);
  });

  it("stays on the endpoint step with the server's error when it cannot connect", async () => {
    const [api, t] = fakeApi();
    t.answers.set_config = {};
    t.answers.test_connection = { ok: false, models: [], error: "connection refused" };
    const fr = new FirstRun(api, state, () => undefined);
    [...fr.el.querySelectorAll("button")].find((b) => b.textContent === "Connect")!.click();
    await tick();
    expect(fr.el.querySelector('[role="status"]')!.textContent).toBe("Not connected: connection refused");
    expect(fr.el.querySelector("#fr-url")).not.toBeNull();
  });
});
