//! Read-only questions to terminal and editor tools: versions, listings,
//! a filter over the lines it is given. Each is an exact form; anything
//! that sends keys, runs a format's shell command (`#(…)` in tmux) or
//! starts a program is left to the rules that judge it.

/// `lb` with `a` (its arguments) only reports.
pub(super) fn queries(lb: &str, a: &[&str]) -> bool {
    match (lb, a) {
        ("tmux", ["-V"]) | ("screen", ["-v" | "--version" | "-ls" | "-list"]) => true,
        ("sops", ["filestatus", _]) => true,
        ("zellij" | "starship" | "zoxide" | "atuin" | "fzf" | "code" | "codium", [v])
            if matches!(*v, "--version" | "-V" | "-v") =>
        {
            !(matches!(lb, "fzf" | "code" | "codium") && *v == "-V")
        }
        // tmux's listings; a format may hold `#(command)`, which tmux runs.
        (
            "tmux",
            [
                "list-sessions" | "ls" | "list-windows" | "lsw" | "list-panes" | "lsp"
                | "list-clients" | "lsc",
                rest @ ..,
            ],
        ) => listing(rest),
        // The frecency database's folders, printed.
        ("zoxide", ["query", rest @ ..]) => rest.iter().all(|x| {
            !x.starts_with('-')
                || matches!(
                    *x,
                    "-l" | "--list" | "-s" | "--score" | "-a" | "--all" | "--exclude"
                )
        }),
        ("code" | "codium", ["--list-extensions", rest @ ..]) => rest
            .iter()
            .all(|x| matches!(*x, "--show-versions") || x.starts_with("--category=")),
        ("starship", ["print-config", rest @ ..]) => rest
            .iter()
            .all(|x| !x.starts_with('-') || *x == "--default"),
        // `fzf --filter Q`: no screen, no key bindings, no preview; the
        // matching lines of its input printed.
        ("fzf", rest)
            if rest
                .iter()
                .any(|x| matches!(*x, "-f" | "--filter") || x.starts_with("--filter=")) =>
        {
            filter_options(rest)
        }
        _ => false,
    }
}

fn listing(rest: &[&str]) -> bool {
    let mut i = 0;
    while let Some(x) = rest.get(i) {
        match *x {
            "-a" | "-s" => {}
            "-F" | "-t" | "-f" => {
                let Some(v) = rest.get(i + 1) else {
                    return false;
                };
                if !plain_format(v) {
                    return false;
                }
                i += 1;
            }
            _ => return false,
        }
        i += 1;
    }
    true
}

fn filter_options(rest: &[&str]) -> bool {
    let mut i = 0;
    while let Some(x) = rest.get(i) {
        let (flag, inline) = match x.split_once('=') {
            Some((f, _)) if f.starts_with("--") => (f, true),
            _ => (*x, false),
        };
        match flag {
            "-e" | "--exact" | "-i" | "+i" | "--no-sort" | "--tac" | "--read0" | "--print0"
            | "--ansi" | "-m" | "--multi" | "+s" | "-1" | "-0" | "--select-1" | "--exit-0"
            | "--literal" | "-x" | "--extended" | "+x" | "--sync" => {}
            "-f" | "--filter" | "-q" | "--query" | "-n" | "--nth" | "--with-nth" | "-d"
            | "--delimiter" | "--tiebreak" | "--scheme" => {
                if !inline {
                    if rest.get(i + 1).is_none() {
                        return false;
                    }
                    i += 1;
                }
            }
            _ => return false,
        }
        i += 1;
    }
    true
}

/// A tmux format naming variables only (`#{session_name}`): no `#(…)`
/// command, no modifier (`#{E:…}` expands a value again as a format, so
/// a `#(…)` inside a pane's title would run).
fn plain_format(v: &str) -> bool {
    if v.contains("#(") {
        return false;
    }
    v.split("#{").skip(1).all(|part| {
        part.split_once('}').is_some_and(|(name, _)| {
            // (`t:` formats a time; other modifiers re-expand or run.)
            tmux_variable(name.strip_prefix("t:").unwrap_or(name))
        })
    })
}

/// One of tmux's own format variables; any other name is looked up in the
/// environment (`#{GITHUB_TOKEN}`, `#{https_proxy}`).
pub(super) fn tmux_variable(name: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "session_",
        "window_",
        "pane_",
        "client_",
        "buffer_",
        "cursor_",
        "history_",
        "mouse_",
        "alternate_",
        "copy_",
        "scroll_",
        "selection_",
        "search_",
        "server_",
        "start_",
        "popup_",
        "command_",
        "hook_",
        "line",
        "last_window_",
        "active_window_",
        "insert_",
        "keypad_",
        "wrap_",
        "origin_",
    ];
    matches!(
        name,
        "host" | "host_short" | "pid" | "version" | "socket_path" | "uid" | "user"
    ) || PREFIXES.iter().any(|p| name.starts_with(p))
        && name
            .chars()
            .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_')
}
