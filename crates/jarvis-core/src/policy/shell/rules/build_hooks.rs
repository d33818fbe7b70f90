//! Build tools' settings that name code they run: CMake's include and
//! toolchain files given on the command line, Nix's build hooks.

use super::*;

/// CMake variables naming files it runs as CMake code while configuring.
const CMAKE_CODE_VARS: &[&str] = &[
    "CMAKE_PROJECT_TOP_LEVEL_INCLUDES",
    "CMAKE_TOOLCHAIN_FILE",
    "CMAKE_PROJECT_INCLUDE",
    "CMAKE_PROJECT_INCLUDE_BEFORE",
    "CMAKE_USER_MAKE_RULES_OVERRIDE",
];

/// Nix settings whose value is a program the daemon or the build runs.
const NIX_HOOKS: &[&str] = &[
    "post-build-hook",
    "pre-build-hook",
    "diff-hook",
    "build-hook",
];

impl Analyzer<'_> {
    /// `cmake -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=/tmp/hook.cmake`: the file
    /// is CMake code run at configure time.
    pub(super) fn cmake_includes(&mut self, c: &Cmd<'_>) {
        // `-DNAME=V`, `-D NAME=V`, `--toolchain F`, and the variables
        // CMake reads from the environment.
        let mut defs: Vec<(String, Word)> = Vec::new();
        for (i, w) in c.words.iter().enumerate().skip(1) {
            let def = match w.text.strip_prefix("-D") {
                Some("") => c.words.get(i + 1).map(|v| v.text.clone()),
                Some(d) => Some(d.to_string()),
                None => None,
            };
            if let Some((name, value)) = def.as_deref().and_then(|d| d.split_once('=')) {
                let name = name.split(':').next().unwrap_or(name).to_string();
                let value = Word {
                    text: value.to_string(),
                    ..w.clone()
                };
                defs.push((name, value));
            }
        }
        for v in super::script_opts::values(c, &["--toolchain"]) {
            defs.push(("CMAKE_TOOLCHAIN_FILE".to_string(), v));
        }
        defs.extend(c.assigns.iter().cloned());
        for (name, value) in &defs {
            // `CMAKE_PROJECT_<name>_INCLUDE` names one per project.
            let project_include = name.starts_with("CMAKE_PROJECT_")
                && (name.ends_with("_INCLUDE") || name.ends_with("_INCLUDE_BEFORE"));
            if CMAKE_CODE_VARS.contains(&name.as_str()) || project_include {
                for f in value.text.split(';').filter(|f| !f.is_empty()) {
                    let f = Word {
                        text: f.to_string(),
                        ..value.clone()
                    };
                    self.sourced(&f, c);
                }
            }
        }
    }

    /// `nix build --option post-build-hook /tmp/h.sh`: a program run after
    /// every build.
    pub(super) fn nix_hooks(&mut self, c: &Cmd<'_>) {
        // `--option NAME VALUE`, `--NAME VALUE` (every setting is also an
        // option), and `NIX_CONFIG='NAME = VALUE'`.
        let mut settings: Vec<(String, Word)> = Vec::new();
        for (i, w) in c.words.iter().enumerate() {
            if w.text == "--option" {
                if let (Some(n), Some(v)) = (c.words.get(i + 1), c.words.get(i + 2)) {
                    settings.push((n.text.clone(), v.clone()));
                }
            } else if let Some(n) = w.text.strip_prefix("--")
                && NIX_HOOKS.contains(&n)
                && let Some(v) = c.words.get(i + 1)
            {
                settings.push((n.to_string(), v.clone()));
            }
        }
        for (n, v) in c.assigns.iter() {
            if n == "NIX_CONFIG" {
                for line in v.text.lines() {
                    if let Some((k, val)) = line.split_once('=') {
                        let val = Word {
                            text: val.trim().to_string(),
                            ..v.clone()
                        };
                        settings.push((k.trim().to_string(), val));
                    }
                }
            }
        }
        for (name, value) in &settings {
            if NIX_HOOKS.contains(&name.as_str()) {
                self.sourced(value, c);
                if let Some(text) = self.written_text(value, c.cwd()) {
                    self.block_only(|a| a.script(&text, &[], c.depth + 1));
                }
                self.ask(format!(
                    "{} runs {} after builds",
                    c.base,
                    shown(&value.text)
                ));
            }
        }
    }
}

impl Analyzer<'_> {
    /// `xmake lua -c CODE`, `xmake lua FILE`: xmake's own Lua runs it.
    pub(super) fn xmake_lua(&mut self, c: &Cmd<'_>) {
        if c.args.first().is_none_or(|a| a != "lua") {
            return;
        }
        let mut i = 2;
        while let Some(w) = c.words.get(i) {
            match w.text.as_str() {
                "-c" | "--command" => {
                    if let Some(code) = c.words.get(i + 1) {
                        self.inline_code("lua", &code.text, c.depth);
                    }
                    break;
                }
                t if t.starts_with("--command=") => {
                    self.inline_code("lua", &t["--command=".len()..], c.depth);
                    break;
                }
                t if t.starts_with('-') => i += 1,
                _ => {
                    self.sourced(w, c);
                    break;
                }
            }
        }
        self.ask("xmake runs Lua code");
    }
}

impl Analyzer<'_> {
    /// `dagger call … --source=$HOME`: a directory argument is uploaded to
    /// the engine whole, wherever the engine runs.
    pub(super) fn dagger_uploads(&mut self, c: &Cmd<'_>) {
        // (`dagger -m MODULE call …`: the verb after the global options.)
        let Some(at) = c
            .words
            .iter()
            .position(|w| matches!(w.text.as_str(), "call" | "run" | "shell"))
        else {
            return;
        };
        for (i, w) in c.words.iter().enumerate().skip(at + 1) {
            // A secret given as `cmd:"…"` is the output of that command.
            let secret = w.text.split_once('=').map_or(w.text.as_str(), |(_, v)| v);
            if let Some(cmd) = secret.strip_prefix("cmd:") {
                let code = Word {
                    text: cmd.to_string(),
                    ..w.clone()
                };
                self.shell_code(&code, &[], c.script, c.depth);
            }
            let value = if w.text.starts_with("--") {
                match w.text.split_once('=') {
                    Some((_, v)) => Word {
                        text: v.to_string(),
                        ..w.clone()
                    },
                    None => continue,
                }
            } else if c.words[i - 1].text.starts_with("--") && !c.words[i - 1].text.contains('=') {
                w.clone()
            } else {
                continue;
            };
            let t = value.text.as_str();
            let local = t.starts_with(['.', '/', '~'])
                || t.starts_with(HOME)
                || t.starts_with("$HOME")
                || t.starts_with("${HOME}");
            if local {
                self.read_tree(&value, c.cwd(), "dagger");
            }
        }
    }
}

impl Analyzer<'_> {
    /// A tool's own build or settings file, written by this line and then
    /// read by the tool: judged as what the tool does with it (a Tiltfile's
    /// `local(…)`, CMake's `execute_process`, `.bazelrc`'s and
    /// `yt-dlp.conf`'s options, latexmk's Perl).
    pub(super) fn written_tool_files(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        let names: &[&str] = match lb {
            "tilt" => &["Tiltfile"],
            "cmake" => &["CMakeLists.txt"],
            "bazel" | "bazelisk" => &[".bazelrc", "user.bazelrc"],
            "latexmk" => &[".latexmkrc", "latexmkrc"],
            "yt-dlp" => &["yt-dlp.conf"],
            _ => return,
        };
        // CMake's source folder: `-S DIR`, else the folder given.
        let dir = if lb == "cmake" {
            super::script_opts::values(c, &["-S"])
                .into_iter()
                .next()
                .map(|w| w.text)
                .unwrap_or_else(|| ".".to_string())
        } else {
            ".".to_string()
        };
        for name in names {
            let f = Word::lit(format!("{}/{name}", dir.trim_end_matches('/')).as_str());
            let Some(text) = self.written_text(&f, c.cwd()) else {
                continue;
            };
            let depth = c.depth + 1;
            match lb {
                "tilt" => {
                    for code in call_arguments(&text, "local(") {
                        self.block_only(|a| a.script(&code, &[], depth));
                    }
                }
                "cmake" => {
                    for args in call_arguments(&text, "execute_process(") {
                        let cmd = args
                            .split_once("COMMAND")
                            .map_or("", |(_, r)| r)
                            .split("WORKING_DIRECTORY")
                            .next()
                            .unwrap_or("")
                            .to_string();
                        self.block_only(|a| a.script(&cmd, &[], depth));
                    }
                }
                "latexmk" => self.block_only(|a| a.inline_code("perl", &text, depth)),
                // Each line is more of the tool's options.
                _ => {
                    for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
                        let line = format!("{lb} {line}");
                        self.block_only(|a| a.script(&line, &[], depth));
                    }
                }
            }
            self.ask(format!("{} reads {name}, which this line wrote", c.base));
        }
    }
}

/// The text inside each `name(…)` call, quotes of its strings removed.
fn call_arguments(text: &str, call: &str) -> Vec<String> {
    text.match_indices(call)
        .filter_map(|(i, _)| {
            let rest = &text[i + call.len()..];
            let mut depth = 1usize;
            let end = rest.char_indices().find_map(|(k, ch)| {
                match ch {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                (depth == 0).then_some(k)
            })?;
            Some(rest[..end].replace(['"', '\''], " "))
        })
        .collect()
}
