//! The project itself sent away: its whole tree archived (`tar czf - .`,
//! `zip -r - .`) or its history (`git archive`, `git bundle`, `git log -p`)
//! piped, however transformed, into a program that sends its input to
//! another machine. The tree holds what `.gitignore` keeps out of a push
//! (`.env`, local keys); the history holds every secret ever committed.

use super::*;

impl Analyzer<'_> {
    pub(super) fn project_sent_away(&mut self, script: &Script) {
        // Archives of the project written to a file, then that file sent.
        let staged: Vec<(String, &'static str)> = script
            .commands
            .iter()
            .filter_map(|c| {
                let argv = peeled(&c.argv);
                let what = self.whole_project(argv, c.cwd.as_deref())?;
                let out = archive_output(argv)?;
                Some((
                    self.project_relative(self.norm(out, c.cwd.as_deref())),
                    what,
                ))
            })
            .collect();
        for c in &script.commands {
            let argv = peeled(&c.argv);
            let Some(host) = files_sent_to(argv) else {
                continue;
            };
            // `rsync -az ./ host:backup/`, `scp -r ~/work host:`: the tree itself.
            let copier = argv.first().is_some_and(|w| {
                matches!(
                    lower(&base_name(&w.text)).as_str(),
                    "rsync" | "scp" | "sftp"
                )
            });
            let tree = argv[1..].iter().any(|w| {
                !w.text.starts_with('-')
                    && !w.text.contains(':')
                    && (matches!(w.text.as_str(), "." | "./" | "*")
                        || self.is_workdir(&self.norm(w, c.cwd.as_deref())))
            });
            if copier && tree {
                self.block(format!(
                    "exfiltration (the whole project tree sent to {})",
                    shown(&host)
                ));
                return;
            }
            for w in &argv[1..] {
                let t = w
                    .text
                    .trim_start_matches(|ch: char| ch != '@' && w.text.contains('@'));
                let t = t.trim_start_matches('@');
                let p = self.project_relative(self.norm(&Word::lit(t), c.cwd.as_deref()));
                if let Some((_, what)) = staged.iter().find(|(f, _)| *f == p) {
                    self.block(format!("exfiltration ({what} sent to {})", shown(&host)));
                    return;
                }
            }
        }
        for c in &script.commands {
            let argv = peeled(&c.argv);
            let Some(host) = stdin_sent_to(argv) else {
                continue;
            };
            let mut k = c.stdin_from;
            let mut hops = 0;
            while let Some(i) = k.filter(|_| hops < 16) {
                let Some(src) = script.commands.get(i) else {
                    break;
                };
                if let Some(what) = self.whole_project(peeled(&src.argv), src.cwd.as_deref()) {
                    self.block(format!("exfiltration ({what} sent to {})", shown(&host)));
                    return;
                }
                k = src.stdin_from;
                hops += 1;
            }
        }
    }

    /// What of the project this command prints whole: its tree as an
    /// archive, or its history.
    fn whole_project(&self, argv: &[Word], cwd: Option<&str>) -> Option<&'static str> {
        let first = argv.first()?;
        let b = lower(&base_name(&first.text));
        let args: Vec<&str> = argv[1..].iter().map(|w| w.text.as_str()).collect();
        match b.as_str() {
            "git" => {
                let sub = args.iter().find(|a| !a.starts_with('-'))?;
                let history = match *sub {
                    "archive" | "bundle" => true,
                    "log" => args.iter().any(|a| matches!(*a, "-p" | "--patch" | "-u")),
                    "format-patch" => args.contains(&"--stdout"),
                    _ => false,
                };
                history.then_some("the project's history")
            }
            "tar" | "bsdtar" | "gtar" | "zip" | "7z" | "7za" | "cpio" | "pax" => {
                let root = argv[1..].iter().any(|w| {
                    !w.text.starts_with('-') && {
                        let p = self.norm(w, cwd);
                        matches!(w.text.as_str(), "." | "./" | "*") || self.is_workdir(&p)
                    }
                });
                root.then_some("the whole project tree")
            }
            _ => None,
        }
    }
}

/// The host a command sends its standard input to, when it does: an
/// upload of `-` or `@-` to a URL, a raw connection, a remote `cat >`.
fn stdin_sent_to(argv: &[Word]) -> Option<String> {
    let first = argv.first()?;
    let b = lower(&base_name(&first.text));
    let args: Vec<&str> = argv[1..].iter().map(|w| w.text.as_str()).collect();
    let host = match b.as_str() {
        "curl" | "wget" | "wget2" | "http" | "https" | "xh" => {
            let reads_stdin = args.iter().any(|a| {
                *a == "-"
                    || a.ends_with("@-")
                    || a.ends_with("@/dev/stdin")
                    || a.ends_with("=/dev/stdin")
                    || *a == "/dev/stdin"
            });
            if !reads_stdin {
                return None;
            }
            args.iter()
                .find_map(|a| a.split_once("://").map(|(_, r)| r))?
        }
        "nc" | "ncat" | "netcat" | "socat" | "telnet" => args
            .iter()
            .find(|a| !a.starts_with('-') && a.contains('.'))?,
        "ssh" => args.iter().find(|a| !a.starts_with('-'))?,
        _ => return None,
    };
    local_or(host)
}

/// The host of an address (`user@host:port/path`), unless it is this
/// machine or the local network.
fn local_or(address: &str) -> Option<String> {
    let host = address.split(['/', '?']).next().unwrap_or(address);
    let host = host.rsplit('@').next().unwrap_or(host);
    let host = host.split(':').next().unwrap_or(host);
    let local = host == "localhost"
        || host.starts_with("127.")
        || host.starts_with("10.")
        || host.starts_with("192.168.")
        || host.starts_with("[::1]");
    (!local && !host.is_empty()).then(|| host.to_string())
}

/// The file an archiver writes (`tar czf F`, `tar -cf F`, `zip F …`,
/// `git archive -o F`, `git bundle create F`); none for standard output.
fn archive_output(argv: &[Word]) -> Option<&Word> {
    let b = lower(&base_name(&argv.first()?.text));
    let words = &argv[1..];
    let out = match b.as_str() {
        "tar" | "bsdtar" | "gtar" => {
            let at = words.iter().position(|w| {
                let t = w.text.trim_start_matches('-');
                !w.text.starts_with("--")
                    && t.ends_with('f')
                    && t.chars().all(|ch| ch.is_ascii_alphabetic())
            })?;
            words.get(at + 1)
        }
        "zip" | "7z" | "7za" => words
            .iter()
            .find(|w| !w.text.starts_with('-') && w.text != "a"),
        "git" => {
            let at = words
                .iter()
                .position(|w| w.text == "-o" || w.text == "--output");
            match at {
                Some(i) => words.get(i + 1),
                None => words
                    .iter()
                    .position(|w| w.text == "create")
                    .and_then(|i| words.get(i + 1)),
            }
        }
        _ => None,
    }?;
    (out.text != "-" && !out.dynamic).then_some(out)
}

/// The host a command uploads named files to (`curl -T F URL`, `curl -F
/// f=@F URL`, `scp F host:`, `rsync F host:dir`), when it is not local.
fn files_sent_to(argv: &[Word]) -> Option<String> {
    let b = lower(&base_name(&argv.first()?.text));
    let args: Vec<&str> = argv[1..].iter().map(|w| w.text.as_str()).collect();
    let host = match b.as_str() {
        "curl" | "wget" | "http" | "https" | "xh" => args
            .iter()
            .find_map(|a| a.split_once("://").map(|(_, r)| r))?,
        "scp" | "rsync" | "sftp" => args.iter().filter(|a| !a.starts_with('-')).find_map(|a| {
            a.split_once(':')
                .map(|(h, _)| h)
                .filter(|h| !h.contains('/'))
        })?,
        _ => return None,
    };
    local_or(host)
}
