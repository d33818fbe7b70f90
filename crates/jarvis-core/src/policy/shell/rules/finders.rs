//! `find` and `fd`: what they list, and what their actions (`-exec`,
//! `-delete`, `-fprint`, `--exec`) run or change on each file found.

use super::*;

/// Programs that print the content of the files they are given.
pub(super) const PRINTS_CONTENT: &[&str] = &[
    "cat", "head", "tail", "less", "more", "base64", "xxd", "od", "hexdump", "strings", "grep",
    "sed", "awk", "tee", "nl", "bat", "batcat", "jq", "yq", "sort", "cut", "tac",
];

/// A command that prints the files it is handed (`sed -i` edits them).
pub(super) fn prints_content(inner: &[Word]) -> bool {
    let Some(first) = inner.first() else {
        return false;
    };
    let b = program_name(&first.text);
    PRINTS_CONTENT.contains(&b.as_str())
        && !(b == "sed"
            && inner
                .iter()
                .any(|w| w.text.starts_with("-i") || w.text.starts_with("--in-place")))
}

/// Marks a root handed to `each_file` as the match itself, not what is below.
const ROOT_ITSELF: &str = "\u{E001}itself";

impl Analyzer<'_> {
    /// `find ROOTS EXPR`: lists names unless `-exec`, `-delete` or `-fprint`.
    /// (`-exec` of a plain reader still only reads.)
    pub(super) fn find(&mut self, c: &Cmd<'_>) -> bool {
        let args = &c.args;
        let root_count = args
            .iter()
            .take_while(|x| !x.starts_with('-') && *x != "(" && *x != "!" && *x != ",")
            .count();
        let roots: Vec<Word> = if root_count == 0 {
            vec![Word::lit(".")]
        } else {
            c.words[1..=root_count].to_vec()
        };
        let mut read_only = true;
        for r in &roots {
            read_only &= self.list_path(r, c.cwd());
        }
        let wide = roots.iter().any(|r| {
            let p = self.norm(r, c.cwd());
            paths::contains_credentials(&p) || r.dynamic
        });
        let mut i = root_count;
        let mut secret_names = false;
        while i < args.len() {
            let x = args[i].as_str();
            match x {
                "-name" | "-iname" | "-path" | "-ipath" | "-wholename" | "-iwholename"
                | "-regex" | "-iregex" | "-lname" => {
                    let secret = args.get(i + 1).is_some_and(|pat| {
                        paths::glob_could_match_secret(pat.rsplit('/').next().unwrap_or(pat))
                    });
                    // `*.env` matches `.env` for find, and `prod.env` is one too.
                    secret_names |= secret
                        || args.get(i + 1).is_some_and(|pat| {
                            lower(pat.rsplit('/').next().unwrap_or(pat)).contains(".env")
                        });
                    if let Some(pat) = args.get(i + 1)
                        && wide
                        && secret
                    {
                        self.block(format!("searches your home or the whole system for key and secret files ({pat})"));
                    }
                    i += 1;
                }
                "-delete" => {
                    read_only = false;
                    for r in &roots {
                        self.delete_path(r, true, c.cwd(), "find -delete");
                        // A path test reaching into `.git`
                        // (`-path '*/.git/objects/*'`): what it deletes there.
                        for (k, w) in args[..i].windows(2).enumerate() {
                            let negated = k > 0 && matches!(args[k - 1].as_str(), "!" | "-not");
                            if negated
                                || !matches!(
                                    w[0].as_str(),
                                    "-path" | "-ipath" | "-wholename" | "-iwholename"
                                )
                            {
                                continue;
                            }
                            if let Some(at) = w[1].find(".git") {
                                let into = Word {
                                    text: format!(
                                        "{}/{}",
                                        r.text.trim_end_matches('/'),
                                        &w[1][at..]
                                    ),
                                    glob: true,
                                    ..r.clone()
                                };
                                self.delete_path(&into, false, c.cwd(), "find -delete");
                            }
                        }
                    }
                }
                "-exec" | "-execdir" | "-ok" | "-okdir" => {
                    let end = args[i + 1..]
                        .iter()
                        .position(|y| y == ";" || y == "+" || y == "\\;")
                        .map(|p| i + 1 + p)
                        .unwrap_or(args.len());
                    let inner: Vec<Word> = c.words[i + 2..end + 1].to_vec();
                    // `find . -name '*.sh' -exec grep -l TODO {} +` in the
                    // project only reads.
                    let inside = roots.iter().all(|r| self.inside(&self.norm(r, c.cwd())));
                    // Files named like keys or `.env`, each handed to a
                    // program that sends it away.
                    let sender = inner.first().is_some_and(|w| {
                        let b = program_name(&w.text);
                        tables::FETCHERS.contains(&b.as_str())
                            || matches!(b.as_str(), "scp" | "rsync" | "sftp")
                    });
                    if secret_names && sender {
                        self.block("exfiltration (sends every file find matches by a secret's name over the network)");
                    }
                    // `find . -name '.env*' -exec cat {} +`: the secrets' text.
                    if prints_content(&inner) && super::listers::searches_secrets(&c.words) {
                        self.block(format!(
                            "prints every file find matches by a secret's name ({})",
                            shown(&inner[0].text)
                        ));
                    }
                    // `find . -name '.g*' -exec rm -rf {} +`: a name test
                    // `.git` passes, in the working directory, with a
                    // recursive delete run on each match.
                    let recursive_rm = inner.first().is_some_and(|w| program_name(&w.text) == "rm")
                        && inner.iter().any(|w| {
                            w.text == "--recursive"
                                || w.text.starts_with('-')
                                    && !w.text.starts_with("--")
                                    && w.text.contains(['r', 'R'])
                        });
                    // (`-name objects` or `refs` reaches `.git`'s own unless
                    // the line keeps find out of `.git`.)
                    let skips_git = args[..i].iter().any(|a| a.contains(".git"));
                    let names_git = args[..i].windows(2).enumerate().any(|(k, w)| {
                        matches!(w[0].as_str(), "-name" | "-iname")
                            && !(k > 0 && matches!(args[k - 1].as_str(), "!" | "-not"))
                            && (paths::pattern_match(&lower(&w[1]), ".git")
                                || !skips_git
                                    && ["objects", "refs"]
                                        .iter()
                                        .any(|h| paths::pattern_match(&lower(&w[1]), h)))
                    });
                    let files_only = args[..i].windows(2).any(|w| w[0] == "-type" && w[1] == "f");
                    // No test that picks some entries out: every one of the
                    // project's, `.git` with it, deleted.
                    let picks = args[..i].iter().any(|a| {
                        matches!(
                            a.as_str(),
                            "-name"
                                | "-iname"
                                | "-path"
                                | "-ipath"
                                | "-wholename"
                                | "-iwholename"
                                | "-regex"
                                | "-iregex"
                                | "-lname"
                                | "-newer"
                                | "-newermt"
                                | "-size"
                                | "-mtime"
                                | "-mmin"
                                | "-atime"
                                | "-amin"
                                | "-ctime"
                                | "-cmin"
                                | "-user"
                                | "-group"
                                | "-perm"
                                | "-empty"
                                | "-links"
                                | "-inum"
                                | "-samefile"
                                | "-prune"
                                | "!"
                                | "-not"
                        )
                    });
                    let rm = inner.first().is_some_and(|w| program_name(&w.text) == "rm");
                    if rm
                        && !picks
                        && roots
                            .iter()
                            .any(|r| self.is_workdir(&self.norm(r, c.cwd())))
                    {
                        self.block(
                            "find deletes every entry of the project, its history (.git) with them",
                        );
                    }
                    if recursive_rm
                        && names_git
                        && !files_only
                        && roots
                            .iter()
                            .any(|r| self.is_workdir(&self.norm(r, c.cwd())))
                    {
                        self.block(
                            "find runs a recursive delete on the repository's history (.git), not undoable",
                        );
                    }
                    // What the analysis says of the command run on a match
                    // (`jq -r .name`, `bash -n`): a read there is a read.
                    let each = self.judged(|a| a.each_file(c, &inner, &roots, "{}", wide));
                    let reads = x.starts_with("-exec")
                        && !wide
                        && inside
                        && (exec_reader(&inner) || each == Verdict::Allow);
                    read_only &= reads;
                    // With no test before it (`-maxdepth 0`, or none at
                    // all), the first match is the starting point itself:
                    // `{}/..` climbs out of it.
                    // Tests may match the starting point too (`-type d`,
                    // `-name '*'`): only `-mindepth 1` or more leaves it out.
                    let below_only = args[..i]
                        .windows(2)
                        .any(|w| w[0] == "-mindepth" && w[1].parse::<u32>().is_ok_and(|d| d >= 1));
                    // A name test the starting point's own name fails
                    // (`/tmp` and `-name 'pytest-*'`) leaves it out too.
                    let named_out = |r: &Word| {
                        let base = r
                            .text
                            .trim_end_matches('/')
                            .rsplit('/')
                            .next()
                            .unwrap_or("");
                        args[..i].windows(2).enumerate().any(|(k, w)| {
                            matches!(w[0].as_str(), "-name" | "-iname")
                                && !(k > 0 && matches!(args[k - 1].as_str(), "!" | "-not"))
                                && !paths::glob_match(&w[1], base)
                        })
                    };
                    let roots_in: Vec<Word> =
                        roots.iter().filter(|r| !named_out(r)).cloned().collect();
                    // (With no `{}` in the command, the starting point
                    // changes nothing in it: judged once above.)
                    let names_match = inner.iter().any(|w| w.text.contains("{}"));
                    if names_match && !below_only && !roots_in.is_empty() {
                        let itself: Vec<Word> = roots_in
                            .iter()
                            .map(|r| Word {
                                text: format!("{}/{ROOT_ITSELF}", r.text.trim_end_matches('/')),
                                ..r.clone()
                            })
                            .collect();
                        self.each_file(c, &inner, &itself, "{}", wide);
                    }
                    i = end;
                }
                "-fprint" | "-fprint0" | "-fprintf" | "-fls" => {
                    read_only = false;
                    if let Some(f) = c.arg_word(i + 1).cloned() {
                        self.write_path(&f, c.cwd(), "find");
                    }
                    i += 1;
                }
                _ => {}
            }
            i += 1;
        }
        if !read_only {
            self.ask("find changes or runs things for each match");
        }
        read_only
    }

    /// `fd PATTERN [PATH…] [-x CMD]`.
    pub(super) fn fd(&mut self, c: &Cmd<'_>) -> bool {
        let args = &c.args;
        let (exec_at, glued) = match fd_exec(args) {
            Some((at, glued)) => (Some(at), glued),
            None => (None, None),
        };
        let end = exec_at.unwrap_or(args.len());
        let operands: Vec<Word> = c.words[1..end + 1]
            .iter()
            .enumerate()
            .filter(|(k, w)| {
                let value = *k > 0
                    && matches!(
                        args.get(k - 1).map(String::as_str),
                        Some(
                            "-e" | "--extension"
                                | "-t"
                                | "--type"
                                | "-d"
                                | "--max-depth"
                                | "-E"
                                | "--exclude"
                                | "-j"
                                | "--base-directory"
                                | "--search-path"
                                | "-S"
                                | "--size"
                                | "-c"
                                | "--color"
                                | "--changed-within"
                                | "--changed-before"
                                | "-o"
                                | "--owner"
                        )
                    );
                !w.text.starts_with('-') && !value
            })
            .map(|(_, w)| w.clone())
            .collect();
        let mut roots: Vec<Word> = if operands.len() > 1 {
            operands[1..].to_vec()
        } else {
            vec![Word::lit(".")]
        };
        roots.extend(super::script_opts::values(c, &["--search-path"]));
        // `--base-directory DIR`: fd moves there first; relative roots
        // (and `-x`'s files) are below it.
        if let Some(base) = super::script_opts::values(c, &["--base-directory"]).pop() {
            roots = roots
                .into_iter()
                .map(|r| {
                    if r.text.starts_with(['/', '~']) || r.text.starts_with(HOME) {
                        r
                    } else {
                        Word {
                            text: format!("{}/{}", base.text.trim_end_matches('/'), r.text),
                            ..base.clone()
                        }
                    }
                })
                .collect();
        }
        let mut read_only = true;
        for r in &roots {
            read_only &= self.list_path(r, c.cwd());
        }
        let wide = roots
            .iter()
            .any(|r| paths::contains_credentials(&self.norm(r, c.cwd())));
        if let Some(pat) = operands.first()
            && wide
            && paths::glob_could_match_secret(&pat.text)
        {
            self.block("searches your home or the whole system for key and secret files");
        }
        if let Some(e) = exec_at {
            // (`-Xrm`, `--exec-batch=rm`: the program glued to the option.)
            let inner: Vec<Word> = glued
                .map(|g| Word {
                    text: g,
                    ..c.words[e + 1].clone()
                })
                .into_iter()
                .chain(c.words[e + 2..].iter().cloned())
                .collect();
            if prints_content(&inner) && super::listers::searches_secrets(&c.words) {
                self.block(format!(
                    "prints every file fd matches by a secret's name ({})",
                    shown(&inner[0].text)
                ));
            }
            let mut inner = inner;
            if !inner.iter().any(|w| w.text.contains("{}")) {
                inner.push(Word::lit("{}"));
            }
            // As find's `-exec`: a read of each match in the project reads.
            let each = self.judged(|a| a.each_file(c, &inner, &roots, "{}", wide));
            let inside = roots.iter().all(|r| self.inside(&self.norm(r, c.cwd())));
            if each == Verdict::Allow && inside && !wide {
                return read_only;
            }
            self.ask("fd runs a command for each match");
            return false;
        }
        read_only
    }

    /// A command run once per file found below `roots`, `{}` standing for it.
    pub(super) fn each_file(
        &mut self,
        c: &Cmd<'_>,
        inner: &[Word],
        roots: &[Word],
        marker: &str,
        wide: bool,
    ) {
        let Some(first) = inner.first() else { return };
        let fb = base_name(&first.text);
        let mut inner = inner.to_vec();
        // Run on every file below a root: as good as recursive.
        if wide {
            if matches!(fb.as_str(), "chmod" | "chown" | "chgrp") {
                inner.insert(1, Word::lit("-R"));
            } else if matches!(fb.as_str(), "rm" | "shred") {
                inner.insert(1, Word::lit("-r"));
            }
        }
        for r in roots {
            // `{}` is each match below the root; a root marked as the match
            // itself stands for that folder.
            let below = match r.text.strip_suffix(&format!("/{ROOT_ITSELF}")) {
                Some(root) => root.to_string(),
                None => format!("{}/*", r.text.trim_end_matches('/')),
            };
            let words: Vec<Word> = inner
                .iter()
                .map(|w| {
                    if w.text.contains(marker) {
                        Word {
                            text: w.text.replace(marker, &below),
                            dynamic: r.dynamic,
                            glob: true,
                            ..w.clone()
                        }
                    } else {
                        w.clone()
                    }
                })
                .collect();
            // What reads or sends every file below home reaches the keys in it.
            if wide
                && (PRINTS_CONTENT.contains(&fb.as_str())
                    || matches!(
                        fb.as_str(),
                        "cp" | "curl"
                            | "wget"
                            | "scp"
                            | "rsync"
                            | "tar"
                            | "zip"
                            | "nc"
                            | "mail"
                            | "gpg"
                    ))
            {
                self.block(format!(
                    "{fb} runs on every file below {}, where keys and tokens live",
                    shown(&r.text)
                ));
            }
            self.run_words(words, c.src, c.script, c.depth + 1);
        }
    }

    /// A path listed (names, sizes): credentials and Jarvis's state count,
    /// the rest only decides whether it is provably in the read set.
    pub(super) fn list_path(&mut self, w: &Word, cwd: Option<&str>) -> bool {
        if w.dynamic {
            return false;
        }
        // The system's own secret files: their names and modes are public,
        // their content is root's (`stat /etc/shadow`, `ls /etc/sudoers.d`).
        let p = self.norm(w, cwd);
        if p.starts_with("/etc/") && paths::credential_normalized(&p, &w.text).is_some() {
            return true;
        }
        // Device nodes' names, owners and modes (`stat /dev/ttyUSB0`, `ls
        // -l /dev/ttyACM*`): who may open the serial line, nothing read.
        const PORTS: &[&str] = &[
            "/dev/tty",
            "/dev/serial/",
            "/dev/bus/usb",
            "/dev/video",
            "/dev/snd/",
            "/dev/gpiochip",
            "/dev/i2c-",
            "/dev/spidev",
            "/dev/rfcomm",
            "/dev/hidraw",
            "/dev/null",
        ];
        if PORTS.iter().any(|d| p.starts_with(d)) && !p.contains("..") {
            return true;
        }
        let Some(p) = self.sensitive(w, cwd, "lists") else {
            return false;
        };
        // Names in the home folder (not secrets: those were caught above)
        // are what `ls ~` shows any user; listing reads no file.
        self.inside(&p)
            || paths::system_normalized(&p) && !p.starts_with("/run/user")
            || p == "~"
            || p.starts_with("~/") && !paths::contains_credentials(&p)
    }
}

/// A command `find -exec` may run on each match and still only read: a
/// plain reader, fixed words, no option that runs or writes anything.
fn exec_reader(inner: &[Word]) -> bool {
    let Some(first) = inner.first() else {
        return false;
    };
    let b = program_name(&first.text);
    matches!(
        b.as_str(),
        "grep"
            | "egrep"
            | "fgrep"
            | "rg"
            | "wc"
            | "head"
            | "tail"
            | "cat"
            | "file"
            | "stat"
            | "md5sum"
            | "sha1sum"
            | "sha256sum"
            | "du"
            | "ls"
            | "nl"
            | "strings"
    ) && inner.iter().all(|w| {
        let t = lower(&w.text);
        !w.dynamic
            && !w.procsub
            && !t.starts_with("--pre")
            && !t.starts_with("--output")
            && !t.starts_with("-o")
            && !t.starts_with("--files0-from")
    })
}

/// Where fd's `-x`/`-X` is, and the program glued to it when it is
/// (`-Xrm`, `-HXrm`, `--exec-batch=rm`, `--exec=sh`).
fn fd_exec(args: &[String]) -> Option<(usize, Option<String>)> {
    args.iter().enumerate().find_map(|(i, x)| {
        if matches!(x.as_str(), "-x" | "--exec" | "-X" | "--exec-batch") {
            return Some((i, None));
        }
        if let Some(v) = long_value(x, "--exec").or_else(|| long_value(x, "--exec-batch")) {
            return Some((i, Some(v.to_string())));
        }
        // A bundle of fd's switches ending in `x` or `X`, and its value
        // (`-exml` is `-e xml`: `e` takes a value, so no bundle).
        let bundle = x.strip_prefix('-').filter(|b| !b.starts_with('-'))?;
        let at = bundle.find(['x', 'X'])?;
        let value = &bundle[at + 1..];
        (bundle[..at].chars().all(|ch| "HIsiLgFaup0lq1".contains(ch)) && !value.is_empty())
            .then(|| (i, Some(value.to_string())))
    })
}
