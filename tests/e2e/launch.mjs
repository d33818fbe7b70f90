// The app binary started directly (not through WebDriver), in its own
// process group so WebKit's helper processes go with it at the end.
import { spawn } from "node:child_process";

const BIN = process.env.JARVIS_DESKTOP_BIN;

/** Starts the app with JARVIS_HOME=`home` and `env`. `stderr()` is what it
 * printed so far; `exited` resolves with its exit code; `kill()` ends it
 * and its helpers. */
export function launchApp(home, env = {}) {
  const child = spawn(BIN, [], {
    env: { ...process.env, JARVIS_HOME: home, ...env },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((r) => child.once("exit", (code) => r(code)));
  return {
    pid: child.pid,
    stderr: () => stderr,
    exited,
    kill() {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
      child.stderr.destroy();
    },
  };
}
