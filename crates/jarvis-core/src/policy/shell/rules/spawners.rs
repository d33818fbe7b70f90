//! Programs that run a command once per input: `xargs`, `parallel`; what
//! they run is judged with each input it can get.

use super::*;

impl Analyzer<'_> {
    /// `xargs CMD` / `parallel CMD ::: ARGS`: CMD runs with the input's words.
    pub(super) fn xargs(&mut self, c: &Cmd<'_>) -> bool {
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
            if cmd.is_empty() {
                let from_file = args.get(sep).is_some_and(|x| x == "::::");
                return self.parallel_commands(c, tail, from_file);
            }
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
            } else if let Some(f) = a.strip_prefix("--arg-file=") {
                arg_file = Some(Word {
                    text: f.to_string(),
                    ..c.words[i + 1].clone()
                });
            } else if let Some(at) = short_flags(a).and_then(|b| b.find('a')) {
                // `-aFILE`, `-0a FILE`: the file is the rest, or the next word.
                let rest = &a[at + 2..];
                if rest.is_empty() {
                    arg_file = c.arg_word(i + 1).cloned();
                    i += 1;
                } else {
                    arg_file = Some(Word {
                        text: rest.to_string(),
                        ..c.words[i + 1].clone()
                    });
                }
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
        // The file the items come from is read, whatever runs with them.
        if let Some(f) = &arg_file {
            self.read_path(f, c.cwd());
        }
        let cmd: Vec<Word> = c.words.get(i + 1..).unwrap_or_default().to_vec();
        let _ = &mut tail;
        self.xargs_run(c, cmd, repl, tail, arg_file)
    }

    /// `parallel ::: 'cmd1' 'cmd2'`, `… | parallel`: with no command of its
    /// own, parallel runs each argument or input line as a command line.
    fn parallel_commands(&mut self, c: &Cmd<'_>, tail: Vec<Word>, from_file: bool) -> bool {
        if from_file {
            for f in &tail {
                if self.is_tainted(f, c.cwd()) {
                    self.block(
                        "download and execute (parallel runs the lines of a downloaded file)",
                    );
                }
            }
            self.ask("parallel runs the command lines a file holds");
            return false;
        }
        if tail.is_empty() {
            let producer: Option<&Command> =
                c.src.stdin_from.and_then(|i| c.script.commands.get(i));
            let (source, items) = self.input_items(c, producer, &[], None, true);
            match (source, items) {
                (Producer::Net, _) => {
                    self.block("download and execute (parallel runs downloaded lines as commands)")
                }
                (Producer::Decode, _) => {
                    self.block("decodes and executes (parallel runs decoded lines as commands)")
                }
                (Producer::Other, Some(lines)) => {
                    for l in lines {
                        self.shell_code(&l, &[], c.script, c.depth);
                    }
                }
                (Producer::Other, None) => self.block(
                    "runs its input as shell code (parallel with no command, whatever the source)",
                ),
            }
        }
        for w in &tail {
            self.shell_code(w, &[], c.script, c.depth);
        }
        self.ask("parallel runs command lines");
        false
    }

    pub(super) fn xargs_run(
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
        // `-P 0` has no limit; a limit in the thousands is none either.
        let procs = |v: &str| v.parse::<u64>().is_ok_and(|n| n == 0 || n >= 1000);
        let unbounded = c.args.windows(2).any(|w| {
            matches!(w[0].as_str(), "-P" | "--max-procs" | "-j" | "--jobs") && procs(&w[1])
        }) || c.args.iter().any(|a| {
            ["-P", "--max-procs=", "--jobs=", "-j"]
                .iter()
                .any(|f| a.strip_prefix(f).is_some_and(|v| !v.is_empty() && procs(v)))
        });
        let endless = producer.is_some_and(|p| super::streams::endless_out(p, c.script, 0));
        // `seq 1 100000 | xargs -P 0 sleep 3600`: as many processes at once
        // as there are lines.
        // Several items per process (`-n 500`) make few processes.
        let batched = c.args.windows(2).any(|w| {
            matches!(w[0].as_str(), "-n" | "-L" | "--max-args" | "--max-lines")
                && w[1].parse::<u64>().is_ok_and(|n| n > 1)
        });
        let many = !batched
            && producer.is_some_and(|p| {
                let pa = peeled(&p.argv);
                pa.first().is_some_and(|w| base_name(&w.text) == "seq")
                    && pa
                        .iter()
                        .skip(1)
                        .filter_map(|w| w.text.parse::<f64>().ok())
                        .fold(0.0, f64::max)
                        >= 1000.0
            });
        if unbounded && (endless || many) {
            self.block("fork bomb (a long or endless input into unbounded parallel jobs)");
        }
        if unbounded {
            self.ask("runs one process per input line, all at once (xargs -P 0)");
        }
        // `xargs env`, `xargs nohup`: a wrapper with no program of its own
        // runs whatever the first item names.
        let wrapper_only = matches!(
            program_name(&cmd[0].text).as_str(),
            "env"
                | "nohup"
                | "setsid"
                | "command"
                | "exec"
                | "time"
                | "stdbuf"
                | "nice"
                | "sudo"
                | "doas"
                | "timeout"
                | "chrt"
                | "ionice"
                | "taskset"
        ) && cmd[1..].iter().all(|w| {
            w.text.starts_with('-')
                || w.text.contains('=')
                || w.text.chars().all(|ch| ch.is_ascii_digit() || ch == '.')
        });
        if wrapper_only && repl.is_none() {
            self.block(format!(
                "obfuscated program name (xargs {} runs the program its input names)",
                shown(&cmd[0].text)
            ));
        }
        // With a replace string, each whole line is one item.
        let (source, items) =
            self.input_items(c, producer, &tail, arg_file.as_ref(), repl.is_some());
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
        // Arguments hidden in encoded text, or a download deciding what a
        // program that starts containers, sessions or commands is told.
        let looks_only = matches!(
            first.as_str(),
            "echo"
                | "printf"
                | "cat"
                | "wc"
                | "ls"
                | "stat"
                | "file"
                | "basename"
                | "dirname"
                | "grep"
                | "head"
                | "tail"
                | "sha256sum"
                | "md5sum"
                | "du"
        );
        let launcher = matches!(
            first.as_str(),
            "docker"
                | "podman"
                | "nerdctl"
                | "kubectl"
                | "helm"
                | "ssh"
                | "sudo"
                | "doas"
                | "env"
                | "systemd-run"
                | "nohup"
                | "setsid"
                | "timeout"
                | "git"
                | "npm"
                | "npx"
                | "pip"
        );
        match source {
            Producer::Decode if !looks_only => self.block(format!(
                "decodes and executes (xargs hands decoded text to {first} as its arguments)"
            )),
            Producer::Net if launcher => self.block(format!(
                "download and execute (xargs hands downloaded text to {first} as its arguments)"
            )),
            _ => {}
        }
        // Unknown, the input is still the pipe's: the word's source is the
        // command feeding it (a listing of a whole system, say).
        let items = items.unwrap_or_else(|| {
            vec![Word {
                text: "$(input)".into(),
                dynamic: true,
                computed: true,
                subs: c.src.stdin_from.into_iter().collect(),
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
        by_line: bool,
    ) -> (Producer, Option<Vec<Word>>) {
        if !tail.is_empty() {
            return (Producer::Other, Some(tail.to_vec()));
        }
        let seps: &[char] = if by_line {
            &['\n', '\0']
        } else {
            &['\n', '\0', ' ']
        };
        let from_words = |ws: &[Word]| -> Vec<Word> {
            ws.iter()
                .flat_map(|w| {
                    let parts: Vec<Word> = w
                        .text
                        .split(seps)
                        .map(str::trim_start)
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
            // `command -v NAME`, `which NAME`: the program's installed path.
            if let Some(names) = looked_up(&full.argv) {
                let found = names
                    .iter()
                    .map(|n| Word::lit(format!("/usr/bin/{}", base_name(n))))
                    .collect();
                return (kind, Some(found));
            }
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
                // git's own places (`git rev-parse --git-dir`): `.git`, or
                // the working tree.
                "git" if super::super::eval::printed(p).is_some() => {
                    let text = super::super::eval::printed(p).unwrap_or_default();
                    (kind, Some(from_words(&[Word::lit(text.trim())])))
                }
                // `-printf` prints any text it is given, not the names found.
                "find"
                    if p.argv.iter().any(|w| {
                        w.text.starts_with("-printf") || w.text.starts_with("-fprintf")
                    }) =>
                {
                    (kind, None)
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
                    // A search for secrets' names finds files of those names.
                    let name = super::listers::secret_pattern(&p.argv);
                    (
                        kind,
                        Some(
                            roots
                                .into_iter()
                                .map(|mut r| {
                                    let leaf = name.as_deref().unwrap_or("x");
                                    r.text = format!("{}/{leaf}", r.text.trim_end_matches('/'));
                                    r.glob |= name.is_some();
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
                    // Ignored files (`git ls-files -o -i`) are where a
                    // project's secrets lie: `.env` among them.
                    // (`-o` without an `--exclude…` lists them too.)
                    let has_short = |ch: char| {
                        p.argv
                            .iter()
                            .any(|w| short_flags(&w.text).is_some_and(|f| f.contains(ch)))
                    };
                    let ignored =
                        b == "git"
                            && (p.argv.iter().any(|w| {
                                w.text == "--ignored" || w.text.starts_with("--ignored=")
                            }) || has_short('i')
                                || (has_short('o') || p.argv.iter().any(|w| w.text == "--others"))
                                    && !p.argv.iter().any(|w| w.text.starts_with("--exclude")));
                    let leaf = super::listers::secret_pattern(&p.argv)
                        .or_else(|| super::listers::grep_secret_pattern(&p.argv))
                        .or_else(|| ignored.then(|| ".env".to_string()));
                    // Any entry of the folder listed, where a `cd` before
                    // it moved (`cd / && ls | xargs rm -rf` lists `/`).
                    let dir = p
                        .cwd
                        .as_deref()
                        .filter(|d| d.starts_with('/'))
                        .unwrap_or(".");
                    let mut item = Word::lit(format!(
                        "{}/{}",
                        dir.trim_end_matches('/'),
                        leaf.as_deref().unwrap_or("*")
                    ));
                    item.glob = true;
                    (kind, Some(vec![item]))
                }
                _ => (kind, None),
            }
        };
        if let Some(mut p) = producer {
            // A filter of its own input (`ls -d ~/.* | grep -v x | xargs
            // rm -rf`): its lines are what came before it.
            let mut hops = 0;
            // A filter keeping secrets' names (`grep '^\\.env'`): the items
            // are files of those names.
            let mut secret_leaf = None;
            while hops < 8 && filters_lines(p) {
                secret_leaf =
                    secret_leaf.or_else(|| super::listers::grep_secret_pattern(peeled(&p.argv)));
                match p.stdin_from.and_then(|i| c.script.commands.get(i)) {
                    Some(up) => p = up,
                    None => break,
                }
                hops += 1;
            }
            let (kind, items) = describe(p);
            // A listing that shows hidden files (`ls -a`, `git ls-files`,
            // `find`) passes `.env` to a filter for `env`.
            let shows_hidden = {
                let pa = peeled(&p.argv);
                let b = pa.first().map(|w| base_name(&w.text)).unwrap_or_default();
                matches!(b.as_str(), "find" | "git" | "fd" | "fdfind" | "rg")
                    || b == "ls"
                        && pa.iter().any(|w| {
                            short_flags(&w.text).is_some_and(|f| f.contains(['a', 'A']))
                                || matches!(w.text.as_str(), "--all" | "--almost-all")
                        })
            };
            let secret_leaf = secret_leaf.map(|l| {
                if shows_hidden && l.starts_with('*') {
                    format!(".{l}")
                } else {
                    l
                }
            });
            if let (Some(leaf), Some(items)) = (secret_leaf, &items) {
                let named = items
                    .iter()
                    .map(|w| {
                        let dir = w.text.rsplit_once('/').map_or(".", |(d, _)| d);
                        let mut named = Word::lit(format!("{dir}/{leaf}"));
                        named.glob = true;
                        named
                    })
                    .collect();
                return (kind, Some(named));
            }
            return (kind, items);
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
}

/// A command that passes on some of its input's lines as they are: a
/// search of the pipe (no file of its own), `sort`, `uniq`, `head`, `tail`.
fn filters_lines(c: &Command) -> bool {
    let argv = peeled(&c.argv);
    let Some(first) = argv.first() else {
        return false;
    };
    let operands = argv[1..]
        .iter()
        .filter(|w| !w.text.starts_with('-'))
        .count();
    let pattern_given = argv[1..]
        .iter()
        .any(|w| matches!(w.text.as_str(), "-e" | "--regexp" | "-f" | "--file"));
    match program_name(&first.text).as_str() {
        "grep" | "egrep" | "fgrep" | "rg" => operands <= usize::from(!pattern_given),
        "sort" | "uniq" | "head" | "tail" | "tac" => operands == 0,
        _ => false,
    }
}

/// The names a lookup prints the paths of (`which a b`, `command -v a`,
/// `type -P a`), when they are literals.
fn looked_up(argv: &[Word]) -> Option<Vec<String>> {
    // Past wrappers (`timeout 5 command -v x`), which `peeled` would take
    // `command` for.
    let at = argv.iter().position(|w| {
        matches!(
            base_name(&w.text).as_str(),
            "which" | "whereis" | "command" | "type"
        )
    })?;
    let wrapped = argv[..at].iter().all(|w| {
        let t = w.text.as_str();
        let b = program_name(t);
        tables::wrapper(&b).is_some()
            || b == "env"
            || t.starts_with('-')
            || t.contains('=')
            || t.chars().all(|c| c.is_ascii_digit() || c == '.')
    });
    if !wrapped {
        return None;
    }
    let argv = &argv[at..];
    let b = base_name(&argv.first()?.text);
    let flags: Vec<&str> = argv[1..]
        .iter()
        .map(|w| w.text.as_str())
        .filter(|t| t.starts_with('-'))
        .collect();
    let lookup = match b.as_str() {
        "which" | "whereis" => true,
        "command" => flags.iter().any(|f| *f == "-v" || *f == "-V"),
        "type" => flags.iter().any(|f| f.contains('p') || f.contains('P')),
        _ => false,
    };
    let names: Vec<String> = argv[1..]
        .iter()
        .filter(|w| !w.text.starts_with('-'))
        .map(|w| (!w.dynamic).then(|| w.text.clone()))
        .collect::<Option<_>>()?;
    (lookup && !names.is_empty()).then_some(names)
}
