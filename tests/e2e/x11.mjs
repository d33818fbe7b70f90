// X11 helpers for the end-to-end suite, through xdotool.
import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { sleep } from "./wait.mjs";

// Visible X11 windows (xdotool exits 1 when none match).
export function visibleWindows(...criteria) {
  try {
    return execFileSync("xdotool", ["search", "--onlyvisible", ...criteria]).toString().trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

function geometry(win) {
  const out = execFileSync("xdotool", ["getwindowgeometry", "--shell", win]).toString();
  const v = (k) => Number(out.match(new RegExp(`^${k}=(\\d+)`, "m"))[1]);
  return { x: v("X"), y: v("Y"), width: v("WIDTH"), height: v("HEIGHT") };
}

// Drags `file` from a GTK window (tests/e2e/drag-source.py, at the screen's
// right edge) to the middle of X11 window `win` and drops it: a real XDND
// drag with the mouse, as from a file manager. Resolves when the source
// reports the drag over.
export async function dragOnto(win, file) {
  const [screenW] = execFileSync("xdotool", ["getdisplaygeometry"]).toString().trim().split(" ").map(Number);
  const src = { x: screenW - 90, y: 10 };
  const source = spawn("/usr/bin/python3", [DRAG_SOURCE, file, String(src.x), String(src.y)], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  const said = (word, ms) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`drag source: no "${word}" in ${ms} ms (said: ${out.trim()})`)), ms);
      const check = () => {
        if (out.includes(word)) {
          clearTimeout(timer);
          resolve();
        }
      };
      source.stdout.on("data", (d) => {
        out += d;
        check();
      });
      source.once("exit", () => check());
    });
  try {
    await said("ready", 15000);
    // The window is mapped when "ready" prints; give the X server a beat.
    await sleep(300);
    const to = geometry(win);
    const target = { x: to.x + Math.floor(to.width / 2), y: to.y + Math.floor(to.height / 2) };
    const ended = said("drag-end", 15000);
    execFileSync("xdotool", ["mousemove", String(src.x + 40), String(src.y + 40), "mousedown", "1"]);
    // Past GTK's drag threshold first, then across in steps so both sides
    // see XDND enter/position messages.
    for (let i = 1; i <= 8; i++) {
      const f = i / 8;
      execFileSync("xdotool", ["mousemove", String(Math.round(src.x + 40 + (target.x - src.x - 40) * f)), String(Math.round(src.y + 40 + (target.y - src.y - 40) * f))]);
      await sleep(100);
    }
    await sleep(300);
    execFileSync("xdotool", ["mouseup", "1"]);
    await ended;
  } finally {
    source.kill();
  }
}

const DRAG_SOURCE = fileURLToPath(new URL("./drag-source.py", import.meta.url));
