//! The project itself sent away: its whole tree archived (`tar czf - .`,
//! `zip -r - .`, `git archive`) or its history (`git bundle`, `git log -p`)
//! piped, however transformed, into a program that sends its input to
//! another machine, staged in a file then uploaded, or copied whole
//! (`rsync -a ./ host:`). The tree holds what `.gitignore` keeps out of a
//! push (`.env`, local keys); the history every secret ever committed. A
//! code forge (a release asset on GitHub) and this machine or its local
//! network are where a project goes anyway: those ask.

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
                let p = self.project_relative(self.norm(out, c.cwd.as_deref()));
                Some((p, what))
            })
            .collect();
        // `tar cf host:x.tar .`: GNU tar writes an archive named
        // `[user@]host:path` through rsh/ssh on that host.
        for c in &script.commands {
            let argv = peeled(&c.argv);
            if !argv
                .first()
                .is_some_and(|w| matches!(program_name(&w.text).as_str(), "tar" | "gtar"))
                || argv.iter().any(|w| w.text == "--force-local")
            {
                continue;
            }
            if let Some(what) = self.whole_project(argv, c.cwd.as_deref())
                && let Some(out) = archive_output(argv)
                && let Some((host, _)) = out.text.split_once(':')
                && !host.is_empty()
                && !host.contains('/')
            {
                let host = host.rsplit('@').next().unwrap_or(host);
                self.block(format!("exfiltration ({what} sent to {})", shown(host)));
                return;
            }
        }
        for c in &script.commands {
            let argv = peeled(&c.argv);
            let Some((host, sources)) = files_sent_to(argv) else {
                continue;
            };
            // `rsync -az ./ host:backup/`, `scp -r ~/work host:`: the tree itself.
            let tree = sources.iter().any(|w| {
                matches!(w.text.as_str(), "." | "./" | "*" | "./*")
                    || self.is_workdir(&self.norm(w, c.cwd.as_deref()))
            });
            if tree {
                self.block(format!(
                    "exfiltration (the whole project tree sent to {})",
                    shown(&host)
                ));
                return;
            }
            for w in &sources {
                let p = self.project_relative(self.norm(w, c.cwd.as_deref()));
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

    /// What of the project this command prints or archives whole: its
    /// tree, or its history.
    fn whole_project(&self, argv: &[Word], cwd: Option<&str>) -> Option<&'static str> {
        let first = argv.first()?;
        let b = program_name(&first.text);
        let args: Vec<&str> = argv[1..].iter().map(|w| w.text.as_str()).collect();
        match b.as_str() {
            "git" => {
                let sub = git_subcommand(&args)?;
                let patches = args.iter().any(|a| {
                    a.starts_with("-p") || a.starts_with("--patch") || a.starts_with("-U")
                });
                match sub {
                    "archive" => Some("the project's files"),
                    "bundle" | "fast-export" => Some("the project's history"),
                    // Every object, unreachable ones (deleted secrets) too.
                    "cat-file" if args.iter().any(|a| a.starts_with("--batch-all-objects")) => {
                        Some("the project's history")
                    }
                    "log" | "whatchanged" | "show" if patches => Some("the project's history"),
                    "format-patch" if args.contains(&"--stdout") => Some("the project's history"),
                    _ => None,
                }
            }
            "tar" | "bsdtar" | "gtar" | "zip" | "7z" | "7za" | "cpio" | "pax" => {
                // Creating an archive, not listing or unpacking one.
                let creates = match b.as_str() {
                    "tar" | "bsdtar" | "gtar" => args.iter().any(|a| {
                        *a == "--create"
                            || !a.starts_with("--")
                                && a.trim_start_matches('-')
                                    .chars()
                                    .all(|ch| ch.is_ascii_alphabetic())
                                && a.contains('c')
                                && !a.contains(['x', 't'])
                    }),
                    "7z" | "7za" => args.first() == Some(&"a"),
                    _ => true,
                };
                let root = argv[1..].iter().any(|w| {
                    !w.text.starts_with('-') && {
                        matches!(w.text.as_str(), "." | "./" | "*" | "./*" | ".git")
                            || self.is_workdir(&self.norm(w, cwd))
                    }
                });
                // `tar -T -`, `cpio -o`, `zip -@`: names read from the pipe,
                // any of the project's files (its ignored secrets too).
                let named_on_input = args
                    .windows(2)
                    .any(|p| matches!(p[0], "-T" | "--files-from") && p[1] == "-")
                    || args
                        .iter()
                        .any(|a| *a == "--files-from=-" || *a == "-T-" || *a == "-@")
                    || b == "cpio";
                let root = root || named_on_input;
                (creates && root).then_some("the whole project tree")
            }
            _ => None,
        }
    }
}

/// git's subcommand, past its global options (`git -C . archive`,
/// `git -c k=v log`).
fn git_subcommand<'a>(args: &[&'a str]) -> Option<&'a str> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if matches!(
            *a,
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace"
        ) {
            i += 2;
        } else if a.starts_with('-') {
            i += 1;
        } else {
            return Some(a);
        }
    }
    None
}

/// The file an archiver writes (`tar czf F`, `tar -cf F`, `tar --file F`,
/// `zip F …`, `git archive -o F`, `git bundle create F`); none for
/// standard output.
fn archive_output(argv: &[Word]) -> Option<&Word> {
    let b = program_name(&argv.first()?.text);
    let words = &argv[1..];
    let next_after = |names: &[&str]| {
        words
            .iter()
            .position(|w| names.contains(&w.text.as_str()))
            .and_then(|i| words.get(i + 1))
    };
    let out = match b.as_str() {
        "tar" | "bsdtar" | "gtar" => next_after(&["--file", "-f"]).or_else(|| {
            let at = words.iter().position(|w| {
                let t = w.text.trim_start_matches('-');
                !w.text.starts_with("--")
                    && t.ends_with('f')
                    && t.chars().all(|ch| ch.is_ascii_alphabetic())
            })?;
            words.get(at + 1)
        }),
        "zip" | "7z" | "7za" => words
            .iter()
            .find(|w| !w.text.starts_with('-') && w.text != "a"),
        "git" => next_after(&["-o", "--output"]).or_else(|| next_after(&["create"])),
        _ => None,
    }?;
    (out.text != "-" && !out.dynamic).then_some(out)
}

/// The host a command uploads named files to, and the files it uploads
/// (`curl -T F URL`, `curl -F f=@F URL`, `--data-binary @F`, `scp F host:`,
/// `rsync F host:dir`), when the host is another machine.
fn files_sent_to(argv: &[Word]) -> Option<(String, Vec<Word>)> {
    let b = program_name(&argv.first()?.text);
    let args = &argv[1..];
    match b.as_str() {
        "curl" => {
            let mut files = Vec::new();
            for (k, w) in args.iter().enumerate() {
                let t = w.text.as_str();
                let prev = k
                    .checked_sub(1)
                    .map(|p| args[p].text.as_str())
                    .unwrap_or("");
                if matches!(prev, "-T" | "--upload-file") {
                    files.push(w.clone());
                } else if matches!(prev, "-F" | "--form" | "-d" | "--data" | "--data-binary")
                    && let Some((_, f)) = t.split_once('@')
                {
                    let f = f.split(';').next().unwrap_or(f);
                    files.push(Word {
                        text: f.to_string(),
                        ..w.clone()
                    });
                }
            }
            let host = destination_url(args)?;
            (!files.is_empty()).then_some((host, files))
        }
        "scp" | "rsync" | "sftp" => {
            // `rsync -n`: a dry run lists what would be sent, and sends nothing.
            // (A bundle of letters only: `-f'- x'` is a filter, not `-n`.)
            let dry = b == "rsync"
                && args.iter().any(|w| {
                    let t = w.text.as_str();
                    t == "--dry-run"
                        || t.strip_prefix('-').is_some_and(|f| {
                            !f.starts_with('-')
                                && f.contains('n')
                                && f.chars().all(|ch| ch.is_ascii_alphabetic())
                                && !f.contains(['e', 'f', 'B', 'T', 'M'])
                        })
                });
            if dry {
                return None;
            }
            let ops: Vec<&Word> = args.iter().filter(|w| !w.text.starts_with('-')).collect();
            let (dest, sources) = ops.split_last()?;
            let remote = remote_part(&dest.text)?;
            let host = far_host(remote)?;
            // Sources on this machine (not `host:file`).
            let local: Vec<Word> = sources
                .iter()
                .filter(|w| remote_part(&w.text).is_none())
                .map(|w| (*w).clone())
                .collect();
            Some((host, local))
        }
        // Cloud storage: `aws s3 sync . s3://b`, `gsutil -m rsync -r . gs://b`,
        // `rclone copy . remote:b`, `az storage blob upload-batch -s .`.
        "aws" | "gsutil" | "gcloud" | "rclone" | "az" | "s3cmd" | "mc" => {
            let ops: Vec<&Word> = args.iter().filter(|w| !w.text.starts_with('-')).collect();
            let bucket = ops.iter().find(|w| {
                let t = lower(&w.text);
                ["s3://", "gs://", "az://", "r2://", "b2://"]
                    .iter()
                    .any(|p| t.starts_with(p))
                    || b == "rclone" && t.contains(':') && !t.starts_with('/')
                    || b == "mc" && t.contains('/') && !t.starts_with(['.', '/'])
            })?;
            let uploads = ops.iter().any(|w| {
                matches!(
                    w.text.as_str(),
                    "sync" | "cp" | "copy" | "rsync" | "mirror" | "put" | "upload-batch"
                )
            });
            let local: Vec<Word> = ops
                .iter()
                .filter(|w| !std::ptr::eq(**w, *bucket))
                .filter(|w| !w.text.contains("://") && !w.text.contains(':'))
                .map(|w| (*w).clone())
                .collect();
            uploads.then(|| (bucket.text.clone(), local))
        }
        _ => None,
    }
}

/// `host:path`, `user@host:path`, `rsync://host/…`: the host part.
fn remote_part(t: &str) -> Option<&str> {
    if let Some(rest) = t.strip_prefix("rsync://") {
        return rest.split('/').next();
    }
    let (h, _) = t.split_once(':')?;
    (!h.is_empty() && !h.contains('/')).then_some(h)
}

/// The URL a curl line goes to: an operand, not an option's value (a
/// referer, a header, a JSON body).
pub(super) fn destination_url(args: &[Word]) -> Option<String> {
    let first = operand_urls(args).into_iter().next()?;
    far_host(first.split_once("://").map_or(first, |(_, r)| r))
}

/// Every address a curl line's operands name, in order.
pub(super) fn operand_urls(args: &[Word]) -> Vec<&str> {
    curl_operands(args)
        .into_iter()
        .filter(|t| {
            // A URL, or a scheme-less `host.tld/path` (curl adds http://);
            // a word like `clone` or `./file` is no address.
            t.contains("://")
                || t.split('/')
                    .next()
                    .is_some_and(|h| h.contains('.') && !h.starts_with('.'))
                    && !t.starts_with('/')
        })
        .collect()
}

/// A curl line's operands: its words that are neither options nor an
/// option's value.
pub(super) fn curl_operands(args: &[Word]) -> Vec<&str> {
    const VALUED: &[&str] = &[
        "-H",
        "--header",
        "-d",
        "--data",
        "--data-binary",
        "--data-raw",
        "--data-urlencode",
        "-F",
        "--form",
        "-e",
        "--referer",
        "-A",
        "--user-agent",
        "-u",
        "--user",
        "-o",
        "--output",
        "-T",
        "--upload-file",
        "-x",
        "--proxy",
        "--json",
        "-b",
        "--cookie",
        "-X",
        "--request",
        "--connect-to",
        "--resolve",
        "-K",
        "--config",
        // wget's (its `-O`, `-a` and `-i` are curl's flags without a
        // value, which would hide the URL after them)
        "--output-document",
        "-P",
        "--directory-prefix",
        "--append-output",
        "--input-file",
        "-U",
        "--post-data",
        "--post-file",
        "--body-data",
        "--body-file",
        "--method",
    ];
    let mut skip = false;
    let mut urls = Vec::new();
    for w in args {
        let t = w.text.as_str();
        if std::mem::take(&mut skip) {
            continue;
        }
        if VALUED.contains(&t) {
            skip = true;
            continue;
        }
        if t.starts_with('-') {
            continue;
        }
        urls.push(t);
    }
    urls
}

/// The host a command sends its standard input to, when it does: an
/// upload of `-` or `@-` to a URL, a raw connection, a remote `cat >`.
pub(super) fn stdin_sent_to(argv: &[Word]) -> Option<String> {
    let first = argv.first()?;
    let b = program_name(&first.text);
    let args = &argv[1..];
    let texts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    match b.as_str() {
        "curl" | "wget" | "wget2" | "http" | "https" | "xh" => {
            let reads_stdin = texts.iter().any(|a| {
                *a == "-"
                    || a.ends_with("@-")
                    || a.contains("@-;")
                    || a.ends_with("@/dev/stdin")
                    || a.ends_with("@/dev/fd/0")
                    || a.ends_with("=/dev/stdin")
                    || *a == "/dev/stdin"
            }) || matches!(b.as_str(), "http" | "https" | "xh");
            if !reads_stdin {
                return None;
            }
            destination_url(args)
        }
        "nc" | "ncat" | "netcat" | "telnet" => {
            // A listener hands its input to whoever connects.
            if texts.iter().any(|a| short_has(a, 'l') || *a == "--listen") {
                return Some("anyone who connects".to_string());
            }
            let mut skip = false;
            let host = texts.iter().find(|a| {
                if std::mem::take(&mut skip) {
                    return false;
                }
                skip = matches!(
                    **a,
                    "-s" | "-p" | "-w" | "-i" | "-q" | "-x" | "-X" | "-e" | "-c"
                );
                !a.starts_with('-')
            })?;
            far_host(host)
        }
        "socat" => texts
            .iter()
            .filter_map(|a| {
                let l = lower(a);
                let rest = l
                    .strip_prefix("tcp:")
                    .or_else(|| l.strip_prefix("tcp4:"))
                    .or_else(|| l.strip_prefix("openssl:"))?
                    .to_string();
                far_host(&rest)
            })
            .next(),
        "ssh" => {
            // The first word that is not an option or its value is the host.
            let mut skip = false;
            let host = texts.iter().find(|a| {
                if std::mem::take(&mut skip) {
                    return false;
                }
                skip = super::net::SSH_VALUED.contains(a);
                !a.starts_with('-')
            })?;
            far_host(host)
        }
        _ => None,
    }
}

/// The host of an address (`user@host:port/path`), unless it is this
/// machine, the local network, or a code forge (where a project goes
/// anyway, asked at each push).
pub(super) fn far_host(address: &str) -> Option<String> {
    let host = address_host(address);
    if host.is_empty() || local_host(&host) {
        return None;
    }
    (!forge_host(&host)).then_some(host)
}

/// A code forge, where projects publish their code and releases.
pub(super) fn forge_host(host: &str) -> bool {
    [
        "github.com",
        "githubusercontent.com",
        "gitlab.com",
        "bitbucket.org",
        "codeberg.org",
        "sr.ht",
    ]
    .iter()
    .any(|f| {
        host.strip_suffix(f)
            .is_some_and(|rest| rest.is_empty() || rest.ends_with('.'))
    })
}

/// The host of `user@host:port/path?query` (no scheme), lowercased.
pub(super) fn address_host(address: &str) -> String {
    let host = address.split(['/', '?', '#']).next().unwrap_or(address);
    let host = host.rsplit('@').next().unwrap_or(host);
    let host = if host.starts_with('[') {
        host.split(']')
            .next()
            .map_or(host, |h| h.trim_start_matches('['))
    } else {
        host.split(':').next().unwrap_or(host)
    };
    lower(host)
}

/// This machine or the local network, by address or by name (`nas`,
/// `nas.local`, 10/8, 172.16/12, 192.168/16, loopback).
pub(super) fn local_host(host: &str) -> bool {
    if let Ok(ip) = host.parse::<std::net::IpAddr>() {
        return match ip {
            std::net::IpAddr::V4(v4) => v4.is_loopback() || v4.is_private() || v4.is_link_local(),
            std::net::IpAddr::V6(v6) => v6.is_loopback(),
        };
    }
    // `.internal` and `.home.arpa` are reserved for private networks.
    host == "localhost"
        || [".local", ".lan", ".internal", ".home.arpa", ".localdomain"]
            .iter()
            .any(|s| host.ends_with(s))
        || !host.contains('.')
}

/// This machine by name or address: `localhost.`, `127.1` and `0` (the
/// resolver's short forms), `::ffff:127.0.0.1`, or its own host name read
/// at run time (`$(hostname)`, `$HOSTNAME`).
pub(super) fn is_loopback(host: &str) -> bool {
    // `ssh://u@localhost:22/x` and `u@host`: the host alone.
    let host = host.split_once("://").map_or(host, |(_, r)| r);
    let host = host.split('/').next().unwrap_or(host);
    let host = host.rsplit('@').next().unwrap_or(host);
    let host = if host.starts_with('[') {
        host.split(']')
            .next()
            .unwrap_or(host)
            .trim_start_matches('[')
    } else if host.matches(':').count() == 1 {
        host.split(':').next().unwrap_or(host)
    } else {
        host
    };
    let h = host.trim_end_matches('.').to_ascii_lowercase();
    if h.starts_with("localhost") || h.starts_with("0177.") || h == "::1" {
        return true;
    }
    let own_name = h.contains("hostname") || crate::policy::url::loopback_alias(&h);
    let short = h == "0" || h.starts_with("127.") || h.starts_with("0x7f") || h == "2130706433";
    let mapped = |ip: std::net::IpAddr| match ip {
        std::net::IpAddr::V6(v6) => v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()),
        std::net::IpAddr::V4(_) => false,
    };
    matches!(h.as_str(), "localhost" | "ip6-localhost" | "ip6-loopback")
        || own_name
        || short
        || h.parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified() || mapped(ip))
}
