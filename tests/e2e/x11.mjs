// Visible X11 windows, found with xdotool (which exits 1 when none match).
import { execFileSync } from "node:child_process";

export function visibleWindows(...criteria) {
  try {
    return execFileSync("xdotool", ["search", "--onlyvisible", ...criteria]).toString().trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
}
