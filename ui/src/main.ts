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
void app.start().then(() =>
  requestAnimationFrame(() => requestAnimationFrame(() => void invoke("hud_painted"))),
);
void getCurrentWebview().onDragDropEvent((e) => {
  if (e.payload.type === "drop") void app.dropped(e.payload.paths);
});
// For the end-to-end suite and the benchmarks: the app object, read-only use.
(window as unknown as { jarvisHud: App }).jarvisHud = app;
