//! Commands other programs run on an event, spelled inside an argument:
//! the JVM's `-XX:OnOutOfMemoryError=CMD` and `-XX:OnError=CMD` (in
//! `JAVA_TOOL_OPTIONS`, Spark's `extraJavaOptions`, a java line), and
//! PostgreSQL's `COPY … TO PROGRAM 'CMD'` (in `psql -c`, a dbt hook, a
//! file a line edits). What they run is judged; only what blocks counts,
//! as the text may be a note.

use super::*;

/// The command lines such arguments name.
fn event_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    if !text.bytes().any(|b| matches!(b, b'X' | b'x' | b'P' | b'p')) {
        return out;
    }
    let l = text.to_ascii_lowercase();
    for key in ["-xx:onoutofmemoryerror=", "-xx:onerror="] {
        for (at, _) in l.match_indices(key) {
            let rest = &text[at + key.len()..];
            out.push(quoted_or_word(rest));
        }
    }
    for key in ["to program", "from program"] {
        for (at, _) in l.match_indices(key) {
            let rest = text[at + key.len()..].trim_start();
            if rest.starts_with(['\'', '"']) {
                out.push(quoted_or_word(rest));
            }
        }
    }
    out.retain(|c| !c.trim().is_empty());
    out
}

/// The quoted string at the start of `s` (its quotes and one level of
/// `\"` undone), or its first word.
fn quoted_or_word(s: &str) -> String {
    let s = s.trim_start_matches('\\');
    match s.chars().next() {
        Some(q @ ('\'' | '"')) => {
            let body = &s[1..];
            let end = body.find(q).unwrap_or(body.len());
            body[..end].replace("\\\"", "\"")
        }
        _ => s.split_whitespace().next().unwrap_or("").to_string(),
    }
}

impl Analyzer<'_> {
    pub(super) fn event_hooks(&mut self, c: &Cmd<'_>) {
        let texts = c
            .words
            .iter()
            .map(|w| w.text.as_str())
            .chain(c.src.assigns.iter().map(|(_, v)| v.text.as_str()))
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
