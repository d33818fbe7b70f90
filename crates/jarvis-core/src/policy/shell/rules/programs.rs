//! Executors and writers: shells, interpreters, git, network tools.

use super::*;

impl Analyzer<'_> {
    /// One real program with its arguments.
    pub(super) fn program(&mut self, c: &Cmd<'_>, script: &Script, depth: usize) {
        let b = c.base.as_str();
        let args = &c.args;
        let a = |s: &str| args.iter().any(|x| x == s);
        let help_only = args.len() == 1
            && matches!(
                args[0].as_str(),
                "--version" | "-V" | "--help" | "-h" | "version" | "-v"
            );
        // Executors that take code as an argument.
        if is_shell(b) {
            if let Some(i) = args.iter().position(|x| {
                x == "-c"
                    || (x.starts_with('-')
                        && !x.starts_with("--")
                        && x.ends_with('c')
                        && x.len() <= 4)
            }) && let Some(code) = args.get(i + 1)
            {
                let positional: Vec<String> = args[i + 2..].to_vec();
                if c.words.get(i + 2).is_some_and(|w| self.fetched(w, script)) {
                    self.block("download and execute (a fetched script is run)");
                }
                self.script(code, &positional, depth + 1);
                self.ask(format!("runs a {b} script"));
                return;
            }
            let script_arg = args.iter().enumerate().find(|(_, x)| !x.starts_with('-'));
            if let Some((i, file)) = script_arg {
                if c.words.get(i + 1).is_some_and(|w| self.fetched(w, script)) {
                    self.block("download and execute (runs a fetched script)");
                }
                self.ask(format!("runs the script {file}"));
            } else if !help_only {
                self.ask(format!("starts an interactive {b}"));
            }
            return;
        }
        if matches!(b, "eval" | "source" | ".") {
            if c.words.iter().skip(1).any(|w| self.fetched(w, script)) {
                self.block(format!("download and execute ({b} of fetched text)"));
            }
            if b == "eval" {
                self.script(&args.join(" "), &[], depth + 1);
                self.ask("evaluates shell text");
            } else {
                self.ask(format!(
                    "runs {} in this shell",
                    args.first().cloned().unwrap_or_default()
                ));
            }
            return;
        }
        if INTERPRETERS.contains(&b) {
            self.interpreter(c, script, depth);
            return;
        }
        if help_only {
            return;
        }
        if self.system_program(c, script, depth) {
            return;
        }
        // Copies, moves and other writers: where does the data go?
        match b {
            "cp" | "mv" | "install" | "ln" | "rsync" | "scp" | "ditto" | "copy" | "move"
            | "xcopy" | "robocopy" | "copy-item" | "move-item" => {
                let ops = operands(args);
                if let Some(dest) = ops.last().filter(|_| ops.len() >= 2) {
                    self.write_target(dest, c.src.cwd.as_deref(), b);
                }
                if b == "rsync" && a("--delete") {
                    self.rm_like(
                        "rm",
                        &["-r".to_string()]
                            .iter()
                            .cloned()
                            .chain(ops.last().cloned())
                            .collect::<Vec<_>>(),
                        c.src,
                    );
                }
                self.ask(format!("{b} changes files"));
                return;
            }
            "tee" => {
                for f in operands(args) {
                    self.write_target(&f, c.src.cwd.as_deref(), b);
                }
                self.ask("tee writes files");
                return;
            }
            "unzip" | "7z" | "bsdtar" | "cpio" => {
                let dest = match b {
                    "unzip" => args
                        .iter()
                        .position(|x| x == "-d")
                        .and_then(|i| args.get(i + 1))
                        .cloned(),
                    "7z" => args
                        .iter()
                        .find_map(|x| x.strip_prefix("-o"))
                        .map(str::to_string),
                    _ => args
                        .iter()
                        .position(|x| x == "-D" || x == "--directory")
                        .and_then(|i| args.get(i + 1))
                        .cloned(),
                };
                if let Some(d) = dest {
                    self.write_target(&d, c.src.cwd.as_deref(), b);
                }
                self.ask(format!("{b} extracts files"));
                return;
            }
            "sed" | "perl"
                if args
                    .iter()
                    .any(|x| x == "-i" || x.starts_with("-i") || x == "--in-place") =>
            {
                for f in operands(args).iter().skip(1) {
                    self.write_target(f, c.src.cwd.as_deref(), b);
                }
                self.ask(format!("{b} edits files in place"));
                return;
            }
            "touch" | "mkdir" | "truncate" | "mkfifo" | "mknod" => {
                for f in operands(args) {
                    self.write_target(&f, c.src.cwd.as_deref(), b);
                }
                self.ask(format!("{b} changes files"));
                return;
            }
            "curl" | "wget" | "http" | "xh" | "aria2c" | "invoke-webrequest" | "iwr" | "fetch" => {
                self.fetcher(c);
                return;
            }
            "dig" | "nslookup" | "host" | "ping" => {
                if c.words.iter().any(|w| !w.subs.is_empty()) {
                    self.ask(format!("{b} with a computed name (possible exfiltration)"));
                } else {
                    self.ask(format!("{b} queries the network"));
                }
                return;
            }
            _ => {}
        }
        if matches!(
            b,
            "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" | "git-grep"
        ) {
            let ops = operands(args);
            let wide = ops
                .iter()
                .skip(
                    if b == "rg" || b == "ag" || b == "ack" || b.contains("grep") {
                        1
                    } else {
                        0
                    },
                )
                .any(|o| paths::catastrophic(o, c.src.cwd.as_deref()));
            let secretish = args.iter().any(|x| {
                let l = lower(x).split_whitespace().collect::<Vec<_>>().join(" ");
                [
                    "private key",
                    "begin rsa",
                    "begin openssh",
                    "password",
                    "passwd",
                    "secret",
                    "api_key",
                    "apikey",
                    "token",
                    "aws_secret",
                ]
                .iter()
                .any(|k| l.contains(k))
            });
            if wide && secretish {
                self.block("searches the home or system for secrets");
            }
        }
        if READ_ONLY.contains(&b) && self.read_only_guards(c) {
            return;
        }
        self.ask(format!("runs {b}"));
    }

    pub(super) fn systemctl(&mut self, c: &Cmd<'_>) {
        let verb = c
            .args
            .iter()
            .find(|x| !x.starts_with('-'))
            .map(String::as_str)
            .unwrap_or("");
        match verb {
            "status" | "is-active" | "is-enabled" | "is-failed" | "list-units"
            | "list-unit-files" | "list-timers" | "show" | "cat" | "" => {}
            "enable" | "link" | "reenable" | "preset" | "add-wants" | "add-requires"
            | "set-default" => self.block(format!("persistence (systemctl {verb})")),
            "poweroff" | "reboot" | "halt" | "suspend" | "hibernate" | "kexec" | "emergency"
            | "rescue" | "isolate" | "hybrid-sleep" => {
                self.block(format!("system disruption (systemctl {verb})"))
            }
            "mask" | "disable" if !c.args.iter().any(|x| x == "--user") => {
                self.block(format!("disables system services (systemctl {verb})"))
            }
            other => self.ask(format!("systemctl {other}")),
        }
    }

    pub(super) fn container(&mut self, c: &Cmd<'_>) {
        let args = &c.args;
        let privileged = args.iter().any(|x| {
            x == "--privileged"
                || x == "--pid=host"
                || x.starts_with("--cap-add=SYS_ADMIN")
                || x == "--cap-add=ALL"
        });
        let mounts_root = args.windows(2).any(|w| {
            (w[0] == "-v" || w[0] == "--volume" || w[0] == "--mount")
                && (w[1].starts_with("/:")
                    || w[1].contains("docker.sock")
                    || w[1].contains("source=/,"))
        }) || args
            .iter()
            .any(|x| x.starts_with("--volume=/:") || x.starts_with("-v/:"));
        if privileged || mounts_root {
            self.block(format!("sandbox escape ({} with host access)", c.base));
        }
        self.ask(format!("{} manages containers", c.base));
    }

    pub(super) fn git(&mut self, c: &Cmd<'_>, depth: usize) {
        let args = &c.args;
        const RISKY: &[&str] = &[
            "core.pager",
            "core.editor",
            "core.sshcommand",
            "core.fsmonitor",
            "core.hookspath",
            "core.gitproxy",
            "diff.external",
            "sequence.editor",
            "gpg.program",
            "credential.helper",
            "pager.",
            "alias.",
            "filter.",
            "uploadpack.packobjectshook",
        ];
        let mut i = 0;
        let mut sub: Option<usize> = None;
        while i < args.len() {
            let x = &args[i];
            if x == "-c" {
                if let Some(kv) = args.get(i + 1)
                    && let Some((k, v)) = kv.split_once('=')
                {
                    let k = lower(k);
                    if RISKY.iter().any(|r| k.starts_with(r))
                        || k.ends_with(".textconv")
                        || k.ends_with(".command")
                    {
                        self.nested(v.trim_start_matches('!'), depth);
                        self.ask(format!("git -c {k} runs a program"));
                    }
                }
                i += 2;
                continue;
            }
            if x == "-C" || x == "--git-dir" || x == "--work-tree" {
                i += 2;
                continue;
            }
            if !x.starts_with('-') {
                sub = Some(i);
                break;
            }
            i += 1;
        }
        let Some(si) = sub else { return };
        let sub = args[si].as_str();
        let rest = &args[si + 1..];
        let has = |s: &str| {
            rest.iter()
                .any(|x| x == s || x.starts_with(&format!("{s}=")))
        };
        match sub {
            "config" => {
                let key_pos = rest.iter().position(|x| !x.starts_with('-'));
                let key = key_pos.map(|p| lower(&rest[p])).unwrap_or_default();
                let value = key_pos.and_then(|p| rest.get(p + 1)).cloned();
                let global = has("--global") || has("--system");
                let reading = has("--get")
                    || has("--list")
                    || has("-l")
                    || has("--get-all")
                    || (value.is_none() && !has("--unset"));
                if reading {
                    return;
                }
                if key == "core.hookspath" || (global && RISKY.iter().any(|r| key.starts_with(r))) {
                    self.block(format!(
                        "persistence (git config {key} runs code in every repository)"
                    ));
                }
                if let Some(v) = value {
                    if key.starts_with("alias.") && v.starts_with('!') {
                        self.nested(&v[1..], depth);
                    } else if RISKY.iter().any(|r| key.starts_with(r)) {
                        self.nested(&v, depth);
                    }
                }
                self.ask(format!("git config {key}"));
            }
            "credential" | "credential-store" | "credential-cache" => {
                self.block("reveals stored git credentials")
            }
            "status" | "log" | "diff" | "show" | "blame" | "rev-parse" | "ls-files" | "ls-tree"
            | "cat-file" | "describe" | "shortlog" | "grep" | "rev-list" | "whatchanged"
            | "reflog" | "show-ref" | "for-each-ref" | "merge-base" | "name-rev"
            | "count-objects" | "version" | "help" | "check-ignore" | "annotate" | "var" => {
                if has("--output")
                    || has("--ext-diff")
                    || has("--textconv")
                    || has("--exec")
                    || (sub == "reflog"
                        && rest.first().is_some_and(|x| x == "delete" || x == "expire"))
                {
                    self.ask(format!(
                        "git {sub} with an option that writes or runs programs"
                    ));
                }
            }
            "branch" | "tag" | "remote" | "stash"
                if rest.is_empty()
                    || rest.iter().all(|x| {
                        matches!(
                            x.as_str(),
                            "-v" | "-vv"
                                | "-a"
                                | "-r"
                                | "-l"
                                | "--list"
                                | "list"
                                | "show"
                                | "--show-current"
                        )
                    }) => {}
            other => self.ask(format!("git {other} changes the repository")),
        }
    }

    pub(super) fn tar(&mut self, c: &Cmd<'_>, depth: usize) {
        let args = &c.args;
        for x in args {
            for key in [
                "--checkpoint-action=exec=",
                "--to-command=",
                "--use-compress-program=",
                "--rsh-command=",
                "--info-script=",
                "--new-volume-script=",
            ] {
                if let Some(v) = x.strip_prefix(key) {
                    self.nested(v.trim_matches(['\'', '"']), depth);
                    self.ask("tar runs a program");
                }
            }
        }
        if args.iter().any(|x| x == "--remove-files") {
            let mut fake = vec!["-r".to_string()];
            fake.extend(operands(args));
            self.rm_like("rm", &fake, c.src);
        }
        let extracting = args.iter().any(|x| {
            x == "-x"
                || x == "--extract"
                || (!x.starts_with("--") && x.trim_start_matches('-').starts_with('x'))
                || (x.starts_with('-') && !x.starts_with("--") && x.contains('x'))
        });
        if extracting
            && let Some(i) = args.iter().position(|x| x == "-C" || x == "--directory")
            && let Some(d) = args.get(i + 1)
        {
            self.write_target(d, c.src.cwd.as_deref(), "tar");
        }
        // Operands are relative to `-C DIR`.
        if let Some(dir) = args
            .iter()
            .position(|x| x == "-C" || x == "--directory")
            .and_then(|i| args.get(i + 1))
        {
            for op in operands(args) {
                if op != *dir && op != "-" {
                    let joined = format!("{}/{}", dir.trim_end_matches('/'), op);
                    if let Some(why) = paths::credential(&joined, c.src.cwd.as_deref()) {
                        self.block(format!("archives a credential: {why}"));
                    }
                }
            }
        }
        self.ask("tar changes files");
    }

    pub(super) fn fetcher(&mut self, c: &Cmd<'_>) {
        let args = &c.args;
        for x in args {
            if let Some(f) = x
                .strip_prefix('@')
                .or_else(|| x.split_once("=@").map(|(_, f)| f))
                && f != "-"
                && let Some(why) = paths::credential(f, c.src.cwd.as_deref())
            {
                self.block(format!("uploads a secret: {why}"));
            }
        }
        self.ask(format!("{} talks to the network", c.base));
    }

    pub(super) fn interpreter(&mut self, c: &Cmd<'_>, script: &Script, depth: usize) {
        let args = &c.args;
        let b = lower(&c.base);
        let code_flag = |x: &str| {
            matches!(
                x,
                "-c" | "-e"
                    | "-E"
                    | "-r"
                    | "--eval"
                    | "-p"
                    | "--print"
                    | "-Command"
                    | "-command"
                    | "-c:"
                    | "/c"
            )
        };
        let code = args
            .iter()
            .position(|x| {
                code_flag(x)
                    || lower(x) == "-command"
                    || (x.starts_with("-e") && x.len() > 2 && b == "perl")
            })
            .and_then(|i| args.get(i + 1).cloned());
        let encoded = args.iter().any(|x| {
            let l = lower(x);
            l.starts_with("-enc") || l == "-e" && (b == "powershell" || b == "pwsh")
        });
        if encoded && (b == "powershell" || b == "pwsh" || b == "powershell.exe") {
            self.block("runs an encoded PowerShell payload");
            return;
        }
        // All arguments count: `ruby -ropen-uri` preloads a network library.
        let all = args.join(" ");
        let text = code.clone().unwrap_or_default();
        let l = lower(&format!("{text} {all}"));
        let net = [
            "urlopen",
            "urllib",
            "requests.",
            "http.get",
            "https.get",
            "require('https')",
            "require(\"https\")",
            "require('http')",
            "uri.open",
            "open-uri",
            "net::http",
            "lwp::",
            "fsockopen",
            "socket",
            "http://",
            "https://",
            "iwr ",
            "invoke-webrequest",
            "downloadstring",
            "net.webclient",
            "fetch(",
        ]
        .iter()
        .any(|k| l.contains(k));
        let exec = [
            "os.system",
            "subprocess",
            "exec(",
            "eval(",
            "eval ",
            "system(",
            "popen",
            "spawn",
            "child_process",
            "`",
            "iex",
            "invoke-expression",
            "kernel.exec",
            "exec ",
            "/bin/sh",
        ]
        .iter()
        .any(|k| l.contains(k));
        if net && exec {
            self.block(format!(
                "download and execute ({} code fetches and runs code)",
                c.base
            ));
        }
        let home = l.contains("homedir")
            || l.contains("dir.home")
            || l.contains("path.home")
            || l.contains("home_dir")
            || l.contains("$env{home}")
            || l.contains("expanduser")
            || l.contains("glob(\"~\")")
            || l.contains("'~'")
            || l.contains("\"~\"")
            || l.contains("env['home']")
            || l.contains("environ['home']")
            || l.contains("(\"/\")")
            || l.contains("('/')");
        let delete = [
            "rmtree",
            "remove_tree",
            "rmsync",
            "rm_rf",
            "rmdirsync",
            "rimraf",
            "shutil.rmtree",
            "fileutils.rm_r",
        ]
        .iter()
        .any(|k| l.contains(k));
        if delete && home {
            self.block(format!(
                "recursive delete of the home directory ({} code)",
                c.base
            ));
        }
        let forks = l.contains("fork")
            && (l.contains("while")
                || l.contains("loop")
                || l.contains("for(;;)")
                || l.contains("for (;;)"));
        if forks {
            self.block(format!("fork bomb ({} code)", c.base));
        }
        if (b == "powershell" || b == "pwsh")
            && let Some(code) = &code
        {
            self.nested(code, depth);
        }
        if code.is_none() {
            let file = args.iter().find(|x| !x.starts_with('-'));
            if file.is_none_or(|f| f == "-")
                && (c.src.stdin_from.is_some()
                    || c.src.redirects.iter().any(|r| r.op.starts_with('<')))
            {
                // Covered by the pipe rule; a redirect from a file runs that file.
                self.ask(format!("{} runs code from its input", c.base));
            }
            if c.words.iter().skip(1).any(|w| self.fetched(w, script)) {
                self.block(format!(
                    "download and execute ({} runs a fetched script)",
                    c.base
                ));
            }
            if help_like(args) {
                return;
            }
            self.ask(format!(
                "runs {} {}",
                c.base,
                file.cloned().unwrap_or_default()
            ));
        } else {
            self.ask(format!("runs inline {} code", c.base));
        }
    }

    /// Guards for commands on the read-only list (Codex-style).
    pub(super) fn read_only_guards(&mut self, c: &Cmd<'_>) -> bool {
        let args = &c.args;
        let has = |f: &str| {
            args.iter()
                .any(|x| x == f || x.starts_with(&format!("{f}=")))
        };
        let ok = match c.base.as_str() {
            "sed" => {
                !has("-i")
                    && !args
                        .iter()
                        .any(|x| x.starts_with("-i") || x == "--in-place")
                    && !args.iter().any(|x| {
                        let s = x.trim();
                        !s.starts_with('-')
                            && (s.ends_with('e') && s.contains('/')
                                || s.contains("/w ")
                                || s.ends_with("w")
                                    && s.contains('/')
                                    && s.matches('/').count() >= 3
                                || s.starts_with('w')
                                || s.contains(";w "))
                    })
            }
            "sort" => !has("-o") && !has("--output"),
            "base64" | "base32" => !has("-o") && !has("--output"),
            "tree" => !has("-o"),
            "rg" => !has("--pre") && !has("--pre-glob"),
            "find" => !args.iter().any(|x| {
                matches!(
                    x.as_str(),
                    "-exec"
                        | "-execdir"
                        | "-ok"
                        | "-okdir"
                        | "-delete"
                        | "-fprint"
                        | "-fprint0"
                        | "-fprintf"
                        | "-fls"
                )
            }),
            "env" | "printenv" => !args.is_empty(),
            "awk" | "gawk" | "mawk" => !args
                .iter()
                .any(|x| x.contains("system") || x.contains('>') || x.contains('|')),
            "git" => true,
            "systemctl" => true,
            "crontab" => args.iter().all(|x| x == "-l") && !args.is_empty(),
            "cd" | "pushd" | "popd" => true,
            "xxd" => operands(args).len() <= 1,
            "uniq" => operands(args).len() <= 1,
            "top" => has("-b") || has("-n"),
            "date" => !has("-s") && !has("--set"),
            "hostname" => args.is_empty() || args.iter().all(|x| x.starts_with('-')),
            "ip" => !args.iter().any(|x| {
                matches!(
                    x.as_str(),
                    "add" | "del" | "delete" | "set" | "flush" | "change" | "replace"
                )
            }),
            "journalctl" => !has("--vacuum-size") && !has("--vacuum-time") && !has("--rotate"),
            "history" => !has("-c") && !has("-d"),
            _ => true,
        };
        // Writing output anywhere but /dev/null is not read-only.
        let redirect_writes = c.src.redirects.iter().any(|r| {
            r.op.contains('>')
                && !r.op.starts_with("<<")
                && r.target.text != "/dev/null"
                && !is_fd(&r.target.text)
                && !r.target.text.starts_with('&')
        });
        if !ok || redirect_writes {
            return false;
        }
        true
    }
}
