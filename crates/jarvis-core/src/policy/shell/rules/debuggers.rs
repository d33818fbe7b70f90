//! Debuggers on the command line: attached to a running process, and
//! told to run code in it.

use super::*;

/// The commands a debugger is given on its command line (`-ex CMD`,
/// `--eval-command=CMD`, lldb's `-o CMD`), and its positional operands
/// (a program, then a pid or core) up to `--args`.
pub(super) fn debugger_line(args: &[String]) -> (Vec<String>, Vec<String>) {
    let (mut cmds, mut positional) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let flag = a.trim_start_matches('-');
        if a.starts_with('-') && matches!(flag, "ex" | "eval-command" | "o" | "one-line" | "iex") {
            cmds.extend(args.get(i + 1).cloned());
            i += 2;
            continue;
        }
        if let Some((name, value)) = flag.split_once('=')
            && a.starts_with('-')
            && matches!(name, "ex" | "eval-command" | "one-line")
        {
            cmds.push(value.to_string());
        } else if a.starts_with('-')
            && matches!(
                flag,
                "x" | "ix" | "cd" | "d" | "s" | "e" | "c" | "p" | "pid" | "n"
            )
        {
            // An option with a value; `-p`'s is the pid, judged by `attaches`.
            i += 1;
        } else if flag == "args" && a.starts_with("--") {
            positional.extend(args.get(i + 1).cloned());
            break;
        } else if !a.starts_with('-') {
            positional.push(a.to_string());
        }
        i += 1;
    }
    (cmds, positional)
}

/// A debugger told to attach to a running process (`-p PID`, `--pid`,
/// `attach PID`, `lldb -n NAME`, `gdb PROG PID`).
pub(super) fn attaches(b: &str, args: &[String]) -> bool {
    let flag = args.iter().any(|a| {
        let l = lower(a);
        let f = l.trim_start_matches('-');
        l.starts_with('-')
            && (f == "p"
                || f == "pid"
                || f.starts_with("pid=")
                || f.starts_with("attach")
                || (f == "n" && b == "lldb")
                || (l.starts_with("-p")
                    && l.len() > 2
                    && l[2..].bytes().all(|b| b.is_ascii_digit())))
    });
    let (cmds, positional) = debugger_line(args);
    let command = cmds.iter().any(|c| {
        let l = lower(c.trim());
        let verb = l.split_whitespace().next().unwrap_or("");
        (verb.len() >= 3 && "attach".starts_with(verb)) || l.starts_with("process attach")
    });
    let pid_operand = positional.len() == 2
        && positional[1].bytes().all(|b| b.is_ascii_digit())
        && !positional[1].is_empty();
    flag || command || pid_operand
}

/// A debugger command that changes the target: calls a function in it,
/// writes its memory or registers, moves its program counter, or runs a
/// script that can do any of these.
pub(super) fn injects(cmd: &str) -> bool {
    let l = lower(cmd.trim());
    let (verb, rest) = l
        .split_once(char::is_whitespace)
        .unwrap_or((l.as_str(), ""));
    let r = rest.trim_start();
    match verb {
        "call" | "compile" | "jump" | "expr" | "expression" | "e" | "po" | "return" | "python"
        | "py" | "pi" | "python-interactive" | "eval" | "script" | "guile" | "gu" => true,
        // `set var x=1`, `set {int}0x… = 0`, `set auth_ok=1`; a setting
        // of gdb's own (`set pagination off`) has no `=`.
        "set" => r.starts_with("var") || r.starts_with(['{', '*', '$', '(']) || r.contains('='),
        "print" | "p" | "output" | "print-object" => r.contains('(') || r.contains('='),
        "memory" | "register" => r.starts_with("write"),
        _ => false,
    }
}

/// The shell command a gdb command pipes to: `pipe CMD | SHELL`,
/// `| CMD | SHELL`, and a remote target reached through a program
/// (`target remote | SHELL`, `tar ext | SHELL`: gdb takes any
/// unambiguous abbreviation).
pub(super) fn piped_shell(cmd: &str) -> Option<&str> {
    let t = cmd.trim_start();
    let verb = t.split(|ch: char| ch.is_whitespace() || ch == '|').next()?;
    let l = lower(verb);
    let pipes = t.starts_with('|') || l == "pipe";
    let target = l.len() >= 3 && "target".starts_with(&l);
    if !(pipes || target) {
        return None;
    }
    let rest = t.strip_prefix('|').unwrap_or(t);
    // `pipe -d DELIM CMD DELIM SHELL`: a delimiter of its own.
    let words: Vec<&str> = rest.split_whitespace().collect();
    if pipes && words.get(1) == Some(&"-d") {
        let delim = words.get(2)?;
        let after = rest.find(delim)? + delim.len();
        let at = rest[after..].find(delim)? + after + delim.len();
        return Some(rest[at..].trim());
    }
    rest.split_once('|').map(|(_, sh)| sh.trim())
}
