//! Inline code that writes a startup or system file: `open(…, "a")` on
//! `~/.bashrc`, R's `cat(…, file = "~/.Rprofile")`, Deno's
//! `writeTextFileSync(HOME + "/.config/autostart/…")`. The place must be
//! among a write call's arguments when the calls can be told apart (a
//! file read first and written elsewhere is no write of it).

use super::code::{HOME_MARKERS, string_literals};
use super::code_shapes::opens_for_writing;
use super::*;

/// Calls that write the file their arguments name.
const WRITE_CALLS: &[&str] = &[
    "open(",
    "fopen(",
    "io.open(",
    "file.open(",
    "write(",
    "writefile(",
    "writefilesync(",
    "appendfile(",
    "appendfilesync(",
    "write_text(",
    "write_bytes(",
    "writetextfile(",
    "writetextfilesync(",
    "writelines(",
    "file_put_contents(",
    "file.write(",
    "file.append(",
    "file.copy(",
    "cat(",
    "sink(",
];

/// Writes whose place is not an argument list (`>>` in Perl, PowerShell's
/// cmdlets).
const WRITE_WORDS: &[&str] = &[">>", "set-content", "add-content", "out-file", "file.new"];

/// Names of startup files, found in code that joins them to home.
const STARTUP_NAMES: &[&str] = &[
    "bashrc",
    "zshrc",
    ".profile",
    "autostart",
    "launchagents",
    "crontab",
    "authorized_keys",
    "systemd/user",
    "sitecustomize",
    "/etc/",
];

impl Analyzer<'_> {
    pub(super) fn code_writes(&mut self, lang: &str, text: &str, l: &str, home_joined: bool) {
        let calls: Vec<&str> = WRITE_CALLS
            .iter()
            .flat_map(|k| {
                l.match_indices(k).filter_map(move |(at, _)| {
                    let args = super::code_shapes::call_args(&l[at + k.len()..]);
                    match *k {
                        // `open` writes only in a writing mode.
                        "open(" | "fopen(" | "io.open(" | "file.open(" => {
                            opens_for_writing(&format!("open({args})")).then_some(args)
                        }
                        // R's `cat` writes a file only through `file =`.
                        "cat(" => args.find("file").map(|i| &args[i..]),
                        _ => Some(args),
                    }
                })
            })
            .collect();
        // `p.write_text(…)`, `f.write(…)`: the file is the receiver, a
        // variable (an `open(…)` before the dot is a call of its own).
        let on_receiver = ["write_text(", "write_bytes(", "write(", "writelines("]
            .iter()
            .any(|k| {
                l.match_indices(k)
                    .any(|(at, _)| l[..at].strip_suffix('.').is_some_and(|r| !r.ends_with(')')))
            });
        let words = on_receiver || WRITE_WORDS.iter().any(|k| l.contains(k));
        if calls.is_empty() && !words {
            return;
        }
        // Scoped to the calls' arguments, unless one names its file by a
        // variable (`open(p, "a")`) or a write has no argument list.
        let by_variable = |a: &str| {
            let first = a.split(',').next().unwrap_or(a);
            !first.contains(['"', '\'', '`'])
        };
        let scoped = !words && !calls.iter().any(|a| by_variable(a));
        let scope = if scoped {
            calls.join(" ")
        } else {
            l.to_string()
        };
        // R expands `~` in every file name it opens.
        let tilde_home = home_joined || matches!(lang, "rscript" | "r");
        for s in string_literals(text) {
            if !scope.contains(&lower(&s)) {
                continue;
            }
            let p = self.norm_text(&paths::word_path(&s, false), None);
            // `Deno.env.get("HOME") + "/.config/autostart/x.desktop"`.
            let under = format!("~/{}", s.trim_start_matches(['/', '~']));
            if paths::persistence_normalized(&p) && !self.inside(&p)
                || tilde_home
                    && (s.starts_with("/.") || s.starts_with("~/"))
                    && paths::persistence_normalized(&under)
                || system_file(&p)
            {
                self.block(format!(
                    "{lang} code writes a system or startup file ({})",
                    shown(&s)
                ));
            }
        }
        if STARTUP_NAMES.iter().any(|k| scope.contains(k))
            && HOME_MARKERS
                .iter()
                .chain(["/etc/"].iter())
                .any(|k| scope.contains(k))
        {
            self.block(format!("persistence ({lang} code writes a startup file)"));
        }
    }
}

/// A system file code may not write: configuration, programs, the kernel's
/// settings (not `/dev/null` or the process's own `/proc/self`).
fn system_file(p: &str) -> bool {
    paths::system_normalized(p)
        && !p.starts_with("/dev/null")
        && !p.starts_with("/proc/self")
        && ["/etc", "/usr", "/boot", "/sys", "/proc/sys", "/bin", "/lib"]
            .iter()
            .any(|d| p.starts_with(d))
}
