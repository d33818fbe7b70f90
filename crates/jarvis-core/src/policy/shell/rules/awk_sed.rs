//! awk programs and sed scripts: read-only when they only read and print;
//! what they hand to a shell (`system()`, pipes, sed `e`) is judged as code.

use super::code::string_literals;
use super::*;

impl Analyzer<'_> {
    /// An awk program: `system()`, pipes to and from commands, redirections.
    /// True when it only reads and prints.
    pub(super) fn awk_program(&mut self, prog: &str, c: &Cmd<'_>) -> bool {
        let compact: String = prog.chars().filter(|ch| !ch.is_whitespace()).collect();
        let literals = string_literals(prog);
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
        if compact.contains("system(") || compact.contains("|getline") || compact.contains("|&") {
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
        // `print | "sh"`: every line becomes a command.
        for (i, _) in compact.match_indices('|') {
            let after = &compact[i + 1..];
            if let Some(rest) = after.strip_prefix('"').or_else(|| after.strip_prefix('\'')) {
                read_only = false;
                let target = rest.split(['"', '\'']).next().unwrap_or("");
                let tb = base_name(target.split_whitespace().next().unwrap_or(""));
                if is_shell(&tb) || tables::interpreter(&tb).is_some() {
                    self.block("awk pipes its lines into a shell, which runs them as code");
                }
                self.block_only(|a| a.script(target, &[], c.depth + 1));
                self.ask("awk pipes output to a command");
            }
        }
        for (i, _) in compact.match_indices('>') {
            let after = compact[i + 1..].trim_start_matches('>');
            if let Some(rest) = after.strip_prefix('"') {
                read_only = false;
                let f = rest.split('"').next().unwrap_or("");
                self.write_path(&Word::lit(f), c.cwd(), "awk");
            } else if !after.starts_with('=')
                && !compact[..i].ends_with(['<', '>', '=', '!'])
                && i > 0
            {
                // `print > $2`: a file chosen by the input.
                let prev_print = compact[..i].contains("print");
                if prev_print {
                    read_only = false;
                    self.ask("awk writes files");
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
        for raw in script.split(['\n', ';']) {
            let mut s = raw.trim();
            // Addresses: numbers, $, /re/, \cREc, ranges and `!`.
            loop {
                let before = s.len();
                s = s.trim_start_matches(|ch: char| {
                    ch.is_ascii_digit() || matches!(ch, '$' | ',' | '!' | '~' | '+' | ' ')
                });
                if let Some(rest) = s.strip_prefix('/') {
                    s = rest.split_once('/').map(|(_, r)| r).unwrap_or("");
                }
                if s.len() == before {
                    break;
                }
            }
            let s = s.trim_start_matches('{').trim();
            let Some(cmd) = s.chars().next() else {
                continue;
            };
            let arg = s[cmd.len_utf8()..].trim();
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
                    let Some(delim) = arg.chars().next().or_else(|| s.chars().nth(1)) else {
                        continue;
                    };
                    let body = &s[1..];
                    let parts = split_unescaped(body, delim);
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
