import { describe, expect, it } from "vitest";
import { ApprovalPanel } from "./approvals";
import { ev, fakeApi } from "./testing";

const request = {
  request_id: "r1",
  call_id: "c1",
  session_id: "s",
  tool: "local_write_file",
  subject: "/home/u/notes/plan.md",
  workdir: "/home/u/notes",
  details: "+ new line",
  reason: "writes need approval",
  grant_scope: "always allow local_write_file",
  allow_always: true,
  offer_network: false,
  timeout_sec: 60,
};

describe("approval panel", () => {
  it("shows the exact request and sends the explicit decision", async () => {
    const [api, t] = fakeApi();
    const p = new ApprovalPanel(api, () => undefined);
    p.onEvent(ev("s", { type: "approval_requested", request }));
    expect(p.el.hidden).toBe(false);
    const text = p.el.textContent!;
    for (const s of ["/home/u/notes/plan.md", "+ new line", "writes need approval", "always allow local_write_file"]) expect(text).toContain(s);
    p.el.querySelector<HTMLButtonElement>('[data-decision="always_allow"]')!.click();
    await Promise.resolve();
    expect(t.calls.at(-1)).toEqual({ cmd: "decide_approval", args: { requestId: "r1", decision: { decision: "always_allow" } } });
  });

  it("offers only what the request allows: network for a command, no grant for an extension", async () => {
    const [api, t] = fakeApi();
    const p = new ApprovalPanel(api, () => undefined);
    p.onEvent(ev("s", { type: "approval_requested", request: { ...request, request_id: "r2", tool: "local_exec", subject: "make", offer_network: true } }));
    p.onEvent(ev("s", { type: "approval_requested", request: { ...request, request_id: "r3", tool: "create_mcp", allow_always: false } }));
    const buttons = (id: string) => [...p.el.querySelectorAll(`[data-request="${id}"] button`)].map((b) => (b as HTMLElement).dataset.decision);
    expect(buttons("r2")).toEqual(["deny", "always_allow", "allow_with_network", "allow_once"]);
    expect(buttons("r3")).toEqual(["deny", "allow_once"]);
    expect(p.el.querySelector('[data-request="r3"]')!.textContent).not.toContain("Always allow covers");
    p.el.querySelector<HTMLButtonElement>('[data-request="r2"] [data-decision="allow_with_network"]')!.click();
    await Promise.resolve();
    expect(t.calls.at(-1)).toEqual({ cmd: "decide_approval", args: { requestId: "r2", decision: { decision: "allow_with_network" } } });
  });

  it("leaves when the request is resolved elsewhere (the native dialog won)", () => {
    const [api] = fakeApi();
    const p = new ApprovalPanel(api, () => undefined);
    p.onEvent(ev("s", { type: "approval_requested", request }));
    p.onEvent(ev("s", { type: "approval_resolved", request_id: "r1", decision: { decision: "deny" }, decided_by: "user (dialog)" }));
    expect(p.pending).toBe(0);
    expect(p.el.hidden).toBe(true);
  });
});
