//! Shell text → the simple commands it would run, via tree-sitter-bash.
//! Quoting, escapes, `$'…'`, brace lists, variables assigned earlier in the
//! line, `for` loops over static words, `$0…` in `sh -c` and `echo` inside
//! `$(…)` are resolved statically; anything else is marked dynamic.

use std::collections::HashMap;

use tree_sitter::{Node, Parser};

/// One word after quote removal. `~`, `$HOME` and `${HOME}` become `~`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    /// Part of the value is only known at run time.
    pub dynamic: bool,
    /// Commands of `$(…)`, `` `…` `` or `<(…)` inside this word.
    pub subs: Vec<usize>,
}

impl Word {
    /// The words' values joined by spaces, as a command line again.
    pub(super) fn join(words: &[Word]) -> String {
        words
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    pub(super) fn lit(s: impl Into<String>) -> Self {
        Word {
            text: s.into(),
            dynamic: false,
            subs: vec![],
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// `>`, `>>`, `<`, `&>`, `>&`, `<<<`, `<<`, …
    pub op: String,
    pub target: Word,
    /// Heredoc or here-string body, and whether it is expanded.
    pub body: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Command {
    pub argv: Vec<Word>,
    pub redirects: Vec<Redirect>,
    /// Index of the command whose stdout feeds this one's stdin.
    pub stdin_from: Option<usize>,
    pub pipes_out: bool,
    /// The directory a preceding `cd` moved to, if static.
    pub cwd: Option<String>,
    /// Inside `$(…)`/`<(…)` of another command.
    pub nested: bool,
}

#[derive(Debug, Default)]
pub struct Script {
    pub commands: Vec<Command>,
    pub parse_error: bool,
    /// Functions that call themselves (`:(){ :|:& };:`).
    pub recursive_functions: Vec<String>,
    /// `alias x='…'` bodies, analysed as scripts.
    pub alias_bodies: Vec<String>,
}

struct Walker<'a> {
    src: &'a str,
    vars: HashMap<String, String>,
    positional: Vec<String>,
    cwd: Option<String>,
    out: Script,
    current_fn: Vec<String>,
}

pub fn parse(src: &str, positional: &[String]) -> Script {
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .is_err()
    {
        return Script {
            parse_error: true,
            ..Default::default()
        };
    }
    let Some(tree) = parser.parse(src, None) else {
        return Script {
            parse_error: true,
            ..Default::default()
        };
    };
    let mut w = Walker {
        src,
        vars: HashMap::new(),
        positional: positional.to_vec(),
        cwd: None,
        out: Script::default(),
        current_fn: vec![],
    };
    let root = tree.root_node();
    w.out.parse_error = root.has_error();
    w.statement(root, false);
    w.out
}

fn unescape_word(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            if let Some(n) = it.next()
                && n != '\n'
            {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn unescape_dq(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' && matches!(it.peek(), Some('"' | '\\' | '$' | '`' | '\n')) {
            if let Some(n) = it.next()
                && n != '\n'
            {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `$'…'` escapes: \n \t \\ \' \xHH \NNN (octal) \uHHHH.
fn ansi_c(s: &str) -> String {
    let inner = s
        .strip_prefix("$'")
        .and_then(|x| x.strip_suffix('\''))
        .unwrap_or(s);
    let b: Vec<char> = inner.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != '\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = b[i + 1];
        i += 2;
        match c {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'e' | 'E' => out.push('\u{1b}'),
            'a' => out.push('\u{7}'),
            '0'..='7' => {
                let mut v = c.to_digit(8).unwrap_or(0);
                let mut n = 1;
                while n < 3 && i < b.len() && b[i].is_digit(8) {
                    v = v * 8 + b[i].to_digit(8).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                out.push(char::from_u32(v).unwrap_or('?'));
            }
            'x' | 'u' | 'U' => {
                let max = match c {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let mut v = 0u32;
                let mut n = 0;
                while n < max && i < b.len() && b[i].is_ascii_hexdigit() {
                    v = v * 16 + b[i].to_digit(16).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                out.push(char::from_u32(v).unwrap_or('?'));
            }
            other => out.push(other),
        }
    }
    out
}

/// Windows paths and registry keys (`C:\\x`, `%APPDATA%\\x`, `HKCU\\x`,
/// `$env:USERPROFILE\\x`): backslashes there separate components, so they
/// are kept rather than removed as shell escapes.
fn looks_windows(raw: &str) -> bool {
    let b = raw.as_bytes();
    raw.contains('\\')
        && ((b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'\\')
            || raw.starts_with('%')
            || raw.starts_with("$env:")
            || raw.starts_with("HK")
            || raw.starts_with("\\\\"))
}

/// An unquoted expansion is split into words by IFS (`rm${IFS}-rf${IFS}~`).
fn splittable(n: Node) -> bool {
    match n.kind() {
        "simple_expansion" | "expansion" => true,
        "word" => n.end_byte() > n.start_byte(),
        "concatenation" => {
            let mut c = n.walk();
            n.named_children(&mut c)
                .any(|k| matches!(k.kind(), "simple_expansion" | "expansion"))
        }
        _ => false,
    }
}

fn push_split(argv: &mut Vec<Word>, w: Word, split: bool, ifs: &str) {
    let seps: Vec<char> = ifs.chars().collect();
    if split && w.text.contains(seps.as_slice()) {
        // Substitutions stay attached to every piece: which one they land in
        // is only known at run time.
        argv.extend(
            w.text
                .split(seps.as_slice())
                .filter(|p| !p.is_empty())
                .map(|p| Word {
                    text: p.to_string(),
                    dynamic: w.dynamic && p.contains('$'),
                    subs: w.subs.clone(),
                }),
        );
    } else {
        argv.push(w);
    }
}

/// `{a,b,c}` as a whole word → its items (bash brace expansion).
pub fn brace_items(s: &str) -> Option<Vec<String>> {
    let inner = s.strip_prefix('{')?.strip_suffix('}')?;
    if !inner.contains(',') || inner.contains('{') {
        return None;
    }
    Some(inner.split(',').map(str::to_string).collect())
}

impl<'a> Walker<'a> {
    fn text(&self, n: Node) -> &'a str {
        n.utf8_text(self.src.as_bytes()).unwrap_or("")
    }

    /// `$NAME` and `${NAME}` inside an unquoted word, where known.
    fn expand_inline(&self, raw: &str) -> Word {
        let b: Vec<char> = raw.chars().collect();
        let mut out = String::new();
        let mut dynamic = false;
        let mut i = 0;
        while i < b.len() {
            if b[i] == '\\' && i + 1 < b.len() {
                out.push(b[i + 1]);
                i += 2;
                continue;
            }
            if b[i] != '$' {
                out.push(b[i]);
                i += 1;
                continue;
            }
            let braced = b.get(i + 1) == Some(&'{');
            let start = if braced { i + 2 } else { i + 1 };
            let mut j = start;
            while j < b.len() && (b[j].is_alphanumeric() || b[j] == '_') {
                j += 1;
            }
            let name: String = b[start..j].iter().collect();
            if braced && b.get(j) == Some(&'}') {
                j += 1;
            }
            match self.lookup(&name).filter(|_| !name.is_empty()) {
                Some(v) => out.push_str(&v),
                None => {
                    dynamic = true;
                    out.extend(&b[i..j.max(i + 1)]);
                }
            }
            i = j.max(i + 1);
        }
        Word {
            text: out,
            dynamic,
            subs: vec![],
        }
    }

    /// Field separators: `IFS` if the line set it, else space, tab, newline.
    fn ifs(&self) -> String {
        self.vars
            .get("IFS")
            .cloned()
            .unwrap_or_else(|| " \t\n".into())
    }

    fn lookup(&self, name: &str) -> Option<String> {
        if name == "HOME" {
            return Some("~".into());
        }
        if name == "IFS" {
            return Some(self.vars.get("IFS").cloned().unwrap_or_else(|| " ".into()));
        }
        if let Ok(i) = name.parse::<usize>() {
            return self.positional.get(i).cloned();
        }
        self.vars.get(name).cloned()
    }

    /// Walks statements; `nested` marks commands inside substitutions.
    fn statement(&mut self, n: Node, nested: bool) {
        match n.kind() {
            "command" => {
                self.command(n, nested, None);
            }
            "redirected_statement" => {
                let before = self.out.commands.len();
                if let Some(body) = n.child_by_field_name("body") {
                    self.statement(body, nested);
                }
                // The last command of the body, found before the redirects'
                // own substitutions add commands of their own.
                let target = if self.out.commands.len() > before {
                    Some(self.out.commands.len() - 1)
                } else {
                    None
                };
                let redirects: Vec<Redirect> = self.redirects(n);
                match target {
                    Some(i) => self.out.commands[i].redirects.extend(redirects),
                    None => self.out.commands.push(Command {
                        redirects,
                        cwd: self.cwd.clone(),
                        nested,
                        ..Default::default()
                    }),
                }
            }
            "pipeline" => {
                let mut prev: Option<usize> = None;
                let mut cursor = n.walk();
                let stages: Vec<Node> = n.named_children(&mut cursor).collect();
                for stage in stages {
                    let before = self.out.commands.len();
                    self.statement(stage, nested);
                    if self.out.commands.len() > before {
                        let first = before;
                        let last = self.out.commands.len() - 1;
                        if let Some(p) = prev {
                            self.out.commands[first].stdin_from = Some(p);
                            self.out.commands[p].pipes_out = true;
                        }
                        prev = Some(last);
                    }
                }
            }
            "variable_assignment" => {
                self.assignment(n, nested);
            }
            "declaration_command" => {
                let mut cursor = n.walk();
                let kids: Vec<Node> = n.named_children(&mut cursor).collect();
                for k in kids {
                    if k.kind() == "variable_assignment" {
                        self.assignment(k, nested);
                    }
                }
            }
            "function_definition" => {
                let name = n
                    .child_by_field_name("name")
                    .map(|x| self.text(x).to_string())
                    .unwrap_or_default();
                self.current_fn.push(name);
                if let Some(body) = n.child_by_field_name("body") {
                    self.statement(body, nested);
                }
                self.current_fn.pop();
            }
            "for_statement" => {
                let var = n
                    .child_by_field_name("variable")
                    .map(|v| self.text(v).to_string());
                let mut cursor = n.walk();
                let values: Vec<Node> = n.children_by_field_name("value", &mut cursor).collect();
                if let (Some(var), Some(first)) = (var, values.first()) {
                    let w = self.word(*first, nested);
                    self.vars.insert(var, w.text);
                }
                if let Some(body) = n.child_by_field_name("body") {
                    self.statement(body, nested);
                }
            }
            "heredoc_body" | "comment" => {}
            _ => {
                let mut cursor = n.walk();
                let kids: Vec<Node> = n.named_children(&mut cursor).collect();
                for k in kids {
                    self.statement(k, nested);
                }
            }
        }
    }

    fn assignment(&mut self, n: Node, nested: bool) {
        let name = n
            .child_by_field_name("name")
            .map(|x| self.text(x).to_string());
        let value = n.child_by_field_name("value").map(|v| self.word(v, nested));
        if let (Some(name), Some(v)) = (name, value)
            && !v.dynamic
        {
            self.vars.insert(name, v.text);
        }
    }

    fn redirects(&mut self, n: Node) -> Vec<Redirect> {
        let mut out = Vec::new();
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.children_by_field_name("redirect", &mut cursor).collect();
        for r in kids {
            out.push(self.redirect(r));
        }
        out
    }

    fn redirect(&mut self, r: Node) -> Redirect {
        let mut op = String::new();
        let mut target = Word::lit("");
        let mut body = None;
        let mut cursor = r.walk();
        let kids: Vec<Node> = r.children(&mut cursor).collect();
        for k in kids {
            match k.kind() {
                "file_descriptor" => {}
                "heredoc_start" => {
                    let start = self.text(k);
                    op = "<<".into();
                    target = Word::lit(start.trim_matches(['\'', '"']));
                    // A quoted delimiter keeps the body literal.
                    let quoted =
                        start.contains('\'') || start.contains('"') || start.contains('\\');
                    if let Some(b) = r
                        .named_children(&mut r.walk())
                        .find(|c| c.kind() == "heredoc_body")
                    {
                        let text = self.text(b).to_string();
                        if !quoted {
                            // Substitutions in an unquoted heredoc run.
                            let _ = self.word(b, true);
                        }
                        body = Some(text);
                    }
                }
                "heredoc_body" | "heredoc_end" => {}
                _ if !k.is_named() => op.push_str(self.text(k)),
                _ => {
                    let w = self.word(k, true);
                    if r.kind() == "herestring_redirect" {
                        op = "<<<".into();
                        body = Some(w.text.clone());
                    }
                    if target.text.is_empty() {
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
        }
    }

    fn command(&mut self, n: Node, nested: bool, _parent: Option<usize>) {
        let mut argv = Vec::new();
        let mut redirects = Vec::new();
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cursor).collect();
        let mut skip_until = 0usize;
        for (idx, k) in kids.iter().copied().enumerate() {
            if idx < skip_until {
                continue;
            }
            // tree-sitter sometimes cuts one shell word in two (`-rf$` + `IFS/`):
            // pieces with no space between them are one word.
            let mut end = idx;
            while end + 1 < kids.len()
                && kids[end + 1].start_byte() == kids[end].end_byte()
                && !matches!(
                    kids[end + 1].kind(),
                    "file_redirect" | "heredoc_redirect" | "herestring_redirect"
                )
            {
                end += 1;
            }
            if end > idx {
                let mut w = Word::lit("");
                for piece in &kids[idx..=end] {
                    let part = match piece.kind() {
                        "word" => self.expand_inline(self.text(*piece)),
                        "command_name" => {
                            let inner = piece.named_child(0).unwrap_or(*piece);
                            self.word(inner, nested)
                        }
                        _ => self.word(*piece, nested),
                    };
                    w.text.push_str(&part.text);
                    w.dynamic |= part.dynamic;
                    w.subs.extend(part.subs);
                }
                let ifs = self.ifs();
                push_split(&mut argv, w, true, &ifs);
                skip_until = end + 1;
                continue;
            }
            match k.kind() {
                "variable_assignment" => {}
                "command_name" => {
                    let inner = k.named_child(0).unwrap_or(k);
                    let w = self.word(inner, nested);
                    match brace_items(&w.text) {
                        Some(items) if !w.dynamic => argv.extend(items.into_iter().map(Word::lit)),
                        _ => push_split(&mut argv, w, splittable(inner), &self.ifs()),
                    }
                }
                "file_redirect" | "heredoc_redirect" | "herestring_redirect" => {
                    redirects.push(self.redirect(k))
                }
                _ => {
                    let w = self.word(k, nested);
                    push_split(&mut argv, w, splittable(k), &self.ifs());
                }
            }
        }
        if let Some(name) = argv.first().map(|w| w.text.clone()) {
            if self.current_fn.contains(&name) {
                self.out.recursive_functions.push(name.clone());
            }
            if name == "cd"
                && let Some(dir) = argv.get(1).filter(|w| !w.dynamic)
            {
                self.cwd = Some(match &self.cwd {
                    Some(c) if !dir.text.starts_with('/') && !dir.text.starts_with('~') => {
                        format!("{c}/{}", dir.text)
                    }
                    _ => dir.text.clone(),
                });
            }
            if name == "alias" {
                for a in &argv[1..] {
                    if let Some((_, body)) = a.text.split_once('=') {
                        self.out.alias_bodies.push(body.to_string());
                    }
                }
            }
        }
        self.out.commands.push(Command {
            argv,
            redirects,
            cwd: self.cwd.clone(),
            nested,
            ..Default::default()
        });
    }

    /// Evaluates a word-like node statically where it can.
    fn word(&mut self, n: Node, nested: bool) -> Word {
        let _ = nested;
        match n.kind() {
            "word" if self.text(n).contains('$') && !looks_windows(self.text(n)) => {
                // tree-sitter leaves some `$NAME` inside plain words (`-rf$IFS/`).
                self.expand_inline(self.text(n))
            }
            "word" | "number" => {
                let t = self.text(n);
                if looks_windows(t) {
                    Word::lit(t)
                } else {
                    Word::lit(unescape_word(t))
                }
            }
            "raw_string" => {
                let t = self.text(n);
                Word::lit(
                    t.strip_prefix('\'')
                        .and_then(|x| x.strip_suffix('\''))
                        .unwrap_or(t),
                )
            }
            "ansi_c_string" => Word::lit(ansi_c(self.text(n))),
            "string_content" => Word::lit(unescape_dq(self.text(n))),
            "simple_expansion" | "expansion" => {
                let t = self.text(n);
                let name: String = t
                    .trim_start_matches('$')
                    .trim_start_matches('{')
                    .trim_end_matches('}')
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let plain = t == format!("${name}") || t == format!("${{{name}}}");
                match self.lookup(&name) {
                    Some(v) if plain => Word::lit(v),
                    _ => Word {
                        text: t.to_string(),
                        dynamic: true,
                        subs: vec![],
                    },
                }
            }
            "command_substitution" | "process_substitution" => {
                let start = self.out.commands.len();
                let mut cursor = n.walk();
                let kids: Vec<Node> = n.named_children(&mut cursor).collect();
                for k in kids {
                    self.statement(k, true);
                }
                let subs: Vec<usize> = (start..self.out.commands.len()).collect();
                // `$(echo rm)` is as good as `rm`.
                if n.kind() == "command_substitution" && subs.len() == 1 {
                    let c = &self.out.commands[start];
                    if c.argv
                        .first()
                        .is_some_and(|w| w.text == "echo" || w.text == "printf")
                        && c.argv.iter().all(|w| !w.dynamic)
                        && c.redirects.is_empty()
                    {
                        let text = c.argv[1..]
                            .iter()
                            .map(|w| w.text.as_str())
                            .collect::<Vec<_>>()
                            .join(" ");
                        return Word {
                            text,
                            dynamic: false,
                            subs,
                        };
                    }
                }
                let marker = if n.kind() == "process_substitution" {
                    "/dev/fd/63"
                } else {
                    "$(…)"
                };
                Word {
                    text: marker.into(),
                    dynamic: true,
                    subs,
                }
            }
            "concatenation" if looks_windows(self.text(n)) => Word::lit(self.text(n)),
            "string" | "concatenation" | "heredoc_body" => {
                let mut text = String::new();
                let mut dynamic = false;
                let mut subs = Vec::new();
                let mut cursor = n.walk();
                let kids: Vec<Node> = n.named_children(&mut cursor).collect();
                if kids.is_empty() && n.kind() == "string" {
                    return Word::lit("");
                }
                for k in kids {
                    let w = self.word(k, nested);
                    text.push_str(&w.text);
                    dynamic |= w.dynamic;
                    subs.extend(w.subs);
                }
                if n.kind() == "concatenation" {
                    // Unquoted pieces between named children (e.g. `/*` after `${HOME}`).
                    let full = self.text(n);
                    if text.is_empty() {
                        text = unescape_word(full);
                    }
                }
                Word {
                    text,
                    dynamic,
                    subs,
                }
            }
            _ => {
                let t = self.text(n);
                Word {
                    text: unescape_word(t),
                    dynamic: t.contains('$') || t.contains('`'),
                    subs: vec![],
                }
            }
        }
    }
}
