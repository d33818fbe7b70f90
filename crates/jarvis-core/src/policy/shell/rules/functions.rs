//! Functions a line defines and calls: which calls can be judged with
//! their literal arguments, and which bodies must also be judged with
//! arguments unknown.

use super::*;

/// A body whose arguments are the call's, as given: nothing moves them
/// (`shift`, `set --`, `getopts`), names the shell (`$0`), or quotes
/// `"$@"` inside other quotes (`bash -c '"$@"'`).
pub(super) fn plain_body(body: &str) -> bool {
    let moves = [
        "shift",
        "set ",
        "set\t",
        "set\n",
        "getopts",
        "$0",
        "${0",
        "BASH_ARGV",
        "eval",
    ]
    .iter()
    .any(|k| body.contains(k));
    let quoted_all = (body.contains("$@")
        || body.contains("$*")
        || body.contains("${@")
        || body.contains("${*"))
        && body.contains('\'');
    !moves && !quoted_all
}

/// A function's body with `"$@"` and `"$*"` spelled as the literal
/// arguments of one call.
pub(super) fn with_arguments(body: &str, args: &[String]) -> String {
    let quote = |a: &str| format!("'{}'", a.replace('\'', "'\\''"));
    let each = args.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" ");
    let joined = quote(&args.join(" "));
    body.replace("\"$@\"", &each)
        .replace("\"${@}\"", &each)
        .replace("\"$*\"", &joined)
        .replace("\"${*}\"", &joined)
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
            let mentions = src
                .split(|ch: char| !(ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-' | '.')))
                .filter(|t| t == name)
                .count();
            let defined = script.functions.iter().filter(|(n, _)| n == name).count();
            let plain = script
                .functions
                .iter()
                .filter(|(n, _)| n == name)
                .all(|(_, body)| plain_body(body));
            !calls.is_empty() && literal && plain && mentions == calls.len() + defined
        })
        .map(|(_, r)| r.clone())
        .collect()
}
