//! Redirects and assignments: files written or fed in, here-documents run
//! as input, and variables that change what a program runs or loads.

use super::effects::{COMMAND_VARS, INJECT_VARS, LOADER_VARS};
use super::*;

impl Analyzer<'_> {
    pub(super) fn redirects(&mut self, c: &Command, script: &Script, depth: usize) {
        let exec = super::stdin_executors::stdin_executor(c);
        // Through wrappers: `timeout 30 bash < /dev/tcp/…` is still bash.
        let runs_something = peeled(&c.argv).first().is_some_and(|w| {
            let b = program_name(&w.text);
            is_shell(&b)
                || tables::interpreter(&b).is_some()
                || b == "exec"
                || b == "cat"
                || b == "nc"
                || b == "tee"
        });
        for r in &c.redirects {
            let t = &r.target;
            if t.text.starts_with("/dev/tcp/") || t.text.starts_with("/dev/udp/") {
                // A port on this machine that is not Jarvis's (a dev server's
                // health check) is a local conversation, unless a shell or
                // an interpreter is handed to it.
                let mut parts = t.text.split('/').skip(3);
                let (host, port) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
                let loopback = matches!(host, "localhost" | "::1" | "[::1]")
                    || host.starts_with("127.") && host.split('.').count() == 4;
                let jarvis = port.parse::<u16>() == Ok(crate::policy::url::JARVIS_PORT);
                let interpreter = peeled(&c.argv).first().is_some_and(|w| {
                    let b = program_name(&w.text);
                    is_shell(&b) || tables::interpreter(&b).is_some()
                });
                if loopback && jarvis {
                    self.block(format!("talks to Jarvis's own port through {}", t.text));
                    continue;
                }
                if loopback && !t.dynamic && !interpreter && !port.is_empty() {
                    self.ask(format!("talks to a local port through {}", t.text));
                    continue;
                }
                // `bash -i >& /dev/tcp/…`, `exec 3<>/dev/tcp/…`, data sent out.
                if r.op.contains('>') || runs_something || c.stdin_from.is_some() || c.pipes_out {
                    self.block(format!(
                        "opens a network socket through {} (reverse shell or data sent out)",
                        t.text
                    ));
                } else {
                    self.ask(format!("opens a network connection through {}", t.text));
                }
                continue;
            }
            if r.op == "<<<" || r.op == "<<" {
                if let (Some(kind), Some(body)) = (&exec, &r.body) {
                    self.run_input(kind, body, c, script, depth);
                }
                continue;
            }
            let writes = r.op.contains('>') && !r.op.starts_with("<<");
            if writes {
                if (r.op == ">&" || r.op == "<&" || r.op.ends_with('&')) && is_fd(&t.text) {
                    continue;
                }
                self.write_path(t, c.cwd.as_deref(), "a redirect");
                // Code written to a file whose place is known only at run
                // time (`>> "$out"`) may land where something runs it: code
                // that would block as a command blocks there too.
                if t.dynamic
                    && let Some(text) = super::super::eval::printed(c)
                {
                    self.block_only(|a| a.script(&text, &[], depth + 1));
                }
                let heredoc = c
                    .redirects
                    .iter()
                    .find(|h| h.op.starts_with("<<"))
                    .and_then(|h| h.body.as_ref());
                self.editor_autorun(t, c, heredoc);
                if r.op == "<>" {
                    self.read_path(t, c.cwd.as_deref());
                }
            } else {
                if let Some(kind) = &exec {
                    // `bash <&"${F[0]}"`, `sh </dev/fd/3`: code from a pipe the
                    // line opened elsewhere (a coprocess, `exec 3< <(…)`); with
                    // a download or decoder anywhere in the line, that is
                    // where it comes from.
                    let from_fd = r.op == "<&"
                        || t.text.starts_with("/dev/fd/")
                        || t.text.starts_with("/proc/self/fd/");
                    if from_fd
                        && script
                            .commands
                            .iter()
                            .any(|x| self.producer(x) != Producer::Other)
                    {
                        self.block(format!(
                            "download and execute ({kind} reads its code from a file descriptor fed by a download or decoder)"
                        ));
                    }
                    self.run_file(kind, t, c, script);
                }
                if t.dynamic {
                    self.dynamic_secret(t, c.cwd.as_deref());
                } else {
                    let p = self.norm(t, c.cwd.as_deref());
                    if let Some(why) = paths::credential_normalized(&p, &t.text) {
                        self.block(format!("reads a credential: {why}"));
                    } else if self.app_state(&p) {
                        if super::secrets::app_access(&p, self.db_engine.as_deref()) {
                            self.block(format!(
                                "reads Jarvis's configuration or grants ({})",
                                shown(&t.text)
                            ));
                        }
                        self.ask(format!("reads Jarvis's own state ({})", shown(&t.text)));
                    }
                }
            }
        }
    }

    /// A program fed code through a heredoc or here-string.
    pub(super) fn run_input(
        &mut self,
        kind: &str,
        body: &Word,
        c: &Command,
        script: &Script,
        depth: usize,
    ) {
        if let Some(why) = self.code_source(body, script) {
            self.block(format!("{why} ({kind} runs text built at run time)"));
        }
        match kind {
            "make" => self.makefile(&body.text, depth),
            // ed's (and ex's) `!CMD`, `r !CMD`, `w !CMD` lines run CMD in a
            // shell; the rest is judged as any program's text.
            "ed" | "red" | "ex" => {
                for line in body.text.lines() {
                    let cmd = line.trim_start_matches(|ch: char| {
                        ch.is_ascii_digit() || ",$.;: ".contains(ch)
                    });
                    let cmd = cmd
                        .strip_prefix(['r', 'w', 'e', 'E', 'W'])
                        .map(str::trim_start)
                        .filter(|c| c.starts_with('!'))
                        .unwrap_or(cmd);
                    if let Some(shell_line) = cmd.strip_prefix('!') {
                        self.script(shell_line, &[], depth + 1);
                    }
                }
                self.inline_code(kind, &body.text, depth);
            }
            k if is_shell(k) || matches!(k, "at" | "batch" | "eval") => {
                self.script(&body.text, &[], depth + 1)
            }
            k => match super::script_opts::language(k) {
                Some(lang) => self.code_in(lang, &body.text, c.cwd.as_deref(), depth),
                None => self.inline_code(k, &body.text, depth),
            },
        }
        // PowerShell's pipelines read as a shell's (`iwr … | iex`), as
        // with `-Command`.
        if matches!(kind, "pwsh" | "powershell") {
            let code = super::dialects::as_bash(kind, &body.text);
            self.block_only(|a| a.script(&code, &[], depth + 1));
        }
    }

    /// A program that runs a file given on stdin (`sh < x.sh`).
    pub(super) fn run_file(&mut self, kind: &str, t: &Word, c: &Command, script: &Script) {
        if t.procsub {
            if t.subs.iter().any(|&s| {
                script
                    .commands
                    .get(s)
                    .is_some_and(|x| self.producer(x) != Producer::Other)
            }) {
                self.block(format!(
                    "download and execute ({kind} runs the output of a download or decoder)"
                ));
            }
        } else if self.is_tainted(t, c.cwd.as_deref()) {
            self.block(format!(
                "download and execute ({} was downloaded or decoded, then run)",
                shown(&t.text)
            ));
        }
        self.ask(format!("{kind} runs {}", shown(&t.text)));
    }

    /// Downloaded or decoded: the file itself, or inside a folder such an
    /// archive was unpacked into.
    /// Downloaded in this line from somewhere other than a code forge, or
    /// decoded: what an install of it puts in place nobody published.
    pub(super) fn fetched_elsewhere(&self, w: &Word, cwd: Option<&str>) -> bool {
        let p = self.written_as(w, cwd);
        self.is_tainted(w, cwd) && !in_written(&self.forge_fetched, &p)
    }

    pub(super) fn is_tainted(&self, w: &Word, cwd: Option<&str>) -> bool {
        let p = self.written_as(w, cwd);
        self.cloned.iter().any(|t| p.starts_with(t.as_str())) || in_written(&self.tainted, &p)
    }

    /// A path as this line's writes are recorded: `/home/u/work/x.sh` is
    /// the project's `x.sh`.
    pub(super) fn written_as(&self, w: &Word, cwd: Option<&str>) -> String {
        let p = self.norm(w, cwd);
        match self
            .env
            .workdir
            .as_deref()
            .map(|wd| self.norm_text(wd, None))
        {
            Some(wd) => p
                .strip_prefix(&format!("{}/", wd.trim_end_matches('/')))
                .map(str::to_string)
                .unwrap_or(p),
            None => p,
        }
    }

    /// `NAME=value` before a program or on its own.
    pub(super) fn assigns(
        &mut self,
        assigns: &[(String, Word)],
        c: &Command,
        script: &Script,
        depth: usize,
    ) {
        self.git_env_settings(assigns, script, depth);
        for (name, value) in assigns {
            self.history_setting(name, value);
            let up = name.to_ascii_uppercase();
            self.wire_trace(&up, name, value);
            // `TAR_OPTIONS=…`: more of tar's options, judged as if written
            // on a tar line (`--checkpoint-action=exec=CMD`).
            if up == "TAR_OPTIONS" {
                let line = format!("tar {} -f /dev/null", value.text);
                self.block_only(|a| a.script(&line, &[], depth + 1));
            }
            // `BASH_FUNC_ls%%=() { …; }`: every bash started with it runs
            // that body for `ls`; the body is judged as the code it is.
            if up.starts_with("BASH_FUNC_") {
                let body = value.text.trim_start();
                let body = body.strip_prefix("()").unwrap_or(body);
                self.script(body, &[], depth + 1);
                self.ask(format!(
                    "{name} defines a function for every bash it starts"
                ));
                continue;
            }
            // `CDPATH=…` alone and never exported: only this shell's `cd`
            // reads it, and each of those is followed to where it lands.
            if up == "CDPATH" && c.argv.is_empty() && !value.dynamic && !exports(script, "CDPATH") {
                continue;
            }
            // Variables whose value is code an interpreter runs first:
            // Perl's debugger (`PERL5DB`), Lua's `LUA_INIT` (a file when it
            // starts with `@`), judged as a one-liner of that language.
            let code_lang = match up.as_str() {
                "PERL5DB" => Some("perl"),
                u if u.starts_with("LUA_INIT") && !value.text.starts_with('@') => Some("lua"),
                _ => None,
            };
            if let Some(lang) = code_lang {
                self.inline_code(lang, &value.text, depth);
                self.ask(format!(
                    "sets {name}, code {lang} runs before anything else"
                ));
                continue;
            }
            // Home moved for a program: it reads its startup files there
            // (`HOME=. gdb` runs `./.gdbinit`, psql `./.psqlrc`, exiftool
            // `./.ExifTool_config`), files the line may have written.
            if matches!(up.as_str(), "HOME" | "XDG_CONFIG_HOME" | "EXIFTOOL_HOME")
                && !c.argv.is_empty()
            {
                let p = self.norm_text(&value.text, c.cwd.as_deref());
                if value.dynamic || p != "~" {
                    self.ask(format!(
                        "{name} moved: the program reads its startup files from {}",
                        shown(&value.text)
                    ));
                }
            }
            if up == "PERLDB_OPTS" && lower(&value.text).contains("remoteport") {
                self.block(format!(
                    "{name} connects Perl's debugger to a network port (a remote shell)"
                ));
                continue;
            }
            if INJECT_VARS.contains(&up.as_str()) {
                self.injected_library(name, value, c, script);
            } else if COMMAND_VARS.contains(&up.as_str()) {
                let text = value.text.trim_start_matches('|').replace("%s", "");
                // A prompt is text the shell expands, not a command: only
                // the substitutions in it run.
                let text = if matches!(up.as_str(), "PS0" | "PS1" | "PS2" | "PS4") {
                    format!(": \"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
                } else {
                    text
                };
                let code = Word {
                    text,
                    ..value.clone()
                };
                let v = self.judged(|a| a.shell_code(&code, &[], script, depth));
                if v != Verdict::Allow {
                    self.ask(format!("sets {name}, which runs a program"));
                }
            } else if LOADER_VARS.contains(&up.as_str()) || up.starts_with("GIT_CONFIG_") {
                let loads_download = value.procsub
                    && value.subs.iter().any(|&s| {
                        script
                            .commands
                            .get(s)
                            .is_some_and(|x| self.producer(x) != Producer::Other)
                    });
                if loads_download || self.is_tainted(value, c.cwd.as_deref()) {
                    self.block(format!(
                        "download and execute ({name} loads code that was downloaded or decoded)"
                    ));
                }
                self.preloaded_files(&up, value, c.cwd.as_deref(), depth);
                if let Some(dir) = shared_scratch_dir(&up, &value.text) {
                    self.block(format!(
                        "{name} loads code from {dir}, a folder every user and process can write to"
                    ));
                }
                // `PERL5OPT='-M5;system(…)'`, `NODE_OPTIONS=--import=data:…`:
                // the options are code the interpreter runs first, judged
                // as a one-liner of its language.
                let lang = match up.as_str() {
                    "PERL5OPT" => Some("perl"),
                    "RUBYOPT" => Some("ruby"),
                    "NODE_OPTIONS" => Some("node"),
                    _ => None,
                };
                if let Some(lang) = lang {
                    self.inline_code(lang, &value.text, depth);
                }
                self.ask(format!("sets {name}, which changes what programs load"));
            } else if up.ends_with("_COMMAND")
                || up.ends_with("_CMD")
                || up.ends_with("_SHELL")
                || up.ends_with("_HOOK")
            {
                let v = self.judged(|a| a.shell_code(value, &[], script, depth));
                if v != Verdict::Allow {
                    self.ask(format!("sets {name}, which may run a program"));
                }
            } else if up.ends_with("_OPTIONS")
                || up.ends_with("_OPTS")
                || up.ends_with("_CONFIG")
                || up.ends_with("RC")
                || up.ends_with("_CONFIG_PATH")
            {
                self.ask(format!("sets {name}, which changes how a program behaves"));
            }
            // `RUFF_OUTPUT_FILE=~/.bashrc`, `PIP_LOG=F`: a file the program
            // writes, judged as any write (a startup file blocks).
            let output = [
                "OUTPUT_FILE",
                "_OUTPUT",
                "_LOG",
                "LOG_FILE",
                "_LOGFILE",
                "_LOG_PATH",
            ]
            .iter()
            .any(|s| up.ends_with(s));
            // (A level, `RUST_LOG=debug`, or a format is no file.)
            // (`RUST_LOG=a.b=debug` names modules and levels.)
            let pathish = value.text.contains('/')
                || value.text.starts_with('~')
                || value.text.contains('.') && !value.text.contains(['=', ',']);
            let applies = !c.argv.is_empty() || exports(script, name) || script_sets_all(script);
            if output && pathish && applies {
                self.write_path(value, c.cwd.as_deref(), name);
            }
            if !value.dynamic {
                for cand in path_candidates(&value.text) {
                    let p = self.norm_text(&paths::word_path(&cand, false), c.cwd.as_deref());
                    if let Some(why) = paths::credential_normalized(&p, &cand) {
                        self.block(format!("touches a credential: {why}"));
                    }
                    if self.app_state(&p) {
                        self.block(format!("aims at Jarvis's own state ({})", shown(&cand)));
                    }
                }
            }
        }
    }
}

impl Analyzer<'_> {
    /// Variables that make a program print its traffic (`GIT_TRACE_CURL`,
    /// `GIT_CURL_VERBOSE`, `SSLKEYLOGFILE`): the headers carry the tokens.
    /// Turning the redaction of those traces off is asking for the tokens.
    fn wire_trace(&mut self, up: &str, name: &str, value: &Word) {
        let v = lower(value.text.trim_matches(['"', '\'']));
        let off = matches!(v.as_str(), "0" | "false" | "no" | "off" | "");
        if up.contains("REDACT") {
            // Only a plain "on" keeps the redaction: `00`, `0x0`, a value
            // known at run time may all read as off.
            if value.dynamic || !matches!(v.as_str(), "1" | "true" | "yes" | "on") {
                self.block(format!(
                    "reveals credentials ({name} turns off the redaction of tokens in traces)"
                ));
            }
            return;
        }
        let traces = up.starts_with("GIT_TRACE")
            || up == "GODEBUG" && v.contains("http")
            || up.starts_with("CLOUDSDK_CORE_LOG_HTTP")
            || matches!(
                up,
                "GIT_CURL_VERBOSE"
                    | "SSLKEYLOGFILE"
                    | "CURL_VERBOSE"
                    | "NODE_DEBUG"
                    | "HTTPS_DEBUG"
            );
        if traces && !off {
            self.ask(format!(
                "{name} traces network traffic, whose headers carry tokens"
            ));
        }
    }

    /// Files an interpreter's options variable makes every run load first
    /// (`NODE_OPTIONS='--require F'`, `-javaagent:F`, `RUBYOPT=-rF`,
    /// `PYTHONSTARTUP=F`): one from outside the project and the system
    /// blocks, as a library preload does.
    fn preloaded_files(&mut self, var: &str, value: &Word, cwd: Option<&str>, depth: usize) {
        let words: Vec<&str> = value.text.split_whitespace().collect();
        let mut files: Vec<String> = Vec::new();
        for (i, w) in words.iter().enumerate() {
            let next = words.get(i + 1).map(|x| x.to_string());
            match *w {
                "--require" | "-r" | "--import" | "--loader" | "--experimental-loader" => {
                    files.extend(next);
                }
                _ => {
                    for p in [
                        "--require=",
                        "--import=",
                        "--loader=",
                        "--experimental-loader=",
                        "-javaagent:",
                        "-agentpath:",
                    ] {
                        if let Some(f) = w.strip_prefix(p) {
                            files.push(f.split('=').next().unwrap_or(f).to_string());
                        }
                    }
                    if var == "RUBYOPT"
                        && let Some(f) = w.strip_prefix("-r").filter(|f| f.contains('/'))
                    {
                        files.push(f.to_string());
                    }
                }
            }
        }
        // Files (or a folder of rc files) every shell or interpreter reads first.
        if matches!(var, "PYTHONSTARTUP" | "BASH_ENV" | "ENV" | "ZDOTDIR") {
            files.push(value.text.clone());
        }
        for f in files {
            // A file this line wrote is judged by what it wrote, as code of
            // the program that loads it.
            if let Some(text) = self.written_text(&Word::lit(&f), cwd) {
                match var {
                    "BASH_ENV" | "ENV" => self.script(&text, &[], depth + 1),
                    "PYTHONSTARTUP" => self.inline_code("python3", &text, depth),
                    "NODE_OPTIONS" => self.inline_code("node", &text, depth),
                    "RUBYOPT" => self.inline_code("ruby", &text, depth),
                    "PERL5OPT" => self.inline_code("perl", &text, depth),
                    _ => {}
                }
            }
            let p = self.norm_text(&paths::word_path(&f, false), cwd);
            let is_path = f.contains('/') || f.starts_with('.');
            // (An agent from the build tool's own cache, `~/.m2/repository`'s
            // jacoco, is a registry's code the build runs anyway.)
            let system = ["/usr/", "/lib/", "/opt/"].iter().any(|d| p.starts_with(d))
                || paths::download_cache(&p);
            if value.dynamic || is_path && !self.inside(&p) && !system {
                self.block(format!(
                    "{var} loads code from outside the project into every run ({})",
                    shown(&f)
                ));
            }
        }
    }
}

/// A code search path (`PERL5LIB`, `GIT_EXEC_PATH`, `PATH`…) with an entry
/// in a folder anyone can write to: whatever was dropped there runs.
fn shared_scratch_dir(var: &str, value: &str) -> Option<String> {
    const SEARCHED: &[&str] = &[
        "PYTHONPATH",
        "PYTHONHOME",
        "PYTHONSTARTUP",
        "PYTHONUSERBASE",
        "PERL5LIB",
        "PERLLIB",
        "RUBYLIB",
        "NODE_PATH",
        "LD_LIBRARY_PATH",
        "GCONV_PATH",
        "GIT_EXEC_PATH",
        "GIT_TEMPLATE_DIR",
        "PATH",
        "CLASSPATH",
        "BASH_ENV",
        "ENV",
        "ZDOTDIR",
        "DOTNET_STARTUP_HOOKS",
        "GROFF_BIN_PATH",
    ];
    if !SEARCHED.contains(&var) {
        return None;
    }
    value.split(':').find_map(|entry| {
        let e = paths::normalize(entry.trim_matches(['"', '\'']), None);
        ["/tmp", "/var/tmp", "/dev/shm"]
            .iter()
            .any(|d| paths::under_dir_exact(&e, d))
            .then_some(e)
    })
}

impl Analyzer<'_> {
    /// A VS Code task set to run when the folder opens (`"runOn":
    /// "folderOpen"`) runs its command outside this sandbox, the next time
    /// anyone opens the project: persistence, as a git hook is.
    fn editor_autorun(&mut self, target: &Word, c: &Command, body: Option<&Word>) {
        let t = lower(&target.text).replace('\\', "/");
        let text = c
            .argv
            .iter()
            .map(|w| w.text.as_str())
            .chain(body.map(|b| b.text.as_str()))
            .collect::<Vec<_>>()
            .join(" ");
        // A terminal's settings that name the program its windows run.
        const TERMINALS: &[&str] = &[
            "/.config/kitty/",
            "/.config/alacritty/",
            "/.alacritty.",
            "/.config/foot/",
            "/.config/terminator/",
            "/.config/ghostty/",
            "/.config/xfce4/terminal/",
        ];
        let runs = [
            "shell",
            "program",
            "command",
            "exec",
            "launch",
            "startup",
            "default_prog",
        ];
        if TERMINALS.iter().any(|d| t.contains(d)) && runs.iter().any(|k| lower(&text).contains(k))
        {
            self.block(format!(
                "persistence ({} gets a program its terminal windows run)",
                shown(&target.text)
            ));
            return;
        }
        if let Some(line) = commanding_modeline(&text) {
            self.block(format!(
                "persistence ({} gets a vim modeline that runs a command whenever the file is opened: {line})",
                shown(&target.text)
            ));
            return;
        }
        if !(t.ends_with(".vscode/tasks.json") || t.ends_with(".code-workspace")) {
            return;
        }
        if lower(&text).contains("folderopen") {
            self.block(format!(
                "persistence ({} gets a task that runs when the folder is opened)",
                shown(&target.text)
            ));
        }
    }
}

/// A vim modeline (`vim: set fde=system("…") :`) that sets an expression
/// option: vim evaluates it when the file is opened (`modelineexpr` is off
/// by default, and such modelines have escaped its sandbox:
/// `fde=assert_fails("source!\ %")`).
pub(super) fn commanding_modeline(text: &str) -> Option<String> {
    const EXPRESSIONS: &[&str] = &[
        "fde",
        "foldexpr",
        "fdt",
        "foldtext",
        "inde",
        "indentexpr",
        "inex",
        "includeexpr",
        "fex",
        "formatexpr",
        "stl",
        "statusline",
        "tal",
        "tabline",
        "ccv",
        "charconvert",
        "pex",
        "patchexpr",
        "dex",
        "diffexpr",
        "kp",
        "keywordprg",
    ];
    const CALLS: &[&str] = &[
        "system(",
        "systemlist(",
        "libcall",
        "execute(",
        "jobstart(",
        "job_start(",
        "term_start(",
        "call(",
        // What runs Ex commands or other languages from an expression, or
        // calls a function by name or through backticks.
        "assert_fails(",
        "source!",
        "source\\!",
        // (Each at a name's start: `MyEval(` is the user's own function.)
        " function(",
        "=function(",
        "(function(",
        "=funcref(",
        "=expand(",
        "(expand(",
        "=glob(",
        "(glob(",
        "=eval(",
        "(eval(",
        "feedkeys(",
        "timer_start(",
        "writefile(",
        "luaeval(",
        "py3eval(",
        "pyeval(",
        "rubyeval(",
        "perleval(",
        "v:lua",
        "nvim_exec",
        "nvim_command",
    ];
    text.lines().find_map(|line| {
        let l = lower(line);
        // `vim:`, `vi:`, `ex:`, `vim600:` after a blank or a comment's mark
        // (not `index:` nor `reindex=`).
        let at = l.match_indices(':').find_map(|(i, _)| {
            let head = l[..i].trim_end_matches(|c: char| c.is_ascii_digit());
            let word = ["vim", "vi", "ex", "nvim"]
                .iter()
                .find(|m| head.ends_with(*m))?;
            let before = head[..head.len() - word.len()].chars().next_back();
            before
                .is_none_or(|c| c.is_whitespace() || "#\"/*;-%!".contains(c))
                .then_some(i + 1)
        })?;
        let rest = &l[at..];
        let option = rest
            .split(|c: char| c.is_whitespace() || c == ':')
            .filter_map(|o| o.split_once('=').map(|(k, _)| k))
            .any(|k| EXPRESSIONS.contains(&k));
        (option && CALLS.iter().any(|k| rest.contains(k)))
            .then(|| line.trim().chars().take(80).collect())
    })
}

/// `p` is one of `written`, inside a folder of it, or (`./`) in the
/// working directory itself.
fn in_written(written: &[String], p: &str) -> bool {
    written.iter().any(|t| {
        *t == p
            || (t.ends_with('/') && p.starts_with(t.as_str()))
            || (t == "./" && !p.starts_with(['/', '~']) && !p.starts_with(".."))
    })
}

/// Whether the line exports `name` (or everything, `set -a`).
fn exports(script: &Script, name: &str) -> bool {
    script.commands.iter().any(|k| {
        let first = k.argv.first().map(|w| w.text.as_str());
        matches!(
            first,
            Some("export" | "declare" | "typeset" | "local" | "readonly" | "set" | "env")
        ) && (k.argv.iter().any(|w| {
            w.dynamic
                || w.text.contains(name)
                || w.text.contains("allexport")
                || w.text.starts_with('-') && (w.text.contains('a') || w.text.contains('x'))
        }) || k.assigns.iter().any(|(n, _)| n == name))
    })
}

impl Analyzer<'_> {
    /// `LD_PRELOAD=./build/libfaketime.so ./build/app`: a library the
    /// project built, loaded into the project's own program, is the
    /// project's code (asked). Anywhere else, a library known at run time,
    /// one this line downloaded, or one loaded into a program that
    /// escalates or into Jarvis is an injection.
    fn injected_library(&mut self, name: &str, value: &Word, c: &Command, script: &Script) {
        let program = peeled(&c.argv)
            .first()
            .map(|w| w.text.clone())
            .unwrap_or_default();
        let own = |t: &str| {
            let t = t.trim_start_matches("./");
            !t.is_empty() && !t.starts_with(['/', '~', '$', '.']) && !t.contains("..")
        };
        let libraries_own = !value.dynamic
            && value
                .text
                .split([':', ' '])
                .filter(|t| !t.is_empty())
                .all(|t| own(t) && !self.is_tainted(&Word::lit(t), c.cwd.as_deref()));
        let program_own = (program.starts_with("./") || program.contains('/') && own(&program))
            && own(&program)
            && !self.mentions_self(&Word::lit(program.clone()));
        let exported = c.argv.is_empty() || exports(script, name);
        if libraries_own && program_own && !exported {
            self.ask(format!(
                "{name} loads the project's library into its program"
            ));
        } else {
            self.block(format!(
                "{name} injects a library into every program it starts"
            ));
        }
    }
}

/// `set -a`: every assignment after it is exported.
fn script_sets_all(script: &Script) -> bool {
    script.commands.iter().any(|k| {
        k.argv.first().is_some_and(|w| w.text == "set")
            && k.argv
                .iter()
                .skip(1)
                .any(|w| w.text == "-a" || w.text == "-o" || w.text == "allexport")
    })
}
