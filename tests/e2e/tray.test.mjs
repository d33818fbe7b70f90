// The tray, through a StatusNotifier host of our own on the session bus (the
// role a desktop panel plays): the idle icon registers with its menu; Hide and
// Open Jarvis hide and show the window; Pause voice is saved and shown
// ticked; a task queued from the terminal shows in the menu while it runs
// and a click opens it; Stop everything cancels it, takes it off the menu
// and holds the schedules; Quit ends the app. Runs alone
// (`--test-concurrency=1`): a running instance would take the launch over.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchApp } from "./launch.mjs";
import { ScriptedLlm } from "./llm.mjs";
import { startTrayHost } from "./tray.mjs";
import { sleep, waitFor } from "./wait.mjs";
import { visibleWindows } from "./x11.mjs";

test("tray: menu, hide/open, pause voice saved and ticked, quit", async () => {
  const tray = await startTrayHost();
  // The task's model takes its time: a word every half second.
  const llm = await new ScriptedLlm().start();
  llm.script({ text: "The launch notes say: ".repeat(20) + "ship on Friday.", chunkMs: 500 });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-tray-"));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-tray-work-"));
  fs.writeFileSync(path.join(home, "config.json"), JSON.stringify({ llm: { base_url: llm.url, model: "m" }, workdir: work }));
  const cli = path.join(path.dirname(process.env.JARVIS_DESKTOP_BIN), "jarvis");
  const jarvis = (...args) => spawnSync(cli, args, { env: { ...process.env, JARVIS_HOME: home }, encoding: "utf8" });
  let app;
  try {
    app = launchApp(home);
    const latest = () => tray.states.latest();
    const first = await waitFor(latest, "the tray icon to register", 30000);
    assert.deepEqual(
      first.menu.map((e) => e.label),
      ["Open Jarvis", "Hide", "Pause voice", "Stop everything", "Resume schedules", "Quit"],
    );
    assert.equal(first.menu.find((e) => e.label === "Pause voice").toggled, false);
    assert.equal(first.shows, "idle", "the panel shows the idle icon");

    const shown = () => visibleWindows("--pid", String(app.pid)).length > 0;
    await waitFor(shown, "the app's window", 30000);
    const { click } = tray;
    click("Hide");
    await waitFor(() => !shown(), "the window to hide");
    click("Open Jarvis");
    await waitFor(shown, "the window to come back");

    const seen = tray.states.all.length;
    click("Pause voice");
    const cfg = () => JSON.parse(fs.readFileSync(path.join(home, "config.json"), "utf8"));
    await waitFor(() => cfg().voice?.paused === true, "voice.paused saved in config.json");
    await waitFor(() => tray.states.all.length > seen && latest().menu.find((e) => e.label === "Pause voice").toggled, "Pause voice ticked in the menu");

    // A task queued from the terminal runs in the app (the hub) and shows
    // in the menu, in the user's words, above the fixed items.
    const queued = jarvis("tasks", "run", "summarise my launch notes", "--json");
    assert.equal(queued.status, 0, queued.stderr);
    const label = "Running: summarise my launch notes";
    const withTask = await waitFor(() => latest().menu.some((e) => e.label === label) && latest(), "the running task in the tray menu", 30000);
    assert.equal(withTask.menu[0].label, label, "tasks come first");
    click("Hide");
    await waitFor(() => !shown(), "the window to hide");
    click(label);
    await waitFor(shown, "the window to come back on the task");
    const [task] = JSON.parse(jarvis("tasks", "list", "--json").stdout);
    await waitFor(() => app.stderr().includes(`opening task ${task.id}`), "the task to open in the HUD");

    // Stop everything from the tray cancels it, takes it off the menu and
    // holds the schedules until resumed.
    click("Stop everything");
    await waitFor(() => !latest().menu.some((e) => e.label === label), "the task to leave the menu", 15000);
    await waitFor(() => JSON.parse(jarvis("tasks", "list", "--json").stdout)[0].status === "cancelled", "the task cancelled");
    await waitFor(
      () => jarvis("resume").stderr.includes("resumed"),
      "the tray's stop to hold the schedules (and jarvis resume to lift it)",
    );

    click("Quit");
    const code = await Promise.race([app.exited, sleep(10000).then(() => "still running")]);
    assert.equal(code, 0);
  } finally {
    app?.kill();
    tray.stop();
    await llm.stop();
  }
});
