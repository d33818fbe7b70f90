//! Programs that run other programs: shells, interpreters, `eval`, `find
//! -exec`, `xargs`, editors and pagers with shell escapes, `make`, and the
//! plumbing that feeds them code (pipes, substitutions, downloaded files).

use super::*;

/// Shell text run as a script (`sh -c`, `eval`, a git alias, a pager).
impl Analyzer<'_> {
    pub(super) fn shell_code(
        &mut self,
        code: &Word,
        positional: &[String],
        script: &Script,
        depth: usize,
    ) {
        if let Some(why) = self.code_source(code, script) {
            self.block(format!(
                "{why} (shell code built from {} is run)",
                if why.starts_with("download") {
                    "a download"
                } else {
                    "decoded or transformed text"
                }
            ));
        }
        if code.dynamic {
            self.ask("runs shell code built at run time");
        }
        let text = self.where_it_runs(&code.text);
        self.script(&text, positional, depth + 1);
    }

    /// Code handed on by a command after a `cd`: it starts in that folder.
    pub(super) fn where_it_runs(&self, code: &str) -> String {
        match self.cwd_now.as_deref() {
            None => code.to_string(),
            Some(d) if d.starts_with(parse::UNKNOWN_DIR) => {
                format!("cd \"$__unknown_folder\" || exit\n{code}")
            }
            Some(d) if d.starts_with(parse::ELSEWHERE_DIR) => format!("cd - || exit\n{code}"),
            Some(d) => format!("cd {} || exit\n{code}", functions::spelled(d)),
        }
    }

    /// `sh`, `bash`, …: `-c CODE`, a script file, or stdin. True when it
    /// only runs provably read-only code.
    pub(super) fn shell(&mut self, c: &Cmd<'_>) -> bool {
        if let Some(flags) = other_shell_code_flags(&c.lb) {
            let codes = super::script_opts::values(c, flags);
            if !codes.is_empty() {
                for mut code in codes {
                    if c.lb == "xonsh" {
                        self.xonsh(&code, c);
                        continue;
                    }
                    code.text = super::dialects::as_bash(&c.lb, &code.text);
                    self.shell_code(&code, &[], c.script, c.depth);
                }
                self.ask(format!("runs a {} script", c.base));
                return false;
            }
        }
        let args = &c.args;
        if args.iter().any(|a| {
            a == "-p"
                || short_flags(a)
                    .is_some_and(|b| b.len() <= 3 && b.contains('p') && !b.contains('c'))
        }) {
            self.block(format!(
                "{} -p keeps elevated privileges (privilege escalation)",
                c.base
            ));
        }
        let mut i = 0;
        let mut code_at = None;
        let mut file_at = None;
        while i < args.len() {
            let a = args[i].as_str();
            if a == "--" {
                file_at = (i + 1 < args.len()).then_some(i + 1);
                break;
            }
            if a.starts_with("--") {
                if matches!(a, "--rcfile" | "--init-file") {
                    if let Some(f) = c.arg_word(i + 1) {
                        self.sourced(f, c);
                    }
                    i += 1;
                }
                i += 1;
                continue;
            }
            if (a.starts_with('-') || a.starts_with('+')) && a.len() > 1 {
                if a[1..].contains('c') {
                    code_at = Some(i + 1);
                    break;
                }
                if a[1..].contains('o') || a[1..].contains('O') {
                    i += 1;
                }
                i += 1;
                continue;
            }
            if a == "-" {
                break;
            }
            file_at = Some(i);
            break;
        }
        if let Some(ci) = code_at {
            let Some(mut code) = c.arg_word(ci).cloned() else {
                self.ask(format!("starts an interactive {}", c.base));
                return false;
            };
            code.text = super::dialects::as_bash(&c.lb, &code.text);
            // Operands known only at run time leave `$1`… unknown, not
            // their spelling (`sh -c 'rm -rf "$@"' _ "$(cd .. && pwd)"`).
            let positional: Vec<String> = if c.words.iter().skip(ci + 2).any(|w| w.dynamic) {
                Vec::new()
            } else {
                args.get(ci + 1..)
                    .map(<[String]>::to_vec)
                    .unwrap_or_default()
            };
            if c.words
                .iter()
                .skip(ci + 2)
                .any(|w| self.fetched(w, c.script))
            {
                self.block("download and execute (a fetched value is run by the script)");
            }
            if c.lb == "xonsh" {
                self.xonsh(&code, c);
                return false;
            }
            let v = self.judged(|a| a.shell_code(&code, &positional, c.script, c.depth));
            if v == Verdict::Allow {
                return true;
            }
            self.ask(format!("runs a {} script", c.base));
            return false;
        }
        if let Some(fi) = file_at
            && let Some(w) = c.arg_word(fi).cloned()
        {
            self.sourced(&w, c);
            self.staged_from_inside(&w, c);
            self.ask(format!("runs the script {}", shown(&w.text)));
            return false;
        }
        self.interactive(c);
        false
    }

    /// xonsh's code: Python, with shell commands in it.
    fn xonsh(&mut self, code: &Word, c: &Cmd<'_>) {
        self.inline_code("python3", &code.text, c.depth);
        for command in super::dialects::xonsh_commands(&code.text) {
            let command = Word {
                text: command,
                ..code.clone()
            };
            self.shell_code(&command, &[], c.script, c.depth);
        }
        self.ask("runs a xonsh script");
    }

    /// A shell or interpreter with no program: at the top it asks; started
    /// from inside another program (an option, `-exec`, a pager, an editor)
    /// it is a shell escape whose commands nobody sees.
    pub(super) fn interactive(&mut self, c: &Cmd<'_>) {
        // Input from a file or a heredoc is a script; `<&2` only moves a terminal.
        let has_input = c
            .src
            .redirects
            .iter()
            .any(|r| matches!(r.op.as_str(), "<" | "<<" | "<<<" | "<<-"));
        if c.src.stdin_from.is_some() || has_input {
            return;
        }
        if self.remote {
            // `ssh host 'bash -s' < script`, `ssh -t host bash -l`: a shell
            // over there, reading ssh's input.
            self.ask(format!("starts {} on another machine", c.base));
        } else if c.depth > 0 {
            self.block(format!(
                "spawns an interactive {} from inside another program (a shell escape)",
                c.base
            ));
        } else {
            self.ask(format!("starts an interactive {}", c.base));
        }
    }

    /// A file run as code: a download, a decoder's output or a URL is not;
    /// a file this line wrote is judged by what it wrote.
    pub(super) fn sourced(&mut self, w: &Word, c: &Cmd<'_>) {
        if let Some(text) = self.written_text(w, c.cwd()) {
            match c.lb.as_str() {
                "make" | "gmake" | "bmake" => self.makefile(&text, c.depth),
                lb if is_shell(lb) || lb == "source" || lb == "." => {
                    if super::functions::script_forks_itself(&text, &w.text) {
                        self.block(format!(
                            "fork bomb ({} runs itself more than once at a time)",
                            shown(&w.text)
                        ));
                    }
                    self.script(&text, &[], c.depth + 1)
                }
                lb => self.inline_code(lb, &text, c.depth),
            }
        }
        let lt = lower(&w.text);
        // `bash /proc/self/fd/5`: a script read from a descriptor an earlier
        // part of the line opened (a pipe, a download) is code nobody saw.
        let fd_path = lt.starts_with("/dev/fd/")
            || lt
                .strip_prefix("/proc/")
                .and_then(|r| r.split_once('/'))
                .is_some_and(|(_, r)| r.starts_with("fd/"));
        if fd_path && !w.procsub {
            self.block(format!(
                "{} runs code from an open file descriptor ({}), whose source is a pipe or download nobody saw",
                c.base, w.text
            ));
        }
        if lt.starts_with("http://") || lt.starts_with("https://") {
            self.block(format!("download and execute ({} runs {})", c.base, w.text));
        } else if lt.starts_with("data:") && lt.contains(";base64,") {
            // `deno run "data:application/typescript;base64,…"`: encoded code.
            self.block(format!(
                "decodes and executes ({} runs a base64 data: module)",
                c.base
            ));
        } else if w.procsub {
            match w
                .subs
                .iter()
                .filter_map(|&s| c.script.commands.get(s))
                .map(|x| self.producer(x))
                .find(|p| *p != Producer::Other)
            {
                Some(Producer::Net) => {
                    self.block(format!("download and execute ({} runs a download)", c.base))
                }
                Some(_) => self.block(format!(
                    "decodes and executes ({} runs decoded text)",
                    c.base
                )),
                None => {}
            }
        } else if self.is_tainted(w, c.cwd()) {
            self.block(format!(
                "download and execute ({} was downloaded or decoded, then run)",
                shown(&w.text)
            ));
        } else if w.dynamic && self.code_source(w, c.script).is_some() {
            self.block(format!(
                "download and execute ({} runs a file named by a download)",
                c.base
            ));
        }
    }

    /// Programs that run other programs from their options or arguments;
    /// `None` when `c` is not one.
    pub(super) fn executor(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let lb = c.lb.as_str();
        let depth = c.depth;
        let script = c.script;
        match lb {
            "eval" => {
                // `eval "$(ssh-agent -s)"`, `eval "$(pyenv init -)"`: the
                // settings a known tool prints for the shell it runs in.
                if let [one] = &c.words[1..]
                    && one.text == "$(…)"
                    && let [sub] = one.subs.as_slice()
                    && script.commands.get(*sub).is_some_and(prints_shell_setup)
                {
                    self.ask("evaluates the shell settings a tool prints");
                    return Some(false);
                }
                let rest: Vec<Word> = c.words[1..].to_vec();
                let mut w = Word::lit(Word::join(&rest));
                w.dynamic = rest.iter().any(|x| x.dynamic);
                w.subs = rest.iter().flat_map(|x| x.subs.clone()).collect();
                if c.words.iter().skip(1).any(|x| {
                    x.text.contains("$(…)")
                        && x.subs
                            .iter()
                            .any(|&s| script.commands.get(s).is_some_and(reads_stdin_only))
                }) && (c.src.stdin_from.is_some())
                {
                    self.block("evaluates text piped into it");
                }
                let v = self.judged(|a| a.shell_code(&w, &[], script, depth));
                if v != Verdict::Allow {
                    self.ask("evaluates shell text");
                }
                Some(v == Verdict::Allow)
            }
            "source" | "." => {
                let Some(w) = c.arg_word(0).cloned() else {
                    return Some(true);
                };
                if matches!(w.text.as_str(), "/dev/stdin" | "/proc/self/fd/0" | "-")
                    && c.src.stdin_from.is_some()
                {
                    self.block("sources text piped into the shell (download/decode and execute)");
                }
                self.sourced(&w, c);
                // A system file only root can change (`/etc/os-release`):
                // its text is what runs, judged here.
                if c.words.len() == 2
                    && let Some(text) = modules::system_text(&w.text)
                    && self.judged(|a| a.script(&text, &[], depth + 1)) == Verdict::Allow
                {
                    return Some(true);
                }
                self.ask(format!("runs {} in this shell", shown(&w.text)));
                Some(false)
            }
            "exec" => Some(c.args.is_empty()),
            // `history -s TEXT` stores TEXT as a command the shell ran, for
            // `fc -s`, `!!` or a recall to run again: judged as that code.
            "history" if c.args.iter().any(|a| a == "-s") => {
                let rest: Vec<Word> = c.words[1..]
                    .iter()
                    .filter(|w| w.text != "-s")
                    .cloned()
                    .collect();
                let mut w = Word::lit(Word::join(&rest));
                w.dynamic = rest.iter().any(|x| x.dynamic);
                w.subs = rest.iter().flat_map(|x| x.subs.clone()).collect();
                self.judged(|a| a.shell_code(&w, &[], script, depth));
                self.ask("adds a command to the shell's history, to be run again");
                Some(false)
            }
            "trap" => {
                if let Some(code) = c.arg_word(0).filter(|w| !w.text.starts_with('-')).cloned() {
                    let v = self.judged(|a| a.shell_code(&code, &[], script, depth));
                    if v != Verdict::Allow {
                        self.ask("sets a trap that runs shell code");
                    }
                }
                Some(true)
            }
            "xargs" | "parallel" => Some(self.xargs(c)),
            "find" => Some(self.find(c)),
            "fd" | "fdfind" => Some(self.fd(c)),
            "watch" => {
                let mut k = 1;
                let mut exec = false;
                while let Some(w) = c.words.get(k).filter(|w| w.text.starts_with('-')) {
                    exec |= w.text == "-x" || w.text == "--exec";
                    if matches!(w.text.as_str(), "-n" | "--interval" | "-q" | "--equexit") {
                        k += 1;
                    }
                    k += 1;
                }
                let rest: Vec<Word> = c.words[k.min(c.words.len())..].to_vec();
                if exec {
                    self.run_words(rest, c.src, script, depth + 1);
                } else {
                    let mut text = Word::lit(Word::join(&rest));
                    text.dynamic = rest.iter().any(|w| w.dynamic);
                    text.subs = rest.iter().flat_map(|w| w.subs.clone()).collect();
                    self.shell_code(&text, &[], script, depth);
                }
                self.ask("watch runs a command repeatedly");
                Some(false)
            }
            "script" => {
                for (i, a) in c.args.iter().enumerate() {
                    if a == "--command" || (short_has(a, 'c')) {
                        if let Some(code) = c.arg_word(i + 1).cloned() {
                            self.shell_code(&code, &[], script, depth);
                        }
                    } else if let Some(code) = a.strip_prefix("--command=") {
                        self.script(code, &[], depth + 1);
                    }
                }
                self.ask("script records a session");
                Some(false)
            }
            "zellij" => {
                self.zellij(c);
                Some(false)
            }
            "tmux" | "screen" | "byobu" => {
                let mut after_keys = false;
                let mut typed = false;
                // `screen -dmS NAME bash -c '…'`: past its options, one
                // command line (`-X` sends screen's own commands instead).
                let screen_command = (lb == "screen")
                    .then(|| screen_command_at(&c.args))
                    .flatten()
                    .filter(|at| !c.args[..*at].iter().any(|a| a == "-X" || a == "-x"));
                // Keys typed into a pane or window, the line they make.
                let typed_lines = super::terminal_control::typed_keys(&c.args);
                for text in &typed_lines {
                    self.block_only(|x| x.typed_text(text, depth));
                }
                // Into Jarvis's own session (its questions answered for it),
                // or that session stopped: a target or socket named for it
                // (`-t jarvis:0`, `-tjarvis`, `-t=jarvis`, `-L jarvis`,
                // screen's `-S`/`-x`/`-r`).
                let targets_jarvis = c.words.iter().enumerate().any(|(i, w)| {
                    let t = w.text.as_str();
                    let value = match t {
                        "-t" | "-S" | "-L" | "-x" | "-r" | "-s" => {
                            c.words.get(i + 1).map(|v| v.text.as_str())
                        }
                        _ => ["-t=", "-t", "-S", "-L"]
                            .iter()
                            .find_map(|p| t.strip_prefix(p).filter(|r| !r.is_empty())),
                    };
                    value.is_some_and(|v| {
                        let session = v
                            .trim_start_matches('=')
                            .split([':', '.'])
                            .next()
                            .unwrap_or(v);
                        // (A socket path in Jarvis's state counts; a session
                        // merely named like the project does not.)
                        session.eq_ignore_ascii_case("jarvis")
                            || v.contains('/') && self.mentions_self(&Word::lit(v))
                    })
                });
                let drives = !typed_lines.is_empty()
                    || c.args.iter().any(|a| {
                        matches!(
                            super::pipe_sources::tmux_command(a),
                            Some(
                                "send-keys"
                                    | "paste-buffer"
                                    | "kill-session"
                                    | "kill-pane"
                                    | "kill-window"
                                    | "respawn-pane"
                                    | "respawn-window"
                            )
                        ) || a == "stuff"
                    });
                if targets_jarvis && drives {
                    self.block(format!(
                        "aims at Jarvis's own terminal ({} types into it or stops it)",
                        c.base
                    ));
                }
                // A format's `#(cmd)` and copy mode's `copy-pipe 'cmd'`: run
                // by the tmux server, past the sandbox.
                for (i, a) in c.args.iter().enumerate() {
                    // `#{GITHUB_TOKEN}`: a name that is no tmux variable is
                    // looked up in the environment and printed.
                    // (Past modifiers: `#{E:X}`, `#{=40:X}`, `#{?X,a,b}`.)
                    let env_named = a.split("#{").skip(1).any(|part| {
                        part.split_once('}').is_some_and(|(inner, _)| {
                            let name = inner.rsplit(':').next().unwrap_or(inner);
                            let name = name
                                .trim_start_matches('?')
                                .split(',')
                                .next()
                                .unwrap_or(name);
                            !name.is_empty()
                                && name
                                    .chars()
                                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
                                && !super::terminal_queries::tmux_variable(name)
                        })
                    });
                    if env_named {
                        self.block(format!(
                            "reveals the environment ({} prints a variable through a format)",
                            c.base
                        ));
                    }
                    for part in a.split("#(").skip(1) {
                        let inner = part.rsplit_once(')').map_or(part, |(x, _)| x).to_string();
                        self.block_only(|x| x.script(&inner, &[], depth + 1));
                        self.ask(format!("{} runs a command from a format", c.base));
                    }
                    if a.starts_with("copy-pipe")
                        && let Some(cmd) = c.args.get(i + 1).cloned()
                    {
                        self.block_only(|x| {
                            x.script(&format!("tmux capture-pane -p | {cmd}"), &[], depth + 1)
                        });
                    }
                }
                if let Some(at) = screen_command {
                    let line = crate::policy::shell::quoted_line(&c.args[at..]);
                    self.block_only(|x| x.script(&line, &[], depth + 1));
                }
                let mut value_next = false;
                for (i, a) in c.args.iter().enumerate() {
                    if screen_command.is_some() {
                        break;
                    }
                    // A flag's value (`-s "$NAME"`, `-t dev`, `-n 'logs*'`)
                    // names a session, window or folder: not a command.
                    if std::mem::take(&mut value_next) {
                        continue;
                    }
                    if lb != "screen"
                        && matches!(
                            a.as_str(),
                            "-s" | "-n"
                                | "-t"
                                | "-c"
                                | "-F"
                                | "-e"
                                | "-x"
                                | "-y"
                                | "-N"
                                | "-f"
                                | "-L"
                                | "-S"
                                | "-T"
                                | "-p"
                        )
                    {
                        value_next = true;
                        continue;
                    }
                    let verb = if lb == "screen" {
                        Some(a.as_str())
                    } else {
                        super::pipe_sources::tmux_command(a)
                    };
                    if matches!(
                        verb,
                        Some(
                            "send-keys"
                                | "stuff"
                                | "run-shell"
                                | "new-session"
                                | "new-window"
                                | "split-window"
                                | "respawn-pane"
                                | "respawn-window"
                                | "if-shell"
                                | "display-popup"
                                | "set-hook"
                                | "confirm-before"
                                | "command-prompt"
                        )
                    ) {
                        after_keys = true;
                        typed = matches!(verb, Some("send-keys" | "stuff"));
                        continue;
                    }
                    // tmux joins a window's command words with spaces and
                    // hands them to `sh -c` (`split-window rm -rf ~`).
                    if after_keys && !typed && lb != "screen" && !a.starts_with('-') {
                        let line = c.args[i..].join(" ");
                        self.block_only(|x| x.script(&line, &[], depth + 1));
                    }
                    let last = i + 1 == c.args.len();
                    // (Typed keys are judged above, as the line they make;
                    // a word known only at run time still counts.)
                    if (after_keys || last || lb == "screen")
                        && !a.starts_with('-')
                        && let Some(w) = c.arg_word(i).cloned()
                        && (!typed || w.dynamic)
                    {
                        self.block_only(|x| x.shell_code(&w, &[], script, depth));
                    }
                }
                // A detached session that loops forever outlives the
                // conversation: persistence.
                let detached = c
                    .args
                    .iter()
                    .any(|a| a == "-d" || a == "-dm" || a == "-dmS");
                let forever = c.args.iter().any(|a| {
                    let l = lower(a);
                    l.contains("while :")
                        || l.contains("while true")
                        || l.contains("while sleep")
                        || l.contains("until false")
                        || l.contains("for (( ; ; ))")
                        || l.contains("for ((;;))")
                });
                if detached && forever {
                    self.block(format!(
                        "persistence ({} starts a detached session that runs a loop forever)",
                        c.base
                    ));
                }
                self.ask(format!("{} runs a command in a session", c.base));
                Some(false)
            }
            "less" | "more" | "most"
                if c.args.iter().any(|x| x.starts_with('+') && x.contains('!')) =>
            {
                // `less '+!cmd'`: the pager runs `cmd` in a shell as it opens.
                for x in c.args.iter().filter(|x| x.starts_with('+')) {
                    if let Some((_, sh)) = x.split_once('!') {
                        self.script(sh, &[], depth + 1);
                    }
                }
                self.ask(format!("{} runs a shell command as it opens", c.base));
                Some(false)
            }
            "vim" | "vi" | "nvim" | "ex" | "view" | "gvim" | "vimdiff" | "rvim" => self.vim(c),
            "emacs" | "emacsclient" => {
                if let Some(code) = c.value("--eval").cloned() {
                    self.inline_code("elisp", &code.text, depth);
                }
                self.ask("opens an editor");
                Some(false)
            }
            "man" => {
                let pager = c
                    .value("-P")
                    .or_else(|| c.value("--pager"))
                    .cloned()
                    .or_else(|| {
                        c.args
                            .iter()
                            .find_map(|a| a.strip_prefix("--pager="))
                            .map(Word::lit)
                    });
                match pager {
                    Some(p) => {
                        let v = self.judged(|a| a.shell_code(&p, &[], script, depth));
                        if v != Verdict::Allow {
                            self.ask("man runs a pager program");
                        }
                        Some(v == Verdict::Allow)
                    }
                    // The pages and files it shows are judged as reads.
                    None => None,
                }
            }
            "make" | "gmake" | "bmake" => self.make(c),
            "task" | "go-task" | "just" => self.task_vars(c),
            "iex" | "invoke-expression" => {
                let text = Word::join(&c.words[1..]);
                let l = lower(&text);
                if code::mentions_network(&l) || l.contains("iwr") || l.contains("irm") {
                    self.block("download and execute (Invoke-Expression of a download)");
                }
                self.block_only(|a| a.script(&text, &[], depth + 1));
                self.ask("evaluates PowerShell text");
                Some(false)
            }
            "cmd" => {
                if let Some(i) = c
                    .args
                    .iter()
                    .position(|x| lower(x) == "/c" || lower(x) == "/k")
                {
                    let text = c.args[i + 1..].join(" ");
                    self.script(&text, &[], depth + 1);
                }
                self.ask("runs cmd.exe");
                Some(false)
            }
            "start-process" | "saps" => {
                if c.args.iter().any(|x| lower(x) == "runas") {
                    self.block("privilege escalation (Start-Process -Verb RunAs)");
                }
                self.ask("Start-Process");
                Some(false)
            }
            "busybox" | "toybox" => Some(true),
            _ => None,
        }
    }

    /// Runs `f`, keeping only a `block` it finds: for text that may or may
    /// not be shell (strings in other languages, remote commands).
    pub(super) fn block_only(&mut self, f: impl FnOnce(&mut Self)) {
        // Already blocked: nothing `f` finds can change the verdict.
        if self.settled() {
            return;
        }
        let saved = (
            self.verdict,
            std::mem::take(&mut self.reason),
            self.bases.len(),
            self.any,
        );
        self.verdict = Verdict::Allow;
        f(self);
        let (v, why) = (self.verdict, std::mem::take(&mut self.reason));
        self.verdict = saved.0;
        self.reason = saved.1;
        self.bases.truncate(saved.2);
        self.any = saved.3;
        if v == Verdict::Block {
            self.block(why);
        }
    }
}

/// A shell named alone (`/bin/bash`): what make's recipes run anyway.
pub(super) fn lone_shell(v: &str) -> bool {
    let dir = v.rsplit_once('/').map_or("", |(d, _)| d);
    !v.contains(char::is_whitespace)
        && !v.starts_with(['$', '`'])
        && !v.contains("..")
        && matches!(
            program_name(v).as_str(),
            "sh" | "bash" | "dash" | "zsh" | "ksh" | "mksh" | "ash"
        )
        && (!v.contains('/')
            || matches!(
                dir,
                "/bin"
                    | "/usr/bin"
                    | "/usr/local/bin"
                    | "/opt/homebrew/bin"
                    | "/home/linuxbrew/.linuxbrew/bin"
            ))
}

impl Analyzer<'_> {
    /// Ex commands given on the command line that save (`+wq`, `-c w`):
    /// the files the editor opens are written.
    pub(super) fn editor_writes(&mut self, c: &Cmd<'_>) {
        let mut cmds = Vec::new();
        let mut operands = Vec::new();
        let mut i = 0;
        while i < c.args.len() {
            let x = c.args[i].as_str();
            if matches!(
                x,
                "-c" | "--cmd" | "-S" | "-s" | "-u" | "-i" | "-T" | "-w" | "-W"
            ) {
                if matches!(x, "-c" | "--cmd") {
                    cmds.extend(c.args.get(i + 1).cloned());
                }
                i += 2;
                continue;
            }
            if let Some(cmd) = x.strip_prefix('+') {
                cmds.push(cmd.to_string());
            } else if !x.starts_with('-')
                && let Some(w) = c.arg_word(i)
            {
                operands.push(w.clone());
            }
            i += 1;
        }
        let saves = cmds.iter().flat_map(|m| m.split('|')).any(|m| {
            let t = m.trim().trim_start_matches(':').trim();
            let word: String = t
                .chars()
                .take_while(|ch| ch.is_ascii_alphabetic())
                .collect();
            matches!(
                word.as_str(),
                "w" | "wq"
                    | "x"
                    | "xit"
                    | "wa"
                    | "wall"
                    | "wqa"
                    | "wqall"
                    | "xa"
                    | "xall"
                    | "up"
                    | "update"
                    | "sav"
                    | "saveas"
                    | "write"
                    | "exit"
            )
        });
        if saves {
            for w in &operands {
                self.write_path(w, c.cwd(), &c.base);
            }
        }
    }
}

/// A tool that prints shell settings for `eval` (`ssh-agent -s`, `pyenv
/// init -`, `direnv hook bash`, `brew shellenv`): its output is exports
/// and functions of its own, whatever the project holds.
fn prints_shell_setup(c: &Command) -> bool {
    if !c.redirects.is_empty() || c.stdin_from.is_some() || !c.assigns.is_empty() {
        return false;
    }
    let words: Vec<&str> = c.argv.iter().map(|w| w.text.as_str()).collect();
    if c.argv.iter().any(|w| w.dynamic) {
        return false;
    }
    let shell = |s: &&str| matches!(*s, "bash" | "zsh" | "sh" | "fish" | "-" | "--shell=bash");
    match words.as_slice() {
        ["ssh-agent", "-s" | "-c"] => true,
        ["direnv", "hook" | "export", sh] => shell(sh),
        [
            "pyenv" | "rbenv" | "nodenv" | "goenv" | "jenv" | "plenv",
            "init",
            rest @ ..,
        ] => rest
            .iter()
            .all(|r| matches!(*r, "-" | "--path" | "bash" | "zsh")),
        ["pyenv", "virtualenv-init", "-"] => true,
        [
            "brew" | "/opt/homebrew/bin/brew" | "/home/linuxbrew/.linuxbrew/bin/brew",
            "shellenv",
        ] => true,
        [
            "starship" | "zoxide" | "mise" | "rtx" | "atuin",
            "init" | "activate",
            sh,
            ..,
        ] => shell(sh),
        ["fnm", "env", ..] | ["opam", "env"] | ["dircolors", ..] => true,
        ["conda" | "micromamba", "shell.bash" | "shell.zsh", "hook"] => true,
        _ => false,
    }
}

/// The options that hand code to a shell outside the POSIX family (fish's
/// `-C`/`--init-command` too: it runs before the rest).
fn other_shell_code_flags(lb: &str) -> Option<&'static [&'static str]> {
    Some(match lb {
        "fish" => &["-c", "--command", "-C", "--init-command"],
        "nu" | "nushell" => &["-c", "--commands", "-e", "--execute"],
        "elvish" | "xonsh" => &["-c"],
        _ => return None,
    })
}

/// Where the program begins in screen's arguments: past its options and
/// the values of those that take one (`-S NAME`, bundled `-dmS NAME`).
fn screen_command_at(args: &[String]) -> Option<usize> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if !a.starts_with('-') {
            return Some(i);
        }
        let valued = matches!(
            a.as_str(),
            "-Logfile" | "-c" | "-p" | "-t" | "-T" | "-e" | "-h" | "-s" | "-X"
        ) || a.len() > 1
            && a[1..].chars().all(|ch| ch.is_ascii_alphabetic())
            && a.ends_with('S');
        i += 1 + usize::from(valued);
    }
    None
}
