//! Bash syntax the grammar does not know, rewritten into the spelling it
//! does with the same effect for the analysis: extended globs (`!(*.keep)`,
//! `@(a|b)`) become the wildcard they are, and descriptors named by a
//! variable (`exec {log}>>f`, `>&$log`) become a numbered one. Left as
//! they were, the grammar reads `(*.keep|README)` as a subshell whose
//! program is a wildcard, and `{log}` as a program's name.

use std::borrow::Cow;

/// `src` with extended globs and named descriptors in plain spelling.
pub fn plain_bash(src: &str) -> Cow<'_, str> {
    let extglob = src.contains("extglob");
    let named = named_fds(src);
    if !src.contains('(') && named.is_empty() {
        return Cow::Borrowed(src);
    }
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let mut quote: Option<char> = None;
    while i < chars.len() {
        let c = chars[i];
        if let Some(q) = quote {
            out.push(c);
            if c == '\\' && q == '"' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                out.push(c);
                i += 1;
            }
            '\\' if i + 1 < chars.len() => {
                out.push(c);
                out.push(chars[i + 1]);
                i += 2;
            }
            '?' | '*' | '+' | '@' | '!' if chars.get(i + 1) == Some(&'(') => {
                let before = i.checked_sub(1).map(|k| chars[k]);
                // Glued to a word (`build/!(…)`, `*.@(js|ts)`) it is a glob
                // whatever the options; after a space only with extglob on
                // (`! (cmd)` and `!(cmd)` at a command's start negate).
                let glued = before.is_some_and(|b| !b.is_whitespace() && !";|&(`$<>".contains(b));
                let spaced = before.is_some_and(char::is_whitespace) && extglob && c != '!'
                    || before.is_some_and(char::is_whitespace)
                        && extglob
                        && c == '!'
                        && !at_command_start(&out);
                match close_of(&chars, i + 1) {
                    Some(end) if glued || spaced => {
                        out.push('*');
                        i = end + 1;
                    }
                    _ => {
                        out.push(c);
                        i += 1;
                    }
                }
            }
            // zsh's glob qualifiers (`*.jpeg(N)`, `**/*(.om[1])`): a syntax
            // error to bash, a filter on the wildcard's matches to zsh; the
            // wildcard is what the analysis needs.
            '(' if glob_word(&out) => match close_of(&chars, i) {
                Some(end)
                    if chars[i + 1..end]
                        .iter()
                        .all(|c| !c.is_whitespace() && !"|;&<>'\"$`".contains(*c)) =>
                {
                    i = end + 1;
                }
                _ => {
                    out.push(c);
                    i += 1;
                }
            },
            '{' => match named.iter().find(|n| {
                let word: String = chars[i + 1..].iter().take(n.len()).collect();
                word == **n
                    && chars.get(i + 1 + n.len()) == Some(&'}')
                    && chars
                        .get(i + 2 + n.len())
                        .is_some_and(|&r| r == '<' || r == '>')
            }) {
                Some(n) => {
                    out.push('9');
                    i += n.len() + 2;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            },
            '&' if (out.ends_with('>') || out.ends_with('<')) && chars.get(i + 1) == Some(&'$') => {
                out.push('&');
                let rest: String = chars[i + 2..].iter().collect();
                let braced = rest.starts_with('{');
                let name: String = rest
                    .trim_start_matches('{')
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if named.contains(&name) {
                    out.push('9');
                    i += 2 + name.len() + if braced { 2 } else { 0 };
                } else {
                    i += 1;
                }
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    Cow::Owned(out)
}

/// The word `out` ends in is a wildcard (`assets/**/*.jpeg`).
fn glob_word(out: &str) -> bool {
    let word: String = out
        .chars()
        .rev()
        .take_while(|c| !c.is_whitespace() && !";|&(`<>".contains(*c))
        .collect();
    // A name with a wildcard in it (`*.jpeg`, `**/x*`), not a bare `*`
    // (arithmetic's `2 *(3+4)`).
    word.chars().any(|c| matches!(c, '*' | '?' | ']'))
        && word.chars().any(|c| c.is_alphanumeric() || c == '.')
        && !out.contains("$((")
}

/// The names of descriptors a line opens by name (`{log}>file`).
fn named_fds(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(at) = rest.find('{') {
        let after = &rest[at + 1..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let tail = &after[name.len()..];
        if !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && tail.starts_with('}')
            && tail[1..].starts_with(['<', '>'])
            && (at == 0 || rest[..at].ends_with(char::is_whitespace))
        {
            out.push(name);
        }
        rest = after;
    }
    out
}

/// Where `(` at `open` is closed, nested pairs and quotes skipped.
fn close_of(chars: &[char], open: usize) -> Option<usize> {
    let mut level = 0usize;
    let mut quote: Option<char> = None;
    for (k, &c) in chars.iter().enumerate().skip(open) {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '(' => level += 1,
                ')' => {
                    level -= 1;
                    if level == 0 {
                        return Some(k);
                    }
                }
                '\n' | ';' | '&' if level == 1 => return None,
                _ => {}
            },
        }
    }
    None
}

/// Whether what was written so far ends where a command starts.
fn at_command_start(before: &str) -> bool {
    let t = before.trim_end();
    t.is_empty()
        || t.ends_with([';', '|', '&', '(', '\n', '{'])
        || t.ends_with("then")
        || t.ends_with("do")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extended_globs_become_wildcards() {
        assert_eq!(
            plain_bash("shopt -s extglob\nrm -f build/!(*.keep|README)"),
            "shopt -s extglob\nrm -f build/*"
        );
        assert_eq!(
            plain_bash("shopt -s extglob\nls -d !(node_modules|dist)"),
            "shopt -s extglob\nls -d *"
        );
        assert_eq!(plain_bash("ls src/*.@(ts|js)"), "ls src/*.*");
        // Not globs: negation, substitutions, arithmetic, quoted text.
        for same in [
            "! (grep -q x f)",
            "if ! grep x f; then :; fi",
            "echo $(date) <(ls) \"!(a)\" '@(b)'",
            "echo $(( 2 *(3+4) ))",
            "!(true)",
        ] {
            assert_eq!(plain_bash(same), same);
        }
    }

    #[test]
    fn named_descriptors_become_numbered_ones() {
        assert_eq!(
            plain_bash("exec {log}>>logs/session.log; date >&$log; npm test >&${log} 2>&1"),
            "exec 9>>logs/session.log; date >&9; npm test >&9 2>&1"
        );
        assert_eq!(plain_bash("echo {a,b}>x"), "echo {a,b}>x");
        assert_eq!(plain_bash("x=1; echo hi >&$out"), "x=1; echo hi >&$out");
    }
}
