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
        self.script(&code.text, positional, depth + 1);
    }

    /// `sh`, `bash`, …: `-c CODE`, a script file, or stdin. True when it
    /// only runs provably read-only code.
    pub(super) fn shell(&mut self, c: &Cmd<'_>) -> bool {
        let args = &c.args;
        if args.iter().any(|a| {
            a == "-p"
                || (a.starts_with('-')
                    && !a.starts_with("--")
                    && a.len() <= 4
                    && a.contains('p')
                    && !a.contains('c'))
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
            let Some(code) = c.arg_word(ci).cloned() else {
                self.ask(format!("starts an interactive {}", c.base));
                return false;
            };
            let positional: Vec<String> = args
                .get(ci + 1..)
                .map(<[String]>::to_vec)
                .unwrap_or_default();
            if c.words
                .iter()
                .skip(ci + 2)
                .any(|w| self.fetched(w, c.script))
            {
                self.block("download and execute (a fetched value is run by the script)");
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
            self.ask(format!("runs the script {}", shown(&w.text)));
            return false;
        }
        self.interactive(c);
        false
    }

    /// A shell or interpreter with no program: at the top it asks; started
    /// from inside another program (an option, `-exec`, a pager, an editor)
    /// it is a shell escape whose commands nobody sees.
    fn interactive(&mut self, c: &Cmd<'_>) {
        // Input from a file or a heredoc is a script; `<&2` only moves a terminal.
        let has_input = c
            .src
            .redirects
            .iter()
            .any(|r| matches!(r.op.as_str(), "<" | "<<" | "<<<" | "<<-"));
        if c.src.stdin_from.is_some() || has_input {
            return;
        }
        if c.depth > 0 {
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
                    self.script(&text, &[], c.depth + 1)
                }
                lb => self.inline_code(lb, &text, c.depth),
            }
        }
        let lt = lower(&w.text);
        if lt.starts_with("http://") || lt.starts_with("https://") {
            self.block(format!("download and execute ({} runs {})", c.base, w.text));
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

    /// `python -c`, `node -e`, `perl -e`, a script file, or stdin.
    pub(super) fn interpreter(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        let flags = tables::interpreter(lb).unwrap_or(&[]);
        let args = &c.args;
        let pwsh = matches!(lb, "pwsh" | "powershell");
        if pwsh
            && args.iter().any(|x| {
                let l = lower(x);
                l.starts_with("-enc") || l == "-e" || l == "-ec" || l.starts_with("-encodedcommand")
            })
        {
            self.block("runs an encoded PowerShell payload (what it does cannot be read)");
            return;
        }
        let mut code: Option<Word> = None;
        let mut i = 0;
        let mut script_at = None;
        while i < args.len() {
            let a = args[i].as_str();
            let la = lower(a);
            let perl_bundle = lb == "perl"
                && a.starts_with('-')
                && !a.starts_with("--")
                && (a.ends_with('e') || a.ends_with('E'))
                && a.len() <= 5;
            if flags.contains(&la.as_str()) || perl_bundle {
                if pwsh {
                    // PowerShell takes the rest of the line as the command.
                    let rest: Vec<Word> = c.words.iter().skip(i + 2).cloned().collect();
                    let mut w = Word::lit(Word::join(&rest));
                    w.dynamic = rest.iter().any(|x| x.dynamic);
                    w.subs = rest.iter().flat_map(|x| x.subs.clone()).collect();
                    code = Some(w);
                } else {
                    code = c.arg_word(i + 1).cloned();
                }
                break;
            }
            if lb.starts_with("python") && a == "-m" {
                self.python_module(c, i);
                return;
            }
            if a.starts_with('-') && a.len() > 1 {
                // Options with a value: python -W/-X, node -r/--require, ruby -r -I, perl -M -I.
                let with_value = matches!(
                    a,
                    "-W" | "-X"
                        | "-r"
                        | "--require"
                        | "-I"
                        | "--import"
                        | "--loader"
                        | "-M"
                        | "--experimental-loader"
                        | "-File"
                        | "-file"
                        | "-f"
                );
                if matches!(a, "-File" | "-file" | "-f") && pwsh {
                    script_at = Some(i + 1);
                    break;
                }
                if with_value {
                    i += 1;
                }
                i += 1;
                continue;
            }
            if lb == "deno" && matches!(a, "run" | "eval" | "repl" | "test" | "task") {
                if a == "eval" {
                    code = c.arg_word(i + 1).cloned();
                    break;
                }
                i += 1;
                continue;
            }
            script_at = Some(i);
            break;
        }
        if let Some(code) = code.as_ref()
            && matches!(lb, "perl" | "ruby")
            && args
                .iter()
                .any(|x| x.starts_with('-') && !x.starts_with("--") && x[1..].contains('i'))
        {
            // In-place edits: the files after the code are written.
            let at = c
                .words
                .iter()
                .position(|w| std::ptr::eq(w, code) || w.text == code.text)
                .unwrap_or(c.words.len());
            for f in c
                .words
                .iter()
                .skip(at + 1)
                .filter(|w| !w.text.starts_with('-'))
            {
                self.write_path(f, c.cwd(), &format!("{} -i", c.base));
            }
        }
        if let Some(code) = code {
            if let Some(why) = self.code_source(&code, c.script) {
                self.block(format!("{why} ({} runs code built at run time)", c.base));
            }
            let all = args.join(" ");
            self.inline_code(lb, &format!("{} {all}", code.text), c.depth);
            if pwsh {
                self.block_only(|a| a.script(&code.text, &[], c.depth + 1));
            }
            self.ask(format!("runs inline {} code", c.base));
            return;
        }
        // Preloaded modules count as code too (`ruby -ropen-uri`, `perl -MLWP`).
        let preload = lower(&args.join(" "));
        if code::mentions_network(&preload) && code::runs_code_in(lb, &preload) {
            self.block(format!(
                "download and execute ({} code fetches and runs code)",
                c.base
            ));
        }
        if let Some(si) = script_at
            && let Some(w) = c.arg_word(si).cloned()
            && w.text != "-"
        {
            self.sourced(&w, c);
            self.ask(format!("runs {} {}", c.base, shown(&w.text)));
            return;
        }
        self.interactive(c);
    }

    /// `python -m http.server`, `python -m pip`, …
    fn python_module(&mut self, c: &Cmd<'_>, at: usize) {
        let module = c.args.get(at + 1).map(String::as_str).unwrap_or("");
        if matches!(
            module,
            "http.server" | "SimpleHTTPServer" | "uploadserver" | "pyftpdlib"
        ) {
            let dir = c
                .value("--directory")
                .or_else(|| c.value("-d"))
                .cloned()
                .unwrap_or_else(|| Word::lit("."));
            let p = self.norm(&dir, c.cwd());
            if paths::contains_credentials(&p)
                || paths::catastrophic_normalized(&p) && !self.inside(&p)
            {
                self.block(format!(
                    "serves {} to the network (your keys and files with it)",
                    shown(&dir.text)
                ));
            }
            self.ask(format!("serves {} over HTTP", shown(&dir.text)));
            return;
        }
        self.ask(format!("runs the {} module {module}", c.base));
    }

    /// Programs that run other programs from their options or arguments;
    /// `None` when `c` is not one.
    pub(super) fn executor(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let lb = c.lb.as_str();
        let depth = c.depth;
        let script = c.script;
        match lb {
            "eval" => {
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
                self.ask(format!("runs {} in this shell", shown(&w.text)));
                Some(false)
            }
            "exec" => Some(c.args.is_empty()),
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
                    if a == "--command"
                        || (a.starts_with('-') && !a.starts_with("--") && a.contains('c'))
                    {
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
            "tmux" | "screen" | "byobu" => {
                let mut after_keys = false;
                for (i, a) in c.args.iter().enumerate() {
                    if matches!(
                        a.as_str(),
                        "send-keys"
                            | "send"
                            | "stuff"
                            | "run-shell"
                            | "run"
                            | "new-session"
                            | "new"
                            | "new-window"
                            | "neww"
                            | "split-window"
                            | "splitw"
                            | "respawn-pane"
                    ) {
                        after_keys = true;
                        continue;
                    }
                    let last = i + 1 == c.args.len();
                    if (after_keys || last || lb == "screen")
                        && !a.starts_with('-')
                        && let Some(w) = c.arg_word(i).cloned()
                    {
                        self.block_only(|x| x.shell_code(&w, &[], script, depth));
                    }
                }
                self.ask(format!("{} runs a command in a session", c.base));
                Some(false)
            }
            "vim" | "vi" | "nvim" | "ex" | "view" | "gvim" | "vimdiff" | "rvim" => {
                for (i, x) in c.args.iter().enumerate() {
                    let cmd = if x == "-c" || x == "--cmd" {
                        c.args.get(i + 1).map(String::as_str)
                    } else {
                        x.strip_prefix('+')
                    };
                    if let Some(cmd) = cmd {
                        self.inline_code("vim", cmd, depth);
                        // `r FILE`, `e FILE`, `w FILE`, `so FILE`: what the editor opens.
                        for f in cmd.split_whitespace().skip(1) {
                            let p = self.norm_text(&paths::word_path(f, false), c.cwd());
                            if let Some(why) = paths::credential_normalized(&p, f) {
                                self.block(format!("the editor opens a credential: {why}"));
                            }
                        }
                        let t = cmd.trim_start_matches(':').trim();
                        let t = t.strip_prefix("silent").map(str::trim).unwrap_or(t);
                        let t = t.trim_start_matches("r ").trim_start_matches("w ").trim();
                        if let Some(sh) = t
                            .strip_prefix('!')
                            .or_else(|| t.split_once(" !").map(|(_, s)| s))
                        {
                            self.script(sh, &[], depth + 1);
                            self.ask("the editor runs a shell command");
                        }
                        if t.contains("system(") || t.starts_with("call ") {
                            self.ask("the editor runs commands");
                        }
                    }
                }
                self.ask("opens an editor");
                Some(false)
            }
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
                    None => Some(true),
                }
            }
            "make" | "gmake" | "bmake" => {
                if !c
                    .args
                    .iter()
                    .any(|a| a == "-f" || a == "--file" || a == "--makefile")
                {
                    let dir = c
                        .value("-C")
                        .map(|d| d.text.clone())
                        .unwrap_or_else(|| ".".into());
                    for name in ["GNUmakefile", "makefile", "Makefile"] {
                        let f = Word::lit(format!("{dir}/{name}"));
                        if let Some(text) = self.written_text(&f, c.cwd()) {
                            self.makefile(&text, depth);
                        }
                    }
                }
                for a in &c.args {
                    if let Some(text) = a.strip_prefix("--eval=") {
                        self.makefile(text, depth);
                    }
                }
                if let Some(text) = c.value("--eval").map(|w| w.text.clone()) {
                    self.makefile(&text, depth);
                }
                for (i, a) in c.args.iter().enumerate() {
                    if (a == "-f" || a == "--file" || a == "--makefile")
                        && let Some(f) = c.arg_word(i + 1).cloned()
                    {
                        self.sourced(&f, c);
                    }
                    if let Some((k, v)) = a
                        .split_once('=')
                        .filter(|(k, _)| *k == "SHELL" || k.ends_with("_COMMAND"))
                    {
                        let _ = k;
                        self.script(v, &[], depth + 1);
                    }
                }
                self.ask(format!("runs {} (recipes run commands)", c.base));
                Some(false)
            }
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

    /// `make -f -` with its makefile in a heredoc: each recipe line is shell.
    pub(super) fn makefile(&mut self, text: &str, depth: usize) {
        for line in text.lines() {
            if let Some(recipe) = line.strip_prefix('\t') {
                self.script(recipe.trim_start_matches(['@', '-', '+']), &[], depth + 1);
            }
        }
    }

    /// `xargs CMD` / `parallel CMD ::: ARGS`: CMD runs with the input's words.
    fn xargs(&mut self, c: &Cmd<'_>) -> bool {
        let args = &c.args;
        let mut repl: Option<String> = None;
        let mut arg_file: Option<Word> = None;
        let mut tail: Vec<Word> = Vec::new();
        let start;
        if c.lb == "parallel" {
            let sep = args
                .iter()
                .position(|x| x == ":::" || x == "::::")
                .unwrap_or(args.len());
            tail = c.words.iter().skip(sep + 2).cloned().collect();
            start = args[..sep]
                .iter()
                .position(|x| !x.starts_with('-'))
                .unwrap_or(sep);
            repl = Some("{}".into());
            let cmd: Vec<Word> = c.words[start + 1..sep + 1].to_vec();
            return self.xargs_run(c, cmd, repl, tail, None);
        }
        let mut i = 0;
        while i < args.len() && args[i].starts_with('-') && args[i] != "--" {
            let a = args[i].as_str();
            if a == "-I" || a == "--replace" {
                repl = args.get(i + 1).cloned();
                i += 1;
            } else if let Some(r) = a.strip_prefix("--replace=") {
                repl = Some(r.to_string());
            } else if let Some(r) = a.strip_prefix("-I").filter(|r| !r.is_empty()) {
                repl = Some(r.to_string());
            } else if a == "-i" {
                repl = Some("{}".into());
            } else if a == "-a" || a == "--arg-file" {
                arg_file = c.arg_word(i + 1).cloned();
                i += 1;
            } else if matches!(
                a,
                "-n" | "-P"
                    | "-L"
                    | "-d"
                    | "-E"
                    | "-s"
                    | "--max-args"
                    | "--max-procs"
                    | "--delimiter"
                    | "--max-lines"
            ) {
                i += 1;
            }
            i += 1;
        }
        if args.get(i).is_some_and(|x| x == "--") {
            i += 1;
        }
        let cmd: Vec<Word> = c.words.get(i + 1..).unwrap_or_default().to_vec();
        let _ = &mut tail;
        self.xargs_run(c, cmd, repl, tail, arg_file)
    }

    fn xargs_run(
        &mut self,
        c: &Cmd<'_>,
        mut cmd: Vec<Word>,
        repl: Option<String>,
        tail: Vec<Word>,
        arg_file: Option<Word>,
    ) -> bool {
        if cmd.is_empty() {
            cmd.push(Word::lit("echo"));
        }
        // Where the input comes from, and what it is when that is known.
        let producer: Option<&Command> = c.src.stdin_from.and_then(|i| c.script.commands.get(i));
        let unbounded = c.args.windows(2).any(|w| w[0] == "-P" && w[1] == "0")
            || c.args
                .iter()
                .any(|a| a == "-P0" || a == "--max-procs=0" || a == "--jobs=0" || a == "-j0");
        let endless = producer.is_some_and(|p| {
            let pa = peeled(&p.argv);
            let pb = pa.first().map(|w| base_name(&w.text)).unwrap_or_default();
            pb == "yes"
                || pa.iter().any(|w| {
                    matches!(
                        w.text.as_str(),
                        "/dev/zero" | "/dev/urandom" | "/dev/random" | "inf" | "infinity"
                    )
                })
        });
        if unbounded && endless {
            self.block("fork bomb (an endless input into unbounded parallel jobs)");
        }
        let (source, items) = self.input_items(c, producer, &tail, arg_file.as_ref());
        let first = base_name(&cmd[0].text);
        let runs_code = (is_shell(&first) || tables::interpreter(&first).is_some())
            && repl
                .as_ref()
                .is_some_and(|r| cmd.iter().skip(1).any(|w| w.text.contains(r.as_str())));
        if runs_code {
            match source {
                Producer::Net => {
                    self.block("download and execute (xargs runs downloaded lines as code)")
                }
                Producer::Decode => {
                    self.block("decodes and executes (xargs runs decoded lines as code)")
                }
                Producer::Other if items.is_none() => self.block(
                    "runs its input as shell code (xargs into a shell, whatever the source)",
                ),
                Producer::Other => {}
            }
        }
        let items = items.unwrap_or_else(|| {
            vec![Word {
                text: "$(input)".into(),
                dynamic: true,
                computed: true,
                ..Default::default()
            }]
        });
        let mut read_only = true;
        for item in items.iter().take(8) {
            let mut words = cmd.clone();
            match &repl {
                Some(r) if words.iter().any(|w| w.text.contains(r.as_str())) => {
                    for w in words.iter_mut() {
                        if w.text.contains(r.as_str()) {
                            let whole = w.text == *r;
                            w.text = w.text.replace(r.as_str(), &item.text);
                            if whole {
                                w.dynamic = item.dynamic;
                                w.glob = item.glob;
                            } else {
                                w.dynamic |= item.dynamic;
                            }
                        }
                    }
                }
                _ => words.push(item.clone()),
            }
            let v = self.judged(|a| a.run_words(words, c.src, c.script, c.depth + 1));
            read_only &= v == Verdict::Allow;
        }
        read_only
    }

    /// The input of `xargs`: where it comes from and, when it is known, its
    /// words (`echo ~ | xargs rm -rf` deletes `~`).
    pub(super) fn input_items(
        &self,
        c: &Cmd<'_>,
        producer: Option<&Command>,
        tail: &[Word],
        arg_file: Option<&Word>,
    ) -> (Producer, Option<Vec<Word>>) {
        if !tail.is_empty() {
            return (Producer::Other, Some(tail.to_vec()));
        }
        let from_words = |ws: &[Word]| -> Vec<Word> {
            ws.iter()
                .flat_map(|w| {
                    let parts: Vec<Word> = w
                        .text
                        .split(['\n', '\0', ' '])
                        .filter(|p| !p.is_empty())
                        .map(|p| Word {
                            text: p.to_string(),
                            ..w.clone()
                        })
                        .collect();
                    parts
                })
                .collect()
        };
        let describe = |full: &Command| -> (Producer, Option<Vec<Word>>) {
            let kind = self.producer(full);
            let view = Command {
                argv: peeled(&full.argv).to_vec(),
                ..full.clone()
            };
            let p = &view;
            let b = p
                .argv
                .first()
                .map(|w| base_name(&w.text))
                .unwrap_or_default();
            let args: Vec<Word> = p
                .argv
                .iter()
                .skip(1)
                .filter(|w| !w.text.starts_with('-'))
                .cloned()
                .collect();
            match b.as_str() {
                "echo" | "printf" if p.argv.iter().all(|w| !w.dynamic) => {
                    let texts: Vec<Word> = if b == "printf" {
                        let strs: Vec<&str> =
                            p.argv.iter().skip(2).map(|w| w.text.as_str()).collect();
                        let fmt = p.argv.get(1).map(|w| w.text.as_str()).unwrap_or("");
                        vec![Word::lit(super::super::eval::printf(fmt, &strs))]
                    } else {
                        args
                    };
                    (kind, Some(from_words(&texts)))
                }
                "find" | "fd" | "fdfind" => {
                    let roots: Vec<Word> = p
                        .argv
                        .iter()
                        .skip(1)
                        .take_while(|w| !w.text.starts_with('-') && w.text != "(" && w.text != "!")
                        .cloned()
                        .collect();
                    let roots = if roots.is_empty() {
                        vec![Word::lit(".")]
                    } else {
                        roots
                    };
                    (
                        kind,
                        Some(
                            roots
                                .into_iter()
                                .map(|mut r| {
                                    r.text = format!("{}/x", r.text.trim_end_matches('/'));
                                    r
                                })
                                .collect(),
                        ),
                    )
                }
                // Paths inside the working directory.
                "git" | "ls" | "rg" | "grep" | "seq" | "jq"
                    if kind == Producer::Other
                        && p.argv.iter().all(|w| !w.dynamic)
                        && !p.argv.iter().skip(1).any(|w| {
                            let t = paths::word_path(&w.text, false);
                            t.starts_with('/') || t.starts_with('~') || t.starts_with("..")
                        }) =>
                {
                    (kind, Some(vec![Word::lit("./item")]))
                }
                _ => (kind, None),
            }
        };
        if let Some(p) = producer {
            return describe(p);
        }
        let file = arg_file.or_else(|| {
            c.src
                .redirects
                .iter()
                .find(|r| r.op == "<")
                .map(|r| &r.target)
        });
        if let Some(f) = file {
            if f.procsub
                && let Some(inner) = f.subs.first().and_then(|&s| c.script.commands.get(s))
            {
                return describe(inner);
            }
            if self.is_tainted(f, c.cwd()) {
                return (Producer::Net, None);
            }
            return (Producer::Other, None);
        }
        if let Some(body) = c
            .src
            .redirects
            .iter()
            .find(|r| r.op == "<<<" || r.op == "<<")
            .and_then(|r| r.body.as_ref())
        {
            if body.dynamic {
                let kind = body
                    .subs
                    .iter()
                    .filter_map(|&s| c.script.commands.get(s))
                    .map(|x| self.producer(x))
                    .find(|k| *k != Producer::Other)
                    .unwrap_or(Producer::Other);
                return (kind, None);
            }
            return (
                Producer::Other,
                Some(from_words(std::slice::from_ref(body))),
            );
        }
        (Producer::Other, None)
    }

    /// `find ROOTS EXPR`: lists names unless `-exec`, `-delete` or `-fprint`.
    fn find(&mut self, c: &Cmd<'_>) -> bool {
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
        while i < args.len() {
            let x = args[i].as_str();
            match x {
                "-name" | "-iname" | "-path" | "-ipath" | "-wholename" | "-iwholename"
                | "-regex" | "-iregex" | "-lname" => {
                    if let Some(pat) = args.get(i + 1)
                        && wide
                        && paths::glob_could_match_secret(pat.rsplit('/').next().unwrap_or(pat))
                    {
                        self.block(format!("searches your home or the whole system for key and secret files ({pat})"));
                    }
                    i += 1;
                }
                "-delete" => {
                    read_only = false;
                    for r in &roots {
                        self.delete_path(r, true, c.cwd(), "find -delete");
                    }
                }
                "-exec" | "-execdir" | "-ok" | "-okdir" => {
                    read_only = false;
                    let end = args[i + 1..]
                        .iter()
                        .position(|y| y == ";" || y == "+" || y == "\\;")
                        .map(|p| i + 1 + p)
                        .unwrap_or(args.len());
                    let inner: Vec<Word> = c.words[i + 2..end + 1].to_vec();
                    self.each_file(c, &inner, &roots, "{}", wide);
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
    fn fd(&mut self, c: &Cmd<'_>) -> bool {
        let args = &c.args;
        let exec_at = args
            .iter()
            .position(|x| matches!(x.as_str(), "-x" | "--exec" | "-X" | "--exec-batch"));
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
                        )
                    );
                !w.text.starts_with('-') && !value
            })
            .map(|(_, w)| w.clone())
            .collect();
        let roots: Vec<Word> = if operands.len() > 1 {
            operands[1..].to_vec()
        } else {
            vec![Word::lit(".")]
        };
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
            let inner: Vec<Word> = c.words[e + 2..].to_vec();
            let mut inner = inner;
            if !inner.iter().any(|w| w.text.contains("{}")) {
                inner.push(Word::lit("{}"));
            }
            self.each_file(c, &inner, &roots, "{}", wide);
            self.ask("fd runs a command for each match");
            return false;
        }
        read_only
    }

    /// A command run once per file found below `roots`, `{}` standing for it.
    fn each_file(&mut self, c: &Cmd<'_>, inner: &[Word], roots: &[Word], marker: &str, wide: bool) {
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
            // `{}` is each match below the root, not the root itself.
            let below = format!("{}/*", r.text.trim_end_matches('/'));
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
                && matches!(
                    fb.as_str(),
                    "cat"
                        | "head"
                        | "tail"
                        | "less"
                        | "more"
                        | "cp"
                        | "base64"
                        | "xxd"
                        | "strings"
                        | "curl"
                        | "wget"
                        | "scp"
                        | "rsync"
                        | "tar"
                        | "zip"
                        | "nc"
                        | "od"
                        | "grep"
                        | "sed"
                        | "awk"
                        | "tee"
                        | "mail"
                        | "gpg"
                )
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
        let Some(p) = self.sensitive(w, cwd, "lists") else {
            return false;
        };
        self.inside(&p) || paths::system_normalized(&p) && !p.starts_with("/run/user")
    }

    /// Pipes: a shell or interpreter reading its program from another
    /// command's output runs code nobody saw, whatever the source.
    pub(super) fn pipes(&mut self, script: &Script) {
        for c in &script.commands {
            let Some(from) = c.stdin_from else { continue };
            let src = &script.commands[from];
            let what = src
                .argv
                .first()
                .map(|w| shown(&base_name(&w.text)))
                .unwrap_or_else(|| "a command".into());
            if let Some(kind) = stdin_executor(c) {
                // The pipe's whole chain: `curl … | sed 1d | sh` still downloads.
                let mut origin = self.producer(src);
                let mut k = src.stdin_from;
                while let Some(i) = k {
                    if origin == Producer::Net {
                        break;
                    }
                    let p = self.producer(&script.commands[i]);
                    if p != Producer::Other {
                        origin = p;
                    }
                    k = script.commands[i].stdin_from;
                }
                match origin {
                    Producer::Net => self.block(format!(
                        "download and execute (pipes the output of {what} into {kind})"
                    )),
                    Producer::Decode => self.block(format!(
                        "decodes and executes (pipes the output of {what} into {kind})"
                    )),
                    Producer::Other => self.block(format!(
                        "pipes the output of {what} into {kind}, which runs it as code (blocked whatever the source; run the file directly instead)"
                    )),
                }
            }
            let sink_argv = peeled(&c.argv);
            let sink = sink_argv
                .first()
                .map(|w| lower(&base_name(&w.text)))
                .unwrap_or_default();
            let network_sink = tables::FETCHERS.contains(&sink.as_str())
                || sink_argv
                    .iter()
                    .any(|w| w.text.starts_with("http://") || w.text.starts_with("https://"));
            let mut k = Some(from);
            while let Some(i) = k {
                let p = &script.commands[i];
                let pa = peeled(&p.argv);
                let pb = pa
                    .first()
                    .map(|w| lower(&base_name(&w.text)))
                    .unwrap_or_default();
                let dumps_env = matches!(
                    pb.as_str(),
                    "env" | "printenv" | "set" | "export" | "declare" | "typeset" | "compgen"
                ) && pa.iter().skip(1).all(|w| w.text.starts_with('-'));
                let reads_state = self.sensitive.contains(&(std::ptr::from_ref(p) as usize));
                if network_sink && (dumps_env || reads_state) {
                    self.block(format!(
                        "sends {} over the network (exfiltration)",
                        if dumps_env {
                            "the environment"
                        } else {
                            "Jarvis's own state"
                        }
                    ));
                }
                if dumps_env
                    && matches!(
                        sink.as_str(),
                        "grep" | "egrep" | "rg" | "awk" | "sed" | "findstr" | "select-string"
                    )
                    && sink_argv.iter().skip(1).any(|w| {
                        let l = lower(&w.text);
                        [
                            "key", "token", "secret", "pass", "auth", "cred", "aws", "private",
                        ]
                        .iter()
                        .any(|s| l.contains(s))
                    })
                {
                    self.block("searches the environment for secrets");
                }
                k = p.stdin_from;
            }
            if matches!(sink.as_str(), "iex" | "invoke-expression") {
                self.block("pipes text into Invoke-Expression (download and execute)");
            }
            if sink == "remove-item" && src.argv.iter().any(|w| lower(&w.text) == "-recurse") {
                self.block("deletes everything a recursive listing finds");
            }
        }
    }
}

/// `cat` with no file: a substitution that reads the pipe.
fn reads_stdin_only(c: &Command) -> bool {
    c.argv.len() == 1 && matches!(c.argv[0].text.as_str(), "cat" | "head" | "tee")
}

/// What runs the command's stdin as code: a shell or interpreter without a
/// script of its own, `make -f -`, `at`. `None` when stdin is only data.
pub(super) fn stdin_executor(c: &Command) -> Option<String> {
    let mut words: Vec<&str> = c.argv.iter().map(|w| w.text.as_str()).collect();
    loop {
        let first = *words.first()?;
        let b = lower(&base_name(first));
        if tables::PRIVILEGE.contains(&b.as_str()) || b == "env" || tables::wrapper(&b).is_some() {
            let next = words.iter().skip(1).position(|x| {
                !x.starts_with('-') && !x.contains('=') && !x.chars().all(|ch| ch.is_ascii_digit())
            })?;
            words = words[next + 1..].to_vec();
            continue;
        }
        let rest = &words[1..];
        let stdin_file =
            |x: &&str| matches!(*x, "-" | "/dev/stdin" | "/proc/self/fd/0" | "/dev/fd/0");
        if is_shell(&b) {
            let has_code = rest
                .iter()
                .any(|x| x.starts_with('-') && !x.starts_with("--") && x[1..].contains('c'));
            let file = rest
                .iter()
                .find(|x| !x.starts_with('-') && !x.starts_with('+'));
            let explicit = rest.iter().any(|x| {
                *x == "-s" || (x.starts_with('-') && !x.starts_with("--") && x.contains('s'))
            }) || rest.iter().any(stdin_file);
            return (!has_code && (file.is_none() || explicit || file.is_some_and(stdin_file)))
                .then(|| b.clone());
        }
        if let Some(flags) = tables::interpreter(&b) {
            let code_at = rest.iter().position(|x| {
                flags.contains(&lower(x).as_str())
                    || (b == "perl" && x.starts_with('-') && x.ends_with('e'))
            });
            // `python3 -c 'exec(sys.stdin.read())'` runs what arrives on stdin.
            if let Some(code) = code_at.and_then(|i| rest.get(i + 1)) {
                let l = lower(code);
                if code::reads_stdin(&l) && code::runs_code_in(&b, &l) {
                    return Some(b.clone());
                }
            }
            let has_code = code_at.is_some();
            let file = rest.iter().find(|x| !x.starts_with('-'));
            return (!has_code && (file.is_none() || file.is_some_and(stdin_file)))
                .then(|| b.clone());
        }
        return match b.as_str() {
            "make" | "gmake"
                if rest
                    .windows(2)
                    .any(|w| matches!(w[0], "-f" | "--file") && stdin_file(&w[1])) =>
            {
                Some(b)
            }
            "at" | "batch" => Some(b),
            "source" | "." if rest.first().is_some_and(stdin_file) => Some(b),
            "eval" => Some(b).filter(|_| false),
            "iex" | "invoke-expression" => Some(b),
            "ed" | "ex" | "red" | "gdb" | "lldb" => Some(b),
            "vim" | "vi" | "nvim"
                if rest.iter().any(|x| *x == "-e" || *x == "-es" || *x == "-s") =>
            {
                Some(b)
            }
            "awk" | "gawk" | "sed"
                if rest.windows(2).any(|w| w[0] == "-f" && stdin_file(&w[1])) =>
            {
                Some(b)
            }
            _ => None,
        };
    }
}

/// Files a command writes its output to: `-o F`, `-O` (the URL's name),
/// `--output F`, `> F`, `tee F`.
pub(super) fn output_files(c: &Command) -> Vec<String> {
    let argv: Vec<&str> = c.argv.iter().map(|w| w.text.as_str()).collect();
    let mut out = Vec::new();
    let b = argv.first().map(|a| base_name(a)).unwrap_or_default();
    let norm = |f: &str| paths::normalize(&paths::word_path(f, false), c.cwd.as_deref());
    for (i, a) in argv.iter().enumerate() {
        let names_file = *a == "-o"
            || *a == "--output"
            || *a == "--output-document"
            || (*a == "-O" && b == "wget")
            || (a.starts_with('-') && !a.starts_with("--") && a.ends_with('o') && a.len() > 2);
        if names_file && i + 1 < argv.len() && argv[i + 1] != "-" {
            out.push(norm(argv[i + 1]));
        } else if let Some(f) = a
            .strip_prefix("--output=")
            .or_else(|| a.strip_prefix("--output-document="))
        {
            out.push(norm(f));
        } else if (*a == "-O" || *a == "--remote-name" || (b == "wget" && a.starts_with("http")))
            && let Some(url) = argv.iter().find(|x| x.starts_with("http"))
        {
            out.push(norm(
                url.trim_end_matches('/').rsplit('/').next().unwrap_or(""),
            ));
        }
    }
    if b == "tee" {
        out.extend(
            argv.iter()
                .skip(1)
                .filter(|a| !a.starts_with('-'))
                .map(|a| norm(a)),
        );
    }
    for r in &c.redirects {
        if r.op.contains('>') && !r.op.starts_with("<<") {
            out.push(norm(&r.target.text));
        }
    }
    out
}
