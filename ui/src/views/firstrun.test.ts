import { describe, expect, it } from "vitest";
import { fakeApi, hudState, tick } from "../testing";
import { FirstRun } from "./firstrun";

const state = hudState({
  workdir: "/nonexistent",
  workdir_problem: "no working directory has been chosen yet",
  base_url: "http://127.0.0.1:11434/v1",
  model: "llama3.2",
  first_run: true,
  voice: {
    state: "idle",
    paused: false,
    microphones: [],
    models: [
      { name: "whisper-tiny.en", what: "speech to text", installed: false, bytes: 0 },
      { name: "silero-vad", what: "voice activity", installed: true, bytes: 2 },
    ],
    problem: null,
  },
});


describe("first run", () => {
  it("goes endpoint → model → folder → microphone, saving each, and says plainly what is missing", async () => {
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
    // The folder: ~/Jarvis is offered; a refused one stays with the reason.
    const folder = fr.el.querySelector<HTMLInputElement>("#fr-folder")!;
    expect(folder.value).toBe("/home/u/Jarvis");
    t.answers.choose_workdir = new Error("working directory /home/u: the working directory cannot be your home folder /home/u");
    folder.value = "/home/u";
    [...fr.el.querySelectorAll("button")].find((b) => b.textContent === "Use this folder")!.click();
    await tick();
    expect(fr.el.querySelector('[role="status"]')!.textContent).toContain("cannot be your home folder");
    expect(fr.el.querySelector("#fr-folder")).not.toBeNull();
    t.answers.choose_workdir = "/home/u/Jarvis";
    folder.value = "/home/u/Jarvis";
    [...fr.el.querySelectorAll("button")].find((b) => b.textContent === "Use this folder")!.click();
    await tick();
    expect(t.calls.filter((c) => c.cmd === "choose_workdir").map((c) => c.args)).toEqual([{ path: "/home/u" }, { path: "/home/u/Jarvis" }]);
    const text = fr.el.textContent!;
    expect(text).toContain("No microphone found");
    expect(text).toContain("No whisper-tiny.en model yet");
    [...fr.el.querySelectorAll("button")].find((b) => b.textContent === "Start")!.click();
    await tick();
    expect(done).toBe(true);
  });

  it("lets every step be skipped: the engine, then the folder, then the microphone starts the chat", async () => {
    const [api, t] = fakeApi();
    t.answers.set_config = {};
    let done = false;
    const fr = new FirstRun(api, state, () => (done = true));
    document.body.appendChild(fr.el);
    const button = (label: string) => [...fr.el.querySelectorAll("button")].find((b) => b.textContent === label)!;
    button("Skip this step").click();
    expect(fr.el.querySelector("#fr-folder")).not.toBeNull();
    expect(fr.el.textContent).toContain("Without a folder Jarvis can talk, but not read, write or run anything.");
    button("Skip this step").click();
    expect(fr.el.textContent).toContain("No microphone found");
    expect(t.calls.filter((c) => c.cmd === "choose_workdir")).toEqual([]);
    button("Start").click();
    await tick();
    expect(done).toBe(true);
  });

  it("asks only for a folder when the rest is set up but the folder cannot be used", async () => {
    const [api, t] = fakeApi();
    t.answers.choose_workdir = "/home/u/Jarvis";
    let done = false;
    const fr = new FirstRun(api, { ...state, first_run: false, workdir_problem: "the working directory cannot be your home folder /home/u" }, () => (done = true), true);
    expect(fr.el.querySelector(".steps")).toBeNull();
    expect(fr.el.textContent).toContain("cannot be your home folder");
    [...fr.el.querySelectorAll("button")].find((b) => b.textContent === "Use this folder")!.click();
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
    expect(fr.el.querySelector("#fr-endpoint-status")!.textContent).toBe("Not connected: connection refused");
    expect(fr.el.querySelector("#fr-url")).not.toBeNull();
  });

  it("offers the built-in model with its size and licence, downloads it with progress, and uses it", async () => {
    const [api, t] = fakeApi();
    t.answers.set_config = {};
    t.answers.install_model = () => {
      t.push("jarvis:model-progress", { model: "qwen2.5-1.5b", file: "llm/q.gguf", done: 560_000_000, total: 1_120_000_000 });
      expect(fr.el.querySelector<HTMLProgressElement>('progress[aria-label="qwen2.5-1.5b download"]')!.value).toBe(560_000_000);
      expect(fr.el.textContent).toContain("560 MB of 1.1 GB");
      return undefined;
    };
    let done = false;
    const fr = new FirstRun(api, state, () => (done = true));
    document.body.appendChild(fr.el);
    const text = fr.el.textContent!;
    expect(text).toContain("Use a built-in model");
    expect(text).toContain("licence Apache-2.0");
    expect(text).toContain("No model yet: the download is 1.1 GB");
    const use = fr.el.querySelector<HTMLButtonElement>("#fr-builtin")!;
    expect(use.textContent).toBe("Download and use (1.1 GB)");
    use.click();
    await tick();
    await tick();
    expect(t.calls.filter((c) => c.cmd === "install_model").map((c) => c.args)).toEqual([{ name: "qwen2.5-1.5b" }]);
    expect(t.calls.filter((c) => c.cmd === "set_config").map((c) => c.args)).toEqual([
      { key: "llm.local_model", value: '"qwen2.5-1.5b"' },
      { key: "llm.provider", value: '"embedded"' },
    ]);
    // No server and no server model to pick: on to the folder.
    expect(fr.el.querySelector("#fr-folder")).not.toBeNull();
    expect(done).toBe(false);
  });

  it("keeps the choice when the download fails, and says why", async () => {
    const [api, t] = fakeApi();
    t.answers.install_model = new Error("model download failed: https://huggingface.co/…: HTTP 503");
    const fr = new FirstRun(api, state, () => undefined);
    fr.el.querySelector<HTMLButtonElement>("#fr-builtin")!.click();
    await tick();
    await tick();
    expect(fr.el.textContent).toContain("HTTP 503");
    expect(fr.el.querySelector<HTMLButtonElement>("#fr-builtin")!.textContent).toBe("Retry");
    expect(t.calls.some((c) => c.cmd === "set_config")).toBe(false);
  });
});
