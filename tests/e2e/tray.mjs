// A StatusNotifier host on the session bus (tests/e2e/tray-host.py): what a
// desktop panel sees of the app's tray icon.
import { spawn } from "node:child_process";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { waitFor } from "./wait.mjs";

const HOST = fileURLToPath(new URL("./tray-host.py", import.meta.url));
const ICONS = fileURLToPath(new URL("../../icons/tray", import.meta.url));

/** Starts the host and waits until it owns the watcher name. `states` fills
 * with what the item shows: {title, icon, shows (idle, listening, …), menu}. */
export async function startTrayHost() {
  const host = spawn("/usr/bin/python3", [HOST, ICONS], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = [];
  readline.createInterface({ input: host.stdout }).on("line", (l) => lines.push(JSON.parse(l)));
  await waitFor(() => lines.some((s) => s.watching), "the StatusNotifier watcher on the bus");
  const states = {
    get all() {
      return lines.filter((s) => s.menu);
    },
    latest() {
      return this.all.at(-1);
    },
  };
  return {
    states,
    click: (label) => host.stdin.write(`click ${label}\n`),
    stop: () => host.kill(),
  };
}
