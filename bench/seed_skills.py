#!/usr/bin/env python3
"""The seed's skill loader (regex frontmatter, glob of SKILL.md, sorted,
prompt with a 15,000-character cap), timed on the same generated tree as
Jarvis's bench. usage: seed_skills.py ROOT RUNS -> prints the best seconds."""
import re, sys, time
from pathlib import Path

FM = re.compile(r"^---\s*\n(.*?)\n---", re.S)

def discover(root):
    out = []
    for p in sorted(Path(root).glob("**/SKILL.md")):
        text = p.read_text(encoding="utf-8", errors="replace")
        m = FM.match(text)
        if not m:
            continue
        meta = {}
        for line in m.group(1).splitlines():
            if ":" in line and not line.startswith(" "):
                k, v = line.split(":", 1)
                meta[k.strip()] = v.strip().strip('"').strip("'")
        if meta.get("name") and meta.get("description"):
            out.append((meta["name"], meta["description"], str(p)))
    return out

def prompt(skills, max_chars=15000):
    body = "".join(f'<skill name="{n}" path="{p}">{d}</skill>\n' for n, d, p in skills)
    return ("<available_skills>\n" + body + "</available_skills>")[:max_chars]

root, runs = sys.argv[1], int(sys.argv[2])
best = float("inf")
for _ in range(runs):
    t0 = time.perf_counter()
    prompt(discover(root))
    best = min(best, time.perf_counter() - t0)
print(f"{best:.6f}")
