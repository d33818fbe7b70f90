//! Options and settings whose value is a program to run, or that switch a
//! safety off for every later run: judged as what they run or switch off.

use super::*;

/// (program, options whose value is a shell command line).
const COMMAND_OPTIONS: &[(&str, &[&str])] = &[
    ("split", &["--filter"]),
    ("sort", &["--compress-program"]),
    // A preprocessor run on every file searched.
    ("rg", &["--pre", "--hostname-bin"]),
    // Pagers (bat's with `--paging=always` even off a terminal, ag's
    // always) and cloc's archive extractor, run through the shell.
    ("bat", &["--pager"]),
    ("batcat", &["--pager"]),
    ("ag", &["--pager"]),
    ("ack", &["--pager"]),
    ("diff3", &["--diff-program"]),
    ("cloc", &["--extract-with", "--vcs"]),
    // man's pager runs whenever a terminal is there (`unbuffer`, `script`).
    ("man", &["-P", "--pager"]),
    ("gcc", &["-wrapper"]),
    ("g++", &["-wrapper"]),
    ("cc", &["-wrapper"]),
    ("c++", &["-wrapper"]),
    ("scp", &["-S"]),
    ("sftp", &["-S"]),
    ("zip", &["-TT", "--unzip-command"]),
    ("tcpdump", &["-z"]),
    ("mysql", &["--pager"]),
    ("mariadb", &["--pager"]),
    ("wget", &["--use-askpass"]),
    ("cpio", &["--rsh-command"]),
    ("pandoc", &["--filter", "-F", "--lua-filter"]),
    // Run after each download, or to get the site's password.
    (
        "yt-dlp",
        &["--exec", "--exec-before-download", "--netrc-cmd"],
    ),
    ("youtube-dl", &["--exec"]),
    // Coin daemons run these on every block, wallet transaction or alert.
    (
        "bitcoind",
        &[
            "-blocknotify",
            "-walletnotify",
            "-alertnotify",
            "-startupnotify",
            "-shutdownnotify",
        ],
    ),
    (
        "bitcoin-qt",
        &[
            "-blocknotify",
            "-walletnotify",
            "-alertnotify",
            "-startupnotify",
        ],
    ),
    (
        "litecoind",
        &["-blocknotify", "-walletnotify", "-alertnotify"],
    ),
    (
        "dogecoind",
        &["-blocknotify", "-walletnotify", "-alertnotify"],
    ),
    (
        "monerod",
        &["--block-notify", "--reorg-notify", "--block-rate-notify"],
    ),
    // The command that prints the account's or repository's password.
    ("msmtp", &["--passwordeval"]),
    ("restic", &["--password-command"]),
    ("rclone", &["--password-command"]),
    ("borg", &["--rsh"]),
    ("unison", &["-sshcmd", "-rshcmd"]),
    ("rdiff-backup", &["--remote-schema"]),
    ("latexmk", &["-pdflatex", "-latex", "-lualatex", "-xelatex"]),
    // Bazel wraps each test or run in this command, and stamps a build
    // with what this one prints.
    ("bazel", &["--run_under", "--workspace_status_command"]),
    ("bazelisk", &["--run_under", "--workspace_status_command"]),
    // Chromium starts its helper processes through these.
    ("google-chrome", CHROMIUM_LAUNCHERS),
    ("google-chrome-stable", CHROMIUM_LAUNCHERS),
    ("chrome", CHROMIUM_LAUNCHERS),
    ("chromium", CHROMIUM_LAUNCHERS),
    ("chromium-browser", CHROMIUM_LAUNCHERS),
    ("brave-browser", CHROMIUM_LAUNCHERS),
    ("microsoft-edge", CHROMIUM_LAUNCHERS),
    ("microsoft-edge-stable", CHROMIUM_LAUNCHERS),
    ("vivaldi", CHROMIUM_LAUNCHERS),
    ("opera", CHROMIUM_LAUNCHERS),
    // aria2 runs these after a download, with its path as the third argument.
    (
        "aria2c",
        &[
            "--on-download-complete",
            "--on-download-start",
            "--on-download-stop",
            "--on-download-error",
            "--on-download-pause",
            "--on-bt-download-complete",
        ],
    ),
    (
        "openvpn",
        &[
            "--up",
            "--down",
            "--route-up",
            "--ipchange",
            "--client-connect",
            "--learn-address",
            "--tls-verify",
            "--auth-user-pass-verify",
        ],
    ),
    // `-o '|cmd'` pipes the trace into a command.
    ("strace", &["-o", "--output"]),
    ("ltrace", &["-o", "--output"]),
    // Every compiler run, or the test binary, goes through this program.
    (
        "go",
        &[
            "-toolexec",
            "--toolexec",
            "-exec",
            "--exec",
            "-vettool",
            "--vettool",
        ],
    ),
];

/// Chromium's switches whose value is a command line it starts its
/// renderers, GPU process or helpers with.
const CHROMIUM_LAUNCHERS: &[&str] = &[
    "--renderer-cmd-prefix",
    "--utility-cmd-prefix",
    "--gpu-launcher",
    "--plugin-launcher",
    "--ppapi-plugin-launcher",
    "--zygote-cmd-prefix",
    "--browser-subprocess-path",
];

/// Cargo settings (`--config K=V`, `CARGO_…` variables) whose value cargo runs.
fn cargo_runs(key: &str) -> bool {
    let k = key.to_ascii_lowercase().replace('_', "-");
    k.ends_with(".runner")
        || k.ends_with(".linker")
        || k.ends_with("rustc-wrapper")
        || k.ends_with("rustc-workspace-wrapper")
        || k.ends_with("rustc")
        || k.ends_with("rustdoc")
        || k.ends_with("credential-provider")
        || k.ends_with("credential-providers")
        || k.starts_with("alias.")
        || k.ends_with("-runner")
        || k.ends_with("-linker")
}

/// `--config 'target.x.runner=["sh", "-c", "…"]'` read as cargo reads it:
/// each setting's dotted key with its value as a command line (a string
/// as is, an array of strings as its words quoted). `None`: not TOML.
fn toml_settings(kv: &str) -> Option<Vec<(String, String)>> {
    fn walk(prefix: &str, v: &toml::Value, out: &mut Vec<(String, String)>) {
        match v {
            toml::Value::Table(t) => {
                for (k, v) in t {
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&key, v, out);
                }
            }
            toml::Value::String(s) => out.push((prefix.to_string(), s.clone())),
            toml::Value::Array(items) => {
                let words: Vec<String> = items
                    .iter()
                    .filter_map(toml::Value::as_str)
                    .map(crate::policy::shell::quote)
                    .collect();
                out.push((prefix.to_string(), words.join(" ")));
            }
            _ => {}
        }
    }
    let table: toml::Table = toml::from_str(kv).ok()?;
    let mut out = Vec::new();
    walk("", &toml::Value::Table(table), &mut out);
    Some(out)
}

impl Analyzer<'_> {
    pub(super) fn command_options(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        // Any daemon's `-blocknotify=CMD`, `--walletnotify=CMD`: a command it
        // runs on an event (coin daemons and their forks spell them so).
        for w in &c.words[1..] {
            if let Some((flag, cmd)) = w.text.split_once('=')
                && flag.starts_with('-')
                && flag
                    .trim_start_matches('-')
                    .to_ascii_lowercase()
                    .ends_with("notify")
                && cmd.contains(' ')
            {
                let code = Word {
                    text: cmd.to_string(),
                    ..w.clone()
                };
                self.block_only(|a| a.shell_code(&code, &[], c.script, c.depth));
            }
        }
        if let Some((_, opts)) = COMMAND_OPTIONS.iter().find(|(p, _)| *p == lb) {
            for (i, w) in c.words.iter().enumerate().skip(1) {
                for opt in opts.iter() {
                    // (As getopt reads it: `--compress=sh` is
                    // `--compress-program=sh`, `-zCMD` is `-z CMD`.)
                    let abbreviated = w.text.len() >= 4
                        && w.text.starts_with("--")
                        && !w.text.contains('=')
                        && opt.starts_with(w.text.as_str());
                    // (Bundled after other switches too: `man -aP'cmd'`.)
                    let glued = (opt.len() == 2 && !w.text.starts_with("--"))
                        .then(|| {
                            let body = w.text.strip_prefix('-')?;
                            let at = body.find(&opt[1..])?;
                            body[..at]
                                .chars()
                                .all(|ch| ch.is_ascii_alphabetic())
                                .then(|| &body[at + 1..])
                        })
                        .flatten();
                    // (`-aP VALUE`: the bundle ends with the option.)
                    let bundled_last = glued.is_some_and(str::is_empty);
                    let glued = glued.filter(|v| !v.is_empty());
                    let value = if w.text == *opt || abbreviated || bundled_last {
                        c.words.get(i + 1).cloned()
                    } else if let Some(v) = glued {
                        Some(Word {
                            text: v.to_string(),
                            ..w.clone()
                        })
                    } else {
                        eq_value(&w.text, opt)
                            .or_else(|| long_value(&w.text, opt))
                            .map(|v| Word {
                                text: v.to_string(),
                                ..w.clone()
                            })
                    };
                    let Some(mut v) = value else { continue };
                    // yt-dlp's `--exec after_move:CMD`: when, then the command.
                    if (lb.starts_with("yt-dlp") || lb == "youtube-dl")
                        && let Some((when, cmd)) = v.text.split_once(':')
                        && !when.is_empty()
                        && when.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_')
                    {
                        v.text = cmd.to_string();
                    }
                    // gcc's `-wrapper prog,arg,…`: the compiler's passes run
                    // under that program.
                    if *opt == "-wrapper" {
                        v.text = v.text.replace(',', " ");
                    }
                    // cloc's `--vcs=git`: a version control system's name.
                    if lb == "cloc" && matches!(v.text.as_str(), "git" | "svn" | "auto") {
                        continue;
                    }
                    if matches!(lb, "strace" | "ltrace") {
                        let Some(cmd) = v.text.strip_prefix(['|', '!']) else {
                            continue;
                        };
                        v.text = cmd.to_string();
                    }
                    let verdict = self.judged(|a| a.shell_code(&v, &[], c.script, c.depth));
                    // A pager that only shows the page (`man -P cat`) runs
                    // nothing more.
                    if lb != "man" || verdict != Verdict::Allow {
                        self.ask(format!("{} {opt} runs a program", c.base));
                    }
                }
            }
        }
        // `helm template --post-renderer /bin/sh --post-renderer-args -c
        // --post-renderer-args 'curl … | sh'`: the program and its words,
        // run with the rendered manifests on its input.
        if lb == "helm"
            && let Some(program) = super::script_opts::values(c, &["--post-renderer"])
                .into_iter()
                .next()
        {
            let mut line = vec![crate::policy::shell::quote(&program.text)];
            let mut dynamic = program.dynamic;
            for (i, a) in c.args.iter().enumerate() {
                let v = if a == "--post-renderer-args" {
                    c.words.get(i + 2).cloned()
                } else {
                    eq_value(a, "--post-renderer-args").map(Word::lit)
                };
                if let Some(v) = v {
                    dynamic |= v.dynamic;
                    line.push(crate::policy::shell::quote(&v.text));
                }
            }
            let code = Word {
                text: line.join(" "),
                dynamic,
                ..program.clone()
            };
            self.shell_code(&code, &[], c.script, c.depth);
            self.ask("helm --post-renderer runs a program");
        }
        // `GOFLAGS=-toolexec=/tmp/x go test`: go reads options from there too.
        if lb == "go"
            && let Some((_, flags)) = c.assigns.iter().find(|(n, _)| n == "GOFLAGS")
            && let Some((_, opts)) = COMMAND_OPTIONS.iter().find(|(p, _)| *p == "go")
        {
            for flag in flags.text.split_whitespace() {
                if let Some(v) = opts.iter().find_map(|o| eq_value(flag, o)) {
                    let v = Word {
                        text: v.to_string(),
                        ..flags.clone()
                    };
                    self.shell_code(&v, &[], c.script, c.depth);
                    self.ask("GOFLAGS makes go run a program");
                }
            }
        }
        if lb == "cargo" {
            self.cargo_config(c);
        }
        self.pytest_basetemp(c);
        self.safety_off(c);
        self.remote_destruction(c);
        self.remote_runs(c);
        self.token_search(c);
        self.own_journal(c);
        self.runs_fetched_code(c);
        self.file_server(c);
        self.insecure_index(c);
        self.package_trust(c);
        self.intercepted(c);
        // A cron daemon of one's own runs whatever its folder holds, later.
        if matches!(
            c.lb.as_str(),
            "crond" | "cron" | "atd" | "fcron" | "anacron"
        ) {
            self.block(format!(
                "persistence ({} starts a scheduler that runs jobs later)",
                c.base
            ));
        }
        self.desktop_safety(c);
        self.captures(c);
        self.reveals_token(c);
        self.compose_config(c);
        self.mints_token(c);
        self.secret_scan(c);
        self.core_dump(c);
        self.covers_tracks(c);
        self.runs_fetched_package(c);
        self.runs_in_environment(c);
        self.tool_settings(c);
        self.scrapes_settings(c);
        self.ml_tools(c);
        self.media_tools(c);
        self.backups(c);
        self.mail_commands(c);
        self.wallet_secrets(c);
        self.flashers(c);
        self.openocd(c);
        self.named_outputs(c);
        self.trust_roots(c);
        self.jndi_lookups(c);
        self.hotkey_bindings(c);
        self.cluster_jobs(c);
        self.clipboard_words(c);
        self.user_exports(c);
        self.event_hooks(c);
        self.loads_downloaded_script(c);
        self.self_hosting(c);
        self.shippers(c);
        self.dotfile_secrets(c);
        self.tmpfiles(c);
        self.gnuplot_writes(c);
        self.written_tool_files(c);
        if let Some(code) = super::env_runners::runner_shell_code(&c.words).cloned() {
            self.shell_code(&code, &[], c.script, c.depth);
        }
        self.opens_download(c);
        self.batch_uploads(c);
        self.loads_written_module(c);
        self.script_options(c);
        self.infra_risks(c);
        self.code_server(c);
        // BSD-style `ps e` (`auxeww`) prints every process's environment:
        // the tokens and keys other programs were started with.
        if c.lb == "ps" && ps_shows_environments(&c.args) {
            self.block("reads the environments of running programs (their tokens and keys)");
        }
        // ed edits the files it opens: each is judged as written.
        if matches!(lb, "ed" | "red") {
            for w in c.operand_words() {
                self.write_path(&w, c.cwd(), &c.base);
            }
        }
        // `machinectl shell [USER@]HOST` is root's shell unless a user is named.
        if lb == "machinectl" {
            let ops: Vec<&String> = c.args.iter().filter(|x| !x.starts_with('-')).collect();
            if ops.first().is_some_and(|x| *x == "shell" || *x == "login") {
                let user = ops.get(1).and_then(|t| t.split_once('@')).map(|(u, _)| u);
                let uid_root = c.args.iter().any(|x| x == "--uid=0" || x == "--uid=root");
                if user.is_none_or(|u| u.is_empty() || u == "root" || u == "0") || uid_root {
                    self.block("privilege escalation (machinectl shell opens a root shell)");
                }
            }
        }
    }

    /// `cargo --config 'target.X.runner="…"'` and the same as `CARGO_…`
    /// variables: the value is a program cargo starts.
    fn cargo_config(&mut self, c: &Cmd<'_>) {
        let mut settings: Vec<(String, Word)> = Vec::new();
        for (i, w) in c.words.iter().enumerate().skip(1) {
            let kv = if w.text == "--config" {
                c.words.get(i + 1).cloned()
            } else {
                w.text.strip_prefix("--config=").map(|v| Word {
                    text: v.to_string(),
                    ..w.clone()
                })
            };
            let Some(kv) = kv else { continue };
            if let Some(read) = toml_settings(&kv.text) {
                for (k, v) in read {
                    settings.push((
                        k,
                        Word {
                            text: v,
                            ..kv.clone()
                        },
                    ));
                }
            } else if let Some((k, v)) = kv.text.split_once('=') {
                // Not TOML as written: the value as the shell sees it, with
                // one pair of quotes off.
                let v = v.trim();
                let v = v
                    .strip_prefix('"')
                    .and_then(|x| x.strip_suffix('"'))
                    .or_else(|| v.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')))
                    .unwrap_or(v)
                    .replace("\\\"", "\"");
                settings.push((
                    k.trim().to_string(),
                    Word {
                        text: v,
                        ..kv.clone()
                    },
                ));
            }
        }
        for (name, v) in c.assigns.iter() {
            if name.starts_with("CARGO_") || name.starts_with("RUSTC_") || name == "RUSTC" {
                settings.push((name.clone(), v.clone()));
            }
        }
        for (k, v) in settings {
            if cargo_runs(&k) {
                self.shell_code(&v, &[], c.script, c.depth);
                self.ask(format!("cargo setting {k} runs a program"));
            }
        }
    }
}

impl Analyzer<'_> {
    /// `sftp -b <(echo 'put ~/.kube/config')`: a batch the line spells out,
    /// each file it puts judged as read and sent.
    fn batch_uploads(&mut self, c: &Cmd<'_>) {
        let flag = match c.lb.as_str() {
            "sftp" => "-b",
            "lftp" => "-f",
            "ftp" | "smbclient" => "-c",
            _ => return,
        };
        let Some(batch) = c.value(flag).cloned() else {
            return;
        };
        let text = if batch.text == "-" {
            // `sftp -b - host <<'EOF' … EOF`: the batch is the input.
            c.src
                .redirects
                .iter()
                .find_map(|r| {
                    r.body
                        .as_ref()
                        .filter(|b| !b.dynamic)
                        .map(|b| b.text.clone())
                })
                .or_else(|| {
                    c.src
                        .stdin_from
                        .and_then(|i| c.script.commands.get(i))
                        .and_then(crate::policy::shell::eval::printed)
                })
        } else if batch.procsub {
            batch
                .subs
                .last()
                .and_then(|&s| c.script.commands.get(s))
                .and_then(crate::policy::shell::eval::printed)
        } else if c.lb == "smbclient" || c.lb == "ftp" {
            Some(batch.text.clone())
        } else {
            self.written_text(&batch, c.cwd())
        };
        let Some(text) = text else { return };
        for line in text.lines().flat_map(|l| l.split(';')) {
            let mut words = line.split_whitespace();
            if words
                .next()
                .is_some_and(|w| matches!(w, "put" | "mput" | "reput" | "append"))
            {
                let mut files = words.filter(|w| !w.starts_with('-'));
                let Some(f) = files.next() else { continue };
                let sent = Word::lit(f);
                // The project's whole tree (`put -r /home/u/work`, `put -r .`)
                // to another machine: what `rsync -a ./ host:` sends.
                let at = self.norm(&sent, c.cwd());
                let tree =
                    f == "." || f == "./" || self.is_workdir(&at) || paths::wipes_a_machine(&at);
                let far = c
                    .operand_words()
                    .iter()
                    .filter(|w| *w.text != batch.text)
                    .filter_map(|w| super::project_out::far_host(&w.text))
                    .next();
                if let (true, Some(host)) = (tree, far) {
                    self.block(format!(
                        "exfiltration (the whole project tree sent to {host})"
                    ));
                }
                self.read_path(&sent, c.cwd());
            }
        }
    }
}

/// Programs that run pytest with the options they are handed (`nox -s
/// tests -- …`, `hatch run test -- …`, `python -m pytest`).
const RUNS_PYTEST: &[&str] = &[
    "pytest",
    "py.test",
    "ptw",
    "pytest-watch",
    "tox",
    "nox",
    "hatch",
    "uv",
    "uvx",
    "poetry",
    "pdm",
    "rye",
    "pipenv",
    "coverage",
    "pixi",
    "make",
    "just",
    "task",
    "env",
    "bash",
    "sh",
];

impl Analyzer<'_> {
    /// pytest empties its `--basetemp` folder before each run, whoever
    /// hands the option on: an argument, `PYTEST_ADDOPTS`, `-o addopts=`.
    fn pytest_basetemp(&mut self, c: &Cmd<'_>) {
        if !(RUNS_PYTEST.contains(&c.lb.as_str()) || c.lb.starts_with("python")) {
            return;
        }
        let mut texts: Vec<Word> = c.words[1..].to_vec();
        // Set before it, exported earlier, or through `env NAME=…`.
        let env_words: Vec<(String, Word)> = c
            .src
            .argv
            .iter()
            .filter_map(|w| {
                w.text.split_once('=').map(|(n, v)| {
                    (
                        n.to_string(),
                        Word {
                            text: v.to_string(),
                            ..w.clone()
                        },
                    )
                })
            })
            .collect();
        let exported = c
            .script
            .commands
            .iter()
            .flat_map(|k| k.assigns.iter())
            .cloned();
        for (n, v) in c.assigns.iter().cloned().chain(exported).chain(env_words) {
            if n == "PYTEST_ADDOPTS" {
                texts.extend(v.text.split_whitespace().map(|t| Word {
                    text: t.to_string(),
                    ..v.clone()
                }));
            }
        }
        // `-o addopts='--basetemp=…'`: an ini setting given on the line.
        let from_ini: Vec<Word> = texts
            .iter()
            .filter_map(|w| w.text.split_once("addopts=").map(|(_, v)| (w, v)))
            .flat_map(|(w, v)| {
                v.split_whitespace()
                    .map(|t| Word {
                        text: t.trim_matches(['\'', '"']).to_string(),
                        ..w.clone()
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        texts.extend(from_ini);
        for (i, w) in texts.iter().enumerate() {
            let dir = if w.text == "--basetemp" {
                texts.get(i + 1).cloned()
            } else {
                eq_value(&w.text, "--basetemp").map(|v| Word {
                    text: v.to_string(),
                    ..w.clone()
                })
            };
            if let Some(dir) = dir {
                self.delete_path(&dir, true, c.cwd(), "pytest --basetemp");
            }
        }
    }
}

/// BSD-style `ps e` in an option cluster (`auxeww`), not a word that is the
/// value of an option (`ps -C node`, `ps -u steve`).
fn ps_shows_environments(args: &[String]) -> bool {
    // An output format with the `environ` column (`-eo pid,environ`).
    if args.iter().any(|a| lower(a).contains("environ")) {
        return true;
    }
    let mut value_next = false;
    for a in args {
        if value_next {
            value_next = false;
            continue;
        }
        if a.starts_with('-') {
            value_next = matches!(
                a.as_str(),
                "-C" | "-u"
                    | "-U"
                    | "-G"
                    | "-g"
                    | "-o"
                    | "-O"
                    | "-p"
                    | "-q"
                    | "-t"
                    | "-s"
                    | "--pid"
                    | "--ppid"
                    | "--user"
                    | "--group"
                    | "--sort"
                    | "--format"
            );
            continue;
        }
        if a.chars().all(|ch| ch.is_ascii_alphabetic()) && a.contains('e') {
            return true;
        }
    }
    false
}
