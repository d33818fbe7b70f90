//! Backup and sync tools (restic, borg, kopia, duplicity, rdiff-backup,
//! rclone, syncthing): a restore is an extraction into its target, the
//! folders backed up or shared are read whole, the command whose output
//! is backed up runs (and what it prints goes where the repository is),
//! a repository's key exported to the output is revealed, and snapshots
//! deleted wholesale outside the project are backups destroyed.

use super::*;

/// (program, options that take a value) before and between the words
/// that choose what it does.
const VALUED: &[(&str, &[&str])] = &[
    (
        "restic",
        &[
            "-r",
            "--repo",
            "--repository-file",
            "-p",
            "--password-file",
            "-o",
            "--option",
            "--cache-dir",
            "--cacert",
            "--tls-client-cert",
            "--limit-upload",
            "--limit-download",
            "-t",
            "--target",
            "--host",
            "-H",
            "--tag",
            "--path",
            "-e",
            "--exclude",
            "--iexclude",
            "--exclude-file",
            "--files-from",
            "-i",
            "--include",
            "--overwrite",
        ],
    ),
    (
        "borg",
        &[
            "--remote-path",
            "--lock-wait",
            "--umask",
            "-e",
            "--exclude",
            "--exclude-from",
            "--pattern",
            "--patterns-from",
            "-C",
            "--compression",
            "--comment",
            "--strip-components",
            "-a",
            "--glob-archives",
            "--match-archives",
        ],
    ),
    ("kopia", &["--config-file", "--password"]),
    (
        "duplicity",
        &["--file-to-restore", "-t", "--time", "--name"],
    ),
    (
        "rclone",
        &["--config", "--include", "--exclude", "--filter"],
    ),
];

/// Where a repository is: another machine's host, or none when local.
fn repo_host(spec: &str) -> Option<String> {
    let s = spec
        .split_once("::")
        .map_or(spec, |(r, _)| r)
        .trim_start_matches("rest:")
        .trim_start_matches("s3:")
        .trim_start_matches("sftp:")
        .trim_start_matches("swift:")
        .trim_start_matches("b2:")
        .trim_start_matches("azure:")
        .trim_start_matches("gs:");
    if let Some((_, rest)) = s.split_once("://") {
        let authority = rest.split('/').next().unwrap_or("");
        let host = authority.rsplit('@').next().unwrap_or("");
        let host = host.split(':').next().unwrap_or("");
        return (!host.is_empty()).then(|| host.to_string());
    }
    // `user@host:path`, `host:path`.
    let (head, _) = s.split_once(':')?;
    if head.is_empty() || head.contains('/') || head.len() == 1 {
        return None;
    }
    Some(head.rsplit('@').next().unwrap_or(head).to_string())
}

impl Analyzer<'_> {
    pub(super) fn backups(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        let Some((_, valued)) = VALUED.iter().find(|(p, _)| *p == lb) else {
            if lb == "syncthing" {
                self.shares_folder(c);
            }
            return;
        };
        // The words that are not options or their values, by position.
        let mut plain: Vec<usize> = Vec::new();
        let mut i = 1;
        while let Some(w) = c.words.get(i) {
            if w.text == "--" {
                break;
            }
            if valued.contains(&w.text.as_str()) {
                i += 2;
                continue;
            }
            if !w.text.starts_with('-') {
                plain.push(i);
            }
            i += 1;
        }
        let word = |k: usize| plain.get(k).and_then(|&i| c.words.get(i));
        let verb = word(0).map(|w| w.text.as_str()).unwrap_or("");
        match (lb, verb) {
            ("restic", "restore") => {
                if let Some(t) = value_word(c, &["-t", "--target"]) {
                    self.extract_into_from(&t, None, c.cwd(), "restic restore");
                }
            }
            ("restic", "backup") => {
                for k in 1..plain.len() {
                    if let Some(w) = word(k) {
                        self.read_tree(w, c.cwd(), "restic backup");
                    }
                }
                if c.has("--stdin-from-command") {
                    self.backed_up_command(c, value_text(c, &["-r", "--repo"]));
                }
            }
            ("restic", "forget") => {
                let policy = c.args.iter().any(|a| a.starts_with("--keep"));
                let repo = value_text(c, &["-r", "--repo"]);
                let chosen_late = plain
                    .iter()
                    .skip(1)
                    .filter_map(|&i| c.words.get(i))
                    .any(|w| w.dynamic);
                if !policy && chosen_late {
                    self.destroys_backups(c, repo.as_deref());
                }
            }
            ("borg", "extract") => {
                self.extract_into_from(&Word::lit("."), None, c.cwd(), "borg extract");
            }
            ("borg", "create") => {
                for k in 2..plain.len() {
                    if let Some(w) = word(k) {
                        self.read_tree(w, c.cwd(), "borg create");
                    }
                }
                if c.has("--content-from-command") || c.has("--paths-from-command") {
                    self.backed_up_command(c, word(1).map(|w| w.text.clone()));
                }
            }
            ("borg", "key") if word(1).is_some_and(|w| w.text == "export") => match word(3) {
                Some(f) if f.text != "-" => self.write_path(f, c.cwd(), "borg key export"),
                _ => self
                    .block("reveals the backup repository's key (borg key export to the output)"),
            },
            ("borg", "delete") => {
                let repo = word(1).map(|w| w.text.clone());
                let whole = repo.as_deref().is_some_and(|r| !r.contains("::"))
                    && !c.has("-a")
                    && !c.has("--glob-archives")
                    && !c.has("--match-archives");
                let all = ["-a", "--glob-archives", "--match-archives"]
                    .iter()
                    .filter_map(|o| value_text(c, &[o]))
                    .any(|v| v.trim_start_matches("sh:") == "*");
                if whole || all {
                    self.destroys_backups(c, repo.as_deref());
                }
            }
            ("kopia", "restore") | ("duplicity", "restore") => {
                if let Some(t) = word(2) {
                    self.extract_into_from(t, None, c.cwd(), &format!("{lb} restore"));
                }
            }
            ("kopia", "snapshot") if word(1).is_some_and(|w| w.text == "restore") => {
                if let Some(t) = word(3) {
                    self.extract_into_from(t, None, c.cwd(), "kopia snapshot restore");
                }
            }
            ("rclone", "copy" | "sync" | "copyto" | "move" | "moveto") => {
                let (Some(src), Some(dst)) = (word(1), word(2)) else {
                    return;
                };
                let local = |t: &str| repo_host(t).is_none() && !t.starts_with(':');
                if !local(&src.text) && local(&dst.text) {
                    self.extract_into_from(dst, None, c.cwd(), "rclone");
                }
            }
            _ => {}
        }
    }

    /// The command whose output is backed up runs; with the repository on
    /// another machine, what it prints is sent there.
    fn backed_up_command(&mut self, c: &Cmd<'_>, repo: Option<String>) {
        let Some(k) = c.words.iter().position(|w| w.text == "--") else {
            return;
        };
        let rest: Vec<String> = c.words[k + 1..]
            .iter()
            .map(|w| crate::policy::shell::quote(&w.text))
            .collect();
        if rest.is_empty() {
            return;
        }
        let line = match repo.as_deref().and_then(repo_host) {
            Some(host) => format!("{} | curl -sT - https://{host}/", rest.join(" ")),
            None => rest.join(" "),
        };
        self.script(&line, &[], c.depth + 1);
    }

    fn destroys_backups(&mut self, c: &Cmd<'_>, repo: Option<&str>) {
        let inside = repo
            .is_some_and(|r| repo_host(r).is_none() && self.inside(&self.norm_text(r, c.cwd())));
        if !inside {
            self.block(format!(
                "destroys backups: {} deletes a repository's snapshots wholesale ({})",
                c.base,
                repo.map(shown).unwrap_or_else(|| "its repository".into())
            ));
        }
    }

    /// `syncthing cli config folders add --path P`: P is sent to every
    /// device it is shared with, and kept in step with theirs.
    fn shares_folder(&mut self, c: &Cmd<'_>) {
        let a: Vec<&str> = c.args.iter().map(String::as_str).collect();
        if a.starts_with(&["cli", "config", "folders", "add"])
            && let Some(p) = value_word(c, &["--path"])
        {
            self.read_tree(&p, c.cwd(), "syncthing");
            self.ask("syncthing shares a folder with other devices");
        }
    }
}

/// The value of the first of `opts` on the line, as a word.
fn value_word(c: &Cmd<'_>, opts: &[&str]) -> Option<Word> {
    super::script_opts::values(c, opts).into_iter().next()
}

fn value_text(c: &Cmd<'_>, opts: &[&str]) -> Option<String> {
    value_word(c, opts).map(|w| w.text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_repositories() {
        assert_eq!(
            repo_host("ssh://u@h.example/./r::a").as_deref(),
            Some("h.example")
        );
        assert_eq!(
            repo_host("rest:http://1.2.3.4:8000/p").as_deref(),
            Some("1.2.3.4")
        );
        assert_eq!(
            repo_host("s3:https://s3.x.example/b").as_deref(),
            Some("s3.x.example")
        );
        assert_eq!(repo_host("sftp:u@nas:/srv/r").as_deref(), Some("nas"));
        assert_eq!(repo_host("/media/u/BACKUP/r"), None);
        assert_eq!(repo_host("./backup::x"), None);
        assert_eq!(repo_host("C:/r"), None);
    }
}
