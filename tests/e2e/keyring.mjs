// A Secret Service for the keyring on this D-Bus session: gnome-keyring,
// unlocked, its files in a temp dir rather than the user's. Without it,
// D-Bus would start one that asks for a password in a window.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export function startKeyring() {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "jarvis-keyring-"));
  try {
    // An empty password would leave the collection locked.
    execFileSync("gnome-keyring-daemon", ["--unlock", "--components=secrets"], {
      input: "jarvis-test",
      env: { ...process.env, XDG_DATA_HOME: data },
    });
    return true;
  } catch (e) {
    console.warn(`no gnome-keyring-daemon: ${e.message}`);
    return false;
  }
}
