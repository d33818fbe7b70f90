//! `env [-i] [-u N] [-C DIR] [-S STR] [N=V]… CMD`: its options read as GNU
//! env reads them, its assignments, and the folder it runs the program in.

use super::*;

impl Analyzer<'_> {
    /// `env [-i] [-u N] [-C DIR] [-S STR] [N=V]… CMD`: Some(true) when a
    /// program is left to judge.
    pub(super) fn env_wrapper(
        &mut self,
        words: &mut Vec<Word>,
        c: &Command,
        script: &Script,
        depth: usize,
    ) -> Option<bool> {
        words.remove(0);
        let mut assigns = Vec::new();
        let mut chdir: Option<Word> = None;
        let options = env_options(words);
        // With no program, env prints the environment (empty after `-i`).
        let cleared = options.iter().any(|(n, _)| *n == "ignore-environment");
        // Options come first; the first word that is not one ends them.
        for (name, value) in options {
            match (name, value) {
                ("chdir", Some(d)) => chdir = Some(d),
                ("split-string", Some(s)) => {
                    // The string is split into words and read as env's
                    // own (options first: `-S '-C DIR cmd'`), with the
                    // words after it, in the folder `-C` named.
                    let mut text = format!("env {}", s.text);
                    for rest in words.iter() {
                        text.push(' ');
                        text.push_str(&rest.text);
                    }
                    let text = match &chdir {
                        Some(d) if d.dynamic => format!("cd \"$__unknown_folder\" && {text}"),
                        Some(d) => format!("cd {} && {text}", super::functions::spelled(&d.text)),
                        None => text,
                    };
                    self.script(&text, &[], depth + 1);
                    return None;
                }
                _ => {}
            }
        }
        while let Some(w) = words.first().cloned() {
            let Some((k, v)) = w.text.split_once('=').filter(|(k, _)| {
                // `env` passes any name, bash's exported functions too
                // (`BASH_FUNC_ls%%`).
                !k.is_empty()
                    && k.chars()
                        .all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '%')
            }) else {
                break;
            };
            let mut value = w.clone();
            value.text = v.to_string();
            assigns.push((k.to_string(), value));
            words.remove(0);
        }
        self.env_changed |= !assigns.is_empty();
        self.assigns(&assigns, c, script, depth);
        if words.is_empty() {
            self.bases.push("env".into());
            if !cleared && !super::readonly::names_only(c, script) {
                self.ask("prints the whole environment");
            }
            return None;
        }
        // The program is judged with env's assignments in force, so the
        // rules that read `JAVA_TOOL_OPTIONS` or `NODE_OPTIONS` see them.
        self.env_given.extend(assigns);
        if let Some(dir) = chdir {
            let moved = Command {
                cwd: Some(if dir.dynamic {
                    parse::UNKNOWN_DIR.to_string()
                } else {
                    // In the parser's spelling of home, as `cd ~` leaves it.
                    let d = self.norm(&dir, c.cwd.as_deref());
                    match d.strip_prefix('~') {
                        Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                            format!("{HOME}{rest}")
                        }
                        _ => d,
                    }
                }),
                cwd_choices: Vec::new(),
                ..c.clone()
            };
            let outer = std::mem::replace(&mut self.cwd_now, moved.cwd.clone());
            self.run_words(std::mem::take(words), &moved, script, depth);
            self.cwd_now = outer;
            return None;
        }
        Some(true)
    }
}

/// env's long options (GNU getopt takes any unique prefix), and whether
/// each takes a value.
const ENV_LONG: &[(&str, bool)] = &[
    ("ignore-environment", false),
    ("null", false),
    ("unset", true),
    ("chdir", true),
    ("split-string", true),
    ("argv0", true),
    ("block-signal", false),
    ("default-signal", false),
    ("ignore-signal", false),
    ("list-signal-handling", false),
    ("debug", false),
    ("help", false),
    ("version", false),
];

/// Takes env's options off the front of `words` (`-iC DIR`, `-CDIR`,
/// `--ch=DIR`, `--chdir DIR`, `--`), each by its long name with its value.
fn env_options(words: &mut Vec<Word>) -> Vec<(&'static str, Option<Word>)> {
    let short = |ch: char| match ch {
        'i' => Some(("ignore-environment", false)),
        '0' => Some(("null", false)),
        'v' => Some(("debug", false)),
        'u' => Some(("unset", true)),
        'C' => Some(("chdir", true)),
        'S' => Some(("split-string", true)),
        'a' => Some(("argv0", true)),
        _ => None,
    };
    let mut out = Vec::new();
    while let Some(w) = words.first().cloned() {
        let t = w.text.as_str();
        if t == "--" {
            words.remove(0);
            break;
        }
        if !t.starts_with('-') || t == "-" {
            break;
        }
        words.remove(0);
        let with = |text: &str| Word {
            text: text.to_string(),
            ..w.clone()
        };
        if let Some(long) = t.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(with(v))),
                None => (long, None),
            };
            let found = ENV_LONG
                .iter()
                .find(|(l, _)| *l == name)
                .or_else(|| ENV_LONG.iter().find(|(l, _)| l.starts_with(name)));
            // An option env does not have: what follows is not known.
            let Some(&(name, takes)) = found else {
                out.push(("unknown", None));
                continue;
            };
            let value = if takes && inline.is_none() && !words.is_empty() {
                Some(words.remove(0))
            } else {
                inline
            };
            out.push((name, value));
            continue;
        }
        let letters = &t[1..];
        for (k, ch) in letters.char_indices() {
            let Some((name, takes)) = short(ch) else {
                out.push(("unknown", None));
                continue;
            };
            if !takes {
                out.push((name, None));
                continue;
            }
            let rest = &letters[k + ch.len_utf8()..];
            let value = if !rest.is_empty() {
                Some(with(rest))
            } else if !words.is_empty() {
                Some(words.remove(0))
            } else {
                None
            };
            out.push((name, value));
            break;
        }
    }
    out
}
