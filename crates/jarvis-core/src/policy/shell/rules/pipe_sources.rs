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
    let direnv = pb == "direnv" && pa.get(1).is_some_and(|w| w.text == "export")
        || pb == "tmux"
            && pa
                .iter()
                .any(|w| matches!(w.text.as_str(), "show-environment" | "showenv"))
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
        // (tmux takes any unique prefix of a command: `capture`, `save-b`.)
        "tmux" => words.iter().any(|w| {
            ["capture-pane", "show-buffer", "save-buffer"]
                .iter()
                .any(|full| w.len() >= 4 && full.starts_with(*w))
                || matches!(*w, "capturep" | "showb" | "saveb")
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
        || pb == "yad" && pa.iter().any(|w| w.text.contains(":H"))
}
