// The hub in the app: a schedule made from the terminal (`jarvis schedule
// add`) is run by the app, which leads the services, at its slot; when the
// run finishes while the window is hidden, the announcement reaches the
// desktop's notification server (our stand-in on the session bus, the role
// a notification daemon plays). Runs alone (`--test-concurrency=1`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { launchApp } from "./launch.mjs";
import { ScriptedLlm } from "./llm.mjs";
import { waitFor } from "./wait.mjs";
import { visibleWindows } from "./x11.mjs";

const SERVER = fileURLToPath(new URL("./notify-server.py", import.meta.url));
const CLI = path.join(path.dirname(process.env.JARVIS_DESKTOP_BIN), "jarvis");

function startNotifyServer() {
  const p = spawn("/usr/bin/python3", [SERVER], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = [];
  readline.createInterface({ input: p.stdout }).on("line", (l) => lines.push(JSON.parse(l)));
  // The user clicking notification `id`.
  const click = (id) => p.stdin.write(JSON.stringify({ invoke: id, action: "default" }) + "\n");
  return { lines, click, stop: () => p.kill() };
}

test("hub: a scheduled run finishes while the window is hidden, the desktop is notified, and a click opens the task", async () => {
  const notes = startNotifyServer();
  const llm = await new ScriptedLlm().start();
  llm.script({ text: "Inbox: 3 new messages, one from Ana." });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-hub-"));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-hub-work-"));
  fs.writeFileSync(
    path.join(home, "config.json"),
    JSON.stringify({ llm: { base_url: llm.url, model: "e2e-model" }, workdir: work }),
  );
  let app;
  try {
    await waitFor(() => notes.lines.some((l) => l.ready), "the notification server on the bus");
    app = launchApp(home, { JARVIS_HUB_TICK_MS: "200" });
    const shown = () => visibleWindows("--pid", String(app.pid)).length > 0;
    await waitFor(shown, "the app's window", 30000);
    // The app leads the services once its wake-up socket is up.
    await waitFor(() => fs.existsSync(path.join(home, "hub.sock")), "the app to run the hub", 30000);
    for (const w of visibleWindows("--pid", String(app.pid))) spawnSync("xdotool", ["windowunmap", w]);
    await waitFor(() => !shown(), "the window to hide");

    const at = new Date(Date.now() + 1500).toISOString();
    const add = spawnSync(CLI, ["schedule", "add", "summarise my inbox folder", "--at", at, "--json"], {
      env: { ...process.env, JARVIS_HOME: home },
      encoding: "utf8",
    });
    assert.equal(add.status, 0, add.stderr);
    const note = await waitFor(
      () => notes.lines.find((l) => l.body?.includes("is done")),
      "the announcement as a desktop notification",
      30000,
    );
    assert.equal(note.summary, "Jarvis");
    assert.equal(note.body, "Your scheduled task “summarise my inbox folder” is done: Inbox: 3 new messages, one from Ana.");
    assert.equal(llm.requests.length, 1, "the slot ran once, in the app");
    const list = spawnSync(CLI, ["tasks", "list", "--json"], { env: { ...process.env, JARVIS_HOME: home }, encoding: "utf8" });
    const tasks = JSON.parse(list.stdout);
    assert.equal(tasks.length, 1);
    assert.equal(tasks[0].status, "succeeded");
    assert.equal(tasks[0].origin, "schedule");
    // The notification can be clicked, and clicking it brings the window
    // back on the task's own conversation.
    assert.deepEqual(note.actions, ["default", "Open"]);
    notes.click(note.id);
    await waitFor(shown, "the window, brought back by the click", 15000);
    await waitFor(
      () => app.stderr().includes(`opening task ${tasks[0].id} from its notification`),
      "the task opened in the HUD",
    );
  } finally {
    app?.kill();
    notes.stop();
    await llm.stop();
  }
});
