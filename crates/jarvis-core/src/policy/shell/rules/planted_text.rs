//! Text a line writes into a file a tool runs later: a project's hook,
//! a runner in a build config, a dev container's command, a CI step, a
//! test fixture loaded on start. The text, and each quoted string in it,
//! is judged as the shell code it becomes; a download run or data sent
//! out there blocks now. Prose (a README's install line) is not code
//! anyone runs by itself.

use super::planted_parse::*;
use super::*;

/// Reasons that make planted code block: code from elsewhere run, or data
/// sent out. (A test fixture that would delete home, written as a case
/// for a guard, is a file like any other: it asks.)
pub(super) const GRAVE: &[&str] = &[
    "Jarvis",
    "download and execute",
    "decodes and executes",
    "exfiltration",
    "remote shell",
    "reverse shell",
    "sends",
    "over the network",
];

/// Documentation and plain data no tool runs.
fn prose(path: &str) -> bool {
    let l = path.to_ascii_lowercase();
    data_file(&l) || l.contains("/docs/") || l.starts_with("docs/")
}

/// Text or data by its kind (a `docs/conf.py` is still code).
pub(super) fn data_file(path: &str) -> bool {
    let l = path.to_ascii_lowercase();
    [
        ".md", ".txt", ".rst", ".adoc", ".html", ".csv", ".log", ".org",
    ]
    .iter()
    .any(|e| l.ends_with(e))
}

impl Analyzer<'_> {
    /// Judges `text`, written into `path`, as the code a tool will run.
    pub(super) fn planted_text(&mut self, path: &str, text: &str, depth: usize) {
        // Any file an editor opens, prose too (`tee notes.txt`).
        if let Some(line) = super::redirects::commanding_modeline(text) {
            self.block(format!(
                "persistence ({} gets a vim modeline that runs a command whenever the file is opened: {line})",
                shown(path)
            ));
            return;
        }
        self.web_config(path, text, depth);
        if prose(path) || self.settled() || depth >= MAX_DEPTH {
            return;
        }
        // Home as other languages splice it into a command's string
        // (Ruby's `#{ENV['HOME']}`, `#{Dir.home}`): the shell's `$HOME`.
        let spliced = home_spliced(text);
        let text = spliced.as_str();
        // A git config file written by hand (`printf '[core]\n\tfsmonitor
        // = …' >> .git/config`): each setting as `git config` would set it.
        if git_config_file(path) {
            let global = !path.contains("/.git/") && !path.starts_with(".git/");
            for kv in git_config_settings(text) {
                self.git_setting_in(&kv, &Script::default(), depth, global);
            }
        }
        // GHCi's start-up file (`.ghci` where it starts, `~/.ghci`): its
        // `:!CMD` lines run CMD in a shell at every start.
        if path.rsplit('/').next() == Some(".ghci") || path.ends_with("/ghci.conf") {
            for line in text.lines() {
                if let Some(cmd) = line.trim_start().strip_prefix(":!")
                    && let Some(why) = self.grave_finding(cmd, depth)
                {
                    self.block(format!(
                        "plants a command in {} that GHCi runs at start: {why}",
                        shown(path)
                    ));
                    return;
                }
            }
        }
        // `.lfsconfig`'s `url`: where every later LFS push goes.
        if path.rsplit('/').next() == Some(".lfsconfig")
            && let Some(h) = text.lines().find_map(|l| {
                let (k, v) = l.split_once('=')?;
                let k = k.trim().to_ascii_lowercase();
                (k == "url" || k == "pushurl").then(|| {
                    let v = v.trim().trim_matches(['"', '\'']);
                    super::project_out::far_host(v.split_once("://").map_or(v, |(_, r)| r))
                })?
            })
        {
            self.block(format!(
                "exfiltration ({} sends the large files of every later push to {h})",
                shown(path)
            ));
            return;
        }
        // Gradle's `apply from: 'https://…'` (or `apply(from = "…")`): a
        // build script fetched and run by every build.
        // (The wrapper's `distributionUrl` is the Gradle every build runs.)
        let wrapper_elsewhere = path.ends_with("gradle-wrapper.properties")
            && text.lines().any(|l| {
                l.trim_start().starts_with("distributionUrl")
                    && l.split_once("://").is_some_and(|(_, r)| {
                        !super::project_out::address_host(&r.replace("\\:", ":"))
                            .ends_with("gradle.org")
                    })
            });
        if wrapper_elsewhere {
            self.block(format!(
                "download and execute ({} makes every build fetch and run Gradle from another address)",
                shown(path)
            ));
            return;
        }
        let gradle = path.ends_with(".gradle") || path.ends_with(".gradle.kts");
        if gradle
            && text.lines().any(|l| {
                let t: String = l.chars().filter(|ch| !ch.is_whitespace()).collect();
                (t.contains("applyfrom:") || t.contains("apply(from="))
                    && (t.contains("http://") || t.contains("https://"))
            })
        {
            self.block(format!(
                "download and execute ({} applies a build script from an address: every build fetches and runs it)",
                shown(path)
            ));
            return;
        }
        if let Some(secret) = unignored_secret(path, text) {
            self.block(format!(
                "exfiltration ({} un-ignores {secret}: the next publish, push or image carries it)",
                shown(path)
            ));
            return;
        }
        // A compose service that mounts home or a key folder: whatever
        // the service runs reads it.
        let compose =
            path.contains("compose") && (path.ends_with(".yml") || path.ends_with(".yaml"));
        let devcontainer = path.contains("devcontainer");
        if compose || devcontainer {
            for piece in text.split(|ch: char| ch.is_whitespace() || "\"'[],".contains(ch)) {
                // Compose expands `~` and `${HOME}`; a dev container's
                // `${localEnv:HOME}` is the user's home too.
                let home = HOME.to_string();
                let piece = home_spelled(piece)
                    .replace("${localEnv:HOME}", &home)
                    .replace("${localEnv:USERPROFILE}", &home)
                    .replace("${env:HOME}", &home)
                    .replace("${HOME}", &home)
                    .replace("$HOME", &home)
                    .replace(&format!("{home}{home}"), &home);
                // `source=…`/`src=…` of a mount, `HOST:CONTAINER` of a short
                // volume, or the `source: ~/.ssh` of a long one.
                let host = match piece
                    .strip_prefix("source=")
                    .or_else(|| piece.strip_prefix("src="))
                {
                    Some(src) => src,
                    None => match piece.split_once(':') {
                        Some((host, _)) => host,
                        None if piece.starts_with(['~', HOME]) => piece.as_str(),
                        None => continue,
                    },
                };
                let host = match host.strip_prefix('~') {
                    Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                        format!("{home}{rest}")
                    }
                    _ => host.to_string(),
                };
                let host = host.as_str();
                if !host.starts_with(['/', '~', '$', '.', HOME]) {
                    continue;
                }
                let p = self.norm_text(&paths::word_path(host, false), None);
                let whole = matches!(p.trim_end_matches('/'), "~" | "");
                if whole || paths::credential_normalized(&p, host).is_some() {
                    self.block(format!(
                        "plants a container in {} that mounts {} (its commands read the keys there)",
                        shown(path),
                        shown(host)
                    ));
                    return;
                }
            }
        }
        // A CI workflow step that sends the repository's secrets out: all
        // of them, or one on the line of a sender (a token handed to a
        // publish step in `env:` is what secrets are for).
        let l = text.to_ascii_lowercase();
        let sends_secret = l.contains("tojson(secrets)")
            || l.lines().any(|line| {
                line.contains("${{")
                    && line.contains("secrets.")
                    && ["curl ", "wget ", "nc ", "ncat "]
                        .iter()
                        .any(|n| line.contains(n))
            });
        if path.contains(".github/workflows/") && sends_secret {
            self.block(format!(
                "plants code in {} that a tool runs later: a workflow that sends the repository's secrets out",
                shown(path)
            ));
            return;
        }
        // Settings, not a program's own code (a build script may well call
        // a tool it unpacked into /tmp; it asks when it runs).
        let code_file = [
            ".sh",
            ".bash",
            ".zsh",
            ".fish",
            ".py",
            ".js",
            ".ts",
            ".rb",
            ".pl",
            ".go",
            ".rs",
            ".c",
            ".mk",
            "makefile",
            "dockerfile",
            "containerfile",
            ".ps1",
        ]
        .iter()
        .any(|e| path.to_ascii_lowercase().ends_with(e));
        if let Some(why) = planted_program(text).filter(|_| !code_file) {
            self.block(format!("plants a setting in {} that {why}", shown(path)));
            return;
        }
        if self.planted_source_sends_keys(path, text, depth) {
            return;
        }
        // Only code that could fetch, decode or send is worth the walk
        // (what blocks here needs one of them).
        let app = lower(&self.env.app);
        let reaches_out = |t: &str| {
            let l = t.to_ascii_lowercase();
            [
                "curl", "wget", "nc ", "ncat", "socat", "http", "/dev/tcp", "base64", "scp ",
                "ssh ", "xxd", "openssl",
            ]
            .iter()
            .any(|m| l.contains(m))
        };
        // Shell text that names Jarvis is walked too (a quoted string in
        // another language's file is data: a guard's test case).
        let shell_worth = |t: &str| reaches_out(t) || t.to_ascii_lowercase().contains(&app);
        // A command added to a window manager's or a bar's config runs at
        // every login, as an autostart entry does: persistence, whatever
        // it runs (other edits, fonts and colours, are settings).
        if let Some(cmd) = desktop_commands(&path.to_ascii_lowercase(), text).first() {
            self.block(format!(
                "persistence ({} runs `{}` at every login)",
                shown(path),
                cmd.chars().take(60).collect::<String>()
            ));
            return;
        }
        if !shell_worth(text) {
            return;
        }
        // The whole text as a shell script only where it is one (other
        // languages are read through their strings).
        let lower_path = path.to_ascii_lowercase();
        let shell_file = [".sh", ".bash", ".zsh", ".envrc"]
            .iter()
            .any(|e| lower_path.ends_with(e))
            || text.starts_with("#!/bin/sh")
            || text.starts_with("#!/bin/bash")
            || text.starts_with("#!/usr/bin/env bash")
            || text.starts_with("#!/usr/bin/env sh")
            || lower_path.contains("/hooks/")
            || lower_path.contains(".husky/");
        let mut pieces = Vec::new();
        if shell_file {
            pieces.push(text.to_string());
        }
        // A CI file's steps are shell lines (`run:`, `script:`).
        if lower_path.ends_with(".yml") || lower_path.ends_with(".yaml") {
            pieces.extend(
                yaml_steps(text)
                    .into_iter()
                    .filter(|l| shell_worth(l))
                    .take(64),
            );
        }
        // Window managers', bars' and file managers' configs: the commands
        // they start (`exec`, `exec-once`, `exec =`, `script =`), and the
        // shell scripts some of them are (bspwmrc, an `autostart`, lfrc).
        pieces.extend(
            desktop_commands(&lower_path, text)
                .into_iter()
                .filter(|l| shell_worth(l))
                .take(64),
        );
        // A makefile's recipes are shell lines, `$$` being make's `$`; a
        // justfile's are its indented lines. Either may begin with `@`
        // (not echoed), `-` (errors ignored) or `+`.
        let base = lower_path.rsplit('/').next().unwrap_or(&lower_path);
        let makefile = matches!(base, "makefile" | "gnumakefile") || base.ends_with(".mk");
        let justfile = matches!(base, "justfile" | ".justfile") || base.ends_with(".just");
        if makefile || justfile {
            pieces.extend(
                text.lines()
                    .filter(|l| l.starts_with('\t') || justfile && l.starts_with(' '))
                    .map(|l| {
                        let line = l.trim().trim_start_matches(['@', '-', '+']).trim_start();
                        if makefile {
                            line.replace("$$", "$")
                        } else {
                            line.to_string()
                        }
                    })
                    .filter(|l| shell_worth(l))
                    .take(64),
            );
        }
        // In a program's source a string is a command only where the
        // program runs one (`os.system`, `subprocess`, backticks); a list of
        // payloads in a guard's test is data.
        if !source_without_shell_calls(&lower_path, text) {
            pieces.extend(
                super::code::string_literals(text)
                    .into_iter()
                    .filter(|s| s.contains(' ') && reaches_out(s))
                    .take(64),
            );
        }
        for piece in pieces {
            if let Some(why) = self.grave_finding(&piece, depth) {
                self.block(format!(
                    "plants code in {} that a tool runs later: {why}",
                    shown(path)
                ));
                return;
            }
        }
    }

    /// Why a line written now to run later blocks, when its finding is
    /// grave: only then, since a planted file's every line is not a line
    /// run now (a lint fixture's `curl | sh` asks). A secret read counts
    /// where the line also sends something out.
    pub(super) fn grave_finding(&mut self, line: &str, depth: usize) -> Option<String> {
        let found = self.apart(|a| a.script(line, &[], depth + 1));
        if found.verdict != Verdict::Block {
            return None;
        }
        let sends = ["curl", "wget", "nc ", "ncat", "socat", "scp ", "http"]
            .iter()
            .any(|n| line.contains(n));
        (GRAVE.iter().any(|g| found.reason.contains(g))
            || sends && found.reason.contains("credential"))
        .then_some(found.reason)
    }

    /// Source code a test runner or build imports (`conftest.py`, a
    /// `setup.py`, a jest setup) that reads a key or token and talks to
    /// the network: a secret sent out the next time the tool runs.
    fn planted_source_sends_keys(&mut self, path: &str, text: &str, depth: usize) -> bool {
        let l = path.to_ascii_lowercase();
        let lang = [
            (".py", "python3"),
            (".js", "node"),
            (".mjs", "node"),
            (".cjs", "node"),
            (".ts", "node"),
            (".rb", "ruby"),
            (".pl", "perl"),
            (".php", "php"),
        ]
        .iter()
        .find(|(e, _)| l.ends_with(e))
        .map(|(_, lang)| *lang);
        let Some(lang) = lang else { return false };
        let lt = text.to_ascii_lowercase();
        let talks = [
            "http://",
            "https://",
            "urlopen",
            "requests.",
            "socket",
            "fetch(",
            "net::http",
            "lwp::",
            "curl",
        ]
        .iter()
        .any(|m| lt.contains(m));
        if !talks {
            return false;
        }
        let found = self.apart(|a| a.inline_code(lang, text, depth + 1));
        let sends_token_away = found.reason.contains("secret") && token_sent_elsewhere(text);
        // A key file named in a string is read only by code that opens
        // files (a detector's sample list names paths as data).
        let reads_files = [
            "read",
            "open",
            "slurp",
            "file(",
            "<$",
            "fileio",
            "linecache",
        ]
        .iter()
        .any(|m| lt.contains(m));
        // Code from elsewhere run by the planted source (`exec(urlopen(…))`).
        // (A socket's address in a string is a guard's test case as often:
        // a reverse shell counts when the calls are code, outside strings.)
        let code_only = lower(&super::code_fold::blank_literals(text));
        let reverse_shell = code_only.contains("connect(")
            && ["dup2", "pty.spawn", "subprocess.call([\"/bin/sh", "/bin/sh"]
                .iter()
                .any(|m| code_only.contains(m));
        let runs_fetched = [
            "download and execute",
            "decodes and executes",
            "exfiltration",
        ]
        .iter()
        .any(|g| found.reason.contains(g))
            || reverse_shell;
        if found.verdict == Verdict::Block
            && (found.reason.contains("credential") && reads_files
                || sends_token_away
                || runs_fetched)
        {
            let what = if runs_fetched {
                "it runs code from elsewhere"
            } else {
                "it reads keys or tokens and talks to the network"
            };
            self.block(format!(
                "plants code in {} that a tool runs later: {what} ({})",
                shown(path),
                found.reason
            ));
            return true;
        }
        false
    }

    /// `jq '.postCreateCommand = "curl … | bash"' f > t`, or the same
    /// string handed in by `--arg c '…'`: the strings a filter puts into
    /// the file it writes.
    pub(super) fn planted_filters(&mut self, script: &Script, depth: usize) {
        for c in &script.commands {
            let argv = peeled(&c.argv);
            let Some(first) = argv.first() else { continue };
            if !matches!(
                program_name(&first.text).as_str(),
                "jq" | "yq" | "gojq" | "jaq"
            ) {
                continue;
            }
            // Where the result goes: a redirect, or `| sponge FILE`.
            let sponge = super::wrappers::next_stage(c, script)
                .filter(|(_, a)| a.first().is_some_and(|w| program_name(&w.text) == "sponge"))
                .and_then(|(_, a)| a.iter().skip(1).find(|w| !w.text.starts_with('-')).cloned());
            let Some(out) = c
                .redirects
                .iter()
                .find(|r| r.writes_file())
                .map(|r| r.target.clone())
                .or(sponge)
            else {
                continue;
            };
            let parts = jq_parts(&argv[1..]);
            // Each value as the string the filter puts in the file: given
            // on the line, read from a file this line wrote (`--rawfile`),
            // or from the environment (`env.X`, `$ENV.X`).
            let mut values: Vec<String> = parts.values.iter().map(|v| v.text.clone()).collect();
            values.extend(
                parts
                    .value_files
                    .iter()
                    .filter_map(|f| self.written_text(f, c.cwd.as_deref()))
                    .map(|t| t.trim_end().to_string()),
            );
            if let Some(f) = parts.filter {
                values.extend(
                    c.assigns
                        .iter()
                        .filter(|(n, _)| {
                            f.text.contains(&format!("env.{n}"))
                                || f.text.contains(&format!("ENV.{n}"))
                        })
                        .map(|(_, v)| v.text.clone()),
                );
            }
            let mut texts: Vec<String> = values
                .iter()
                .map(|v| serde_json::Value::String(v.clone()).to_string())
                .collect();
            texts.extend(parts.filter.map(|f| f.text.clone()));
            // `jq F x.json > tmp && mv tmp x.json`: the edited copy is of
            // the file read, and goes back in its place.
            let mut places = vec![self.norm(&out, c.cwd.as_deref())];
            places.extend(parts.inputs.iter().map(|w| self.norm(w, c.cwd.as_deref())));
            for place in &places {
                for text in &texts {
                    self.planted_text(place, text, depth);
                }
            }
        }
    }
}

/// A jq command's words by role.
#[derive(Default)]
struct JqParts<'w> {
    filter: Option<&'w Word>,
    /// `--arg NAME VALUE`, `--argjson NAME VALUE`, `--args A B …`.
    values: Vec<&'w Word>,
    /// `--rawfile NAME FILE`, `--slurpfile NAME FILE`: values read from files.
    value_files: Vec<&'w Word>,
    /// The files it reads.
    inputs: Vec<&'w Word>,
}

fn jq_parts(args: &[Word]) -> JqParts<'_> {
    let mut parts = JqParts::default();
    let mut positional_values = false;
    let mut filter_from_file = false;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let a = w.text.as_str();
        i += 1;
        match a {
            "--arg" | "--argjson" => {
                parts.values.extend(args.get(i + 1));
                i += 2;
            }
            // NAME FILE: the file is read, not a filter or an input.
            "--slurpfile" | "--rawfile" => {
                parts.value_files.extend(args.get(i + 1));
                i += 2;
            }
            "--indent" | "-L" => i += 1,
            "-f" | "--from-file" => {
                filter_from_file = true;
                i += 1;
            }
            "--args" | "--jsonargs" => positional_values = true,
            _ if a.starts_with('-') && a.len() > 1 => {}
            _ if parts.filter.is_none() && !filter_from_file => parts.filter = Some(w),
            _ if positional_values => parts.values.push(w),
            _ => parts.inputs.push(w),
        }
    }
    parts
}

/// A repository's or a user's git config file.
fn git_config_file(path: &str) -> bool {
    let p = path.trim_start_matches("./");
    p == ".git/config"
        || p.ends_with("/.git/config")
        || p.ends_with(".git/config.worktree")
        || p.contains(".git/modules/") && p.ends_with("/config")
        || p.ends_with(".gitconfig")
        || p.ends_with("/git/config")
}

/// A git config file's settings as `section.sub.key=value` (`[core]` then
/// `fsmonitor = cmd`; `[alias "x"]`, `[remote "origin"]`).
fn git_config_settings(text: &str) -> Vec<String> {
    let mut section = String::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if l.is_empty() || l.starts_with(['#', ';']) {
            continue;
        }
        // (`[core] fsmonitor = …`: a setting may follow its header.)
        let mut l = l;
        if let Some((head, rest)) = l.strip_prefix('[').and_then(|r| r.split_once(']')) {
            section = match head.split_once(char::is_whitespace) {
                Some((s, sub)) => format!("{}.{}", s.trim(), sub.trim().trim_matches('"')),
                None => head.trim().to_string(),
            };
            l = rest.trim();
        }
        if let Some((k, v)) = l.split_once('=') {
            out.push(format!(
                "{section}.{}={}",
                k.trim(),
                v.trim().trim_matches('"')
            ));
        }
    }
    out
}
