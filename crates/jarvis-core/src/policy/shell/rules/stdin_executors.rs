//! What runs its input as code: a shell or interpreter without a script
//! of its own, `make -f -`, `at`, a database client given no statements,
//! sed's `e`.

use super::*;

/// How a database client reading its statements from the pipe is named.
pub(super) const STATEMENTS: &str = " (its statements can run programs)";

/// A database client given no statements of its own reads them from its
/// input (`psql -h db app`, `sqlite3 app.db`, `redis-cli --pipe`).
fn db_reads_statements(b: &str, rest: &[&str]) -> bool {
    let given = |flags: &[&str]| {
        rest.iter().any(|x| {
            flags
                .iter()
                .any(|f| x == f || eq_value(x, f).is_some() || (f.len() == 2 && x.starts_with(f)))
        })
    };
    // Options whose value is a word of their own (a host, a port, a user).
    const VALUED: &[&str] = &[
        "-h",
        "-p",
        "-a",
        "-n",
        "-u",
        "-U",
        "-d",
        "-P",
        "--user",
        "--pass",
        "--host",
        "--port",
        "-cmd",
        "-init",
        "-separator",
        "-newline",
        "-nullvalue",
    ];
    let mut operands = 0;
    let mut i = 0;
    while i < rest.len() {
        let x = rest[i];
        if VALUED.contains(&x) {
            i += 2;
            continue;
        }
        operands += usize::from(!x.starts_with('-'));
        i += 1;
    }
    // `-f -` and `--file=-` read the statements from the input after all.
    let stdin_file = rest
        .windows(2)
        .any(|w| matches!(w[0], "-f" | "--file") && w[1] == "-")
        || rest.contains(&"--file=-");
    match b {
        "psql" => stdin_file || !given(&["-c", "--command", "-f", "--file", "-l", "--list"]),
        "mysql" | "mariadb" => !given(&["-e", "--execute"]),
        "clickhouse-client" => !given(&["-q", "--query", "--queries-file"]),
        "cqlsh" => stdin_file || !given(&["-e", "--execute", "-f", "--file"]),
        "redis-cli" => rest.contains(&"--pipe") || operands == 0,
        // `sqlite3 app.db 'SELECT …'`: the statements are the second
        // operand (`-cmd`'s run first, and the input is still read).
        _ => operands <= 1,
    }
}

/// What runs the command's stdin as code: a shell or interpreter without a
/// script of its own, `make -f -`, `at`. `None` when stdin is only data.
pub(super) fn stdin_executor(c: &Command) -> Option<String> {
    let mut words: Vec<&str> = c.argv.iter().map(|w| w.text.as_str()).collect();
    loop {
        let first = *words.first()?;
        let b = program_name(first);
        // `xargs sh -c`: each item of the input becomes the shell's script.
        if b == "xargs"
            && let Some(at) = words.iter().position(|x| is_shell(&program_name(x)))
            && words[at + 1..].iter().all(|x| x.starts_with('-'))
            && words[at + 1..].iter().any(|x| short_has(x, 'c'))
        {
            return Some(program_name(words[at]));
        }
        // `xargs -I% sh -c '%'`: the replaced item is the script (its
        // command, not a quoted argument of one).
        if b == "xargs"
            && let Some(mark) = xargs_replace(&words)
            && let Some(at) = words.iter().position(|x| is_shell(&program_name(x)))
            && let Some(c_at) = words[at + 1..].iter().position(|x| short_has(x, 'c'))
            && words
                .get(at + 2 + c_at)
                .is_some_and(|script| script.trim_start().starts_with(mark.as_str()))
        {
            return Some(program_name(words[at]));
        }
        if tables::PRIVILEGE.contains(&b.as_str()) || b == "env" || tables::wrapper(&b).is_some() {
            // A wrapper's option may take a value (`env -C /tmp sh`,
            // `flock -n /tmp/l sh`, `strace -o x sh`): a shell or an
            // interpreter anywhere after it is what runs, else the first
            // word that is not an option.
            let runs = |x: &&str| {
                let b = program_name(x);
                is_shell(&b) || tables::interpreter(&b).is_some()
            };
            let next = words
                .iter()
                .skip(1)
                .position(|x| !x.starts_with('-') && runs(x))
                .or_else(|| {
                    words.iter().skip(1).position(|x| {
                        !x.starts_with('-')
                            && !x.contains('=')
                            && !x.chars().all(|ch| ch.is_ascii_digit())
                    })
                })?;
            words = words[next + 1..].to_vec();
            continue;
        }
        // `poetry run python`, `uv run --with x python -`: the program run.
        if let Some((at, _)) = super::env_runners::runner_inner(&words) {
            words = words[at..].to_vec();
            continue;
        }
        let rest = &words[1..];
        let stdin_file =
            |x: &&str| matches!(*x, "-" | "/dev/stdin" | "/proc/self/fd/0" | "/dev/fd/0");
        if super::env_runners::runs_stdin_script(&words) {
            return Some(b);
        }
        if let Some(lang) = super::consoles::console_language(&words) {
            return Some(lang.to_string());
        }
        if is_shell(&b) {
            let has_code = rest.iter().any(|x| short_has(x, 'c'));
            let file = rest
                .iter()
                .find(|x| !x.starts_with('-') && !x.starts_with('+'));
            let explicit = rest.iter().any(|x| *x == "-s" || (short_has(x, 's')))
                || rest.iter().any(stdin_file);
            return (!has_code && (file.is_none() || explicit || file.is_some_and(stdin_file)))
                .then(|| b.clone());
        }
        // MongoDB's shells take a connection string, not a script: with no
        // `--eval` or script file, what arrives on the input runs.
        if matches!(b.as_str(), "mongosh" | "mongo") {
            let given = rest
                .iter()
                .any(|x| matches!(*x, "--eval" | "-f" | "--file") || x.ends_with(".js"));
            return (!given).then(|| format!("{b}{STATEMENTS}"));
        }
        if let Some(flags) = tables::interpreter(&b) {
            let code_at = rest.iter().position(|x| {
                flags.contains(&lower(x).as_str())
                    || (b == "perl" && x.starts_with('-') && x.ends_with('e'))
            });
            // `python3 -c 'exec(sys.stdin.read())'` runs what arrives on stdin.
            if let Some(code) = code_at.and_then(|i| rest.get(i + 1)) {
                // `pwsh -Command -`: the command is read from the input.
                if matches!(b.as_str(), "pwsh" | "powershell") && stdin_file(code) {
                    return Some(b.clone());
                }
                let l = lower(code);
                if code::reads_stdin(&l) && code::runs_code_in(&b, &l) {
                    return Some(b.clone());
                }
            }
            let has_code = code_at.is_some();
            // `python3 - --path x`: what follows `-` is the program's own.
            let file = rest.iter().find(|x| !x.starts_with('-') || stdin_file(x));
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
            // A database client runs the statements on its input, and they
            // can run programs (psql's and mysql's `\!`, `COPY … TO
            // PROGRAM`, sqlite's `.shell`, redis's `MODULE LOAD`).
            "psql" | "mysql" | "mariadb" | "sqlite3" | "sqlite" | "duckdb" | "redis-cli"
            | "clickhouse-client" | "cqlsh"
                if db_reads_statements(&b, rest) =>
            {
                Some(format!("{b}{STATEMENTS}"))
            }
            // `kubectl exec -i POD -- sh`: a shell in the cluster runs what
            // the pipe carries.
            "kubectl" | "oc"
                if rest.contains(&"exec")
                    && rest.iter().any(|x| {
                        *x == "--stdin" || short_flags(x).is_some_and(|f| f.contains('i'))
                    })
                    && rest
                        .iter()
                        .position(|x| *x == "--")
                        .and_then(|at| rest.get(at + 1..))
                        .is_some_and(|cmd| {
                            cmd.first().is_some_and(|p| is_shell(&base_name(p)))
                                && !cmd[1..].iter().any(|w| short_has(w, 'c'))
                        }) =>
            {
                Some(format!("{b}'s remote shell"))
            }
            // `ssh host bash`, `ssh host 'sh -s'`: a shell over there runs
            // what the pipe carries.
            "ssh" | "autossh"
                if rest
                    .iter()
                    .skip_while(|x| x.starts_with('-'))
                    .skip(1)
                    .any(|x| {
                        let mut words = x.split_whitespace();
                        let first = words.next().map(base_name).unwrap_or_default();
                        is_shell(&first) && !words.any(|w| short_has(w, 'c'))
                    }) =>
            {
                Some(format!("{b}'s remote shell"))
            }
            // fish's `source` with no file reads stdin (`curl … | source`).
            "source" | "." if rest.first().is_none_or(stdin_file) => Some(b),
            "eval" => Some(b).filter(|_| false),
            "iex" | "invoke-expression" => Some(b),
            // Windows' cmd with no `/c` reads its commands from the input.
            "cmd" | "cmd.exe"
                if !rest
                    .iter()
                    .any(|x| matches!(lower(x).as_str(), "/c" | "/k" | "/r")) =>
            {
                Some(b)
            }
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
            // Programs whose stdin is code of their own language.
            "m4" | "dc"
                if !rest
                    .iter()
                    .any(|x| !x.starts_with('-') || *x == "-e" || *x == "-f") =>
            {
                Some(b)
            }
            // dc's `?` reads a line of input and runs it as dc code.
            "dc" if rest.iter().any(|x| x.contains('?')) => Some(b),
            "cmake" if rest.windows(2).any(|w| w[0] == "-P" && stdin_file(&w[1])) => Some(b),
            // `echo 'file("~/.ssh/id_rsa")' | tofu console`: expressions run.
            "terraform" | "tofu" if rest.first() == Some(&"console") => Some(b),
            "ninja" if rest.windows(2).any(|w| w[0] == "-f" && stdin_file(&w[1])) => Some(b),
            // `sed e`: each input line runs as a shell command.
            "sed" | "gsed" if sed_executes_input(rest) => Some("sh".into()),
            _ => None,
        };
    }
}

/// A sed script that runs its input lines as commands (`e`, `s///e`).
fn sed_executes_input(rest: &[&str]) -> bool {
    let args: Vec<String> = rest.iter().map(|x| x.to_string()).collect();
    let mut scripts = super::awk_sed::sed_scripts(&args);
    if scripts.is_empty() {
        scripts.extend(
            rest.iter()
                .find(|x| !x.starts_with('-'))
                .map(|x| x.to_string()),
        );
    }
    scripts.iter().any(|s| super::awk_sed::sed_runs_lines(s))
}

/// xargs's replace string (`-I X`, `-IX`, `--replace=X`, `-i` for `{}`).
fn xargs_replace(words: &[&str]) -> Option<String> {
    for (i, w) in words.iter().enumerate().skip(1) {
        if *w == "-I" {
            return words.get(i + 1).map(|m| m.to_string());
        }
        if let Some(m) = w.strip_prefix("-I").filter(|m| !m.is_empty()) {
            return Some(m.to_string());
        }
        if let Some(m) = w.strip_prefix("--replace=") {
            return Some(m.to_string());
        }
        if *w == "-i" || *w == "--replace" {
            return Some("{}".to_string());
        }
        if !w.starts_with('-') {
            break;
        }
    }
    None
}
