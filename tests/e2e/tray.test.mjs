// The tray, through a StatusNotifier host of our own on the session bus (the
// role a desktop panel plays): the idle icon registers with its menu; Hide and
// Open Jarvis hide and show the window; Pause voice is saved and shown
// ticked; Stop everything holds the schedules; Quit ends the app. Runs alone (`--test-concurrency=1`): a running
// instance would take the launch over.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchApp } from "./launch.mjs";
import { startTrayHost } from "./tray.mjs";
import { sleep, waitFor } from "./wait.mjs";
import { visibleWindows } from "./x11.mjs";

test("tray: menu, hide/open, pause voice saved and ticked, quit", async () => {
  const tray = await startTrayHost();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-tray-"));
  fs.writeFileSync(path.join(home, "config.json"), JSON.stringify({ llm: { base_url: "http://127.0.0.1:9/v1", model: "m" } }));
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

    // Stop everything from the tray holds the schedules until resumed.
    click("Stop everything");
    const cli = path.join(path.dirname(process.env.JARVIS_DESKTOP_BIN), "jarvis");
    await waitFor(
      () => spawnSync(cli, ["resume"], { env: { ...process.env, JARVIS_HOME: home }, encoding: "utf8" }).stderr.includes("resumed"),
      "the tray's stop to hold the schedules (and jarvis resume to lift it)",
    );

    click("Quit");
    const code = await Promise.race([app.exited, sleep(10000).then(() => "still running")]);
    assert.equal(code, 0);
  } finally {
    app?.kill();
    tray.stop();
  }
});
