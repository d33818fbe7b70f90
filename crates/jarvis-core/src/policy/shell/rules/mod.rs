//! The verdicts: what each command does, after wrappers are peeled and
//! nested scripts analysed.

mod files;
mod programs;
mod system;
mod words;

use words::*;

use super::parse::{self, Command, Script, Word};
use super::paths;
use super::{Analysis, ShellEnv};
use crate::policy::Verdict;

const MAX_DEPTH: usize = 6;

const SHELLS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "mksh",
    "ash",
    "fish",
    "csh",
    "tcsh",
    "busybox-sh",
];
const INTERPRETERS: &[&str] = &[
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "nodejs",
    "php",
    "deno",
    "bun",
    "lua",
    "Rscript",
    "osascript",
    "pwsh",
    "powershell",
    "powershell.exe",
];
const FETCHERS: &[&str] = &[
    "curl",
    "wget",
    "fetch",
    "aria2c",
    "http",
    "https",
    "xh",
    "iwr",
    "Invoke-WebRequest",
    "certutil",
    "bitsadmin",
];
const PRIVILEGE: &[&str] = &[
    "sudo", "doas", "su", "pkexec", "gsudo", "runuser", "run0", "sudoedit",
];
/// Wrappers that run the rest of their arguments as a command.
const WRAPPERS: &[&str] = &[
    "command",
    "builtin",
    "exec",
    "nohup",
    "time",
    "nice",
    "ionice",
    "setsid",
    "stdbuf",
    "timeout",
    "chronic",
    "unbuffer",
    "caffeinate",
    "flock",
    "chrt",
    "taskset",
    "torify",
    "proxychains",
    "proxychains4",
    "firejail",
    "strace",
    "ltrace",
    "watch",
    "script",
    "doit",
    "catchsegv",
    "busybox",
];
const READ_ONLY: &[&str] = &[
    "cat",
    "head",
    "tail",
    "less",
    "more",
    "wc",
    "nl",
    "cut",
    "tr",
    "uniq",
    "paste",
    "column",
    "fold",
    "rev",
    "tac",
    "diff",
    "cmp",
    "comm",
    "join",
    "od",
    "hexdump",
    "xxd",
    "strings",
    "file",
    "stat",
    "du",
    "df",
    "ls",
    "dir",
    "vdir",
    "pwd",
    "id",
    "whoami",
    "groups",
    "hostname",
    "uname",
    "date",
    "uptime",
    "nproc",
    "free",
    "ps",
    "pgrep",
    "pidof",
    "which",
    "whereis",
    "type",
    "realpath",
    "readlink",
    "basename",
    "dirname",
    "true",
    "false",
    "test",
    "[",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "md5sum",
    "cksum",
    "b2sum",
    "sum",
    "jq",
    "tree",
    "locale",
    "tty",
    "arch",
    "lscpu",
    "lsblk",
    "getconf",
    "cal",
    "seq",
    "sleep",
    "echo",
    "printf",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "ack",
    "find",
    "fd",
    "sort",
    "base64",
    "base32",
    "ulimit",
    "env",
    "printenv",
    "lsof",
    "top",
    "htop",
    "w",
    "who",
    "last",
    "history",
    "sed",
    "awk",
    "gawk",
    "mawk",
    "zcat",
    "bzcat",
    "xzcat",
    "zgrep",
    "tldr",
    "man",
    "info",
    "numfmt",
    "expr",
    "bc",
    "factor",
    "journalctl",
    "dmesg",
    "lsmod",
    "ip",
    "ifconfig",
    "ss",
    "netstat",
    "git",
    "systemctl",
    "crontab",
    "exa",
    "eza",
    "bat",
    "delta",
    "cloc",
    "tokei",
    "yes",
    "wait",
    "read",
    ":",
    "cd",
    "pushd",
    "popd",
    "dirs",
    "shasum",
];
const SECRET_VARS: &[&str] = &[
    "SECRET",
    "TOKEN",
    "PASSWORD",
    "PASSWD",
    "API_KEY",
    "APIKEY",
    "PRIVATE",
    "CREDENTIAL",
    "ACCESS_KEY",
    "SESSION_KEY",
];

fn base_name(word: &str) -> String {
    let w = word.trim_start_matches('\\');
    let w = w.replace('\\', "/");
    let b = w.rsplit('/').next().unwrap_or(&w).to_string();
    let b = b.strip_suffix(".exe").map(str::to_string).unwrap_or(b);
    // `mkfs.ext4` → `mkfs`, `python3.12` → `python3`.
    match b.split_once('.') {
        Some((head, tail))
            if !head.is_empty()
                && (head == "mkfs"
                    || head == "fsck"
                    || (!tail.is_empty() && tail.chars().all(|c| c.is_ascii_digit()))) =>
        {
            head.to_string()
        }
        _ => b,
    }
}

fn is_shell(b: &str) -> bool {
    SHELLS.contains(&b)
}

fn lower(s: &str) -> String {
    s.to_ascii_lowercase()
}

pub struct Analyzer<'e> {
    env: &'e ShellEnv,
    verdict: Verdict,
    reason: String,
    bases: Vec<String>,
    /// Nothing seen so far needs more than `allow`.
    any: bool,
}

/// A command reduced to its real program and arguments.
struct Cmd<'a> {
    base: String,
    args: Vec<String>,
    words: Vec<Word>,
    src: &'a Command,
}

impl<'e> Analyzer<'e> {
    pub fn new(env: &'e ShellEnv) -> Self {
        Analyzer {
            env,
            verdict: Verdict::Allow,
            reason: "read-only".into(),
            bases: vec![],
            any: false,
        }
    }

    pub fn finish(mut self) -> Analysis {
        self.bases.sort();
        self.bases.dedup();
        if !self.any {
            self.reason = "nothing to run".into();
        }
        Analysis {
            verdict: self.verdict,
            reason: self.reason,
            bases: self.bases,
        }
    }

    fn raise(&mut self, v: Verdict, why: impl Into<String>) {
        if v > self.verdict
            || (v == self.verdict && v != Verdict::Allow && self.reason == "read-only")
        {
            self.verdict = v;
            self.reason = why.into();
        }
    }

    fn block(&mut self, why: impl Into<String>) {
        self.raise(Verdict::Block, why);
    }

    fn ask(&mut self, why: impl Into<String>) {
        self.raise(Verdict::Ask, why);
    }

    /// Analyses a whole script; `positional` are `$0`, `$1`, … for `sh -c`.
    pub fn script(&mut self, src: &str, positional: &[String], depth: usize) {
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
        let script = parse::parse(src, positional);
        if script.parse_error {
            self.ask("the shell text could not be fully parsed");
            // Brace lists the parser rejects, like `{rm,-rf,~}`.
            let expanded: Vec<String> = src
                .split_whitespace()
                .map(|t| {
                    parse::brace_items(t)
                        .map(|i| i.join(" "))
                        .unwrap_or_else(|| t.to_string())
                })
                .collect();
            let expanded = expanded.join(" ");
            if expanded != src.split_whitespace().collect::<Vec<_>>().join(" ") {
                self.script(&expanded, positional, depth + 1);
            }
        }
        for f in &script.recursive_functions {
            self.block(format!("fork bomb (function {f} calls itself)"));
        }
        for body in &script.alias_bodies {
            self.script(body, &[], depth + 1);
        }
        self.cross_rules(&script, depth);
        for c in &script.commands {
            self.command(c, &script, depth);
        }
    }

    fn command(&mut self, c: &Command, script: &Script, depth: usize) {
        self.redirects(c, depth);
        if c.argv.is_empty() {
            return;
        }
        self.any = true;
        let words = c.argv.clone();
        self.words_secrets(&words, c);
        self.run_words(words, c, script, depth);
    }

    /// Peels wrappers and dispatches on the real program.
    fn run_words(&mut self, mut words: Vec<Word>, c: &Command, script: &Script, depth: usize) {
        loop {
            let Some(first) = words.first() else { return };
            if first.dynamic {
                // `$cmd …`, `$(…) …`: the program is only known at run time.
                let inner_fetch = self.fetched(first, script);
                self.bases.push(first.text.clone());
                if inner_fetch {
                    self.block("download and execute (a fetched command is run)");
                } else {
                    self.ask(format!(
                        "runs a program chosen at run time ({})",
                        first.text
                    ));
                }
                // Still judge the arguments as if for a dangerous program.
                let rest: Vec<String> = words[1..].iter().map(|w| w.text.clone()).collect();
                self.rm_like("rm", &rest, c);
                return;
            }
            let base = base_name(&first.text);
            if first.text.is_empty() {
                return;
            }
            if PRIVILEGE.contains(&base.as_str()) {
                self.bases.push(base.clone());
                self.block(format!("privilege escalation ({base})"));
                return;
            }
            if WRAPPERS.contains(&base.as_str()) {
                words.remove(0);
                // Drop the wrapper's own options and a duration/count argument.
                while let Some(w) = words.first() {
                    let t = &w.text;
                    let takes_value = matches!(
                        t.as_str(),
                        "-n" | "-c" | "-p" | "-s" | "-k" | "-o" | "-e" | "-i" | "-u"
                    );
                    if t.starts_with('-')
                        || (base == "timeout"
                            && t.chars().next().is_some_and(|ch| ch.is_ascii_digit()))
                    {
                        words.remove(0);
                        if takes_value
                            && base != "script"
                            && !words.is_empty()
                            && !words[0].text.starts_with('-')
                            && base != "watch"
                        {
                            words.remove(0);
                        }
                    } else {
                        break;
                    }
                }
                if base == "script" || base == "watch" {
                    // `script -c CMD`, `watch CMD`: the rest is shell text.
                    let text = Word::join(&words);
                    self.script(&text, &[], depth + 1);
                    return;
                }
                continue;
            }
            if base == "env" {
                words.remove(0);
                while let Some(w) = words.first().cloned() {
                    let t = w.text.clone();
                    if t == "-S" || t == "--split-string" {
                        words.remove(0);
                        let text = Word::join(&words);
                        self.script(&text, &[], depth + 1);
                        return;
                    } else if let Some(s) = t
                        .strip_prefix("--split-string=")
                        .or_else(|| t.strip_prefix("-S"))
                        .filter(|s| !s.is_empty())
                    {
                        self.script(s, &[], depth + 1);
                        return;
                    } else if matches!(t.as_str(), "-u" | "--unset" | "-C" | "--chdir") {
                        words.remove(0);
                        if !words.is_empty() {
                            words.remove(0);
                        }
                    } else if t.starts_with('-') || (t.contains('=') && !t.starts_with('/')) {
                        words.remove(0);
                    } else {
                        break;
                    }
                }
                if words.is_empty() {
                    self.bases.push("env".into());
                    if c.argv.len() == 1 {
                        self.ask("prints the whole environment (may include secrets)");
                    }
                    return;
                }
                continue;
            }
            let args: Vec<String> = words[1..].iter().map(|w| w.text.clone()).collect();
            let cmd = Cmd {
                base: base.clone(),
                args,
                words: words.clone(),
                src: c,
            };
            // Judge this program on its own, to know whether a grant must cover it.
            let saved = (
                self.verdict,
                std::mem::replace(&mut self.reason, "read-only".into()),
            );
            self.verdict = Verdict::Allow;
            self.program(&cmd, script, depth);
            if self.verdict >= Verdict::Ask {
                self.bases.push(base);
            }
            if saved.0 >= self.verdict && saved.0 != Verdict::Allow {
                self.verdict = saved.0;
                self.reason = saved.1;
            } else if self.verdict == Verdict::Allow {
                self.reason = saved.1;
            }
            return;
        }
    }

    fn is_fetch(&self, c: &Command) -> bool {
        c.argv
            .iter()
            .take(3)
            .any(|w| FETCHERS.contains(&base_name(&w.text).as_str()))
            || c.argv.iter().any(|w| {
                w.text.starts_with("http://")
                    || w.text.starts_with("https://")
                        && c.argv.len() > 1
                        && base_name(&c.argv[0].text) != "echo"
            })
    }

    /// The word's value comes from a substitution that downloads something.
    fn fetched(&self, w: &Word, script: &Script) -> bool {
        w.subs
            .iter()
            .any(|&s| script.commands.get(s).is_some_and(|x| self.is_fetch(x)))
    }

    /// Runs `text` as a script and also treats it as possibly fetched.
    fn nested(&mut self, text: &str, depth: usize) {
        self.script(text, &[], depth + 1);
    }

    fn redirects(&mut self, c: &Command, depth: usize) {
        for r in &c.redirects {
            let t = &r.target.text;
            let writes = r.op.contains('>') && !r.op.starts_with("<<");
            if t.starts_with("/dev/tcp/") || t.starts_with("/dev/udp/") {
                self.block(format!(
                    "opens a network socket through {t} (reverse shell)"
                ));
                continue;
            }
            if r.op == "<<<" || r.op == "<<" {
                let executes = c.argv.first().map(|w| base_name(&w.text)).is_some_and(|b| {
                    is_shell(&b)
                        || b == "at"
                        || b == "batch"
                        || INTERPRETERS.contains(&b.as_str())
                        || b == "eval"
                });
                if executes && let Some(body) = &r.body {
                    self.nested(body, depth);
                }
                continue;
            }
            if writes {
                if paths::device(t) {
                    self.block(format!("writes to the device {t}"));
                } else if paths::app_state(t, c.cwd.as_deref(), &self.env.app, &self.env.protected)
                {
                    self.block(format!("overwrites Jarvis's own state ({t})"));
                } else if let Some(why) = paths::credential(t, c.cwd.as_deref()) {
                    self.block(format!("writes a credential file: {why}"));
                } else if paths::persistence(t, c.cwd.as_deref()) {
                    self.block(format!(
                        "persistence: writes {t}, which runs at login or on a schedule"
                    ));
                } else if paths::system(t, c.cwd.as_deref()) {
                    self.block(format!("writes into a system directory ({t})"));
                } else if t != "/dev/null" && !t.starts_with("&") && !is_fd(t) {
                    self.ask(format!("writes {t}"));
                }
            } else if let Some(why) = paths::credential(t, c.cwd.as_deref()) {
                self.block(format!("reads a credential: {why}"));
            }
        }
    }

    /// `$AWS_SECRET_ACCESS_KEY` and friends, and paths to secrets or to Jarvis's state.
    fn words_secrets(&mut self, words: &[Word], c: &Command) {
        // The program after wrappers (`command echo` is `echo`).
        let base = words
            .iter()
            .filter(|w| !w.text.starts_with('-') && !w.text.contains('='))
            .map(|w| base_name(&w.text))
            .find(|b| {
                !WRAPPERS.contains(&b.as_str()) && !PRIVILEGE.contains(&b.as_str()) && b != "env"
            })
            .unwrap_or_default();
        for w in words.iter().skip(1) {
            for var in dollar_names(&w.text) {
                let up = var.to_ascii_uppercase();
                if SECRET_VARS.iter().any(|s| up.contains(s)) {
                    // Printing or storing it reveals it; passing it to a client
                    // (`curl -H "x-api-key: $KEY"`) is ordinary use, which asks.
                    let prints = matches!(
                        base.as_str(),
                        "echo"
                            | "printf"
                            | "printenv"
                            | "env"
                            | "export"
                            | "declare"
                            | "set"
                            | "tee"
                            | "cat"
                    ) || c.redirects.iter().any(|r| r.op.contains('>'))
                        || c.pipes_out;
                    if prints {
                        self.block(format!("reveals the secret variable ${var}"));
                    } else {
                        self.ask(format!("uses the secret variable ${var}"));
                    }
                }
            }
            if matches!(base.as_str(), "printenv" | "env") {
                let up = w.text.to_ascii_uppercase();
                if SECRET_VARS.iter().any(|s| up.contains(s)) {
                    self.block(format!("reveals the secret variable {}", w.text));
                }
            }
            for cand in path_candidates(&w.text) {
                if let Some(why) = paths::credential(&cand, c.cwd.as_deref()) {
                    if matches!(base.as_str(), "ls" | "stat" | "du" | "tree" | "exa" | "eza") {
                        // Names and sizes only, never the secrets themselves.
                        self.ask(format!("lists a credential store: {why}"));
                    } else {
                        self.block(format!("touches a credential: {why}"));
                    }
                }
                if paths::app_state(&cand, c.cwd.as_deref(), &self.env.app, &self.env.protected) {
                    if is_pure_reader(&base) {
                        self.ask(format!("reads Jarvis's own state ({cand})"));
                    } else {
                        self.block(format!("changes Jarvis's own state ({cand})"));
                    }
                }
            }
        }
    }

    fn cross_rules(&mut self, script: &Script, _depth: usize) {
        // A shell or interpreter reading its program from a pipe.
        for c in &script.commands {
            let Some(from) = c.stdin_from else { continue };
            if executes_stdin(c) {
                let src = &script.commands[from];
                let what = src
                    .argv
                    .first()
                    .map(|w| base_name(&w.text))
                    .unwrap_or_default();
                self.block(format!(
                    "pipes the output of {what} into an interpreter (download/decode and execute)"
                ));
            }
            if c.argv.first().is_some_and(|w| {
                matches!(
                    lower(&base_name(&w.text)).as_str(),
                    "iex" | "invoke-expression"
                )
            }) {
                self.block("pipes text into Invoke-Expression (download and execute)");
            }
            if c.argv
                .first()
                .is_some_and(|w| lower(&base_name(&w.text)) == "remove-item")
                && script.commands[from]
                    .argv
                    .iter()
                    .any(|w| lower(&w.text) == "-recurse")
            {
                self.block("deletes everything a recursive listing finds");
            }
        }
        // Fetch to a file, then make it executable or run it.
        let fetched: Vec<String> = script
            .commands
            .iter()
            .filter(|c| self.is_fetch(c))
            .flat_map(output_files)
            .collect();
        for f in &fetched {
            let name = f.trim_start_matches("./");
            for c in &script.commands {
                let argv: Vec<&str> = c.argv.iter().map(|w| w.text.as_str()).collect();
                let runs = argv
                    .first()
                    .is_some_and(|a| a.trim_start_matches("./") == name && a.contains('/'))
                    || (argv.first().is_some_and(|a| {
                        is_shell(&base_name(a)) || INTERPRETERS.contains(&base_name(a).as_str())
                    }) && argv
                        .get(1)
                        .is_some_and(|a| a.trim_start_matches("./") == name))
                    || (argv.first() == Some(&"chmod")
                        && argv.iter().any(|a| a.contains("+x"))
                        && argv.iter().any(|a| a.trim_start_matches("./") == name));
                if runs {
                    self.block(format!(
                        "download and execute ({name} is fetched, then run)"
                    ));
                }
            }
        }
    }
}
