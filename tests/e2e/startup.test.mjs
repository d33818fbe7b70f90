// Starting on bad state: a half-written config.json must give a clear error
// in a window (launched from a menu there is no terminal), exit non-zero,
// and leave the file as it was. Runs alone (`--test-concurrency=1`): a
// running instance would take the launch over.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchApp } from "./launch.mjs";
import { visibleWindows } from "./x11.mjs";

const windowsOf = (pid) => visibleWindows("--pid", String(pid));

test("a half-written config.json: an error window, exit code 1, the file untouched", async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-badcfg-"));
  const broken = '{"llm": {"base_url": "http://127.0.0.1:9/v1",\n  "model": ';
  fs.writeFileSync(path.join(home, "config.json"), broken);
  const app = launchApp(home);
  let wins = [];
  for (let i = 0; i < 200 && !(wins.length && app.stderr().includes("could not start")); i++) {
    await new Promise((r) => setTimeout(r, 100));
    wins = windowsOf(app.pid);
  }
  assert.match(app.stderr(), /config\.json: line 2, column \d+: .*it was not changed/);
  assert.ok(wins.length, "no window appeared");
  await new Promise((r) => setTimeout(r, 500));
  wins = windowsOf(app.pid);
  // Close the message (Enter on whichever of the app's windows has it).
  for (const w of wins.reverse()) {
    try {
      execFileSync("xdotool", ["windowfocus", "--sync", w]);
      execFileSync("xdotool", ["key", "Return"]);
    } catch {
      // that window went away already
    }
  }
  const code = await Promise.race([app.exited, new Promise((r) => setTimeout(() => r("still running"), 10000))]);
  app.kill();
  assert.equal(code, 1);
  assert.equal(fs.readFileSync(path.join(home, "config.json"), "utf8"), broken);
  assert.doesNotMatch(app.stderr(), /panicked|stack backtrace/);
});
