//! Functions a line defines and calls: which calls can be judged with
//! their literal arguments, and which bodies must also be judged with
//! arguments unknown.

use super::*;

/// A body whose arguments are the call's, as given, and whose values are
/// its own: nothing moves the arguments (`shift`, `set`, `getopts`,
/// sourcing, aliases, `IFS`), names the shell (`$0`) or the tenth argument
/// ambiguously (`$10`), `"$@"` appears only as a word of its own, and
/// every other variable it reads it sets itself (a global's value is the
/// caller's, which a body parsed alone does not know).
pub(super) fn plain_body(body: &str) -> bool {
    const MOVERS: &[&str] = &[
        "shift",
        "set",
        "getopts",
        "eval",
        "source",
        "alias",
        "IFS",
        "BASH_ARGV",
        "BASH_ARGC",
        "FUNCNAME",
        "unset",
        "mapfile",
        "readarray",
    ];
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let moves = body.split(|c: char| !ident(c)).any(|t| MOVERS.contains(&t));
    let sources = body
        .split(['\n', ';', '&', '|', '{', '(', '`'])
        .any(|st| st.trim_start().starts_with(". "));
    // `"$@"` alone as a word; no `$*`, `${@…}` forms, `$@` unquoted or
    // inside other quotes.
    let mut at_ok = true;
    for (i, _) in body.match_indices('$') {
        let rest = &body[i + 1..];
        let before = body[..i].chars().last();
        if rest.starts_with('@') || rest.starts_with("{@") {
            let token = rest.starts_with("@\"") && before == Some('"');
            // The character before the opening quote (char-wise: a letter
            // before it may take several bytes).
            let pre = body[..i].chars().rev().nth(1);
            let post = rest.get(2..).and_then(|r| r.chars().next());
            at_ok &= token
                && pre.is_none_or(|c| c.is_whitespace() || c == '(')
                && post.is_none_or(|c| c.is_whitespace() || matches!(c, ';' | ')' | '|' | '&'));
            at_ok &= !body.contains('\'');
        }
        if rest.starts_with('*') || rest.starts_with("{*") || rest.starts_with('0') {
            at_ok = false;
        }
        if rest.len() > 1
            && rest.as_bytes()[0].is_ascii_digit()
            && rest.as_bytes()[1].is_ascii_digit()
        {
            at_ok = false;
        }
        // A variable it reads: its own (set here) or positional.
        let name: String = rest
            .trim_start_matches('{')
            .chars()
            .take_while(|c| ident(*c))
            .collect();
        // The session's own values read the same at every call.
        let constant = matches!(
            name.as_str(),
            "HOME" | "PWD" | "USER" | "LOGNAME" | "TMPDIR" | "RANDOM" | "LINENO" | "SECONDS"
        ) || name.starts_with("XDG_");
        let own = name.is_empty()
            || constant
            || name.chars().all(|c| c.is_ascii_digit())
            || set_before(body, &name, i);
        at_ok &= own;
    }
    !moves && !sources && at_ok
}

/// A function's body with `"$@"` spelled as the literal arguments of one
/// call (a plain body: every `"$@"` a word of its own).
pub(super) fn with_arguments(body: &str, args: &[String]) -> String {
    let each = args
        .iter()
        .map(|a| spelled(a))
        .collect::<Vec<_>>()
        .join(" ");
    body.replace("\"$@\"", &each)
}

/// A value as one shell word again: quoted, with home as the parser marks
/// it spelled `~/` outside the quotes.
pub(super) fn spelled(a: &str) -> String {
    let quote = |a: &str| format!("'{}'", a.replace('\'', "'\\''"));
    match a.strip_prefix(HOME) {
        Some("") => "~".to_string(),
        Some(rest) => format!("~/{}", quote(rest.trim_start_matches('/'))),
        None => quote(a),
    }
}

/// The commands of function bodies that are judged at every call: each
/// call names the function as its program with literal arguments, and the
/// name appears nowhere else (no `trap f`, `export -f f`, `xargs f`).
pub(super) fn followed_bodies(src: &str, script: &Script) -> Vec<std::ops::Range<usize>> {
    script
        .function_spans
        .iter()
        .filter(|(name, _)| {
            let calls: Vec<&Command> = script
                .commands
                .iter()
                .filter(|c| {
                    c.argv
                        .first()
                        .is_some_and(|w| !w.dynamic && w.text == *name)
                })
                .collect();
            let literal = calls
                .iter()
                .all(|c| c.argv[1..].iter().all(|w| !w.dynamic) && c.assigns.is_empty());
            // `rm() { command rm -i "$@"; }`: the body's `command rm` (or
            // `/bin/rm`) runs the program, not the function.
            let bypasses: usize = script
                .functions
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, body)| program_mentions(body, name))
                .sum();
            let mentions = src
                .split(|ch: char| !(ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-' | '.')))
                .filter(|t| t == name)
                .count()
                .saturating_sub(bypasses);
            // A call in a loop is walked once per value: one place in the line.
            let mut sites: Vec<usize> = calls.iter().map(|c| c.at).collect();
            sites.sort_unstable();
            sites.dedup();
            let defined = script.functions.iter().filter(|(n, _)| n == name).count();
            // Aliases rewrite words before functions are looked up.
            let aliased = src.contains("alias");
            // A `shift` is followed at the call (the operands are known
            // there, and unknown after one in a loop or a branch).
            let plain = script
                .functions
                .iter()
                .filter(|(n, _)| n == name)
                .all(|(_, body)| plain_body(&body.replace("shift", ":")));
            // Defined once: a call meets the body this analysis reads.
            !calls.is_empty()
                && literal
                && plain
                && defined == 1
                && !aliased
                && calls.iter().all(|c| c.cwd.is_none())
                && mentions == sites.len() + defined
        })
        .map(|(_, r)| r.clone())
        .collect()
}

/// How many times `body` runs the program `name` past a function of that
/// name: `command name`, `builtin name`, `/usr/bin/name`.
fn program_mentions(body: &str, name: &str) -> usize {
    let ident = |ch: char| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-' | '.');
    body.match_indices(name)
        .filter(|(at, _)| {
            let before = &body[..*at];
            let after = &body[at + name.len()..];
            let whole = !after.starts_with(ident);
            let bypass = before.ends_with("command ")
                || before.ends_with("builtin ")
                || before.ends_with('/') && !before.ends_with(" /");
            whole && bypass
        })
        .count()
}

/// Names of this script's functions that are not functions at command `i`:
/// defined only later (`rm -rf ~; rm() { :; }`), or `unset -f` since
/// their last definition.
pub(super) fn hidden_at(script: &Script, i: usize) -> Vec<String> {
    let mut out = Vec::new();
    for (name, _) in &script.function_spans {
        if out.contains(name) {
            continue;
        }
        let defined_at = script
            .function_spans
            .iter()
            .filter(|(n, r)| n == name && r.start <= i)
            .map(|(_, r)| r.start)
            .max();
        let unset_at = script
            .commands
            .iter()
            .enumerate()
            .take(i)
            .filter(|(_, c)| {
                c.argv.first().is_some_and(|w| w.text == "unset")
                    && !c.argv.iter().any(|w| w.text == "-v")
                    && c.argv[1..].iter().any(|w| w.text == *name)
            })
            .map(|(k, _)| k)
            .max();
        let hidden = match (defined_at, unset_at) {
            (None, _) => true,
            (Some(d), Some(u)) => u >= d,
            (Some(_), None) => false,
        };
        if hidden {
            out.push(name.clone());
        }
    }
    out
}

/// The body each of this script's functions has at command `i`: its latest
/// definition before it (`f() { cat "$@"; }; f x; f() { :; }` calls the
/// first).
pub(super) fn bodies_at(script: &Script, i: usize) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (name, start, body) in &script.function_defs {
        if *start <= i {
            out.retain(|(n, _)| n != name);
            out.push((name.clone(), body.clone()));
        }
    }
    out
}

/// `name` is set in `body` before byte `read_at`, where it is read: an
/// assignment at the start of a word (`n=0`, `local n=0`), a `for` or a
/// `read` naming it.
fn set_before(body: &str, name: &str, read_at: usize) -> bool {
    let head = &body[..read_at.min(body.len())];
    let boundary = |i: usize| {
        head[..i]
            .chars()
            .last()
            .is_none_or(|c| c.is_whitespace() || matches!(c, ';' | '{' | '(' | '&' | '|'))
    };
    head.match_indices(&format!("{name}="))
        .any(|(i, _)| boundary(i))
        || head.contains(&format!("for {name} "))
        || head.contains(&format!("read -r {name}"))
        || head.contains(&format!("read {name}"))
}

/// A script that starts itself (`$0`, or its own path) twice, or in the
/// background or a pipeline: each copy starts more (`sh $0 & sh $0`).
pub(super) fn script_forks_itself(text: &str, path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let is_self = |t: &str| {
        let t = t.trim_matches(['"', '\'']);
        matches!(
            t,
            "$0" | "${0}" | "$BASH_SOURCE" | "${BASH_SOURCE}" | "${BASH_SOURCE[0]}"
        ) || t == path
            || t.rsplit('/').next() == Some(name) && (t.starts_with("./") || t == name)
    };
    let mut runs = 0;
    let mut multiplied = false;
    let mut rest = text;
    while !rest.is_empty() {
        let end = rest.find([';', '&', '|', '\n']).unwrap_or(rest.len());
        let words: Vec<&str> = rest[..end].split_whitespace().collect();
        let starts_self = match words.as_slice() {
            [first, ..] if is_self(first) => true,
            [shell, second, ..] => is_shell(&base_name(shell)) && is_self(second),
            _ => false,
        };
        let sep = rest[end..].chars().next();
        // (`&&` and `||` run one after the other.)
        let doubled = sep.is_some_and(|s| rest[end + 1..].starts_with(s));
        if starts_self {
            runs += 1;
            multiplied |= matches!(sep, Some('&' | '|')) && !doubled;
        }
        rest = rest
            .get(end + sep.map_or(0, char::len_utf8)..)
            .unwrap_or("");
    }
    runs >= 2 || multiplied
}
