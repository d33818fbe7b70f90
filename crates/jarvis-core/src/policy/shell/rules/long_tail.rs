//! Less common programs a guard meets in the long tail: terminal
//! multiplexers' recorders and listings, system-wide program links,
//! desktop defaults that name a program, package
//! and attribute inspectors.

use super::*;

/// Where a program a system-wide link or a desktop setting names may live
/// and be what it says: installed by the system's packages.
fn system_program(p: &str) -> bool {
    ["/usr/", "/bin/", "/sbin/", "/opt/", "/lib/", "/snap/bin/"]
        .iter()
        .any(|d| p.starts_with(d))
}

impl Analyzer<'_> {
    /// Some(read-only) for the programs this module knows; None otherwise.
    pub(super) fn long_tail(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let args = &c.args;
        let first = args.first().map(String::as_str).unwrap_or("");
        // Jarvis's own programs, installed (not a build of the project):
        // another agent with other settings, its model client pointed
        // elsewhere, its desktop with a debugging port. A version or the
        // help is harmless.
        let app = lower(&self.env.app);
        let own = c.lb == app || c.lb.starts_with(&format!("{app}-"));
        let built_here =
            c.words[0].text.contains('/') && self.inside(&self.norm(&c.words[0], c.cwd()));
        // An X client drawn on another machine's display: that machine
        // sees and types into it (`xterm -display 203.0.113.7:1`).
        let display = args
            .iter()
            .position(|a| a == "-display" || a == "--display")
            .and_then(|i| args.get(i + 1))
            .or_else(|| {
                c.assigns
                    .iter()
                    .find(|(n, _)| n == "DISPLAY")
                    .map(|(_, v)| &v.text)
            });
        if let Some(d) = display.filter(|d| super::wrappers::remote_display(d)) {
            self.block(format!(
                "remote shell ({} is drawn on another machine's display: {})",
                c.base,
                shown(d)
            ));
        }
        if own && !built_here {
            let info = !args.is_empty()
                && args.iter().all(|a| {
                    matches!(
                        a.as_str(),
                        "--version" | "-V" | "--help" | "-h" | "version" | "help"
                    )
                });
            if info {
                return Some(true);
            }
            // The CLI's own subcommands are judged below; pointed at other
            // settings, another model server or a debugging port, or one of
            // its inner programs run by hand, it is Jarvis turned.
            let upper = format!("{}_", app.to_ascii_uppercase());
            let rerouted = c.assigns.iter().any(|(n, _)| n.starts_with(&upper))
                || args.iter().any(|a| {
                    let l = lower(a);
                    l.starts_with("--")
                        && ["url", "config", "port", "debug", "home", "endpoint", "key"]
                            .iter()
                            .any(|k| l.contains(k))
                });
            if rerouted || c.lb != app {
                self.block(format!(
                    "runs Jarvis itself ({}) with other settings: its grants and keys are not the agent's to use",
                    c.base
                ));
                return Some(false);
            }
        }
        match c.lb.as_str() {
            "tmux" | "byobu" => self.multiplexer(c),
            "update-alternatives" => {
                if args.iter().any(|a| {
                    matches!(
                        a.as_str(),
                        "--display" | "--query" | "--list" | "--get-selections"
                    )
                }) && !args.iter().any(|a| {
                    matches!(
                        a.as_str(),
                        "--install"
                            | "--set"
                            | "--config"
                            | "--remove"
                            | "--remove-all"
                            | "--auto"
                            | "--all"
                            | "--set-selections"
                    )
                }) {
                    return Some(true);
                }
                // `--install LINK NAME PATH PRIO`, `--slave LINK NAME PATH`,
                // `--set NAME PATH`: every user's command NAME becomes PATH.
                let mut targets: Vec<&Word> = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    let at = match a.as_str() {
                        "--install" | "--slave" => i + 3,
                        "--set" => i + 2,
                        _ => continue,
                    };
                    targets.extend(c.arg_word(at));
                }
                for t in targets {
                    let p = self.norm(t, c.cwd());
                    if t.dynamic || !system_program(&p) {
                        self.block(format!(
                            "points a system-wide command at {} (not an installed program): every later run of that command runs it",
                            shown(&t.text)
                        ));
                    }
                }
                None
            }
            "xdg-mime" | "xdg-settings" if matches!(first, "default" | "set") => {
                if c.words[1..].iter().any(|w| self.mentions_self(w)) {
                    self.block(format!(
                        "{} changes which program opens Jarvis's own links or files",
                        c.base
                    ));
                }
                None
            }
            "gsettings" | "dconf" if matches!(first, "set" | "write" | "load") => {
                self.desktop_setting(c);
                None
            }
            "rpm2cpio" => Some(self.reads_all(&c.operand_words(), c.cwd())),
            "dpkg-deb" => {
                // `-x DEB DIR`, `-R DEB DIR`: the package unpacked into DIR.
                let extracts = args.iter().position(|a| {
                    matches!(
                        a.as_str(),
                        "-x" | "-X"
                            | "-R"
                            | "-e"
                            | "--extract"
                            | "--vextract"
                            | "--raw-extract"
                            | "--control"
                    )
                });
                if let Some(i) = extracts {
                    if let Some(dir) = c.arg_word(i + 2) {
                        let archive = c.arg_word(i + 1).cloned();
                        self.extract_into_from(dir, archive.as_ref(), c.cwd(), "dpkg-deb");
                        self.write_path(dir, c.cwd(), "dpkg-deb");
                    }
                    self.ask("dpkg-deb unpacks a package");
                    return Some(false);
                }
                let reads = args.iter().any(|a| {
                    matches!(
                        a.as_str(),
                        "-c" | "--contents" | "-I" | "--info" | "-f" | "--field" | "-W" | "--show"
                    )
                });
                if !reads || args.iter().any(|a| matches!(a.as_str(), "-b" | "--build")) {
                    return None;
                }
                Some(self.reads_all(&c.operand_words(), c.cwd()))
            }
            "lsattr" | "getfacl" => Some(self.reads_all(&c.operand_words(), c.cwd())),
            // Toolchain facts.
            "rustc"
                if args.iter().all(|a| {
                    matches!(
                        a.as_str(),
                        "-V" | "-Vv"
                            | "--version"
                            | "-v"
                            | "--print"
                            | "sysroot"
                            | "cfg"
                            | "target-list"
                    )
                }) =>
            {
                Some(!args.is_empty())
            }
            "rustup"
                if matches!(
                    args.iter()
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .as_slice(),
                    ["--version"]
                        | ["show"]
                        | ["show", "active-toolchain"]
                        | ["toolchain", "list"]
                        | ["target", "list", "--installed"]
                        | ["component", "list", "--installed"]
                ) =>
            {
                Some(true)
            }
            "pkg-config"
                if !args.is_empty()
                    && args.iter().all(|a| {
                        !a.starts_with('-')
                            || matches!(
                                a.as_str(),
                                "--cflags"
                                    | "--libs"
                                    | "--modversion"
                                    | "--exists"
                                    | "--static"
                                    | "--print-errors"
                                    | "--list-all"
                                    | "--variable"
                            )
                            || a.starts_with("--variable=")
                    }) =>
            {
                Some(true)
            }
            // Binary inspectors, cross-toolchain ones too (`arm-none-eabi-size`).
            x if ["size", "-size", "-nm", "-readelf", "-objdump"]
                .iter()
                .any(|t| {
                    if t.starts_with('-') {
                        x.ends_with(t)
                    } else {
                        x == *t
                    }
                }) =>
            {
                Some(self.reads_all(&c.operand_words(), c.cwd()))
            }
            // Disassembles class files; runs none of them.
            "javap" => Some(self.reads_all(&c.operand_words(), c.cwd())),
            // The whole machine's file names: a pattern for keys or secrets
            // is a search for them, as `find / -name id_rsa` is.
            "locate" | "plocate" | "mlocate" | "slocate" => {
                let mut skip = false;
                for a in args {
                    if std::mem::take(&mut skip) {
                        continue;
                    }
                    if matches!(a.as_str(), "-d" | "--database" | "-l" | "-n" | "--limit") {
                        skip = true;
                        continue;
                    }
                    if a.starts_with('-') {
                        continue;
                    }
                    // A regular expression read as the name it matches.
                    let name: String = a
                        .replace(".*", "*")
                        .chars()
                        .filter(|ch| !"\\^$()".contains(*ch))
                        .collect();
                    // A plain pattern matches anywhere in a name (`*PAT*`).
                    let base = name.rsplit('/').next().unwrap_or(&name);
                    let base = if base.contains(['*', '?', '[']) {
                        base.to_string()
                    } else {
                        format!("*{base}*")
                    };
                    let l = lower(a);
                    let store = [
                        ".ssh",
                        ".aws",
                        ".gnupg",
                        ".mozilla",
                        ".password-store",
                        ".netrc",
                        ".git-credentials",
                        ".pgpass",
                        "kubeconfig",
                        ".kube/config",
                        "id_rsa",
                        "id_ed25519",
                        "id_ecdsa",
                        ".npmrc",
                        ".pypirc",
                        "credentials",
                    ]
                    .iter()
                    .any(|d| l.contains(d));
                    // `.env`, `prod.env`, not `.env.example`.
                    let env_file = l.contains(".env")
                        && !["example", "sample", "template", "dist"]
                            .iter()
                            .any(|x| l.contains(x))
                        && !l.contains(".environment");
                    if !l.trim().is_empty()
                        && (store || paths::glob_could_match_secret(&lower(&base)) || env_file)
                    {
                        self.block(format!(
                            "searches the whole system for key and secret files ({})",
                            shown(a)
                        ));
                    }
                }
                Some(true)
            }
            // The fonts fontconfig knows; a pattern and fields are text.
            "fc-list" | "fc-match" if args.iter().all(|a| !a.starts_with('-') || a == "-v") => {
                Some(true)
            }
            // `ar t ARCHIVE`, `ar tv`: the members listed, nothing extracted.
            "ar" if letter_flags(&format!("-{}", first.trim_start_matches('-')))
                .is_some_and(|b| b.contains('t') && b.chars().all(|ch| "tvO".contains(ch))) =>
            {
                let ops = c.operand_words();
                let skip = usize::from(!first.starts_with('-'));
                Some(self.reads_all(ops.iter().skip(skip), c.cwd()))
            }
            // `gio info|list|tree FILE`: a file's attributes or a folder's names.
            "gio" if matches!(first, "info" | "list" | "tree") => {
                let ops: Vec<Word> = c
                    .words
                    .iter()
                    .skip(2)
                    .enumerate()
                    // `-a ATTRS` names attributes, not a file.
                    .filter(|(k, w)| {
                        !w.text.starts_with('-') && (*k == 0 || c.words[k + 1].text != "-a")
                    })
                    .map(|(_, w)| w.clone())
                    .collect();
                Some(self.reads_all(&ops, c.cwd()))
            }
            "losetup"
                if args.iter().all(|a| {
                    matches!(
                        a.as_str(),
                        "-l" | "--list" | "-a" | "--all" | "-n" | "--noheadings" | "-J" | "--json"
                    )
                }) =>
            {
                Some(true)
            }
            "cmake" if first == "-E" => self.cmake_tool(c),
            // `cmake -P /dev/stdin <<EOF`: the script is the here-document.
            "cmake"
                if args.windows(2).any(|w| {
                    w[0] == "-P" && matches!(w[1].as_str(), "-" | "/dev/stdin" | "/proc/self/fd/0")
                }) =>
            {
                for body in c.src.redirects.iter().filter_map(|r| r.body.as_ref()) {
                    for piece in body
                        .text
                        .split(|ch: char| ch.is_whitespace() || "\"'()".contains(ch))
                    {
                        let p = self.norm_text(&paths::word_path(piece, false), c.cwd());
                        if let Some(why) = paths::credential_normalized(&p, piece) {
                            self.block(format!("the cmake script reads a credential: {why}"));
                        }
                    }
                }
                self.ask("cmake runs a script from its input");
                Some(false)
            }
            // A toolchain or cache script CMake runs, fetched.
            "cmake" if c.words[1..].iter().any(|w| self.fetched(w, c.script)) => {
                self.block("download and execute (cmake runs a script fetched from the network)");
                Some(false)
            }
            // A program a tool's settings make it run at every later use.
            "kubectl" | "aws" => {
                let program = args.iter().enumerate().find_map(|(i, a)| {
                    if let Some(v) = eq_value(a, "--exec-command") {
                        return Some(Word::lit(v));
                    }
                    let next = c.arg_word(i + 1).cloned();
                    match a.as_str() {
                        "--exec-command" => next,
                        // `credential_process`, `profile.prod.credential_process`.
                        x if c.lb == "aws"
                            && matches!(
                                x.rsplit('.').next(),
                                Some("credential_process" | "credential-process")
                            ) =>
                        {
                            next
                        }
                        _ => None,
                    }
                });
                if let Some(p) = program {
                    // Quotes around the whole value only (`sh -c '…'` keeps its own).
                    let t = p.text.as_str();
                    let code = match (t.chars().next(), t.chars().last()) {
                        (Some(a), Some(b)) if t.len() >= 2 && a == b && matches!(a, '\'' | '"') => {
                            t[1..t.len() - 1].to_string()
                        }
                        _ => t.to_string(),
                    };
                    self.script(&code, &[], c.depth + 1);
                    self.ask(format!(
                        "{} runs {} at every later use",
                        c.base,
                        shown(&code)
                    ));
                    return Some(false);
                }
                None
            }
            // `export "$(…)"`: the name and value of what is set are the
            // text of a command (`LD_PRELOAD=…` decoded, then every later
            // program loads it).
            "declare" | "typeset" | "export" | "local" | "readonly" => {
                for w in c.words[1..]
                    .iter()
                    .filter(|w| w.dynamic && !w.text.starts_with('-'))
                {
                    let named_later = !w.text.split('=').next().is_some_and(|n| {
                        !n.is_empty() && n.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
                    });
                    if !named_later {
                        continue;
                    }
                    if let Some(why) = self.code_source(w, c.script) {
                        self.block(format!(
                            "{why} ({} sets variables named by that text: `LD_PRELOAD`, `PATH`, `BASH_ENV` among them)",
                            c.base
                        ));
                    }
                    self.ask(format!("{} sets a variable named at run time", c.base));
                    return Some(false);
                }
                None
            }
            "cargo" if first == "install" => {
                // `--root DIR`: the built programs are written into DIR/bin.
                let root = c.value("--root").cloned().or_else(|| {
                    args.iter()
                        .find_map(|a| a.strip_prefix("--root="))
                        .map(Word::lit)
                });
                if let Some(r) = root {
                    let bin = Word {
                        text: format!("{}/bin", r.text.trim_end_matches('/')),
                        ..r
                    };
                    self.write_path(&bin, c.cwd(), "cargo install --root");
                }
                None
            }
            _ => None,
        }
    }

    fn multiplexer(&mut self, c: &Cmd<'_>) -> Option<bool> {
        // Global options: `-c CMD` runs CMD as a shell would, `-f FILE`
        // runs a configuration's commands; `-L`/`-S`/`-T` take a value.
        let mut k = 1;
        while let Some(w) = c.words.get(k) {
            let t = w.text.as_str();
            if !t.starts_with('-') || t == "--" {
                k += usize::from(t == "--");
                break;
            }
            k += 1;
            let Some(flag) =
                short_flags(t).and_then(|b| b.chars().find(|ch| "cfLST".contains(*ch)))
            else {
                continue;
            };
            let value = match t.split_once(flag).map(|(_, r)| r) {
                Some(r) if !r.is_empty() => Some(Word::lit(r)),
                _ => {
                    k += 1;
                    c.words.get(k - 1).cloned()
                }
            };
            match (flag, value) {
                ('c', Some(code)) => {
                    self.shell_code(&code, &[], c.script, c.depth);
                    self.ask(format!("{} -c runs a shell command", c.base));
                }
                ('f', Some(file)) => {
                    self.read_path(&file, c.cwd());
                    self.ask(format!(
                        "{} -f runs the commands of a configuration file",
                        c.base
                    ));
                }
                _ => {}
            }
        }
        // Commands, separated by `;` (tmux accepts a unique prefix).
        let rest: Vec<&str> = c.words[k.min(c.words.len())..]
            .iter()
            .map(|w| w.text.as_str())
            .collect();
        let commands: Vec<&[&str]> = rest
            .split(|t| matches!(*t, ";" | "\\;"))
            .filter(|cmd| !cmd.is_empty())
            .collect();
        if commands.is_empty() {
            return None;
        }
        // Everything the pane shows, typed passwords included, goes on to
        // a command: judged as that command fed the pane's text
        // (`-I`: the command's output is typed into the pane's shell).
        for cmd in commands.iter().filter(|cmd| {
            super::pipe_sources::tmux_command(cmd[0].trim_end_matches(';')) == Some("pipe-pane")
        }) {
            let mut k = 1;
            let mut typed = false;
            while let Some(w) = cmd.get(k).filter(|w| w.starts_with('-')) {
                typed |= w.contains('I');
                k += 1 + usize::from(*w == "-t");
            }
            if let Some(sink) = cmd.get(k) {
                let line = if typed {
                    format!("{sink} | sh")
                } else {
                    format!("tmux capture-pane -p | {sink}")
                };
                self.script(&line, &[], c.depth + 1);
                // Only a log in the project is asked; anything else the
                // pane's text goes to is a recording nobody sees.
                if typed || !self.logs_into_project(sink, c.cwd()) {
                    self.block(format!(
                        "{} pipe-pane records everything a terminal shows (typed passwords, tokens) into a command",
                        c.base
                    ));
                }
                self.ask(format!(
                    "{} pipe-pane copies everything a terminal shows into a log in the project",
                    c.base
                ));
                return Some(false);
            }
        }
        for cmd in &commands {
            let name = super::pipe_sources::tmux_command(cmd[0].trim_end_matches(';'));
            let operands: Vec<&str> = cmd[1..]
                .iter()
                .copied()
                .filter(|a| !a.starts_with('-'))
                .collect();
            match name {
                // Set in the server's environment, a variable reaches every
                // pane and window started after: a loader or a command the
                // shell runs at start is planted in all of them.
                Some("set-environment") => {
                    if let Some(var) = operands.first().filter(|v| {
                        super::effects::INJECT_VARS.contains(v)
                            || super::effects::LOADER_VARS.contains(v)
                            || super::effects::COMMAND_VARS.contains(v)
                    }) {
                        self.block(format!(
                            "persistence ({} set-environment {var}: every new pane and window starts with it)",
                            c.base
                        ));
                    }
                }
                // A file read into a buffer (and shown or pasted from it).
                Some("load-buffer") => {
                    if let Some(f) = operands.last() {
                        self.read_path(&Word::lit(*f), c.cwd());
                    }
                }
                _ => {}
            }
        }
        let lists = |cmd: &[&str]| {
            matches!(
                cmd[0],
                "list-sessions"
                    | "ls"
                    | "list-windows"
                    | "lsw"
                    | "list-panes"
                    | "lsp"
                    | "list-clients"
                    | "lsc"
                    | "has-session"
                    | "has"
                    | "list-commands"
                    | "lscm"
                    | "list-keys"
                    | "lsk"
                    | "show-options"
                    | "show"
                    | "info"
            ) && cmd[1..].iter().all(|a| a.starts_with('-'))
        };
        (k == 1 && commands.iter().all(|cmd| lists(cmd))).then_some(true)
    }

    /// A desktop setting whose value is a program the desktop runs later
    /// (the default terminal, a keybinding's command): a planted file there
    /// runs at the user's next keypress or login.
    fn desktop_setting(&mut self, c: &Cmd<'_>) {
        // `gsettings set SCHEMA KEY VALUE`, `dconf write KEY VALUE`;
        // `dconf load DIR` reads the settings from its input.
        if c.args.first().is_some_and(|a| a == "load") {
            self.ask(format!("{} load sets settings from its input", c.base));
            return;
        }
        let Some((value, place)) = c.words[2..].split_last() else {
            return;
        };
        // The desktop's proxy (`org.gnome.system.proxy.https host H`, its
        // `autoconfig-url`): every program's web traffic then passes H.
        // (Only its `host` and `autoconfig-url`: `ignore-hosts` lists
        // where no proxy is used.)
        let key = place.last().map(|w| lower(&w.text)).unwrap_or_default();
        let key = key.rsplit('/').next().unwrap_or(&key);
        let proxy = place.iter().any(|w| lower(&w.text).contains("proxy"))
            && matches!(key, "host" | "autoconfig-url");
        if proxy {
            let v = value.text.trim_matches(['\'', '"']);
            let host = v.split_once("://").map_or(v, |(_, r)| r);
            if let Some(h) =
                super::project_out::far_host(host).filter(|_| host.contains(['.', ':']))
            {
                self.block(format!(
                    "interception (the desktop's web traffic is sent through {h})"
                ));
            }
        }
        let runs_later = place.iter().any(|w| {
            let l = lower(&w.text);
            [
                "exec",
                "command",
                "terminal",
                "keybinding",
                "autostart",
                "default-applications",
                "binding",
            ]
            .iter()
            .any(|k| l.contains(k))
        });
        if !runs_later {
            return;
        }
        // Each path in the value: the program and what it is handed.
        let tokens = value
            .text
            .split(|ch: char| ch.is_whitespace() || "'\"[],".contains(ch));
        for t in tokens.filter(|t| t.contains('/')) {
            let p = self.norm(
                &Word {
                    text: t.to_string(),
                    ..value.clone()
                },
                c.cwd(),
            );
            if value.dynamic || !system_program(&p) {
                self.block(format!(
                    "{} makes the desktop run {} later (a setting that names a program)",
                    c.base,
                    shown(t)
                ));
            }
        }
        if value.dynamic {
            self.block(format!(
                "{} makes the desktop run a program named at run time, later",
                c.base
            ));
        }
    }

    /// `cmake -E TOOL`: its file tools.
    fn cmake_tool(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let tool = c.args.get(1)?.as_str();
        let files = || {
            c.words
                .iter()
                .skip(3)
                .filter(|w| !w.text.starts_with('-'))
                .cloned()
                .collect::<Vec<_>>()
        };
        match tool {
            "compare_files" | "cat" | "md5sum" | "sha1sum" | "sha224sum" | "sha256sum"
            | "sha384sum" | "sha512sum" => Some(self.reads_all(&files(), c.cwd())),
            "echo" | "echo_append" | "capabilities" | "true" | "false" => Some(true),
            _ => None,
        }
    }
}

impl Analyzer<'_> {
    /// `cat >> logs/x.log`, `tee -a logs/x.log`: a file inside the project
    /// is all `line` writes.
    fn logs_into_project(&self, line: &str, cwd: Option<&str>) -> bool {
        let script = parse::parse(line, &[]);
        let [cmd] = script.commands.as_slice() else {
            return false;
        };
        let prog = cmd
            .argv
            .first()
            .map(|w| program_name(&w.text))
            .unwrap_or_default();
        let files: Vec<&Word> = match prog.as_str() {
            "cat" if cmd.argv.len() == 1 => cmd
                .redirects
                .iter()
                .filter(|r| matches!(r.op.as_str(), ">" | ">>"))
                .map(|r| &r.target)
                .collect(),
            "tee" if cmd.redirects.is_empty() => cmd.argv[1..]
                .iter()
                .filter(|w| w.text != "-a" && w.text != "--append")
                .collect(),
            _ => return false,
        };
        !files.is_empty()
            && cmd
                .redirects
                .iter()
                .all(|r| matches!(r.op.as_str(), ">" | ">>"))
            && files
                .iter()
                .all(|w| !w.dynamic && !w.text.starts_with('-') && self.inside(&self.norm(w, cwd)))
    }
}
