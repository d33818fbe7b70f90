//! Makefile text given on the command line or written by the line: what
//! its recipes hand the shell.

/// The commands of every `$(shell …)` / `${shell …}` in make text, with
/// nested parentheses balanced.
pub(super) fn make_shell_calls(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for open in ["$(shell", "${shell"] {
        let close = if open.starts_with("$(") { ')' } else { '}' };
        let first = open.chars().nth(1).unwrap_or('(');
        for (at, _) in text.match_indices(open) {
            let body = &text[at + open.len()..];
            if !body.starts_with(char::is_whitespace) {
                continue;
            }
            let mut level = 0usize;
            let mut end = body.len();
            for (k, ch) in body.char_indices() {
                if ch == first {
                    level += 1;
                } else if ch == close {
                    if level == 0 {
                        end = k;
                        break;
                    }
                    level -= 1;
                }
            }
            out.push(body[..end].trim().to_string());
        }
    }
    out
}

/// `target: prereqs ; recipe`: a recipe on the rule's own line.
pub(super) fn inline_recipe(line: &str) -> Option<&str> {
    let (head, rest) = line.split_once(':')?;
    if head.contains('=') || rest.starts_with('=') {
        return None;
    }
    let (_, recipe) = rest.split_once(';')?;
    Some(recipe.trim())
}

/// A recipe as the shell receives it, `$$` made `$`. `$(shell …)` is
/// judged on its own.
pub(super) fn make_expanded(recipe: &str) -> String {
    let mut out = String::new();
    let mut chars = recipe.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '$' {
            out.push(ch);
            continue;
        }
        match chars.next() {
            Some('$') => out.push('$'),
            Some(open @ ('(' | '{')) => {
                let close = if open == '(' { ')' } else { '}' };
                let mut level = 0usize;
                let mut name = String::new();
                for c in chars.by_ref() {
                    if c == open {
                        level += 1;
                    } else if c == close {
                        if level == 0 {
                            break;
                        }
                        level -= 1;
                    }
                    name.push(c);
                }
                out.push_str(&make_reference(&out, &name));
            }
            Some(c) => out.push_str(&make_reference(&out, &c.to_string())),
            None => out.push('$'),
        }
    }
    out
}

/// What a make reference stands for in a recipe: the environment's places
/// are theirs (`$(HOME)` is `$HOME`); any other is a value known only when
/// make runs, a plain word where a program's name goes (`$(CC) -o x`).
pub(super) fn make_reference(before: &str, name: &str) -> String {
    let env = matches!(
        name,
        "HOME" | "USER" | "PWD" | "OLDPWD" | "TMPDIR" | "XDG_CONFIG_HOME" | "XDG_DATA_HOME"
    );
    let at_command = before
        .trim_end()
        .chars()
        .next_back()
        .is_none_or(|c| matches!(c, ';' | '|' | '&' | '(' | '@'));
    if env {
        format!("${{{name}}}")
    } else if at_command {
        "makevar".into()
    } else {
        "\"$MAKEVAR\"".into()
    }
}
