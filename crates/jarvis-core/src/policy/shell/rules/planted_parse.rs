//! What planted text says, read without running it: the steps a CI or
//! task file's YAML runs, a desktop entry's or window manager's commands,
//! the program a planted script shadows, a secret a `.gitignore` lets go,
//! home as other languages spell it.

use super::*;

/// Names a system program is known by: an installed command of the same
/// name in the user's bin folder (first on PATH) runs instead of it.
pub(super) const SHADOWED: &[&str] = &[
    "git", "ssh", "scp", "sudo", "su", "ls", "cat", "cp", "mv", "rm", "python", "python3", "pip",
    "pip3", "node", "npm", "bash", "sh", "zsh", "curl", "wget", "gpg", "ssh-add", "make", "cargo",
    "docker", "kubectl", "vim", "code", "jarvis", "passwd", "env", "id",
];

/// A setting that makes a tool run a program from a folder anyone can
/// write to (`"python.defaultInterpreterPath": "/tmp/x/bin/python"`), or
/// an entry point that installs a command named like a system program
/// (`console_scripts = git = pkg:main`).
pub(super) fn planted_program(text: &str) -> Option<String> {
    let scratch_program = super::code::string_literals(text)
        .into_iter()
        .chain(text.split_whitespace().map(str::to_string))
        .find(|s| {
            let p = s.trim_matches(|ch: char| "\"',;=[]{}()".contains(ch));
            let shared = ["/tmp/", "/var/tmp/", "/dev/shm/"]
                .iter()
                .any(|d| p.starts_with(d));
            let base = p.rsplit('/').next().unwrap_or("");
            // A library preloaded or a module imported from there runs too.
            let library = [".so", ".dylib", ".node"]
                .iter()
                .any(|e| base.ends_with(e) || base.contains(".so."));
            let program = library
                || p.contains("/bin/")
                || is_shell(base)
                || base.starts_with("python")
                || matches!(base, "node" | "ruby" | "perl" | "java" | "php");
            shared && program
        });
    if let Some(p) = scratch_program {
        return Some(format!(
            "makes a tool run a program from a folder anyone can write to ({})",
            shown(&p)
        ));
    }
    let lower = text.to_ascii_lowercase();
    let entry_points = [
        "console_scripts",
        "gui_scripts",
        "[project.scripts]",
        "[tool.poetry.scripts]",
        "\"bin\"",
    ]
    .iter()
    .any(|m| lower.contains(m));
    if !entry_points {
        return None;
    }
    text.lines()
        .filter_map(|line| {
            let key = line.split_once(['=', ':']).map(|(k, _)| k)?;
            Some(
                key.trim()
                    .trim_matches(['"', '\'', ',', '{', ' '])
                    .to_string(),
            )
        })
        .find(|k| SHADOWED.contains(&k.as_str()))
        .map(|k| {
            format!("installs a command named {k}, which would run instead of the system's {k}")
        })
}

/// The shell lines of a CI or task file's steps: `run: cmd`, `- run: |`
/// blocks, `script:` lists, `cmds:` lists.
pub(super) fn yaml_steps(text: &str) -> Vec<String> {
    const KEYS: &[&str] = &[
        "run",
        "script",
        "before_script",
        "after_script",
        "cmds",
        "cmd",
        "command",
        "commands",
        "entrypoint",
        "install",
        "before_install",
        "after_success",
        "after_failure",
        "before_deploy",
        "after_deploy",
        "before",
        "after",
        "hooks",
        "pre",
        "post",
        "bash",
        "sh",
        "pwsh",
    ];
    let mut out = Vec::new();
    let mut block: Option<(usize, Vec<String>)> = None;
    // The indent of a step key whose value is a list (`script:` then
    // `- cmd` lines): only those items are commands.
    let mut list_under: Option<usize> = None;
    // A map whose every value is a command line (Home Assistant's
    // `shell_command:` entries, `name: "curl …"`).
    let mut map_under: Option<(usize, Option<usize>)> = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let item = line.trim_start().starts_with("- ");
        let body = line.trim_start().trim_start_matches("- ").trim();
        if let Some((at, child)) = map_under.as_mut() {
            if body.is_empty() || indent > *at {
                let first = *child.get_or_insert(indent);
                // An entry's value on its line, or a block scalar (`|`, `>-`)
                // whose lines follow, more indented.
                match body.split_once(':').filter(|_| indent == first) {
                    Some((_, v)) if v.trim().starts_with(['|', '>']) => out.push(String::new()),
                    Some((_, v)) => out.push(v.trim().trim_matches(['"', '\'']).to_string()),
                    None if indent > first => {
                        if let Some(last) = out.last_mut() {
                            last.push_str(body);
                            last.push('\n');
                        }
                    }
                    None => {}
                }
                continue;
            }
            map_under = None;
        }
        if matches!(body, "shell_command:" | "shell_commands:") {
            map_under = Some((indent, None));
            continue;
        }
        if let Some((at, lines)) = block.as_mut() {
            if body.is_empty() || indent > *at {
                lines.push(body.to_string());
                continue;
            }
            out.push(lines.join("\n"));
            block = None;
        }
        if list_under.is_some_and(|at| !body.is_empty() && indent <= at && !(item && indent == at))
        {
            list_under = None;
        }
        let keyed = body.split_once(':').filter(|(k, _)| {
            let k = k.trim().trim_matches(['"', '\'']);
            !k.is_empty() && !k.contains(' ')
        });
        let Some((key, value)) = keyed.filter(|(k, _)| {
            KEYS.contains(&k.trim().trim_matches(['"', '\''])) || !(item && list_under.is_some())
        }) else {
            if item && list_under.is_some() && !body.is_empty() {
                out.push(body.trim_matches(['"', '\'']).to_string());
            }
            continue;
        };
        if !KEYS.contains(&key.trim().trim_matches(['"', '\''])) {
            continue;
        }
        // An anchor or a comment after the key: the value follows below.
        let value = value.trim();
        let value = if value.starts_with(['#', '&']) {
            ""
        } else {
            value
        };
        if value.starts_with('|') || value.starts_with('>') {
            block = Some((indent, Vec::new()));
        } else if value.is_empty() {
            list_under = Some(indent);
        } else {
            out.push(value.trim_matches(['"', '\'']).to_string());
        }
    }
    if let Some((_, lines)) = block {
        out.push(lines.join("\n"));
    }
    out
}

/// A `!pattern` line in an ignore file that a secret's name matches
/// (`!.env`, `!*.pem`): it puts that secret back into what a publish, a
/// commit or an image build takes.
pub(super) fn unignored_secret(path: &str, text: &str) -> Option<String> {
    // Every ignore file but a linter's or formatter's, which send nothing
    // anywhere (`.prettierignore`, `.eslintignore`).
    const LINTERS: &[&str] = &[
        ".prettierignore",
        ".eslintignore",
        ".stylelintignore",
        ".markdownlintignore",
        ".rgignore",
        ".ignore",
        ".fdignore",
    ];
    let base = path.rsplit('/').next().unwrap_or(path);
    if !base.ends_with("ignore") || LINTERS.contains(&base) {
        return None;
    }
    text.lines()
        .filter_map(|l| l.trim().strip_prefix('!'))
        .map(|p| p.trim().trim_start_matches('/').trim_end_matches('/'))
        .find(|p| {
            let name = p.rsplit('/').next().unwrap_or(p);
            paths::env_file(name)
                || paths::key_file(name)
                || name.contains(['*', '?', '[']) && paths::glob_could_match_secret(name)
        })
        .map(str::to_string)
}

/// Source code in a language of its own (not settings a tool runs, not
/// shell) that never calls out to a shell or starts a program.
pub(super) fn source_without_shell_calls(path: &str, text: &str) -> bool {
    let source = [
        ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php", ".go", ".rs", ".java", ".lua",
        ".c", ".cpp",
    ]
    .iter()
    .any(|e| path.ends_with(e));
    let l = text.to_ascii_lowercase();
    // Backticks run commands in Ruby, Perl and PHP; in Python and
    // JavaScript they are text.
    let backticks = [".rb", ".pl", ".php"].iter().any(|e| path.ends_with(e))
        && (l.contains('`') || l.contains("qx"));
    let calls = backticks
        || super::code_markers::RUNS.iter().any(|k| l.contains(k))
        || [
            "system", "exec", "spawn", "eval", "popen", "shell", "$`", "command(", "deno.",
        ]
        .iter()
        .any(|k| l.contains(k));
    source && !calls
}

/// Source that names a known service's token variable and a literal URL
/// of a host that is not that service (`os.environ["GITHUB_TOKEN"]` with
/// `https://evil.example/`): the token is meant for elsewhere.
pub(super) fn token_sent_elsewhere(text: &str) -> bool {
    let ident = |ch: char| ch.is_ascii_alphanumeric() || ch == '_';
    let hosts: Vec<String> = text
        .match_indices("://")
        .filter_map(|(at, _)| {
            let rest = &text[at + 3..];
            let end = rest
                .find(|ch: char| ch.is_whitespace() || "\"'`)".contains(ch))
                .unwrap_or(rest.len());
            super::project_out::far_host(&rest[..end])
        })
        .collect();
    text.split(|ch: char| !ident(ch))
        .filter(|w| w.len() > 3 && super::effects::secret_var(w))
        .filter_map(super::tokens::service_hosts)
        .any(|service| hosts.iter().any(|h| !super::tokens::serves(service, h)))
}

/// `${HOME:-/tmp}` and `${HOME-x}`: home whenever it is set.
pub(super) fn home_spelled(piece: &str) -> String {
    let mut out = piece.to_string();
    for opener in ["${HOME:-", "${HOME-", "${HOME:=", "${HOME="] {
        while let Some(at) = out.find(opener) {
            let Some(end) = out[at..].find('}') else {
                break;
            };
            out.replace_range(at..at + end + 1, &HOME.to_string());
        }
    }
    out
}

/// `text` with Ruby's and other languages' home interpolations spelled as
/// the shell's `$HOME`.
pub(super) fn home_spliced(text: &str) -> String {
    if !text.contains("#{") {
        return text.to_string();
    }
    [
        "#{ENV['HOME']}",
        "#{ENV[\"HOME\"]}",
        "#{Dir.home}",
        "#{ENV.fetch('HOME')}",
        "#{ENV.fetch(\"HOME\")}",
        "#{File.expand_path('~')}",
    ]
    .iter()
    .fold(text.to_string(), |t, k| t.replace(k, "$HOME"))
}

/// The command lines of a window manager's, a bar's or a file manager's
/// config under `~/.config` (a whole script for bspwmrc, autostart, lfrc).
pub(super) fn desktop_commands(path: &str, text: &str) -> Vec<String> {
    const APPS: &[&str] = &[
        "i3",
        "sway",
        "hypr",
        "bspwm",
        "herbstluftwm",
        "labwc",
        "river",
        "niri",
        "awesome",
        "qtile",
        "polybar",
        "waybar",
        "dunst",
        "lf",
        "ranger",
        "wayfire",
        "openbox",
    ];
    let Some(rest) = path.strip_prefix("~/.config/") else {
        return Vec::new();
    };
    let app = rest.split('/').next().unwrap_or("");
    if !APPS.contains(&app) {
        return Vec::new();
    }
    let base = rest.rsplit('/').next().unwrap_or(rest);
    if matches!(base, "bspwmrc" | "autostart" | "lfrc" | "autostart.sh") {
        return vec![text.to_string()];
    }
    text.lines()
        .filter_map(|l| {
            let t = l.trim_start();
            // (awesome's `awful.spawn(…)`, qtile's `lazy.spawn(…)`.)
            let at = ["exec", "script", "command", "on-click", "spawn"]
                .iter()
                .filter_map(|k| t.find(k))
                .min()?;
            let rest = t[at..].trim_start_matches(|ch: char| {
                ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-')
            });
            let rest = rest
                .trim_start()
                .trim_start_matches(['=', ':'])
                .trim_start();
            let rest = rest.strip_prefix("--no-startup-id").unwrap_or(rest).trim();
            (!rest.is_empty()).then(|| rest.trim_matches('"').to_string())
        })
        .collect()
}
