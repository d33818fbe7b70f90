//! Terminals and editors driven from outside (`kitty @`, WezTerm's `cli`,
//! Vim's and Neovim's `--remote-send`/`--remote-expr`): what they are told
//! to run runs in the user's own session, past the sandbox, so it is
//! judged as if run here, and always asked.

use super::*;

/// kitty's remote-control options that take a value (any other is a
/// switch).
const KITTY_VALUED: &[&str] = &[
    "--to",
    "--password",
    "--password-file",
    "--password-env",
    "-m",
    "--match",
    "-t",
    "--match-tab",
    "--title",
    "--tab-title",
    "--window-title",
    "--type",
    "--cwd",
    "--env",
    "--var",
    "--location",
    "--os-window-title",
    "--os-window-name",
    "--os-window-class",
    "--os-window-state",
    "--logo",
    "--logo-position",
    "--logo-alpha",
    "--color",
    "--spacing",
    "--stdin-source",
    "--marker",
    "--watcher",
    "--next-to",
    "--bias",
    "--window-type",
    "--source-window",
    "--remote-control-password",
    "--from-file",
    "--response-timeout",
];

impl Analyzer<'_> {
    /// `kitty @ [--to SOCKET] VERB …`.
    pub(super) fn terminal_remote(&mut self, words: &[Word], depth: usize) {
        let mut i = 0;
        while let Some(w) = words.get(i) {
            match w.text.as_str() {
                "--to" | "--password" | "--password-file" | "--password-env" => i += 2,
                t if t.starts_with("--") => i += 1,
                _ => break,
            }
        }
        let Some(mut verb) = words.get(i).map(|w| w.text.as_str()) else {
            self.ask("drives a running terminal");
            return;
        };
        // `kitty @ action launch …`: a mappable action, then its words.
        if verb == "action" && words.get(i + 1).is_some_and(|w| w.text == "launch") {
            i += 1;
            verb = "launch";
        }
        let mut k = i + 1;
        while let Some(w) = words.get(k) {
            let t = w.text.as_str();
            if t == "--" {
                k += 1;
                break;
            }
            if !t.starts_with('-') {
                break;
            }
            let valued = !t.contains('=') && KITTY_VALUED.contains(&t);
            k += 1 + usize::from(valued);
        }
        let rest: Vec<&str> = words[k.min(words.len())..]
            .iter()
            .map(|w| w.text.as_str())
            .collect();
        match verb {
            "launch" | "new-window" | "run" if !rest.is_empty() => {
                let line = crate::policy::shell::quoted_line(rest);
                // `--stdin-source=@screen_scrollback`: the terminal's text
                // is the program's input.
                let fed_screen = words
                    .iter()
                    .any(|w| w.text.starts_with("--stdin-source") && w.text.contains('@'))
                    || words.windows(2).any(|p| p[0].text == "--stdin-source");
                let line = if fed_screen {
                    format!("tmux capture-pane -p | {line}")
                } else {
                    line
                };
                self.script(&line, &[], depth + 1);
            }
            "send-text" => self.typed_text(&rest.join(" "), depth),
            _ => {}
        }
        self.ask("drives a running terminal (what it runs there is outside the sandbox)");
    }

    /// `zellij [-s SESSION] action write-chars TEXT`, `action write 114 109
    /// …` (bytes, decimal), `run -- CMD`, `action new-pane -- CMD`: what is
    /// typed or run in the user's terminal, judged as run here.
    pub(super) fn zellij(&mut self, c: &Cmd<'_>) {
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let at = |v: &str| args.iter().position(|a| *a == v);
        if let Some(i) = at("write-chars") {
            let text = args[i + 1..].join(" ");
            self.block_only(|a| a.typed_text(&text, c.depth));
        } else if let Some(i) = at("write") {
            let bytes: Vec<u8> = args[i + 1..]
                .iter()
                .filter_map(|b| b.parse::<u8>().ok())
                .collect();
            let text = String::from_utf8_lossy(&bytes).into_owned();
            self.block_only(|a| a.typed_text(&text, c.depth));
        }
        let runs = at("run").is_some() || at("new-pane").is_some() || at("edit").is_none();
        if runs && let Some(i) = at("--") {
            let line = crate::policy::shell::quoted_line(&args[i + 1..]);
            self.script(&line, &[], c.depth + 1);
        }
        self.ask("drives a running terminal (what it runs there is outside the sandbox)");
    }

    /// Text typed into a shell prompt (`send-text`, `send-keys`): each line
    /// is a command it runs.
    pub(super) fn typed_text(&mut self, text: &str, depth: usize) {
        let text = text
            .replace("\\r", "\n")
            .replace("\\n", "\n")
            .replace("^M", "\n")
            .replace("<CR>", "\n")
            .replace("<cr>", "\n")
            .replace("<Enter>", "\n");
        // A REPL started at a prompt the user watches (`python`, `bash`)
        // is not a shell escape.
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !lone_repl(l))
            .collect();
        self.script(&lines.join("\n"), &[], depth + 1);
    }

    /// `vim --remote-send KEYS`, `nvim --server S --remote-expr EXPR`: keys
    /// and expressions run in an editor already open, as Ex commands.
    pub(super) fn editor_remote(&mut self, c: &Cmd<'_>) -> Vec<String> {
        let mut out = Vec::new();
        for (i, a) in c.args.iter().enumerate() {
            let Some(v) = c.args.get(i + 1) else { continue };
            match a.as_str() {
                "--remote-send" => {
                    // `<C-\><C-N>:!cmd<CR>`: normal mode, then an Ex line;
                    // `!!cmd`, `Q` (Ex mode): the same shell.
                    for line in vim_keys(v).lines() {
                        let line =
                            line.trim_start_matches(|ch: char| ch.is_whitespace() || ch == '\x1b');
                        if let Some((_, ex)) = line.split_once(':') {
                            out.push(ex.to_string());
                        } else if let Some((_, cmd)) = line.split_once("!!") {
                            out.push(format!("!{cmd}"));
                        } else if let Some(ex) = line.strip_prefix('Q') {
                            out.push(ex.to_string());
                        }
                    }
                }
                // An expression: its strings may be a shell line
                // (`system("…")`, `jobstart("…")`, `execute("!…")`).
                "--remote-expr" => {
                    out.push(format!("call {v}"));
                    for lit in super::code::string_literals(v) {
                        let cmd = lit.trim_start_matches('!').to_string();
                        self.block_only(|x| x.script(&cmd, &[], c.depth + 1));
                    }
                }
                _ => {}
            }
        }
        if !out.is_empty() {
            self.ask("drives an editor already open (what it runs there is outside the sandbox)");
        }
        out
    }
}

/// Vim's key notation read as the text it types (`<Space>`, `<Bar>`,
/// `<CR>`); other keys (`<C-\><C-N>`, `<Esc>`) are dropped.
fn vim_keys(keys: &str) -> String {
    let mut plain = String::new();
    let mut rest = keys;
    while let Some(open) = rest.find('<') {
        plain.push_str(&rest[..open]);
        let tail = &rest[open..];
        let Some(close) = tail.find('>') else {
            plain.push_str(tail);
            rest = "";
            break;
        };
        let name = tail[1..close].to_ascii_lowercase();
        match name.as_str() {
            "cr" | "enter" | "return" | "nl" | "c-m" | "c-j" => plain.push('\n'),
            "space" => plain.push(' '),
            "bar" => plain.push('|'),
            "lt" => plain.push('<'),
            "tab" => plain.push('\t'),
            "bslash" => plain.push('\\'),
            _ => {}
        }
        rest = &tail[close + 1..];
    }
    plain.push_str(rest);
    plain
}

/// kitty's own options that take a value.
const KITTY_CLI_VALUED: &[&str] = &[
    "-c",
    "--config",
    "-o",
    "--override",
    "--class",
    "--name",
    "-T",
    "--title",
    "-d",
    "--directory",
    "--working-directory",
    "--session",
    "--listen-on",
    "--start-as",
    "--instance-group",
    "--watcher",
    "--os-window-tag",
    "--position",
    "--grab-keyboard",
    "--logo",
];

/// Where the program begins in `kitty [options] PROGRAM …`, when one is
/// given there (`-e`/`--` are read by the caller).
pub(super) fn kitty_program_at(words: &[Word]) -> Option<usize> {
    let mut k = 0;
    while let Some(w) = words.get(k) {
        let t = w.text.as_str();
        if matches!(t, "-e" | "--" | "-x") {
            return None;
        }
        if !t.starts_with('-') {
            return Some(k);
        }
        k += 1 + usize::from(!t.contains('=') && KITTY_CLI_VALUED.contains(&t));
    }
    None
}

/// The text typed by tmux's `send-keys` (its words joined, key names
/// read: `Space`, `Enter`, `C-m`; `-H` hex), `set-buffer` (pasted), and
/// screen's `stuff` (`^M` is Enter): one string per command.
pub(super) fn typed_keys(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let verb = super::pipe_sources::tmux_command(a).unwrap_or(a.as_str());
        i += 1;
        if !matches!(verb, "send-keys" | "stuff" | "set-buffer") {
            continue;
        }
        let mut hex = false;
        // (Past the first key, every word is a key: `rm Space -rf`.)
        let mut started = false;
        let mut text = String::new();
        while let Some(w) = args.get(i) {
            let w = w.as_str();
            if matches!(w, ";" | "\\;") || w.ends_with(';') && w.len() > 1 && !w.ends_with("\\;") {
                break;
            }
            i += 1;
            let flag = !started && w.starts_with('-') && w.len() > 1;
            started |= !flag;
            match w {
                "-t" | "-N" | "-b" | "-T" if flag => i += 1,
                "-H" if flag => hex = true,
                _ if flag => {}
                _ if hex => {
                    if let Some(ch) = u8::from_str_radix(w, 16).ok().map(char::from) {
                        text.push(ch);
                    }
                }
                "Enter" | "C-m" | "C-j" | "KPEnter" => text.push('\n'),
                "Space" => text.push(' '),
                "Tab" | "C-i" => text.push('\t'),
                // Another key (`C-c`, `Escape`): the line so far is left.
                _ if key_name(w) => text.push('\n'),
                _ => text.push_str(&w.replace("^M", "\n").replace("^J", "\n")),
            }
        }
        if !text.trim().is_empty() {
            out.push(text);
        }
    }
    out
}

/// A tmux key name (`C-c`, `M-x`, `Escape`, `F5`, `Up`).
fn key_name(w: &str) -> bool {
    matches!(
        w,
        "Escape"
            | "BSpace"
            | "Up"
            | "Down"
            | "Left"
            | "Right"
            | "Home"
            | "End"
            | "PageUp"
            | "PageDown"
            | "PPage"
            | "NPage"
            | "DC"
            | "IC"
            | "BTab"
    ) || (w.starts_with("C-") || w.starts_with("M-") || w.starts_with("S-")) && w.len() <= 5
        || w.starts_with('F')
            && w.len() <= 3
            && w[1..].chars().all(|ch| ch.is_ascii_digit())
            && w.len() > 1
}

/// A shell or interpreter named alone.
fn lone_repl(line: &str) -> bool {
    let p = program_name(line);
    !line.contains(char::is_whitespace) && (is_shell(&p) || tables::interpreter(&p).is_some())
}
