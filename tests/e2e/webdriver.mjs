// Just enough of the W3C WebDriver protocol to drive the real app through
// tauri-driver (which hands the session to WebKitWebDriver).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { waitFor } from "./wait.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Starts tauri-driver on a free-ish port with `env` for the app it
 * launches; resolves once it answers, with the process and a client. */
export async function startDriver(env, base = 4444) {
  const port = base + Math.floor(Math.random() * 500);
  const driver = spawn(path.join(ROOT, "ui/node_modules/.bin/tauri-driver"), ["--port", String(port), "--native-port", String(port + 1000)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitFor(() => fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false), "tauri-driver", 20000);
  return { driver, wd: new WebDriver(`http://127.0.0.1:${port}`) };
}
export class WebDriver {
  constructor(base) {
    this.base = base;
  }

  async req(method, path, body) {
    const r = await fetch(`${this.base}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await r.json().catch(() => ({}));
    if (!r.ok || json?.value?.error) throw new Error(`${method} ${path}: ${JSON.stringify(json.value ?? json).slice(0, 400)}`);
    return json.value;
  }

  async open(application) {
    const v = await this.req("POST", "/session", {
      capabilities: { alwaysMatch: { "tauri:options": { application } } },
    });
    return new Session(this, v.sessionId);
  }
}

export class Session {
  constructor(wd, id) {
    this.wd = wd;
    this.id = id;
  }
  r(method, path, body) {
    return this.wd.req(method, `/session/${this.id}${path}`, body);
  }
  close() {
    return this.r("DELETE", "");
  }
  exec(script, ...args) {
    return this.r("POST", "/execute/sync", { script, args });
  }
  execAsync(script, ...args) {
    return this.r("POST", "/execute/async", { script, args });
  }
  async find(css) {
    const v = await this.r("POST", "/element", { using: "css selector", value: css });
    return Object.values(v)[0];
  }
  async click(css) {
    const el = await this.find(css);
    // WebKit's own scrolling may leave the element under the fixed status
    // bar, where a click is refused; centre it first.
    await this.exec(`document.querySelector(arguments[0])?.scrollIntoView({ block: "center" })`, css);
    await this.r("POST", `/element/${el}/click`, {});
  }
  async type(css, text) {
    const el = await this.find(css);
    await this.r("POST", `/element/${el}/value`, { text });
  }
  /** Key presses through the Actions API (real key events in the page). */
  async keys(...chords) {
    const actions = [];
    for (const chord of chords) {
      for (const k of chord) actions.push({ type: "keyDown", value: k });
      for (const k of [...chord].reverse()) actions.push({ type: "keyUp", value: k });
    }
    await this.r("POST", "/actions", { actions: [{ type: "key", id: "kb", actions }] });
    await this.r("DELETE", "/actions");
  }
  screenshot() {
    return this.r("GET", "/screenshot");
  }
  /** Polls a script until it returns a truthy value. */
  async until(script, what, timeoutMs = 15000, ...args) {
    const end = Date.now() + timeoutMs;
    let last;
    while (Date.now() < end) {
      last = await this.exec(script, ...args).catch((e) => `error: ${e.message}`);
      if (last && !(typeof last === "string" && last.startsWith("error: "))) return last;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
  }
}

export const KEY = { alt: "\uE00A", tab: "\uE004", enter: "\uE007", shift: "\uE008", escape: "\uE00C", control: "\uE009", space: " " };
