//! Which words of a command are operands, which are option values the
//! rules handle, and which are plain text (patterns, messages).

use super::readonly::takes_value;
use super::*;

/// Non-option arguments (after `--` everything is one).
pub(super) fn operands<'a>(c: &'a Cmd<'_>) -> Vec<&'a Word> {
    let mut out = Vec::new();
    let mut ended = false;
    let mut skip = false;
    for (i, w) in c.words.iter().enumerate().skip(1) {
        if skip {
            skip = false;
            continue;
        }
        let t = w.text.as_str();
        if !ended && t == "--" {
            ended = true;
        } else if ended || !t.starts_with('-') || t == "-" {
            out.push(w);
        } else if takes_value(&c.lb, t) {
            skip = true;
        }
        let _ = i;
    }
    out
}

/// Indices into `c.args` the generic scan for credentials skips: text, and
/// every operand of programs whose rules judge each operand themselves.
pub(super) fn handled_positions(c: &Cmd<'_>) -> Vec<usize> {
    let own_rules = (tables::read_only(&c.lb).is_some()
        && !matches!(c.lb.as_str(), "env" | "printenv" | "mount"))
        || matches!(
            c.lb.as_str(),
            "rm" | "rmdir"
                | "unlink"
                | "shred"
                | "srm"
                | "wipe"
                | "trash"
                | "trash-put"
                | "del"
                | "erase"
                | "rd"
                | "remove-item"
                | "ri"
                | "cp"
                | "mv"
                | "install"
                | "ln"
                | "rsync"
                | "ditto"
                | "copy"
                | "move"
                | "xcopy"
                | "robocopy"
                | "copy-item"
                | "move-item"
                | "cpi"
                | "mi"
                | "link"
                | "symlink"
                | "tee"
                | "touch"
                | "mkdir"
                | "truncate"
                | "mkfifo"
                | "mknod"
                | "chmod"
                | "chown"
                | "chgrp"
                | "chattr"
                | "setfacl"
                | "chflags"
                | "dd"
                | "tar"
                | "bsdtar"
                | "gtar"
                | "zip"
                | "unzip"
                | "gzip"
                | "gunzip"
                | "bzip2"
                | "xz"
                | "zstd"
                | "7z"
                | "scp"
                | "sftp"
        );
    if own_rules {
        (0..c.args.len()).collect()
    } else {
        text_positions(c)
    }
}

/// Indices into `c.args` that are text rather than paths.
pub(super) fn text_positions(c: &Cmd<'_>) -> Vec<usize> {
    let b = c.lb.as_str();
    let args = &c.args;
    let all = || (0..args.len()).collect::<Vec<_>>();
    // Index in args of each operand (non-option, after value skipping).
    let op_indices = || -> Vec<usize> {
        let mut out = Vec::new();
        let mut ended = false;
        let mut skip = false;
        for (k, t) in args.iter().enumerate() {
            if skip {
                skip = false;
                continue;
            }
            if !ended && t == "--" {
                ended = true;
            } else if ended || !t.starts_with('-') || t == "-" {
                out.push(k);
            } else if takes_value(b, t) {
                skip = true;
            }
        }
        out
    };
    let value_of = |flags: &[&str]| -> Vec<usize> {
        args.iter()
            .enumerate()
            .filter(|(_, x)| flags.contains(&x.as_str()))
            .map(|(k, _)| k + 1)
            .collect()
    };
    match b {
        // Text, but a file these read aloud, log or broadcast is read
        // whole (`logger -f F`, `espeak -f F`, `wall F`).
        "logger" | "say" | "espeak" | "espeak-ng" | "wall" => {
            let files = value_of(&["-f", "--file", "--input-file"]);
            let path_like = |t: &str| t.starts_with(['/', '~', '.']) || t.contains('/');
            (0..args.len())
                .filter(|k| {
                    let file = files.contains(k)
                        || args[*k].starts_with("--file=")
                        || b == "wall" && path_like(&args[*k]);
                    !file
                })
                .collect()
        }
        "echo" | "printf" | "print" | "write-output" | "write-host" | "notify-send" | "figlet"
        | "cowsay" | "banner" | "test" | "[" | "[[" | "expr" | "which" | "whereis" | "type"
        | "command" | "hash" | "basename" | "dirname" | "seq" | "yes" | "true" | "false" | ":"
        | "date" | "printenv" | "alias" | "export" | "declare" | "local" | "readonly" | "set"
        | "trap" | "let" | "read" | "getopts" => all(),
        // A new key pair generated into the project (`ssh-keygen -t ed25519
        // -f ./test/fixtures/id`): the file is made, not a key read; one in
        // home or outside the project is still judged as the key it would
        // replace.
        "ssh-keygen"
            if !args.iter().any(|x| {
                short_flags(x)
                    .is_some_and(|b| b.contains(|ch| "ypeilcBRFHDsLYKkQrMAG".contains(ch)))
            }) =>
        {
            value_of(&["-f"])
                .into_iter()
                .filter(|&k| {
                    args.get(k).is_some_and(|p| {
                        !p.starts_with(['/', '~', '$', HOME]) && !p.split('/').any(|s| s == "..")
                    })
                })
                .collect()
        }
        // Test selections are expressions over test names, not commands.
        "pytest" | "py.test" => value_of(&["-k", "-m"]),
        "jest" | "vitest" => value_of(&["-t", "--testNamePattern"]),
        "mocha" => value_of(&["-g", "--grep", "-f", "--fgrep"]),
        "grep" | "egrep" | "fgrep" | "zgrep" | "rg" | "ag" | "ack" => {
            let mut t = value_of(&[
                "-e",
                "--regexp",
                "-g",
                "--glob",
                "--include",
                "--exclude",
                "--iglob",
                "-r",
                "--replace",
            ]);
            if !args.iter().any(|x| {
                x == "-e"
                    || x == "-f"
                    || x.starts_with("--regexp")
                    || x == "--file"
                    || x.starts_with("--file=")
            }) {
                t.extend(op_indices().first());
            }
            t
        }
        "sed" | "awk" | "gawk" | "mawk" | "nawk" | "jq" | "yq" | "gojq" | "jaq" => {
            let mut t = value_of(&["-e", "--expression", "--arg", "--argjson", "-v", "-F"]);
            if !args.iter().any(|x| {
                x == "-e" || x == "-f" || x == "--expression" || x == "--file" || x == "--from-file"
            }) {
                t.extend(op_indices().first());
            }
            // `jq --arg name value`: both are text.
            t.extend(value_of(&["--arg", "--argjson"]).iter().map(|k| k + 1));
            t
        }
        "find" | "fd" | "fdfind" => {
            let mut t = value_of(&[
                "-name",
                "-iname",
                "-path",
                "-ipath",
                "-wholename",
                "-iwholename",
                "-regex",
                "-iregex",
                "-lname",
                "-ilname",
                "-newer",
                "-printf",
                "-fprintf",
                "-e",
                "--extension",
                "-E",
                "--exclude",
                "-type",
                "-t",
            ]);
            if matches!(b, "fd" | "fdfind") {
                t.extend(op_indices().first());
            }
            t
        }
        "git" => {
            let mut t = value_of(&[
                "-m",
                "--message",
                "-S",
                "-G",
                "--grep",
                "--author",
                "--committer",
                "--format",
                "--pretty",
                "-c",
            ]);
            t.extend(
                args.iter()
                    .enumerate()
                    .filter(|(_, x)| {
                        x.starts_with("--grep=")
                            || x.starts_with("--format=")
                            || x.starts_with("--pretty=")
                            || x.starts_with("--message=")
                            || x.contains(':') && !x.starts_with('/')
                    })
                    .map(|(k, _)| k),
            );
            // `git clean -e .env`, `git ls-files -x '*.key'`: patterns kept
            // out, never touched.
            let sub = args
                .iter()
                .find(|x| !x.starts_with('-'))
                .map(String::as_str);
            if matches!(sub, Some("clean" | "ls-files" | "status" | "add" | "stash")) {
                t.extend(value_of(&["-e", "--exclude", "-x"]));
                t.extend(
                    args.iter()
                        .enumerate()
                        .filter(|(_, x)| x.starts_with("--exclude="))
                        .map(|(k, _)| k),
                );
            }
            // Subcommands that take paths as names and never read the
            // files: untracking `.env` (`git rm --cached .env`) or asking
            // whether it is ignored does not touch the secret.
            let names_only = match sub {
                Some("check-ignore" | "ls-files" | "status") => true,
                Some("rm") => args.iter().any(|x| x == "--cached"),
                // Which commits touched it, not what it holds.
                Some("log" | "shortlog" | "rev-list") => !args.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "-p" | "-u" | "--patch" | "--full-diff" | "-G" | "-S"
                    ) || x.starts_with("-U")
                        || x.starts_with("--unified")
                        || x.starts_with("--word-diff")
                        || x.starts_with("--format=%B")
                }),
                Some("update-index") => args
                    .iter()
                    .any(|x| x.ends_with("assume-unchanged") || x.ends_with("skip-worktree")),
                _ => false,
            };
            if names_only {
                t.extend(op_indices().into_iter().skip(1));
            }
            // `git filter-repo --path .env --invert-paths`: history rewritten
            // without the file; its paths are names to drop, never read.
            if sub == Some("filter-repo") && args.iter().any(|x| x == "--invert-paths") {
                t.extend(value_of(&["--path", "--path-glob", "--path-regex"]));
            }
            // `git log -- PATH` and `git show REV:PATH` name repository paths.
            t
        }
        "scp" | "sftp" | "autossh" | "mosh" => identity_positions(args),
        // Keys loaded into the agent, or used to sign or to print their
        // public half: their secret never leaves the tool.
        "ssh-add" => args
            .iter()
            .enumerate()
            .filter(|(k, x)| {
                !x.starts_with('-')
                    && (*k == 0 || !matches!(args[k - 1].as_str(), "-t" | "-E" | "-S"))
            })
            .map(|(k, _)| k)
            .collect(),
        "ssh-keygen" => {
            let uses = args.windows(2).any(|w| w == ["-Y", "sign"])
                || args.iter().any(|x| {
                    // A fingerprint; `-y` and `-e` print a key, left to the
                    // credential rules.
                    letter_flags(x).is_some_and(|b| b.contains('l') && !b.contains(['p', 'y', 'e']))
                });
            if uses {
                // `-f KEY`, or a bundle ending in f (`-lf KEY`).
                args.iter()
                    .enumerate()
                    .filter(|(_, x)| {
                        *x == "-f" || letter_flags(x).is_some_and(|b| b.ends_with('f'))
                    })
                    .map(|(k, _)| k + 1)
                    .collect()
            } else {
                vec![]
            }
        }
        "curl" | "wget" | "http" | "https" | "xh" => {
            let mut t = value_of(&[
                "-H",
                "--header",
                "-A",
                "--user-agent",
                "-e",
                "--referer",
                "-X",
                "--request",
                "-u",
                "--user",
                "-w",
                "--write-out",
                "-d",
                "--data",
                "--data-raw",
                "--data-urlencode",
                "--json",
            ]);
            // The data flags' `@file` is still a file; only literal data is text.
            t.retain(|k| !args.get(*k).is_some_and(|x| x.starts_with('@')));
            t
        }
        // A dotenv file loaded into the recipes' environment, as `docker
        // run --env-file` does: the project's settings, not printed.
        "just" => {
            let mut t = value_of(&["--dotenv-path", "--dotenv-filename", "-E"]);
            t.extend(args.iter().enumerate().filter_map(|(k, x)| {
                (x.starts_with("--dotenv-path=") || x.starts_with("--dotenv-filename="))
                    .then_some(k)
            }));
            // (Only the project's own: a relative path that stays in it.)
            t.retain(|k| {
                args.get(*k).is_some_and(|x| {
                    let v = x.rsplit_once('=').map_or(x.as_str(), |(_, v)| v);
                    !v.starts_with(['/', '~', '$', HOME]) && !v.contains("..")
                })
            });
            t
        }
        "ssh" | "docker" | "podman" | "kubectl" | "nerdctl" | "docker-compose" => {
            // What runs on the other side names its own paths.
            let first_op = op_indices();
            let env_files = value_of(&["--env-file"]);
            if !env_files.is_empty() {
                return env_files;
            }
            match b {
                "ssh" => {
                    let mut t = first_op.get(1..).map(<[usize]>::to_vec).unwrap_or_default();
                    t.extend(identity_positions(args));
                    t
                }
                _ => args
                    .iter()
                    .position(|x| x == "--")
                    .map(|p| (p + 1..args.len()).collect())
                    .unwrap_or_else(|| {
                        // `docker run IMAGE CMD…`: CMD after the image.
                        let ops = op_indices();
                        if args.first().is_some_and(|x| x == "run" || x == "exec") {
                            ops.get(2..).map(<[usize]>::to_vec).unwrap_or_default()
                        } else {
                            vec![]
                        }
                    }),
            }
        }
        _ if tables::interpreter(b).is_some() || is_shell(b) => {
            // Code is judged by the code and script rules.
            let mut t = Vec::new();
            for (k, x) in args.iter().enumerate() {
                let l = lower(x);
                if tables::interpreter(b).is_some_and(|f| f.contains(&l.as_str()))
                    || (is_shell(b) && x.starts_with('-') && x.contains('c'))
                    || (b == "perl" && x.starts_with('-') && x.ends_with('e'))
                {
                    t.push(k + 1);
                }
            }
            t
        }
        "eval" | "watch" | "tmux" | "screen" | "xargs" | "parallel" | "make" => all(),
        _ => vec![],
    }
}

/// An identity file (`-i F`, `-o IdentityFile=F`) signs in and is never
/// sent or shown: naming it is not reading it.
fn identity_positions(args: &[String]) -> Vec<usize> {
    args.iter()
        .enumerate()
        .filter(|(k, x)| {
            let l = x.to_ascii_lowercase();
            l.starts_with("identityfile")
                || l.starts_with("-oidentityfile")
                || *k > 0 && args[k - 1] == "-i"
        })
        .map(|(k, _)| k)
        .collect()
}
