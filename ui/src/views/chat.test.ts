import { describe, expect, it } from "vitest";
import { ev, fakeApi, tick } from "../testing";
import { ChatView } from "./chat";

function chat() {
  const [api, t] = fakeApi();
  const toasts: string[] = [];
  const view = new ChatView(api, (m) => toasts.push(m));
  document.body.appendChild(view.el);
  return { view, t, toasts, s: view.session };
}

describe("chat view", () => {
  it("streams deltas into one paragraph and puts text after a tool chip below it", () => {
    const { view, s } = chat();
    view.onEvent(ev(s, { type: "turn_started", turn_id: "t" }));
    view.onEvent(ev(s, { type: "content_delta", text: "Let me " }));
    view.onEvent(ev(s, { type: "content_delta", text: "look." }));
    view.onEvent(ev(s, { type: "tool_call_started", call_id: "c1", name: "local_read_file" }));
    view.onEvent(ev(s, { type: "tool_call_arguments_delta", call_id: "c1", delta: '{"path":' }));
    view.onEvent(ev(s, { type: "tool_call_arguments_delta", call_id: "c1", delta: '"notes.md"}' }));
    const chip = view.el.querySelector<HTMLElement>(".chip")!;
    expect(chip.dataset.status).toBe("running");
    view.onEvent(ev(s, { type: "tool_call_finished", call_id: "c1", name: "local_read_file", status: "ok", duration_ms: 3, summary: "read 2 lines" }));
    view.onEvent(ev(s, { type: "content_delta", text: "It says launch." }));
    const turn = view.el.querySelector(".msg.assistant")!;
    const parts = [...turn.children].map((c) => c.className);
    expect(parts).toEqual(["who", "text", "chip", "text"]);
    expect(turn.querySelectorAll(".text")[0].textContent).toBe("Let me look.");
    expect(chip.dataset.status).toBe("ok");
    expect(chip.querySelector(".chip-summary")!.textContent).toBe("read 2 lines");
    expect(chip.querySelector(".chip-args")!.textContent).toContain('"path": "notes.md"');
  });

  it("shows refused and waiting states, keeps reasoning collapsed, and ends the turn", () => {
    const { view, s } = chat();
    view.onEvent(ev(s, { type: "turn_started", turn_id: "t" }));
    view.onEvent(ev(s, { type: "reasoning_delta", text: "thinking…" }));
    expect(view.el.querySelector<HTMLDetailsElement>("details.reasoning")!.open).toBe(false);
    view.onEvent(ev(s, { type: "tool_call_started", call_id: "c", name: "local_exec" }));
    view.onEvent(ev(s, { type: "approval_requested", request: { request_id: "r", call_id: "c", session_id: s, tool: "local_exec", subject: "rm x", workdir: "/w", reason: "r", grant_scope: "g", timeout_sec: 60 } }));
    expect(view.el.querySelector<HTMLElement>(".chip")!.dataset.status).toBe("waiting");
    view.onEvent(ev(s, { type: "tool_call_finished", call_id: "c", name: "local_exec", status: "refused", duration_ms: 0, summary: "denied by the user" }));
    expect(view.el.querySelector<HTMLElement>(".chip")!.dataset.status).toBe("refused");
    expect(view.running).toBe(true);
    view.onEvent(ev(s, { type: "turn_finished", turn_id: "t", stop: "max_rounds", usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, rounds: 10 }));
    expect(view.running).toBe(false);
    expect(view.el.querySelector(".stop")!.textContent).toBe("stopped: max rounds");
  });

  it("puts an announcement about a task started here on its own line", () => {
    const { view, s } = chat();
    view.onEvent(ev(s, { type: "announcement", id: "a", text: "Your report on Rust is ready: three runtimes.", task_id: "t1", priority: "normal", loud: true }));
    const line = view.el.querySelector<HTMLElement>(".log > .announcement")!;
    expect(line.textContent).toBe("Your report on Rust is ready: three runtimes.");
    expect(line.getAttribute("role")).toBe("status");
    view.onEvent(ev("other", { type: "announcement", id: "b", text: "not here", task_id: null, priority: "normal", loud: true }));
    expect(view.el.querySelectorAll(".announcement").length).toBe(1);
  });

  it("ignores other sessions' events", () => {
    const { view } = chat();
    view.onEvent(ev("someone-else", { type: "content_delta", text: "not mine" }));
    expect(view.el.querySelector(".log")!.textContent).toBe("");
  });

  it("sends the typed message to its session and shows a send error in place", async () => {
    const { view, t, s } = chat();
    const input = view.el.querySelector("textarea")!;
    input.value = "hello";
    await view.submit();
    expect(t.calls.at(-1)).toEqual({ cmd: "send_message", args: { sessionId: s, text: "hello" } });
    expect(view.el.querySelector(".msg.user")!.textContent).toContain("hello");
    t.answers.send_message = new Error("session is already running a turn");
    view.onEvent(ev(s, { type: "turn_finished", turn_id: "t", stop: "completed", usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, rounds: 1 }));
    input.value = "again";
    await view.submit();
    expect(view.el.querySelector('[role="alert"]')!.textContent).toBe("session is already running a turn");
    expect(view.running).toBe(false);
  });

  it("filters the conversation list and rebuilds a stored conversation with its chips", async () => {
    const { view, t } = chat();
    t.answers.sessions = [
      { id: "a", title: "launch notes", created_at: 1, updated_at: 2, messages: 3 },
      { id: "b", title: "screenshots", created_at: 1, updated_at: 2, messages: 3 },
    ];
    await view.refreshList();
    view.search.value = "launch";
    view.search.dispatchEvent(new Event("input"));
    expect([...view.el.querySelectorAll(".session-title")].map((e) => e.textContent)).toEqual(["launch notes"]);
    t.answers.session_history = [
      { role: "user", content: "read it", turn_id: "t" },
      { role: "assistant", content: null, tool_calls: [{ id: "c", name: "local_exec", arguments: '{"command":"rm -rf ~"}' }], turn_id: "t" },
      { role: "tool", content: "refused: blacklisted", tool_call_id: "c", turn_id: "t" },
      { role: "assistant", content: "I will not do that.", turn_id: "t" },
    ];
    await view.open("a");
    expect(view.el.querySelector<HTMLElement>(".chip")!.dataset.status).toBe("refused");
    expect(view.el.querySelector(".log")!.textContent).toContain("I will not do that.");
  });

  it("offers Undo under a turn that changed files, and says what the undo did", async () => {
    const { view, t, s } = chat();
    const change = (path: string, kind: string) => ({ turn_id: "t1", session_id: s, tool: "local_write_file", path, kind, at: 1, undone: false });
    t.answers.session_changes = [change("/w/notes.txt", "modified"), change("/w/src/new.rs", "created"), change("/w/notes.txt", "modified")];
    t.answers.undo_turn = { restored: ["/w/notes.txt"], removed: ["/w/src/new.rs"], kept_both: [], problems: [] };
    view.onEvent(ev(s, { type: "turn_started", turn_id: "t1" }));
    view.onEvent(ev(s, { type: "content_delta", text: "Done." }));
    view.onEvent(ev(s, { type: "turn_finished", turn_id: "t1", stop: "completed", usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, rounds: 2 }));
    await tick();
    const bar = view.el.querySelector<HTMLElement>(".msg.assistant .undo-bar")!;
    expect(bar.textContent).toContain("Changed 2 files: notes.txt, new.rs");
    bar.querySelector<HTMLButtonElement>('button[data-turn="t1"]')!.click();
    await tick();
    expect(t.calls.at(-1)).toEqual({ cmd: "undo_turn", args: { turnId: "t1" } });
    expect(view.el.querySelector(".undo-bar")!.textContent).toBe("Undone: restored notes.txt; removed new.rs");
  });
});
