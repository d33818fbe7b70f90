// A newcomer's first run with no server at all: the app offers this
// machine's default model with size and licence, downloads it from a
// mirror on loopback, checks it against its pinned sha256, and the
// conversation is answered by the embedded engine's worker. The default is
// the small test model, named in the home's own model catalog (as an
// organisation would provision a machine): the built-in models' digests
// are Qwen's, and the test model's bytes would be refused under their
// names. Runs alone.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { startDriver } from "./webdriver.mjs";

const BIN = process.env.JARVIS_DESKTOP_BIN;
const GGUF = process.env.JARVIS_TEST_GGUF;
const SMOL_FILE = "/llm/smol.gguf";

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
  const body = fs.readFileSync(GGUF);
  mirror = http.createServer((req, res) => {
    if (new URL(req.url, "http://x").pathname !== SMOL_FILE) return res.writeHead(404).end();
    res.writeHead(200, { "content-length": body.length }).end(body);
  });
  await new Promise((r) => mirror.listen(0, "127.0.0.1", r));
  fs.mkdirSync(path.join(home, "models"), { recursive: true });
  const entry = {
    name: "smollm2-135m",
    what: "SmolLM2 135M Instruct, Q4_1",
    license: "Apache-2.0",
    file: "smol.gguf",
    url: `http://127.0.0.1:${mirror.address().port}${SMOL_FILE}`,
    sha256: crypto.createHash("sha256").update(body).digest("hex"),
    bytes: body.length,
    default: true,
  };
  fs.writeFileSync(path.join(home, "models/catalog.json"), JSON.stringify({ models: [entry] }));
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
  // A session whose close did not end the app leaves it holding the test
  // runner's output open, and the whole run would wait on it.
  if (BIN) spawnSync("pkill", ["-KILL", "-f", BIN]);
  mirror?.close();
  if (home) stopWorker();
});

test("first run with no server: the built-in model is offered, downloaded and answers", { skip: !GGUF && "JARVIS_TEST_GGUF is not set" }, async () => {
  await s.until(exists(".firstrun #fr-builtin"), "the first run's engine step");
  const offer = await s.exec(text(".firstrun"));
  assert.match(offer, /Use a built-in model/);
  assert.match(offer, /SmolLM2 135M Instruct/);
  assert.match(offer, /licence Apache-2\.0/);
  assert.match(offer, /the download is \d+ MB/);
  await s.click("#fr-builtin");
  // Downloaded and chosen: on to the folder, with no server model to pick.
  await s.until(exists(".firstrun #fr-folder"), "the folder step after the download", 60000);
  const file = path.join(home, "models", SMOL_FILE);
  assert.equal(fs.statSync(file).size, fs.statSync(GGUF).size, "the whole file was installed");
  const cfg = JSON.parse(fs.readFileSync(path.join(home, "config.json"), "utf8"));
  assert.equal(cfg.llm.provider, "embedded");
  assert.equal(cfg.llm.local_model, "smollm2-135m");
  await s.exec(`document.querySelector("#fr-folder").value = arguments[0]`, workdir);
  await s.click(".firstrun button.primary");
  await s.until(`return [...document.querySelectorAll(".firstrun button")].some((b) => b.textContent === "Start")`, "the microphone step");
  // The microphone step says plainly what this machine has, as doctor
  // finds it (this one has no sound card), and what voice still lacks.
  const micStep = await s.exec(text(".firstrun"));
  const cli = path.join(path.dirname(BIN), "jarvis");
  const doctor = JSON.parse(spawnSync(cli, ["doctor", "--json"], { env: { ...process.env, JARVIS_HOME: home, JARVIS_BASE_URL: "http://127.0.0.1:9/v1" }, encoding: "utf8" }).stdout);
  const mic = doctor.find((c) => c.check === "microphone");
  if (mic.ok) assert.match(micStep, new RegExp(`Microphone: ${mic.detail.split(", ")[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  else assert.match(micStep, /No microphone found\. You can type to Jarvis; connect a microphone any time\./);
  assert.match(micStep, /No whisper-tiny\.en, silero-vad(, piper-joe)? model yet: download it in Settings → Voice to talk\./);
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
  assert.match(engine, /Running: smollm2-135m, context [\d,]+ tokens/);
});
