// A newcomer's first run with no server at all: the app offers its built-in
// model with size and licence, downloads it (from a mirror on loopback
// holding the small test model in its place), and the conversation is
// answered by the embedded engine's worker. Runs alone.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { startDriver } from "./webdriver.mjs";

const BIN = process.env.JARVIS_DESKTOP_BIN;
const GGUF = process.env.JARVIS_TEST_GGUF;
const DEFAULT_FILE = "/llm/qwen2.5-1.5b-instruct-q4_k_m.gguf";

let home, workdir, driver, s, mirror;

const text = (css) => `return document.querySelector(${JSON.stringify(css)})?.textContent ?? ""`;
const exists = (css) => `return !!document.querySelector(${JSON.stringify(css)})`;

function stopWorker() {
  try {
    const { pid } = JSON.parse(fs.readFileSync(path.join(home, "llm/worker.json"), "utf8"));
    process.kill(pid, "SIGKILL");
  } catch {
    // none was started
  }
}

before(async () => {
  if (!GGUF) return;
  home = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-engine-"));
  workdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-e2e-engine-work-")), "project");
  // The mirror serves the test model under the default model's name.
  mirror = http.createServer((req, res) => {
    if (new URL(req.url, "http://x").pathname !== DEFAULT_FILE) return res.writeHead(404).end();
    const body = fs.readFileSync(GGUF);
    res.writeHead(200, { "content-length": body.length }).end(body);
  });
  await new Promise((r) => mirror.listen(0, "127.0.0.1", r));
  let wd;
  ({ driver, wd } = await startDriver(
    {
      JARVIS_HOME: home,
      JARVIS_QUIT_ON_CLOSE: "1",
      JARVIS_API_KEY: "",
      // Nothing answers there: the built-in model is the way.
      JARVIS_BASE_URL: "http://127.0.0.1:9/v1",
      JARVIS_MODELS_MIRROR: `http://127.0.0.1:${mirror.address().port}`,
    },
    5100,
  ));
  s = await wd.open(BIN);
  await s.until(`return !!(window.jarvisHud && window.jarvisHud.state)`, "the HUD to start", 30000);
});

after(async () => {
  await s?.close().catch(() => undefined);
  driver?.kill();
  mirror?.close();
  if (home) stopWorker();
});

test("first run with no server: the built-in model is offered, downloaded and answers", { skip: !GGUF && "JARVIS_TEST_GGUF is not set" }, async () => {
  await s.until(exists(".firstrun #fr-builtin"), "the first run's engine step");
  const offer = await s.exec(text(".firstrun"));
  assert.match(offer, /Use a built-in model/);
  assert.match(offer, /licence Apache-2\.0/);
  assert.match(offer, /the download is 1\.1 GB/);
  await s.click("#fr-builtin");
  // Downloaded and chosen: on to the folder, with no server model to pick.
  await s.until(exists(".firstrun #fr-folder"), "the folder step after the download", 60000);
  const file = path.join(home, "models", DEFAULT_FILE);
  assert.equal(fs.statSync(file).size, fs.statSync(GGUF).size, "the whole file was installed");
  const cfg = JSON.parse(fs.readFileSync(path.join(home, "config.json"), "utf8"));
  assert.equal(cfg.llm.provider, "embedded");
  assert.equal(cfg.llm.local_model, "qwen2.5-1.5b");
  await s.exec(`document.querySelector("#fr-folder").value = arguments[0]`, workdir);
  await s.click(".firstrun button.primary");
  await s.until(`return [...document.querySelectorAll(".firstrun button")].some((b) => b.textContent === "Start")`, "the microphone step");
  await s.exec(`[...document.querySelectorAll(".firstrun button")].find((b) => b.textContent === "Start").click()`);
  await s.until(`return !document.querySelector(".firstrun")`, "the first run to close");

  await s.type(".composer textarea", "Say hello to Ana in one short sentence.");
  await s.click(".composer button.primary");
  const reply = await s.until(
    `const t = [...document.querySelectorAll(".msg.assistant .text")].map((e) => e.textContent).join("").trim();
     const running = document.querySelector(".chat").dataset.running === "true";
     return !running && t ? t : null`,
    "the engine's reply",
    120000,
  );
  assert.ok(reply.length > 0);
  assert.ok(fs.existsSync(path.join(home, "llm/worker.json")), "the worker runs for this home");
  assert.doesNotMatch(await s.exec(text(".chat")), /does not answer|not downloaded|error/i);

  await s.exec(`return window.jarvisHud.navigate("settings")`);
  const engine = await s.until(`const t = document.querySelector("#engine")?.textContent ?? ""; return t.includes("Running") ? t : null`, "the engine's state in Settings", 20000);
  assert.match(engine, /Running: qwen2\.5-1\.5b, context [\d,]+ tokens/);
});
