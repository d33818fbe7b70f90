// The embedded engine: which built-in chat model answers, whether it runs,
// and the download that makes one usable. Settings and the first run share
// the download-and-use action, so both say the same sizes and licences.
import type { Api, EngineModel, EngineSpeed, HudState } from "../api";
import { errorText } from "../api";
import { h } from "../dom";

/** `1.1 GB`, `640 MB`: download sizes as people read them. */
export function size(n: number): string {
  return n >= 1e9 ? `${(n / 1e9).toFixed(1)} GB` : `${Math.ceil(n / 1e6)} MB`;
}

/** The model `llm.local_model` names, or the default one when it is empty. */
export function chosen(state: HudState): EngineModel | undefined {
  const e = state.engine;
  return e.models.find((m) => m.name === e.local_model) ?? (e.local_model ? undefined : e.models.find((m) => m.default));
}

/** Downloads `name` when it is missing, then makes it the engine's model. */
export async function useBuiltIn(api: Api, model: EngineModel): Promise<void> {
  if (!model.installed) await api.installModel(model.name);
  await api.setConfig("llm.local_model", JSON.stringify(model.name));
  await api.setConfig("llm.provider", JSON.stringify("embedded"));
}

/** One row per catalog model: what it is, its licence, and the action. */
export function modelRows(api: Api, state: HudState, progress: Map<string, HTMLProgressElement>, toast: (m: string) => void, done: () => void): HTMLElement {
  const current = state.engine.provider === "embedded" ? chosen(state)?.name : undefined;
  return h(
    "table",
    { class: "models" },
    h("caption", {}, "Chat models"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Model"), h("th", { scope: "col" }, "State"), h("th", { scope: "col" }, ""))),
    h(
      "tbody",
      {},
      ...state.engine.models.map((m) => {
        const bar = h("progress", { max: 1, value: m.installed ? 1 : 0, "aria-label": `${m.name} download` });
        progress.set(m.name, bar);
        const label = m.name === current ? "In use" : m.installed ? "Use" : `Download and use (${size(m.bytes)})`;
        const btn = h("button", { disabled: m.name === current, "data-engine-model": m.name }, label);
        btn.addEventListener("click", async () => {
          btn.disabled = true;
          btn.textContent = m.installed ? "Switching…" : "Downloading…";
          try {
            await useBuiltIn(api, m);
            btn.textContent = "In use";
            done();
          } catch (e) {
            btn.disabled = false;
            btn.textContent = "Retry";
            toast(errorText(e));
          }
        });
        return h(
          "tr",
          { "data-model": m.name },
          h("td", {}, h("strong", {}, m.name), h("br"), h("span", { class: "muted" }, `${m.what} · licence ${m.license}${m.user ? " · added by you" : ""}`)),
          h("td", {}, m.installed ? "downloaded" : `not downloaded (${size(m.bytes)})`, bar),
          h("td", {}, btn),
        );
      }),
    ),
  );
}

/** The engine's state in a sentence. */
export function engineLine(state: HudState): HTMLElement {
  const e = state.engine;
  if (e.provider !== "embedded") return h("p", { class: "muted", role: "status" }, "Answers come from the server below. The built-in engine is off.");
  if (e.problem) return h("p", { class: "warn", role: "status" }, e.problem);
  const model = chosen(state)?.name ?? e.model_file ?? e.local_model;
  const line = `${e.running ? "Running" : "Starts with the next message"}: ${model}, context ${e.context.toLocaleString("en")} tokens, on this computer.`;
  return h("p", { class: "ok", role: "status" }, e.speed ? `${line} ${speedLine(e.speed)}` : line);
}

/** The last answer's speed as the engine measured it. */
export function speedLine(s: EngineSpeed): string {
  const prompt = s.prompt_tokens_per_second > 0 ? `, reading the prompt at ${Math.round(s.prompt_tokens_per_second).toLocaleString("en")} tokens/s` : "";
  return `Last answer: ${s.tokens_per_second.toFixed(1)} tokens/s over ${s.tokens.toLocaleString("en")} tokens${prompt}.`;
}
