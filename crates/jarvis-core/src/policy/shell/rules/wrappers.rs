//! Wrappers that run the rest of the line as a program (`env`, `nohup`,
//! `timeout`, `busybox`, `sudo`…): peeled, so the program behind them is
//! the one judged.

use super::*;

impl Analyzer<'_> {
    /// Drops a wrapper and its options; false when nothing is left to run.
    pub(super) fn peel_wrapper(
        &mut self,
        lb: &str,
        takes: &str,
        words: &mut Vec<Word>,
        c: &Command,
        script: &Script,
        depth: usize,
    ) -> bool {
        words.remove(0);
        // `coproc NAME { cmd; }` (the grammar sees words): the command is
        // what follows the name and the brace.
        if lb == "coproc" {
            words.drain(..coproc_head(words));
            // A shell or interpreter reading its input: whatever the line
            // writes to the coprocess runs, as if piped into it. Past
            // wrappers (`env`, `nice`, `stdbuf -oL`, `busybox`) to the
            // program, then its options: long ones and `-o NAME` keep it
            // reading its input; `-c` or a script file do not.
            let at = words.iter().position(|w| {
                let b = program_name(&w.text);
                is_shell(&b) || tables::interpreter(&b).is_some()
            });
            if let Some(at) = at {
                let b = program_name(&words[at].text);
                let mut reads_input = true;
                let mut k = at + 1;
                while let Some(w) = words.get(k) {
                    let t = w.text.as_str();
                    if matches!(t, "-o" | "+o" | "-O" | "+O") {
                        k += 2;
                        continue;
                    }
                    let short_code = short_flags(t).is_some_and(|b| b.contains(['c', 'e', 'E']));
                    if short_code || !t.starts_with(['-', '+']) {
                        reads_input = false;
                    }
                    k += 1;
                }
                if reads_input {
                    self.block(format!(
                        "a coprocess {b} runs as code whatever the line writes to it (like piping into {b})"
                    ));
                }
            }
        }
        if (lb == "ld.so" || lb.starts_with("ld-"))
            && words.iter().any(|w| !w.text.starts_with('-'))
        {
            self.block("runs a program through the dynamic loader, which hides what runs (and bypasses noexec)");
        }
        match lb {
            "command" | "type"
                if words
                    .first()
                    .is_some_and(|w| w.text == "-v" || w.text == "-V") =>
            {
                // `command -v x` looks a program up.
                return false;
            }
            "busybox" | "toybox" if words.first().is_some_and(|w| w.text.starts_with('-')) => {
                // `--install [-s] [DIR]`: a link per applet, in DIR or /bin.
                if words[0].text == "--install" {
                    match words[1..].iter().find(|w| !w.text.starts_with('-')) {
                        Some(dir) => {
                            let link = Word {
                                text: format!("{}/ls", dir.text.trim_end_matches('/')),
                                ..dir.clone()
                            };
                            self.write_path(&link, c.cwd.as_deref(), lb);
                            self.ask(format!("{lb} --install writes a link for each applet"));
                        }
                        None => self.block(format!(
                            "{lb} --install puts its applets over the system's programs"
                        )),
                    }
                }
                return false;
            }
            "strace" | "ltrace" => self.tracer_options(lb, takes, words, c, script, depth),
            // `perf record|stat|trace [opts] [--] CMD`: CMD runs; perf's
            // other verbs read what was recorded.
            "perf" => {
                if !words
                    .first()
                    .is_some_and(|w| matches!(w.text.as_str(), "record" | "stat" | "trace"))
                {
                    return false;
                }
                words.remove(0);
            }
            // `taskset -p [MASK] PID`, `chrt -p [PRIO] PID`: a running
            // process's settings, shown, or changed when a value is given.
            "taskset" | "chrt"
                if words
                    .iter()
                    .take_while(|w| w.text.starts_with('-') && w.text != "--")
                    .any(|w| {
                        w.text == "--pid" || letter_flags(&w.text).is_some_and(|b| b.contains('p'))
                    }) =>
            {
                let values = words.iter().filter(|w| !w.text.starts_with('-')).count();
                if values > 1 {
                    self.ask(format!("{lb} changes a running process's scheduling"));
                }
                return false;
            }
            _ => {}
        }
        if (lb == "sg" || lb == "newgrp") && words.first().is_some_and(|w| !w.text.starts_with('-'))
        {
            words.remove(0);
        }
        if matches!(
            lb,
            "xterm" | "x-terminal-emulator" | "gnome-terminal" | "konsole" | "kitty" | "alacritty"
        ) {
            // Drawn on another machine's display, whoever sits there types.
            if let Some(d) = words
                .iter()
                .position(|w| w.text == "-display" || w.text == "--display")
                .and_then(|i| words.get(i + 1))
                .filter(|d| remote_display(&d.text))
            {
                self.block(format!(
                    "remote shell ({lb} is drawn on another machine's display: {})",
                    shown(&d.text)
                ));
            }
            if lb == "kitty" {
                let first = words.first().map(|w| w.text.as_str());
                let second = words.get(1).map(|w| w.text.as_str());
                match (first, second) {
                    (Some("@"), _) => {
                        self.terminal_remote(&words[1..], depth);
                        return false;
                    }
                    (Some("+kitten" | "+"), Some("@")) => {
                        self.terminal_remote(&words[2..], depth);
                        return false;
                    }
                    // `kitty +runpy CODE`: Python run by kitty.
                    (Some("+runpy"), Some(code)) => {
                        let code = code.to_string();
                        self.inline_code("python3", &code, depth);
                        self.ask("kitty runs Python");
                        return false;
                    }
                    _ => {}
                }
                // `kitty [options] PROGRAM …`: the program is positional.
                if let Some(at) = super::terminal_control::kitty_program_at(words) {
                    words.drain(..at);
                    return !words.is_empty();
                }
            }
            // Only what follows `-e`/`-x`/`--` runs.
            match words
                .iter()
                .position(|w| matches!(w.text.as_str(), "-e" | "-x" | "--" | "--command"))
            {
                Some(i) => {
                    words.drain(..=i);
                }
                None => {
                    self.ask(format!("opens a terminal ({lb})"));
                    return false;
                }
            }
            return !words.is_empty();
        }
        let only_asks_what = !words.is_empty()
            && words
                .iter()
                .all(|w| matches!(w.text.as_str(), "--version" | "-V" | "--help" | "-h"));
        if matches!(lb, "srun" | "salloc" | "mpirun" | "mpiexec" | "orterun") && !only_asks_what {
            if lb.starts_with("mpi") || lb == "orterun" {
                self.mpi_launch(words, script, depth);
            }
            self.ask(format!("{lb} runs the command as a job on the cluster"));
        }
        if lb == "unshare" && unshare_root_mounts(words) {
            self.block(
                "privilege escalation (unshare maps the user to root in a new mount namespace, where it can mount over any folder)",
            );
        }
        while let Some(w) = words.first() {
            let t = w.text.clone();
            if t == "--" {
                words.remove(0);
                break;
            }
            let numeric = t.chars().next().is_some_and(|ch| ch.is_ascii_digit());
            if t.starts_with('-') && t.len() > 1 {
                words.remove(0);
                let wants = value_last(&t, takes)
                    || lb == "flock"
                        && ["--timeout", "--wait", "--conflict-exit-code"]
                            .iter()
                            .any(|l| t.len() >= 5 && l.starts_with(t.as_str()))
                    || (t.starts_with("--")
                        && !t.contains('=')
                        && matches!(
                            lb,
                            "timeout" | "nice" | "stdbuf" | "ionice" | "xvfb-run" | "fakeroot"
                        ));
                // New namespaces with the user mapped to root: mount and
                // network powers the sandbox took away, regained inside.
                if lb == "time"
                    && (t == "-o" || t == "--output")
                    && let Some(f) = words.first().cloned()
                {
                    self.write_path(&f, c.cwd.as_deref(), "time -o");
                }
                if lb == "ld.so" || lb.starts_with("ld-") {
                    if t == "--preload" || t == "--audit" {
                        self.block(
                            "injects a library into the program it starts (ld.so --preload)",
                        );
                    }
                    if matches!(
                        t.as_str(),
                        "--library-path" | "--preload" | "--audit" | "--argv0"
                    ) && !words.is_empty()
                    {
                        words.remove(0);
                    }
                } else if wants && !words.is_empty() {
                    words.remove(0);
                } else if !t.contains('=') {
                    // Cluster launchers' long options with values after them.
                    for _ in 0..cluster_values(lb, &t) {
                        if !words.is_empty() {
                            words.remove(0);
                        }
                    }
                }
            } else if (lb == "timeout" || lb == "chrt" || lb == "taskset" || lb == "cpulimit")
                && numeric
            {
                words.remove(0);
            } else if tables::wrapper_operand(lb) && !matches!(lb, "sg" | "newgrp") {
                // `flock FILE CMD`, `chroot DIR CMD`, `envdir DIR CMD`.
                let operand = words.remove(0);
                if lb == "chroot" {
                    // `/proc/1/root`: the host's own root seen from a
                    // container, the classic way out of one.
                    let into_host = lower(&operand.text)
                        .strip_prefix("/proc/")
                        .is_some_and(|r| r.split('/').nth(1) == Some("root"));
                    if into_host || operand.dynamic {
                        self.block("sandbox escape (chroot into another process's root)");
                    }
                    self.ask("chroot runs a command in another root");
                }
                // flock opens its lock file for writing, creating it (the
                // system's lock folders are where such files belong).
                if lb == "flock" {
                    let p = self.norm(&operand, c.cwd.as_deref());
                    let lock_dir = ["/var/lock/", "/run/lock/", "/tmp/", "/dev/shm/"]
                        .iter()
                        .any(|d| p.starts_with(d) && !p[d.len()..].contains("/.."));
                    if !lock_dir || operand.dynamic {
                        self.write_path(&operand, c.cwd.as_deref(), "flock");
                    }
                }
                break;
            } else if matches!(
                lb,
                "xterm"
                    | "x-terminal-emulator"
                    | "gnome-terminal"
                    | "konsole"
                    | "kitty"
                    | "alacritty"
            ) && (t == "-e" || t == "-x" || t == "--")
            {
                words.remove(0);
                break;
            } else {
                break;
            }
        }
        if lb == "flock" || lb == "sg" || lb == "su" {
            // `flock FILE -c CMD`
            if let Some(i) = words.iter().position(|w| w.text == "-c")
                && let Some(code) = words.get(i + 1).cloned()
            {
                self.shell_code(&code, &[], script, depth);
                return false;
            }
            // `sg GROUP 'CMD'`: sg hands its one command string to `sh -c`.
            if lb == "sg"
                && let Some(code) = words.first().filter(|w| !w.text.starts_with('-')).cloned()
            {
                self.shell_code(&code, &[], script, depth);
                return false;
            }
        }
        // A new session is out of reach of the call's clean-up: what it
        // starts may run on after the call ends.
        if lb == "setsid" {
            self.ask("setsid starts a process that can outlive the command");
        }
        if lb == "unshare"
            || lb == "setpriv"
            || lb == "prlimit"
            || lb == "numactl"
            || lb == "systemd-inhibit"
        {
            self.ask(format!("{lb} changes how the command runs"));
        }
        let _ = c;
        if words.is_empty() && !matches!(lb, "time" | "nohup" | "builtin" | "command" | "exec") {
            self.bases.push(lb.to_string());
            self.ask(format!("runs {lb}"));
        }
        !words.is_empty()
    }

    /// A tracer's own options: the process it attaches to, and where its
    /// trace goes (`-o FILE`, or `-o '|CMD'` piped into a command).
    fn tracer_options(
        &mut self,
        lb: &str,
        takes: &str,
        words: &[Word],
        c: &Command,
        script: &Script,
        depth: usize,
    ) {
        // getopt: a bundle's letters until one takes a value, which is the
        // rest of the word or the next word (`-fo'|cmd'`, `-fo FILE`).
        let mut values: Vec<(char, Word)> = Vec::new();
        let mut k = 0;
        while let Some(w) = words.get(k) {
            k += 1;
            let t = w.text.as_str();
            if t == "--" || !t.starts_with('-') || t == "-" {
                break;
            }
            if let Some(long) = t.strip_prefix("--") {
                let (name, inline) = long.split_once('=').unwrap_or((long, ""));
                let letter = if "output".starts_with(name) && name.len() >= 2 {
                    'o'
                } else if "attach".starts_with(name) && name.len() >= 2 {
                    'p'
                } else {
                    continue;
                };
                values.extend(glued_or_next(w, inline, words, &mut k).map(|v| (letter, v)));
                continue;
            }
            for (at, ch) in t[1..].char_indices() {
                if !takes.contains(ch) {
                    continue;
                }
                let rest = &t[1 + at + ch.len_utf8()..];
                values.extend(glued_or_next(w, rest, words, &mut k).map(|v| (ch, v)));
                break;
            }
        }
        if words.iter().any(|w| self.aims_at_self(w, script))
            && values.iter().any(|(ch, _)| *ch == 'p')
        {
            self.block(format!("{lb} attaches to Jarvis's own process"));
        }
        for (ch, v) in values {
            match ch {
                'o' => match v.text.strip_prefix(['|', '!']) {
                    Some(cmd) => {
                        let code = Word {
                            text: cmd.to_string(),
                            ..v.clone()
                        };
                        self.shell_code(&code, &[], script, depth);
                        self.ask(format!("{lb} -o pipes its trace into a command"));
                    }
                    None => self.write_path(&v, c.cwd.as_deref(), lb),
                },
                'p' => {
                    if self.aims_at_self(&v, script) {
                        self.block(format!("{lb} attaches to Jarvis's own process"));
                    }
                    if self.aims_at_secret_holder(&v, script) {
                        self.block(format!(
                            "{lb} attaches to a process that holds secrets (it reads what passes through it)"
                        ));
                    }
                    self.ask(format!("{lb} attaches to a running process"));
                }
                _ => {}
            }
        }
    }
}

/// The words of the program that really runs, past `env`, `timeout`,
/// `nice` and other wrappers.
/// An option's value: the text glued to it (`-ofile`, `--output=file`),
/// else the next word, `words[*k]`, taken.
fn glued_or_next(w: &Word, glued: &str, words: &[Word], k: &mut usize) -> Option<Word> {
    if glued.is_empty() {
        *k += 1;
        return words.get(*k - 1).cloned();
    }
    Some(Word {
        text: glued.to_string(),
        ..w.clone()
    })
}

/// `-x`, `-fo`: a bundle of short options whose first one taking a value
/// (one of `takes`) ends it, so its value is the next word.
fn value_last(t: &str, takes: &str) -> bool {
    short_flags(t).is_some_and(|b| {
        b.char_indices()
            .find(|(_, ch)| takes.contains(*ch))
            .is_some_and(|(i, ch)| i + ch.len_utf8() == b.len())
    })
}

/// `unshare`'s words map the user to root in a namespace where it can
/// also mount over folders the sandbox guards (a network namespace alone
/// takes powers away).
fn unshare_root_mounts(words: &[Word]) -> bool {
    let options: Vec<&str> = words
        .iter()
        .map(|w| w.text.as_str())
        .take_while(|x| x.starts_with('-') && *x != "--")
        .collect();
    // Long options by any prefix GNU getopt accepts.
    let long = |x: &str, names: &[&str]| {
        x.strip_prefix("--").is_some_and(|l| {
            let l = l.split('=').next().unwrap_or(l);
            l.len() >= 3 && names.iter().any(|n| n.starts_with(l))
        })
    };
    let root = options.iter().any(|x| {
        long(
            x,
            &[
                "map-root-user",
                "map-current-user",
                "map-auto",
                "map-user",
                "map-users",
            ],
        ) || short_flags(x).is_some_and(|b| b.contains(['r', 'c']))
    });
    let mounts = options.iter().any(|x| {
        long(x, &["mount", "mount-proc", "mount-binfmt"])
            || short_flags(x).is_some_and(|b| b.contains('m'))
    });
    // Without `-m`, a shell it runs (through any wrapper) may still
    // `unshare -m` inside.
    let runs_shell = words.len() == options.len()
        || words[options.len()..].iter().any(|w| {
            let b = program_name(&w.text);
            is_shell(&b)
                || matches!(b.as_str(), "busybox" | "toybox")
                || lower(&w.text).contains("mount")
        });
    root && (mounts || runs_shell)
}

/// How many words after `coproc` name it and open its braces:
/// `coproc NAME { cmd; }` 2, `coproc { cmd; }` 1, `coproc cmd` 0.
fn coproc_head(words: &[Word]) -> usize {
    if words.get(1).is_some_and(|w| w.text == "{") {
        2
    } else if words.first().is_some_and(|w| w.text == "{") {
        1
    } else {
        0
    }
}

/// The command reading `c`'s output through a pipe, with its wrappers
/// peeled (`| sudo wc -c` is wc): none when `c` is not in a pipeline.
pub(super) fn next_stage<'s>(c: &Command, script: &'s Script) -> Option<(&'s Command, &'s [Word])> {
    let me = script.commands.iter().position(|k| std::ptr::eq(k, c))?;
    let next = script.commands.iter().find(|k| k.stdin_from == Some(me))?;
    Some((next, peeled(&next.argv)))
}

pub(super) fn peeled(argv: &[Word]) -> &[Word] {
    let mut i = 0;
    let mut last = 0;
    while i < argv.len() {
        last = i;
        let b = tables::lowered(base_str(&argv[i].text));
        let takes = match tables::wrapper(&b) {
            // `busybox APPLET …` is the applet; `busybox --list` is busybox.
            Some(_) if matches!(&*b, "busybox" | "toybox") => {
                if argv.get(i + 1).is_none_or(|w| w.text.starts_with('-')) {
                    break;
                }
                i += 1;
                continue;
            }
            Some(t) => t,
            None if b == "env" => "uC",
            None => break,
        };
        i += 1;
        if b == "coproc" {
            i += coproc_head(&argv[i..]);
        }
        while let Some(w) = argv.get(i) {
            let t = w.text.as_str();
            let numeric = !t.is_empty() && t.chars().all(|ch| ch.is_ascii_digit() || ch == '.');
            if t.starts_with('-') && t.len() > 1 {
                i += 1;
                if value_last(t, takes) {
                    i += 1;
                }
            } else if (b == "env" && t.contains('=')) || numeric {
                i += 1;
            } else {
                break;
            }
        }
    }
    // A wrapper with nothing after it (`env` alone) is the program.
    if i >= argv.len() {
        return &argv[last.min(argv.len())..];
    }
    &argv[i..]
}

/// An X display on another machine (`203.0.113.7:1`), not this one's
/// (`:0`, `unix:0`, `localhost:10`).
pub(super) fn remote_display(d: &str) -> bool {
    d.rsplit_once(':').is_some_and(|(host, _)| {
        !host.is_empty() && host != "unix" && super::project_out::far_host(host).is_some()
    })
}

/// How many words after `opt` are its values, for the cluster launchers
/// (`srun --partition debug`, `mpirun --mca btl self 2`).
fn cluster_values(lb: &str, opt: &str) -> usize {
    const MPI: &[&str] = &[
        "--host",
        "-host",
        "--hostfile",
        "-hostfile",
        "--machinefile",
        "-machinefile",
        "--map-by",
        "--bind-to",
        "--rank-by",
        "-wdir",
        "--wdir",
        "--prefix",
        "--np",
        "-np",
        "--n",
        "-x",
    ];
    match lb {
        "srun" | "salloc" if super::cluster_jobs::SLURM_VALUED.contains(&opt) => 1,
        "mpirun" | "mpiexec" | "orterun" if matches!(opt, "--mca" | "-mca" | "--gmca") => 2,
        "mpirun" | "mpiexec" | "orterun" if MPI.contains(&opt) => 1,
        _ => 0,
    }
}
