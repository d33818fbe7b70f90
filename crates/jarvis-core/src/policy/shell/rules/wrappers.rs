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
                let b = lower(&base_name(&w.text));
                is_shell(&b) || tables::interpreter(&b).is_some()
            });
            if let Some(at) = at {
                let b = lower(&base_name(&words[at].text));
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
                return false;
            }
            "strace" | "ltrace" => self.tracer_options(lb, takes, words, c, script, depth),
            // `taskset -p [MASK] PID`, `chrt -p [PRIO] PID`: a running
            // process's settings, shown, or changed when a value is given.
            "taskset" | "chrt"
                if words.iter().any(|w| {
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
                let flag = t.trim_start_matches('-');
                let wants = !t.starts_with("--") && flag.len() == 1 && takes.contains(flag)
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
                }
            } else if (lb == "timeout" || lb == "chrt" || lb == "taskset" || lb == "cpulimit")
                && numeric
            {
                words.remove(0);
            } else if tables::wrapper_operand(lb) && !matches!(lb, "sg" | "newgrp") {
                // `flock FILE CMD`, `chroot DIR CMD`, `envdir DIR CMD`.
                if lb == "chroot" {
                    self.ask("chroot runs a command in another root");
                }
                let operand = words.remove(0);
                // flock opens its lock file for writing, creating it.
                if lb == "flock" {
                    self.write_path(&operand, c.cwd.as_deref(), "flock");
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
        let (mut pending_output, mut value) = (false, false);
        for (i, w) in words.iter().enumerate() {
            if !pending_output && !value && !w.text.starts_with('-') {
                break;
            }
            // The value of another option (`-e trace=open`).
            value = !pending_output
                && !value
                && w.text.len() == 2
                && takes.contains(&w.text[1..])
                && w.text != "-o";
            let output = if pending_output {
                Some(w.clone())
            } else {
                w.text
                    .strip_prefix("--output=")
                    .or_else(|| w.text.strip_prefix("-o"))
                    .filter(|v| !v.is_empty())
                    .map(|v| Word {
                        text: v.to_string(),
                        ..w.clone()
                    })
            };
            pending_output = matches!(w.text.as_str(), "-o" | "--output");
            if let Some(out) = output {
                match out.text.strip_prefix(['|', '!']) {
                    Some(cmd) => {
                        let code = Word {
                            text: cmd.to_string(),
                            ..out.clone()
                        };
                        self.shell_code(&code, &[], script, depth);
                        self.ask(format!("{lb} -o pipes its trace into a command"));
                    }
                    None => self.write_path(&out, c.cwd.as_deref(), lb),
                }
            }
            if w.text.starts_with("-p") || w.text.starts_with("--attach") {
                let pid = words
                    .get(i + 1)
                    .filter(|_| matches!(w.text.as_str(), "-p" | "--attach"));
                if words.iter().any(|w| self.aims_at_self(w, script)) {
                    self.block(format!("{lb} attaches to Jarvis's own process"));
                }
                if pid.is_some_and(|p| self.aims_at_secret_holder(p, script))
                    || self.aims_at_secret_holder(w, script)
                {
                    self.block(format!(
                        "{lb} attaches to a process that holds secrets (it reads what passes through it)"
                    ));
                }
                self.ask(format!("{lb} attaches to a running process"));
            }
        }
    }

    /// `env [-i] [-u N] [-C DIR] [-S STR] [N=V]… CMD`: Some(true) when a
    /// program is left to judge.
    pub(super) fn env_wrapper(
        &mut self,
        words: &mut Vec<Word>,
        c: &Command,
        script: &Script,
        depth: usize,
    ) -> Option<bool> {
        let alone = words.len() == 1;
        words.remove(0);
        let mut assigns = Vec::new();
        let mut chdir: Option<Word> = None;
        while let Some(w) = words.first().cloned() {
            let t = w.text.clone();
            if t == "-S" || t == "--split-string" {
                words.remove(0);
                let text = Word::join(words);
                self.script(&text, &[], depth + 1);
                return None;
            } else if let Some(s) = t
                .strip_prefix("--split-string=")
                .or_else(|| t.strip_prefix("-S"))
                .filter(|s| !s.is_empty())
            {
                let mut text = s.to_string();
                for rest in &words[1..] {
                    text.push(' ');
                    text.push_str(&rest.text);
                }
                self.script(&text, &[], depth + 1);
                return None;
            } else if matches!(t.as_str(), "-C" | "--chdir") {
                words.remove(0);
                if !words.is_empty() {
                    chdir = Some(words.remove(0));
                }
            } else if let Some(d) = t
                .strip_prefix("--chdir=")
                .or_else(|| t.strip_prefix("-C"))
                .filter(|d| !d.is_empty())
            {
                chdir = Some(Word {
                    text: d.to_string(),
                    ..w.clone()
                });
                words.remove(0);
            } else if matches!(t.as_str(), "-u" | "--unset") {
                words.remove(0);
                if !words.is_empty() {
                    words.remove(0);
                }
            } else if t == "--" {
                words.remove(0);
                break;
            } else if t.starts_with('-') {
                words.remove(0);
            } else if let Some((k, v)) = t.split_once('=').filter(|(k, _)| {
                // `env` passes any name, bash's exported functions too
                // (`BASH_FUNC_ls%%`).
                !k.is_empty()
                    && k.chars()
                        .all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '%')
            }) {
                let mut value = w.clone();
                value.text = v.to_string();
                assigns.push((k.to_string(), value));
                words.remove(0);
            } else {
                break;
            }
        }
        self.assigns(&assigns, c, script, depth);
        if words.is_empty() {
            self.bases.push("env".into());
            if alone {
                self.ask("prints the whole environment");
            }
            return None;
        }
        // `env -C DIR CMD`: the program runs in DIR.
        if let Some(dir) = chdir {
            let moved = Command {
                cwd: Some(if dir.dynamic {
                    parse::UNKNOWN_DIR.to_string()
                } else {
                    // In the parser's spelling of home, as `cd ~` leaves it.
                    let d = self.norm(&dir, c.cwd.as_deref());
                    match d.strip_prefix('~') {
                        Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                            format!("{HOME}{rest}")
                        }
                        _ => d,
                    }
                }),
                cwd_choices: Vec::new(),
                ..c.clone()
            };
            let outer = std::mem::replace(&mut self.cwd_now, moved.cwd.clone());
            self.run_words(std::mem::take(words), &moved, script, depth);
            self.cwd_now = outer;
            return None;
        }
        Some(true)
    }
}

/// The words of the program that really runs, past `env`, `timeout`,
/// `nice` and other wrappers.
/// `unshare`'s words map the user to root in a namespace where it can
/// also mount over folders the sandbox guards (a network namespace alone
/// takes powers away).
fn unshare_root_mounts(words: &[Word]) -> bool {
    let options: Vec<&str> = words
        .iter()
        .map(|w| w.text.as_str())
        .take_while(|x| x.starts_with('-'))
        .collect();
    let root = options.iter().any(|x| {
        matches!(*x, "--map-root-user" | "--map-auto" | "--map-current-user")
            || short_flags(x).is_some_and(|b| b.contains('r'))
    });
    let mounts = options.iter().any(|x| {
        *x == "--mount"
            || x.starts_with("--mount=")
            || short_flags(x).is_some_and(|b| b.contains('m'))
    });
    // Without `-m`, a shell it runs may still `unshare -m` inside.
    let runs_shell = words
        .get(options.len())
        .is_none_or(|w| is_shell(&lower(&base_name(&w.text))) || lower(&w.text).contains("mount"));
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

pub(super) fn peeled(argv: &[Word]) -> &[Word] {
    let mut i = 0;
    let mut last = 0;
    while i < argv.len() {
        last = i;
        let b = lower(&base_name(&argv[i].text));
        let takes = match tables::wrapper(&b) {
            // `busybox APPLET …` is the applet; `busybox --list` is busybox.
            Some(_) if matches!(b.as_str(), "busybox" | "toybox") => {
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
                let flag = t.trim_start_matches('-');
                i += 1;
                if flag.len() == 1 && takes.contains(flag) {
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
