// The bare window's one script: report the first frame as the HUD does, so
// the start-up benchmark compares the two.
import { invoke } from "@tauri-apps/api/core";

requestAnimationFrame(() => requestAnimationFrame(() => void invoke("bare_painted")));
