//! A program's options read against an allow-list: the inspectors that
//! are read-only only with options that shape what is printed (`jdeps`,
//! `keytool -list`, `hledger bal`) walk their words here. Any option not
//! listed ends the walk, so a new or unknown option asks.

use super::*;

/// One program's options that change nothing.
pub(super) struct Options {
    /// Options that take no value.
    pub bare: &'static [&'static str],
    /// Options whose value is the next word, or glued on with `=` to a
    /// long option.
    pub valued: &'static [&'static str],
    /// Long options whose value may only be glued on (`--color=never`).
    pub glued_only: &'static [&'static str],
    /// Short options whose value may follow with no space (`-fFILE`).
    pub glued_short: &'static [&'static str],
}

/// A word the walk accepted: an option's value, or an operand.
pub(super) enum Part {
    Value(&'static str, Word),
    Operand(Word),
}

/// The command's words from index `from` (0 is the program), read
/// against `o`: `None` at the first option it does not list, or a value
/// that is missing.
pub(super) fn walk(c: &Cmd<'_>, from: usize, o: &Options) -> Option<Vec<Part>> {
    let listed = |list: &[&'static str], f: &str| list.iter().copied().find(|x| *x == f);
    let glued = |w: &Word, v: &str| Word {
        text: v.to_string(),
        ..w.clone()
    };
    let mut parts = Vec::new();
    let mut i = from;
    while let Some(w) = c.words.get(i) {
        let t = w.text.as_str();
        let (flag, value) = match t.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (t, None),
        };
        if let Some(f) = listed(o.valued, flag) {
            let v = match value {
                Some(v) => glued(w, v),
                None => {
                    i += 1;
                    c.words.get(i)?.clone()
                }
            };
            parts.push(Part::Value(f, v));
        } else if let (Some(f), Some(v)) = (listed(o.glued_only, flag), value) {
            parts.push(Part::Value(f, glued(w, v)));
        } else if let Some((f, v)) = o
            .glued_short
            .iter()
            .find_map(|f| Some((*f, t.strip_prefix(f).filter(|v| !v.is_empty())?)))
            .filter(|_| !t.starts_with("--"))
        {
            parts.push(Part::Value(f, glued(w, v)));
        } else if t.starts_with('-') && t.len() > 1 {
            listed(o.bare, t)?;
        } else {
            parts.push(Part::Operand(w.clone()));
        }
        i += 1;
    }
    Some(parts)
}
