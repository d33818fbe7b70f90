//! What `read` and `mapfile` take: lines of a here-string, a literal
//! here-document or a file this line wrote, split by IFS into fields; the
//! lines of a project listing, each a whole line.

use super::*;

impl Walker<'_> {
    /// `printf '%s\n' a b | while read -r f; do …; done`: the lines are
    /// known, so the body is walked once more per line with `f` set, as a
    /// `for` loop's is.
    pub(super) fn read_loop_over_printed(&mut self, n: Node, nested: bool) -> bool {
        if self.pipe_input_replaced || !self.pipe_source_simple || self.input_tricks() {
            return false;
        }
        let Some(text) = self
            .pipe_source
            .and_then(|src| self.out.commands.get(src))
            .and_then(crate::policy::shell::eval::printed)
        else {
            return false;
        };
        self.read_loop_over(n, &text, nested)
    }

    /// A `while read -r NAME` loop walked once per line of `text`.
    pub(super) fn read_loop_over(&mut self, n: Node, text: &str, nested: bool) -> bool {
        if n.kind() != "while_statement" {
            return false;
        }
        let (Some(cond), Some(body)) = (
            n.child_by_field_name("condition"),
            n.child_by_field_name("body"),
        ) else {
            return false;
        };
        let words: Vec<&str> = self
            .text(cond)
            .trim()
            .trim_end_matches(';')
            .split_whitespace()
            .collect();
        // `[IFS=X] read [-r] NAME…`: the names, and the separators (plain
        // characters only: `$'\t'` and `$sep` are left unknown).
        let (ifs, rest) = match words.split_first() {
            Some((first, rest)) if first.starts_with("IFS=") => {
                let v = first["IFS=".len()..].trim_matches(['\'', '"']);
                if v.contains(['$', '\\', '`']) {
                    return false;
                }
                (v.chars().collect::<Vec<char>>(), rest)
            }
            _ => match self.ifs_known() {
                Some(ifs) => (ifs, words.as_slice()),
                None => return false,
            },
        };
        let (raw, names): (bool, Vec<String>) = match rest {
            ["read", "-r", names @ ..] => (true, names.iter().map(|n| n.to_string()).collect()),
            ["read", names @ ..] => (false, names.iter().map(|n| n.to_string()).collect()),
            _ => return false,
        };
        let ident = |n: &String| {
            !n.is_empty()
                && !n.starts_with(|c: char| c.is_ascii_digit())
                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        // `read` with no name reads into REPLY.
        let names = if names.is_empty() {
            vec!["REPLY".to_string()]
        } else {
            names
        };
        if !names.iter().all(ident) {
            return false;
        }
        // The condition once, as it is (the `read` reads its input).
        self.statement(cond, nested);
        // Every line, blank ones too (the body runs with empty values);
        // past the cap, once more with the values unknown.
        let lines: Vec<&str> = text.lines().collect();
        for line in lines.iter().take(MAX_LOOP_VALUES) {
            let line = if raw {
                line.to_string()
            } else {
                unbackslash(line)
            };
            for (name, field) in names.iter().zip(read_fields(&line, names.len(), &ifs)) {
                self.vars.set(name.clone(), field);
                self.vars.from.remove(name);
            }
            self.statement(body, nested);
        }
        if lines.len() > MAX_LOOP_VALUES || lines.is_empty() {
            for name in &names {
                self.vars.forget(name);
            }
            self.statement(body, nested);
        }
        // The `read` that ends the loop, at the end of the input, empties them.
        for name in &names {
            if self.vars.known.contains_key(name) {
                self.vars.set(name.clone(), String::new());
            }
        }
        true
    }

    /// `producer | while read -r f`: `f` holds lines of what it printed.
    /// A lone name with no input of its own (`< file`, `-u 3`) holds a
    /// whole line; several names split each line into fields.
    pub(super) fn bind_read(
        &mut self,
        argv: &[Word],
        redirects: &[Redirect],
        assigns: &[(String, Word)],
    ) {
        self.read_array_from_string(argv, redirects, assigns);
        self.map_lines(argv, redirects);
        if argv.first().is_some_and(|w| w.text == "read") {
            let reply = Word::lit("REPLY");
            // Options' values (`-d ''`, `-p PROMPT`) are not names.
            let mut names: Vec<&Word> = argv[1..]
                .iter()
                .enumerate()
                .filter(|(k, w)| {
                    !w.text.starts_with('-')
                        && !matches!(
                            argv[*k].text.as_str(),
                            "-d" | "-p" | "-n" | "-N" | "-t" | "-u" | "-i"
                        )
                })
                .map(|(_, w)| w)
                .collect();
            if names.is_empty() {
                names.push(&reply);
            }
            for w in &names {
                self.vars.lines.remove(&w.text);
                self.vars.forget(&w.text);
            }
            // Read into an integer (`declare -i n`): the text is evaluated as
            // arithmetic, its substitutions run (`a[$(cmd)]`).
            if names.iter().any(|w| self.vars.integers.contains(&w.text)) {
                for r in redirects.iter().filter(|r| r.op.starts_with("<<")) {
                    if let Some(body) = r.body.as_ref().or(Some(&r.target)) {
                        let text = body.text.clone();
                        self.text_subs(&text);
                        self.arithmetic(&text);
                    }
                }
            }
            // `read -r a b <<< "x y"`: the here-string's fields are known.
            let plain_flags = argv[1..]
                .iter()
                .all(|w| !w.text.starts_with('-') || w.text == "-r");
            if let [r] = redirects
                && r.op == "<<<"
                && plain_flags
                && let Some(text) = r.body.as_ref().or(Some(&r.target)).filter(|b| !b.dynamic)
            {
                let first = text.text.lines().next().unwrap_or("");
                let raw = argv[1..].iter().any(|w| w.text == "-r");
                let line = if raw {
                    first.to_string()
                } else {
                    unbackslash(first)
                };
                let ifs = match assigns.iter().find(|(n, _)| n == "IFS") {
                    Some((_, v)) if !v.dynamic => Some(v.text.chars().collect()),
                    Some(_) => None,
                    None => self.ifs_known(),
                };
                let Some(ifs) = ifs else {
                    return;
                };
                let fields = read_fields(&line, names.len(), &ifs);
                for (w, field) in names.iter().zip(fields) {
                    self.vars.set(w.text.clone(), field);
                    self.vars.from.remove(&w.text);
                }
                return;
            }
            // `read -r -d '' f`: a whole record up to a NUL (`find -print0`).
            let mut own_input = !redirects.is_empty();
            let mut k = 1;
            while let Some(w) = argv.get(k) {
                if w.text == "-d" && argv.get(k + 1).is_some_and(|d| d.text.is_empty()) {
                    k += 2;
                    continue;
                }
                own_input |= w.text.starts_with('-') && w.text != "-r";
                k += 1;
            }
            if let [one] = names.as_slice()
                && !own_input
                && !self.pipe_input_replaced
                && (self.pipe_source_simple || self.pipe_source == Some(PENDING_SOURCE))
                && !self.input_tricks()
                && self.pipe_source.is_some()
            {
                self.vars.lines.insert(one.text.clone());
            }
        }
        if argv.first().is_some_and(|w| w.text == "read")
            && let Some(src) = self.pipe_source
        {
            let mut k = 1;
            while let Some(w) = argv.get(k) {
                let t = w.text.as_str();
                if matches!(t, "-d" | "-p" | "-n" | "-N" | "-t" | "-u" | "-i") {
                    k += 2;
                    continue;
                }
                if t.starts_with('-') && t != "-a" {
                    k += 1;
                    continue;
                }
                let name = if t == "-a" {
                    k += 1;
                    argv.get(k).map(|w| w.text.clone())
                } else {
                    Some(t.to_string())
                };
                if let Some(name) = name.filter(|n| !n.is_empty()) {
                    self.vars.forget(&name);
                    self.vars.from.insert(name, vec![src]);
                }
                k += 1;
            }
        }
    }

    /// `mapfile -t NAME < <(cmd)`: each element of NAME is one whole line
    /// of what `cmd` printed.
    pub(super) fn map_lines(&mut self, argv: &[Word], redirects: &[Redirect]) {
        if !argv
            .first()
            .is_some_and(|w| w.text == "mapfile" || w.text == "readarray")
        {
            return;
        }
        let mut name = "MAPFILE".to_string();
        let mut trimmed = false;
        let mut plain = true;
        let mut k = 1;
        while let Some(w) = argv.get(k) {
            match w.text.as_str() {
                "-t" => trimmed = true,
                // Into elements past others (`-O`), or by lines skipped
                // or counted: not the listing's lines alone.
                "-n" | "-O" | "-s" | "-c" => {
                    plain = false;
                    k += 1;
                }
                t if t.starts_with('-') => plain = false,
                t => name = t.to_string(),
            }
            k += 1;
        }
        self.vars.forget(&name);
        self.vars.arrays.remove(&name);
        self.vars.lines.remove(&name);
        let source = match redirects {
            [r] if r.op == "<" && r.target.procsub && !r.target.feeds => {
                r.target.subs.last().copied()
            }
            _ => None,
        };
        if let (true, true, Some(src)) = (trimmed, plain, source) {
            self.vars.lines.insert(name.clone());
            self.vars.from.insert(name, vec![src]);
        }
    }

    /// A loop's input given as literal text: a here-document with a quoted
    /// delimiter or nothing to expand, or a here-string of plain text.
    pub(super) fn input_literal_here(&self, n: Node) -> Option<String> {
        let mut c = n.walk();
        let inputs: Vec<Node> = n
            .named_children(&mut c)
            .filter(|r| r.kind().ends_with("redirect"))
            .filter(|r| {
                let t = self.text(*r).trim_start();
                t.starts_with('<') || t.starts_with("0<")
            })
            .collect();
        let [only] = inputs.as_slice() else {
            return None;
        };
        if self.input_tricks() {
            return None;
        }
        let text = self.text(*only);
        match only.kind() {
            "heredoc_redirect" => {
                let first = text.lines().next()?;
                let start = first.trim_start_matches('0').strip_prefix("<<")?;
                let strip_tabs = start.starts_with('-');
                let start = start.trim_start_matches('-').trim();
                let delim = start.trim_matches(['\'', '"', '\\']);
                let quoted = start.contains(['\'', '"', '\\']);
                let body = heredoc::heredoc_text(text, delim);
                if !quoted && body.contains(['$', '`', '\\']) {
                    return None;
                }
                Some(if strip_tabs {
                    body.lines()
                        .map(|l| l.trim_start_matches('\t'))
                        .collect::<Vec<_>>()
                        .join("\n")
                } else {
                    body
                })
            }
            "herestring_redirect" => {
                let word = text.trim_start_matches('0').strip_prefix("<<<")?.trim();
                let inner = word
                    .strip_prefix('\'')
                    .and_then(|w| w.strip_suffix('\''))
                    .unwrap_or(word);
                let plain = inner == word
                    && !word.contains(['$', '`', '\\', '"', '\'', '*', '?', '[', '~', '{']);
                (plain || inner != word && !inner.contains('\'')).then(|| format!("{inner}\n"))
            }
            _ => None,
        }
    }
}

/// A line as `read` without `-r` takes it: each `\\` escapes the next
/// character.
fn unbackslash(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out
}

/// The values `read` gives `names` names from one line: split at `ifs`
/// (blanks in it trimmed and runs of them one separator), the last name
/// taking the rest of the line.
fn read_fields(line: &str, names: usize, ifs: &[char]) -> Vec<String> {
    let blank = |c: char| ifs.contains(&c) && c.is_whitespace();
    // One delimiter: a run of IFS whitespace, or one other IFS character
    // with the whitespace around it.
    let past_delimiter = |s: &str| -> usize {
        let t = s.trim_start_matches(blank);
        let t = match t.chars().next() {
            Some(c) if ifs.contains(&c) && !c.is_whitespace() => &t[c.len_utf8()..],
            _ => t,
        };
        s.len() - t.trim_start_matches(blank).len()
    };
    let mut rest = line.trim_matches(blank);
    let mut out = Vec::new();
    while out.len() + 1 < names {
        match rest.find(|c: char| ifs.contains(&c)) {
            Some(i) => {
                out.push(rest[..i].to_string());
                rest = &rest[i + past_delimiter(&rest[i..])..];
            }
            None => {
                out.push(rest.to_string());
                rest = "";
            }
        }
    }
    // The last name takes the rest of the line, less one delimiter that
    // only ends a single field (`2,` reads as `2`, `2,3,` stays).
    match rest.find(|c: char| ifs.contains(&c)) {
        Some(i) if i + past_delimiter(&rest[i..]) == rest.len() => rest = &rest[..i],
        _ => {}
    }
    out.push(rest.to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::read_fields;

    /// Each case as bash 5 splits it (`IFS=… read a b … <<< LINE`).
    #[test]
    fn read_splits_fields_as_bash_does() {
        let cases: [(&str, &str, usize, &[&str]); 7] = [
            (" ,", "x , y , z", 3, &["x", "y", "z"]),
            (",", "1,2,", 2, &["1", "2"]),
            (" ,", "1 ,  2 , ", 2, &["1", "2"]),
            (" :", "p : :q r", 3, &["p", "", "q r"]),
            (",", "1,2,3,", 2, &["1", "2,3,"]),
            (":", "x::", 1, &["x::"]),
            (" \t\n", "  a   b c  ", 2, &["a", "b c"]),
        ];
        for (ifs, line, names, want) in cases {
            let ifs: Vec<char> = ifs.chars().collect();
            assert_eq!(read_fields(line, names, &ifs), want, "IFS={ifs:?} {line:?}");
        }
    }
}
