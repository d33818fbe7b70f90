//! awk programs and sed scripts: read-only when they only read and print;
//! what they hand to a shell (`system()`, pipes, sed `e`) is judged as code.

use super::code::string_literals;
use super::*;

impl Analyzer<'_> {
    /// An awk program: `system()`, pipes to and from commands, redirections.
    /// True when it only reads and prints.
    pub(super) fn awk_program(&mut self, prog: &str, c: &Cmd<'_>) -> bool {
        // Values given on the command line (`-v f=~/.ssh/id_rsa`, an
        // operand `f=…`) are strings of the program, as if written in it.
        let assigned = awk_assignments(c);
        let mut literals = string_literals(prog);
        literals.extend(assigned.iter().cloned());
        let mut read_only = true;
        // gawk's `/inet/tcp/…` files are sockets: `|&` on one is a connection.
        if literals.iter().any(|s| {
            let s = s.trim_start_matches('/');
            ["inet/", "inet4/", "inet6/"]
                .iter()
                .any(|k| s.starts_with(k))
        }) {
            self.block("awk opens a network connection (gawk /inet special file)");
        }
        // gawk's `@load "x"` loads a shared object (its code runs);
        // `@include "f.awk"` runs another program.
        if prog.contains("@load") || prog.contains("@include") {
            read_only = false;
            self.ask("awk loads an extension or another program (@load, @include)");
        }
        // `ENVIRON["GITHUB_TOKEN"]`: a secret variable's value; `for (k in
        // ENVIRON)` or an index not spelled out: any of them.
        for (at, _) in prog.match_indices("ENVIRON") {
            let rest = prog[at + 7..].trim_start();
            let named = rest
                .strip_prefix('[')
                .map(|r| r.trim_start())
                .and_then(|r| r.strip_prefix('"'))
                .and_then(|r| r.split_once('"'))
                .map(|(name, _)| name);
            match named {
                Some(name) if super::effects::secret_var(name) => {
                    self.block(format!("awk prints the secret variable {name} (ENVIRON)"));
                }
                Some(_) => {}
                None => {
                    read_only = false;
                    self.ask("awk reads the environment (ENVIRON), secrets among it");
                }
            }
        }
        // What the program does is read outside its strings: a string that
        // says "system(…)" is text it prints.
        let code: Vec<char> = blank_regexes(&super::code_fold::blank_literals(prog));
        let text: Vec<char> = prog.chars().collect();
        let bare: String = code.iter().filter(|ch| !ch.is_whitespace()).collect();
        // A loop that never ends (`while(1)`, `for(;;)`) never finishes
        // reading; one that grows an array or a string with it exhausts
        // memory (`while(1) a[i++] = sprintf("%1048576s", "")`).
        let endless = ["while(1)", "while(!0)", "for(;;)", "do{"]
            .iter()
            .any(|k| bare.contains(k));
        if endless {
            read_only = false;
            // `s = s s`, `s = s "x"`: a string joined to itself.
            let doubles = bare.match_indices('=').any(|(at, _)| {
                let name = super::code_effects::trailing_identifier(&bare[..at]);
                // (Followed by another value, not `+ 1`: a join, not a sum.)
                !name.is_empty()
                    && bare[at + 1..].strip_prefix(name).is_some_and(|rest| {
                        rest.starts_with(|ch: char| {
                            ch.is_ascii_alphanumeric() || "_\"$".contains(ch)
                        })
                    })
            });
            let grows = doubles || bare.contains("++]=") || bare.contains("]=sprintf");
            let grows = grows
                || bare.contains("sprintf(\"%")
                    && bare.chars().filter(char::is_ascii_digit).count() >= 6;
            if grows {
                self.block("exhausts memory (an awk loop without end grows what it holds)");
            }
            self.ask("awk loops without end");
        }
        if bare.contains("system(") || bare.contains("|getline") || bare.contains("|&") {
            read_only = false;
            for s in &literals {
                self.block_only(|a| a.script(s, &[], c.depth + 1));
            }
            for built in awk_commands(prog) {
                match built {
                    None => self.block(
                        "awk runs its input lines as shell commands (like piping them into sh)",
                    ),
                    Some(cmd) => self.block_only(|a| a.script(&cmd, &[], c.depth + 1)),
                }
            }
            self.ask("awk runs shell commands");
        }
        for (op, target) in awk_outputs(&code, &text) {
            read_only = false;
            if op == '|' {
                // `print … | "cmd"`: the command, fed what the program prints.
                let Some(target) = target else {
                    self.ask("awk pipes output to a command chosen at run time");
                    continue;
                };
                let tb = base_name(target.split_whitespace().next().unwrap_or(""));
                if is_shell(&tb) || tables::interpreter(&tb).is_some() {
                    self.block("awk pipes its lines into a shell, which runs them as code");
                }
                self.block_only(|a| a.script(&target, &[], c.depth + 1));
                self.ask("awk pipes output to a command");
            } else {
                match target {
                    Some(f) => self.write_path(&super::script_opts::expanded(&f), c.cwd(), "awk"),
                    None => {
                        // A file named by a variable: any value given.
                        for v in assigned
                            .iter()
                            .filter(|v| v.contains('/') || v.starts_with('~'))
                        {
                            self.write_path(&super::script_opts::expanded(v), c.cwd(), "awk");
                        }
                        self.ask("awk writes files");
                    }
                }
            }
        }
        if c.args.iter().any(|x| x == "inplace") {
            read_only = false;
            self.ask("awk edits files in place");
        }
        for s in &literals {
            for cand in path_candidates(s) {
                let p = self.norm_text(&paths::word_path(&cand, false), c.cwd());
                if let Some(why) = paths::credential_normalized(&p, &cand) {
                    self.block(format!("awk reads a credential: {why}"));
                }
            }
        }
        read_only
    }

    /// A sed script: `e` runs commands, `w` writes files, `r` reads them.
    /// True when it only prints.
    pub(super) fn sed_script(&mut self, script: &str, c: &Cmd<'_>) -> bool {
        let mut read_only = true;
        for (cmd, s, arg) in sed_commands(script) {
            match cmd {
                'e' => {
                    read_only = false;
                    if arg.is_empty() {
                        self.ask("sed runs its input lines as commands");
                    } else {
                        self.script(arg, &[], c.depth + 1);
                        self.ask("sed runs a command");
                    }
                }
                'w' | 'W' => {
                    read_only = false;
                    self.write_path(&Word::lit(arg), c.cwd(), "sed");
                }
                'r' | 'R' => {
                    read_only &= self.read_path(&Word::lit(arg), c.cwd());
                }
                's' | 'y' => {
                    // (The character after the letter, a blank or a tab
                    // too: `s .* cmd e`.)
                    let Some(delim) = s.chars().nth(1) else {
                        continue;
                    };
                    let body = &s[1..];
                    let parts = split_unescaped(body, delim);
                    // A build wrapper pointed at another download: every
                    // later build runs what that host serves.
                    // (The URL is the replacement's, whether it spells the
                    // key or only the address: `s#https\://services…#…#`.)
                    if cmd == 's'
                        && let Some(rep) = parts.get(2)
                        && rep.contains("://")
                        && c.words
                            .iter()
                            .any(|w| w.text.ends_with("wrapper.properties"))
                    {
                        let host = rep
                            .split("://")
                            .nth(1)
                            .and_then(|r| r.split(['/', ':', '\\']).next())
                            .unwrap_or("");
                        if !matches!(
                            host,
                            "services.gradle.org" | "repo.maven.apache.org" | "repo1.maven.org"
                        ) {
                            self.block(format!(
                                "supply chain (the build wrapper is pointed at {host}: every build runs what it serves)"
                            ));
                        }
                    }
                    if let Some(flags) = parts.get(3) {
                        if cmd == 's' && flags.contains('e') {
                            read_only = false;
                            // The replacement is the command each line becomes
                            // (`s/.*/cat \/home\/u\/.netrc/e`).
                            if let Some(replacement) = parts.get(2) {
                                self.script(replacement, &[], c.depth + 1);
                            }
                            self.ask("sed runs the replaced text as a command");
                        }
                        if let Some(pos) = flags.find('w') {
                            read_only = false;
                            self.write_path(&Word::lit(flags[pos + 1..].trim()), c.cwd(), "sed");
                        }
                    }
                }
                _ => {}
            }
        }
        read_only
    }
}

/// A sed script that runs its input lines as commands: a bare `e`, or
/// `s///e` (the line, substituted, is the command).
pub(super) fn sed_runs_lines(script: &str) -> bool {
    sed_commands(script)
        .into_iter()
        .any(|(cmd, s, arg)| match cmd {
            'e' => arg.is_empty(),
            's' => s
                .chars()
                .nth(1)
                .and_then(|delim| {
                    split_unescaped(&s[1..], delim)
                        .get(3)
                        .map(|f| f.contains('e'))
                })
                .unwrap_or(false),
            _ => false,
        })
}

/// Each command of a sed script past its addresses: its letter, its text
/// from the letter on, and its argument.
fn sed_commands(script: &str) -> Vec<(char, &str, &str)> {
    let mut out = Vec::new();
    for raw in sed_pieces(script) {
        let mut s = raw.trim();
        // Addresses: numbers, $, /re/, \cREc, ranges and `!`.
        loop {
            let before = s.len();
            s = s.trim_start_matches(|ch: char| {
                ch.is_ascii_digit() || matches!(ch, '$' | ',' | '!' | '~' | '+' | ' ')
            });
            // `/re/`, `\%re%`, then GNU's `I` and `M` flags.
            if let Some(rest) = s.strip_prefix('/') {
                s = past_delimiter(rest, '/').trim_start_matches(['I', 'M']);
            } else if let Some(rest) = s.strip_prefix('\\')
                && let Some(d) = rest.chars().next()
            {
                s = past_delimiter(&rest[d.len_utf8()..], d).trim_start_matches(['I', 'M']);
            }
            if s.len() == before {
                break;
            }
        }
        let s = s.trim_start_matches('{').trim();
        let Some(cmd) = s.chars().next() else {
            continue;
        };
        out.push((cmd, s, s[cmd.len_utf8()..].trim()));
    }
    out
}

/// The text after the first `d` not escaped by a backslash ("" if none).
fn past_delimiter(text: &str, d: char) -> &str {
    let mut escaped = false;
    for (k, ch) in text.char_indices() {
        if escaped {
            escaped = false;
        } else if ch == '\\' {
            escaped = true;
        } else if ch == d {
            return &text[k + ch.len_utf8()..];
        }
    }
    ""
}

/// Every script given to sed: `-e S` (bundled, `-ne S`, or glued,
/// `-e'w f'`), `--expression=S`, `--expression S`.
pub(super) fn sed_scripts(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if let Some(v) = long_value(a, "--expression") {
            out.push(v.to_string());
        } else if a.len() >= 5 && a.starts_with("--") && "--expression".starts_with(a.as_str()) {
            out.extend(args.get(i + 1).cloned());
            i += 1;
        } else if a == "--" {
            break;
        } else if a.starts_with('-')
            && !a.starts_with("--")
            && let Some(pos) = a.find('e')
        {
            let rest = &a[pos + 1..];
            if rest.is_empty() {
                out.extend(args.get(i + 1).cloned());
                i += 1;
            } else {
                out.push(rest.to_string());
            }
        }
        i += 1;
    }
    out
}

/// A sed script cut at its commands' ends: a new line, or a `;` — but
/// `a`, `i` and `c` take the rest of their line as text, `;` and all.
fn sed_pieces(script: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in script.split('\n') {
        let mut rest = line;
        loop {
            let head = rest.trim_start().trim_start_matches(|ch: char| {
                ch.is_ascii_digit() || matches!(ch, '$' | ',' | '!' | ' ' | '{')
            });
            if head.starts_with(['a', 'i', 'c']) && !head.starts_with("a;") {
                out.push(rest);
                break;
            }
            match rest.split_once(';') {
                Some((one, more)) => {
                    out.push(one);
                    rest = more;
                }
                None => {
                    out.push(rest);
                    break;
                }
            }
        }
    }
    out
}

/// The text a sed script puts into the files it edits: each `s`
/// command's replacement and each `a`, `i` or `c` line, unescaped.
pub(super) fn sed_inserts(script: &str) -> Vec<String> {
    sed_commands(script)
        .into_iter()
        .filter_map(|(cmd, s, arg)| match cmd {
            's' => {
                let delim = s[1..].chars().next()?;
                split_unescaped(&s[1..], delim)
                    .get(2)
                    .map(|r| unescape_inserted(r))
            }
            'a' | 'i' | 'c' => Some(unescape_inserted(arg.trim_start_matches('\\'))),
            _ => None,
        })
        .collect()
}

/// `\/` is `/`, `\n` a new line, `\\` a backslash: the text as written.
pub(super) fn unescape_inserted(r: &str) -> String {
    let mut out = String::new();
    let mut chars = r.chars();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// The commands an awk program hands to `system(…)` and `"…" | getline`, as
/// awk concatenates them: literals kept, `ENVIRON["HOME"]` as `~`, fields
/// and variables as run-time values. `None` when the whole command is data.
pub(super) fn awk_commands(prog: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let mut rest = prog;
    while let Some(i) = rest.find("system(") {
        let after = &rest[i + 7..];
        let mut depth = 1;
        let mut end = after.len();
        let mut in_str = false;
        for (k, ch) in after.char_indices() {
            match ch {
                '"' => in_str = !in_str,
                '(' if !in_str => depth += 1,
                ')' if !in_str => {
                    depth -= 1;
                    if depth == 0 {
                        end = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push(awk_expr(&after[..end]));
        rest = &after[end.min(after.len())..];
    }
    out
}

pub(super) fn awk_expr(e: &str) -> Option<String> {
    let b: Vec<char> = e.trim().chars().collect();
    let env_home: Vec<char> = "ENVIRON[\"HOME\"]".chars().collect();
    let mut cmd = String::new();
    let mut literal = false;
    let mut i = 0;
    while i < b.len() {
        if b[i] == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' {
                if b[j] == '\\' && j + 1 < b.len() {
                    j += 1;
                }
                cmd.push(b[j]);
                j += 1;
            }
            literal = true;
            i = j + 1;
        } else if b[i..].starts_with(&env_home) {
            cmd.push('~');
            i += env_home.len();
        } else if b[i].is_alphanumeric() || b[i] == '$' || b[i] == '_' {
            let mut j = i;
            while j < b.len() && (b[j].is_alphanumeric() || matches!(b[j], '$' | '_' | '[' | ']')) {
                j += 1;
            }
            cmd.push_str("$X");
            i = j;
        } else {
            i += 1;
        }
    }
    literal.then_some(cmd)
}

/// An awk program with its regular expressions (`/^(a|b)$/`, where an
/// operand may start) blanked: a `|` or `>` in one is no pipe or redirect.
/// Same length, so positions still match the program's text.
fn blank_regexes(code: &str) -> Vec<char> {
    let mut out: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < out.len() {
        if out[i] == '/' {
            let before = out[..i].iter().rev().find(|ch| !ch.is_whitespace());
            let operand_next = before.is_none_or(|ch| "~(,&|!{;}\n=?:".contains(*ch));
            if operand_next {
                let mut k = i + 1;
                while k < out.len() && out[k] != '/' && out[k] != '\n' {
                    if out[k] == '\\' {
                        out[k] = ' ';
                        k += 1;
                    }
                    if k < out.len() {
                        out[k] = ' ';
                    }
                    k += 1;
                }
                i = k + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Where an awk program sends its output: `print … | "cmd"` (`'|'`) and
/// `print … > FILE` / `>> FILE` (`'>'`), each with its target when it can be
/// read — a string, a variable assigned one, a parenthesised concatenation —
/// and `None` when it is chosen at run time. `code` is the program with its
/// strings blanked, `text` the program, char for char.
fn awk_outputs(code: &[char], text: &[char]) -> Vec<(char, Option<String>)> {
    let mut out = Vec::new();
    let prog: String = text.iter().collect();
    let mut i = 0;
    while i < code.len() {
        let ch = code[i];
        let prev = if i > 0 { code[i - 1] } else { ' ' };
        let next = code.get(i + 1).copied().unwrap_or(' ');
        let pipe = ch == '|' && prev != '|' && next != '|' && next != '&';
        // `>` after print/printf, not a comparison (`$1 > 3`, `>=`).
        let redirect = ch == '>'
            && prev != '>'
            && next != '='
            && !matches!(prev, '<' | '=' | '!')
            && code[..i]
                .iter()
                .collect::<String>()
                .rfind("print")
                .is_some_and(|p| {
                    !code[p..i].contains(&';')
                        && !code[p..i].contains(&'{')
                        && !code[p..i].contains(&'}')
                });
        if !(pipe || redirect) {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < code.len() && (code[j] == '>' || code[j].is_whitespace()) {
            j += 1;
        }
        let target = match code.get(j) {
            Some('"') => {
                let end = (j + 1..code.len())
                    .find(|&k| code[k] == '"')
                    .unwrap_or(code.len());
                Some(text[j + 1..end.min(text.len())].iter().collect())
            }
            Some('(') => {
                let end = (j..code.len())
                    .find(|&k| code[k] == ')')
                    .unwrap_or(code.len());
                awk_expr(&text[j + 1..end.min(text.len())].iter().collect::<String>())
            }
            Some(c) if c.is_alphabetic() || *c == '_' => {
                let name: String = code[j..]
                    .iter()
                    .take_while(|c| c.is_alphanumeric() || **c == '_')
                    .collect();
                awk_assigned(&prog, &name)
            }
            _ => None,
        };
        // A pipe's command must be text; `print | cmd` with a variable too.
        if pipe
            && target.is_none()
            && !matches!(code.get(j), Some(c) if c.is_alphabetic() || *c == '"' || *c == '(')
        {
            i += 1;
            continue;
        }
        out.push((if pipe { '|' } else { '>' }, target));
        i = j.max(i + 1);
    }
    out
}

/// The value a program assigns a variable, as awk concatenates it
/// (`f = ENVIRON["HOME"] "/.config/x"` → `~/.config/x`).
fn awk_assigned(prog: &str, name: &str) -> Option<String> {
    let mut rest = prog;
    while let Some(at) = rest.find(name) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + name.len()..].trim_start();
        if before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
            && after.starts_with('=')
            && !after.starts_with("==")
        {
            let expr: String = after[1..]
                .chars()
                .take_while(|c| !matches!(c, ';' | '\n' | '}'))
                .collect();
            return awk_expr(&expr);
        }
        rest = &rest[at + name.len()..];
    }
    None
}

/// `s/a\/b/c/g` split at the unescaped delimiters, `\/` made `/`: at most
/// four parts (command, pattern, replacement, flags).
fn split_unescaped(body: &str, delim: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek() == Some(&delim) {
            if let Some(p) = parts.last_mut() {
                p.push(delim);
            }
            chars.next();
        } else if c == delim && parts.len() < 4 {
            parts.push(String::new());
        } else {
            if let Some(p) = parts.last_mut() {
                p.push(c);
            }
        }
    }
    parts
}

/// The values an awk line assigns to variables: `-v n=v`, `-vn=v`,
/// `--assign n=v`, and operands `n=v` (assigned before the next file).
fn awk_assignments(c: &Cmd<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = c.args.iter();
    while let Some(a) = words.next() {
        let kv = match a.as_str() {
            "-v" | "--assign" => words.next().map(String::as_str),
            _ => a
                .strip_prefix("--assign=")
                .or_else(|| a.strip_prefix("-v"))
                .filter(|r| !r.is_empty())
                .or_else(|| (!a.starts_with('-')).then_some(a.as_str())),
        };
        if let Some((name, value)) = kv.and_then(|kv| kv.split_once('='))
            && !name.is_empty()
            && name
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
            && !name.starts_with(|ch: char| ch.is_ascii_digit())
        {
            out.push(value.to_string());
        }
    }
    out
}
