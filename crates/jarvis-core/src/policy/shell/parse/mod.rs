//! Shell text → the simple commands it would run, via tree-sitter-bash.
//! Quoting, escapes, `$'…'`, brace lists, tilde, variables assigned earlier
//! in the line, `for` loops over static words, `$0…` in `sh -c`, and
//! substitutions whose output is known (`echo`, `printf`, `pwd`, `dirname`)
//! are resolved statically; anything else is marked dynamic. Each word also
//! records how it was spelled, because a program name built from quotes,
//! variables or escapes is itself a sign of obfuscation.

mod arith;
mod assign;
mod branches;
mod command;
mod cwd;
mod extensions;
mod heredoc;
mod operators;
mod reads;
mod statements;
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
    /// A value known to be one of these (a variable set differently in an
    /// `if`'s or a `case`'s branches, an array read at an unknown index).
    pub choices: Vec<String>,
    /// With `choices`: it may also be something else, unknown.
    pub open: bool,
    /// How that something else is spelled (`$GITHUB_TOKEN`), for the rules
    /// that read a variable's name.
    pub open_as: String,
}

impl Word {
    pub fn lit(s: impl Into<String>) -> Self {
        Word {
            text: s.into(),
            ..Default::default()
        }
    }

    /// The values this word may take, when it has choices: each choice, or
    /// its one text when that is known.
    fn values(&self) -> Option<Vec<String>> {
        if !self.choices.is_empty() {
            Some(self.choices.clone())
        } else if !self.dynamic {
            Some(vec![self.text.clone()])
        } else {
            None
        }
    }

    fn merge(&mut self, other: Word) {
        if !self.choices.is_empty() || !other.choices.is_empty() {
            let joined = match (self.values(), other.values()) {
                (Some(a), Some(b)) if a.len() * b.len() <= MAX_CHOICES => a
                    .iter()
                    .flat_map(|x| b.iter().map(move |y| format!("{x}{y}")))
                    .collect(),
                _ => Vec::new(),
            };
            // Too many to follow: a value nobody knows.
            self.dynamic |= joined.is_empty();
            self.open |= other.open;
            self.choices = joined;
            // The unknown way spelled whole: each side as the variable it
            // reads, or its text.
            let spell = |w: &Word| {
                if w.open_as.is_empty() {
                    w.text.clone()
                } else {
                    w.open_as.clone()
                }
            };
            self.open_as = format!("{}{}", spell(self), spell(&other));
        }
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
    /// The descriptor written before the operator (`2>`), when one is.
    pub fd: Option<String>,
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
        self.writes_file() && self.fd.as_deref().is_none_or(|fd| fd == "1")
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
    /// Where in the line it is written: a loop's body walked once per value
    /// gives the same place to each of its commands.
    pub at: usize,
    /// The folders it may run in, when a branch left several (`cwd` is
    /// the one judged where only one can be).
    pub cwd_choices: Vec<Option<String>>,
    /// `export NAME=v`, `declare -x NAME=v`: the assignments are the
    /// declaration's own, not an environment set before a program.
    pub declares: bool,
}

#[derive(Debug, Default)]
pub struct Script {
    pub commands: Vec<Command>,
    pub parse_error: bool,
    /// Functions that call themselves (`:(){ :|:& };:`).
    pub recursive_functions: Vec<String>,
    /// `name() { body }`, with the body's source.
    pub functions: Vec<(String, String)>,
    /// Functions defined where a later call may not see them (a branch, a
    /// subshell): each call of the name may run the body or a program.
    pub maybe_functions: Vec<(String, String)>,
    /// The commands of each function's body, as parsed where it is defined.
    pub function_spans: Vec<(String, std::ops::Range<usize>)>,
    /// Each definition: name, where its body's commands start, its body.
    pub function_defs: Vec<(String, usize, String)>,
    /// An endless loop that starts background jobs (`while true; do x & done`).
    pub spawning_loop: bool,
    /// An endless loop that writes from an endless source or allocates
    /// space each time round (`while :; do head -c 1G /dev/zero > f$i; …`).
    pub filling_loop: bool,
    /// An endless loop that keeps reading the clipboard, the screen or
    /// the keyboard.
    pub watching_loop: bool,
    /// A brace expansion where a command starts (`{wget,-qO,f,URL}`): the
    /// grammar cannot read it, bash runs the program it spells.
    pub brace_program: bool,
    /// Command substitutions (their commands) whose output arithmetic
    /// evaluates (`[[ $(cmd) -eq 1 ]]`): `a[$(x)]` in that output runs x.
    pub evaluated_outputs: Vec<Vec<usize>>,
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
    /// Variables set differently on the ways through a branch: the values
    /// they may hold, and whether they may also hold one not known.
    alts: HashMap<String, (Vec<String>, bool)>,
    /// Variables holding another's value not known here (`pp=$PPID`): read,
    /// they are spelled as that one is, for the rules that read it.
    copies: HashMap<String, String>,
    /// The folders a branch may have left the line in, when several.
    cwd_alts: Vec<Option<String>>,
    /// Every name the line has set or changed so far.
    seen: std::collections::HashSet<String>,
    /// Names declared integers (`declare -i n`): an assignment evaluates.
    integers: std::collections::HashSet<String>,
}

impl Vars {
    /// The variable is set to a value not known here. An element written
    /// (`a[0]`) changes its array: no longer known, nor a listing's lines.
    fn forget(&mut self, name: &str) -> Option<String> {
        let base = name.split('[').next().unwrap_or(name);
        if base != name {
            // `i[0]=1` sets the scalar `i` too.
            self.arrays.remove(base);
            self.lines.remove(base);
            self.known.remove(base);
            self.alts.remove(base);
        }
        self.seen.insert(base.to_string());
        self.alts.remove(name);
        self.copies.remove(name);
        self.known.remove(name)
    }

    /// `name` as it was in `before` (a function's local, gone after it).
    fn restore(&mut self, name: &str, before: &Vars) {
        match before.known.get(name) {
            Some(v) => {
                self.known.insert(name.to_string(), v.clone());
            }
            None => {
                self.known.remove(name);
            }
        }
        match before.from.get(name) {
            Some(v) => self.from.insert(name.to_string(), v.clone()),
            None => self.from.remove(name),
        };
        match before.alts.get(name) {
            Some(v) => self.alts.insert(name.to_string(), v.clone()),
            None => self.alts.remove(name),
        };
        match before.copies.get(name) {
            Some(v) => self.copies.insert(name.to_string(), v.clone()),
            None => self.copies.remove(name),
        };
        match before.arrays.get(name) {
            Some(v) => self.arrays.insert(name.to_string(), v.clone()),
            None => self.arrays.remove(name),
        };
        if !before.seen.contains(name) {
            self.seen.remove(name);
        }
    }

    fn set(&mut self, name: String, value: String) -> Option<String> {
        // An element (`a[0]=x`): its array, or the scalar, is not known.
        if name.contains('[') {
            return self.forget(&name);
        }
        self.seen.insert(name.clone());
        self.alts.remove(&name);
        self.copies.remove(&name);
        self.known.insert(name, value)
    }
}

/// The functions on a cycle of calls (`a(){ b & b; }; b(){ a & a; }`).
fn call_cycles(calls: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (start, _) in calls {
        // Who `start` reaches through the calls; back at `start` is a cycle.
        let mut seen: Vec<&str> = Vec::new();
        let mut todo: Vec<&str> = vec![start];
        while let Some(f) = todo.pop() {
            for (_, callee) in calls.iter().filter(|(c, _)| c == f) {
                if callee == start && !out.contains(start) {
                    out.push(start.clone());
                }
                if !seen.contains(&callee.as_str()) {
                    seen.push(callee);
                    todo.push(callee);
                }
            }
        }
    }
    out
}

struct Walker<'a> {
    src: &'a str,
    vars: Vars,
    positional: Vec<String>,
    /// The operands were set by `set --` in this text: a program named by
    /// `"$@"` then is a name assembled at run time.
    positional_set: bool,
    cwd: Option<String>,
    out: Script,
    current_fn: Vec<String>,
    /// Calls from one function to another that multiply or that nothing
    /// guards (caller, callee): a cycle of them is a fork bomb too.
    fn_calls: Vec<(String, String)>,
    /// `shopt -s cdable_vars` was run: `cd NAME` may go to `$NAME`.
    cdable_vars: bool,
    /// Functions that call themselves and change directory: after a call,
    /// the line is in a folder reached an unknown number of times.
    recursive_movers: std::collections::HashSet<String>,
    /// The last command of the pipeline stage before the one being read:
    /// what a `read` in this stage reads.
    pipe_source: Option<usize>,
    /// Inside a statement whose input a redirect replaces.
    pipe_input_replaced: bool,
    /// Files this line wrote with text it shows (`echo a > list`).
    written: HashMap<String, (String, Option<String>)>,
    /// The stage before the one being read is one simple command.
    pipe_source_simple: bool,
    /// `trap` commands: their code runs later, with the values the line
    /// has then.
    traps: Vec<usize>,
    /// Each function's effect at a call: the variables it sets, to a
    /// literal or to a value not known.
    fn_sets: HashMap<String, Vec<(String, Option<String>)>>,
    /// Each function whose body moves: the places it may leave the line in.
    fn_cwds: HashMap<String, (Option<String>, Vec<Option<String>>)>,
    /// Where a function call just walked leaves the line, applied once the
    /// call itself is recorded.
    after_call: Option<Vec<Option<String>>>,
    /// Where the last `cd` lands when it succeeds. A `cd` may fail (the
    /// folder is missing) and the shell stays where it was: after it, the
    /// line is in either place, unless `&&` goes on only on success.
    cd_success: Option<Vec<Option<String>>>,
    /// Every word any `NAME=(…)` or `NAME+=(…)` of the line gave an array,
    /// on any way through a branch or a loop: an array grown piece by piece
    /// holds at most these (`args+=(-F "f=@$f")` once per file).
    grown: HashMap<String, Vec<Word>>,
}

const MAX_LOOP_VALUES: usize = 16;

/// The most values a word's choices are tracked for.
const MAX_CHOICES: usize = 16;

/// Stands for a loop's input command until it is parsed (`done < <(…)`).
const PENDING_SOURCE: usize = usize::MAX;

thread_local! {
    // Building a parser and loading the grammar costs more than most parses.
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parses `src` as bash reads it (see `parse_once`), mending the
/// grammar's known misreadings.
fn parse_tree(p: &mut Parser, src: &str) -> Option<(tree_sitter::Tree, Option<String>)> {
    let (mut tree, mut fixed) = parse_once(p, src)?;
    // tree-sitter-bash glues a line to the last command of a pipeline of
    // three or more on the line before, when the line ends in a redirect
    // (`a | b | c⏎rm -rf ~ 2>/dev/null` reads as `c rm -rf ~`). Bash ends a
    // simple command at an unquoted newline: that newline is a `;`, and the
    // same length keeps every offset.
    for _ in 0..8 {
        let text = fixed.as_deref().unwrap_or(src);
        let glued = glued_newlines(tree.root_node(), text);
        if glued.is_empty() {
            break;
        }
        let mut bytes = text.as_bytes().to_vec();
        for (comment, i) in glued {
            // A comment before it would swallow the `;` and the line after.
            for b in &mut bytes[comment] {
                *b = b' ';
            }
            bytes[i] = b';';
        }
        let Ok(repaired) = String::from_utf8(bytes) else {
            break;
        };
        let (t, again) = parse_once(p, &repaired)?;
        tree = t;
        fixed = Some(again.unwrap_or(repaired));
    }
    Some((tree, fixed))
}

/// A `{` the grammar took for a group's start with a word right after it
/// (a group needs a blank there): bash brace-expands that word instead.
fn brace_at_command(root: tree_sitter::Node) -> bool {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        let mut cursor = n.walk();
        let kids: Vec<tree_sitter::Node> = n.children(&mut cursor).collect();
        for (i, k) in kids.iter().enumerate() {
            if k.kind() == "{"
                && kids
                    .get(i + 1)
                    .is_some_and(|next| next.start_byte() == k.end_byte())
            {
                return true;
            }
            stack.push(*k);
        }
    }
    false
}

/// Newlines the grammar read as blanks between a simple command's words,
/// each with the comment that ends there (empty when none).
fn glued_newlines(root: tree_sitter::Node, src: &str) -> Vec<(std::ops::Range<usize>, usize)> {
    let mut out = Vec::new();
    if !src.contains('\n') {
        return out;
    }
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        let simple = matches!(
            n.kind(),
            "command" | "declaration_command" | "unset_command"
        );
        let mut cursor = n.walk();
        let mut prev: Option<tree_sitter::Node> = None;
        for k in n.children(&mut cursor) {
            if let Some(before) = prev.filter(|_| simple) {
                let end = before.end_byte();
                let gap = src.get(end..k.start_byte()).unwrap_or("");
                if gap.trim().is_empty()
                    && let Some(at) = gap.find('\n')
                {
                    let comment = if before.kind() == "comment" {
                        before.byte_range()
                    } else {
                        end..end
                    };
                    out.push((comment, end + at));
                }
            }
            prev = Some(k);
            stack.push(k);
        }
    }
    out
}

/// One parse of `src`, terminated with `;` when that is the same script: bash
/// treats `X;` as `X`, and the terminator spares tree-sitter-bash an error
/// recovery on a dead parse branch that costs ~60 µs for every pipeline of
/// three or more commands. Taken only when the `;` parses as the script's
/// own last token; anything else (a heredoc, a comment, an escape) parses as
/// written.
fn parse_once(p: &mut Parser, src: &str) -> Option<(tree_sitter::Tree, Option<String>)> {
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
            alts: HashMap::new(),
            copies: HashMap::new(),
            cwd_alts: Vec::new(),
            seen: Default::default(),
            integers: Default::default(),
        },
        positional: positional.to_vec(),
        positional_set: false,
        cwd: None,
        out: Script::default(),
        current_fn: vec![],
        fn_calls: Vec::new(),
        cdable_vars: false,
        recursive_movers: Default::default(),
        pipe_source: None,
        pipe_input_replaced: false,
        written: HashMap::new(),
        pipe_source_simple: false,
        traps: Vec::new(),
        fn_sets: HashMap::new(),
        fn_cwds: HashMap::new(),
        after_call: None,
        cd_success: None,
        grown: HashMap::new(),
    };
    let root = tree.root_node();
    w.out.parse_error = root.has_error();
    w.out.brace_program = w.out.parse_error && brace_at_command(root);
    w.statement(root, false);
    w.out.recursive_functions.extend(call_cycles(&w.fn_calls));
    // An EXIT trap runs at the end: with the variables as the line left them
    // (`trap 'rm -f "$tmp"' EXIT; tmp=$(mktemp)`).
    for i in std::mem::take(&mut w.traps) {
        let words: Vec<String> = w.out.commands.get(i).map_or_else(Vec::new, |c| {
            c.argv.iter().map(|a| a.text.clone()).collect()
        });
        for (k, text) in words.iter().enumerate().skip(1) {
            let known = w.with_known(text);
            if let Some(a) = w.out.commands.get_mut(i).and_then(|c| c.argv.get_mut(k))
                && !a.dynamic
            {
                a.text = known;
            }
        }
    }
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

impl<'a> Walker<'a> {
    fn text(&self, n: Node) -> &'a str {
        n.utf8_text(self.src.as_bytes()).unwrap_or("")
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
