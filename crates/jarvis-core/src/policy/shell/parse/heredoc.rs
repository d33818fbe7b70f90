//! Redirects and here-documents, and what the grammar keeps inside a
//! here-document's node: the rest of its line.

use tree_sitter::Node;

use super::*;

impl Walker<'_> {
    pub(super) fn redirects(&mut self, n: Node) -> Vec<Redirect> {
        let mut out = Vec::new();
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.children_by_field_name("redirect", &mut cursor).collect();
        for r in kids {
            out.push(self.redirect(r));
        }
        out
    }

    pub(super) fn redirect(&mut self, r: Node) -> Redirect {
        let mut op = String::new();
        let mut target = Word::default();
        let mut body = None;
        let mut fd = None;
        let mut cursor = r.walk();
        let kids: Vec<Node> = r.children(&mut cursor).collect();
        for k in kids {
            match k.kind() {
                "file_descriptor" => fd = Some(self.text(k).to_string()),
                "heredoc_start" => {
                    let start = self.text(k);
                    op = "<<".into();
                    let delim = start.trim_matches(['\'', '"', '\\']);
                    target = Word::lit(delim);
                    // A quoted delimiter keeps the body literal.
                    let quoted = start.contains(['\'', '"', '\\']);
                    // The body as written: the grammar misparses some (one
                    // starting with `\`), so it is cut from the source.
                    let raw = heredoc_text(self.text(r), delim);
                    let parsed = r
                        .named_children(&mut r.walk())
                        .find(|c| c.kind() == "heredoc_body")
                        .filter(|b| !self.text(*b).is_empty());
                    let w = match parsed {
                        Some(b) if !quoted => {
                            let mut w = self.word(b, true);
                            if w.text.is_empty() {
                                w.text = self.text(b).to_string();
                            }
                            w
                        }
                        _ if !quoted && (raw.contains("$(") || raw.contains('`')) => {
                            // Substitutions in an unquoted body run.
                            let mut w = Word::lit(raw.clone());
                            w.dynamic = true;
                            for sub in eval::substitutions(&raw) {
                                let inner = parse(&sub, &self.positional);
                                let base = self.out.commands.len();
                                for mut c in inner.commands {
                                    c.nested = true;
                                    c.stdin_from = c.stdin_from.map(|i| i + base);
                                    self.out.commands.push(c);
                                }
                                w.subs.extend(base..self.out.commands.len());
                            }
                            w
                        }
                        _ => Word::lit(raw),
                    };
                    body = Some(w);
                }
                "heredoc_body" | "heredoc_end" => {}
                // The rest of the line after `<<EOF`: see `heredoc_tail`.
                _ if r.kind() == "heredoc_redirect" && !op.is_empty() => {}
                _ if !k.is_named() => op.push_str(self.text(k)),
                _ => {
                    let w = self.word(k, true);
                    if r.kind() == "herestring_redirect" {
                        body = Some(w.clone());
                    }
                    if target.text.is_empty() && !target.dynamic {
                        target = w;
                    }
                }
            }
        }
        if r.kind() == "herestring_redirect" {
            op = "<<<".into();
        }
        // A redirect target is split like any word and must be one word:
        // `> ${IFS}/etc/x` writes `/etc/x`.
        target.text = target.text.trim().to_string();
        Redirect {
            op: op.trim().to_string(),
            target,
            body,
            fd,
        }
    }

    /// What follows `<<EOF` on its line, which the grammar keeps inside
    /// the heredoc: more redirects of the same command (`>> ~/.bashrc`),
    /// the rest of a pipeline (`| sh`) and of a list (`&& rm -rf ~`).
    pub(super) fn heredoc_tail(&mut self, h: Node, owner: usize, nested: bool) {
        let mut cursor = h.walk();
        let kids: Vec<Node> = h.children(&mut cursor).collect();
        let Some(start) = kids.iter().position(|k| k.kind() == "heredoc_start") else {
            return;
        };
        for k in &kids[start + 1..] {
            match k.kind() {
                "file_redirect" | "herestring_redirect" => {
                    let r = self.redirect(*k);
                    self.out.commands[owner].redirects.push(r);
                }
                "heredoc_redirect" => {
                    let r = self.redirect(*k);
                    self.out.commands[owner].redirects.push(r);
                    self.heredoc_tail(*k, owner, nested);
                }
                "pipeline" => {
                    // `| a | b`: the stages read from the heredoc's command.
                    let mut prev = owner;
                    let mut cursor = k.walk();
                    let stages: Vec<Node> = k.named_children(&mut cursor).collect();
                    let mut simple = false;
                    for (j, stage) in stages.into_iter().enumerate() {
                        let before = self.out.commands.len();
                        // A later stage reads the one before it (`… && printf
                        // … | while read f`).
                        self.stage(stage, nested, (j > 0).then_some(prev), simple);
                        simple = stage.kind() == "command";
                        if self.out.commands.len() > before {
                            self.out.commands[before].stdin_from = Some(prev);
                            self.out.commands[prev].pipes_out = true;
                            prev = self.out.commands.len() - 1;
                        }
                    }
                }
                "heredoc_body" | "heredoc_end" | "file_descriptor" | "comment" => {}
                _ if k.is_named() => self.statement(*k, nested),
                _ => {}
            }
        }
    }
}

/// A heredoc's body from its redirect's text: the lines after the first,
/// without the closing delimiter.
pub(super) fn heredoc_text(redirect: &str, delim: &str) -> String {
    let Some((_, rest)) = redirect.split_once('\n') else {
        return String::new();
    };
    let mut lines: Vec<&str> = rest.lines().collect();
    if lines.last().is_some_and(|l| l.trim() == delim) {
        lines.pop();
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// `src` with every here-document read from `/dev/null` instead and its
/// body lines gone: the command lines alone, for a second look when the
/// grammar rejects a line that goes on after `<<EOF` (`cat <<EOF; rm -rf ~`).
/// `None` when there is no here-document.
pub fn without_heredocs(src: &str) -> Option<String> {
    let mut out = Vec::new();
    let mut pending: std::collections::VecDeque<(String, bool)> = Default::default();
    let mut changed = false;
    for line in src.lines() {
        if let Some((delim, tabs)) = pending.front() {
            let end = if *tabs {
                line.trim_start_matches('\t')
            } else {
                line
            };
            if end == delim {
                pending.pop_front();
            }
            continue;
        }
        let mut kept = String::new();
        let mut rest = line;
        while let Some(at) = rest.find("<<") {
            // `python3 -c "x=1<<40"`: a shift inside quotes, not a here-document.
            if quoted_at(&kept, &rest[..at]) {
                kept.push_str(&rest[..at + 2]);
                rest = &rest[at + 2..];
                continue;
            }
            let after = &rest[at + 2..];
            if let Some(past) = after.strip_prefix('<') {
                // A here-string: `<<<` stays.
                kept.push_str(&rest[..at + 3]);
                rest = past;
                continue;
            }
            let (tabs, after) = match after.strip_prefix('-') {
                Some(a) => (true, a),
                None => (false, after),
            };
            let after = after.trim_start();
            let word_end = after
                .find(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '<' | '>' | ')'))
                .unwrap_or(after.len());
            let delim = after[..word_end].replace(['\'', '"', '\\'], "");
            if delim.is_empty() {
                kept.push_str(&rest[..at + 2]);
                rest = &rest[at + 2..];
                continue;
            }
            kept.push_str(&rest[..at]);
            kept.push_str("</dev/null ");
            pending.push_back((delim, tabs));
            changed = true;
            rest = &after[word_end..];
        }
        kept.push_str(rest);
        out.push(kept);
    }
    changed.then(|| out.join("\n"))
}

/// Whether the text `done` then `upto` leaves a quote open.
fn quoted_at(done: &str, upto: &str) -> bool {
    let (mut single, mut double, mut escaped) = (false, false, false);
    // `$'…'` takes backslash escapes, `\'` among them.
    let mut ansi = false;
    let mut prev = ' ';
    for c in done.chars().chain(upto.chars()) {
        if escaped {
            escaped = false;
            prev = ' ';
            continue;
        }
        match c {
            '\\' if !single || ansi => escaped = true,
            '\'' if !double => {
                ansi = !single && prev == '$';
                single = !single;
            }
            '"' if !single => double = !double,
            _ => {}
        }
        prev = c;
    }
    single || double
}
