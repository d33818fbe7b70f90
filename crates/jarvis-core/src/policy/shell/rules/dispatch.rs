//! One command: aliases and functions followed, wrappers peeled, and
//! the real program judged by the rule for it.

use super::*;

impl Analyzer<'_> {
    pub(super) fn command(&mut self, c: &Command, script: &Script, depth: usize) {
        self.redirects(c, script, depth);
        self.assigns(&c.assigns, c, script, depth);
        if c.argv.is_empty() {
            return;
        }
        self.any = true;
        self.masquerade(c);
        let name = c.argv[0].text.clone();
        if !c.argv[0].dynamic {
            if let Some(body) = self
                .aliases
                .iter()
                .rev()
                .find(|(n, _)| *n == name)
                .map(|(_, b)| b.clone())
            {
                let rest = Word::join(&c.argv[1..]);
                let text = self.where_it_runs(&format!("{body} {rest}"));
                self.script(&text, &[], depth + 1);
                return;
            }
            if let Some(body) = self
                .bodies_now
                .iter()
                .chain(self.functions.iter().rev())
                .find(|(n, _)| *n == name)
                .map(|(_, b)| b.clone())
                .filter(|_| !self.hidden_fns.contains(&name))
            {
                if self.inlining.contains(&name) {
                    return;
                }
                self.inlining.push(name.clone());
                if self.calls >= 8 {
                    // Past the budget, the body as if its arguments were unknown.
                    self.script(&body, &[], depth + 1);
                    self.inlining.pop();
                    return;
                }
                self.calls += 1;
                // Arguments known only at run time leave `$1`… unknown.
                let mut positional = vec![name.clone()];
                positional.extend(c.argv[1..].iter().map(|w| w.text.clone()));
                if c.argv[1..].iter().any(|w| w.dynamic) {
                    positional.clear();
                }
                let body = if c.argv[1..].iter().any(|w| w.dynamic) || !functions::plain_body(&body)
                {
                    body
                } else {
                    functions::with_arguments(&body, &positional[1..])
                };
                // Called after a `cd`: the body runs there.
                let body = self.where_it_runs(&body);
                self.script(&body, &positional, depth + 1);
                self.inlining.pop();
                return;
            }
            // Defined in a branch: the call may run the body, for what
            // blocks, or a program of that name, judged below.
            if let Some(body) = self
                .maybe_functions
                .iter()
                .rev()
                .find(|(n, _)| *n == name)
                .map(|(_, b)| b.clone())
                && self.calls < 8
            {
                self.calls += 1;
                let args: Vec<String> = c.argv[1..].iter().map(|w| w.text.clone()).collect();
                let known = !c.argv[1..].iter().any(|w| w.dynamic) && functions::plain_body(&body);
                let body = if known {
                    functions::with_arguments(&body, &args)
                } else {
                    body
                };
                let mut positional = vec![name.clone()];
                positional.extend(args);
                let body = self.where_it_runs(&body);
                self.block_only(|a| a.script(&body, &positional, depth + 1));
            }
        }
        self.run_words(c.argv.clone(), c, script, depth);
    }

    /// Peels wrappers and judges the real program.
    pub(super) fn run_words(
        &mut self,
        mut words: Vec<Word>,
        c: &Command,
        script: &Script,
        depth: usize,
    ) {
        // `env X=1` before the program gives it X; the wrapper's
        // assignments end with this command.
        let given = self.env_given.len();
        if self.peel_to_program(&mut words, c, script, depth) {
            self.judge_program(words, c, script, depth);
        }
        self.env_given.truncate(given);
    }

    /// The assignments in force for `c`'s program: its prefix and env's.
    fn assigns_for<'a>(&self, c: &'a Command) -> std::borrow::Cow<'a, [(String, Word)]> {
        if self.env_given.is_empty() {
            std::borrow::Cow::Borrowed(&c.assigns)
        } else {
            std::borrow::Cow::Owned(c.assigns.iter().chain(&self.env_given).cloned().collect())
        }
    }

    /// Peels `env`, `sudo` on a remote host and other wrappers off `words`;
    /// false when what is left was judged already (a name only known at run
    /// time, an obfuscated one, a downloaded file, privilege).
    fn peel_to_program(
        &mut self,
        words: &mut Vec<Word>,
        c: &Command,
        script: &Script,
        depth: usize,
    ) -> bool {
        loop {
            let Some(first) = words.first() else {
                return false;
            };
            if first.dynamic {
                // `$cmd …`, `$(…) …`: the program is only known at run time.
                self.bases.push(shown(&first.text));
                if self.fetched(first, script) {
                    self.block("download and execute (a fetched command is run)");
                } else if !self.guessed {
                    self.block(format!(
                        "runs a program whose name is only known at run time ({})",
                        shown(&first.text)
                    ));
                }
                return false;
            }
            if first.text.is_empty() {
                return false;
            }
            // A brace expansion that made the name (`x=1 {cat,f}` runs `cat`);
            // a `}` closing a group is no expansion.
            let expanded = first.brace && !first.text.contains(['{', '}']);
            // In text that may only be code, a name spelled so is as likely
            // a pattern, a formula or a quoted argument as a disguise
            // (`file('logs/a.tsv', …)`, `$total = $qty * $price`).
            // A wildcard there still names what it matches: each program of
            // consequence it could be (`'/???/?m -rf ~/x'`) is judged.
            if self.guessed && first.glob && !first.computed {
                let pattern = base_str(&first.text).to_string();
                for name in MATCHABLE {
                    if paths::glob_match(&pattern, name) {
                        let mut as_name = words.clone();
                        as_name[0] = Word::lit(*name);
                        self.block_only(|a| a.run_words(as_name, c, script, depth));
                    }
                }
                return false;
            }
            if (first.computed || first.spliced || first.glob || expanded) && !self.guessed {
                self.bases.push(shown(&first.text));
                let how = if first.glob {
                    "a wildcard"
                } else if expanded {
                    "a brace expansion"
                } else if first.computed {
                    "variables, substitutions or escapes"
                } else {
                    "quotes or escapes inside the name"
                };
                self.block(format!(
                    "obfuscated program name ({} spelled with {how})",
                    shown(&first.text)
                ));
                return false;
            }
            let mut base = base_name(&first.text);
            let as_path = paths::normalize(&paths::word_path(&first.text, false), c.cwd.as_deref());
            if let Some((_, real)) = self
                .renamed
                .iter()
                .rev()
                .find(|(n, _)| *n == first.text || *n == as_path)
            {
                base = real.clone();
            }
            let lb = lower(&base);
            // A downloaded file run by its path, whatever it is named
            // (`./kit/start` is a file, not Windows's `start`).
            if first.text.contains('/') && self.is_tainted(first, c.cwd.as_deref()) {
                self.bases.push(shown(&first.text));
                self.block(format!(
                    "download and execute ({} was downloaded or decoded, then run)",
                    shown(&first.text)
                ));
                return false;
            }
            // `sudo --version`: the program asked only what it is.
            let asks_version = words.len() > 1
                && words[1..]
                    .iter()
                    .all(|w| matches!(w.text.as_str(), "--version" | "-V" | "--help"));
            if tables::PRIVILEGE.contains(&lb.as_str()) && asks_version {
                return true;
            }
            if tables::PRIVILEGE.contains(&lb.as_str()) && self.remote {
                // `sudo` on another machine: judge what it runs there.
                words.remove(0);
                while words.first().is_some_and(|w| w.text.starts_with('-')) {
                    let flag = words.remove(0).text;
                    if matches!(flag.as_str(), "-u" | "-g" | "-U" | "-C" | "-h" | "-p")
                        && !words.is_empty()
                    {
                        words.remove(0);
                    }
                }
                continue;
            }
            if tables::PRIVILEGE.contains(&lb.as_str()) {
                self.bases.push(base.clone());
                self.block(format!("privilege escalation ({base})"));
                return false;
            }
            if lb == "env" {
                match self.env_wrapper(words, c, script, depth) {
                    Some(true) => continue,
                    _ => return false,
                }
            }
            // `mpirun --version`: the wrapper asked what it is runs nothing.
            if let Some(takes) = tables::wrapper(&lb).filter(|_| !asks_version) {
                if !self.peel_wrapper(&lb, takes, words, c, script, depth) {
                    return false;
                }
                continue;
            }
            return true;
        }
    }

    /// The program at `words[0]`, with its arguments: run from a file this
    /// line wrote or downloaded, and judged by its own rule.
    fn judge_program(&mut self, words: Vec<Word>, c: &Command, script: &Script, depth: usize) {
        let base = {
            let first = &words[0].text;
            let b = base_name(first);
            let as_path = paths::normalize(&paths::word_path(first, false), c.cwd.as_deref());
            self.renamed
                .iter()
                .rev()
                .find(|(n, _)| n == first || *n == as_path)
                .map(|(_, r)| r.clone())
                .unwrap_or(b)
        };
        if words[0].text.contains('/')
            && let Some(text) = self.written_text(&words[0], c.cwd.as_deref())
        {
            self.script(&text, &[], depth + 1);
        }
        if words[0].text.contains('/') && depth > 0 {
            let staged = Cmd {
                lb: lower(&base),
                base: base.clone(),
                args: vec![],
                words: vec![words[0].clone()],
                assigns: self.assigns_for(c),
                src: c,
                script,
                depth,
            };
            self.staged_from_inside(&words[0], &staged);
        }
        if words[0].text.contains('/') && self.is_tainted(&words[0], c.cwd.as_deref()) {
            self.block(format!(
                "download and execute ({} was downloaded or decoded, then run)",
                shown(&words[0].text)
            ));
        }
        let cmd = Cmd {
            lb: lower(&base),
            base: base.clone(),
            args: words[1..].iter().map(|w| w.text.clone()).collect(),
            words,
            assigns: self.assigns_for(c),
            src: c,
            script,
            depth,
        };
        let mine = self.judged(|a| {
            let handled = positions::handled_positions(&cmd);
            a.words_secrets(&cmd, &handled);
            let read_only = a.program(&cmd);
            if !read_only {
                a.ask(format!("runs {}", shown(&cmd.base)));
            }
        });
        if mine >= Verdict::Ask {
            self.bases.push(base);
        }
    }

    /// Judges the program itself; true when this invocation is provably read-only.
    fn program(&mut self, c: &Cmd<'_>) -> bool {
        // (Once blocked, nothing found later changes the verdict or its
        // reason, the first block's: the rest is not judged.)
        self.written_code(c);
        if self.settled() {
            return false;
        }
        self.command_options(c);
        self.public_drop(c);
        self.remote_store_wipe(c);
        self.cloud_grants(c);
        self.credentials_to_named_server(c);
        self.journal_includes(c);
        self.embedded_file_urls(c);
        self.forge_access(c);
        if self.settled() {
            return false;
        }
        let lb = c.lb.as_str();
        if only_asks_for_help(c) {
            return true;
        }
        self.subscript_code(c);
        if self.settled() {
            return false;
        }
        // `bash -n script.sh`: the script is parsed, never run (in the
        // POSIX family; Nushell's `-n` only skips its config).
        if matches!(
            lb,
            "sh" | "bash" | "dash" | "ksh" | "mksh" | "zsh" | "yash" | "posh" | "fish"
        ) && c.args.len() == 2
            && c.args[0] == "-n"
            && let Some(f) = c.arg_word(1).cloned()
            && !f.text.starts_with('-')
        {
            return self.read_path(&f, c.cwd());
        }
        if is_shell(lb) {
            self.shell(c);
            return false;
        }
        if let Some(read_only) = self
            .python_inspects(c)
            .or_else(|| self.go_inspects(c))
            .or_else(|| self.tool_inspects(c))
            .or_else(|| self.jvm_inspects(c))
        {
            return read_only;
        }
        self.console_code(c);
        if tables::interpreter(lb).is_some() && !matches!(lb, "gawk") {
            self.interpreter(c);
            return false;
        }
        if let Some(decided) = self.long_tail(c) {
            return decided;
        }
        if let Some(decided) = self.executor(c) {
            return decided;
        }
        if let Some(decided) = self.system_program(c) {
            return decided;
        }
        if let Some(decided) = self.file_program(c) {
            return decided;
        }
        if let Some(decided) = self.net_program(c) {
            return decided;
        }
        if lb == "git" {
            return self.git(c);
        }
        if lb == "openssl" {
            return self.openssl(c);
        }
        if let Some(role) = tables::read_only(lb) {
            let read_only = self.read_only(c, role);
            // Settings tools read and write: a value they store may be a
            // command something runs later (a keybinding's `command`).
            // (And the inspectors given more than their reading options:
            // `pandoc -o F`, `tcpdump -w F` name files as any program does.)
            if !read_only
                && matches!(
                    lb,
                    "gsettings"
                        | "xdg-mime"
                        | "udevadm"
                        | "ffprobe"
                        | "identify"
                        | "pdfinfo"
                        | "pdftotext"
                        | "xmllint"
                        | "texcount"
                        | "pg_restore"
                        | "hadolint"
                        | "mediainfo"
                        | "soxi"
                        | "qpdf"
                        | "pandoc"
                        | "tcpdump"
                )
            {
                self.unknown(c);
            }
            return read_only;
        }
        self.unknown(c);
        false
    }

    /// A program the rules do not know: anything it names that is a
    /// credential, a disk or Jarvis's state counts against it.
    fn unknown(&mut self, c: &Cmd<'_>) {
        let text = positions::text_positions(c);
        let mut suffixes = 0;
        for (k, w) in c.words.iter().enumerate().skip(1) {
            if w.dynamic || text.contains(&(k - 1)) {
                continue;
            }
            for cand in path_candidates(&w.text) {
                // (`qemu-nbd -c /dev/nbd0 disk.qcow2`: the image attached
                // as a local NBD device, the device it makes.)
                let own_nbd = c.lb == "qemu-nbd" && cand.starts_with("/dev/nbd");
                if paths::device(&cand) && !own_nbd {
                    self.block(format!("{} touches the disk device {cand}", c.base));
                }
            }
            // A cloud's metadata service or Jarvis's own port, whatever
            // program is pointed at it (`chromium --dump-dom http://169.254…`).
            let l = w.text.to_ascii_lowercase();
            if l.starts_with("http://") || l.starts_with("https://") {
                self.url(&w.text);
            }
            // What an unknown program may run: an argument that is a command
            // line (`--exec 'curl … | sh'`), or the rest of the line from a
            // program's name (`tool rm -rf ~`). Only what blocks counts.
            // (An image tool's commands run inside the image: `virt.rs`
            // judges them as a guest's.)
            let in_guest = matches!(
                c.lb.as_str(),
                "virt-customize" | "virt-builder" | "virt-sysprep"
            );
            // OpenOCD's words are its own Tcl (`-c 'init; reset; shutdown'`):
            // `flashers.rs` judges them, `exec` as the program it runs.
            let own_language = c.lb == "openocd";
            if w.text.contains(' ') && !w.text.starts_with('-') && !in_guest && !own_language {
                // A JSON document (`-d '{"name": "x"}'`) is data; a command
                // line may still sit in one of its strings.
                let guessed = std::mem::replace(&mut self.guessed, true);
                for code in json_strings(&w.text).unwrap_or_else(|| vec![w.text.clone()]) {
                    if code.contains(' ') {
                        self.block_only(|a| a.script(&code, &[], c.depth + 1));
                    }
                    // A template's or expression's string naming a key file
                    // (`{{ lookup('file', '~/.netrc') }}`): what it reads.
                    for s in argument_literals(&code) {
                        let p = self.norm_text(&s, None);
                        if let Some(why) = paths::credential_normalized(&p, &s) {
                            self.block(format!(
                                "{} is handed code that reads a credential: {why}",
                                c.base
                            ));
                        }
                    }
                }
                self.guessed = guessed;
            }
            // A bare interpreter's name is a word like any other (`apt-cache
            // policy nodejs`): nothing says this program starts it. Fed
            // from a download or a decoder, the input is code for it
            // (`curl … | dumb-init sh`).
            let interpreter_name = k + 1 == c.words.len() && {
                let n = program_name(&w.text);
                is_shell(&n) || tables::interpreter(&n).is_some()
            };
            let fed = c
                .src
                .stdin_from
                .and_then(|i| c.script.commands.get(i))
                .map(|p| self.producer(p));
            if interpreter_name && fed.is_some_and(|p| p != Producer::Other) {
                self.block(format!(
                    "download and execute ({} hands its input, from a download or a decoder, to {})",
                    c.base,
                    shown(&w.text)
                ));
            }
            // An interpreter's name with options only after it (`xmake lua
            // --command=…`) is no program run with code.
            let n = program_name(&w.text);
            let bare_interpreter = (interpreter_name
                || (is_shell(&n) || tables::interpreter(&n).is_some())
                    && c.words[k + 1..].iter().all(|x| x.text.starts_with('-')))
                && c.src.stdin_from.is_none();
            // `bazel shutdown`: a lone word after the program is its verb
            // (unless it is one that stops the machine on its own).
            let lone_verb = k == 1
                && c.words.len() == 2
                && !matches!(
                    program_name(&w.text).as_str(),
                    "poweroff" | "reboot" | "halt" | "kexec"
                );
            // A relative path (`mosquitto/config/passwd`) names a file of
            // the project, not the system program of that name.
            // (Unless this line downloaded or wrote it: then it is run.)
            let relative_path = w.text.contains('/')
                && !w.text.starts_with(['/', '~', '$'])
                && self.inside(&self.norm(w, c.cwd()))
                && !w.text.split('/').any(|part| part == "..")
                && !self.is_tainted(w, c.cwd())
                && self.written_text(w, c.cwd()).is_none();
            // A tool's own verb spelled like a shell builtin (`apptainer exec
            // IMAGE cmd`, `… time`, `… command`):
            // the next word is its image or container, not a program; the
            // command after it is tried as a suffix of its own.
            let tool_verb = matches!(w.text.as_str(), "exec" | "command" | "builtin" | "time");
            if suffixes < 3
                && !own_language
                && !w.text.starts_with('-')
                && !relative_path
                && !tool_verb
                && !bare_interpreter
                && !lone_verb
                && known_program(&program_name(&w.text))
            {
                suffixes += 1;
                let rest: Vec<Word> = c.words[k..].to_vec();
                self.block_only(|a| a.run_words(rest, c.src, c.script, c.depth + 1));
            }
        }
    }
}

/// `gdb --version`, `meson --help`: a program asked only for its version
/// or help.
fn only_asks_for_help(c: &Cmd<'_>) -> bool {
    let lb = c.lb.as_str();
    const ASKS_FOR_HELP: &[&str] = &[
        "--version",
        "-V",
        "--help",
        "-h",
        "version",
        "-v",
        "help",
        "-vV",
        "-version",
    ];
    let help_only = !c.args.is_empty()
        && c.args.len() <= 2
        && c.args.iter().any(|x| ASKS_FOR_HELP.contains(&x.as_str()))
        && c.args
            .iter()
            .all(|x| ASKS_FOR_HELP.contains(&x.as_str()) || x == "--verbose");
    // Any program on the PATH asked only for its version or help in the
    // long spelling (`gdb --version`, `meson --help`); the short ones
    // (`-v`, `-h`) mean other things to programs the rules do not know.
    let long_help = c
        .args
        .iter()
        .all(|x| matches!(x.as_str(), "--version" | "--help" | "-version" | "-help"));
    help_only
        && !c.words[0].text.contains('/')
        && (tables::KNOWN_TOOLS.contains(&lb)
            || tables::read_only(lb).is_some()
            || tables::interpreter(lb).is_some()
            || is_shell(lb)
            || long_help)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::policy::shell) enum Producer {
    Net,
    Decode,
    Other,
}

/// A program whose name in another program's arguments suggests it runs.
pub(in crate::policy::shell) fn known_program(b: &str) -> bool {
    tables::PRIVILEGE.contains(&b)
        || is_shell(b)
        || tables::interpreter(b).is_some()
        || tables::wrapper(b).is_some()
        || tables::FETCHERS.contains(&b)
        || matches!(
            b,
            "rm" | "rmdir"
                | "shred"
                | "remove-item"
                | "ri"
                | "del"
                | "rd"
                | "erase"
                | "dd"
                | "mkfs"
                | "wipefs"
                | "chmod"
                | "chown"
                | "mv"
                | "cp"
                | "kill"
                | "pkill"
                | "killall"
                | "crontab"
                | "systemctl"
                | "at"
                | "eval"
                | "source"
                | "xargs"
                | "find"
                | "tar"
                | "tee"
                | "truncate"
                | "ln"
                | "install"
                | "env"
                | "cat"
                | "git"
                | "docker"
                | "shutdown"
                | "reboot"
                | "poweroff"
                | "usermod"
                | "passwd"
                | "setcap"
        )
}

/// The path-like parts of an argument: itself, after `=`, after `@`, after `:`.
pub(in crate::policy::shell) fn path_candidates(w: &str) -> Vec<String> {
    let mut v = vec![w.to_string()];
    if let Some((_, r)) = w.split_once('=') {
        v.push(r.to_string());
        if let Some(r2) = r.strip_prefix('@') {
            v.push(r2.to_string());
        }
        if let Some(r2) = r.strip_prefix('<') {
            v.push(r2.to_string());
        }
    }
    if let Some(r) = w.strip_prefix('@') {
        v.push(r.to_string());
    }
    // HTTPie's `field@FILE`, `field=@FILE`, `field:=@FILE`: a file sent.
    if let Some((k, r)) = w.split_once('@')
        && !k.is_empty()
        && !k.contains('/')
        && (r.starts_with(['/', '~', '.']) || r.starts_with(HOME) || r.starts_with("$HOME"))
    {
        v.push(r.to_string());
    }
    // A file named by a URL or a secret reference (`file:///p`,
    // dagger's `file:$HOME/.npmrc`, SQLAlchemy's `sqlite:////abs.db`).
    let value = w.split_once('=').map_or(w, |(_, r)| r);
    for scheme in [
        "file://",
        "file:",
        "sqlite:///",
        "sqlite3:///",
        "duckdb:///",
    ] {
        for x in [w, value] {
            if let Some(r) = x.strip_prefix(scheme) {
                v.push(r.to_string());
            }
        }
    }
    // `-fPATH`, `-iPATH` (short option glued to its value).
    if w.starts_with('-') && !w.starts_with("--") && w.chars().count() > 2 {
        let rest = w.char_indices().nth(2).map_or("", |(i, _)| &w[i..]);
        if rest.starts_with(['/', '~', HOME]) || rest.starts_with("$HOME") {
            v.push(rest.to_string());
        }
    }
    // `host:path` (scp/rsync) — only the local form matters here.
    v.retain(|x| !x.is_empty() && !x.starts_with("http://") && !x.starts_with("https://"));
    v
}

/// The strings of a JSON object or array (keys and values, at any depth);
/// `None` when `text` is not one.
pub(super) fn json_strings(text: &str) -> Option<Vec<String>> {
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|x| walk(x, out)),
            serde_json::Value::Object(map) => {
                for (k, x) in map {
                    out.push(k.clone());
                    walk(x, out);
                }
            }
            _ => {}
        }
    }
    let t = text.trim_start();
    if !t.starts_with(['{', '[']) {
        return None;
    }
    let mut out = Vec::new();
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => walk(&v, &mut out),
        // GVariant's and Python's lists quote with `'` (`['localhost',
        // '*.corp']`): the strings, each whole.
        Err(_) => {
            let t = t.trim_end();
            if !(t.starts_with('[') && t.ends_with(']')) {
                return None;
            }
            let inner = &t[1..t.len() - 1];
            for item in inner.split(',') {
                let item = item.trim();
                let q = item.chars().next().filter(|c| *c == '\'' || *c == '"')?;
                out.push(item.strip_prefix(q)?.strip_suffix(q)?.to_string());
            }
        }
    }
    Some(out)
}

/// Programs a wildcard in text that may be code is checked against.
const MATCHABLE: &[&str] = &[
    "rm",
    "curl",
    "wget",
    "sh",
    "bash",
    "dash",
    "zsh",
    "nc",
    "ncat",
    "socat",
    "python3",
    "python",
    "perl",
    "ruby",
    "node",
    "php",
    "dd",
    "mkfs",
    "shred",
    "chmod",
    "chown",
    "kill",
    "pkill",
    "killall",
    "shutdown",
    "reboot",
    "poweroff",
    "cat",
    "cp",
    "mv",
    "tar",
    "scp",
    "rsync",
    "ssh",
    "base64",
    "xxd",
    "openssl",
    "sudo",
    "su",
    "crontab",
    "systemctl",
    "find",
    "xargs",
    "truncate",
    "wipefs",
    "tee",
];

/// String literals of code that sit as a call's arguments or a value
/// (`lookup('file', '~/.netrc')`, `path = "…"`), not quoted in prose
/// (`rotate the key in '~/.aws/credentials' next week`).
fn argument_literals(code: &str) -> Vec<String> {
    super::code::string_literals(code)
        .into_iter()
        .filter(|s| {
            ["'", "\""].iter().any(|q| {
                code.match_indices(&format!("{q}{s}{q}")).any(|(i, _)| {
                    code[..i]
                        .trim_end()
                        .ends_with(['(', ',', '[', '=', ':', '{'])
                })
            })
        })
        .collect()
}
