//! `python -m MODULE`: the standard library's tools that only read, and the
//! ones that serve, load or run what they are given.

use super::*;

impl Analyzer<'_> {
    /// `python3 -m json.tool FILE`, `python3 -m pip list|show|freeze`:
    /// standard modules that only print. `None` for anything else.
    pub(super) fn python_inspects(&mut self, c: &Cmd<'_>) -> Option<bool> {
        // The project's own virtualenv (`.venv/bin/python`) is Python too.
        let venv = {
            let t = c.words[0].text.trim_start_matches("./");
            let parts: Vec<&str> = t.split('/').collect();
            parts.len() == 3
                && matches!(parts[0], ".venv" | "venv" | "env" | ".env")
                && parts[1] == "bin"
        };
        if !c.lb.starts_with("python") || (c.words[0].text.contains('/') && !venv) {
            return None;
        }
        let rest: Vec<&str> = match c
            .args
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            // pip's own quieting options may come before its command.
            ["-m", "pip", rest @ ..] => std::iter::once("pip")
                .chain(
                    rest.iter()
                        .copied()
                        .filter(|x| !super::secrets::PIP_QUIET.contains(x)),
                )
                .collect(),
            ["-m", rest @ ..] => rest.to_vec(),
            _ => return None,
        };
        match rest.as_slice() {
            ["json.tool", opts @ ..] => {
                // Formatting flags; a second operand, when given, is written.
                let mut files = Vec::new();
                let mut i = 0;
                while i < opts.len() {
                    match opts[i] {
                        "--sort-keys" | "--compact" | "--tab" | "--no-indent" | "--json-lines"
                        | "--no-ensure-ascii" => {}
                        "--indent" => i += 1,
                        f if !f.starts_with('-') => files.push(i),
                        _ => return None,
                    }
                    i += 1;
                }
                match files.as_slice() {
                    [] => Some(true),
                    [f] => {
                        let w = c.arg_word(*f + 2)?.clone();
                        Some(self.read_path(&w, c.cwd()))
                    }
                    _ => None,
                }
            }
            // Listing or testing an archive's members.
            [
                "tarfile" | "zipfile",
                "-l" | "--list" | "-t" | "--test",
                archive,
            ] if !archive.starts_with('-') => {
                let w = c.arg_word(3)?.clone();
                Some(self.read_path(&w, c.cwd()))
            }
            // Disassembles a pickle without running it (`-o` writes).
            ["pickletools", opts @ ..] if !opts.is_empty() && opts[0] != "dis" => {
                let mut read_only = true;
                let mut i = 0;
                while let Some(o) = opts.get(i) {
                    match *o {
                        "-a" | "--annotate" | "-m" | "--memo" => {}
                        "-l" | "--indentlevel" | "-p" | "--preamble" => i += 1,
                        f if !f.starts_with('-') => {
                            let w = c.arg_word(i + 2)?.clone();
                            read_only &= self.read_path(&w, c.cwd());
                        }
                        _ => return None,
                    }
                    i += 1;
                }
                Some(read_only)
            }
            ["pickletools", "dis", file] if !file.starts_with('-') => {
                let w = c.arg_word(3)?.clone();
                Some(self.read_path(&w, c.cwd()))
            }
            ["pip", "check"] => Some(true),
            ["pip", "list" | "freeze" | "--version", flags @ ..]
                if flags.iter().all(|f| {
                    matches!(
                        *f,
                        "--outdated"
                            | "-o"
                            | "--user"
                            | "--format=json"
                            | "--format=columns"
                            | "--format=freeze"
                            | "--not-required"
                    )
                }) =>
            {
                // `--outdated` asks the index: the network.
                Some(!flags.contains(&"--outdated") && !flags.contains(&"-o"))
            }
            ["pip", "show", pkgs @ ..]
                if !pkgs.is_empty() && pkgs.iter().all(|p| !p.starts_with('-')) =>
            {
                Some(true)
            }
            _ => None,
        }
    }

    /// `python -m http.server`, `python -m pip`, …
    pub(super) fn python_module(&mut self, c: &Cmd<'_>, at: usize) {
        let module = c.args.get(at + 1).map(String::as_str).unwrap_or("");
        if matches!(
            module,
            "http.server" | "SimpleHTTPServer" | "uploadserver" | "pyftpdlib"
        ) {
            let dir = c
                .value("--directory")
                .or_else(|| c.value("-d"))
                .cloned()
                .unwrap_or_else(|| Word::lit("."));
            let p = self.norm(&dir, c.cwd());
            if paths::contains_credentials(&p)
                || paths::catastrophic_normalized(&p) && !self.inside(&p)
            {
                self.block(format!(
                    "serves {} to the network (your keys and files with it)",
                    shown(&dir.text)
                ));
            }
            // The project's root, `.git` and `.env` with it, bound
            // explicitly to every interface.
            let every = c.words.windows(2).any(|w| {
                matches!(w[0].text.as_str(), "--bind" | "-b")
                    && matches!(w[1].text.as_str(), "0.0.0.0" | "::")
            });
            if every && !dir.dynamic && self.is_workdir(&p) {
                self.block(format!(
                    "serves the project's root, its .git and secrets files with it, to the network ({})",
                    shown(&dir.text)
                ));
            }
            self.ask(format!("serves {} over HTTP", shown(&dir.text)));
            return;
        }
        // Modules that run or unpickle the file they are given: one this
        // line downloaded or decoded is code from the network.
        if matches!(
            module,
            "pickle" | "pdb" | "trace" | "cProfile" | "profile" | "runpy" | "unittest" | "doctest"
        ) {
            // The file from standard input: a download piped in, or a
            // downloaded file redirected.
            let piped = c
                .src
                .stdin_from
                .and_then(|i| c.script.commands.get(i))
                .is_some_and(|p| self.producer(p) != Producer::Other);
            let redirected = c
                .src
                .redirects
                .iter()
                .filter(|r| r.op == "<")
                .any(|r| self.is_tainted(&r.target, c.cwd()));
            if piped || redirected {
                self.block(format!(
                    "download and execute (python -m {module} reads what was downloaded or decoded from its input)"
                ));
            }
            for w in c.words.iter().skip(at + 3) {
                let globbed = w.glob && {
                    let p = self.project_relative(self.norm(w, c.cwd()));
                    self.tainted
                        .iter()
                        .any(|t| paths::glob_match(&p, &self.project_relative(t.clone())))
                };
                if !w.text.starts_with('-') && (globbed || self.is_tainted(w, c.cwd())) {
                    self.block(format!(
                        "download and execute (python -m {module} runs {}, which this line downloaded or decoded)",
                        shown(&w.text)
                    ));
                }
            }
        }
        self.ask(format!("runs the {} module {module}", c.base));
    }
}
