//! Parameter operators worked out where the value is known: `${v^^}`,
//! `${v#x}`, `${v:1:3}`, `${!ref}`, each for every value a branch left.

use super::*;

impl Walker<'_> {
    /// `${v…}` worked on (`${!ref}`, `${NAME:offset:length}`, …), resolved
    /// when the variables are known (`${PATH:0:1}` is a `/`), with the values
    /// a branch left `v` with as its choices (the last one is its text, as a
    /// plain `$v` has).
    pub(super) fn operated(&self, t: &str) -> Option<Word> {
        let text = self.operated_with(t, None)?;
        let inner = t.strip_prefix("${")?.strip_suffix('}')?;
        let name: String = inner
            .trim_start_matches(['!', '#'])
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let (choices, open) = match self.vars.alts.get(&name) {
            Some((values, open)) => {
                let each: Option<Vec<String>> = values
                    .iter()
                    .map(|v| self.operated_with(t, Some((&name, v))))
                    .collect();
                match each {
                    Some(c) => (c, *open),
                    // Worked on, a value may be anything: not known.
                    None => return None,
                }
            }
            None => (Vec::new(), false),
        };
        Some(Word {
            text,
            computed: true,
            choices,
            open,
            ..Default::default()
        })
    }

    /// `${v…}` worked on, `over` standing in for one variable's value.
    fn operated_with(&self, t: &str, over: Option<(&str, &str)>) -> Option<String> {
        let inner = t.strip_prefix("${")?.strip_suffix('}')?;
        let known = |n: &str| match over {
            Some((o, v)) if o == n => Some(v.to_string()),
            _ => self.vars.known.get(n).cloned(),
        };
        let lookup = |n: &str| match over {
            Some((o, v)) if o == n => Some(v.to_string()),
            _ => self.lookup(n),
        };
        let ident = |s: &str| {
            !s.is_empty()
                && s.chars().all(|c| c.is_alphanumeric() || c == '_')
                && !s.starts_with(|c: char| c.is_ascii_digit())
        };
        if let Some(r) = inner.strip_prefix('!') {
            if !ident(r) {
                return None;
            }
            let target = lookup(r)?;
            return ident(&target).then(|| lookup(&target)).flatten();
        }
        // `${n^^}`, `${n,,}`, `${n^}`, `${n,}`: the value with its case changed.
        for (op, f) in [
            ("^^", (|v: &str| v.to_uppercase()) as fn(&str) -> String),
            (",,", |v: &str| v.to_lowercase()),
            ("^", |v: &str| {
                let mut c = v.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect())
                    .unwrap_or_default()
            }),
            (",", |v: &str| {
                let mut c = v.chars();
                c.next()
                    .map(|f| f.to_lowercase().chain(c).collect())
                    .unwrap_or_default()
            }),
        ] {
            if let Some(name) = inner.strip_suffix(op).filter(|n| ident(n)) {
                return known(name).map(|v| f(&v));
            }
        }
        // `${p%/cache}`, `${t#IGNORE}`, `${d:?msg}` with a literal pattern:
        // the value with that end taken off, or the value itself.
        // `${t%/*}`, `${t##*/}`: a wildcard pattern, the shortest or
        // longest end that matches it taken off.
        for op in ["##", "%%", "#", "%", ":?", "?"] {
            if let Some((name, pat)) = inner.split_once(op)
                && (ident(name) || !name.is_empty() && name.chars().all(|c| c.is_ascii_digit()))
                // `$PWD` and `$HOME` are placeholders here, not their text.
                && !matches!(name, "PWD" | "HOME" | "OLDPWD")
                && !pat.contains(['$', '\\', '"', '\'', '(', '+', '@', '!'])
                && let Some(v) = lookup(name).as_ref()
                // A pattern (a loop over `/proc/[0-9]*`) is not a value.
                && !v.contains(['*', '?', '['])
            {
                return match op {
                    "#" | "##" | "%" | "%%" if pat.contains(['*', '?', '[']) => {
                        strip_pattern(v, pat, op)
                    }
                    "#" | "##" => Some(v.strip_prefix(pat).unwrap_or(v).to_string()),
                    "%" | "%%" => Some(v.strip_suffix(pat).unwrap_or(v).to_string()),
                    _ => Some(v.clone()),
                };
            }
        }
        let (name, ops) = inner.split_once(':')?;
        if !ident(name) {
            return None;
        }
        let (off, len) = match ops.split_once(':') {
            Some((o, l)) => (o.trim(), Some(l.trim())),
            None => (ops.trim(), None),
        };
        let off: usize = off.parse().ok()?;
        let len: Option<usize> = match len {
            Some(l) => Some(l.parse().ok()?),
            None => None,
        };
        // A value this line assigned is known exactly. Of the environment's,
        // only the first character is: HOME, PWD, PATH and SHELL start
        // with `/`, whatever else they hold.
        let Some(value) = known(name) else {
            let rooted = matches!(name, "HOME" | "PWD" | "PATH" | "SHELL");
            return (rooted && off == 0 && len == Some(1)).then(|| "/".to_string());
        };
        let rest = value.chars().skip(off);
        Some(match len {
            Some(l) => rest.take(l).collect(),
            None => rest.collect(),
        })
    }
}

/// `v` with the end `op` names taken off where the wildcard `pat` matches
/// it: `#` the shortest start, `##` the longest, `%` the shortest end, `%%`
/// the longest. A value that starts with `$HOME`'s or `$PWD`'s stand-in
/// (`~`, `.`) hides the folders in it: only a cut past the stand-in, of a
/// length the hidden folders cannot change, is known.
fn strip_pattern(v: &str, pat: &str, op: &str) -> Option<String> {
    // Character classes (`[[:alpha:]]`), a `]` first in a set, and long
    // texts are not worked out here: the value is unknown.
    if pat.contains("[:") || pat.contains("[]") || pat.contains("[!]") || pat.contains("[^]") {
        return None;
    }
    if v.len() > 1024 || pat.len() > 256 {
        return None;
    }
    let stand_in = v == "~" || v == "." || v.starts_with("~/") || v.starts_with("./");
    if stand_in && (op == "#" || op == "%%" || op == "##" && !pat.starts_with('*')) {
        return None;
    }
    let cuts: Vec<usize> = v
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(v.len()))
        .collect();
    let matches = |s: &str| crate::policy::shell::paths::pattern_match(pat, s);
    let cut = match op {
        "#" => cuts.iter().copied().find(|&i| matches(&v[..i])),
        "##" => cuts.iter().rev().copied().find(|&i| matches(&v[..i])),
        "%" => cuts.iter().rev().copied().find(|&i| matches(&v[i..])),
        _ => cuts.iter().copied().find(|&i| matches(&v[i..])),
    };
    match cut {
        // No match leaves the value, unless the hidden folders would match.
        None if stand_in => None,
        None => Some(v.to_string()),
        Some(i) if stand_in && i < 1 => None,
        Some(i) if op.starts_with('#') => Some(v[i..].to_string()),
        Some(i) => Some(v[..i].to_string()),
    }
}
