//! The few expansions the analyser evaluates itself, exactly as bash would:
//! `$'…'` escapes, brace lists, `printf` formats, and the output of
//! substitutions that only print their arguments or a path.

use super::parse::{Command, HOME};

/// `$'…'` escapes: \n \t \\ \' \xHH \NNN (octal) \uHHHH \cX.
pub fn ansi_c(s: &str) -> String {
    let inner = s
        .strip_prefix("$'")
        .and_then(|x| x.strip_suffix('\''))
        .unwrap_or(s);
    escapes(inner, false)
}

/// Backslash escapes as `$'…'`, `printf`'s format and `echo -e` read them;
/// `octal_zero` is `echo -e`'s `\0NNN` form.
fn escapes(inner: &str, octal_zero: bool) -> String {
    let b: Vec<char> = inner.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != '\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = b[i + 1];
        i += 2;
        match c {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'e' | 'E' => out.push('\u{1b}'),
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            '0'..='7' => {
                let mut v = c.to_digit(8).unwrap_or(0);
                let max = if octal_zero && c == '0' { 4 } else { 3 };
                let mut n = 1;
                while n < max && i < b.len() && b[i].is_digit(8) {
                    v = v * 8 + b[i].to_digit(8).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                out.push(char::from_u32(v).unwrap_or('?'));
            }
            'x' | 'u' | 'U' => {
                let max = match c {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let mut v = 0u32;
                let mut n = 0;
                while n < max && i < b.len() && b[i].is_ascii_hexdigit() {
                    v = v * 16 + b[i].to_digit(16).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                if n == 0 {
                    out.push('\\');
                    out.push(c);
                } else {
                    out.push(char::from_u32(v).unwrap_or('?'));
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// `printf FORMAT ARGS…`: `%s %b %d %c %%` and escapes; the format is
/// reused while arguments remain, as bash does.
pub fn printf(format: &str, args: &[&str]) -> String {
    let mut out = String::new();
    let mut next = 0;
    loop {
        let before = next;
        let f: Vec<char> = format.chars().collect();
        let mut i = 0;
        let mut lit = String::new();
        while i < f.len() {
            if f[i] == '%' && i + 1 < f.len() {
                out.push_str(&escapes(&lit, false));
                lit.clear();
                // Flags, width and precision are skipped: they change spacing only.
                let mut j = i + 1;
                while j < f.len() && "-+ #0123456789.".contains(f[j]) {
                    j += 1;
                }
                let conv = f.get(j).copied().unwrap_or('s');
                let arg = args.get(next).copied().unwrap_or("");
                match conv {
                    '%' => out.push('%'),
                    'b' => {
                        out.push_str(&escapes(arg, true));
                        next += 1;
                    }
                    'c' => {
                        out.extend(arg.chars().next());
                        next += 1;
                    }
                    // Numbers in other bases (`printf %o 114` is `162`); a
                    // character's code (`'A`) is its number.
                    'd' | 'i' | 'o' | 'x' | 'X' | 'u' => {
                        let n: Option<i64> = match arg.strip_prefix(['\'', '"']) {
                            Some(ch) => ch.chars().next().map(|c| i64::from(u32::from(c))),
                            None => arg.trim().parse().ok(),
                        };
                        match n {
                            Some(n) => out.push_str(&match conv {
                                'o' => format!("{n:o}"),
                                'x' => format!("{n:x}"),
                                'X' => format!("{n:X}"),
                                _ => n.to_string(),
                            }),
                            None => out.push_str(arg),
                        }
                        next += 1;
                    }
                    _ => {
                        out.push_str(arg);
                        next += 1;
                    }
                }
                i = j + 1;
            } else {
                lit.push(f[i]);
                i += 1;
            }
        }
        out.push_str(&escapes(&lit, false));
        // A format that takes no argument (`%%` only) is printed once, as
        // bash does, however many arguments are left.
        if next >= args.len() || next == before {
            break;
        }
    }
    out
}

/// What a substitution prints, when it only prints its (static) arguments
/// or a path: `echo`, `printf`, `pwd`, `dirname`, `basename`, `realpath`,
/// `command -v`, `mktemp`.
pub fn static_output(c: &Command) -> Option<String> {
    if c.argv.iter().any(|w| w.dynamic) || c.stdin_from.is_some() {
        return None;
    }
    if c.redirects
        .iter()
        .any(|r| !(r.op.contains('>') && r.target.text == "/dev/null"))
    {
        return None;
    }
    let argv: Vec<&str> = c.argv.iter().map(|w| w.text.as_str()).collect();
    let (prog, args) = argv.split_first()?;
    let prog = &prog.rsplit('/').next().unwrap_or(prog);
    let operands: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| !a.starts_with('-'))
        .collect();
    let out = match *prog {
        "echo" => {
            let mut rest = args;
            let mut interpret = false;
            while let Some(f) = rest.first().filter(|f| {
                f.len() > 1 && f.starts_with('-') && f[1..].chars().all(|c| "neE".contains(c))
            }) {
                interpret |= f.contains('e');
                rest = &rest[1..];
            }
            let s = rest.join(" ");
            if interpret { escapes(&s, true) } else { s }
        }
        "printf" => {
            let (fmt, rest) = args.split_first()?;
            printf(fmt, rest)
        }
        "pwd" => ".".into(),
        "dirname" => dirname(operands.first()?),
        "basename" => operands
            .first()?
            .trim_end_matches('/')
            .rsplit('/')
            .next()?
            .to_string(),
        "realpath" | "readlink" => operands.first()?.to_string(),
        "command" | "which" | "type" if !operands.is_empty() => {
            format!("/usr/bin/{}", operands.last()?)
        }
        "mktemp" => "/tmp/tmp.XXXXXXXXXX".into(),
        "git" if args == ["rev-parse", "--show-toplevel"] => ".".into(),
        _ => return None,
    };
    Some(out.trim_end_matches('\n').to_string())
}

/// What a command writes when it only prints known text: `echo`, `printf`,
/// `cat`/`tee` of a heredoc. Redirections decide where it goes.
pub fn printed(c: &Command) -> Option<String> {
    if c.argv.iter().any(|w| w.dynamic) {
        return None;
    }
    // Through wrappers that change nothing printed (`env`, `command`,
    // `timeout 30`, `nice -n 10`, `nohup`, `stdbuf -o0`, `time`).
    let mut k = 0;
    while let Some(w) = c.argv.get(k) {
        let t = w.text.as_str();
        let skip = match t {
            "command" | "builtin" | "nohup" | "time" | "exec" => 1,
            "env" | "stdbuf" => {
                1 + c.argv[k + 1..]
                    .iter()
                    .take_while(|a| a.text.starts_with('-') || a.text.contains('='))
                    .count()
            }
            "timeout" | "nice" => {
                let opts = c.argv[k + 1..]
                    .iter()
                    .take_while(|a| a.text.starts_with('-'))
                    .count();
                let n_value = usize::from(c.argv.get(k + opts).is_some_and(|a| a.text == "-n"));
                1 + opts + n_value + usize::from(t == "timeout")
            }
            _ => break,
        };
        k += skip;
    }
    if k > 0 {
        let inner = Command {
            argv: c.argv.get(k..)?.to_vec(),
            redirects: c.redirects.clone(),
            ..Default::default()
        };
        return printed(&inner);
    }
    let first = c.argv.first()?;
    let name = first.text.rsplit('/').next().unwrap_or(&first.text);
    match name {
        "echo" | "printf" => {
            let plain = Command {
                argv: c.argv.clone(),
                ..Default::default()
            };
            static_output(&plain).map(|s| s + "\n")
        }
        // git's own places, as run at the repository's top: its history
        // (`--git-dir`) or the working tree (`--show-toplevel`).
        "git" if c.argv.get(1).is_some_and(|w| w.text == "rev-parse") => {
            let flags: Vec<&str> = c.argv[2..].iter().map(|w| w.text.as_str()).collect();
            match flags.as_slice() {
                ["--git-dir" | "--git-common-dir" | "--absolute-git-dir"] => Some(".git\n".into()),
                ["--show-toplevel"] => Some(".\n".into()),
                _ => None,
            }
        }
        "cat" | "tee" => {
            let body = c
                .redirects
                .iter()
                .find(|r| r.op == "<<" || r.op == "<<<")
                .and_then(|r| r.body.as_ref())?;
            (!body.dynamic).then(|| body.text.clone())
        }
        _ => None,
    }
}

/// The code of each `$(…)` and `` `…` `` in text, outermost first.
pub fn substitutions(text: &str) -> Vec<String> {
    let b: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == '\\' {
            i += 2;
            continue;
        }
        if b[i] == '$' && b.get(i + 1) == Some(&'(') && b.get(i + 2) != Some(&'(') {
            let mut depth = 0;
            let mut j = i + 1;
            while j < b.len() {
                match b[j] {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            out.push(b[i + 2..j.min(b.len())].iter().collect());
            i = j + 1;
        } else if b[i] == '`' {
            let end = b[i + 1..]
                .iter()
                .position(|&c| c == '`')
                .map(|p| i + 1 + p)
                .unwrap_or(b.len());
            out.push(b[i + 1..end].iter().collect());
            i = end + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// `dirname`, with the working directory's parent for `.`.
fn dirname(p: &str) -> String {
    let t = p.trim_end_matches('/');
    if t == "." || t.is_empty() {
        return if p.starts_with('/') {
            "/".into()
        } else {
            "..".into()
        };
    }
    if t == HOME.to_string() {
        return "/home".into();
    }
    match t.rsplit_once('/') {
        Some(("", _)) => "/".into(),
        Some((d, _)) => d.to_string(),
        None => ".".into(),
    }
}

/// Bash brace expansion of one word: `a{b,c}d` → `abd acd`, `{1..3}`,
/// nested lists; `None` when the word has no list to expand.
pub fn brace_expand(s: &str) -> Option<Vec<String>> {
    let b: Vec<char> = s.chars().collect();
    // The first `{` with a matching `}` and a top-level `,` or `..` inside.
    let mut open = 0;
    while open < b.len() {
        if b[open] == '{' && (open == 0 || b[open - 1] != '$') {
            let mut depth = 0;
            let mut comma = false;
            for (j, &ch) in b.iter().enumerate().skip(open) {
                match ch {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            let inner: String = b[open + 1..j].iter().collect();
                            let items = if comma {
                                split_top(&inner)
                            } else {
                                sequence(&inner)?
                            };
                            if items.is_empty() {
                                break;
                            }
                            let pre: String = b[..open].iter().collect();
                            let post: String = b[j + 1..].iter().collect();
                            let mut out = Vec::new();
                            for it in items.iter().take(64) {
                                let joined = format!("{pre}{it}{post}");
                                match brace_expand(&joined) {
                                    Some(more) => out.extend(more),
                                    None => out.push(joined),
                                }
                            }
                            return Some(out);
                        }
                    }
                    ',' if depth == 1 => comma = true,
                    _ => {}
                }
            }
        }
        open += 1;
    }
    None
}

fn split_top(inner: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for ch in inner.chars() {
        match ch {
            '{' => {
                depth += 1;
                cur.push(ch);
            }
            '}' => {
                depth -= 1;
                cur.push(ch);
            }
            ',' if depth == 0 => out.push(std::mem::take(&mut cur)),
            _ => cur.push(ch),
        }
    }
    out.push(cur);
    out
}

/// `{1..5}`, `{a..e}`.
fn sequence(inner: &str) -> Option<Vec<String>> {
    let (a, z) = inner.split_once("..")?;
    if let (Ok(a), Ok(z)) = (a.parse::<i64>(), z.parse::<i64>()) {
        let (lo, hi) = (a.min(z), a.max(z));
        if hi - lo > 64 {
            return None;
        }
        return Some((lo..=hi).map(|n| n.to_string()).collect());
    }
    let (mut a, mut z) = (a.chars(), z.chars());
    let (Some(a), None, Some(z), None) = (a.next(), a.next(), z.next(), z.next()) else {
        return None;
    };
    let (lo, hi) = (a.min(z) as u32, a.max(z) as u32);
    Some(
        (lo..=hi.min(lo + 64))
            .filter_map(char::from_u32)
            .map(String::from)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansions_match_bash() {
        assert_eq!(ansi_c(r"$'\162\155'"), "rm");
        assert_eq!(ansi_c(r"$'\x72\x6d'"), "rm");
        assert_eq!(printf("r%s", &["m"]), "rm");
        assert_eq!(printf(r"\x72\x6d", &[]), "rm");
        assert_eq!(printf("%s/.ssh/id_rsa", &["~"]), "~/.ssh/id_rsa");
        assert_eq!(printf("%s\\n", &["a", "b"]), "a\nb\n");
        // A format that takes no argument is printed once (it used to loop
        // for ever while arguments were left).
        assert_eq!(printf("%%s\\n", &["x", "y"]), "%s\n");
        assert_eq!(printf("-%%-", &["x"]), "-%-");
        assert_eq!(
            brace_expand("~/{.ssh,.aws}/x"),
            Some(vec!["~/.ssh/x".to_string(), "~/.aws/x".to_string()])
        );
        assert_eq!(
            brace_expand("{rm,-rf,~}"),
            Some(vec!["rm".into(), "-rf".into(), "~".into()])
        );
        assert_eq!(brace_expand("a{1..3}").map(|v| v.len()), Some(3));
        assert_eq!(brace_expand("{x}"), None);
        assert_eq!(brace_expand("${HOME}"), None);
        assert_eq!(dirname("."), "..");
        assert_eq!(dirname("/a/b"), "/a");
    }
}
