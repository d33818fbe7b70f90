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
            "-r",
            "--repo",
        ],
    ),
    ("kopia", &["--config-file", "--password", "--parallel"]),
    (
        "rdiff-backup",
        &[
            "-r",
            "--restore-as-of",
            "--remote-schema",
            "--include",
            "--exclude",
        ],
    ),
    (
        "duplicity",
        &["--file-to-restore", "-t", "--time", "--name"],
    ),
    (
        "rclone",
        &["--config", "--include", "--exclude", "--filter"],
    ),
];

/// A folder of this machine named as a path.
fn local_path(t: &str) -> bool {
    t.starts_with(['/', '.', '~'])
        || t.starts_with(HOME)
        || t.contains('/') && repo_host(t).is_none()
}

/// The program's output, named as a file.
pub(super) fn to_output(t: &str) -> bool {
    matches!(
        t,
        "-" | "/dev/stdout"
            | "/dev/stderr"
            | "/dev/fd/1"
            | "/dev/fd/2"
            | "/proc/self/fd/1"
            | "/proc/self/fd/2"
            | "/dev/tty"
    )
}

/// An archive pattern with no name in it (`*`, `**`, `*-*`, `re:.*`):
/// every archive.
fn matches_every_archive(v: &str) -> bool {
    let p = v
        .trim_start_matches("sh:")
        .trim_start_matches("fm:")
        .trim_start_matches("pp:");
    if let Some(re) = p.strip_prefix("re:") {
        return !re.chars().any(|ch| ch.is_ascii_alphanumeric());
    }
    p.contains('*') && !p.chars().any(|ch| ch.is_ascii_alphanumeric())
}

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
        // The verb is the first operand spelled as one (`rclone --transfers
        // 8 copy …`: an option's value may come before it).
        let verb_at = plain
            .iter()
            .position(|&i| {
                c.words[i]
                    .text
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch == '-')
            })
            .unwrap_or(0);
        plain.drain(..verb_at);
        let word = |k: usize| plain.get(k).and_then(|&i| c.words.get(i));
        let verb = word(0).map(|w| w.text.as_str()).unwrap_or("");
        let env = |name: &str| {
            c.assigns
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.text.clone())
        };
        // The repository named by an option or the environment (borg 2's
        // `-r`, `BORG_REPO`, `RESTIC_REPOSITORY`), else by position.
        let opt_repo = super::script_opts::first_value(c, &["-r", "--repo"])
            .map(|w| w.text)
            .or_else(|| match lb {
                "restic" => env("RESTIC_REPOSITORY"),
                "borg" => env("BORG_REPO"),
                _ => None,
            });
        // The last operand that names a folder here (the destination).
        let dest = || {
            plain
                .iter()
                .skip(1)
                .filter_map(|&i| c.words.get(i))
                .rfind(|w| local_path(&w.text))
        };
        let after_verb: Vec<Word> = plain
            .iter()
            .skip(1)
            .filter_map(|&i| c.words.get(i).cloned())
            .collect();
        match (lb, verb) {
            ("restic", "restore") => {
                if let Some(t) = super::script_opts::first_value(c, &["-t", "--target"]) {
                    self.extract_into_from(&t, None, c.cwd(), "restic restore");
                }
            }
            ("restic", "backup") => {
                for w in &after_verb {
                    self.read_tree(w, c.cwd(), "restic backup");
                }
                if c.has("--stdin-from-command") {
                    self.backed_up_command(c, opt_repo, &after_verb);
                }
            }
            ("restic", "forget") => {
                let policy = c.args.iter().any(|a| a.starts_with("--keep"));
                // Snapshots listed by a command at run time (one named by a
                // variable is one).
                let chosen_late = after_verb.iter().any(|w| w.dynamic && !w.subs.is_empty());
                if !policy && chosen_late || c.has("--unsafe-allow-remove-all") {
                    self.destroys_backups(c, opt_repo.as_deref());
                }
            }
            ("restic", "cat") if word(1).is_some_and(|w| w.text == "masterkey") => {
                self.block("reveals the backup repository's master key (restic cat masterkey)");
            }
            ("kopia", "repository")
                if word(1).is_some_and(|w| w.text == "status")
                    && (c.has("-t") || c.has("--reconnect-token")) =>
            {
                self.block("reveals the repository's reconnect token, its password inside (kopia repository status -t)");
            }
            ("borg", "extract") => {
                self.extract_into_from(&Word::lit("."), None, c.cwd(), "borg extract");
            }
            ("borg", "create") => {
                for w in after_verb.iter().skip(1) {
                    self.read_tree(w, c.cwd(), "borg create");
                }
                if c.has("--content-from-command") || c.has("--paths-from-command") {
                    let repo = opt_repo.or_else(|| word(1).map(|w| w.text.clone()));
                    self.backed_up_command(c, repo, &after_verb[after_verb.len().min(2)..]);
                }
            }
            ("borg", "key") if word(1).is_some_and(|w| w.text == "export") => {
                let path = if opt_repo.is_some() { word(2) } else { word(3) };
                match path {
                    Some(f) if !to_output(&f.text) => {
                        self.write_path(f, c.cwd(), "borg key export")
                    }
                    _ => self.block(
                        "reveals the backup repository's key (borg key export to the output)",
                    ),
                }
            }
            ("borg", "rdelete" | "repo-delete") => {
                let repo = opt_repo.or_else(|| word(1).map(|w| w.text.clone()));
                self.destroys_backups(c, repo.as_deref());
            }
            ("borg", "delete") => {
                let repo = opt_repo.clone().or_else(|| word(1).map(|w| w.text.clone()));
                let patterns = ["-a", "--glob-archives", "--match-archives"];
                let whole = opt_repo.is_none()
                    && repo.as_deref().is_some_and(|r| !r.contains("::"))
                    && !patterns.iter().any(|o| c.has(o));
                let all = patterns
                    .iter()
                    .filter_map(|o| super::script_opts::first_value(c, &[o]).map(|w| w.text))
                    .any(|v| matches_every_archive(&v));
                if whole || all {
                    self.destroys_backups(c, repo.as_deref());
                }
            }
            ("kopia", "restore") | ("duplicity", "restore") => {
                if let Some(t) = dest() {
                    self.extract_into_from(t, None, c.cwd(), &format!("{lb} restore"));
                }
            }
            ("kopia", "snapshot") if word(1).is_some_and(|w| w.text == "restore") => {
                if let Some(t) = dest() {
                    self.extract_into_from(t, None, c.cwd(), "kopia snapshot restore");
                }
            }
            // `duplicity URL DIR`: from a location into a folder restores.
            ("duplicity", first) if first.contains("://") => {
                if let Some(t) = dest() {
                    self.extract_into_from(t, None, c.cwd(), "duplicity restore");
                }
            }
            ("rdiff-backup", _) if verb == "restore" || c.has("-r") || c.has("--restore-as-of") => {
                if let Some(t) = dest() {
                    self.extract_into_from(t, None, c.cwd(), "rdiff-backup restore");
                }
            }
            ("rclone", "copy" | "sync" | "copyto" | "move" | "moveto" | "copyurl") => {
                let remote =
                    |t: &str| repo_host(t).is_some() || t.starts_with(':') || t.contains("://");
                if after_verb.iter().any(|w| remote(&w.text))
                    && let Some(dst) = dest().filter(|d| !remote(&d.text))
                {
                    self.extract_into_from(dst, None, c.cwd(), "rclone");
                }
            }
            _ => {}
        }
    }

    /// The command whose output is backed up runs (after `--`, or the
    /// operands given); with the repository on another machine, what it
    /// prints is sent there.
    fn backed_up_command(&mut self, c: &Cmd<'_>, repo: Option<String>, operands: &[Word]) {
        let words: Vec<&Word> = match c.words.iter().position(|w| w.text == "--") {
            Some(k) => c.words[k + 1..].iter().collect(),
            None => operands.iter().collect(),
        };
        if words.is_empty() {
            return;
        }
        let rest = crate::policy::shell::quoted_line(words.iter().map(|w| &w.text));
        let line = match repo.as_deref().and_then(repo_host) {
            Some(host) => format!("{rest} | curl -sT - https://{host}/"),
            None => rest,
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
            && let Some(p) = super::script_opts::first_value(c, &["--path"])
        {
            self.read_tree(&p, c.cwd(), "syncthing");
            self.ask("syncthing shares a folder with other devices");
        }
    }
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
