// A scripted OpenAI-compatible server on loopback: each chat request takes
// the next scripted reply and streams it as SSE, exactly as real servers do
// (role chunk, content or tool-call deltas, finish_reason, usage, [DONE]).
// Every request body is kept so tests can assert what the model was told.
import http from "node:http";

export class ScriptedLlm {
  constructor() {
    this.queue = [];
    this.requests = [];
    this.auth = [];
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  async start() {
    await new Promise((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${this.server.address().port}/v1`;
    return this;
  }

  stop() {
    this.server.closeAllConnections?.();
    return new Promise((r) => this.server.close(r));
  }

  /** Replies for the next requests: {text, chunkMs?} or {tool, args}. */
  script(...replies) {
    this.queue.push(...replies);
  }

  /** The tool results the model received, in order. */
  toolResults() {
    const last = this.requests.at(-1);
    return (last?.messages ?? []).filter((m) => m.role === "tool").map((m) => m.content);
  }

  async handle(req, res) {
    if (req.method === "GET" && req.url.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "e2e-model", object: "model" }, { id: "e2e-large", object: "model" }] }));
      return;
    }
    if (req.method !== "POST" || !req.url.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    let body = "";
    for await (const c of req) body += c;
    const parsed = JSON.parse(body);
    this.requests.push(parsed);
    this.auth.push(req.headers.authorization ?? null);
    const reply = this.queue.shift() ?? { text: "(the script has no more replies)" };
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const id = `chatcmpl-${this.requests.length}`;
    const send = (delta, finish = null, extra = {}) =>
      res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", model: parsed.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
    send({ role: "assistant", content: "" });
    if (reply.stream) {
      // A firehose for the benchmark: each delta carries its send time.
      const { perSecond, seconds } = reply.stream;
      const total = perSecond * seconds;
      const start = Date.now();
      for (let i = 0; i < total; i++) {
        const due = start + (i * 1000) / perSecond;
        const wait = due - Date.now();
        if (wait >= 1) await new Promise((r) => setTimeout(r, wait));
        send({ content: `«${Date.now()}» ` });
      }
      send({ content: "«end»" });
      send({}, "stop");
    } else if (reply.tool) {
      const args = JSON.stringify(reply.args ?? {});
      const callId = `call_${this.requests.length}`;
      send({ tool_calls: [{ index: 0, id: callId, type: "function", function: { name: reply.tool, arguments: "" } }] });
      for (let i = 0; i < args.length; i += 12) send({ tool_calls: [{ index: 0, function: { arguments: args.slice(i, i + 12) } }] });
      send({}, "tool_calls");
    } else {
      const words = reply.text.split(/(?<= )/);
      for (const w of words) {
        send({ content: w });
        if (reply.chunkMs) await new Promise((r) => setTimeout(r, reply.chunkMs));
      }
      send({}, "stop");
    }
    res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`);
    res.end("data: [DONE]\n\n");
  }
}
