//! Terminals and editors driven from outside (`kitty @`, WezTerm's `cli`,
//! Vim's and Neovim's `--remote-send`/`--remote-expr`): what they are told
//! to run runs in the user's own session, past the sandbox, so it is
//! judged as if run here, and always asked.

use super::*;

/// kitty's remote-control options that take no value.
const KITTY_BARE: &[&str] = &[
    "--hold",
    "--keep-focus",
    "--copy-env",
    "--copy-cmdline",
    "--copy-colors",
    "--no-response",
    "--self",
    "--allow-remote-control",
    "--dont-take-focus",
    "--bracketed-paste",
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
        let Some(verb) = words.get(i).map(|w| w.text.as_str()) else {
            self.ask("drives a running terminal");
            return;
        };
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
            let valued = !t.contains('=') && !KITTY_BARE.contains(&t) && t.starts_with("--")
                || matches!(t, "-m" | "-t");
            k += 1 + usize::from(valued);
        }
        let rest: Vec<&str> = words[k.min(words.len())..]
            .iter()
            .map(|w| w.text.as_str())
            .collect();
        match verb {
            "launch" | "new-window" | "run" if !rest.is_empty() => {
                let line = rest
                    .iter()
                    .map(|w| crate::policy::shell::quote(w))
                    .collect::<Vec<_>>()
                    .join(" ");
                self.script(&line, &[], depth + 1);
            }
            "send-text" => self.typed_text(&rest.join(" "), depth),
            _ => {}
        }
        self.ask("drives a running terminal (what it runs there is outside the sandbox)");
    }

    /// Text typed into a shell prompt (`send-text`, `send-keys`): each line
    /// is a command it runs.
    pub(super) fn typed_text(&mut self, text: &str, depth: usize) {
        let text = text
            .replace("\\r", "\n")
            .replace("\\n", "\n")
            .replace("<CR>", "\n")
            .replace("<cr>", "\n")
            .replace("<Enter>", "\n");
        self.script(&text, &[], depth + 1);
    }

    /// `vim --remote-send KEYS`, `nvim --server S --remote-expr EXPR`: keys
    /// and expressions run in an editor already open, as Ex commands.
    pub(super) fn editor_remote(&mut self, c: &Cmd<'_>) -> Vec<String> {
        let mut out = Vec::new();
        for (i, a) in c.args.iter().enumerate() {
            let Some(v) = c.args.get(i + 1) else { continue };
            match a.as_str() {
                "--remote-send" => {
                    // `<C-\><C-N>:!cmd<CR>`: normal mode, then an Ex line.
                    let keys = v
                        .replace("<CR>", "\n")
                        .replace("<cr>", "\n")
                        .replace("<Enter>", "\n");
                    let mut plain = String::new();
                    let mut rest = keys.as_str();
                    while let Some(open) = rest.find('<') {
                        plain.push_str(&rest[..open]);
                        match rest[open..].find('>') {
                            Some(close) => rest = &rest[open + close + 1..],
                            None => {
                                plain.push_str(&rest[open..]);
                                rest = "";
                            }
                        }
                    }
                    plain.push_str(rest);
                    out.extend(
                        plain
                            .lines()
                            .filter_map(|l| l.trim().strip_prefix(':'))
                            .map(str::to_string),
                    );
                }
                "--remote-expr" => out.push(format!("call {v}")),
                _ => {}
            }
        }
        if !out.is_empty() {
            self.ask("drives an editor already open (what it runs there is outside the sandbox)");
        }
        out
    }
}
