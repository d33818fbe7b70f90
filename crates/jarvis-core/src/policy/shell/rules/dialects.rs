//! Code for shells that are not bash (fish, elvish, nushell), respelled in
//! bash for the analysis where the two differ in what runs: `(cmd)` is a
//! command substitution, fish's blocks end in `end`, nushell's `^cmd`
//! runs a program and `save` writes its input to a file.

/// `code` as bash would spell it, for the shell `shell` (lower-case base
/// name); unchanged for shells of the POSIX family.
pub(super) fn as_bash(shell: &str, code: &str) -> String {
    match shell {
        "fish" => fish_blocks(&substitutions(&fish_quotes(code))),
        // (elvish's `e:cmd` is the external program `cmd`.)
        "elvish" => {
            let code = format!(" {}", substitutions(code));
            [" e:", "\ne:", ";e:", "(e:", "|e:", "{e:"]
                .iter()
                .fold(code, |c, p| c.replace(p, &p[..1]))
                .trim_start()
                .to_string()
        }
        "nu" | "nushell" => nushell(&substitutions(&nu_interpolations(code))),
        "pwsh" | "powershell" => expressions_echoed(code),
        _ => code.to_string(),
    }
}

/// Each character of `code` with whether it is code: outside quotes and
/// not escaped (a quote that opens or closes is not).
fn code_chars(code: &str) -> impl Iterator<Item = (char, bool)> + '_ {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    code.chars().map(move |ch| {
        let live = if escaped {
            escaped = false;
            false
        } else if ch == '\\' && quote != Some('\'') {
            escaped = true;
            false
        } else if let Some(q) = quote {
            if ch == q {
                quote = None;
            }
            false
        } else if ch == '\'' || ch == '"' {
            quote = Some(ch);
            false
        } else {
            true
        };
        (ch, live)
    })
}

/// Unquoted `(…)` as `$(…)`. In fish and elvish double quotes keep
/// parentheses literal; `$(…)` stays as it is.
/// A value rather than a command where a command would start (`$env.X`,
/// a string, a number, a list): printed, for the analysis, as `echo` would.
fn starts_value(rest: &str) -> bool {
    rest.trim_start().starts_with(|c: char| {
        matches!(c, '$' | '"' | '\'' | '[' | '{' | '(' | '-') || c.is_ascii_digit()
    })
}

fn substitutions(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + 8);
    let mut prev = ' ';
    for (i, (ch, live)) in code
        .char_indices()
        .zip(code_chars(code))
        .map(|((i, _), c)| (i, c))
    {
        out.push(ch);
        if live && ch == '(' && prev != '$' {
            out.pop();
            out.push_str("$(");
            if starts_value(&code[i + 1..]) {
                out.push_str("echo ");
            }
        }
        prev = ch;
    }
    out
}

/// nushell's `$"…(cmd)…"`: the parentheses in an interpolated string run.
fn nu_interpolations(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut chars = code.chars().peekable();
    while let Some(ch) = chars.next() {
        match (ch, chars.peek().copied()) {
            ('$', Some(q @ ('"' | '\''))) => {
                chars.next();
                out.push('"');
                for c in chars.by_ref() {
                    if c == q {
                        break;
                    }
                    match c {
                        '(' => out.push_str("$("),
                        '"' => out.push_str("\\\""),
                        c => out.push(c),
                    }
                }
                out.push('"');
            }
            _ => out.push(ch),
        }
    }
    out
}

/// PowerShell: a statement that starts with a value (`$x.Prop`, `(…)`, a
/// string) prints it; the shell's reading would take it for a program.
fn expressions_echoed(code: &str) -> String {
    statements(code)
        .into_iter()
        .map(|s| {
            if starts_value(&s) {
                format!("echo {s}")
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// fish lets `\'` stand for a quote inside single quotes, where bash's
/// quote would end: the same string with the quote spelled as bash reads it.
fn fish_quotes(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut in_single = false;
    let mut chars = code.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' if in_single && matches!(chars.peek(), Some('\'' | '\\')) => {
                let q = chars.next().unwrap_or('\'');
                // Close, escape, reopen: `'a'\''b'`.
                if q == '\'' {
                    out.push_str("'\\''");
                } else {
                    out.push('\\');
                }
            }
            '\'' => {
                in_single = !in_single;
                out.push(ch);
            }
            _ => out.push(ch),
        }
    }
    out
}

/// Top-level statements of `code`: split at unquoted `;` and newlines
/// outside parentheses.
fn statements(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0usize;
    for (ch, live) in code_chars(code) {
        if live {
            match ch {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                ';' | '\n' if depth == 0 => {
                    out.push(std::mem::take(&mut cur));
                    continue;
                }
                _ => {}
            }
        }
        cur.push(ch);
    }
    out.push(cur);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The end of a bracketed run whose content starts at `start`, nesting
/// counted: the content's end and where to go on from. Unclosed, the rest
/// of the text (as the tools that read them take it).
pub(super) fn balanced(b: &[u8], start: usize, open: u8, close: u8) -> (usize, usize) {
    let mut depth = 1;
    let mut j = start;
    while j < b.len() && depth > 0 {
        if b[j] == open {
            depth += 1;
        } else if b[j] == close {
            depth -= 1;
        }
        j += 1;
    }
    (if depth == 0 { j - 1 } else { j }, j)
}

/// fish's blocks (`function f; …; end`, `if …; …; end`, `and`/`or`) in
/// bash's words; a `switch` runs each of its cases' commands, as the
/// analysis cannot choose.
fn fish_blocks(code: &str) -> String {
    let mut open: Vec<&str> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    for s in statements(code) {
        let (head, rest) = s.split_once(char::is_whitespace).unwrap_or((&s, ""));
        let rest = rest.trim();
        match head {
            "function" => {
                let name = rest.split_whitespace().next().unwrap_or("_");
                out.push(format!("{name}() {{"));
                open.push("}");
            }
            "if" => {
                out.push(format!("if {rest}\nthen"));
                open.push("fi");
            }
            "else" => match rest.strip_prefix("if") {
                Some(cond) if cond.starts_with(char::is_whitespace) => {
                    out.push(format!("elif {}\nthen", cond.trim()));
                }
                _ => out.push("else".into()),
            },
            "while" | "for" => {
                out.push(format!("{head} {rest}\ndo"));
                open.push("done");
            }
            "begin" | "switch" => {
                out.push("{".into());
                open.push("}");
            }
            "case" => out.push(":".into()),
            "end" => out.push(open.pop().unwrap_or("").to_string()),
            "and" | "or" if !rest.is_empty() => out.push(rest.to_string()),
            // Saved for every later shell: a universal path, an alias saved
            // as a function file.
            "fish_add_path"
                if !rest
                    .split_whitespace()
                    .any(|f| matches!(f, "-g" | "--global" | "-P" | "--path")) =>
            {
                out.push(format!("echo {rest} >> ~/.config/fish/fish_variables"));
            }
            "alias"
                if rest
                    .split_whitespace()
                    .any(|f| matches!(f, "-s" | "--save")) =>
            {
                out.push(format!(
                    "echo {rest} >> ~/.config/fish/functions/alias.fish"
                ));
            }
            "not" if !rest.is_empty() => out.push(format!("! {rest}")),
            _ => out.push(s.clone()),
        }
    }
    out.join("\n")
}

/// nushell: `^cmd` is the program `cmd`; `save [-a] F` writes its input to
/// F (as `tee`); `o> F` is a redirect and a bare `>` a comparison; a
/// statement that starts with a string is that value (`"x" | save f`);
/// `$nu.config-path` and `$nu.env-path` are its startup files.
fn nushell(code: &str) -> String {
    let code = code
        .replace("$nu.config-path", "~/.config/nushell/config.nu")
        .replace("$nu.env-path", "~/.config/nushell/env.nu")
        .replace("$(^", "$(");
    // A block's braces end the statement before it and after it: its
    // commands are statements too (`if c { rm -rf ~ }`, `do { … }`).
    let code: String = code_chars(&code)
        .map(|(ch, live)| {
            if live && matches!(ch, '{' | '}') {
                ';'
            } else {
                ch
            }
        })
        .collect();
    statements(&code)
        .iter()
        .map(|s| nushell_statement(s))
        .collect::<Vec<_>>()
        .join("\n")
}

fn nushell_statement(s: &str) -> String {
    // Stages apart (`"x"|save f`), each word as nushell reads it.
    let mut spaced = String::with_capacity(s.len() + 8);
    for (ch, live) in code_chars(s) {
        if live && ch == '|' {
            spaced.push_str(" | ");
        } else {
            spaced.push(ch);
        }
    }
    let mut words: Vec<String> = Vec::new();
    let mut stage_start = true;
    let mut saving = false;
    for w in spaced.split_whitespace() {
        // `^cmd` is the program `cmd` wherever it stands.
        let w = w.strip_prefix('^').unwrap_or(w);
        // A value, or a keyword's head (`if COND`, `let x = …`), where a
        // command would start: printed (the blocks after them are
        // statements of their own, below).
        let keyword = matches!(
            w,
            "if" | "else"
                | "while"
                | "for"
                | "match"
                | "def"
                | "let"
                | "mut"
                | "const"
                | "loop"
                | "try"
                | "catch"
                | "do"
                | "export"
                | "module"
                | "use"
        );
        if stage_start && (starts_value(w) || keyword) {
            words.push("echo".into());
        }
        match w {
            "save" if stage_start => {
                words.push("tee".into());
                saving = true;
            }
            "-f" | "--force" | "-r" | "--raw" | "-p" | "--progress" if saving => {}
            "-a" | "--append" if saving => words.push("-a".into()),
            ">" | "<" | ">=" | "<=" | "=>" => words.push(format!("'{w}'")),
            "o>" | "out>" | "e>" | "err>" | "o+e>" | "e+o>" | "out+err>" | "err+out>" => {
                words.push(">".into())
            }
            "o>>" | "out>>" | "e>>" | "err>>" | "o+e>>" | "e+o>>" => words.push(">>".into()),
            _ => {
                if !w.starts_with('-') {
                    saving = false;
                }
                words.push(w.to_string());
            }
        }
        stage_start = matches!(w, "|" | "&&" | "||" | "{" | "do");
    }
    words.join(" ")
}

/// xonsh is Python with shell commands in it: the commands of `$(…)`,
/// `!(…)`, `$[…]`, `![…]`, and lines in its subprocess mode (a program
/// and its words, nothing of Python's syntax).
pub(super) fn xonsh_commands(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        let close = match (b[i], b[i + 1]) {
            (b'$' | b'!', b'(') => b')',
            (b'$' | b'!', b'[') => b']',
            _ => {
                i += 1;
                continue;
            }
        };
        let start = i + 2;
        let (end, next) = balanced(b, start, b[i + 1], close);
        out.push(code[start..end].to_string());
        i = next.max(i + 1);
    }
    for line in code.lines().map(str::trim) {
        let first = line.split_whitespace().next().unwrap_or("");
        // A program's name first is a command, whatever follows
        // (`curl -s http://…`); otherwise Python's marks make it Python.
        let second = line.split_whitespace().nth(1).unwrap_or("");
        let program = super::known_program(&super::program_name(first))
            || !first.is_empty()
                && first
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-./".contains(c))
                && !second.starts_with(['=', '+', '*', '%', '<', '>', '!', '&', '|', '^'])
            || second.starts_with("&&")
            || second.starts_with("||");
        let python = !program && line.contains(['(', '=', ':', '[', '{'])
            || matches!(
                first,
                "import" | "from" | "def" | "class" | "return" | "print" | "for" | "while" | "if"
            );
        if !line.is_empty() && !python && !first.starts_with('#') {
            out.push(line.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::as_bash;

    #[test]
    fn other_shells_read_as_bash() {
        assert_eq!(as_bash("fish", "eval (curl -s x)"), "eval $(curl -s x)");
        assert_eq!(
            as_bash("fish", "echo '(a)' \"(b)\" $(c)"),
            "echo '(a)' \"(b)\" $(c)"
        );
        assert_eq!(
            as_bash("fish", "function b; b | b &; end; b"),
            "b() {\nb | b &\n}\nb"
        );
        assert_eq!(
            as_bash("fish", "if test -f x; rm x; else if true; ls; end"),
            "if test -f x\nthen\nrm x\nelif true\nthen\nls\nfi"
        );
        assert_eq!(
            as_bash("nu", "http get u | save -f /tmp/p.sh; ^bash /tmp/p.sh"),
            "http get u | tee /tmp/p.sh\nbash /tmp/p.sh"
        );
        assert_eq!(
            as_bash("nu", "\"x\" | save --append $nu.config-path"),
            "echo \"x\" | tee -a ~/.config/nushell/config.nu"
        );
        assert_eq!(
            as_bash("nu", "ls | where size > 1kb"),
            "ls | where size '>' 1kb"
        );
        assert_eq!(as_bash("bash", "(cd x; ls)"), "(cd x; ls)");
        assert_eq!(
            super::xonsh_commands("print($(git log -3))\nx = ![rm -rf ~]\nls -la"),
            vec!["git log -3", "rm -rf ~", "ls -la"]
        );
    }
}
