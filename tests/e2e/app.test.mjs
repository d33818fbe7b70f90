// End to end on the real app binary: Xvfb + a D-Bus session, WebDriver via
// tauri-driver and WebKitWebDriver, a scripted OpenAI-compatible server on
// loopback, the native GTK dialog found and answered with xdotool.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import http from "node:http";
import { startKeyring } from "./keyring.mjs";
import { ScriptedLlm } from "./llm.mjs";
import { waitFor } from "./wait.mjs";
import { dragOnto, visibleWindows } from "./x11.mjs";
import { KEY, startDriver } from "./webdriver.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SHARED = process.env.JARVIS_SHARED ?? path.resolve(ROOT, "../shared");
const BIN = process.env.JARVIS_DESKTOP_BIN;
const SHOTS = process.env.JARVIS_SCREENSHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-shots-"));
fs.mkdirSync(SHOTS, { recursive: true });
const VIEWS = ["cockpit", "chat", "runs", "tasks", "schedules", "skills", "memory", "reflect", "audit", "grants", "settings"];
/** The key that opens each view: Alt+1…9, Alt+0, and Ctrl+, for Settings. */
const viewKey = (i) => (VIEWS[i] === "settings" ? [KEY.control, ","] : [KEY.alt, "1234567890"[i]]);
const TIMEOUT_SEC = 6;

const llm = new ScriptedLlm();
let home, workdir, driver, wd, s, mirror;

/** The shared model files as a download mirror, sent slowly enough that
 * progress shows (about 2 MB/s). */
async function startMirror() {
  const root = path.join(SHARED, "models");
  const server = http.createServer(async (req, res) => {
    const file = path.join(root, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!file.startsWith(root) || !fs.existsSync(file)) return res.writeHead(404).end();
    const body = fs.readFileSync(file);
    res.writeHead(200, { "content-length": body.length, "content-type": "application/octet-stream" });
    for (let i = 0; i < body.length; i += 64 * 1024) {
      res.write(body.subarray(i, i + 64 * 1024));
      await new Promise((r) => setTimeout(r, 30));
    }
    res.end();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return server;
}

const sel = (css) => JSON.stringify(css);
const text = (css) => `return document.querySelector(${sel(css)})?.textContent ?? ""`;
const exists = (css) => `return !!document.querySelector(${sel(css)})`;

const nativeDialogs = () => visibleWindows("--name", "approve local_exec");

/** Ends the app and waits until its process is gone: a launch while it is
 * still exiting would hand over to it (single instance) and end at once. */
async function quit() {
  await s.close();
  await waitFor(() => {
    try {
      execFileSync("pgrep", ["-f", BIN]);
      return false;
    } catch {
      return true;
    }
  }, "the app to exit", 20000);
}

async function launch() {
  s = await wd.open(BIN);
  await s.until(`return !!(window.jarvisHud && window.jarvisHud.state)`, "the HUD to start", 30000);
}

async function newChat() {
  // Awaited: the app opens on the Cockpit, and typing needs the chat shown.
  await s.exec(`return window.jarvisHud.navigate("chat").then(() => window.jarvisHud.chat.startNew())`);
}

async function send(message) {
  await s.type(".composer textarea", message);
  await s.click(".composer button.primary");
}

async function shot(name) {
  fs.writeFileSync(path.join(SHOTS, `${name}.png`), Buffer.from(await s.screenshot(), "base64"));
}

before(async () => {
  assert.ok(BIN && fs.existsSync(BIN), `JARVIS_DESKTOP_BIN must name the built app (got ${BIN})`);
  await llm.start();
  home = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-home-"));
  workdir = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-work-"));
  fs.writeFileSync(path.join(workdir, "notes.txt"), "launch: friday\n");
  fs.writeFileSync(
    path.join(home, "config.json"),
    // Reads and commands on (each command asks), writes and web requests off.
    // Noticing repeats is off until its own test: the suite's other requests
    // are not the pattern under test.
    JSON.stringify({ version: 2, llm: { base_url: llm.url, model: "e2e-model" }, tools: { read: true, exec: true }, workdir, approval_timeout_sec: TIMEOUT_SEC, evolve: { enabled: false } }, null, 2),
  );
  startKeyring();
  mirror = await startMirror();
  ({ driver, wd } = await startDriver({
    JARVIS_HOME: home,
    JARVIS_QUIT_ON_CLOSE: "1",
    JARVIS_API_KEY: "",
    JARVIS_MODELS_MIRROR: `http://127.0.0.1:${mirror.address().port}`,
    // The app leads the hub; its tick is fast enough for a schedule test.
    JARVIS_HUB_TICK_MS: "200",
  }));
  await launch();
});

after(async () => {
  await s?.close().catch(() => undefined);
  driver?.kill();
  // A session whose close did not end the app leaves it holding the test
  // runner's output open, and the whole run would wait on it.
  if (BIN) spawnSync("pkill", ["-KILL", "-f", BIN]);
  mirror?.close();
  await llm.stop();
});

test("a message streams in, with a live tool chip", async () => {
  const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
  // The app opens on the Cockpit.
  assert.equal(await s.exec(`return document.querySelector(".app").dataset.view`), "cockpit");
  await newChat();
  llm.script({ tool: "local_list_dir", args: { path: "." } }, { text: `Your folder holds notes.txt. ${words}`, chunkMs: 30 });
  await send("what is in my folder?");
  const chip = '.msg.assistant .chip[data-status="ok"] .chip-name';
  assert.equal(await s.until(text(chip), "the tool chip to finish"), "local_list_dir");
  // The text arrives piece by piece, not all at once.
  const seen = new Set();
  await waitFor(async () => {
    const t = await s.exec(`return [...document.querySelectorAll(".msg.assistant .text")].map((e) => e.textContent).join("")`);
    seen.add(t.length);
    return t.includes("word39");
  }, "the whole reply");
  assert.ok(seen.size >= 3, `expected the reply to grow in steps, saw lengths ${[...seen]}`);
  // The listing went to the model.
  assert.match(llm.toolResults().join("\n"), /notes\.txt/);
  // Arguments and result expand under the chip.
  await s.click(".msg.assistant .chip summary");
  assert.match(await s.exec(text(".msg.assistant .chip .chip-args")), /"path": "\."/);
  await s.until(`return !document.querySelector(".chat").dataset.running || document.querySelector(".chat").dataset.running === "false"`, "the turn to end");
  await shot("chat");
});

test("Stop everything cancels the running turn, holds the schedules, and Resume lifts the hold", async () => {
  await newChat();
  const words = Array.from({ length: 60 }, (_, i) => `slow${i}`).join(" ");
  llm.script({ text: words, chunkMs: 200 });
  await send("tell me a long story");
  await s.until(`return document.querySelector(".chat").dataset.running === "true" && document.body.textContent.includes("slow2")`, "the reply to start");
  const t0 = Date.now();
  await s.click(".statusbar .stop-all");
  await s.until(`return document.querySelector(".chat").dataset.running !== "true"`, "the turn to stop", 5000);
  assert.ok(Date.now() - t0 < 3000, `stopped in ${Date.now() - t0} ms`);
  assert.doesNotMatch(await s.exec(`return document.body.textContent`), /slow59/, "the reply was cut, not finished");
  await s.until(`return !document.querySelector(".statusbar .resume-all").hidden`, "the hold shown");
  await s.click(".statusbar .resume-all");
  await s.until(`return document.querySelector(".statusbar .resume-all").hidden`, "the hold lifted");
});

test("a scheduled run appears in the Tasks view and its status changes live; a schedule paused from its view stays paused", async () => {
  const cli = path.join(path.dirname(BIN), "jarvis");
  const run = (args) => execFileSync(cli, args, { env: { ...process.env, JARVIS_HOME: home, JARVIS_BASE_URL: llm.url, JARVIS_MODEL: "e2e-model" }, encoding: "utf8" });
  await s.exec(`return window.jarvisHud.navigate("tasks")`);
  llm.script({ text: "Inbox: 3 new messages, one from Ana.", chunkMs: 150 });
  run(["schedule", "add", "summarise my inbox folder", "--at", new Date(Date.now() + 1500).toISOString()]);
  await s.until(`return [...document.querySelectorAll("[data-task]")].some((r) => r.textContent.includes("summarise my inbox folder") && ["queued", "running"].includes(r.dataset.status))`, "the scheduled run in the Tasks view", 15000);
  await s.until(`return [...document.querySelectorAll("[data-task]")].some((r) => r.textContent.includes("summarise my inbox folder") && r.dataset.status === "succeeded")`, "its status to change to succeeded", 20000);
  // Paused from the Schedules view: saved, and its next run is gone.
  run(["schedule", "add", "check the build", "--every", "1h"]);
  await s.exec(`return window.jarvisHud.navigate("schedules")`);
  await s.until(`return [...document.querySelectorAll("[data-schedule]")].some((r) => r.textContent.includes("check the build"))`, "the schedule listed");
  await s.exec(`[...document.querySelectorAll("[data-schedule]")].find((r) => r.textContent.includes("check the build")).querySelector("button").click()`);
  await s.until(`return [...document.querySelectorAll("[data-schedule]")].some((r) => r.textContent.includes("check the build") && r.dataset.paused === "true")`, "the schedule shown paused");
  const listed = JSON.parse(run(["schedule", "list", "--json"]));
  const build = listed.find((x) => x.instruction === "check the build");
  assert.equal(build.paused, true, JSON.stringify(build));
  await shot("schedules");
  await s.exec(`return window.jarvisHud.navigate("tasks")`);
  await shot("tasks");
});

test("the Cockpit shows a scheduled run live: running now, its task, what it said and the budget it spent", async () => {
  const cli = path.join(path.dirname(BIN), "jarvis");
  const run = (args) => execFileSync(cli, args, { env: { ...process.env, JARVIS_HOME: home, JARVIS_BASE_URL: llm.url, JARVIS_MODEL: "e2e-model" }, encoding: "utf8" });
  // Made by another process: the Cockpit reads it when it opens.
  run(["schedule", "add", "water the plants", "--every", "2h"]);
  await s.exec(`return window.jarvisHud.navigate("cockpit")`);
  const spent = () => s.exec(`return Number(document.querySelector(".statusbar .budget-text").textContent.replace(/[^0-9]/g, ""))`);
  const before = await spent();
  // The paused schedule from before is not "next"; one that is on is.
  await s.until(`return document.querySelector('[aria-label="Next scheduled runs"]').textContent.includes("water the plants")`, "the next run listed");
  assert.doesNotMatch(await s.exec(text('[aria-label="Next scheduled runs"]')), /check the build/);
  llm.script({ text: "The build is green and all 212 tests pass on main.", chunkMs: 250 });
  run(["schedule", "add", "report the build status", "--at", new Date(Date.now() + 1500).toISOString()]);
  const now = await s.until(
    `const li = [...document.querySelectorAll(".now-item")].find((l) => l.textContent.includes("report the build status")); return li ? li.textContent : null`,
    "the scheduled run under Now",
    15000,
  );
  assert.match(now, /schedule/);
  await s.until(`return [...document.querySelectorAll('[aria-label="Recent tasks"] li')].some((l) => l.textContent.includes("report the build status") && l.dataset.status === "running")`, "its task running");
  await s.exec(`document.querySelectorAll(".toast").forEach((t) => t.remove())`);
  await shot("cockpit");
  await s.until(`return [...document.querySelectorAll('[aria-label="Recent tasks"] li')].some((l) => l.textContent.includes("report the build status") && l.dataset.status === "succeeded")`, "its task succeeded", 20000);
  await s.until(`return document.querySelector('[aria-label="Running now"]').textContent.includes("Idle")`, "nothing running");
  await s.until(`return document.querySelector('[aria-label="Latest announcements"]').textContent.includes("report the build status")`, "what it said");
  await s.until(`return Number(document.querySelector(".statusbar .budget-text").textContent.replace(/[^0-9]/g, "")) > ${before}`, "the budget it spent");
  assert.ok((await spent()) > before);
});

test("a task that needed an approval is retried from the Tasks view with it given up front", async () => {
  const cli = path.join(path.dirname(BIN), "jarvis");
  const run = (args) => execFileSync(cli, args, { env: { ...process.env, JARVIS_HOME: home, JARVIS_BASE_URL: llm.url, JARVIS_MODEL: "e2e-model" }, encoding: "utf8" });
  await s.exec(`return window.jarvisHud.navigate("tasks")`);
  // Unattended, the command is refused: nobody is there to approve it.
  llm.script({ tool: "local_exec", args: { command: "touch retried-with-exec" } }, { text: "I could not run it without an approval." });
  run(["tasks", "run", "make the retry marker"]);
  const row = `[...document.querySelectorAll("[data-task]")].find((r) => r.textContent.includes("make the retry marker"))`;
  await s.until(`const r = ${row}; return r && r.dataset.status === "needs_approval"`, "the task needing an approval", 20000);
  const label = await s.exec(`return [...${row}.querySelectorAll("button")].map((b) => b.textContent).find((t) => t.startsWith("Retry"))`);
  assert.equal(label, "Retry, allowing exec", "the button names what the retry is allowed");
  assert.ok(!fs.existsSync(path.join(workdir, "retried-with-exec")));
  llm.script({ tool: "local_exec", args: { command: "touch retried-with-exec" } }, { text: "Made it." });
  await s.exec(`[...${row}.querySelectorAll("button")].find((b) => b.textContent.startsWith("Retry")).click()`);
  await s.until(`return [...document.querySelectorAll("[data-task]")].some((r) => r.textContent.includes("make the retry marker") && r.dataset.status === "succeeded")`, "the retry succeeded", 20000);
  assert.ok(fs.existsSync(path.join(workdir, "retried-with-exec")), "the retry ran the command with no question");
});

test("Undo in the chat puts back a file the agent overwrote, byte for byte", async () => {
  const plan = path.join(workdir, "plan.md");
  const original = Buffer.concat([Buffer.from("café ☕\r\n- ship it"), Buffer.from([0xff, 0x00, 0x7f])]);
  fs.writeFileSync(plan, original);
  await newChat();
  // Writes are off in this home: the agent overwrites it with a command.
  llm.script({ tool: "local_exec", args: { command: "printf '# rewritten by the agent\\n' > plan.md" } }, { text: "I rewrote your plan." });
  await send("rewrite my plan");
  await s.until(exists('.approvals .approval button[data-decision="allow_once"]'), "the command's approval");
  await s.click('.approvals .approval button[data-decision="allow_once"]');
  await s.until(`return document.body.textContent.includes("I rewrote your plan.")`, "the reply");
  assert.equal(fs.readFileSync(plan, "utf8"), "# rewritten by the agent\n");
  await s.until(`return document.querySelector(".msg.assistant .undo-bar")?.textContent.includes("plan.md")`, "the turn's Undo bar");
  await s.click(".msg.assistant .undo-bar button");
  await s.until(`return document.querySelector(".msg.assistant .undo-bar .undone")?.textContent.includes("restored plan.md")`, "the undo done");
  assert.equal(Buffer.compare(fs.readFileSync(plan), original), 0, "the very bytes from before");
});

test("the agent's open_view switches the view; other views are refused", async () => {
  await newChat();
  llm.script({ tool: "open_view", args: { view: "skills" } }, { text: "Here are your skills." });
  await send("open the skills page");
  await s.until(`return document.querySelector(".app").dataset.view === "skills"`, "the skills view");
  assert.equal(await s.exec(`return document.querySelector('nav button[aria-current="page"]').dataset.view`), "skills");
  // A view outside the whitelist is refused by the tool, and the HUD stays.
  await s.exec(`window.jarvisHud.navigate("chat")`);
  llm.script({ tool: "open_view", args: { view: "file:///etc" } }, { text: "That view does not exist." });
  await send("open something odd");
  await s.until(`return document.querySelector(".chat").dataset.running === "false" && document.body.textContent.includes("That view does not exist.")`, "the reply");
  assert.equal(await s.exec(`return document.querySelector(".app").dataset.view`), "chat");
  assert.match(llm.toolResults().join("\n"), /unknown view/);
});

test("an approval answered in the HUD reaches the model and closes the native dialog", async () => {
  await newChat();
  // A command that writes (a read-only one like plain `echo` would not ask).
  llm.script({ tool: "local_exec", args: { command: "touch approved-by-hud && echo hello-from-exec" } }, { text: "It printed hello-from-exec." });
  await send("run echo");
  await s.until(exists('.approvals .approval button[data-decision="allow_once"]'), "the HUD approval");
  const card = await s.exec(text(".approvals .approval"));
  assert.match(card, /touch approved-by-hud && echo hello-from-exec/);
  assert.match(card, new RegExp(path.basename(workdir)));
  await waitFor(() => nativeDialogs().length > 0, "the native dialog");
  await s.click('.approvals .approval button[data-decision="allow_once"]');
  await waitFor(() => nativeDialogs().length === 0, "the native dialog to close");
  await s.until(text('.msg.assistant .chip[data-status="ok"] .chip-name'), "the exec chip");
  await s.until(`return document.body.textContent.includes("It printed hello-from-exec.")`, "the reply");
  assert.match(llm.toolResults().join("\n"), /hello-from-exec/);
  assert.ok(fs.existsSync(path.join(workdir, "approved-by-hud")));
  assert.equal(await s.exec(`return document.querySelector(".approvals").hidden`), true);
  // The file the command made is named under the turn, and Undo takes it back.
  const bar = await s.until(`return document.querySelector(".msg.assistant .undo-bar")?.textContent ?? null`, "the turn's Undo bar");
  assert.match(bar, /Changed 1 file: approved-by-hud/);
  await s.click(".msg.assistant .undo-bar button");
  await s.until(`return document.querySelector(".msg.assistant .undo-bar .undone")?.textContent.includes("removed approved-by-hud")`, "the undo done");
  assert.ok(!fs.existsSync(path.join(workdir, "approved-by-hud")), "undo removed the file the command made");
});

test("the native dialog: Esc denies; unanswered it closes itself and denies", async () => {
  await newChat();
  llm.script({ tool: "local_exec", args: { command: "touch denied-by-esc" } }, { text: "Understood, I did not run it.", chunkMs: 20 });
  await send("run something");
  const [win] = await waitFor(async () => {
    const d = nativeDialogs();
    return d.length ? d : null;
  }, "the native dialog");
  execFileSync("import", ["-window", win, path.join(SHOTS, "approval-dialog.png")]);
  execFileSync("xdotool", ["windowfocus", "--sync", win]);
  execFileSync("xdotool", ["key", "--clearmodifiers", "Escape"]);
  await waitFor(() => nativeDialogs().length === 0, "Esc to close the dialog", 5000);
  await s.until(text('.msg.assistant .chip[data-status="refused"] .chip-name'), "a refused chip");
  await s.until(`return document.body.textContent.includes("Understood, I did not run it.")`, "the reply after the denial");
  const results = llm.toolResults().join("\n");
  assert.match(results, /denied/i);
  assert.equal(fs.existsSync(path.join(workdir, "denied-by-esc")), false);

  // No answer at all: the dialog disappears by itself at the timeout.
  await newChat();
  llm.script({ tool: "local_exec", args: { command: "touch nobody-answered" } }, { text: "No answer, so I did not run it." });
  await send("run another");
  await waitFor(() => nativeDialogs().length > 0, "the second dialog");
  const shown = Date.now();
  await waitFor(() => nativeDialogs().length === 0, "the dialog to time out", (TIMEOUT_SEC + 5) * 1000);
  const after = (Date.now() - shown) / 1000;
  assert.ok(after >= TIMEOUT_SEC - 1.5, `closed after ${after}s, before the ${TIMEOUT_SEC}s timeout`);
  await s.until(`return document.body.textContent.includes("No answer, so I did not run it.")`, "the reply after the timeout").catch(async (e) => {
    const log = await s.exec(`return document.querySelector(".log").innerText`);
    throw new Error(`${e.message}\nHUD: ${log}\nrequests: ${llm.requests.length}, queue: ${JSON.stringify(llm.queue)}`);
  });
  assert.match(llm.toolResults().join("\n"), new RegExp(`no answer within ${TIMEOUT_SEC} s`));
  assert.equal(fs.existsSync(path.join(workdir, "nobody-answered")), false);
});

test("a blacklisted call is refused with its reason and never asks", async () => {
  await newChat();
  llm.script({ tool: "local_exec", args: { command: "rm -rf ~" } }, { text: "I cannot do that." });
  await send("clean my home");
  await s.until(text('.msg.assistant .chip[data-status="refused"] .chip-name'), "a refused chip");
  assert.equal(nativeDialogs().length, 0);
  assert.equal(await s.exec(`return document.querySelector(".approvals").hidden`), true);
  await s.click('.msg.assistant .chip[data-status="refused"] summary');
  assert.match(await s.exec(text('.msg.assistant .chip[data-status="refused"] .chip-summary')), /^blocked: ./);
  await s.until(`return document.body.textContent.includes("I cannot do that.")`, "the reply");
});

test("the global push-to-talk shortcut reaches voice, which says what it lacks", async () => {
  await s.exec(`document.querySelector(".statusbar .hint").textContent = ""`);
  execFileSync("xdotool", ["keydown", "ctrl+alt+space"]);
  await new Promise((r) => setTimeout(r, 300));
  execFileSync("xdotool", ["keyup", "ctrl+alt+space"]);
  // No sound card or speech model here: the press started voice, which
  // reports why it cannot listen.
  assert.match(await s.until(`return document.querySelector(".statusbar .hint").textContent`, "a voice notice"), /^no (microphone|speech model|VAD model)/);
});

test("a model downloads from settings with live progress and is verified", async () => {
  // Awaited: the form is the fresh one, not the last visit's.
  await s.exec(`return window.jarvisHud.navigate("settings")`);
  const row = 'tr[data-model="silero-vad"]';
  await s.until(exists(`${row} button`), "the model row");
  assert.equal(await s.exec(text(`${row} button`)), "Download");
  await s.click(`${row} button`);
  const seen = new Set();
  await waitFor(async () => {
    const p = await s.exec(`const b = document.querySelector(${sel(row + " progress")}); return [b.value, b.max, document.querySelector(${sel(row + " button")}).textContent]`);
    seen.add(p[0] / p[1]);
    return p[2] === "Installed" && p[0] === p[1] && p[1] === 885098;
  }, "the download to finish", 30000);
  assert.ok([...seen].some((f) => f > 0 && f < 1), `no intermediate progress seen: ${[...seen]}`);
  const file = path.join(home, "models/silero-v6.2.0-ggml.bin");
  assert.equal(fs.statSync(file).size, 885098);
  assert.equal(fs.existsSync(`${file}.part`), false);
});

test("a second launch hands over to the first and exits", async () => {
  const second = spawn(BIN, [], { env: { ...process.env, JARVIS_HOME: home }, stdio: "ignore" });
  const code = await new Promise((r) => {
    const t = setTimeout(() => r("still running"), 15000);
    second.once("exit", (c) => {
      clearTimeout(t);
      r(c);
    });
  });
  if (code === "still running") second.kill();
  assert.equal(code, 0);
  assert.ok(await s.exec(`return !!window.jarvisHud`), "the first instance keeps running");
});

test("the API key goes to the OS keyring, shows only its tail, and reaches the server", async () => {
  const key = "sk-e2e-9f8e7d6c5b4a3210";
  // Awaited: the form is the fresh one, not the last visit's.
  await s.exec(`return window.jarvisHud.navigate("settings")`);
  await s.until(exists("#set-api-key"), "the settings form");
  await s.type("#set-api-key", key);
  await s.click("#save-api-key");
  const shown = await s.until(`const t = document.querySelector("#api-key-state").textContent; return t.includes("…") || t.includes("navailable") ? t : null`, "the key to be stored");
  assert.equal(shown, "Stored in the OS keyring: set (…3210)");
  assert.equal(await s.exec(`return document.querySelector("#set-api-key").value`), "");
  assert.equal(await s.exec(`return document.body.innerHTML.includes(arguments[0])`, key), false);
  await newChat();
  llm.script({ text: "Authenticated." });
  await send("hello with a key");
  await s.until(`return document.body.textContent.includes("Authenticated.")`, "the reply");
  assert.equal(llm.auth.at(-1), `Bearer ${key}`);
  // Never on disk in Jarvis's home (config, database, logs).
  const leaks = [];
  const walk = (d) => {
    for (const f of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, f.name);
      if (f.isDirectory()) walk(p);
      // Files only: the hub's wake-up socket holds nothing to read.
      else if (f.isFile() && fs.readFileSync(p).includes(key)) leaks.push(p);
    }
  };
  walk(home);
  assert.deepEqual(leaks, []);
});

test("an approved command asks the real Secret Service for the key and does not get it", async () => {
  // The probe any program on the session bus could run: open a session
  // with the Secret Service and read Jarvis's item.
  const bus = process.env.DBUS_SESSION_BUS_ADDRESS;
  assert.ok(bus, "the suite runs on a D-Bus session");
  const probe = path.join(workdir, "keyring-probe.py");
  fs.writeFileSync(probe, `ADDRESS = ${JSON.stringify(bus)}\n` + fs.readFileSync(path.join(ROOT, "tests/e2e/keyring-probe.py"), "utf8"));
  // Outside the sandbox it works: the key stored by the previous test is there.
  const outside = execFileSync("/usr/bin/python3", [probe], { encoding: "utf8" });
  assert.match(outside, /SECRET:sk-e2e-9f8e7d6c5b4a3210/);
  await newChat();
  llm.script({ tool: "local_exec", args: { command: "/usr/bin/python3 keyring-probe.py" } }, { text: "Probe finished." });
  await send("run the keyring probe");
  await s.until(exists('.approvals .approval button[data-decision="allow_once"]'), "the approval");
  await s.click('.approvals .approval button[data-decision="allow_once"]');
  await s.until(`return document.body.textContent.includes("Probe finished.")`, "the reply");
  const results = llm.toolResults().join("\n");
  assert.match(results, /KEYRING-UNREACHABLE/, "the probe ran and could not reach the bus");
  assert.doesNotMatch(results, /sk-e2e-9f8e7d6c5b4a3210|SECRET:/);
});

test("a skill dropped as a folder installs only after confirm", async () => {
  const src = path.join(SHARED, "oracles/skills/corpus/anthropics__skills/brand-guidelines");
  const drop = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-drop-"));
  fs.cpSync(src, path.join(drop, "brand-guidelines"), { recursive: true });
  // A real drag over XDND from another X client, as from a file manager.
  const [win] = visibleWindows("--name", "^Jarvis$");
  assert.ok(win, "the app's window is on screen");
  await dragOnto(win, path.join(drop, "brand-guidelines"));
  await s.until(`return document.querySelector(".install-report h2")?.textContent === "Install brand-guidelines?"`, "the install report");
  assert.equal(fs.existsSync(path.join(home, "skills/brand-guidelines")), false, "nothing is installed before confirm");
  await shot("skill-install");
  await s.click('.install-report button[data-action="install"]');
  await s.until(exists('.skill[data-skill="brand-guidelines"]'), "the installed skill in the list");
  assert.ok(fs.existsSync(path.join(home, "skills/brand-guidelines/SKILL.md")));
});

test("repeated requests become a proposal card; drafted, reviewed and applied from Skills; Memory and Reflect show what is kept and measured", async () => {
  // Turned on in Settings, as a user would.
  await s.exec(`return window.jarvisHud.navigate("settings")`);
  await s.until(exists("#set-evolve-enabled"), "the learning switch");
  assert.equal(await s.exec(`return document.querySelector("#set-evolve-enabled").checked`), false);
  await s.click("#set-evolve-enabled");
  await waitFor(() => JSON.parse(fs.readFileSync(path.join(home, "config.json"), "utf8")).evolve?.enabled === true, "evolve.enabled saved");
  // Three paraphrases over two conversations: one proposal, announced.
  const asks = ["Translate this into French: “the meeting moved to Friday”", "please translate 'good morning everyone' into French", "Can you translate my notes into French? “Launch is on track”"];
  for (const [i, ask] of asks.entries()) {
    if (i !== 1) await newChat();
    llm.script({ text: `Voilà (${i}).` });
    await send(ask);
    await s.until(`return document.body.textContent.includes("Voilà (${i}).")`, `reply ${i}`);
    await s.until(`return !document.querySelector(".chat").dataset.running || document.querySelector(".chat").dataset.running === "false"`, "the turn to end");
  }
  await s.until(`return [...document.querySelectorAll(".toast")].some((t) => t.textContent.includes("Shall I make a skill for it?"))`, "the proposal announced");
  await s.exec(`return window.jarvisHud.navigate("skills")`);
  const card = ".proposal[data-proposal]";
  await s.until(exists(card), "the proposal card");
  assert.match(await s.exec(text(card)), /You asked me to .*French.* 3 times\. Shall I make a skill for it\?/);
  assert.equal(fs.existsSync(path.join(home, "skills/french-translate")), false, "nothing in skills/ before apply");
  await shot("proposal");
  // Draft (one model request), review, apply.
  llm.script({ text: "DESCRIPTION: Translates the user's text into French, keeping its tone.\n\n# Translate into French\n1. Translate the text into natural French.\n2. Reply with the translation only." });
  await s.click(`${card} button[data-action="draft-it"]`);
  await s.until(exists(`${card} pre.draft`), "the draft for review");
  assert.match(await s.exec(text(`${card} pre.draft`)), /^---\nname: french-translate\n/);
  assert.match(await s.exec(text(`${card} .proposal-review`)), /Valid, and the install scan found nothing/);
  await s.click(`${card} button[data-action="apply"]`);
  await s.until(exists('.skill[data-skill="french-translate"]'), "the applied skill in the list");
  assert.ok(fs.existsSync(path.join(home, "skills/french-translate/SKILL.md")));
  await s.until(exists(".proposal.applied button[data-action=\"roll-back\"]"), "applied: it can be rolled back");

  // Asked to remember: kept in the user's words, shown in Memory.
  await newChat();
  llm.script({ tool: "remember", args: { text: "I prefer metric units", kind: "preference" } }, { text: "Noted: metric." });
  await send("Please remember that I prefer metric units");
  await s.until(`return document.body.textContent.includes("Noted: metric.")`, "the reply");
  await s.exec(`return window.jarvisHud.navigate("memory")`);
  await s.until(`return [...document.querySelectorAll("[data-memory]")].some((li) => li.textContent.includes("I prefer metric units") && li.textContent.includes("you said it"))`, "the memory item");

  // Reflect: five labelled axes, each a rate with its count.
  await s.exec(`return window.jarvisHud.navigate("reflect")`);
  await s.until(exists("svg.radar polygon.score"), "the radar");
  const axes = await s.exec(`return [...document.querySelectorAll("svg.radar text.axis-label")].map((t) => t.dataset.axis)`);
  assert.deepEqual(axes, ["Hands", "Skills", "Autonomy", "Safety", "Growth"]);
  const growth = await s.exec(text('tr[data-axis="Growth"]'));
  assert.match(growth, /\d+ %\d+/, `Growth shows a score and its samples: ${growth}`);
});

test("toggles persist across a restart", async () => {
  // Awaited: the form is the fresh one, not the last visit's.
  await s.exec(`return window.jarvisHud.navigate("settings")`);
  await s.until(exists("#set-tools-write"), "the settings form");
  assert.equal(await s.exec(`return document.querySelector("#set-tools-write").checked`), false);
  await s.click("#set-tools-write");
  await waitFor(() => JSON.parse(fs.readFileSync(path.join(home, "config.json"), "utf8")).tools.write === true, "config.json to be written");
  await quit();
  await launch();
  // Awaited: the form is the fresh one, not the last visit's.
  await s.exec(`return window.jarvisHud.navigate("settings")`);
  await s.until(exists("#set-tools-write"), "the settings form after the restart");
  assert.equal(await s.exec(`return document.querySelector("#set-tools-write").checked`), true);
  assert.equal(await s.exec(`return document.querySelector("#set-tools-read").checked`), true);
});

test("home is never the working folder: refused in Settings, and asked for again at start", async () => {
  const config = () => JSON.parse(fs.readFileSync(path.join(home, "config.json"), "utf8"));
  // Awaited: the form is the fresh one, not the last visit's.
  await s.exec(`return window.jarvisHud.navigate("settings")`);
  await s.until(exists("#set-workdir"), "the settings form");
  await s.exec(`document.querySelector("#set-workdir").value = arguments[0]`, os.homedir());
  await s.click("#use-workdir");
  assert.match(await s.until(`const t = document.querySelector("#workdir-state").textContent; return t.includes("home") ? t : null`, "the refusal"), /cannot be your home folder/);
  assert.equal(config().workdir, workdir, "the folder did not change");
  // Started with home as its folder (an old config, a hand edit): the app
  // asks for another before anything runs.
  await quit();
  fs.writeFileSync(path.join(home, "config.json"), JSON.stringify({ ...config(), workdir: os.homedir() }, null, 2));
  await launch();
  await s.until(exists('.firstrun[aria-label="Choose a folder"] #fr-folder'), "the folder dialog");
  assert.match(await s.exec(text(".firstrun")), /cannot be your home folder/);
  const chosen = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-chosen-")), "project");
  await s.exec(`document.querySelector("#fr-folder").value = arguments[0]`, chosen);
  await s.click(".firstrun button.primary");
  await s.until(`return !document.querySelector(".firstrun")`, "the dialog to close");
  assert.ok(fs.statSync(chosen).isDirectory(), "the chosen folder was created");
  assert.equal(config().workdir, fs.realpathSync(chosen));
  // Changed in Settings, no restart: the very next command runs there.
  const next = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-next-")));
  await s.exec(`return window.jarvisHud.navigate("settings")`);
  await s.until(exists("#set-workdir"), "the settings form");
  await s.exec(`document.querySelector("#set-workdir").value = arguments[0]`, next);
  await s.click("#use-workdir");
  await waitFor(() => config().workdir === next, "the new folder saved");
  await newChat();
  llm.script({ tool: "local_exec", args: { command: "pwd" } }, { text: "That is where I work now." });
  await send("where do you run commands?");
  await s.until(`return document.body.textContent.includes("That is where I work now.")`, "the reply");
  assert.match(llm.toolResults().join("\n"), new RegExp(next.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
});

test("every view is reachable by keyboard alone", async () => {
  await s.exec(`window.jarvisHud.navigate("chat")`);
  for (let i = 0; i < VIEWS.length; i++) {
    await s.keys(viewKey(i));
    await s.until(`return document.querySelector(".app").dataset.view === ${sel(VIEWS[i])}`, `${viewKey(i).join("+")} → ${VIEWS[i]}`);
    // Exactly that view is on screen.
    const shown = await s.exec(`return [...document.querySelectorAll("main > .view")].filter((v) => getComputedStyle(v).display !== "none").map((v) => v.getAttribute("aria-label"))`);
    assert.deepEqual(shown, [VIEWS[i][0].toUpperCase() + VIEWS[i].slice(1)]);
    // Tab moves focus onto something visible in this view or the chrome.
    const seen = new Set();
    for (let t = 0; t < 8; t++) {
      await s.keys([KEY.tab]);
      const f = await s.exec(`const a = document.activeElement; if (!a || a === document.body) return null; const r = a.getBoundingClientRect(); return { tag: a.tagName, visible: r.width > 0 && r.height > 0, label: a.getAttribute("aria-label") || a.textContent.trim().slice(0, 30) || a.id }`);
      assert.ok(f && f.visible, `Tab ${t + 1} in ${VIEWS[i]} lands on nothing visible: ${JSON.stringify(f)}`);
      seen.add(`${f.tag}:${f.label}`);
    }
    assert.ok(seen.size >= 3, `${VIEWS[i]}: Tab reaches only ${[...seen]}`);
    if (VIEWS[i] !== "chat" && VIEWS[i] !== "cockpit") await shot(VIEWS[i]); // both were shot mid-work
  }
});

test("no serious accessibility violations in any view (axe-core), dark and light", async () => {
  const axe = fs.readFileSync(path.join(ROOT, "ui/node_modules/axe-core/axe.min.js"), "utf8");
  await s.exec(axe + "; return true;");
  for (const theme of ["dark", "light"]) {
    await s.exec(`document.documentElement.dataset.theme = arguments[0]`, theme);
    for (const view of VIEWS) {
      await s.exec(`return window.jarvisHud.navigate(arguments[0])`, view);
      await new Promise((r) => setTimeout(r, 300));
      const found = await s.execAsync(
        `const done = arguments[arguments.length - 1];
         axe.run(document, { resultTypes: ["violations"] }).then((r) => done(r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", "))), (e) => done(["axe failed: " + e]));`,
      );
      assert.deepEqual(found, [], `${view} (${theme}): ${found.join("; ")}`);
    }
  }
  await s.exec(`document.documentElement.dataset.theme = "dark"`);
});
