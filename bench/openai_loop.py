#!/usr/bin/env python3
"""The same tool-round conversation as Jarvis's loop bench, driven by the
official `openai` Python SDK: stream, assemble tool calls, run the tool
(list the directory), append the result, repeat until a plain answer.

usage: openai_loop.py BASE_URL WORKDIR TURNS
prints: total seconds, number of chat requests
"""
import json, os, sys, time
from openai import OpenAI

base, workdir, turns = sys.argv[1], sys.argv[2], int(sys.argv[3])
client = OpenAI(base_url=base, api_key="bench", max_retries=0)
tools = [{"type": "function", "function": {"name": "local_list_dir", "description": "List a directory",
          "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}]
requests = 0
t0 = time.perf_counter()
for _ in range(turns):
    messages = [{"role": "system", "content": "You are a bench."}, {"role": "user", "content": "list"}]
    while True:
        stream = client.chat.completions.create(model="test-model", messages=messages, tools=tools,
                                                stream=True, stream_options={"include_usage": True})
        requests += 1
        content, calls = "", {}
        for chunk in stream:
            if not chunk.choices:
                continue
            d = chunk.choices[0].delta
            content += d.content or ""
            for tc in d.tool_calls or []:
                slot = calls.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
                slot["id"] = slot["id"] or (tc.id or "")
                if tc.function:
                    slot["name"] = slot["name"] or (tc.function.name or "")
                    slot["arguments"] += tc.function.arguments or ""
        if not calls:
            break
        messages.append({"role": "assistant", "content": content or None, "tool_calls": [
            {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for c in calls.values()]})
        for c in calls.values():
            path = os.path.join(workdir, json.loads(c["arguments"] or "{}").get("path", "."))
            messages.append({"role": "tool", "tool_call_id": c["id"], "content": "\n".join(sorted(os.listdir(path)))})
print(f"{time.perf_counter() - t0:.6f} {requests}")
