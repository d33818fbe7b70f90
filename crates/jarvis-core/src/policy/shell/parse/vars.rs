//! Values the parser keeps beyond plain variables: arrays of literal
//! elements, and the lines a `read` takes from the pipe before it.

use super::*;

/// Between the key and the value of an associative array's element.
pub(super) const KEYED: char = '\u{1F}';

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
        if names.is_empty() || !names.iter().all(ident) {
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
        true
    }

    /// `set -- a b c`: the positional parameters from here on, when every
    /// one is known; unknown otherwise.
    pub(super) fn set_positional(&mut self, argv: &[Word], n: Node) {
        // Inside a loop, a branch, a function or a background job, how
        // often (or whether) it runs here is not known: the parameters
        // become unknown.
        let conditional = conditional(n);
        if argv.first().is_some_and(|w| w.text == "shift") {
            let by = match argv.get(1) {
                None => Some(1),
                Some(w) if !w.dynamic => w.text.parse::<usize>().ok(),
                Some(_) => None,
            };
            match by {
                Some(k) if !conditional && self.positional.len() > 1 => {
                    let zero = self.positional[0].clone();
                    let rest: Vec<String> = self.positional.iter().skip(1 + k).cloned().collect();
                    self.positional = std::iter::once(zero).chain(rest).collect();
                }
                _ => self.positional.clear(),
            }
            return;
        }
        if argv.first().is_none_or(|w| w.text != "set") {
            return;
        }
        // `set ~`, `set -e -- x`: any other form that names operands.
        let [_, dashes, rest @ ..] = argv else {
            return;
        };
        let options_only = argv[1..]
            .iter()
            .all(|w| (w.text.starts_with('-') || w.text.starts_with('+')) && w.text != "--")
            && !argv.iter().any(|w| w.text == "-o" || w.text == "+o");
        if options_only {
            return;
        }
        if conditional || dashes.text != "--" {
            self.positional.clear();
            return;
        }
        let zero = self.positional.first().cloned().unwrap_or_default();
        // A wildcard is as many words as it matches.
        self.positional = if rest.iter().all(|w| !w.dynamic && !w.glob) {
            std::iter::once(zero)
                .chain(rest.iter().map(|w| w.text.clone()))
                .collect()
        } else {
            Vec::new()
        };
    }

    /// `printf -v NAME FORMAT ARGS…`: an assignment, resolved when the
    /// format and arguments are known.
    pub(super) fn printf_to_variable(&mut self, argv: &[Word]) {
        if argv.first().is_none_or(|w| w.text != "printf") {
            return;
        }
        // `printf -v NAME …`, `printf -vNAME …`, then an optional `--`.
        let (name, mut rest) = match argv.get(1).map(|w| w.text.as_str()) {
            Some("-v") => match argv.get(2) {
                Some(n) if !n.dynamic => (n.text.clone(), &argv[3..]),
                _ => return,
            },
            Some(t) if t.starts_with("-v") && t.len() > 2 => (t[2..].to_string(), &argv[2..]),
            _ => return,
        };
        if rest.first().is_some_and(|w| w.text == "--") {
            rest = &rest[1..];
        }
        // Widths and precisions (`%.7s`) cut and pad what this evaluator
        // does not: such a value is unknown.
        let shaped = rest.first().is_some_and(|f| {
            f.text.split('%').skip(1).any(|spec| {
                spec.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '.' | '-' | '*'))
            })
        });
        self.vars.lines.remove(&name);
        let known = rest.iter().all(|w| !w.dynamic) && !shaped;
        match rest.split_first() {
            Some((format, args)) if known => {
                let args: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
                let value = crate::policy::shell::eval::printf(&format.text, &args);
                self.vars.set(name.clone(), value);
                self.vars.from.remove(&name);
            }
            _ => {
                self.vars.forget(&name);
                let subs = rest.iter().flat_map(|w| w.subs.clone()).collect();
                self.vars.from.insert(name, subs);
            }
        }
    }

    /// `${name[N]}` or `${name[key]}` of a known array: that element, when
    /// no blank in it could split it into other words.
    pub(super) fn array_element(&self, t: &str) -> Option<String> {
        let inner = t.strip_prefix("${")?.strip_suffix('}')?;
        let (name, index) = inner.strip_suffix(']')?.split_once('[')?;
        if matches!(index, "@" | "*") || name.starts_with(['#', '!']) {
            return None;
        }
        let v = self.array_elements(&format!("\"${{{name}[{index}]}}\""))?;
        let e = v.into_iter().next()?;
        (!e.contains(char::is_whitespace)).then_some(e)
    }

    /// `${name[EXPR]}` of a known indexed array where EXPR is not known:
    /// the elements it may be (each free of blanks, which would split it).
    pub(super) fn array_choices(&self, t: &str) -> Option<Vec<String>> {
        let inner = t.strip_prefix("${")?.strip_suffix('}')?;
        let (name, index) = inner.strip_suffix(']')?.split_once('[')?;
        if matches!(index, "@" | "*") || name.starts_with(['#', '!']) {
            return None;
        }
        let elements = self.vars.arrays.get(name)?;
        let plain = elements
            .iter()
            .all(|e| !e.contains(KEYED) && !e.contains(char::is_whitespace));
        // An index past the end, or unset, reads as empty.
        (plain && !elements.is_empty() && elements.len() < MAX_CHOICES).then(|| {
            let mut e = elements.clone();
            e.push(String::new());
            e
        })
    }

    /// `"${name[@]}"` of an array whose elements are known: each a word;
    /// `"${name[N]}"`: one of them. Quoted only: unquoted, bash splits
    /// the elements again.
    pub(super) fn array_elements(&self, spelled: &str) -> Option<Vec<String>> {
        let inner = spelled
            .strip_prefix('"')?
            .strip_suffix('"')?
            .strip_prefix("${")?
            .strip_suffix('}')?;
        let (name, index) = inner.strip_suffix(']')?.split_once('[')?;
        let elements = self.vars.arrays.get(name)?;
        if index == "@" {
            return Some(
                elements
                    .iter()
                    .map(|e| e.split_once(KEYED).map(|(_, v)| v).unwrap_or(e).to_string())
                    .collect(),
            );
        }
        // `declare -A m=([out]=x)`: `${m[out]}`.
        let key = index.trim_matches(['"', '\'']);
        let keyed = elements.iter().any(|e| e.contains(KEYED));
        if let Some(v) = elements.iter().rev().find_map(|e| {
            e.split_once(KEYED)
                .filter(|(k, _)| *k == key)
                .map(|(_, v)| v.to_string())
        }) {
            return Some(vec![v]);
        }
        if keyed {
            return None;
        }
        let i: i64 = index
            .parse()
            .ok()
            .or_else(|| arith::eval(index, &|name| self.arith_var(name)))?;
        let n = i64::try_from(elements.len()).ok()?;
        let at = if i < 0 { n + i } else { i };
        usize::try_from(at)
            .ok()
            .and_then(|k| elements.get(k))
            .map(|e| vec![e.clone()])
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
            let names: Vec<&Word> = argv[1..]
                .iter()
                .filter(|w| !w.text.starts_with('-'))
                .collect();
            for w in &names {
                self.vars.lines.remove(&w.text);
                self.vars.forget(&w.text);
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
            let own_input = !redirects.is_empty()
                || argv[1..]
                    .iter()
                    .any(|w| w.text.starts_with('-') && w.text != "-r");
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
    let mut rest = line.trim_matches(blank);
    let mut out = Vec::new();
    while out.len() + 1 < names {
        match rest.find(|c: char| ifs.contains(&c)) {
            Some(i) => {
                out.push(rest[..i].to_string());
                let sep = rest[i..].chars().next().map_or(1, char::len_utf8);
                rest = rest[i + sep..].trim_start_matches(blank);
            }
            None => {
                out.push(rest.to_string());
                rest = "";
            }
        }
    }
    out.push(rest.to_string());
    out
}

/// Arrays assigned once (`NAME=(…)`) and otherwise named only as
/// `"${NAME[@]}"` or `"${NAME[N]}"`: no index assignment, `+=`, `mapfile`,
/// `read -a`, `unset` or name reference can have changed them.
pub(super) fn stable_arrays(src: &str) -> std::collections::HashSet<String> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = std::collections::HashSet::new();
    for (i, _) in src.match_indices("=(") {
        let name: String = src[..i]
            .chars()
            .rev()
            .take_while(|c| ident(*c))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let assigned = src.matches(&format!("{name}=(")).count();
        let reads = src.matches(&format!("${{{name}[")).count()
            + src.matches(&format!("${{#{name}[")).count();
        // The elements themselves (`logs=(logs/*.log)`) name no variable.
        let start = i + 2;
        let end = src[start..].find(')').map_or(src.len(), |e| start + e);
        let outside = format!("{}{}", &src[..start], &src[end..]);
        let mentions = variable_mentions(&outside, &name);
        if assigned == 1 && mentions == 1 + reads {
            out.insert(name);
        }
    }
    out
}

/// How often `name` appears where a shell word could name the variable:
/// at a word's start (`unset a`, `read -a a`, `a=`) or after `$`, `${`,
/// `${#`, `${!`; not inside another word (`"c=@…"`, `src/a`).
fn variable_mentions(src: &str, name: &str) -> usize {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    src.match_indices(name)
        .filter(|(i, _)| {
            let before = src[..*i].chars().last();
            let after = src[i + name.len()..].chars().next();
            // `unset "a"`, `printf -v 'a[0]'`, `declare -n r=a` name it too;
            // `"c=@…"` (another word starting with the letter) does not.
            let quoted =
                matches!(before, Some('\'' | '"')) && matches!(after, Some('\'' | '"' | '['));
            let plain = before.is_none_or(|c| {
                c.is_whitespace()
                    || matches!(c, ';' | '&' | '|' | '(' | '{' | '$' | '!' | '#' | '`' | '=')
            });
            (plain || quoted) && after.is_none_or(|c| !ident(c))
        })
        .count()
}

impl Walker<'_> {
    /// `IFS=, read -ra t <<< "a,b"`: the array's fields are the string's,
    /// when the string and the separators are known and nothing else
    /// touches the array.
    fn read_array_from_string(
        &mut self,
        argv: &[Word],
        redirects: &[Redirect],
        assigns: &[(String, Word)],
    ) {
        if argv.first().is_none_or(|w| w.text != "read") {
            return;
        }
        let Some(k) = argv.iter().position(|w| {
            w.text.starts_with('-') && !w.text.starts_with("--") && w.text.ends_with('a')
        }) else {
            return;
        };
        let Some(name) = argv.get(k + 1).map(|w| w.text.clone()) else {
            return;
        };
        self.vars.arrays.remove(&name);
        let body = redirects
            .iter()
            .find(|r| r.op == "<<<")
            .and_then(|r| r.body.as_ref().or(Some(&r.target)));
        let ifs = match assigns.iter().find(|(n, _)| n == "IFS") {
            Some((_, w)) if !w.dynamic => w.text.clone(),
            Some(_) => return,
            None => self.ifs().into_iter().collect(),
        };
        let reads = self.src.matches(&format!("${{{name}[")).count()
            + self.src.matches(&format!("${{#{name}[")).count();
        if let Some(b) = body.filter(|b| !b.dynamic)
            && variable_mentions(self.src, &name) == 1 + reads
        {
            let fields: Vec<String> = b
                .text
                .trim_end_matches('\n')
                .split(|c: char| ifs.contains(c))
                .filter(|f| !f.is_empty())
                .map(str::to_string)
                .collect();
            self.vars.arrays.insert(name, fields);
        }
    }
}

impl Walker<'_> {
    /// `echo /x > list`, `printf 'a\nb\n' >> list`: the text a command
    /// wrote into a literal file, kept for a later loop reading it.
    pub(super) fn remember_written(&mut self, i: usize, redirects: &[Redirect], n: Node) {
        for r in redirects.iter().filter(|r| r.op.contains('>')) {
            self.written.remove(&r.target.text);
        }
        if conditional(n) {
            return;
        }
        let Some(text) = self
            .out
            .commands
            .get(i)
            .and_then(crate::policy::shell::eval::printed)
        else {
            return;
        };
        for r in redirects
            .iter()
            .filter(|r| r.op == ">" && !r.target.dynamic)
        {
            self.written
                .insert(r.target.text.clone(), (text.clone(), self.cwd.clone()));
        }
    }

    /// The text of the file a statement's `< FILE` reads, when this line
    /// wrote it.
    pub(super) fn input_written_here(&self, n: Node) -> Option<String> {
        let mut c = n.walk();
        let redirects: Vec<Node> = n.children_by_field_name("redirect", &mut c).collect();
        let inputs: Vec<&str> = redirects
            .iter()
            .map(|r| self.text(*r).trim())
            .filter(|t| t.starts_with('<') || t.starts_with("0<"))
            .collect();
        // One input, a plain file, named nowhere else in the line than where
        // it was written and where it is read, in the folder it was written.
        let [only] = inputs.as_slice() else {
            return None;
        };
        let file = only.trim_start_matches('0').strip_prefix('<')?.trim();
        if file.starts_with(['<', '(', '&']) || self.input_tricks() {
            return None;
        }
        let mentions = self
            .src
            .split(|c: char| {
                c.is_whitespace() || matches!(c, ';' | '&' | '|' | '<' | '>' | '(' | ')')
            })
            .filter(|t| t.trim_matches(['"', '\'']) == file)
            .count();
        let (text, cwd) = self.written.get(file)?;
        (mentions == 2 && *cwd == self.cwd).then(|| text.clone())
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

    /// What could replace a loop's input unseen: `exec <`, a function named
    /// `read`, `env -S`.
    fn input_tricks(&self) -> bool {
        self.src.contains("exec <")
            || self.src.contains("exec 0<")
            || self.src.contains("read()")
            || self.src.contains("read ()")
            || self.src.contains("function read")
            || self.src.contains("-S")
            || self.src.contains("--split-string")
    }
}

impl Walker<'_> {
    /// After `done < <(cmd)` is parsed: the lines read inside the loop came
    /// from `cmd`.
    pub(super) fn tie_pending_source(&mut self, before: usize, redirects: &[Redirect]) {
        // A lone command in the substitution: `<(git ls-files | cat - x)`
        // or `<(a; b)` mixes in other lines.
        let source = redirects.iter().filter(|r| r.target.procsub).find_map(|r| {
            match r.target.subs.as_slice() {
                [one] => self
                    .out
                    .commands
                    .get(*one)
                    .filter(|c| c.stdin_from.is_none() && !c.pipes_out)
                    .map(|_| *one),
                _ => None,
            }
        });
        let tie = |subs: &mut Vec<usize>| {
            if subs.contains(&PENDING_SOURCE) {
                subs.retain(|s| *s != PENDING_SOURCE);
                subs.extend(source);
            }
        };
        for c in self.out.commands.iter_mut().skip(before) {
            for w in c
                .argv
                .iter_mut()
                .chain(c.redirects.iter_mut().map(|r| &mut r.target))
            {
                tie(&mut w.subs);
                if source.is_none() {
                    w.line = false;
                }
            }
        }
        for subs in self.vars.from.values_mut() {
            tie(subs);
        }
    }
}

/// Whether a command runs only sometimes, or elsewhere, from here: inside a
/// loop, a branch, a function, a subshell, a pipeline, `$(…)`, `<(…)`, or
/// sent to the background.
pub(super) fn conditional(n: Node) -> bool {
    let background = n.next_sibling().is_some_and(|s| s.kind() == "&");
    let mut p = n.parent();
    while let Some(x) = p {
        if matches!(
            x.kind(),
            "while_statement"
                | "until_statement"
                | "for_statement"
                | "c_style_for_statement"
                | "if_statement"
                | "case_statement"
                | "function_definition"
                | "subshell"
                | "list"
                | "pipeline"
                | "command_substitution"
                | "process_substitution"
        ) {
            return true;
        }
        p = x.parent();
    }
    background
}

impl Walker<'_> {
    /// Builtins that set or remove variables by name (`unset d`, `mapfile
    /// -t f`, `declare -g f`, `eval …`): what was known of those names is
    /// not any more.
    pub(super) fn forget_set_names(&mut self, argv: &[Word]) {
        let Some(first) = argv.first().map(|w| w.text.as_str()) else {
            return;
        };
        if first == "eval" {
            self.vars.known.clear();
            self.vars.lines.clear();
            self.vars.arrays.clear();
            return;
        }
        if !matches!(
            first,
            "unset"
                | "mapfile"
                | "readarray"
                | "declare"
                | "typeset"
                | "local"
                | "export"
                | "readonly"
        ) {
            return;
        }
        for w in argv[1..].iter().filter(|w| !w.text.starts_with('-')) {
            let name: String = w
                .text
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() {
                continue;
            }
            self.vars.lines.remove(&name);
            self.vars.arrays.remove(&name);
            if matches!(first, "unset" | "mapfile" | "readarray") || w.dynamic {
                self.vars.forget(&name);
            }
        }
    }
}
