//! Makefile text given on the command line or written by the line: what
//! its recipes hand the shell.

use super::exec::lone_shell;
use super::*;

/// The commands of every `$(shell …)` / `${shell …}` in make text, with
/// nested parentheses balanced.
pub(super) fn make_shell_calls(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for open in ["$(shell", "${shell"] {
        let first = if open.starts_with("$(") { '(' } else { '{' };
        for (at, _) in text.match_indices(open) {
            let body = &text[at + open.len()..];
            if !body.starts_with(char::is_whitespace) {
                continue;
            }
            out.push(body[..balanced(body, first)].trim().to_string());
        }
    }
    out
}

/// How far `body` (the text after an opening `(` or `{`) runs before the
/// bracket that closes it, nested pairs skipped; all of it when unclosed.
fn balanced(body: &str, open: char) -> usize {
    let close = if open == '(' { ')' } else { '}' };
    let mut level = 0usize;
    for (k, ch) in body.char_indices() {
        if ch == open {
            level += 1;
        } else if ch == close {
            if level == 0 {
                return k;
            }
            level -= 1;
        }
    }
    body.len()
}

/// `target: prereqs ; recipe`: a recipe on the rule's own line.
pub(super) fn inline_recipe(line: &str) -> Option<&str> {
    let (head, rest) = line.split_once(':')?;
    if head.contains('=') || rest.starts_with('=') {
        return None;
    }
    let (_, recipe) = rest.split_once(';')?;
    Some(recipe.trim())
}

/// A recipe as the shell receives it, `$$` made `$`. `$(shell …)` is
/// judged on its own.
pub(super) fn make_expanded(recipe: &str) -> String {
    let mut out = String::new();
    let mut rest = recipe;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let mut chars = after.chars();
        rest = match chars.next() {
            Some('$') => {
                out.push('$');
                chars.as_str()
            }
            Some(open @ ('(' | '{')) => {
                let body = chars.as_str();
                let end = balanced(body, open);
                out.push_str(&make_reference(&out, &body[..end]));
                // Past the closing bracket, when there is one.
                body.get(end + 1..).unwrap_or("")
            }
            Some(c) => {
                out.push_str(&make_reference(&out, &c.to_string()));
                chars.as_str()
            }
            None => {
                out.push('$');
                ""
            }
        };
    }
    out.push_str(rest);
    out
}

/// What a make reference stands for in a recipe: the environment's places
/// are theirs (`$(HOME)` is `$HOME`); any other is a value known only when
/// make runs, a plain word where a program's name goes (`$(CC) -o x`).
pub(super) fn make_reference(before: &str, name: &str) -> String {
    let env = matches!(
        name,
        "HOME" | "USER" | "PWD" | "OLDPWD" | "TMPDIR" | "XDG_CONFIG_HOME" | "XDG_DATA_HOME"
    );
    let at_command = before
        .trim_end()
        .chars()
        .next_back()
        .is_none_or(|c| matches!(c, ';' | '|' | '&' | '(' | '@'));
    if env {
        format!("${{{name}}}")
    } else if at_command {
        "makevar".into()
    } else {
        "\"$MAKEVAR\"".into()
    }
}

/// The folder `make -C DIR` (`--directory`, bundled `-sC DIR`, glued
/// `-CDIR`) runs in.
fn make_dir(c: &Cmd<'_>) -> Option<String> {
    for (i, a) in c.args.iter().enumerate() {
        if let Some(v) = a.strip_prefix("--directory=") {
            return Some(v.to_string());
        }
        if a == "--directory" {
            return c.args.get(i + 1).cloned();
        }
        let Some(bundle) = a.strip_prefix('-').filter(|b| !b.starts_with('-')) else {
            continue;
        };
        if let Some(at) = bundle.find('C')
            && bundle[..at]
                .chars()
                .all(|ch| "BdeikLnpqrRsStvw".contains(ch))
        {
            let glued = &bundle[at + 1..];
            return if glued.is_empty() {
                c.args.get(i + 1).cloned()
            } else {
                Some(glued.to_string())
            };
        }
    }
    None
}

impl Analyzer<'_> {
    /// `make`: the makefile it reads and what the line sets for it.
    pub(super) fn make(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let depth = c.depth;
        let script = c.script;
        if !c
            .args
            .iter()
            .any(|a| a == "-f" || a == "--file" || a == "--makefile")
        {
            let dir = make_dir(c).unwrap_or_else(|| ".".into());
            for name in ["GNUmakefile", "makefile", "Makefile"] {
                let f = Word::lit(format!("{dir}/{name}"));
                if let Some(text) = self.written_text(&f, c.cwd()) {
                    self.makefile(&text, depth);
                }
                // In a folder this line downloaded or cloned (`git clone …
                // d && make -C d install`): the recipes are that code.
                if self.is_tainted(&f, c.cwd()) {
                    self.block(format!(
                        "download and execute (make runs the recipes of a makefile in {dir}, which this line downloaded or cloned)"
                    ));
                }
            }
        }
        for a in &c.args {
            if let Some(text) = a.strip_prefix("--eval=") {
                self.makefile(text, depth);
            }
        }
        // `make CC='sh -c "…"'`: a variable set on the command line
        // is what the recipes run.
        for w in c.words.iter().skip(1) {
            if let Some((name, value)) = w.text.split_once('=')
                && !name.is_empty()
                && name
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
            {
                let v = Word {
                    text: value.to_string(),
                    ..w.clone()
                };
                // A value computed here (`BUILD_ID="$(date +%s)"`) is
                // data unless a download or a decoder made it; only
                // a spelled-out value is judged as the code it may be:
                // a command line, or one word given to a variable
                // that names a program (`CC`, `SHELL`, `*_CMD`).
                let one_word = !v.text.trim().contains(char::is_whitespace);
                if v.dynamic {
                    if let Some(why) = self.code_source(&v, script) {
                        self.block(format!("{why} (make is given a command built at run time)"));
                    }
                } else if !(program_and_options(&v.text)
                    || one_word && !names_program(name)
                    || name == "SHELL" && super::exec::lone_shell(&v.text))
                {
                    self.block_only(|a| a.shell_code(&v, &[], script, depth));
                }
            }
        }
        self.overrides_together(c);
        // `make -C ~/.jarvis`: recipes run and write in Jarvis's state.
        if let Some(d) = make_dir(c)
            && self.app_state(&self.norm_text(&d, c.cwd()))
        {
            self.block(format!("runs make in Jarvis's own state ({d})"));
        }
        for flag in ["--eval", "-E"] {
            if let Some(text) = c.value(flag).map(|w| w.text.clone()) {
                self.makefile(&text, depth);
            }
        }
        for (i, a) in c.args.iter().enumerate() {
            if (a == "-f" || a == "--file" || a == "--makefile")
                && let Some(f) = c.arg_word(i + 1).cloned()
            {
                // `make -f <(printf 'all:\n\t…')`: the makefile is what
                // the substitution prints.
                if f.procsub {
                    for text in f
                        .subs
                        .iter()
                        .filter_map(|&k| script.commands.get(k))
                        .filter_map(super::super::eval::printed)
                    {
                        self.makefile(&text, depth);
                    }
                }
                self.sourced(&f, c);
                // A makefile from a folder this line downloaded or cloned.
                let in_dir = match make_dir(c) {
                    Some(d) if !f.text.starts_with(['/', '~']) => Word {
                        text: format!("{}/{}", d.trim_end_matches('/'), f.text),
                        ..f.clone()
                    },
                    _ => f.clone(),
                };
                if self.is_tainted(&in_dir, c.cwd()) {
                    self.block(format!(
                        "download and execute (make runs the recipes of {}, which this line downloaded or cloned)",
                        shown(&in_dir.text)
                    ));
                }
            }
            self.make_shell_setting(a, depth);
        }
        self.ask(format!("runs {} (recipes run commands)", c.base));
        Some(false)
    }

    /// `task clean OUT="$HOME"`, `just OUT=~ clean`, with the task file
    /// this line wrote: each command a variable of the line fills in is
    /// judged filled (`rm -rf {{.OUT}}/*` runs as `rm -rf $HOME/*`).
    pub(super) fn task_vars(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let named =
            |n: &str| !n.is_empty() && n.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
        let vars: Vec<(String, String)> = c
            .words
            .iter()
            .skip(1)
            .filter_map(|w| w.text.split_once('='))
            .chain(c.assigns.iter().map(|(n, w)| (n.as_str(), w.text.as_str())))
            .filter(|(n, _)| named(n))
            .map(|(n, v)| (n.to_string(), v.replace(HOME, "$HOME")))
            .collect();
        if vars.is_empty() {
            return None;
        }
        let just = c.lb == "just";
        let given = super::script_opts::values(c, &["-f", "--justfile", "-t", "--taskfile"]);
        let files: Vec<Word> = if given.is_empty() {
            let names: &[&str] = if just {
                &["justfile", ".justfile", "Justfile"]
            } else {
                &[
                    "Taskfile.yml",
                    "Taskfile.yaml",
                    "taskfile.yml",
                    "taskfile.yaml",
                ]
            };
            names.iter().map(|n| Word::lit(*n)).collect()
        } else {
            given
        };
        for f in files {
            let Some(text) = self.written_text(&f, c.cwd()) else {
                continue;
            };
            let lines: Vec<String> = if just {
                text.lines()
                    .filter(|l| l.starts_with([' ', '\t']))
                    .map(|l| l.trim().trim_start_matches(['@', '-']).to_string())
                    .collect()
            } else {
                super::planted_parse::yaml_steps(&text)
            };
            for line in lines.iter().take(64) {
                let mut filled = line.clone();
                for (n, v) in &vars {
                    for spelled in [
                        format!("{{{{.{n}}}}}"),
                        format!("{{{{ .{n} }}}}"),
                        format!("{{{{{n}}}}}"),
                        format!("{{{{ {n} }}}}"),
                    ] {
                        filled = filled.replace(&spelled, v);
                    }
                }
                if filled != *line {
                    let w = Word::lit(filled);
                    self.block_only(|a| a.shell_code(&w, &[], c.script, c.depth));
                }
            }
        }
        None
    }

    /// `make clean DIRS='/home/u/Documents' RM='rm -rf'`: a recipe puts
    /// one variable beside another (`$(RM) $(DIRS)`), so a command given
    /// in one override is judged with the places another names.
    fn overrides_together(&mut self, c: &Cmd<'_>) {
        let mut commands = Vec::new();
        let mut places = Vec::new();
        let line = c
            .words
            .iter()
            .skip(1)
            .filter_map(|w| w.text.split_once('='))
            .map(|(n, v)| (n.to_string(), v.to_string()));
        let env = c.assigns.iter().map(|(n, w)| (n.clone(), w.text.clone()));
        // `--eval='RM = rm -rf'`: an assignment in make's own text.
        let evals = c.args.iter().enumerate().filter_map(|(i, a)| {
            let text = a.strip_prefix("--eval=").or_else(|| {
                matches!(a.as_str(), "--eval" | "-E")
                    .then(|| c.args.get(i + 1).map(String::as_str))
                    .flatten()
            })?;
            make_assignment(text).map(|(n, v)| (n.to_string(), v.to_string()))
        });
        for (name, value) in line.chain(env).chain(evals) {
            // (`RM:=…`, `DIRS+=…`: make's other assignments.)
            let name = name.trim_end_matches([':', '+', '?']);
            let value = value.trim();
            if value.is_empty()
                || !name
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
            {
                continue;
            }
            // An install or output place inside Jarvis's own state.
            if value.split_whitespace().any(|w| {
                let w = w
                    .replace(HOME, "~")
                    .replace("${HOME}", "~")
                    .replace("$(HOME)", "~")
                    .replace("$HOME", "~");
                (w.contains('/') || w.starts_with('~'))
                    && self.app_state(&self.norm_text(&w, c.cwd()))
            }) {
                self.block(format!(
                    "writes into Jarvis's own state (make {name}={value})"
                ));
            }
            let first = value.split_whitespace().next().unwrap_or("");
            let destroyer = DESTROYERS.contains(&program_name(first).as_str());
            // (A program's own path, `RM=/bin/rm`, is no place it is given.)
            if !destroyer && !names_program(name) && value.split_whitespace().any(names_place) {
                places.push(value.to_string());
            }
            // Only a program that destroys what it is given, recursively
            // for `rm`: the recipe's `$(RM) $(DIRS)` is then a delete of
            // those places.
            let recursive = program_name(first) != "rm"
                || value.split_whitespace().skip(1).any(|w| {
                    w == "--recursive"
                        || w.starts_with('-') && !w.starts_with("--") && w.contains(['r', 'R'])
                });
            if destroyer && recursive {
                commands.push(value.to_string());
            }
        }
        // (Bounded: each pair is one more line judged.)
        for command in commands.iter().take(4) {
            for place in places.iter().take(8) {
                // Re-read as a line, home is spelled as the shell would.
                let joined = format!("{command} {place}")
                    .replace(HOME, "$HOME")
                    .replace("$(HOME)", "$HOME");
                let joined = Word::lit(joined);
                self.block_only(|a| a.shell_code(&joined, &[], c.script, c.depth));
            }
        }
    }
}

/// Programs whose operands are destroyed.
const DESTROYERS: &[&str] = &[
    "rm",
    "rmdir",
    "shred",
    "srm",
    "wipe",
    "unlink",
    "truncate",
    "find",
    "trash",
    "trash-put",
    "gio",
];

/// A word that names a place by itself: absolute, from home (make's
/// `$(HOME)` too), or `..`.
fn names_place(word: &str) -> bool {
    word.starts_with(HOME)
        || ["/", "~", "$HOME", "${HOME}", "$(HOME)", ".."]
            .iter()
            .any(|p| word.starts_with(p))
}

impl Analyzer<'_> {
    /// `make -f -` with its makefile in a heredoc: each recipe line is shell.
    pub(super) fn makefile(&mut self, text: &str, depth: usize) {
        for line in text.lines() {
            if let Some(recipe) = line.strip_prefix('\t') {
                let recipe = recipe.trim_start_matches(['@', '-', '+']);
                self.script(recipe, &[], depth + 1);
                // As the shell gets it (make's `$$` is its `$`), for what blocks.
                let shell = make_expanded(recipe);
                if shell != recipe {
                    self.block_only(|a| a.script(&shell, &[], depth + 1));
                }
            } else if let Some(recipe) = inline_recipe(line) {
                let shell = make_expanded(recipe.trim_start_matches(['@', '-', '+']));
                self.script(&shell, &[], depth + 1);
            } else if let Some((_, cmd)) = line.split_once("!=") {
                // `VAR != cmd` runs cmd when the makefile is read.
                self.script(cmd.trim(), &[], depth + 1);
            } else {
                self.make_shell_setting(line, depth);
            }
        }
        // `$(shell cmd)` runs cmd when it is expanded, in any line (make's
        // `$$` is the shell's `$`).
        for cmd in make_shell_calls(text) {
            self.script(&cmd, &[], depth + 1);
            let shell = make_expanded(&cmd);
            if shell != cmd {
                self.block_only(|a| a.script(&shell, &[], depth + 1));
            }
        }
    }
}

/// `NAME = value` in make's spellings (`:=`, `::=`, `+=`, `?=`), with
/// the name trimmed; not `!=`, which runs its value.
pub(super) fn make_assignment(line: &str) -> Option<(&str, &str)> {
    let (left, value) = line.split_once('=')?;
    if left.ends_with('!') {
        return None;
    }
    let name = left.trim_end_matches([':', '+', '?']).trim();
    let name = name.strip_prefix("override ").unwrap_or(name).trim();
    let name = name.strip_prefix("export ").unwrap_or(name).trim();
    (!name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.".contains(c)))
    .then_some((name, value.trim()))
}

impl Analyzer<'_> {
    /// `SHELL = …` and `.SHELLFLAGS = …` in a makefile or on make's
    /// command line: the shell and the words before every recipe line
    /// (`.SHELLFLAGS='-c "curl … | sh"; true'` runs that `-c` code). A
    /// shell named alone (`SHELL=/bin/bash`) is the recipes' usual one.
    pub(super) fn make_shell_setting(&mut self, line: &str, depth: usize) {
        let Some((name, v)) = make_assignment(line) else {
            return;
        };
        let v = v.trim_matches(['\'', '"']);
        if name == "SHELL" && !lone_shell(v) && !program_and_options(v)
            || name.ends_with("_COMMAND")
        {
            self.script(v, &[], depth + 1);
        }
        if name == ".SHELLFLAGS" {
            self.script(&format!("sh {v}"), &[], depth + 1);
        }
    }
}

/// A make or environment variable conventionally holding a program to run.
pub(super) fn names_program(name: &str) -> bool {
    let up = name.to_ascii_uppercase();
    matches!(
        up.as_str(),
        "CC" | "CXX"
            | "CPP"
            | "LD"
            | "AR"
            | "AS"
            | "FC"
            | "RM"
            | "CP"
            | "MV"
            | "LN"
            | "SHELL"
            | "MAKE"
            | "INSTALL"
            | "LEX"
            | "YACC"
            | "STRIP"
            | "RANLIB"
            | "OBJCOPY"
            | "PYTHON"
            | "PERL"
            | "RUBY"
            | "NODE"
            | "NPM"
            | "GO"
            | "CARGO"
            | "JAVA"
            | "MKDIR"
            | "SED"
            | "AWK"
            | "TAR"
            | "DOCKER"
            | "KUBECTL"
            | "GIT"
            | "CURL"
            | "WGET"
            | "PKG_CONFIG"
            | "EDITOR"
            | "PAGER"
            | "BROWSER"
            | "EMACS"
            | "VIM"
            | "BASH"
            | "SH"
            | "ECHO"
            | "TEST"
    ) || [
        "CC", "_CMD", "_COMMAND", "_PROG", "_PROGRAM", "_EXEC", "_BIN", "_TOOL", "SHELL",
        "_RUNNER", "_WRAPPER",
    ]
    .iter()
    .any(|s| up.ends_with(s))
}

/// `python3`, `/bin/bash -eo pipefail`, `rm -rf`: a program and its
/// options (a word that is not one is an option's value), to which the
/// recipe adds the rest (judged with the places other overrides name, in
/// `overrides_together`). Code given to it (`-c`, `-e`) is not this.
fn program_and_options(v: &str) -> bool {
    // (`/usr/bin/env bash`: env names the program.)
    let words: Vec<&str> = v.split_whitespace().collect();
    let words = match words.as_slice() {
        [env, rest @ ..] if program_name(env) == "env" && !rest.is_empty() => rest.to_vec(),
        _ => words,
    };
    let plain = |w: &str| !w.contains(['$', '`', ';', '|', '&', '(', ')', '<', '>', '\'', '"']);
    let code_flag =
        |w: &str| matches!(w, "-c" | "-e" | "-E" | "--command" | "--eval" | "-m" | "-r");
    !words.is_empty()
        && words.iter().all(|w| plain(w) && !code_flag(w))
        && words.iter().enumerate().skip(1).all(|(i, w)| {
            w.starts_with('-') || words[i - 1].starts_with('-') && !words[i - 1].contains('=')
        })
}
