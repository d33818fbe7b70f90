//! Less common programs a guard meets in the long tail: terminal
//! multiplexers' recorders and listings, system-wide program links,
//! desktop defaults that name a program, package
//! and attribute inspectors.

use super::*;

/// Where a program a system-wide link or a desktop setting names may live
/// and be what it says: installed by the system's packages.
fn system_program(p: &str) -> bool {
    ["/usr/", "/bin/", "/sbin/", "/opt/", "/lib/", "/snap/bin/"]
        .iter()
        .any(|d| p.starts_with(d))
}

impl Analyzer<'_> {
    /// Some(read-only) for the programs this module knows; None otherwise.
    pub(super) fn long_tail(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let args = &c.args;
        let first = args.first().map(String::as_str).unwrap_or("");
        match c.lb.as_str() {
            "tmux" | "byobu" => self.multiplexer(c),
            "update-alternatives" => {
                if args.iter().any(|a| {
                    matches!(
                        a.as_str(),
                        "--display" | "--query" | "--list" | "--get-selections"
                    )
                }) && !args.iter().any(|a| {
                    matches!(
                        a.as_str(),
                        "--install"
                            | "--set"
                            | "--config"
                            | "--remove"
                            | "--remove-all"
                            | "--auto"
                            | "--all"
                            | "--set-selections"
                    )
                }) {
                    return Some(true);
                }
                // `--install LINK NAME PATH PRIO`, `--set NAME PATH`: every
                // user's command NAME becomes PATH.
                let target = args
                    .iter()
                    .position(|a| a == "--install")
                    .and_then(|i| c.arg_word(i + 3))
                    .or_else(|| {
                        args.iter()
                            .position(|a| a == "--set")
                            .and_then(|i| c.arg_word(i + 2))
                    });
                if let Some(t) = target {
                    let p = self.norm(t, c.cwd());
                    if t.dynamic || !system_program(&p) {
                        self.block(format!(
                            "points a system-wide command at {} (not an installed program): every later run of that command runs it",
                            shown(&t.text)
                        ));
                    }
                }
                None
            }
            "xdg-mime" | "xdg-settings" if matches!(first, "default" | "set") => {
                if c.words[1..].iter().any(|w| self.mentions_self(w)) {
                    self.block(format!(
                        "{} changes which program opens Jarvis's own links or files",
                        c.base
                    ));
                }
                None
            }
            "gsettings" | "dconf" if matches!(first, "set" | "write" | "load") => {
                self.desktop_setting(c);
                None
            }
            "rpm2cpio" => Some(c.operand_words().iter().all(|f| self.read_path(f, c.cwd()))),
            "dpkg-deb" => {
                let reads = args.iter().any(|a| {
                    matches!(
                        a.as_str(),
                        "-c" | "--contents" | "-I" | "--info" | "-f" | "--field" | "-W" | "--show"
                    )
                });
                if !reads
                    || args.iter().any(|a| {
                        matches!(
                            a.as_str(),
                            "-x" | "-X"
                                | "-R"
                                | "-e"
                                | "-b"
                                | "--extract"
                                | "--vextract"
                                | "--raw-extract"
                                | "--control"
                                | "--build"
                        )
                    })
                {
                    return None;
                }
                Some(c.operand_words().iter().all(|f| self.read_path(f, c.cwd())))
            }
            "lsattr" | "getfacl" => {
                Some(c.operand_words().iter().all(|f| self.read_path(f, c.cwd())))
            }
            "losetup"
                if args.iter().all(|a| {
                    matches!(
                        a.as_str(),
                        "-l" | "--list" | "-a" | "--all" | "-n" | "--noheadings" | "-J" | "--json"
                    )
                }) =>
            {
                Some(true)
            }
            "cmake" if first == "-E" => self.cmake_tool(c),
            "cargo" if first == "install" => {
                // `--root DIR`: the built programs are written into DIR/bin.
                let root = c.value("--root").cloned().or_else(|| {
                    args.iter()
                        .find_map(|a| a.strip_prefix("--root="))
                        .map(Word::lit)
                });
                if let Some(r) = root {
                    let bin = Word {
                        text: format!("{}/bin", r.text.trim_end_matches('/')),
                        ..r
                    };
                    self.write_path(&bin, c.cwd(), "cargo install --root");
                }
                None
            }
            _ => None,
        }
    }

    fn multiplexer(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let sub = c.args.iter().find(|a| !a.starts_with('-'))?.as_str();
        match sub {
            // Everything the pane shows, typed passwords included, goes on
            // to a command.
            "pipe-pane" | "pipep" => {
                self.block(format!(
                    "{} pipe-pane records everything a terminal shows (typed passwords, tokens) into a command",
                    c.base
                ));
                Some(false)
            }
            "list-sessions" | "ls" | "list-windows" | "lsw" | "list-panes" | "lsp"
            | "list-clients" | "lsc" | "has-session" | "has" | "list-commands" | "lscm"
            | "list-keys" | "lsk" | "show-options" | "show" | "info"
                if c.args.iter().filter(|a| !a.starts_with('-')).count() == 1 =>
            {
                Some(true)
            }
            _ => None,
        }
    }

    /// A desktop setting whose value is a program the desktop runs later
    /// (the default terminal, a keybinding's command): a planted file there
    /// runs at the user's next keypress or login.
    fn desktop_setting(&mut self, c: &Cmd<'_>) {
        let runs_later = c.args.iter().any(|a| {
            let l = lower(a);
            [
                "exec",
                "command",
                "terminal",
                "keybinding",
                "autostart",
                "default-applications",
                "binding",
            ]
            .iter()
            .any(|k| l.contains(k))
        });
        if !runs_later {
            return;
        }
        for w in c.words.iter().skip(2) {
            let t = w.text.trim_matches(['\'', '"']);
            if t.contains('/') || w.dynamic {
                let p = self.norm(
                    &Word {
                        text: t.to_string(),
                        ..w.clone()
                    },
                    c.cwd(),
                );
                if w.dynamic || !system_program(&p) {
                    self.block(format!(
                        "{} makes the desktop run {} later (a setting that names a program)",
                        c.base,
                        shown(&w.text)
                    ));
                }
            }
        }
    }

    /// `cmake -E TOOL`: its file tools.
    fn cmake_tool(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let tool = c.args.get(1)?.as_str();
        let files = || {
            c.words
                .iter()
                .skip(3)
                .filter(|w| !w.text.starts_with('-'))
                .cloned()
                .collect::<Vec<_>>()
        };
        match tool {
            "compare_files" | "cat" | "md5sum" | "sha1sum" | "sha224sum" | "sha256sum"
            | "sha384sum" | "sha512sum" => Some(files().iter().all(|f| self.read_path(f, c.cwd()))),
            "echo" | "echo_append" | "capabilities" | "true" | "false" => Some(true),
            _ => None,
        }
    }
}
