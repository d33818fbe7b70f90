import { describe, expect, it } from "vitest";
import { App, acceptAction } from "./app";
import { ev, fakeApi, hudState } from "./testing";

const state = hudState({ workdir: "/w", voice: { state: "idle", paused: false, microphones: [], models: [], problem: "no microphone: connect one, or type instead" } });

async function app() {
  const [api, t] = fakeApi();
  Object.assign(t.answers, { hud_state: state, skills: [], audit: [], grants: [], runs: [], config: {} });
  const a = new App(api);
  document.body.innerHTML = "";
  document.body.appendChild(a.root);
  await a.start();
  return { a, t };
}

describe("the action channel", () => {
  it("accepts only whitelisted views, panels and focus targets", () => {
    expect(acceptAction({ kind: "navigate", view: "audit", params: null })).toBeNull();
    expect(acceptAction({ kind: "navigate", view: "https://evil", params: null })).toMatch(/unknown view/);
    expect(acceptAction({ kind: "open_panel", panel: "approvals" })).toBeNull();
    expect(acceptAction({ kind: "focus", target: "devtools" })).toMatch(/unknown focus/);
  });

  it("switches the view on a navigate action and refuses others without moving", async () => {
    const { a, t } = await app();
    t.emit(ev("s", { type: "action", action: { kind: "navigate", view: "grants", params: null } }));
    await Promise.resolve();
    expect(a.root.dataset.view).toBe("grants");
    expect(a.root.querySelector('nav button[aria-current="page"]')!.textContent).toBe("Grants");
    t.emit(ev("s", { type: "action", action: { kind: "navigate", view: "nowhere", params: null } }));
    expect(a.root.dataset.view).toBe("grants");
    expect(a.root.querySelector(".toast")!.textContent).toMatch(/unknown view nowhere/);
  });

  it("shows the voice problem in the status bar and follows voice events", async () => {
    const { a, t } = await app();
    expect(a.root.querySelector(".statusbar .hint")!.textContent).toMatch(/no microphone/);
    t.emit(ev(null, { type: "voice_state", state: "listening" }));
    t.emit(ev(null, { type: "voice_level", level: 0.09 }));
    expect(a.root.querySelector<HTMLElement>(".voice-state")!.dataset.state).toBe("listening");
    expect(Number(a.root.querySelector(".meter")!.getAttribute("aria-valuenow"))).toBeGreaterThan(40);
    t.emit(ev(null, { type: "voice_state", state: "idle" }));
    expect(a.root.querySelector(".meter")!.getAttribute("aria-valuenow")).toBe("0");
  });

  it("navigates with Alt+number", async () => {
    const { a } = await app();
    expect(a.root.dataset.view).toBe("cockpit");
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "9", altKey: true }));
    await Promise.resolve();
    expect(a.root.dataset.view).toBe("audit");
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "0", altKey: true }));
    await Promise.resolve();
    expect(a.root.dataset.view).toBe("grants");
    document.dispatchEvent(new KeyboardEvent("keydown", { key: ",", ctrlKey: true }));
    await Promise.resolve();
    expect(a.root.dataset.view).toBe("settings");
  });
});
