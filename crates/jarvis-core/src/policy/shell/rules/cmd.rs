//! A command as the rules see it: its real program and arguments.

use super::*;

/// A command reduced to its real program and arguments.
pub(in crate::policy::shell) struct Cmd<'a> {
    /// The program's base name, as written (`python3`, `Remove-Item`).
    pub base: String,
    /// Lower-case base name.
    pub lb: String,
    /// The program's words (`words[0]` is the program).
    pub words: Vec<Word>,
    pub args: Vec<String>,
    pub src: &'a Command,
    /// The assignments in force for the program: the command's own
    /// prefix (`X=1 cmd`) and those `env X=1 cmd` gave it.
    pub assigns: std::borrow::Cow<'a, [(String, Word)]>,
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
            .any(|x| x == flag || eq_value(x, flag).is_some())
    }
    /// A short flag, alone or bundled (`-rf` has `r`).
    pub fn short(&self, c: char) -> bool {
        self.args.iter().any(|x| short_has(x, c))
    }
    /// The value after `flag` (`-o F`, `--output F`, `--output=F`).
    pub fn value(&self, flag: &str) -> Option<&Word> {
        let i = self
            .args
            .iter()
            .position(|x| x == flag || eq_value(x, flag).is_some())?;
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

pub(in crate::policy::shell) fn base_name(word: &str) -> String {
    base_str(word).to_string()
}

/// The program a word names, as the tables list it (`/usr/bin/Python3.12`
/// → `python3`).
pub(in crate::policy::shell) fn program_name(word: &str) -> String {
    base_str(word).to_ascii_lowercase()
}

/// As [`base_name`], a part of the word itself (nothing allocated: this
/// runs for every word of every command judged).
pub(in crate::policy::shell) fn base_str(word: &str) -> &str {
    let w = word.trim_start_matches('\\');
    let b = w.rsplit(['/', '\\']).next().unwrap_or(w);
    let b = match b
        .len()
        .checked_sub(4)
        .and_then(|k| b.get(k..).map(|t| (k, t)))
    {
        Some((k, t)) if t.eq_ignore_ascii_case(".exe") => &b[..k],
        _ => b,
    };
    // `mkfs.ext4` → `mkfs`, `python3.12` → `python3`.
    let b = match b.split_once('.') {
        Some((head, tail))
            if !head.is_empty()
                && (head == "mkfs"
                    || head == "fsck"
                    || (!tail.is_empty()
                        && tail.chars().all(|c| c.is_ascii_digit() || c == '.'))) =>
        {
            head
        }
        _ => b,
    };
    // `lua5.4`, `perl5.36`, `php8.2`, `tclsh8.6`, `lua54`: the interpreter
    // under its versioned name (the tables list `python3` as it is).
    let bare = b.trim_end_matches(|c: char| c.is_ascii_digit());
    if bare.len() < b.len() && VERSIONED.iter().any(|v| bare.eq_ignore_ascii_case(v)) {
        bare
    } else {
        b
    }
}

/// Interpreters installed under versioned names.
const VERSIONED: &[&str] = &[
    "lua", "luajit", "perl", "ruby", "jruby", "php", "tclsh", "wish", "pypy", "node", "nodejs",
    "guile", "racket", "octave", "julia", "ghci", "runghc", "erl", "elixir",
];

/// The value of `--flag=VALUE` when `x` is that flag with a value.
pub(in crate::policy::shell) fn eq_value<'a>(x: &'a str, flag: &str) -> Option<&'a str> {
    x.strip_prefix(flag)?.strip_prefix('=')
}

/// The long option `flag`'s value in `x` as GNU getopt_long reads it:
/// `--flag=V`, or a prefix of the name (`--compress=sh` for
/// `--compress-program`; two letters at least, so `--c` is no match).
pub(in crate::policy::shell) fn long_value<'a>(x: &'a str, flag: &str) -> Option<&'a str> {
    let (name, v) = x.split_once('=')?;
    (flag.starts_with("--") && name.starts_with("--") && name.len() >= 4 && flag.starts_with(name))
        .then_some(v)
}

/// `x` spells `flag` as getopt reads it: whole, with its value after `=`,
/// a long option's prefix (`--out`), or a short option bundled or glued to
/// its value (`-uo`, `-o../x`).
pub(in crate::policy::shell) fn spells(x: &str, flag: &str) -> bool {
    if x == flag || long_value(x, flag).is_some() {
        return true;
    }
    if let Some(long) = flag.strip_prefix("--") {
        let name = x.split('=').next().unwrap_or(x);
        return !long.is_empty()
            && name.len() >= 4
            && name.starts_with("--")
            && flag.starts_with(name);
    }
    match flag
        .strip_prefix('-')
        .map(str::chars)
        .map(|mut c| (c.next(), c.next()))
    {
        Some((Some(ch), None)) => x.starts_with(flag) && !x.starts_with("--") || short_has(x, ch),
        _ => false,
    }
}

pub(in crate::policy::shell) fn is_shell(b: &str) -> bool {
    tables::SHELLS.contains(&b)
}

pub(in crate::policy::shell) fn lower(s: &str) -> String {
    s.to_ascii_lowercase()
}

/// How a word may be shown in a reason.
pub(in crate::policy::shell) fn shown(s: &str) -> String {
    s.replace(HOME, "~")
}

/// The letters of a word of short flags (`-rf` → `rf`); `--long` and a
/// lone `-` are not.
pub fn short_flags(x: &str) -> Option<&str> {
    x.strip_prefix('-')
        .filter(|b| !b.is_empty() && !b.starts_with('-'))
}

/// A short flag, alone or bundled with others (`-rf` has `r`).
pub fn short_has(x: &str, c: char) -> bool {
    short_flags(x).is_some_and(|b| b.contains(c))
}

/// A bundle of single-letter switches only (`-ndx`), no value attached
/// (`-n5`, `-ofile`): the form in which every letter is a flag.
pub fn letter_flags(x: &str) -> Option<&str> {
    short_flags(x).filter(|b| b.chars().all(|c| c.is_ascii_alphabetic()))
}
