//! Array subscripts bash evaluates inside builtins' arguments: a `$(…)`
//! there runs even from a quoted word (`unset 'a[$(cmd)]'`).

use super::*;

/// The command substitutions inside `text` (`$(…)`, `` `…` ``), outermost.
pub(super) fn substitutions(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' && b.get(i + 1) == Some(&b'(') {
            let mut depth = 0usize;
            let start = i + 2;
            let mut j = i + 1;
            while j < b.len() {
                match b[j] {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            out.push(text.get(start..j.min(b.len())).unwrap_or("").to_string());
            i = j + 1;
        } else if b[i] == b'`' {
            let end = text[i + 1..].find('`').map_or(b.len(), |k| i + 1 + k);
            out.push(text.get(i + 1..end).unwrap_or("").to_string());
            i = end + 1;
        } else {
            i += 1;
        }
    }
    out
}

impl Analyzer<'_> {
    /// Bash evaluates array subscripts given to these builtins, running any
    /// `$(…)` inside them even from a quoted word (`unset 'a[$(cmd)]'`,
    /// `printf -v 'x[$(cmd)]'`, `test -v …`): that code is judged, and asks.
    pub(super) fn subscript_code(&mut self, c: &Cmd<'_>) {
        if !matches!(
            c.lb.as_str(),
            "unset"
                | "declare"
                | "typeset"
                | "local"
                | "readonly"
                | "export"
                | "let"
                | "read"
                | "printf"
                | "test"
                | "["
                | "[["
                | "mapfile"
                | "readarray"
                | "wait"
                | "shift"
        ) {
            return;
        }
        for w in c.words.iter().skip(1) {
            let t = &w.text;
            if !(t.contains('[') && (t.contains("$(") || t.contains('`'))) {
                continue;
            }
            for code in substitutions(t) {
                self.script(&code, &[], c.depth + 1);
            }
            self.ask(format!(
                "{} evaluates an array subscript that runs a command",
                c.base
            ));
        }
    }
}
