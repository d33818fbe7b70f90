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
        for w in &c.words[1..] {
            let Some(def) = w.text.strip_prefix("-D") else {
                continue;
            };
            let Some((name, value)) = def.split_once('=') else {
                continue;
            };
            let name = name.split(':').next().unwrap_or(name);
            if CMAKE_CODE_VARS.contains(&name) {
                for f in value.split(';').filter(|f| !f.is_empty()) {
                    let f = Word {
                        text: f.to_string(),
                        ..w.clone()
                    };
                    self.sourced(&f, c);
                }
            }
        }
    }

    /// `nix build --option post-build-hook /tmp/h.sh`: a program run after
    /// every build.
    pub(super) fn nix_hooks(&mut self, c: &Cmd<'_>) {
        for (i, w) in c.words.iter().enumerate() {
            if w.text != "--option" {
                continue;
            }
            let (Some(name), Some(value)) = (c.words.get(i + 1), c.words.get(i + 2)) else {
                continue;
            };
            if NIX_HOOKS.contains(&name.text.as_str()) {
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
        if !matches!(
            c.args.first().map(String::as_str),
            Some("call" | "run" | "shell")
        ) {
            return;
        }
        for (i, w) in c.words.iter().enumerate().skip(2) {
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
