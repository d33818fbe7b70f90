//! Names, word helpers and the lists the rules consult.

use super::*;

pub(super) fn help_like(args: &[String]) -> bool {
    args.len() == 1 && matches!(args[0].as_str(), "--version" | "-V" | "--help" | "-h")
}

pub(super) fn is_pure_reader(base: &str) -> bool {
    matches!(
        base,
        "cat"
            | "ls"
            | "head"
            | "tail"
            | "less"
            | "more"
            | "sqlite3"
            | "du"
            | "stat"
            | "file"
            | "wc"
            | "grep"
            | "rg"
            | "find"
            | "tree"
    )
}

/// Non-option arguments, honouring `--`.
pub(super) fn operands(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut ended = false;
    for x in args {
        if !ended && x == "--" {
            ended = true;
        } else if ended || !x.starts_with('-') || x == "-" {
            out.push(x.clone());
        }
    }
    out
}

/// `$NAME` and `${NAME}` inside a word.
pub(super) fn dollar_names(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < b.len() {
        if b[i] == '$' {
            let mut j = i + 1;
            if j < b.len() && b[j] == '{' {
                j += 1;
            }
            let start = j;
            while j < b.len() && (b[j].is_alphanumeric() || b[j] == '_') {
                j += 1;
            }
            if j > start {
                out.push(b[start..j].iter().collect());
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The path-like parts of an argument: itself, after `=`, after `@`.
pub(super) fn path_candidates(w: &str) -> Vec<String> {
    let mut v = vec![w.to_string()];
    if let Some((_, r)) = w.split_once('=') {
        v.push(r.to_string());
    }
    if let Some(r) = w.strip_prefix('@') {
        v.push(r.to_string());
    }
    if let Some((_, r)) = w.split_once("=@") {
        v.push(r.to_string());
    }
    v.retain(|x| !x.is_empty() && !x.starts_with("http://") && !x.starts_with("https://"));
    v
}

/// A shell or interpreter that would read its program from stdin.
pub(super) fn executes_stdin(c: &Command) -> bool {
    let Some(first) = c.argv.first() else {
        return false;
    };
    let mut b = base_name(&first.text);
    let mut rest: Vec<&str> = c.argv.iter().skip(1).map(|w| w.text.as_str()).collect();
    while PRIVILEGE.contains(&b.as_str()) || b == "env" || WRAPPERS.contains(&b.as_str()) {
        let next = rest
            .iter()
            .position(|x| !x.starts_with('-') && !x.contains('='));
        let Some(n) = next else { return false };
        b = base_name(rest[n]);
        rest = rest[n + 1..].to_vec();
    }
    if is_shell(&b) {
        return !rest.iter().any(|x| *x == "-c" || (!x.starts_with('-')))
            || rest.contains(&"-s")
            || rest.contains(&"-");
    }
    if INTERPRETERS.contains(&b.as_str()) {
        let has_code = rest
            .iter()
            .any(|x| matches!(*x, "-c" | "-e" | "-r" | "--eval" | "-E"));
        let file = rest.iter().find(|x| !x.starts_with('-'));
        return !has_code && (file.is_none() || rest.contains(&"-"));
    }
    false
}

/// Files a fetcher writes: `-o F`, `-O` (URL basename), `--output F`, `> F`.
pub(super) fn output_files(c: &Command) -> Vec<String> {
    let argv: Vec<&str> = c.argv.iter().map(|w| w.text.as_str()).collect();
    let mut out = Vec::new();
    for (i, a) in argv.iter().enumerate() {
        // `-o F`, `--output F`, wget's `-O F`, and bundles ending in o (`-sLo F`).
        let names_file = *a == "-o"
            || *a == "--output"
            || (*a == "-O" && base_name(argv[0]) == "wget")
            || (a.starts_with('-') && !a.starts_with("--") && a.ends_with('o') && a.len() > 2);
        if names_file && i + 1 < argv.len() {
            out.push(argv[i + 1].to_string());
        } else if (*a == "-O"
            || *a == "--remote-name"
            || (base_name(argv[0]) == "wget"
                && i == argv.len() - 1
                && a.starts_with("http")
                && !argv.iter().any(|x| {
                    x.starts_with('-')
                        && !x.starts_with("--")
                        && (x.contains('O') || x.contains('o'))
                })))
            && let Some(url) = argv.iter().find(|x| x.starts_with("http"))
        {
            out.push(url.rsplit('/').next().unwrap_or("").to_string());
        }
    }
    for r in &c.redirects {
        if r.op.contains('>') {
            out.push(r.target.text.clone());
        }
    }
    out
}

/// A redirect to a file descriptor (`2>1` style), not a file.
pub(super) fn is_fd(t: &str) -> bool {
    !t.is_empty() && t.chars().all(|ch| ch.is_ascii_digit())
}
