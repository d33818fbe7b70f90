//! The verdicts, decided by effect: each simple command is reduced to the
//! program that really runs (wrappers peeled, aliases and functions
//! followed), then judged by what it reads, writes, deletes, runs and sends.
//! Only what is provably read-only is allowed without asking; what cannot be
//! analysed counts against the command.

mod archives;
mod awk_sed;
mod captures;
mod code;
mod code_fold;
mod code_shapes;
mod debuggers;
mod dormant;
mod effects;
mod exec;
mod files;
mod functions;
mod git;
mod infra;
mod inspectors;
mod kernel;
mod listers;
mod makefiles;
mod net;
mod options;
mod perms;
mod pipes;
mod planted;
mod positions;
mod readonly;
mod redirects;
mod remote;
mod reveals;
mod script_opts;
mod secrets;
mod servers;
mod sources;
mod spawners;
mod startup;
mod subscripts;
mod system;
mod tables;
mod toolchains;
mod traces;
mod tunnels;
mod wrappers;

use super::parse::{self, Command, HOME, Redirect, Script, Word, is_fd};
use super::paths;
use super::{Analysis, ShellEnv};
use crate::policy::Verdict;
use perms::setuid_mode;
use pipes::reads_stdin_only;
use positions::operands;
use wrappers::peeled;

const MAX_DEPTH: usize = 8;

pub struct Analyzer<'e> {
    env: &'e ShellEnv,
    verdict: Verdict,
    reason: String,
    bases: Vec<String>,
    /// Something in the line runs at all.
    any: bool,
    /// A program in the line downloads, or decodes: code built at run time
    /// may come from it.
    fetches: bool,
    decodes: bool,
    /// Files written from a download or a decoder in this line.
    tainted: Vec<String>,
    /// Names bound to another program (`hash -p`, `ln -s /bin/rm ./ls`, aliases).
    renamed: Vec<(String, String)>,
    aliases: Vec<(String, String)>,
    functions: Vec<(String, String)>,
    calls: usize,
    /// Commands of the script being judged that print project paths.
    listers: Vec<usize>,
    /// Commands of the script being judged that print places in the project.
    place_listers: Vec<usize>,
    /// Function names that, at the command being judged, are not (yet or
    /// any more) functions: the program of that name runs.
    hidden_fns: Vec<String>,
    /// This script's functions' bodies as they are at the command judged.
    bodies_now: Vec<(String, String)>,
    /// Files this line writes with known text, and that text.
    written: Vec<(String, String)>,
    /// Judging a command that runs on another machine (`ssh host CMD`).
    remote: bool,
    /// Symlinks this line made: link → target (normalised).
    links: Vec<(String, String)>,
    /// Commands (by address) that read Jarvis's state.
    sensitive: Vec<usize>,
    state_reads: usize,
}

/// A command reduced to its real program and arguments.
pub(super) struct Cmd<'a> {
    /// The program's base name, as written (`python3`, `Remove-Item`).
    pub base: String,
    /// Lower-case base name.
    pub lb: String,
    /// The program's words (`words[0]` is the program).
    pub words: Vec<Word>,
    pub args: Vec<String>,
    pub src: &'a Command,
    pub script: &'a Script,
    pub depth: usize,
}

impl Cmd<'_> {
    pub fn cwd(&self) -> Option<&str> {
        self.src.cwd.as_deref()
    }
    pub fn has(&self, flag: &str) -> bool {
        self.args
            .iter()
            .any(|x| x == flag || x.starts_with(&format!("{flag}=")))
    }
    /// A short flag, alone or bundled (`-rf` has `r`).
    pub fn short(&self, c: char) -> bool {
        self.args.iter().any(|x| {
            x.starts_with('-') && !x.starts_with("--") && x.len() > 1 && x[1..].contains(c)
        })
    }
    /// The value after `flag` (`-o F`, `--output F`, `--output=F`).
    pub fn value(&self, flag: &str) -> Option<&Word> {
        let i = self
            .args
            .iter()
            .position(|x| x == flag || x.starts_with(&format!("{flag}=")))?;
        if self.args[i].contains('=') && flag.starts_with("--") {
            None
        } else {
            self.words.get(i + 2)
        }
    }
    /// The arguments that are not options, lower-case, in order.
    pub fn operands_lower(&self) -> Vec<String> {
        self.args
            .iter()
            .filter(|x| !x.starts_with('-'))
            .map(|x| lower(x))
            .collect()
    }
    pub fn arg_word(&self, i: usize) -> Option<&Word> {
        self.words.get(i + 1)
    }
    /// The arguments that are not options.
    pub fn operand_words(&self) -> Vec<Word> {
        self.words[1..]
            .iter()
            .filter(|w| !w.text.starts_with('-'))
            .cloned()
            .collect()
    }
}

pub(super) fn base_name(word: &str) -> String {
    let w = word.trim_start_matches('\\').replace('\\', "/");
    let b = w.rsplit('/').next().unwrap_or(&w).to_string();
    let lower = b.to_ascii_lowercase();
    let b = lower
        .strip_suffix(".exe")
        .map(|_| b[..b.len() - 4].to_string())
        .unwrap_or(b);
    // `mkfs.ext4` → `mkfs`, `python3.12` → `python3`.
    match b.split_once('.') {
        Some((head, tail))
            if !head.is_empty()
                && (head == "mkfs"
                    || head == "fsck"
                    || (!tail.is_empty()
                        && tail.chars().all(|c| c.is_ascii_digit() || c == '.'))) =>
        {
            head.to_string()
        }
        _ => b,
    }
}

pub(super) fn is_shell(b: &str) -> bool {
    tables::SHELLS.contains(&b)
}

pub(super) fn lower(s: &str) -> String {
    s.to_ascii_lowercase()
}

/// How a word may be shown in a reason.
pub(super) fn shown(s: &str) -> String {
    s.replace(HOME, "~")
}

impl<'e> Analyzer<'e> {
    pub fn new(env: &'e ShellEnv) -> Self {
        Analyzer {
            env,
            verdict: Verdict::Allow,
            reason: String::new(),
            bases: vec![],
            any: false,
            fetches: false,
            decodes: false,
            tainted: vec![],
            renamed: vec![],
            aliases: vec![],
            functions: vec![],
            calls: 0,
            listers: Vec::new(),
            place_listers: Vec::new(),
            hidden_fns: Vec::new(),
            bodies_now: Vec::new(),
            written: vec![],
            remote: false,
            links: vec![],
            sensitive: vec![],
            state_reads: 0,
        }
    }

    pub fn finish(mut self) -> Analysis {
        self.bases.sort();
        self.bases.dedup();
        let reason = if !self.any && self.verdict == Verdict::Allow {
            "nothing to run".into()
        } else if self.reason.is_empty() {
            "read-only".into()
        } else {
            self.reason
        };
        Analysis {
            verdict: self.verdict,
            reason,
            bases: self.bases,
        }
    }

    /// Raises the verdict; the first reason at the highest level is kept.
    fn raise(&mut self, v: Verdict, why: impl Into<String>) {
        if v > self.verdict || (v == self.verdict && v != Verdict::Allow && self.reason.is_empty())
        {
            self.verdict = v;
            self.reason = why.into();
        }
    }

    pub(super) fn block(&mut self, why: impl Into<String>) {
        self.raise(Verdict::Block, why);
    }

    pub(super) fn ask(&mut self, why: impl Into<String>) {
        self.raise(Verdict::Ask, why);
    }

    /// Runs `f` with a fresh verdict and returns what it alone decided,
    /// keeping the strictest overall.
    pub(super) fn judged(&mut self, f: impl FnOnce(&mut Self)) -> Verdict {
        let before = (self.verdict, std::mem::take(&mut self.reason));
        self.verdict = Verdict::Allow;
        f(self);
        let mine = (self.verdict, std::mem::take(&mut self.reason));
        if before.0 >= mine.0 {
            self.verdict = before.0;
            self.reason = before.1;
        } else {
            self.verdict = mine.0;
            self.reason = mine.1.clone();
        }
        if before.0 == Verdict::Allow && mine.0 == Verdict::Allow {
            self.reason = String::new();
        }
        mine.0
    }

    /// Analyses a whole script; `positional` are `$0`, `$1`, … for `sh -c`.
    pub fn script(&mut self, src: &str, positional: &[String], depth: usize) {
        // Nothing lowers a block and its first reason is the one kept: the
        // rest of the line cannot change the verdict.
        if self.verdict == Verdict::Block {
            return;
        }
        if depth > MAX_DEPTH {
            self.ask("nested too deeply to analyse");
            return;
        }
        if src
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\t'))
        {
            self.ask("contains control characters that can hide what runs");
        }
        // `{rm,-rf,~}`: a leading brace list is the command bash runs once
        // expanded (the grammar rejects it, slowly). Judged expanded first;
        // a block there needs no more.
        if let Some(first) = src.split_whitespace().next()
            && first.starts_with('{')
            && first.contains(',')
            && let Some(words) = super::eval::brace_expand(first)
        {
            let rest = &src.trim_start()[first.len()..];
            self.block_only(|a| {
                a.script(&format!("{}{rest}", words.join(" ")), positional, depth + 1)
            });
            if self.verdict == Verdict::Block {
                return;
            }
        }
        let script = parse::parse(src, positional);
        self.dormant_code(&script, depth);
        if script.parse_error {
            self.ask("the shell text could not be fully parsed");
            // Brace lists the parser rejects, like `{rm,-rf,~}`.
            let expanded: Vec<String> = src
                .split_whitespace()
                .map(|t| {
                    super::eval::brace_expand(t)
                        .map(|i| i.join(" "))
                        .unwrap_or_else(|| t.to_string())
                })
                .collect();
            let expanded = expanded.join(" ");
            if expanded != src.split_whitespace().collect::<Vec<_>>().join(" ") {
                self.script(&expanded, positional, depth + 1);
            }
            // Text the grammar rejects (PowerShell's `(…)`): judge its words
            // without the grouping, for what blocks.
            let flat: String = src
                .chars()
                .map(|ch| {
                    if matches!(ch, '(' | ')' | '{' | '}') {
                        ' '
                    } else {
                        ch
                    }
                })
                .collect();
            if flat != src {
                self.block_only(|a| a.script(&flat, positional, depth + 1));
            }
            // Redirections bash takes and the grammar rejects (`3<>file`,
            // descriptors of two digits, zsh's `=(…)`): judged in the
            // spelling the grammar knows, for what blocks.
            let plain = plain_redirects(src);
            if plain != src {
                self.block_only(|a| a.script(&plain, positional, depth + 1));
            }
            // A line that goes on after `<<EOF`, which the grammar rejects:
            // the command lines again, bodies left out, for what blocks.
            if let Some(lines) = parse::without_heredocs(src) {
                self.block_only(|a| a.script(&lines, positional, depth + 1));
            }
            // Another shell's blocks (fish's `function …; …; end`, `begin;
            // …; end`): each statement on its own, for what blocks. One
            // with a variable depends on the block it was cut from (a loop's
            // `$f`), and is left to the question.
            let statements = statements(src);
            if statements.len() > 1 {
                for st in statements.into_iter().filter(|st| !st.contains('$')) {
                    self.block_only(|a| a.script(&st, positional, depth + 1));
                }
            }
            // cmd.exe and PowerShell paths: `\` separates, it does not escape.
            let l = lower(src);
            if src.contains('\\') && (l.contains('%') || l.contains(":\\") || l.contains("$env:")) {
                let slashed = src.replace('\\', "/");
                self.block_only(|a| a.script(&slashed, positional, depth + 1));
            }
        }
        for c in &script.commands {
            match self.producer(c) {
                Producer::Net => self.fetches = true,
                Producer::Decode => self.decodes = true,
                Producer::Other => {}
            }
        }
        for (i, full) in script.commands.iter().enumerate() {
            // What runs past `env`, `timeout`, `nice`… decides what is written.
            let view = Command {
                argv: peeled(&full.argv).to_vec(),
                ..full.clone()
            };
            let c = &view;
            if self.passes_on(i, &script) != Producer::Other {
                let outs = pipes::output_files(c);
                self.tainted.extend(outs);
            }
            // `echo CODE | tee FILE`: tee writes what the pipe carries.
            if c.argv.first().is_some_and(|w| base_name(&w.text) == "tee")
                && let Some(text) =
                    c.stdin_from
                        .and_then(|p| script.commands.get(p))
                        .and_then(|p| {
                            super::eval::printed(&Command {
                                argv: peeled(&p.argv).to_vec(),
                                ..p.clone()
                            })
                        })
            {
                for w in c.argv.iter().skip(1).filter(|w| !w.text.starts_with('-')) {
                    let t = self.norm(w, c.cwd.as_deref());
                    self.written.push((t, text.clone()));
                }
            }
            if let Some(text) = super::eval::printed(c) {
                let mut targets: Vec<String> = c
                    .redirects
                    .iter()
                    .filter(|r| r.op.contains('>') && !r.op.starts_with("<<"))
                    .map(|r| self.norm(&r.target, c.cwd.as_deref()))
                    .collect();
                if c.argv.first().is_some_and(|w| w.text == "tee") {
                    targets.extend(
                        c.argv
                            .iter()
                            .skip(1)
                            .filter(|w| !w.text.starts_with('-'))
                            .map(|w| self.norm(w, c.cwd.as_deref())),
                    );
                }
                for t in targets {
                    self.written.push((t, text.clone()));
                }
            }
        }
        for f in &script.recursive_functions {
            self.block(format!("fork bomb (function {} calls itself)", shown(f)));
        }
        if script.spawning_loop {
            self.block("fork bomb (an endless loop that starts background jobs)");
        }
        self.functions.extend(script.functions.iter().cloned());
        let followed = functions::followed_bodies(src, &script);
        let outer_listers = std::mem::replace(&mut self.listers, listers::project_listers(&script));
        let outer_places =
            std::mem::replace(&mut self.place_listers, listers::place_listers(&script));
        let outer_hidden = std::mem::take(&mut self.hidden_fns);
        let outer_bodies = std::mem::take(&mut self.bodies_now);
        for (i, c) in script.commands.iter().enumerate() {
            if self.verdict == Verdict::Block {
                return;
            }
            // A body judged at each of its calls, with their arguments, is
            // not judged again with arguments unknown.
            if followed.iter().any(|r| r.contains(&i)) {
                continue;
            }
            self.hidden_fns = functions::hidden_at(&script, i);
            self.bodies_now = functions::bodies_at(&script, i);
            let before = self.state_reads;
            self.command(c, &script, depth);
            if self.state_reads > before {
                self.sensitive.push(std::ptr::from_ref(c) as usize);
            }
        }
        self.pipes(&script);
        self.planted(&script);
        self.listers = outer_listers;
        self.place_listers = outer_places;
        self.hidden_fns = outer_hidden;
        self.bodies_now = outer_bodies;
    }

    fn command(&mut self, c: &Command, script: &Script, depth: usize) {
        self.redirects(c, script, depth);
        self.assigns(&c.assigns, c, script, depth);
        if c.argv.is_empty() {
            return;
        }
        self.any = true;
        self.masquerade(c);
        let name = c.argv[0].text.clone();
        if !c.argv[0].dynamic {
            if let Some(body) = self
                .aliases
                .iter()
                .rev()
                .find(|(n, _)| *n == name)
                .map(|(_, b)| b.clone())
            {
                let rest = Word::join(&c.argv[1..]);
                self.script(&format!("{body} {rest}"), &[], depth + 1);
                return;
            }
            if let Some(body) = self
                .bodies_now
                .iter()
                .chain(self.functions.iter().rev())
                .find(|(n, _)| *n == name)
                .map(|(_, b)| b.clone())
                .filter(|_| !self.hidden_fns.contains(&name))
            {
                if self.calls >= 8 {
                    // Past the budget, the body as if its arguments were unknown.
                    self.script(&body, &[], depth + 1);
                    return;
                }
                self.calls += 1;
                let mut positional = vec![name.clone()];
                positional.extend(c.argv[1..].iter().map(|w| w.text.clone()));
                let body = if c.argv[1..].iter().any(|w| w.dynamic) || !functions::plain_body(&body)
                {
                    body
                } else {
                    functions::with_arguments(&body, &positional[1..])
                };
                // Called after a `cd`: the body runs there.
                let body = match &c.cwd {
                    Some(d) => format!("cd '{}' || exit\n{body}", d.replace('\'', "'\\''")),
                    None => body,
                };
                self.script(&body, &positional, depth + 1);
                return;
            }
        }
        self.run_words(c.argv.clone(), c, script, depth);
    }

    /// Peels wrappers and judges the real program.
    pub(super) fn run_words(
        &mut self,
        mut words: Vec<Word>,
        c: &Command,
        script: &Script,
        depth: usize,
    ) {
        loop {
            let Some(first) = words.first() else { return };
            if first.dynamic {
                // `$cmd …`, `$(…) …`: the program is only known at run time.
                self.bases.push(shown(&first.text));
                if self.fetched(first, script) {
                    self.block("download and execute (a fetched command is run)");
                } else {
                    self.block(format!(
                        "runs a program whose name is only known at run time ({})",
                        shown(&first.text)
                    ));
                }
                return;
            }
            if first.text.is_empty() {
                return;
            }
            if first.computed || first.spliced || first.glob {
                self.bases.push(shown(&first.text));
                let how = if first.glob {
                    "a wildcard"
                } else if first.computed {
                    "variables, substitutions or escapes"
                } else {
                    "quotes or escapes inside the name"
                };
                self.block(format!(
                    "obfuscated program name ({} spelled with {how})",
                    shown(&first.text)
                ));
                return;
            }
            let mut base = base_name(&first.text);
            let as_path = paths::normalize(&paths::word_path(&first.text, false), c.cwd.as_deref());
            if let Some((_, real)) = self
                .renamed
                .iter()
                .rev()
                .find(|(n, _)| *n == first.text || *n == as_path)
            {
                base = real.clone();
            }
            let lb = lower(&base);
            // A downloaded file run by its path, whatever it is named
            // (`./kit/start` is a file, not Windows's `start`).
            if first.text.contains('/') && self.is_tainted(first, c.cwd.as_deref()) {
                self.bases.push(shown(&first.text));
                self.block(format!(
                    "download and execute ({} was downloaded or decoded, then run)",
                    shown(&first.text)
                ));
                return;
            }
            if tables::PRIVILEGE.contains(&lb.as_str()) && self.remote {
                // `sudo` on another machine: judge what it runs there.
                words.remove(0);
                while words.first().is_some_and(|w| w.text.starts_with('-')) {
                    let flag = words.remove(0).text;
                    if matches!(flag.as_str(), "-u" | "-g" | "-U" | "-C" | "-h" | "-p")
                        && !words.is_empty()
                    {
                        words.remove(0);
                    }
                }
                continue;
            }
            if tables::PRIVILEGE.contains(&lb.as_str()) {
                self.bases.push(base.clone());
                self.block(format!("privilege escalation ({base})"));
                return;
            }
            if lb == "env" {
                match self.env_wrapper(&mut words, c, script, depth) {
                    Some(true) => continue,
                    _ => return,
                }
            }
            if let Some(takes) = tables::wrapper(&lb) {
                if !self.peel_wrapper(&lb, takes, &mut words, c, script, depth) {
                    return;
                }
                continue;
            }
            break;
        }
        let base = {
            let first = &words[0].text;
            let b = base_name(first);
            let as_path = paths::normalize(&paths::word_path(first, false), c.cwd.as_deref());
            self.renamed
                .iter()
                .rev()
                .find(|(n, _)| n == first || *n == as_path)
                .map(|(_, r)| r.clone())
                .unwrap_or(b)
        };
        if words[0].text.contains('/')
            && let Some(text) = self.written_text(&words[0], c.cwd.as_deref())
        {
            self.script(&text, &[], depth + 1);
        }
        if words[0].text.contains('/') && depth > 0 {
            let staged = Cmd {
                lb: lower(&base),
                base: base.clone(),
                args: vec![],
                words: vec![words[0].clone()],
                src: c,
                script,
                depth,
            };
            self.staged_from_inside(&words[0], &staged);
        }
        if words[0].text.contains('/') && self.is_tainted(&words[0], c.cwd.as_deref()) {
            self.block(format!(
                "download and execute ({} was downloaded or decoded, then run)",
                shown(&words[0].text)
            ));
        }
        let cmd = Cmd {
            lb: lower(&base),
            base: base.clone(),
            args: words[1..].iter().map(|w| w.text.clone()).collect(),
            words,
            src: c,
            script,
            depth,
        };
        let mine = self.judged(|a| {
            let handled = positions::handled_positions(&cmd);
            a.words_secrets(&cmd, &handled);
            let read_only = a.program(&cmd);
            if !read_only {
                a.ask(format!("runs {}", shown(&cmd.base)));
            }
        });
        if mine >= Verdict::Ask {
            self.bases.push(base);
        }
    }

    /// Judges the program itself; true when this invocation is provably read-only.
    fn program(&mut self, c: &Cmd<'_>) -> bool {
        self.written_code(c);
        self.command_options(c);
        let lb = c.lb.as_str();
        const ASKS_FOR_HELP: &[&str] = &[
            "--version",
            "-V",
            "--help",
            "-h",
            "version",
            "-v",
            "help",
            "-vV",
            "-version",
        ];
        let help_only = !c.args.is_empty()
            && c.args.len() <= 2
            && c.args.iter().any(|x| ASKS_FOR_HELP.contains(&x.as_str()))
            && c.args
                .iter()
                .all(|x| ASKS_FOR_HELP.contains(&x.as_str()) || x == "--verbose");
        // Any program on the PATH asked only for its version or help in the
        // long spelling (`gdb --version`, `meson --help`); the short ones
        // (`-v`, `-h`) mean other things to programs the rules do not know.
        let long_help = c
            .args
            .iter()
            .all(|x| matches!(x.as_str(), "--version" | "--help" | "-version" | "-help"));
        if help_only
            && !c.words[0].text.contains('/')
            && (tables::KNOWN_TOOLS.contains(&lb)
                || tables::read_only(lb).is_some()
                || tables::interpreter(lb).is_some()
                || is_shell(lb)
                || long_help)
        {
            return true;
        }
        self.subscript_code(c);
        // `bash -n script.sh`: the script is parsed, never run (in the
        // POSIX family; Nushell's `-n` only skips its config).
        if matches!(
            lb,
            "sh" | "bash" | "dash" | "ksh" | "mksh" | "zsh" | "yash" | "posh" | "fish"
        ) && c.args.len() == 2
            && c.args[0] == "-n"
            && let Some(f) = c.arg_word(1).cloned()
            && !f.text.starts_with('-')
        {
            return self.read_path(&f, c.cwd());
        }
        if is_shell(lb) {
            self.shell(c);
            return false;
        }
        if let Some(read_only) = self
            .python_inspects(c)
            .or_else(|| self.go_inspects(c))
            .or_else(|| self.tool_inspects(c))
        {
            return read_only;
        }
        if tables::interpreter(lb).is_some() && !matches!(lb, "gawk") {
            self.interpreter(c);
            return false;
        }
        if let Some(decided) = self.executor(c) {
            return decided;
        }
        if let Some(decided) = self.system_program(c) {
            return decided;
        }
        if let Some(decided) = self.file_program(c) {
            return decided;
        }
        if let Some(decided) = self.net_program(c) {
            return decided;
        }
        if lb == "git" {
            return self.git(c);
        }
        if lb == "openssl" {
            return self.openssl(c);
        }
        if let Some(role) = tables::read_only(lb) {
            let read_only = self.read_only(c, role);
            // Settings tools read and write: a value they store may be a
            // command something runs later (a keybinding's `command`).
            if !read_only && matches!(lb, "gsettings" | "xdg-mime" | "udevadm") {
                self.unknown(c);
            }
            return read_only;
        }
        self.unknown(c);
        false
    }

    /// A program the rules do not know: anything it names that is a
    /// credential, a disk or Jarvis's state counts against it.
    fn unknown(&mut self, c: &Cmd<'_>) {
        let text = positions::text_positions(c);
        let mut suffixes = 0;
        for (k, w) in c.words.iter().enumerate().skip(1) {
            if w.dynamic || text.contains(&(k - 1)) {
                continue;
            }
            for cand in path_candidates(&w.text) {
                if paths::device(&cand) {
                    self.block(format!("{} touches the disk device {cand}", c.base));
                }
            }
            // What an unknown program may run: an argument that is a command
            // line (`--exec 'curl … | sh'`), or the rest of the line from a
            // program's name (`tool rm -rf ~`). Only what blocks counts.
            if w.text.contains(' ') && !w.text.starts_with('-') {
                let code = w.text.clone();
                self.block_only(|a| a.script(&code, &[], c.depth + 1));
            }
            // A bare interpreter's name is a word like any other (`apt-cache
            // policy nodejs`): nothing says this program starts it. Fed
            // from a download or a decoder, the input is code for it
            // (`curl … | dumb-init sh`).
            let interpreter_name = k + 1 == c.words.len() && {
                let n = lower(&base_name(&w.text));
                is_shell(&n) || tables::interpreter(&n).is_some()
            };
            let fed = c
                .src
                .stdin_from
                .and_then(|i| c.script.commands.get(i))
                .map(|p| self.producer(p));
            if interpreter_name && fed.is_some_and(|p| p != Producer::Other) {
                self.block(format!(
                    "download and execute ({} hands its input, from a download or a decoder, to {})",
                    c.base,
                    shown(&w.text)
                ));
            }
            let bare_interpreter = interpreter_name && c.src.stdin_from.is_none();
            if suffixes < 3
                && !w.text.starts_with('-')
                && !bare_interpreter
                && known_program(&lower(&base_name(&w.text)))
            {
                suffixes += 1;
                let rest: Vec<Word> = c.words[k..].to_vec();
                self.block_only(|a| a.run_words(rest, c.src, c.script, c.depth + 1));
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Producer {
    Net,
    Decode,
    Other,
}

/// A program whose name in another program's arguments suggests it runs.
pub(super) fn known_program(b: &str) -> bool {
    tables::PRIVILEGE.contains(&b)
        || is_shell(b)
        || tables::interpreter(b).is_some()
        || tables::wrapper(b).is_some()
        || tables::FETCHERS.contains(&b)
        || matches!(
            b,
            "rm" | "rmdir"
                | "shred"
                | "remove-item"
                | "ri"
                | "del"
                | "rd"
                | "erase"
                | "dd"
                | "mkfs"
                | "wipefs"
                | "chmod"
                | "chown"
                | "mv"
                | "cp"
                | "kill"
                | "pkill"
                | "killall"
                | "crontab"
                | "systemctl"
                | "at"
                | "eval"
                | "source"
                | "xargs"
                | "find"
                | "tar"
                | "tee"
                | "truncate"
                | "ln"
                | "install"
                | "env"
                | "cat"
                | "git"
                | "docker"
                | "shutdown"
                | "reboot"
                | "usermod"
                | "passwd"
                | "setcap"
        )
}

/// The path-like parts of an argument: itself, after `=`, after `@`, after `:`.
pub(super) fn path_candidates(w: &str) -> Vec<String> {
    let mut v = vec![w.to_string()];
    if let Some((_, r)) = w.split_once('=') {
        v.push(r.to_string());
        if let Some(r2) = r.strip_prefix('@') {
            v.push(r2.to_string());
        }
        if let Some(r2) = r.strip_prefix('<') {
            v.push(r2.to_string());
        }
    }
    if let Some(r) = w.strip_prefix('@') {
        v.push(r.to_string());
    }
    // HTTPie's `field@FILE`, `field=@FILE`, `field:=@FILE`: a file sent.
    if let Some((k, r)) = w.split_once('@')
        && !k.is_empty()
        && !k.contains('/')
        && (r.starts_with(['/', '~', '.']) || r.starts_with(HOME) || r.starts_with("$HOME"))
    {
        v.push(r.to_string());
    }
    if let Some(r) = w.strip_prefix("file://") {
        v.push(r.to_string());
    }
    // `-fPATH`, `-iPATH` (short option glued to its value).
    if w.starts_with('-') && !w.starts_with("--") && w.len() > 2 {
        let rest = &w[2..];
        if rest.starts_with(['/', '~', HOME]) || rest.starts_with("$HOME") {
            v.push(rest.to_string());
        }
    }
    // `host:path` (scp/rsync) — only the local form matters here.
    v.retain(|x| !x.is_empty() && !x.starts_with("http://") && !x.starts_with("https://"));
    v
}

/// `196<>f` as `9>f`, `<>` as `>`, ` =(` as ` <(`: the same effect for the
/// analysis (a read-write open writes), in words the grammar parses.
fn plain_redirects(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let starts_word = i == 0 || chars[i - 1].is_whitespace() || ";|&(".contains(chars[i - 1]);
        if c.is_ascii_digit() && starts_word {
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            if j - i >= 2 && chars.get(j).is_some_and(|n| matches!(n, '<' | '>')) {
                out.push('9');
                i = j;
                continue;
            }
        }
        if c == '<' && chars.get(i + 1) == Some(&'>') {
            out.push('>');
            i += 2;
            continue;
        }
        if c == '=' && chars.get(i + 1) == Some(&'(') && starts_word {
            out.push('<');
            i += 1;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// `src` cut at the `;` and line ends outside quotes.
fn statements(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut chars = src.chars();
    while let Some(ch) = chars.next() {
        match (quote, ch) {
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (None, '\\') => {
                cur.push(ch);
                cur.extend(chars.next());
            }
            (None, '\'' | '"') => {
                quote = Some(ch);
                cur.push(ch);
            }
            (None, ';' | '\n') => {
                if !cur.trim().is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                cur.clear();
            }
            _ => cur.push(ch),
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}
