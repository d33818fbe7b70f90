import { invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import { getCurrentWebview } from "@tauri-apps/api/webview";
import { Api, type Transport } from "./api";
import { App } from "./app";
import "./style.css";

const transport: Transport = {
  invoke: (cmd, args) => invoke(cmd, args),
  listen: (event, cb) => listen(event, (e) => cb(e.payload as never)),
};

const app = new App(new Api(transport));
document.getElementById("app")?.appendChild(app.root);
// The HUD's frame (views, status bar, the Cockpit's tiles), then the same
// with the brain's state in it: each reported once drawn. Jarvis starts the
// rest of itself (hub, tray, keys, keyring) after the second.
const drawn = (cmd: string) => requestAnimationFrame(() => requestAnimationFrame(() => void invoke(cmd)));
drawn("hud_painted");
void app.start().then(() => drawn("hud_ready"));
void getCurrentWebview().onDragDropEvent((e) => {
  if (e.payload.type === "drop") void app.dropped(e.payload.paths);
});
// For the end-to-end suite and the benchmarks: the app object, read-only use.
(window as unknown as { jarvisHud: App }).jarvisHud = app;
