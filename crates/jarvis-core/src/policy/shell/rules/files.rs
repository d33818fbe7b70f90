//! Commands that delete, copy, archive or re-permission files.

use super::*;

impl Analyzer<'_> {
    pub(super) fn write_target(&mut self, dest: &str, cwd: Option<&str>, b: &str) {
        if paths::device(dest) {
            self.block(format!("{b} writes to the device {dest}"));
        } else if paths::app_state(dest, cwd, &self.env.app, &self.env.protected) {
            self.block(format!("{b} overwrites Jarvis's own state ({dest})"));
        } else if paths::persistence(dest, cwd) {
            self.block(format!(
                "persistence: {b} writes {dest}, which runs at login or on a schedule"
            ));
        } else if paths::system(dest, cwd) {
            self.block(format!("{b} writes into a system directory ({dest})"));
        }
    }

    /// `rm`-like deletion: catastrophic targets and system files are blocked.
    pub(super) fn rm_like(&mut self, b: &str, args: &[String], src: &Command) {
        let mut recursive = false;
        let mut ended = false;
        let mut targets = Vec::new();
        for x in args {
            let l = lower(x);
            if !ended && x == "--" {
                ended = true;
            } else if !ended && x.starts_with("--") {
                recursive |=
                    l == "--recursive" || l == "--remove-files" || l == "--no-preserve-root";
            } else if !ended && x.starts_with('-') && x.len() > 1 {
                recursive |= l.contains('r') || l == "-recurse" || l.contains('f');
            } else if !ended && x.starts_with('/') && x.len() == 2 && b != "rm" {
                // Windows switches: /s /q /f
                recursive |= matches!(l.as_str(), "/s" | "/q" | "/f");
            } else {
                targets.push(x.clone());
            }
        }
        if matches!(b, "remove-item" | "ri" | "del" | "erase" | "rd") {
            recursive = true;
        }
        // `C:\ -Recurse` can arrive as one word (an escaped space in bash).
        let targets: Vec<String> = targets
            .iter()
            .flat_map(|t| {
                std::iter::once(t.clone()).chain(
                    t.split_whitespace()
                        .next()
                        .filter(|f| *f != t)
                        .map(str::to_string),
                )
            })
            .collect();
        for t in &targets {
            if recursive && paths::catastrophic(t, src.cwd.as_deref()) {
                self.block(format!(
                    "recursive delete of {t} (a system, home or parent directory)"
                ));
            } else if paths::system(t, src.cwd.as_deref()) {
                self.block(format!("deletes system files ({t})"));
            }
        }
    }

    pub(super) fn find(&mut self, c: &Cmd<'_>, script: &Script, depth: usize) {
        let args = &c.args;
        let roots: Vec<String> = args
            .iter()
            .take_while(|x| !x.starts_with('-') && *x != "(" && *x != "!")
            .cloned()
            .collect();
        let roots = if roots.is_empty() {
            vec![".".to_string()]
        } else {
            roots
        };
        let mut read_only = true;
        let name_globs: Vec<&String> = args
            .windows(2)
            .filter(|w| {
                matches!(
                    w[0].as_str(),
                    "-name" | "-iname" | "-path" | "-ipath" | "-wholename"
                )
            })
            .map(|w| &w[1])
            .collect();
        let home_or_root = roots
            .iter()
            .any(|r| paths::catastrophic(r, c.src.cwd.as_deref()));
        if home_or_root
            && name_globs.iter().any(|g| {
                paths::SECRET_BASENAMES
                    .iter()
                    .any(|s| paths::glob_match(g, s))
            })
        {
            self.block("searches the home or system for private keys and secrets");
        }
        let mut i = 0;
        while i < args.len() {
            let x = args[i].as_str();
            match x {
                "-delete" => {
                    read_only = false;
                    let mut fake = vec!["-r".to_string()];
                    fake.extend(roots.iter().cloned());
                    self.rm_like("rm", &fake, c.src);
                }
                "-exec" | "-execdir" | "-ok" | "-okdir" => {
                    read_only = false;
                    let end = args[i + 1..]
                        .iter()
                        .position(|y| y == ";" || y == "+")
                        .map(|p| i + 1 + p)
                        .unwrap_or(args.len());
                    let mut inner: Vec<String> = args[i + 1..end].to_vec();
                    // Run on every file below a root: as good as recursive.
                    if home_or_root && let Some(first) = inner.first() {
                        let fb = base_name(first);
                        if matches!(fb.as_str(), "chmod" | "chown" | "chgrp") {
                            inner.insert(1, "-R".into());
                        } else if fb == "rm" {
                            inner.insert(1, "-r".into());
                        }
                    }
                    // `{}` stands for each root and what lies below it.
                    for r in &roots {
                        let words: Vec<Word> = inner
                            .iter()
                            .map(|w| Word {
                                text: w.replace("{}", r),
                                dynamic: false,
                                subs: vec![],
                            })
                            .collect();
                        self.run_words(words, c.src, script, depth + 1);
                    }
                    i = end;
                }
                "-fprint" | "-fprint0" | "-fprintf" | "-fls" => {
                    read_only = false;
                    self.ask("find writes a file");
                }
                _ => {}
            }
            i += 1;
        }
        if !read_only {
            self.ask("find changes or runs things for each match");
        }
    }

    pub(super) fn xargs(&mut self, c: &Cmd<'_>, script: &Script, depth: usize) {
        let args = &c.args;
        let mut words: Vec<Word>;
        let mut tail: Vec<String> = Vec::new();
        if c.base == "parallel" {
            let sep = args
                .iter()
                .position(|x| x == ":::" || x == "::::")
                .unwrap_or(args.len());
            tail = args
                .get(sep + 1..)
                .map(<[String]>::to_vec)
                .unwrap_or_default();
            let start = args[..sep]
                .iter()
                .position(|x| !x.starts_with('-'))
                .unwrap_or(sep);
            words = args[start..sep]
                .iter()
                .map(|x| Word::lit(x.clone()))
                .collect();
        } else {
            let mut i = 0;
            while i < args.len() && args[i].starts_with('-') {
                if matches!(
                    args[i].as_str(),
                    "-n" | "-I" | "-P" | "-L" | "-d" | "-E" | "-s" | "-a"
                ) {
                    i += 1;
                }
                i += 1;
            }
            words = args[i..].iter().map(|x| Word::lit(x.clone())).collect();
        }
        if words.is_empty() {
            words.push(Word::lit("echo"));
        }
        // Arguments come from stdin: judge the command as if given the input's words.
        let fed: Vec<String> = c
            .src
            .stdin_from
            .and_then(|i| script.commands.get(i))
            .map(|p| p.argv.iter().skip(1).map(|w| w.text.clone()).collect())
            .unwrap_or_default();
        let mut probe = words.clone();
        probe.extend(
            tail.iter()
                .chain(fed.iter().filter(|f| !f.starts_with('-')))
                .map(|t| Word::lit(t.clone())),
        );
        for r in &c.src.redirects {
            if r.op == "<" && r.target.text.contains("$HOME") {
                probe.push(Word::lit("~"));
            }
        }
        if c.src.redirects.iter().any(|r| {
            r.op == "<"
                && r.target.subs.iter().any(|&s| {
                    script
                        .commands
                        .get(s)
                        .is_some_and(|x| x.argv.iter().any(|w| w.text == "~"))
                })
        }) {
            probe.push(Word::lit("~"));
        }
        self.run_words(probe, c.src, script, depth + 1);
    }

    pub(super) fn perms(&mut self, c: &Cmd<'_>) {
        let args = &c.args;
        let recursive = args.iter().any(|x| {
            x == "-R"
                || x == "--recursive"
                || lower(x) == "/r"
                || x.starts_with('-') && !x.starts_with("--") && x.contains('R')
        });
        let ops = operands(args);
        let mode = ops.first().cloned().unwrap_or_default();
        if c.base == "chmod" {
            let setuid = mode.contains('s') && (mode.contains('+') || mode.contains('='))
                || (mode.len() == 4
                    && mode.chars().all(|ch| ch.is_digit(8))
                    && matches!(mode.chars().next(), Some('2' | '4' | '6' | '7')));
            if setuid {
                self.block(format!(
                    "privilege escalation (chmod {mode} sets setuid/setgid)"
                ));
            }
        }
        for t in ops
            .iter()
            .skip(if c.base == "takeown" || c.base == "icacls" {
                0
            } else {
                1
            })
        {
            let t = t.trim_start_matches("/f ");
            if recursive
                && (paths::catastrophic(t, c.src.cwd.as_deref())
                    || paths::system(t, c.src.cwd.as_deref()))
            {
                self.block(format!("recursive permission change of {t}"));
            } else if paths::system(t, c.src.cwd.as_deref())
                && (mode == "777" || mode.contains("a+rwx") || mode == "000")
            {
                self.block(format!("opens up or locks a system path ({t})"));
            } else if c.base == "takeown" && paths::system(t, None) {
                self.block(format!("takes ownership of {t}"));
            }
        }
        self.ask(format!("{} changes permissions", c.base));
    }
}
