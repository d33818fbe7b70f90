//! Shell text → the simple commands it would run, via tree-sitter-bash.
//! Quoting, escapes, `$'…'`, brace lists, tilde, variables assigned earlier
//! in the line, `for` loops over static words, `$0…` in `sh -c`, and
//! substitutions whose output is known (`echo`, `printf`, `pwd`, `dirname`)
//! are resolved statically; anything else is marked dynamic. Each word also
//! records how it was spelled, because a program name built from quotes,
//! variables or escapes is itself a sign of obfuscation.

use std::cell::RefCell;
use std::collections::HashMap;

use tree_sitter::{Node, Parser};

use super::eval;

/// Stands for the user's home where the shell expands one (`~`, `$HOME`):
/// a quoted `'~'` stays a literal file name.
pub const HOME: char = '\u{E000}';

/// One word after expansion and quote removal.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    /// Part of the value is only known at run time.
    pub dynamic: bool,
    /// Commands of `$(…)`, `` `…` `` or `<(…)` whose output is in this word.
    pub subs: Vec<usize>,
    /// Built from a variable, a substitution, an ANSI-C escape or a brace
    /// list (resolved or not).
    pub computed: bool,
    /// Quotes or escapes inside the word (`r''m`, `r\m`, `'r'"m"`).
    pub spliced: bool,
    /// An unquoted wildcard.
    pub glob: bool,
    /// `<(…)`: a file whose content is another command's output.
    pub procsub: bool,
    /// An unquoted `{…}` that bash brace-expands.
    pub brace: bool,
}

impl Word {
    pub fn lit(s: impl Into<String>) -> Self {
        Word {
            text: s.into(),
            ..Default::default()
        }
    }

    fn merge(&mut self, other: Word) {
        self.text.push_str(&other.text);
        self.dynamic |= other.dynamic;
        self.subs.extend(other.subs);
        self.computed |= other.computed;
        self.spliced |= other.spliced;
        self.glob |= other.glob;
        self.procsub |= other.procsub;
        self.brace |= other.brace;
    }

    /// The words' values joined by spaces, as a command line again.
    pub fn join(words: &[Word]) -> String {
        words
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// `>`, `>>`, `<`, `&>`, `>&`, `<<<`, `<<`, …
    pub op: String,
    pub target: Word,
    /// Heredoc or here-string body.
    pub body: Option<Word>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Command {
    pub argv: Vec<Word>,
    /// `NAME=value` before the program (or on their own).
    pub assigns: Vec<(String, Word)>,
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
    /// `name() { body }`, with the body's source.
    pub functions: Vec<(String, String)>,
    /// An endless loop that starts background jobs (`while true; do x & done`).
    pub spawning_loop: bool,
}

/// Expansions the parser resolves without running anything.
struct Vars {
    known: HashMap<String, String>,
    /// Variables set from a substitution or `read`: the commands behind them.
    from: HashMap<String, Vec<usize>>,
}

struct Walker<'a> {
    src: &'a str,
    vars: Vars,
    positional: Vec<String>,
    cwd: Option<String>,
    out: Script,
    current_fn: Vec<String>,
}

const MAX_LOOP_VALUES: usize = 16;

thread_local! {
    // Building a parser and loading the grammar costs more than most parses.
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parses `src`, terminated with `;` when that is the same script: bash
/// treats `X;` as `X`, and the terminator spares tree-sitter-bash an error
/// recovery on a dead parse branch that costs ~60 µs for every pipeline of
/// three or more commands. Taken only when the `;` parses as the script's
/// own last token; anything else (a heredoc, a comment, an escape) parses as
/// written.
fn parse_tree(p: &mut Parser, src: &str) -> Option<(tree_sitter::Tree, Option<String>)> {
    let end = src.trim_end();
    let open_ended = end.is_empty() || end.ends_with([';', '&', '|', '\\']) || src.contains("<<");
    if !open_ended {
        let terminated = format!("{src};");
        if let Some(tree) = p.parse(&terminated, None) {
            let root = tree.root_node();
            let last = root.child(root.child_count().saturating_sub(1));
            if !root.has_error()
                && last.is_some_and(|n| n.kind() == ";" && n.start_byte() == src.len())
            {
                return Some((tree, Some(terminated)));
            }
        }
    }
    p.parse(src, None).map(|t| (t, None))
}

pub fn parse(src: &str, positional: &[String]) -> Script {
    let parsed = PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let mut p = Parser::new();
            if p.set_language(&tree_sitter_bash::LANGUAGE.into()).is_err() {
                return None;
            }
            *slot = Some(p);
        }
        slot.as_mut().and_then(|p| parse_tree(p, src))
    });
    let Some((tree, terminated)) = parsed else {
        return Script {
            parse_error: true,
            ..Default::default()
        };
    };
    let src = terminated.as_deref().unwrap_or(src);
    let mut w = Walker {
        src,
        vars: Vars {
            known: HashMap::new(),
            from: HashMap::new(),
        },
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

/// Removes backslash escapes of an unquoted word (`\<newline>` vanishes).
pub fn unescape_word(s: &str) -> String {
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

/// Windows paths and registry keys (`C:\x`, `%APPDATA%\x`, `HKCU\x`,
/// `$env:USERPROFILE\x`): backslashes there separate components.
pub fn looks_windows(raw: &str) -> bool {
    let b = raw.as_bytes();
    raw.contains('\\')
        && ((b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'\\')
            || raw.starts_with('%')
            || raw.starts_with("$env:")
            || raw.starts_with("HK")
            || raw.starts_with("~\\")
            || raw.starts_with("\\\\"))
}

/// `~`, `~/x`, `~user/x`, `~+` at the start of an unquoted word.
fn expand_tilde(raw: &str) -> Option<String> {
    let rest = raw.strip_prefix('~')?;
    let (name, tail) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    match name {
        "" => Some(format!("{HOME}{tail}")),
        "+" => Some(format!(".{tail}")),
        "root" => Some(format!("/root{tail}")),
        n if n
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c)) =>
        {
            Some(format!("/home/{n}{tail}"))
        }
        _ => None,
    }
}

/// A heredoc's body from its redirect's text: the lines after the first,
/// without the closing delimiter.
fn heredoc_text(redirect: &str, delim: &str) -> String {
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

fn has_background(n: Node) -> bool {
    let mut c = n.walk();
    n.children(&mut c)
        .any(|k| (!k.is_named() && k.kind() == "&") || (k.is_named() && has_background(k)))
}

impl<'a> Walker<'a> {
    fn text(&self, n: Node) -> &'a str {
        n.utf8_text(self.src.as_bytes()).unwrap_or("")
    }

    fn lookup(&self, name: &str) -> Option<String> {
        match name {
            "HOME" => Some(HOME.to_string()),
            "PWD" => Some(".".into()),
            "IFS" => Some(
                self.vars
                    .known
                    .get("IFS")
                    .cloned()
                    .unwrap_or_else(|| " ".into()),
            ),
            _ => {
                if let Ok(i) = name.parse::<usize>() {
                    return self.positional.get(i).cloned();
                }
                self.vars.known.get(name).cloned()
            }
        }
    }

    /// A `$NAME` that could not be resolved: keeps its spelling (rules read
    /// `$PPID`, `$USER`) and the commands its value came from.
    fn unresolved(&self, spelled: &str, name: &str) -> Word {
        Word {
            text: spelled.to_string(),
            dynamic: true,
            subs: self.vars.from.get(name).cloned().unwrap_or_default(),
            computed: true,
            ..Default::default()
        }
    }

    /// `$NAME` and `${NAME}` left inside a plain word by the grammar.
    fn expand_inline(&self, raw: &str) -> Word {
        let b: Vec<char> = raw.chars().collect();
        let mut w = Word::default();
        let mut i = 0;
        while i < b.len() {
            if b[i] == '\\' && i + 1 < b.len() {
                w.text.push(b[i + 1]);
                w.spliced |= i > 0;
                i += 2;
                continue;
            }
            if b[i] != '$' {
                w.text.push(b[i]);
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
            let spelled: String = b[i..j.max(i + 1)].iter().collect();
            match self.lookup(&name).filter(|_| !name.is_empty()) {
                Some(v) => {
                    w.computed |= !matches!(name.as_str(), "HOME" | "PWD");
                    w.text.push_str(&v);
                }
                None => w.merge(self.unresolved(&spelled, &name)),
            }
            i = j.max(i + 1);
        }
        w
    }

    fn ifs(&self) -> Vec<char> {
        self.vars
            .known
            .get("IFS")
            .map(|s| s.chars().collect())
            .unwrap_or_else(|| vec![' ', '\t', '\n'])
    }

    /// Walks statements; `nested` marks commands inside substitutions.
    fn statement(&mut self, n: Node, nested: bool) {
        match n.kind() {
            "command" => self.command(n, nested),
            "redirected_statement" => {
                let before = self.out.commands.len();
                if let Some(body) = n.child_by_field_name("body") {
                    self.statement(body, nested);
                }
                // The body's last command, found before the redirects'
                // own substitutions add commands of their own.
                let target =
                    (self.out.commands.len() > before).then(|| self.out.commands.len() - 1);
                let redirects = self.redirects(n);
                let owner = match target {
                    Some(i) => {
                        self.out.commands[i].redirects.extend(redirects);
                        i
                    }
                    None => {
                        self.out.commands.push(Command {
                            redirects,
                            cwd: self.cwd.clone(),
                            nested,
                            ..Default::default()
                        });
                        self.out.commands.len() - 1
                    }
                };
                let mut cursor = n.walk();
                let heredocs: Vec<Node> = n
                    .children_by_field_name("redirect", &mut cursor)
                    .filter(|r| r.kind() == "heredoc_redirect")
                    .collect();
                for h in heredocs {
                    self.heredoc_tail(h, owner, nested);
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
                        // The stage's first top-level command reads the pipe.
                        let first = (before..self.out.commands.len())
                            .find(|&i| self.out.commands[i].nested == nested)
                            .unwrap_or(before);
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
                let (name, value) = self.assignment(n, nested);
                if let Some(name) = name {
                    self.out.commands.push(Command {
                        assigns: vec![(name, value)],
                        cwd: self.cwd.clone(),
                        nested,
                        ..Default::default()
                    });
                }
            }
            "declaration_command" => self.declaration(n, nested),
            "function_definition" => {
                let name = n
                    .child_by_field_name("name")
                    .map(|x| self.text(x).to_string())
                    .unwrap_or_default();
                if let Some(body) = n.child_by_field_name("body") {
                    let text = self.text(body);
                    let inner = text
                        .trim()
                        .strip_prefix('{')
                        .and_then(|t| t.strip_suffix('}'))
                        .or_else(|| {
                            text.trim()
                                .strip_prefix('(')
                                .and_then(|t| t.strip_suffix(')'))
                        })
                        .unwrap_or(text);
                    self.out.functions.push((name.clone(), inner.to_string()));
                    self.current_fn.push(name);
                    self.statement(body, nested);
                    self.current_fn.pop();
                }
            }
            "for_statement" => self.for_loop(n, nested),
            "while_statement" | "until_statement" | "c_style_for_statement" => {
                let endless = match n.kind() {
                    "c_style_for_statement" => n.child_by_field_name("condition").is_none(),
                    kind => n.child_by_field_name("condition").is_some_and(|c| {
                        let t = self.text(c).trim().trim_end_matches(';').trim();
                        if kind == "until_statement" {
                            t == "false"
                        } else {
                            matches!(t, "true" | ":" | "[ 1 ]" | "((1))")
                        }
                    }),
                };
                if endless && n.child_by_field_name("body").is_some_and(has_background) {
                    self.out.spawning_loop = true;
                }
                self.children(n, nested);
            }
            "file_redirect" | "heredoc_redirect" | "herestring_redirect" => {
                let r = self.redirect(n);
                self.out.commands.push(Command {
                    redirects: vec![r],
                    cwd: self.cwd.clone(),
                    nested,
                    ..Default::default()
                });
                if n.kind() == "heredoc_redirect" {
                    self.heredoc_tail(n, self.out.commands.len() - 1, nested);
                }
            }
            "heredoc_body" | "comment" => {}
            _ => self.children(n, nested),
        }
    }

    fn children(&mut self, n: Node, nested: bool) {
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cursor).collect();
        for k in kids {
            self.statement(k, nested);
        }
    }

    fn for_loop(&mut self, n: Node, nested: bool) {
        let var = n
            .child_by_field_name("variable")
            .map(|v| self.text(v).to_string());
        let mut cursor = n.walk();
        let nodes: Vec<Node> = n.children_by_field_name("value", &mut cursor).collect();
        let mut values: Vec<Word> = Vec::new();
        for v in nodes {
            let w = self.word(v, nested);
            let split = splittable(v, self.src);
            push_words(&mut values, w, split, &self.ifs());
        }
        let Some(body) = n.child_by_field_name("body") else {
            return;
        };
        let Some(var) = var else {
            self.statement(body, nested);
            return;
        };
        if values.is_empty() {
            // `for x; do …` iterates the positional parameters.
            self.vars.known.remove(&var);
            self.statement(body, nested);
            return;
        }
        // The body once per value, so a dangerous value anywhere in the list counts.
        for v in values.into_iter().take(MAX_LOOP_VALUES) {
            if v.dynamic {
                self.vars.known.remove(&var);
                self.vars.from.insert(var.clone(), v.subs.clone());
            } else {
                self.vars.known.insert(var.clone(), v.text.clone());
            }
            self.statement(body, nested);
        }
    }

    fn assignment(&mut self, n: Node, nested: bool) -> (Option<String>, Word) {
        let name = n
            .child_by_field_name("name")
            .map(|x| self.text(x).to_string());
        let value = match n.child_by_field_name("value") {
            Some(v) if v.kind() == "array" => {
                let mut w = Word {
                    text: self.text(v).to_string(),
                    dynamic: true,
                    computed: true,
                    ..Default::default()
                };
                let mut c = v.walk();
                let kids: Vec<Node> = v.named_children(&mut c).collect();
                for k in kids {
                    let x = self.word(k, nested);
                    w.subs.extend(x.subs);
                }
                w
            }
            Some(v) => self.word_at_start(v, nested, true),
            None => Word::lit(""),
        };
        if let Some(name) = &name {
            if value.dynamic {
                self.vars.known.remove(name);
                self.vars.from.insert(name.clone(), value.subs.clone());
            } else {
                self.vars.known.insert(name.clone(), value.text.clone());
                self.vars.from.remove(name);
            }
        }
        (name, value)
    }

    /// `export X=…`, `declare -x X=…`, `local`, `readonly`: assignments, and
    /// a command of its own (`export -p` prints the environment).
    fn declaration(&mut self, n: Node, nested: bool) {
        let mut argv = Vec::new();
        let mut assigns = Vec::new();
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.children(&mut cursor).collect();
        for k in kids {
            if !k.is_named() {
                let t = self.text(k);
                if argv.is_empty() && !t.trim().is_empty() {
                    argv.push(Word::lit(t));
                }
                continue;
            }
            if k.kind() == "variable_assignment" {
                let (name, value) = self.assignment(k, nested);
                if let Some(name) = name {
                    assigns.push((name, value));
                }
            } else {
                let w = self.word(k, nested);
                argv.push(w);
            }
        }
        self.out.commands.push(Command {
            argv,
            assigns,
            cwd: self.cwd.clone(),
            nested,
            ..Default::default()
        });
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
        let mut target = Word::default();
        let mut body = None;
        let mut cursor = r.walk();
        let kids: Vec<Node> = r.children(&mut cursor).collect();
        for k in kids {
            match k.kind() {
                "file_descriptor" => {}
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
        }
    }

    /// What follows `<<EOF` on its line, which the grammar keeps inside
    /// the heredoc: more redirects of the same command (`>> ~/.bashrc`),
    /// the rest of a pipeline (`| sh`) and of a list (`&& rm -rf ~`).
    fn heredoc_tail(&mut self, h: Node, owner: usize, nested: bool) {
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
                    for stage in stages {
                        let before = self.out.commands.len();
                        self.statement(stage, nested);
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

    fn command(&mut self, n: Node, nested: bool) {
        let mut tails = Vec::new();
        let mut argv = Vec::new();
        let mut assigns = Vec::new();
        let mut redirects = Vec::new();
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cursor).collect();
        let mut i = 0;
        while i < kids.len() {
            let k = kids[i];
            match k.kind() {
                "variable_assignment" if argv.is_empty() => {
                    let (name, value) = self.assignment(k, nested);
                    if let Some(name) = name {
                        assigns.push((name, value));
                    }
                    i += 1;
                    continue;
                }
                "file_redirect" | "heredoc_redirect" | "herestring_redirect" => {
                    redirects.push(self.redirect(k));
                    if k.kind() == "heredoc_redirect" {
                        tails.push(k);
                    }
                    i += 1;
                    continue;
                }
                "number"
                    if kids.get(i + 1).is_some_and(|n| {
                        n.kind() == "file_redirect" && n.start_byte() == k.end_byte()
                    }) =>
                {
                    // `sh 0<&2`: the grammar splits the descriptor off its redirect.
                    i += 1;
                    continue;
                }
                _ => {}
            }
            // tree-sitter sometimes cuts one shell word in two (`-rf$` + `IFS/`):
            // pieces with no space between them are one word.
            let mut end = i;
            // `r\<newline>m` is one word to bash; the grammar sees two.
            let joined = |a: Node, b: Node| {
                a.end_byte() == b.start_byte()
                    || self
                        .src
                        .get(a.end_byte()..b.start_byte())
                        .is_some_and(|gap| {
                            !gap.is_empty() && gap.chars().all(|ch| ch == '\\' || ch == '\n')
                        })
            };
            while end + 1 < kids.len()
                && joined(kids[end], kids[end + 1])
                && !matches!(
                    kids[end + 1].kind(),
                    "file_redirect" | "heredoc_redirect" | "herestring_redirect"
                )
            {
                end += 1;
            }
            let mut w = Word::default();
            let mut split = false;
            for (j, piece) in kids[i..=end].iter().enumerate() {
                let inner = if piece.kind() == "command_name" {
                    piece.named_child(0).unwrap_or(*piece)
                } else {
                    *piece
                };
                split |= splittable(inner, self.src);
                let part = self.word_at_start(inner, nested, j == 0);
                w.merge(part);
                if j > 0 {
                    w.spliced = true;
                }
            }
            // `sh 0<&2`: the grammar puts the descriptor in the command and
            // its redirect after it.
            let glued_fd = end + 1 == kids.len()
                && kids[i].kind() == "number"
                && n.next_sibling().is_some_and(|s| {
                    s.kind() == "file_redirect" && s.start_byte() == kids[end].end_byte()
                });
            if !glued_fd {
                let ifs = self.ifs();
                push_words(&mut argv, w, split, &ifs);
            }
            i = end + 1;
        }
        if let Some(name) = argv.first().map(|w| w.text.clone())
            && self.current_fn.contains(&name)
        {
            self.out.recursive_functions.push(name.clone());
        }
        if let Some(first) = argv.first().map(|w| w.text.clone())
            && (first == "cd" || first == "pushd")
        {
            match argv.get(1) {
                Some(dir) if !dir.dynamic => {
                    let d = dir.text.clone();
                    self.cwd = Some(match &self.cwd {
                        Some(c) if !d.starts_with('/') && !d.starts_with(HOME) => {
                            format!("{c}/{d}")
                        }
                        _ => d,
                    });
                }
                Some(_) => self.cwd = Some("$(unknown)".into()),
                None => self.cwd = Some(HOME.to_string()),
            }
        }
        self.out.commands.push(Command {
            argv,
            assigns,
            redirects,
            cwd: self.cwd.clone(),
            nested,
            ..Default::default()
        });
        let owner = self.out.commands.len() - 1;
        for h in tails {
            self.heredoc_tail(h, owner, nested);
        }
    }

    fn word(&mut self, n: Node, nested: bool) -> Word {
        self.word_at_start(n, nested, true)
    }

    /// Evaluates a word-like node statically where it can; `start` says the
    /// node begins the word (where tilde expands).
    fn word_at_start(&mut self, n: Node, nested: bool, start: bool) -> Word {
        match n.kind() {
            "word" => {
                let t = self.text(n);
                if let Some(rest) = t.strip_prefix("~\\").filter(|_| start) {
                    return Word::lit(format!("{HOME}/{rest}"));
                }
                if looks_windows(t) {
                    return Word::lit(t);
                }
                let tilde = if start { expand_tilde(t) } else { None };
                let t2 = tilde.as_deref().unwrap_or(t);
                let mut w = if t2.contains('$') {
                    self.expand_inline(t2)
                } else {
                    Word {
                        text: unescape_word(t2),
                        // A leading `\` only skips alias lookup (`\rm`).
                        spliced: t2.get(1..).is_some_and(|r| r.contains('\\')),
                        ..Default::default()
                    }
                };
                w.glob = t2.contains(['*', '?']) || (t2.contains('[') && t2.contains(']'));
                w.brace = t2.contains(['{', '}']);
                w
            }
            "number" => Word::lit(self.text(n)),
            "raw_string" => {
                let t = self.text(n);
                Word::lit(
                    t.strip_prefix('\'')
                        .and_then(|x| x.strip_suffix('\''))
                        .unwrap_or(t),
                )
            }
            "ansi_c_string" => {
                let t = self.text(n);
                Word {
                    text: eval::ansi_c(t),
                    computed: t.contains('\\'),
                    ..Default::default()
                }
            }
            "string_content" => Word::lit(unescape_dq(self.text(n))),
            "simple_expansion" | "expansion" => self.expansion(n, nested),
            "arithmetic_expansion" => Word {
                text: self.text(n).to_string(),
                dynamic: true,
                computed: true,
                ..Default::default()
            },
            "command_substitution" | "process_substitution" => self.substitution(n),
            "concatenation" if looks_windows(self.text(n)) => Word::lit(self.text(n)),
            "string" | "translated_string" | "concatenation" | "heredoc_body" => {
                let mut w = Word::default();
                let mut cursor = n.walk();
                let kids: Vec<Node> = n.named_children(&mut cursor).collect();
                if kids.is_empty() {
                    if n.kind() == "concatenation" {
                        return Word::lit(unescape_word(self.text(n)));
                    }
                    return Word::default();
                }
                let mut pieces = 0;
                let mut last_end = n.start_byte();
                for (j, k) in kids.iter().enumerate() {
                    if matches!(k.kind(), "heredoc_content" | "heredoc_end") {
                        continue;
                    }
                    if n.kind() == "concatenation" && k.start_byte() > last_end {
                        // Unquoted text between named children.
                        let gap = &self.src[last_end..k.start_byte()];
                        w.text.push_str(&unescape_word(gap));
                    }
                    let part = self.word_at_start(*k, nested, start && j == 0);
                    w.merge(part);
                    last_end = k.end_byte();
                    pieces += 1;
                }
                if n.kind() == "concatenation" {
                    if last_end < n.end_byte() {
                        w.text
                            .push_str(&unescape_word(&self.src[last_end..n.end_byte()]));
                    }
                    w.spliced |= pieces > 1;
                }
                if n.kind() == "heredoc_body" && w.text.is_empty() && !w.dynamic {
                    w.text = self.text(n).to_string();
                }
                w
            }
            _ => {
                let t = self.text(n);
                Word {
                    text: unescape_word(t),
                    dynamic: t.contains('$') || t.contains('`'),
                    computed: t.contains('$') || t.contains('`'),
                    ..Default::default()
                }
            }
        }
    }

    fn expansion(&mut self, n: Node, nested: bool) -> Word {
        let t = self.text(n);
        let name: String = t
            .trim_start_matches('$')
            .trim_start_matches('{')
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let plain = t == format!("${name}") || t == format!("${{{name}}}");
        // Substitutions inside `${x:-$(…)}` still run.
        let mut subs = Vec::new();
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cursor).collect();
        for k in &kids {
            if matches!(k.kind(), "command_substitution" | "process_substitution") {
                subs.extend(self.substitution(*k).subs);
            }
        }
        let _ = nested;
        // `${XDG_CONFIG_HOME:-$HOME/.config}`: unset on most machines, so the
        // default is where it points.
        if self.lookup(&name).is_none() && (t.contains(":-") || t.contains(":=")) && kids.len() > 1
        {
            let mut w = Word::default();
            for (j, k) in kids.iter().skip(1).enumerate() {
                let part = self.word_at_start(*k, nested, j == 0);
                w.merge(part);
            }
            w.computed = true;
            w.subs.extend(subs);
            if !(name.starts_with("XDG_") || name == "HOME" || name == "TMPDIR") {
                w.dynamic = true;
            }
            return w;
        }
        match self.lookup(&name) {
            Some(v) if plain && !name.is_empty() => Word {
                text: v,
                computed: !matches!(name.as_str(), "HOME" | "PWD"),
                subs,
                ..Default::default()
            },
            _ => {
                let mut w = self.unresolved(t, &name);
                w.subs.extend(subs);
                w
            }
        }
    }

    fn substitution(&mut self, n: Node) -> Word {
        let start = self.out.commands.len();
        let saved_cwd = self.cwd.clone();
        self.children(n, true);
        self.cwd = saved_cwd;
        let subs: Vec<usize> = (start..self.out.commands.len()).collect();
        if n.kind() == "process_substitution" {
            return Word {
                text: "/dev/fd/63".into(),
                dynamic: true,
                computed: true,
                procsub: true,
                subs,
                ..Default::default()
            };
        }
        // `$(echo rm)` is as good as `rm`.
        if subs.len() == 1
            && let Some(text) = eval::static_output(&self.out.commands[start])
        {
            return Word {
                text,
                computed: true,
                subs,
                ..Default::default()
            };
        }
        Word {
            text: "$(…)".into(),
            dynamic: true,
            computed: true,
            subs,
            ..Default::default()
        }
    }
}

/// An unquoted expansion is split into words by IFS (`rm${IFS}-rf${IFS}~`).
fn splittable(n: Node, src: &str) -> bool {
    match n.kind() {
        "simple_expansion" | "expansion" | "command_substitution" => true,
        // Only an expansion left inside the word splits (`rm${IFS}-rf`); an
        // escaped space (`Application\ Support`) does not.
        "word" => src
            .get(n.start_byte()..n.end_byte())
            .is_some_and(|t| t.contains('$')),
        "concatenation" => {
            let mut c = n.walk();
            n.named_children(&mut c).any(|k| {
                matches!(
                    k.kind(),
                    "simple_expansion" | "expansion" | "command_substitution"
                )
            })
        }
        _ => false,
    }
}

/// Adds a word to argv: split by IFS where the shell would, then brace-expanded.
fn push_words(argv: &mut Vec<Word>, w: Word, split: bool, ifs: &[char]) {
    let pieces: Vec<Word> = if split && !w.dynamic && w.text.contains(ifs) {
        // Substitutions stay attached to every piece.
        w.text
            .split(ifs)
            .filter(|p| !p.is_empty())
            .map(|p| Word {
                text: p.to_string(),
                computed: true,
                ..w.clone()
            })
            .collect()
    } else {
        vec![w]
    };
    for p in pieces {
        match eval::brace_expand(&p.text).filter(|_| p.brace && !p.dynamic) {
            // Tilde expansion comes after brace expansion.
            Some(items) => argv.extend(items.into_iter().map(|t| Word {
                text: expand_tilde(&t).unwrap_or(t),
                computed: true,
                ..p.clone()
            })),
            _ => argv.push(p),
        }
    }
}
