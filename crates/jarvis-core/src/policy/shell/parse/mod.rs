//! Shell text → the simple commands it would run, via tree-sitter-bash.
//! Quoting, escapes, `$'…'`, brace lists, tilde, variables assigned earlier
//! in the line, `for` loops over static words, `$0…` in `sh -c`, and
//! substitutions whose output is known (`echo`, `printf`, `pwd`, `dirname`)
//! are resolved statically; anything else is marked dynamic. Each word also
//! records how it was spelled, because a program name built from quotes,
//! variables or escapes is itself a sign of obfuscation.

mod cwd;
mod extensions;
mod heredoc;
mod vars;
mod words;

pub use heredoc::without_heredocs;
use std::cell::RefCell;
use std::collections::HashMap;
use words::{push_words, splittable};

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
    /// `>(…)`: a file whose writes are another command's input.
    pub feeds: bool,
    /// An unquoted `{…}` that bash brace-expands.
    pub brace: bool,
    /// A whole line a lone `read -r` took from the pipe before it: one of
    /// the producer's lines, not split (see `subs` for the producer).
    pub line: bool,
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
        self.feeds |= other.feeds;
        self.brace |= other.brace;
        self.line |= other.line;
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

impl Redirect {
    /// Output into a file: not a here-document, a descriptor (`2>&1`,
    /// `>&-`) or `/dev/null`.
    pub fn writes_file(&self) -> bool {
        let t = &self.target.text;
        self.op.contains('>')
            && !self.op.starts_with("<<")
            && t != "/dev/null"
            && !is_fd(t)
            && !t.starts_with('&')
    }

    /// Standard output into a file (`2>` carries the errors).
    pub fn stdout_to_file(&self) -> bool {
        self.writes_file() && !self.op.starts_with('2')
    }
}

/// A redirect's target that is a file descriptor (`2>1`, `>&-`), not a file.
pub fn is_fd(t: &str) -> bool {
    !t.is_empty() && (t.chars().all(|ch| ch.is_ascii_digit()) || t == "-")
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
    /// The commands of each function's body, as parsed where it is defined.
    pub function_spans: Vec<(String, std::ops::Range<usize>)>,
    /// Each definition: name, where its body's commands start, its body.
    pub function_defs: Vec<(String, usize, String)>,
    /// An endless loop that starts background jobs (`while true; do x & done`).
    pub spawning_loop: bool,
}

/// Expansions the parser resolves without running anything.
#[derive(Clone)]
struct Vars {
    known: HashMap<String, String>,
    /// Variables set from a substitution or `read`: the commands behind them.
    from: HashMap<String, Vec<usize>>,
    /// Name references (`declare -n p=PATH`): an assignment to `p` is one
    /// to `PATH`.
    refs: HashMap<String, String>,
    /// Arrays set from literal elements (`dirs=(src tests)`).
    arrays: HashMap<String, Vec<String>>,
    /// Arrays assigned once and only read as `"${a[@]}"` or `"${a[N]}"`.
    stable_arrays: std::collections::HashSet<String>,
    /// Variables holding a whole line from a pipe (`… | while read -r f`).
    lines: std::collections::HashSet<String>,
}

struct Walker<'a> {
    src: &'a str,
    vars: Vars,
    positional: Vec<String>,
    cwd: Option<String>,
    out: Script,
    current_fn: Vec<String>,
    /// The last command of the pipeline stage before the one being read:
    /// what a `read` in this stage reads.
    pipe_source: Option<usize>,
    /// Inside a statement whose input a redirect replaces.
    pipe_input_replaced: bool,
    /// Files this line wrote with text it shows (`echo a > list`).
    written: HashMap<String, (String, Option<String>)>,
    /// The stage before the one being read is one simple command.
    pipe_source_simple: bool,
}

const MAX_LOOP_VALUES: usize = 16;

/// Stands for a loop's input command until it is parsed (`done < <(…)`).
const PENDING_SOURCE: usize = usize::MAX;

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
    // A lone `\` at the very end is a literal backslash to bash (`C:\`); the
    // grammar rejects it and recovers slowly. Doubled, it is the same word.
    let trailing =
        end.len() == src.len() && end.chars().rev().take_while(|&c| c == '\\').count() % 2 == 1;
    if trailing {
        let doubled = format!("{src}\\");
        if let Some(tree) = p.parse(&doubled, None)
            && !tree.root_node().has_error()
        {
            return Some((tree, Some(doubled)));
        }
    }
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
    let plain = extensions::plain_bash(src);
    let src: &str = &plain;
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
            refs: HashMap::new(),
            arrays: HashMap::new(),
            stable_arrays: vars::stable_arrays(src),
            lines: Default::default(),
        },
        positional: positional.to_vec(),
        cwd: None,
        out: Script::default(),
        current_fn: vec![],
        pipe_source: None,
        pipe_input_replaced: false,
        written: HashMap::new(),
        pipe_source_simple: false,
    };
    let root = tree.root_node();
    w.out.parse_error = root.has_error();
    w.statement(root, false);
    w.out
}

/// Removes backslash escapes of an unquoted word (`\<newline>` vanishes).
pub fn unescape_word(s: &str) -> String {
    unescape(s, |_| true)
}

/// Inside double quotes a backslash escapes only `"`, `\`, `$`, `` ` `` and
/// a newline.
fn unescape_dq(s: &str) -> String {
    unescape(s, |n| matches!(n, '"' | '\\' | '$' | '`' | '\n'))
}

fn unescape(s: &str, escapes: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        match (c, it.peek().copied()) {
            ('\\', Some(n)) if escapes(n) => {
                it.next();
                if n != '\n' {
                    out.push(n);
                }
            }
            // Ending an unquoted word (where any character is escaped) a
            // backslash escapes nothing and goes; in quotes it stays.
            ('\\', None) if escapes('x') => {}
            _ => out.push(c),
        }
    }
    out
}

/// The working folder after `cd` to a place known only at run time.
pub const UNKNOWN_DIR: &str = "$(unknown)";

/// The working folder after `cd -` or `cd "$OLDPWD"`: where the shell was
/// before, not the project as far as this line shows.
pub const ELSEWHERE_DIR: &str = "$(elsewhere)";

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

fn has_background(n: Node) -> bool {
    let mut c = n.walk();
    n.children(&mut c)
        .any(|k| (!k.is_named() && k.kind() == "&") || (k.is_named() && has_background(k)))
}

impl<'a> Walker<'a> {
    fn text(&self, n: Node) -> &'a str {
        n.utf8_text(self.src.as_bytes()).unwrap_or("")
    }

    /// The grammar drops a word standing right before a heredoc (`make -f -
    /// <<EOF`): whatever lies between the command and its first redirect is
    /// given back to the command, as literals, or as run-time text when it
    /// is more than plain characters.
    fn words_before_redirect(&mut self, n: Node, target: Option<usize>) {
        let (Some(body), Some(i)) = (n.child_by_field_name("body"), target) else {
            return;
        };
        let mut cursor = n.walk();
        let Some(first) = n
            .children_by_field_name("redirect", &mut cursor)
            .next()
            .filter(|r| r.start_byte() > body.end_byte())
        else {
            return;
        };
        let Some(gap) = self.src.get(body.end_byte()..first.start_byte()) else {
            return;
        };
        for piece in gap.split_whitespace() {
            let mut w = Word::lit(piece);
            w.dynamic = !piece
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "-_./=:,+@%".contains(ch));
            self.out.commands[i].argv.push(w);
        }
    }

    /// Walks statements; `nested` marks commands inside substitutions.
    fn statement(&mut self, n: Node, nested: bool) {
        match n.kind() {
            "command" => {
                // `let x=n+1` evaluates its arguments.
                let t = self.text(n).to_string();
                if t.starts_with("let ") {
                    self.arithmetic(&t);
                }
                self.command(n, nested);
            }
            // `( dir=./build )`: assignments and `cd` inside stay inside.
            "subshell" => {
                let saved = (self.vars.clone(), self.cwd.clone());
                let mut c = n.walk();
                let kids: Vec<Node> = n.named_children(&mut c).collect();
                for k in kids {
                    self.statement(k, nested);
                }
                (self.vars, self.cwd) = saved;
            }
            "redirected_statement" => {
                let before = self.out.commands.len();
                if let Some(body) = n.child_by_field_name("body") {
                    // `… | while read f; do …; done < file`: the loop's
                    // input is the file, whatever the pipe carries.
                    let tail = self.src.get(body.end_byte()..n.end_byte()).unwrap_or("");
                    let input = tail.contains('<');
                    // `done < <(git ls-files …)`: the loop reads that
                    // command, which is parsed after the body; its lines are
                    // tied to it below.
                    let from_procsub =
                        tail.trim_start().starts_with("< <(") && tail.matches('<').count() == 2;
                    let outer = self.pipe_input_replaced;
                    let outer_source = self.pipe_source;
                    if from_procsub {
                        self.pipe_source = Some(PENDING_SOURCE);
                    } else {
                        self.pipe_input_replaced |= input;
                    }
                    // `while read -r t; do …; done < list` over a list this
                    // line wrote: its lines are known.
                    let written = self.input_written_here(n);
                    if !written
                        .as_ref()
                        .is_some_and(|t| self.read_loop_over(body, t, nested))
                    {
                        self.statement(body, nested);
                    }
                    self.pipe_input_replaced = outer;
                    self.pipe_source = outer_source;
                }
                // The body's last command, found before the redirects'
                // own substitutions add commands of their own.
                let target =
                    (self.out.commands.len() > before).then(|| self.out.commands.len() - 1);
                self.words_before_redirect(n, target);
                let redirects = self.redirects(n);
                self.tie_pending_source(before, &redirects);
                // `read -r f < file` reads the file, not the pipe.
                if let Some(i) = target
                    && self.out.commands[i]
                        .argv
                        .first()
                        .is_some_and(|w| w.text == "read")
                {
                    for w in self.out.commands[i].argv[1..].iter() {
                        self.vars.lines.remove(&w.text);
                    }
                }
                if let Some(i) = target {
                    self.remember_written(i, &redirects, n);
                }
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
                let outer_source = self.pipe_source;
                // Each stage of a pipeline runs in a subshell: what it sets
                // is gone after (`echo x | read d` leaves `d` as it was).
                // (Unless `lastpipe` keeps the last one in this shell.)
                let scope = (stages.len() > 1 && !self.src.contains("lastpipe"))
                    .then(|| (self.vars.clone(), self.cwd.clone()));
                let outer_simple = self.pipe_source_simple;
                let mut simple = false;
                for stage in stages {
                    let before = self.out.commands.len();
                    // `… | while read f; do …; done < file` reads the file.
                    // A loop or group ending in its own redirect reads that.
                    let tail = self.text(stage).trim_end();
                    let own_input = stage.kind() == "redirected_statement"
                        || !(tail.ends_with("done")
                            || tail.ends_with('}')
                            || tail.ends_with(')')
                            || stage.kind() == "command");
                    self.pipe_source = prev.filter(|_| !own_input);
                    self.pipe_source_simple = simple;
                    self.statement(stage, nested);
                    self.pipe_source = outer_source;
                    self.pipe_source_simple = outer_simple;
                    // What the next stage reads is this one's, whole, only
                    // when this one is a single command (not `{ a; b; }`).
                    simple = stage.kind() == "command";
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
                if let Some((vars, cwd)) = scope {
                    self.vars = vars;
                    self.cwd = cwd;
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
            "declaration_command" | "unset_command" => self.declaration(n, nested),
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
                    // `f() { cat; } < ~/.ssh/id_rsa`: the redirect applies
                    // at every call, so it travels with the body.
                    let mut c = n.walk();
                    let redirs: Vec<String> = n
                        .named_children(&mut c)
                        .filter(|k| k.kind().ends_with("redirect"))
                        .map(|k| self.text(k).to_string())
                        .collect();
                    let stored = if redirs.is_empty() {
                        inner.to_string()
                    } else {
                        format!("{{ {inner}\n}} {}", redirs.join(" "))
                    };
                    // Defined in a subshell, a branch, a pipeline or the
                    // background, it may not exist at a later call: the call
                    // is judged as the program of that name, the body alone.
                    let sure = !vars::conditional(n);
                    if sure {
                        self.out.functions.push((name.clone(), stored.clone()));
                    }
                    self.current_fn.push(name.clone());
                    let start = self.out.commands.len();
                    self.statement(body, nested);
                    let end = self.out.commands.len();
                    if sure {
                        self.out.function_spans.push((name.clone(), start..end));
                        self.out.function_defs.push((name, start, stored));
                    }
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
                if !self.read_loop_over_printed(n, nested) {
                    self.children(n, nested);
                }
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
            // `(( n ))` and `[[ $n -gt 0 ]]` evaluate their operands.
            "test_command" | "arithmetic_expansion" | "compound_statement"
                if n.kind() != "compound_statement" || self.text(n).starts_with("((") =>
            {
                let t = self.text(n).to_string();
                let arith = t.starts_with("((")
                    || ["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]
                        .iter()
                        .any(|op| t.split_whitespace().any(|w| w == *op));
                if arith {
                    self.arithmetic(&t);
                }
                self.children(n, nested);
            }
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
            if let Some(elements) = self.array_elements(self.text(v)) {
                values.extend(elements.into_iter().map(Word::lit));
                continue;
            }
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
            // `for x; do …` iterates the positional parameters: known after
            // a `set -- a b` of this line, else not.
            if self.positional.len() > 1 {
                values = self.positional[1..].iter().map(Word::lit).collect();
            } else {
                self.vars.known.remove(&var);
                self.statement(body, nested);
                return;
            }
        }
        // The body once per value, so a dangerous value anywhere in the list counts.
        self.vars.lines.remove(&var);
        let more = values.len() > MAX_LOOP_VALUES;
        for v in values.into_iter().take(MAX_LOOP_VALUES) {
            if v.dynamic {
                self.vars.known.remove(&var);
                self.vars.from.insert(var.clone(), v.subs.clone());
            } else {
                self.vars.known.insert(var.clone(), v.text.clone());
            }
            self.statement(body, nested);
        }
        // Past the cap, the rest as one value known only at run time.
        if more {
            self.vars.known.remove(&var);
            self.vars.from.remove(&var);
            self.statement(body, nested);
        }
    }

    fn assignment(&mut self, n: Node, nested: bool) -> (Option<String>, Word) {
        let name = n
            .child_by_field_name("name")
            .map(|x| self.text(x).to_string())
            .map(|x| self.vars.refs.get(&x).cloned().unwrap_or(x));
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
                let mut elements = Some(Vec::new());
                // `[key]=value` keys are names only in `declare -A`; in a
                // plain array they are arithmetic (`[safe]` is 0).
                let assoc = n.parent().is_some_and(|p| {
                    p.kind() == "declaration_command"
                        && self
                            .text(p)
                            .split_whitespace()
                            .any(|t| t.starts_with('-') && !t.starts_with("--") && t.contains('A'))
                });
                for k in kids {
                    let x = self.word(k, nested);
                    let raw = self.text(k);
                    if x.dynamic || x.text.contains('{') {
                        elements = None;
                    } else if let Some(e) = elements.as_mut() {
                        // `[key]=value`: kept as key and value.
                        match raw.strip_prefix('[').and_then(|r| r.split_once("]=")) {
                            Some(_) if !assoc => elements = None,
                            Some((key, _)) => {
                                let value = x
                                    .text
                                    .split_once("]=")
                                    .map(|(_, v)| v)
                                    .unwrap_or(&x.text)
                                    .trim_matches(['"', '\''])
                                    .to_string();
                                e.push(format!("{key}{}{value}", vars::KEYED));
                            }
                            None => e.push(x.text.clone()),
                        }
                    }
                    w.subs.extend(x.subs);
                }
                if let Some(name) = &name {
                    match elements {
                        Some(e)
                            if !self.text(n).contains("+=")
                                && self.vars.stable_arrays.contains(name) =>
                        {
                            self.vars.arrays.insert(name.clone(), e);
                        }
                        _ => {
                            self.vars.arrays.remove(name);
                        }
                    }
                }
                w
            }
            Some(v) => {
                if let Some(name) = &name {
                    self.vars.arrays.remove(name);
                }
                self.word_at_start(v, nested, true)
            }
            None => Word::lit(""),
        };
        // `J+=vis` appends to what J held.
        let appends = self
            .text(n)
            .split_once('=')
            .is_some_and(|(l, _)| l.ends_with('+'));
        let value = match (&name, appends) {
            (Some(name), true) => match self.vars.known.get(name) {
                Some(before) if !value.dynamic => Word {
                    text: format!("{before}{}", value.text),
                    ..value
                },
                _ => Word {
                    dynamic: true,
                    computed: true,
                    ..value
                },
            },
            _ => value,
        };
        if let Some(name) = &name {
            self.vars.lines.remove(name);
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

    /// `text` with `$name` and `${name}` replaced by the values this line
    /// gave them, where those are plain words (a path, a number).
    fn with_known(&self, text: &str) -> String {
        let plain = |v: &str| {
            !v.is_empty()
                && v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_./~:+@%,-".contains(c))
        };
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            let braced = after.starts_with('{');
            let body = after.trim_start_matches('{');
            let name: String = body
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let closed = !braced || body[name.len()..].starts_with('}');
            match self.vars.known.get(&name).filter(|v| closed && plain(v)) {
                Some(v) if !name.is_empty() => {
                    out.push_str(v);
                    rest = &body[name.len() + usize::from(braced)..];
                }
                _ => {
                    out.push('$');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// A name reference: `name` reads as the variable `target` does.
    fn alias_variable(&mut self, name: &str, target: &str) {
        let ident = !target.is_empty()
            && target
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if ident {
            self.vars.refs.insert(name.to_string(), target.to_string());
        }
        match self.lookup(target) {
            Some(v) => {
                self.vars.known.insert(name.to_string(), v);
                self.vars.from.remove(name);
            }
            None => {
                self.vars.known.remove(name);
                let subs = self.vars.from.get(target).cloned().unwrap_or_default();
                self.vars.from.insert(name.to_string(), subs);
            }
        }
    }

    /// Substitutions bash runs out of a variable's value: the value of a
    /// variable in arithmetic (`[[ $n -gt 0 ]]` with `n='a[$(cmd)]'`), or
    /// prompt-expanded (`${p@P}`). Recorded as the `eval` of the value in
    /// double quotes that it amounts to (the value is not itself a command);
    /// a value nobody knows is evaluated as it stands.
    pub(super) fn evaluated_value(&mut self, value: Word) -> usize {
        let code = if value.dynamic {
            value
        } else {
            Word::lit(format!(
                "echo \"{}\"",
                value.text.replace('\\', "\\\\").replace('"', "\\\"")
            ))
        };
        self.out.commands.push(Command {
            argv: vec![Word::lit("eval"), code],
            cwd: self.cwd.clone(),
            nested: true,
            ..Default::default()
        });
        self.out.commands.len() - 1
    }

    /// The variables an arithmetic context reads whose values hold a
    /// command substitution: bash runs it when it evaluates them.
    pub(super) fn arithmetic(&mut self, text: &str) -> Vec<usize> {
        let mut out = Vec::new();
        let names: Vec<String> = text
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|s| !s.is_empty() && !s.starts_with(|c: char| c.is_ascii_digit()))
            .map(str::to_string)
            .collect();
        for name in names {
            if let Some(v) = self.vars.known.get(&name).cloned()
                && (v.contains("$(") || v.contains('`'))
            {
                out.push(self.evaluated_value(Word::lit(v)));
            }
        }
        out
    }

    /// `export X=…`, `declare -x X=…`, `local`, `readonly`: assignments, and
    /// a command of its own (`export -p` prints the environment).
    fn declaration(&mut self, n: Node, nested: bool) {
        let mut argv = Vec::new();
        let mut assigns = Vec::new();
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.children(&mut cursor).collect();
        // `declare -n d=HOME`: `$d` is `$HOME` from here on.
        let mut nameref = false;
        let (mut case_lower, mut case_upper) = (false, false);
        for k in kids {
            if !k.is_named() {
                let t = self.text(k);
                if argv.is_empty() && !t.trim().is_empty() {
                    argv.push(Word::lit(t));
                }
                continue;
            }
            if k.kind() == "variable_assignment" {
                let (name, mut value) = self.assignment(k, nested);
                // `typeset -l d=/HOME/U`: the value stored lower-cased.
                if let Some(name) = &name
                    && !value.dynamic
                    && (case_lower || case_upper)
                {
                    value.text = if case_lower {
                        value.text.to_lowercase()
                    } else {
                        value.text.to_uppercase()
                    };
                    self.vars.known.insert(name.clone(), value.text.clone());
                }
                if let Some(name) = name {
                    if nameref && !value.dynamic {
                        self.alias_variable(&name, &value.text);
                    }
                    assigns.push((name, value));
                }
            } else {
                let t = self.text(k);
                nameref |= t.starts_with('-') && !t.starts_with("--") && t.contains('n');
                case_lower |= t.starts_with('-') && !t.starts_with("--") && t.contains('l');
                case_upper |= t.starts_with('-') && !t.starts_with("--") && t.contains('u');
                let w = self.word(k, nested);
                // `declare "$n=/tmp/x:$PATH"` with `n` known: an assignment
                // to the variable it names.
                if !t.starts_with('-')
                    && t.contains('$')
                    && let Some((name, value)) = w.text.split_once('=')
                    && !name.is_empty()
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    let value = Word {
                        text: value.to_string(),
                        ..w.clone()
                    };
                    self.vars.known.remove(name);
                    assigns.push((name.to_string(), value));
                    continue;
                }
                argv.push(w);
            }
        }
        self.forget_set_names(&argv);
        self.out.commands.push(Command {
            argv,
            assigns,
            cwd: self.cwd.clone(),
            nested,
            ..Default::default()
        });
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
                // `sh 0<&2`: the grammar splits the descriptor off its
                // redirect, and after `&&` hangs the redirect on the whole
                // list; digits right before `<`/`>` are never an argument.
                "number" | "word"
                    if self.text(k).bytes().all(|b| b.is_ascii_digit())
                        && (kids.get(i + 1).is_some_and(|n| {
                            n.kind() == "file_redirect" && n.start_byte() == k.end_byte()
                        }) || self
                            .src
                            .get(k.end_byte()..)
                            .is_some_and(|rest| rest.starts_with(['<', '>']))) =>
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
            let spelled = self
                .src
                .get(kids[i].start_byte()..kids[end].end_byte())
                .unwrap_or("");
            // Operands only: a program named by an array stays a name
            // computed at run time (`a=(rm -rf x); "${a[@]}"`).
            if !argv.is_empty()
                && let Some(elements) = self.array_elements(spelled)
            {
                argv.extend(elements.into_iter().map(Word::lit));
                i = end + 1;
                continue;
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
        self.bind_read(&argv, &redirects, &assigns);
        self.forget_set_names(&argv);
        self.printf_to_variable(&argv);
        self.set_positional(&argv, n);
        // A trap's code runs later in this same shell, and `eval`'s now:
        // with the values this line gave its variables
        // (`tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT`).
        if argv
            .first()
            .is_some_and(|w| w.text == "trap" || w.text == "eval")
        {
            for w in argv.iter_mut().skip(1).filter(|w| !w.dynamic) {
                w.text = self.with_known(&w.text);
            }
        }
        self.track_cd(&argv);
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
}
#[cfg(test)]
mod gap_tests {
    #[test]
    fn a_word_right_before_a_heredoc_is_kept() {
        let s = super::parse("make -f - <<EOF\nall:\n\ttrue\nEOF", &[]);
        let argv: Vec<&str> = s.commands[0].argv.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(argv, ["make", "-f", "-"]);
        let s = super::parse("cat - > out", &[]);
        let argv: Vec<&str> = s.commands[0].argv.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(argv, ["cat", "-"]);
    }
}
