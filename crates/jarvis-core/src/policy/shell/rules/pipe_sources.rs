//! What a pipe's source holds: the environment dumped, secrets searched
//! for, the shell's history, the clipboard, a wire trace, a function's body.

use super::*;

/// A program printing every variable with its value (`env`, `printenv`,
/// `set`, `declare -p`, jq's `env`), or values by computed names
/// (`echo "${!AWS@}"`).
pub(super) fn dumps_env(pa: &[Word]) -> bool {
    let pb = pa
        .first()
        .map(|w| program_name(&w.text))
        .unwrap_or_default();
    let flags_only = pa.iter().skip(1).all(|w| w.text.starts_with('-'));
    // `export${IFS}-p`: the separator glued on is still a separator.
    let listing = pa.iter().skip(1).all(|w| {
        let t = w.text.replace("${IFS}", " ").replace("$IFS", " ");
        t.split_whitespace()
            .all(|x| matches!(x, "-p" | "-x" | "-px" | "-xp"))
    });
    // `npm run env`: the package manager's built-in script prints it all.
    let run_env = matches!(pb.as_str(), "npm" | "pnpm" | "yarn" | "bun")
        && pa
            .iter()
            .skip(1)
            .filter(|w| !w.text.starts_with('-'))
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .as_slice()
            .ends_with(&["env"])
        && pa
            .iter()
            .skip(1)
            .any(|w| matches!(w.text.as_str(), "run" | "run-script"));
    // `direnv export json`: what the folder's `.envrc` sets, its secrets.
    // (tmux's and kitty's copies of the environment too.)
    let direnv = pb == "direnv"
        && (pa
            .get(1)
            .is_some_and(|w| matches!(w.text.as_str(), "export" | "dump"))
            || pa.get(1).is_some_and(|w| w.text == "exec")
                && pa
                    .get(3)
                    .is_some_and(|w| matches!(program_name(&w.text).as_str(), "env" | "printenv")))
        || pb == "tmux"
            && pa
                .iter()
                .any(|w| tmux_command(&w.text) == Some("show-environment"))
        || matches!(pb.as_str(), "kitty" | "kitten" | "@")
            && pa.iter().any(|w| w.text == "--all-env-vars");
    run_env
        || direnv
        || matches!(pb.as_str(), "env" | "printenv" | "compgen") && flags_only
        || pb == "set" && pa.len() == 1
        || matches!(pb.as_str(), "export" | "declare" | "typeset") && listing
        || matches!(pb.as_str(), "echo" | "printf" | "print")
            && pa
                .iter()
                .skip(1)
                .any(|w| w.dynamic && w.text.contains("${!"))
        // The session manager's environment (`systemctl --user
        // show-environment`), which the session's programs inherit.
        || pb == "systemctl"
            && pa.iter().any(|w| w.text == "show-environment")
        || pb == "launchctl" && pa.iter().any(|w| w.text == "getenv" || w.text == "export")
        // Gradle's `properties` task prints every project property, the
        // signing passwords and keys of `~/.gradle/gradle.properties` too.
        || matches!(pb.as_str(), "gradle" | "gradlew")
            && pa
                .iter()
                .skip(1)
                .any(|w| w.text == "properties" || w.text.ends_with(":properties"))
        || matches!(pb.as_str(), "jq" | "yq" | "gojq" | "jaq")
            && pa
                .iter()
                .skip(1)
                .any(|w| super::servers::jq_env(&w.text).whole)
}

/// A search whose pattern names secrets (`grep -r 'api_key|token' logs`,
/// `find . -name '.env*'`, a query of a `password` column): what it
/// prints is the secrets it found.
pub(super) fn harvests_secrets(pa: &[Word]) -> bool {
    let Some(first) = pa.first() else {
        return false;
    };
    let b = program_name(&first.text);
    let words = || pa[1..].iter().map(|w| lower(&w.text));
    let named = |t: &str| names_secret(t);
    match b.as_str() {
        "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" | "zgrep" => words().any(|t| named(&t)),
        "git" => {
            let sub = pa.get(1).map(|w| w.text.as_str());
            sub == Some("grep") && words().any(|t| named(&t))
                || sub == Some("ls-files")
                    && words().any(|t| t.starts_with("-i") || t == "--ignored")
        }
        "find" | "fd" | "fdfind" | "locate" | "plocate" => pa[1..].iter().any(|w| {
            let t = w.text.trim_matches(['\'', '"']);
            !t.starts_with('-')
                && t.contains(['*', '?', '.'])
                && (paths::glob_could_match_secret(t) || t.starts_with(".env"))
                && t != "*"
        }),
        "sqlite3" | "psql" | "mysql" | "mariadb" | "duckdb" => {
            words().any(|t| t.contains("select") && (named(&t) || t.contains("hash")))
        }
        _ => false,
    }
}

/// The shell's history printed (`history`, `fc -l`), or the command line
/// running now (`$BASH_COMMAND`: in a DEBUG trap, every later line).
pub(super) fn reads_history(pa: &[Word]) -> bool {
    let pb = pa
        .first()
        .map(|w| program_name(&w.text))
        .unwrap_or_default();
    let word = |i: usize| pa.get(i).map_or("", |w| w.text.as_str());
    matches!(pb.as_str(), "echo" | "printf" | "print")
        && pa.iter().skip(1).any(|w| w.text.contains("BASH_COMMAND"))
        || pb == "history"
            && pa
                .iter()
                .skip(1)
                .all(|w| !matches!(w.text.as_str(), "-c" | "-d"))
        || pb == "fc"
            && pa
                .iter()
                .any(|w| w.text.starts_with('-') && w.text.contains('l'))
        // atuin's and mcfly's databases of every command typed.
        || pb == "atuin" && matches!(word(1), "history" | "search")
        || pb == "mcfly" && word(1) == "search"
}

/// A program printing what a terminal shows or scrolled past (tmux's
/// `capture-pane`, kitty's and WezTerm's `get-text`): passwords typed at
/// prompts, tokens printed by tools.
pub(super) fn reads_terminal(pa: &[Word]) -> bool {
    let pb = pa
        .first()
        .map(|w| program_name(&w.text))
        .unwrap_or_default();
    // (Past `xargs -I{}` and the like: the program it runs for each line.)
    let at = pa
        .iter()
        .position(|w| {
            matches!(
                program_name(&w.text).as_str(),
                "tmux" | "kitty" | "kitten" | "wezterm"
            )
        })
        .filter(|_| {
            matches!(
                pb.as_str(),
                "xargs" | "parallel" | "watch" | "timeout" | "env"
            )
        });
    let (pb, from) = match at {
        Some(i) => (program_name(&pa[i].text), i + 1),
        None => (pb, 1),
    };
    let words: Vec<&str> = pa.iter().skip(from).map(|w| w.text.as_str()).collect();
    match pb.as_str() {
        "tmux" => words.iter().any(|w| {
            matches!(
                tmux_command(w),
                Some("capture-pane" | "show-buffer" | "save-buffer")
            )
        }),
        "kitty" | "kitten" => words.contains(&"@") && words.contains(&"get-text"),
        "wezterm" => words.starts_with(&["cli", "get-text"]),
        _ => false,
    }
}

/// A program printing the clipboard or the selection (`xclip -o`,
/// `wl-paste`, `pbpaste`, `Get-Clipboard`).
pub(super) fn reads_clipboard(argv: &[Word]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    let b = program_name(&first.text);
    let has = |f: &[&str]| argv.iter().skip(1).any(|w| f.contains(&w.text.as_str()));
    match b.as_str() {
        "wl-paste" | "pbpaste" | "get-clipboard" | "gcb" | "termux-clipboard-get" => true,
        "xclip" => has(&["-o", "-out"]),
        "xsel" => {
            has(&["-o", "--output"]) || !has(&["-i", "--input", "-a", "--append", "-c", "--clear"])
        }
        "copyq" => has(&["read", "clipboard"]),
        _ => false,
    }
}

/// A variable that makes a program trace its network traffic, set on.
pub(super) fn traces_wire(name: &str, value: &Word) -> bool {
    let up = name.to_ascii_uppercase();
    let v = lower(value.text.trim_matches(['"', '\'']));
    let on = value.dynamic || !matches!(v.as_str(), "0" | "false" | "no" | "off" | "");
    on && (up.starts_with("GIT_TRACE") && !up.contains("REDACT")
        || matches!(
            up.as_str(),
            "GIT_CURL_VERBOSE" | "CURL_VERBOSE" | "NODE_DEBUG" | "HTTPS_DEBUG"
        )
        // Terraform's (and OpenTofu's) log: providers' requests, headers and
        // tokens with them.
        // (`TF_LOG_CORE`, `TF_LOG_SDK`, `TF_LOG_PROVIDER_AWS`; not the
        // log's path.)
        || up.starts_with("TF_LOG") && up != "TF_LOG_PATH"
        || up == "GODEBUG" && v.contains("http"))
}

/// The commands of the body of the function `c` calls, as parsed where it
/// is defined (none when `c` calls no function of the line).
pub(super) fn called_body<'s>(
    script: &'s Script,
    c: &Command,
) -> impl Iterator<Item = &'s Command> {
    let name = c.argv.first().map(|w| w.text.as_str()).unwrap_or("");
    script
        .function_spans
        .iter()
        .filter(move |(n, _)| !name.is_empty() && n == name)
        .flat_map(move |(_, r)| script.commands.get(r.clone()).into_iter().flatten())
}

/// Words that name a secret in a search pattern or a program's text.
pub(super) fn names_secret(t: &str) -> bool {
    const SECRET_WORDS: &[&str] = &[
        "token",
        "secret",
        "passw",
        "api_key",
        "apikey",
        "api-key",
        "bearer",
        "private",
        "credential",
        "access_key",
        "authorization",
    ];
    // (SNMP's community strings are its devices' passwords.)
    SECRET_WORDS.iter().any(|k| t.contains(k))
        || t.contains("snmp") && t.contains("comm")
        || t.contains("rocommunity")
        || t.contains("rwcommunity")
}

/// tmux's commands, for its rule that any unique prefix (`ca`, `show-e`)
/// or alias (`capturep`, `showenv`) names one.
const TMUX_COMMANDS: &[&str] = &[
    "attach-session",
    "bind-key",
    "break-pane",
    "capture-pane",
    "choose-buffer",
    "choose-client",
    "choose-tree",
    "clear-history",
    "clock-mode",
    "command-prompt",
    "confirm-before",
    "copy-mode",
    "customize-mode",
    "delete-buffer",
    "detach-client",
    "display-menu",
    "display-message",
    "display-panes",
    "display-popup",
    "find-window",
    "has-session",
    "if-shell",
    "join-pane",
    "kill-pane",
    "kill-server",
    "kill-session",
    "kill-window",
    "last-pane",
    "last-window",
    "link-window",
    "list-buffers",
    "list-clients",
    "list-commands",
    "list-keys",
    "list-panes",
    "list-sessions",
    "list-windows",
    "load-buffer",
    "lock-client",
    "lock-server",
    "lock-session",
    "move-pane",
    "move-window",
    "new-session",
    "new-window",
    "next-layout",
    "next-window",
    "paste-buffer",
    "pipe-pane",
    "previous-layout",
    "previous-window",
    "refresh-client",
    "rename-session",
    "rename-window",
    "resize-pane",
    "resize-window",
    "respawn-pane",
    "respawn-window",
    "rotate-window",
    "run-shell",
    "save-buffer",
    "select-layout",
    "select-pane",
    "select-window",
    "send-keys",
    "send-prefix",
    "server-access",
    "set-buffer",
    "set-environment",
    "set-hook",
    "set-option",
    "set-window-option",
    "show-buffer",
    "show-environment",
    "show-hooks",
    "show-messages",
    "show-options",
    "show-window-options",
    "source-file",
    "split-window",
    "start-server",
    "suspend-client",
    "swap-pane",
    "swap-window",
    "switch-client",
    "unbind-key",
    "unlink-window",
    "wait-for",
];

/// The tmux command a word names: itself, an alias, or a unique prefix.
pub(super) fn tmux_command(word: &str) -> Option<&'static str> {
    const ALIASES: &[(&str, &str)] = &[
        ("capturep", "capture-pane"),
        ("showb", "show-buffer"),
        ("saveb", "save-buffer"),
        ("setb", "set-buffer"),
        ("pasteb", "paste-buffer"),
        ("send", "send-keys"),
        ("showenv", "show-environment"),
        ("new", "new-session"),
        ("neww", "new-window"),
        ("splitw", "split-window"),
        ("respawnp", "respawn-pane"),
        ("respawnw", "respawn-window"),
        ("popup", "display-popup"),
        ("if", "if-shell"),
        ("display", "display-message"),
        ("run", "run-shell"),
        ("pipep", "pipe-pane"),
        ("source", "source-file"),
    ];
    if let Some((_, full)) = ALIASES.iter().find(|(a, _)| *a == word) {
        return Some(full);
    }
    let mut found = TMUX_COMMANDS.iter().filter(|c| c.starts_with(word));
    match (found.next(), found.next()) {
        (Some(one), None) if !word.is_empty() && !word.starts_with('-') => Some(one),
        _ => TMUX_COMMANDS.iter().find(|c| **c == word).copied(),
    }
}

/// A program asking the user for a password and printing it: pinentry
/// told to `GETPIN`, `zenity --password`, `kdialog --password`,
/// `systemd-ask-password`, an askpass helper.
pub(super) fn reads_prompted_secret(pa: &[Word]) -> bool {
    let pb = pa
        .first()
        .map(|w| program_name(&w.text))
        .unwrap_or_default();
    let has = |f: &str| {
        pa.iter()
            .skip(1)
            .any(|w| w.text == f || w.text.starts_with(&format!("{f}=")))
    };
    pb.starts_with("pinentry")
        || matches!(
            pb.as_str(),
            "systemd-ask-password" | "ssh-askpass" | "ksshaskpass" | "lxqt-openssh-askpass"
        )
        || pb == "zenity" && (has("--password") || has("--entry") && has("--hide-text"))
        || pb == "kdialog" && has("--password")
        || matches!(pb.as_str(), "whiptail" | "dialog") && has("--passwordbox")
        || pb == "gum" && has("--password")
        || pb == "rofi" && has("-password")
        || pb == "zenity" && pa.iter().any(|w| w.text.starts_with("--add-password"))
        || pb == "yad" && has("--hide-text")
        || pb == "yad" && pa.iter().any(|w| w.text.contains(":H"))
}
