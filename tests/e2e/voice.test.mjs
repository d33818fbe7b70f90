// Voice in the app, end to end: the global push-to-talk key held while a
// WAV file stands in for the microphone (the one scripted part: there is no
// sound card here), real Silero VAD and whisper tiny.en on the shared model
// files, the transcript sent to the model as the user's words, and the
// model's `open_view` call run; the tray icon follows the voice state. Runs alone (`--test-concurrency=1`): a
// running instance would take the launch over.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchApp } from "./launch.mjs";
import { ScriptedLlm } from "./llm.mjs";
import { startTrayHost } from "./tray.mjs";
import { sleep, waitFor } from "./wait.mjs";
import { visibleWindows } from "./x11.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SHARED = process.env.JARVIS_SHARED ?? path.resolve(ROOT, "../shared");

test("hold the shortcut and speak: the words reach the model, its open_view runs, the tray follows", async (t) => {
  const llm = await new ScriptedLlm().start();
  const tray = await startTrayHost();
  llm.script({ tool: "open_view", args: { view: "runs" } }, { text: "Here are your runs." });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-voice-"));
  fs.writeFileSync(
    path.join(home, "config.json"),
    JSON.stringify({ llm: { base_url: llm.url, model: "e2e-model" }, voice: { engine: "system" } }),
  );
  const app = launchApp(home, {
    JARVIS_API_KEY: "",
    JARVIS_MIC_WAV: path.join(SHARED, "audio/espeak_padded_1.wav"),
    JARVIS_STT_MODEL: path.join(SHARED, "models/ggml-tiny.en.bin"),
    JARVIS_VAD_MODEL: path.join(SHARED, "models/silero-v6.2.0-ggml.bin"),
  });
  try {
    await waitFor(() => visibleWindows("--pid", String(app.pid)).length > 0, "the app's window", 30000);
    // The shortcut is grabbed once the HUD shows the brain's state.
    await waitFor(() => app.stderr().includes("started after the HUD"), "the HUD and its shortcut", 30000);
    // The tray comes up with them: the panel has read its first icon.
    await waitFor(() => tray.states.all.length > 0, "the tray icon", 10000);
    // Held for the length of the recording (4.2 s: speech between 1 s of
    // silence either side), as a person holds the key while speaking.
    execFileSync("xdotool", ["keydown", "ctrl+alt+space"]);
    await sleep(4500);
    execFileSync("xdotool", ["keyup", "ctrl+alt+space"]);
    const asked = await waitFor(() => llm.requests[0], "the model to be asked", 60000);
    const said = asked.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
    // tiny.en hears espeak-ng's "runs page" as "run's page" at times.
    assert.match(said, /open the run'?s page/i, `the transcript sent to the model: ${JSON.stringify(said)}`);
    await waitFor(() => llm.requests.length >= 2, "the tool result to go back to the model");
    const results = llm.toolResults();
    assert.equal(results.length, 1);
    assert.match(results[0], /runs/);
    assert.doesNotMatch(results[0], /error|refused|denied/i);
    // The panel showed the listening icon while the key was held, and is
    // back to idle once the reply is done.
    const shown = () => tray.states.all.map((s) => s.shows).filter((v, i, a) => v !== a[i - 1]);
    await waitFor(() => shown().at(-1) === "idle" && shown().includes("listening"), "the tray back to idle after listening");
    const seq = shown();
    t.diagnostic(`tray icons: ${seq.join(" → ")}`);
    // In the turn's order; a state too short for the host to read its icon
    // file (removed when the next one is set) may be missing, nothing else.
    const order = ["idle", "listening", "transcribing", "thinking", "speaking", "idle"];
    let at = 0;
    for (const state of seq.filter((v) => v !== "gone")) {
      at = order.indexOf(state, at);
      assert.ok(at >= 0, `tray icons out of order or unknown: ${seq.join(" → ")}`);
      at += 1;
    }
    assert.equal(seq[0], "idle", `tray icons: ${seq.join(" → ")}`);
  } finally {
    app.kill();
    await llm.stop();
    tray.stop();
    if (process.env.JARVIS_E2E_LOG) console.log(app.stderr());
  }
});
