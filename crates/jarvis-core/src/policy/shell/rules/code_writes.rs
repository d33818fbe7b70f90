//! Inline code that writes a startup or system file: `open(…, "a")` on
//! `~/.bashrc`, R's `cat(…, file = "~/.Rprofile")`, Deno's
//! `writeTextFileSync(HOME + "/.config/autostart/…")`.

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
        // Any write anywhere in the code makes every place it names a
        // candidate: which call writes which path (a receiver, a variable
        // mode, a function renamed) is not followed.
        // (Printing, `sys.stdout.write(…)`, writes no file.)
        let l = &l.replace("stdout.write", "").replace("stderr.write", "");
        let writes = opens_for_writing(l)
            || WRITE_WORDS.iter().any(|k| l.contains(k))
            || WRITE_CALLS
                .iter()
                .filter(|k| !matches!(**k, "open(" | "io.open(" | "file.open(" | "cat("))
                .any(|k| l.contains(k))
            || l.contains("write")
            || l.contains("appendfile")
            // R's `cat(…, file = F)`.
            || l.contains("cat(") && l.contains("file");
        if !writes {
            return;
        }
        // R expands `~` in every file name it opens.
        let tilde_home = home_joined || matches!(lang, "rscript" | "r");
        for s in string_literals(text) {
            let p = self.norm_text(&paths::word_path(&s, false), None);
            // `Deno.env.get("HOME") + "/.config/autostart/x.desktop"`, PHP's
            // `"$h/.bashrc"` with `$h` home.
            let tail = s
                .find("/.")
                .filter(|_| s.starts_with('$'))
                .map_or(s.as_str(), |i| &s[i..]);
            let under = format!("~/{}", tail.trim_start_matches(['/', '~']));
            if paths::persistence_normalized(&p) && !self.inside(&p)
                || tilde_home
                    && (tail.starts_with("/.") || tail.starts_with("~/"))
                    && paths::persistence_normalized(&under)
                || system_file(&p)
            {
                self.block(format!(
                    "{lang} code writes a system or startup file ({})",
                    shown(&s)
                ));
            }
        }
        if STARTUP_NAMES.iter().any(|k| l.contains(k))
            && HOME_MARKERS
                .iter()
                .chain(["/etc/"].iter())
                .any(|k| l.contains(k))
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
