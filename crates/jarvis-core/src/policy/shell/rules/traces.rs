//! Erasing the record of what ran: the shell's history, the system's
//! journal and the kernel's log. An agent has no reason to hide its own
//! steps from the user; doing so is how an attack covers its tracks.

use super::*;

/// The history variables and the values that switch recording off.
fn history_off(name: &str, value: &str) -> bool {
    let v = value.trim().trim_matches(['"', '\'']);
    match name.to_ascii_uppercase().as_str() {
        "HISTFILE" => v.is_empty() || v == "/dev/null",
        "HISTSIZE" | "HISTFILESIZE" | "SAVEHIST" => v == "0",
        // A pattern that matches every line: nothing is kept.
        "HISTIGNORE" | "HISTORY_IGNORE" => v.split([':', '|']).any(|p| p == "*" || p == "(*)"),
        "FISH_PRIVATE_MODE" => !v.is_empty() && v != "0",
        _ => false,
    }
}

fn history_name(name: &str) -> bool {
    matches!(
        name.to_ascii_uppercase().as_str(),
        "HISTFILE" | "HISTSIZE" | "HISTFILESIZE" | "SAVEHIST"
    )
}

const ERASED: &str = "anti-forensics";

impl Analyzer<'_> {
    /// `NAME=value`, on its own, before a program or given to `export`.
    pub(super) fn history_setting(&mut self, name: &str, value: &Word) {
        if history_off(name, &value.text) {
            self.block(format!(
                "{ERASED} ({name}={} stops the shell recording what runs)",
                value.text
            ));
        }
    }

    /// Programs and builtins that erase or switch off a record of activity.
    pub(super) fn covers_tracks(&mut self, c: &Cmd<'_>) {
        let args = &c.args;
        match c.lb.as_str() {
            "history" if c.short('c') || c.short('d') || c.short('w') => {
                self.block(format!(
                    "{ERASED} (history {} erases the shell's record of what ran)",
                    args.join(" ")
                ));
            }
            "set" if args.windows(2).any(|w| w[0] == "+o" && w[1] == "history") => {
                self.block(format!(
                    "{ERASED} (set +o history stops the shell recording what runs)"
                ));
            }
            "unset" => {
                if let Some(n) = args.iter().find(|a| history_name(a)) {
                    self.block(format!(
                        "{ERASED} (unset {n} stops the shell recording what runs)"
                    ));
                }
            }
            "export" | "declare" | "typeset" | "local" | "readonly" | "env" => {
                for (i, w) in c.words.iter().enumerate().skip(1) {
                    if let Some((n, v)) = w.text.split_once('=') {
                        let value = Word {
                            text: v.to_string(),
                            ..w.clone()
                        };
                        self.history_setting(n, &value);
                    } else if c.lb == "env"
                        && matches!(w.text.as_str(), "-u" | "--unset")
                        && c.words.get(i + 1).is_some_and(|n| history_name(&n.text))
                    {
                        self.block(format!(
                            "{ERASED} (env -u {} stops the shell recording what runs)",
                            c.words[i + 1].text
                        ));
                    }
                }
            }
            // Your own journal's old files (`--user`) trimmed to a size or
            // an age that keeps its recent record: housekeeping, asked.
            // Down to nothing (`--vacuum-time=1s`) it erases the record.
            "journalctl"
                if args.iter().any(|a| a == "--user")
                    && !args.iter().any(|a| {
                        matches!(
                            a.as_str(),
                            "--system" | "-m" | "--merge" | "-D" | "--directory" | "--file"
                        ) || a.starts_with("--directory=")
                            || a.starts_with("--file=")
                    })
                    && args.iter().any(|a| a.starts_with("--vacuum-"))
                    && args
                        .iter()
                        .filter(|a| a.starts_with("--vacuum-"))
                        .all(|a| keeps_recent(a)) =>
            {
                self.ask("journalctl --vacuum deletes your own journal's old files");
            }
            "journalctl" if args.iter().any(|a| a.starts_with("--vacuum-")) => {
                self.block(format!(
                    "{ERASED} (journalctl --vacuum deletes the system journal)"
                ));
            }
            "dmesg"
                if c.short('c') || c.short('C') || c.has("--clear") || c.has("--read-clear") =>
            {
                self.block(format!("{ERASED} (dmesg clears the kernel's log)"));
            }
            _ => {}
        }
    }
}

/// `--vacuum-size=200M`, `--vacuum-time=2weeks`, `--vacuum-files=5`: what
/// is kept still holds the recent record (a day, 10 MB, two files).
fn keeps_recent(option: &str) -> bool {
    let Some((key, value)) = option.split_once('=') else {
        return false;
    };
    let digits: String = value.chars().take_while(char::is_ascii_digit).collect();
    let Ok(n) = digits.parse::<u64>() else {
        return false;
    };
    let unit = value[digits.len()..].to_ascii_lowercase();
    match key {
        "--vacuum-size" => {
            let bytes = match unit.as_str() {
                "g" | "gb" | "gib" => n.saturating_mul(1 << 30),
                "m" | "mb" | "mib" => n.saturating_mul(1 << 20),
                "k" | "kb" | "kib" => n.saturating_mul(1 << 10),
                _ => n,
            };
            bytes >= 10 << 20
        }
        "--vacuum-time" => {
            let days = match unit.as_str() {
                "d" | "day" | "days" => n,
                "w" | "week" | "weeks" => n.saturating_mul(7),
                "month" | "months" => n.saturating_mul(30),
                "y" | "year" | "years" => n.saturating_mul(365),
                _ => 0,
            };
            days >= 1
        }
        "--vacuum-files" => n >= 2,
        _ => false,
    }
}
