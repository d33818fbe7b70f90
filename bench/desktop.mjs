// Desktop benchmarks, printed as a table:
//   startup   process start → first painted frame, the app's HUD and the bare
//             window's page, launched in turn (median of N each): the time
//             from spawn to the line the page's first frame makes the
//             process log, so both are measured the same way; and the
//             app's second report, when the brain's state is drawn in
//   stream    1,000 content deltas/s for 3 s: p50/p95/max delta-to-DOM latency
//             (server send → text in the DOM) and the longest main-thread
//             task (the longest gap between back-to-back macrotasks)
//   memory    after 30 s idle: PSS summed over the app's processes (main,
//             WebKit web and network processes) and the main process's RSS,
//             beside a bare Tauri window built the same way showing one line
//             of text (the baseline the goal is set against) and, for
//             reference, showing an empty page
//
// Run under a display and a session bus:
//   xvfb-run -a dbus-run-session -- node bench/desktop.mjs --app BIN --bare BIN [--profile debug]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startKeyring } from "../tests/e2e/keyring.mjs";
import { ScriptedLlm } from "../tests/e2e/llm.mjs";
import { WebDriver } from "../tests/e2e/webdriver.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const arg = (k, d) => {
  const i = process.argv.indexOf(`--${k}`);
  return i > 0 ? process.argv[i + 1] : d;
};
const APP = arg("app");
const BARE = arg("bare");
const RUNS = Number(arg("runs", "5"));
const IDLE_SEC = Number(arg("idle", "30"));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freshHome(llmUrl) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-bench-"));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-bench-work-"));
  fs.writeFileSync(path.join(home, "config.json"), JSON.stringify({ llm: { base_url: llmUrl, model: "bench" }, workdir: work }));
  return home;
}

function launch(bin, home, args = []) {
  return spawn(bin, args, {
    env: { ...process.env, JARVIS_HOME: home, JARVIS_LOG: "warn,jarvis_desktop=info", JARVIS_QUIT_ON_CLOSE: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
}

async function stop(child) {
  child.kill("SIGTERM");
  await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
}

function signed(x) {
  return `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(0)}`;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Spawn → the first painted frame, and → the frame with the brain's
 * state in it (the app's HUD only: the bare page has none). */
async function firstPaint(bin, llmUrl, ready = false) {
  const started = performance.now();
  const child = launch(bin, freshHome(llmUrl));
  const times = await new Promise((resolve, reject) => {
    let buf = "";
    const at = {};
    const t = setTimeout(() => reject(new Error(`${bin}: no first paint within 60 s`)), 60000);
    child.stderr.on("data", (d) => {
      buf += d;
      if (at.paint === undefined && /HUD first paint \d+ ms after start/.test(buf)) at.paint = performance.now() - started;
      if (at.ready === undefined && /HUD ready \d+ ms after start/.test(buf)) at.ready = performance.now() - started;
      if (at.paint !== undefined && (!ready || at.ready !== undefined)) {
        clearTimeout(t);
        resolve(at);
      }
    });
  });
  await stop(child);
  return times;
}

/** The app and the bare window in turn, so both see the same machine. */
async function startup(llmUrl) {
  const app = [];
  const ready = [];
  const bare = [];
  // One unmeasured launch of each: the first pays for the page cache.
  await firstPaint(APP, llmUrl, true);
  if (BARE) await firstPaint(BARE, llmUrl);
  for (let i = 0; i < RUNS; i++) {
    const a = await firstPaint(APP, llmUrl, true);
    app.push(a.paint);
    ready.push(a.ready);
    if (BARE) bare.push((await firstPaint(BARE, llmUrl)).paint);
  }
  return { app, ready, bare };
}

function startupRows(rows, st) {
  rows.push([`start → first HUD paint, app: its views, status bar and Cockpit tiles (median of ${RUNS}, min–max)`, spread(st.app)]);
  rows.push([`start → HUD ready, app: the same with the brain's state drawn in (median of ${RUNS}, min–max)`, spread(st.ready)]);
  if (BARE) {
    rows.push([`start → first paint, bare Tauri window (median of ${RUNS}, min–max)`, spread(st.bare)]);
    rows.push(["app − bare window, first paint (medians)", `${signed(median(st.app) - median(st.bare))} ms`]);
  }
}

const spread = (xs) => `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

function children(pid) {
  const out = [];
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(d));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

function tree(pid) {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...children(all[i]));
  return all;
}

function kb(file, key) {
  const m = fs.readFileSync(file, "utf8").match(new RegExp(`^${key}:\\s+(\\d+) kB`, "m"));
  return m ? Number(m[1]) : 0;
}

async function memory(bin, llmUrl, args = []) {
  const child = launch(bin, freshHome(llmUrl), args);
  child.stderr.resume();
  await sleep(IDLE_SEC * 1000);
  const pids = tree(child.pid);
  let pss = 0;
  const names = [];
  for (const p of pids) {
    try {
      const one = kb(`/proc/${p}/smaps_rollup`, "Pss");
      pss += one;
      names.push(`${fs.readFileSync(`/proc/${p}/comm`, "utf8").trim()} ${(one / 1024).toFixed(0)} MB`);
    } catch {
      // gone
    }
  }
  const rss = kb(`/proc/${child.pid}/status`, "VmRSS");
  await stop(child);
  return { pss: pss / 1024, rss: rss / 1024, processes: names };
}

async function stream(llm) {
  const home = freshHome(llm.url);
  const port = 5400 + Math.floor(Math.random() * 400);
  const driver = spawn(path.join(ROOT, "ui/node_modules/.bin/tauri-driver"), ["--port", String(port), "--native-port", String(port + 1000)], {
    env: { ...process.env, JARVIS_HOME: home, JARVIS_QUIT_ON_CLOSE: "1" },
    stdio: "ignore",
  });
  try {
    const wd = new WebDriver(`http://127.0.0.1:${port}`);
    for (let i = 0; i < 100; i++) {
      if (await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false)) break;
      await sleep(100);
    }
    const s = await wd.open(APP);
    await s.until(`return !!(window.jarvisHud && window.jarvisHud.state)`, "the HUD", 30000);
    // Page side: note when each stamp reaches the DOM, and the longest gap
    // between back-to-back macrotasks while it streams.
    await s.exec(`
      const log = document.querySelector(".log");
      window.__bench = { lat: [], gap: 0, done: false };
      const last = new Map();
      new MutationObserver((records) => {
        const now = performance.timeOrigin + performance.now();
        for (const r of records) {
          const node = r.type === "characterData" ? r.target : null;
          if (!node) continue;
          const from = last.get(node) ?? 0;
          const added = node.data.slice(from);
          last.set(node, node.data.length);
          for (const m of added.matchAll(/«(\\d+)»/g)) window.__bench.lat.push(now - Number(m[1]));
          if (added.includes("«end»")) window.__bench.done = true;
        }
      }).observe(log, { characterData: true, subtree: true });
      const ch = new MessageChannel();
      let prev = performance.now();
      ch.port1.onmessage = () => {
        const t = performance.now();
        window.__bench.gap = Math.max(window.__bench.gap, t - prev);
        prev = t;
        if (!window.__bench.done) ch.port2.postMessage(0);
      };
      ch.port2.postMessage(0);
      return true;`);
    llm.script({ stream: { perSecond: 1000, seconds: 3 } });
    await s.type(".composer textarea", "stream please");
    await s.click(".composer button.primary");
    await s.until(`return window.__bench.done`, "the stream to end", 60000);
    const r = await s.exec(`return window.__bench`);
    await s.close();
    return r;
  } finally {
    driver.kill();
  }
}

startKeyring();
const llm = await new ScriptedLlm().start();
const rows = [];
const only = arg("only", "all");
if (only === "startup") {
  startupRows(rows, await startup(llm.url));
  await llm.stop();
  console.log(`\n| desktop start-up (${arg("profile", "debug")} build) | measured |\n|---|---|`);
  for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
  process.exit(0);
}
if (only === "all") {
  startupRows(rows, await startup(llm.url));
  const sres = await stream(llm);
  rows.push([`delta → DOM latency at 1,000 deltas/s (${sres.lat.length} deltas) p50 / p95 / max`, `${pct(sres.lat, 50).toFixed(1)} / ${pct(sres.lat, 95).toFixed(1)} / ${Math.max(...sres.lat).toFixed(1)} ms`]);
  rows.push(["longest main-thread task while streaming", `${sres.gap.toFixed(1)} ms`]);
}
const app = await memory(APP, llm.url);
const bare = BARE ? await memory(BARE, llm.url) : null;
const empty = BARE ? await memory(BARE, llm.url, ["--empty"]) : null;
rows.push([`idle ${IDLE_SEC} s: PSS summed over the app's processes (${app.processes.join(", ")})`, `${app.pss.toFixed(0)} MB`]);
rows.push([`idle ${IDLE_SEC} s: main process RSS, app`, `${app.rss.toFixed(0)} MB`]);
if (bare) {
  rows.push([`idle ${IDLE_SEC} s: PSS, bare Tauri window, one line of text (${bare.processes.join(", ")})`, `${bare.pss.toFixed(0)} MB`]);
  rows.push([`idle ${IDLE_SEC} s: main RSS, bare Tauri window`, `${bare.rss.toFixed(0)} MB`]);
  rows.push([`idle ${IDLE_SEC} s: PSS / main RSS, bare window with an empty page (${empty.processes.join(", ")})`, `${empty.pss.toFixed(0)} MB / ${empty.rss.toFixed(0)} MB`]);
  rows.push(["app − bare: PSS / main RSS", `${signed(app.pss - bare.pss)} MB / ${signed(app.rss - bare.rss)} MB`]);
  rows.push(["app − empty page: PSS / main RSS", `${signed(app.pss - empty.pss)} MB / ${signed(app.rss - empty.rss)} MB`]);
}
await llm.stop();
console.log(`\n| desktop benchmark (${arg("profile", "debug")} build) | measured |\n|---|---|`);
for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
