//! Windows tools a Linux line can reach under WSL: `wsl.exe` itself (the
//! distribution's lifecycle, a command run in it, as root) and `fsutil`.

use super::system::Verb;
use super::*;

/// `wsl` options that only report (the distributions, their state).
const WSL_REPORTS: &[&str] = &[
    "-l",
    "--list",
    "-v",
    "--verbose",
    "-q",
    "--quiet",
    "--running",
    "--all",
    "--status",
    "--version",
    "--help",
];

impl Analyzer<'_> {
    pub(super) fn windows_tools(&mut self, c: &Cmd<'_>, v: &Verb<'_>) -> Option<bool> {
        match v.lb {
            "wsl" => Some(self.wsl(c, v)),
            "fsutil" => {
                // `fsutil file createnew F 900000000000`: space taken at once.
                if let Some(at) = v.args.iter().position(|a| lower(a) == "createnew")
                    && let Some(size) = v.args.get(at + 2).and_then(|s| s.parse::<u64>().ok())
                    && size >= 1 << 30
                {
                    self.block(format!(
                        "fills the disk (fsutil creates a file of {size} bytes)"
                    ));
                }
                self.ask(format!("{} changes the file system", v.b));
                Some(false)
            }
            _ => None,
        }
    }

    fn wsl(&mut self, c: &Cmd<'_>, v: &Verb<'_>) -> bool {
        let args = v.args;
        if !args.is_empty()
            && args
                .iter()
                .all(|a| WSL_REPORTS.contains(&lower(a).as_str()))
        {
            return true;
        }
        let la: Vec<String> = args.iter().map(|a| lower(a)).collect();
        if la.iter().any(|a| a == "--unregister") {
            self.block(
                "destroys data (wsl --unregister deletes a Linux distribution, its home and projects)",
            );
        }
        if let Some(at) = la.iter().position(|a| a == "--export") {
            let target = args.get(at + 2).map(String::as_str).unwrap_or("");
            // `wsl --export D - | …`: the whole distribution down a pipe.
            if target == "-" && c.src.pipes_out {
                self.block(
                    "sends a whole Linux distribution (its home, keys and projects) down a pipe",
                );
            }
            let t = target.replace('\\', "/");
            let host = t
                .strip_prefix("//")
                .map(|r| r.split('/').next().unwrap_or(""));
            if host.is_some_and(|h| super::project_out::far_host(h).is_some()) {
                self.block(format!(
                    "sends a whole Linux distribution (its home, keys and projects) to {target}"
                ));
            }
            self.ask(format!(
                "wsl --export copies a whole distribution to {target}"
            ));
            return false;
        }
        // The command run inside: after `-e`/`--exec`/`--`, or the first
        // word that is not an option.
        let mut i = 0;
        let mut run_at = None;
        while i < la.len() {
            let a = la[i].as_str();
            match a {
                "-u" | "--user" => {
                    if args.get(i + 1).is_some_and(|u| u == "root" || u == "0") {
                        self.block(
                            "privilege escalation (wsl --user root: root without a password)",
                        );
                    }
                    i += 2;
                }
                "-d" | "--distribution" | "--cd" | "--shell-type" | "--distribution-id" => i += 2,
                "-e" | "--exec" | "--" => {
                    run_at = Some(i + 1);
                    break;
                }
                _ if a.starts_with('-') => i += 1,
                _ => {
                    run_at = Some(i);
                    break;
                }
            }
        }
        match run_at.filter(|&at| at < args.len()) {
            Some(at) => {
                let rest: Vec<Word> = c.words.iter().skip(at + 1).cloned().collect();
                let mut code = Word::lit(Word::join(&rest));
                code.dynamic = rest.iter().any(|w| w.dynamic);
                self.shell_code(&code, &[], c.script, c.depth);
                self.ask(format!("{} runs a command in a Linux distribution", v.b));
            }
            None => self.ask(format!("{} manages or enters a Linux distribution", v.b)),
        }
        false
    }
}
