//! Commands other programs run on an event, spelled inside an argument:
//! the JVM's `-XX:OnOutOfMemoryError=CMD` and `-XX:OnError=CMD` (in
//! `JAVA_TOOL_OPTIONS`, Spark's `extraJavaOptions`, a java line), and
//! PostgreSQL's `COPY … TO PROGRAM 'CMD'` (in `psql -c`, a dbt hook, a
//! file a line edits). What they run is judged; only what blocks counts,
//! as the text may be a note.

use super::*;

/// The command lines such arguments name, at most a few per text: a quoted
/// one whole, an unquoted one to the end of its line or the next hook, so
/// none holds another unquoted (a chain of thousands would otherwise be
/// judged inside itself).
fn event_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    if !text.bytes().any(|b| matches!(b, b'X' | b'x' | b'P' | b'p')) {
        return out;
    }
    let l = text.to_ascii_lowercase();
    const KEYS: &[&str] = &[
        "-xx:onoutofmemoryerror=",
        "-xx:onerror=",
        "to program",
        "from program",
    ];
    let mut starts: Vec<(usize, usize)> = KEYS
        .iter()
        .flat_map(|k| l.match_indices(k).map(|(at, m)| (at, at + m.len())))
        .collect();
    starts.sort_unstable();
    for (n, &(_, from)) in starts.iter().enumerate().take(8) {
        let rest = text.get(from..).unwrap_or("").trim_start();
        // SQL's program is a quoted string, taken whole (a key named inside
        // it is part of it); the JVM's is a quoted string, or the rest of
        // its line up to the next hook (the shell took its quotes off).
        let sql = l[..from].ends_with("program");
        if rest.starts_with(['\'', '"', '\\']) {
            out.push(quoted_or_rest(rest));
        } else if !sql {
            let until = starts
                .get(n + 1)
                .map_or(text.len(), |&(next, _)| next.max(from));
            let line = text.get(from..until).unwrap_or("").trim_start();
            out.push(line.lines().next().unwrap_or("").to_string());
        }
    }
    out.retain(|c| !c.trim().is_empty());
    out
}

/// The quoted string at the start of `s` (its quotes and one level of
/// `\"` undone), or all of it.
fn quoted_or_rest(s: &str) -> String {
    let s = s.trim_start_matches('\\');
    match s.chars().next() {
        Some(q @ ('\'' | '"')) => {
            let body = &s[1..];
            let end = body.find(q).unwrap_or(body.len());
            body[..end].replace("\\\"", "\"")
        }
        _ => s.to_string(),
    }
}

impl Analyzer<'_> {
    pub(super) fn event_hooks(&mut self, c: &Cmd<'_>) {
        // A note, a search or a commit message that mentions a hook runs
        // nothing.
        // (echo and cat feed psql: they are not skipped.)
        if tables::TEXT_SEARCHERS.contains(&c.lb.as_str())
            || matches!(c.lb.as_str(), "git" | "gh" | "glab")
        {
            return;
        }
        let texts = c
            .words
            .iter()
            .map(|w| w.text.as_str())
            .chain(c.assigns.iter().map(|(_, v)| v.text.as_str()))
            .chain(
                c.src
                    .redirects
                    .iter()
                    .filter_map(|r| r.body.as_ref())
                    .map(|b| b.text.as_str()),
            );
        let cmds: Vec<String> = texts.flat_map(event_commands).collect();
        let depth = c.depth + 1;
        for cmd in cmds {
            let guessed = std::mem::replace(&mut self.guessed, true);
            self.block_only(|a| a.script(&cmd, &[], depth));
            self.guessed = guessed;
        }
    }
}
