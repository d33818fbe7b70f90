//! Makefile text given on the command line or written by the line: what
//! its recipes hand the shell.

/// The commands of every `$(shell …)` / `${shell …}` in make text, with
/// nested parentheses balanced.
pub(super) fn make_shell_calls(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for open in ["$(shell", "${shell"] {
        let first = if open.starts_with("$(") { '(' } else { '{' };
        for (at, _) in text.match_indices(open) {
            let body = &text[at + open.len()..];
            if !body.starts_with(char::is_whitespace) {
                continue;
            }
            out.push(body[..balanced(body, first)].trim().to_string());
        }
    }
    out
}

/// How far `body` (the text after an opening `(` or `{`) runs before the
/// bracket that closes it, nested pairs skipped; all of it when unclosed.
fn balanced(body: &str, open: char) -> usize {
    let close = if open == '(' { ')' } else { '}' };
    let mut level = 0usize;
    for (k, ch) in body.char_indices() {
        if ch == open {
            level += 1;
        } else if ch == close {
            if level == 0 {
                return k;
            }
            level -= 1;
        }
    }
    body.len()
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
    let mut rest = recipe;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let mut chars = after.chars();
        rest = match chars.next() {
            Some('$') => {
                out.push('$');
                chars.as_str()
            }
            Some(open @ ('(' | '{')) => {
                let body = chars.as_str();
                let end = balanced(body, open);
                out.push_str(&make_reference(&out, &body[..end]));
                // Past the closing bracket, when there is one.
                body.get(end + 1..).unwrap_or("")
            }
            Some(c) => {
                out.push_str(&make_reference(&out, &c.to_string()));
                chars.as_str()
            }
            None => {
                out.push('$');
                ""
            }
        };
    }
    out.push_str(rest);
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
