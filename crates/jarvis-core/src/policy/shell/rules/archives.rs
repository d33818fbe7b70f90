//! `tar`: what an archive reads, where extraction writes, and the options
//! that run programs.

use super::*;

impl Analyzer<'_> {
    /// Programs that read the files named on their input (`cpio -o`,
    /// `tar -T -`, `zip -@`): each name is a read.
    pub(super) fn names_on_stdin(&mut self, c: &Cmd<'_>) {
        let producer = c.src.stdin_from.and_then(|i| c.script.commands.get(i));
        let (_, items) = self.input_items(c, producer, &[], None, false);
        match items {
            Some(items) => {
                for it in items {
                    self.read_path(&it, c.cwd());
                }
            }
            None => {
                let here = self.norm(&Word::lit("."), c.cwd());
                if paths::contains_credentials(&here) {
                    self.block(format!(
                        "{} archives files named at run time from {}, where keys live",
                        c.base,
                        shown(&here)
                    ));
                }
            }
        }
    }

    /// Extracting an archive: into home or a top-level folder it can replace
    /// startup files and keys.
    ///
    /// What a downloaded or decoded archive unpacks is as untrusted as the
    /// archive: anything later run from that folder is download and execute.
    pub(super) fn extract_into_from(
        &mut self,
        d: &Word,
        archive: Option<&Word>,
        cwd: Option<&str>,
        what: &str,
    ) {
        if let Some(a) = archive
            && self.is_tainted(a, cwd)
        {
            let dir = self.norm(d, cwd);
            let dir = dir.trim_end_matches('/');
            if paths::user_bin(&format!("{dir}/x")) {
                self.block(format!(
                    "download and execute ({what} unpacks a download into {dir}, a folder on PATH: its programs run as commands)"
                ));
            }
            self.tainted.push(if dir.is_empty() || dir == "." {
                "./".to_string()
            } else {
                format!("{dir}/")
            });
        }
        if !d.dynamic {
            let p = self.norm(d, cwd);
            if paths::catastrophic_normalized(&p) && !self.inside(&p) {
                self.block(format!(
                    "{what} extracts into {}, where it can replace startup files and keys",
                    shown(&d.text)
                ));
                return;
            }
        }
        self.write_path(d, cwd, what);
    }

    /// `tar`: archives read their sources, extraction writes its target,
    /// some options run programs.
    pub(super) fn tar(&mut self, c: &Cmd<'_>) -> bool {
        let args = &c.args;
        let cwd = c.cwd();
        if args
            .windows(2)
            .any(|w| (w[0] == "-T" || w[0] == "--files-from") && w[1] == "-")
            || args.iter().any(|a| a == "--files-from=-")
        {
            self.names_on_stdin(c);
        }
        let mut runs = false;
        for (i, x) in args.iter().enumerate() {
            for key in [
                "--checkpoint-action=exec=",
                "--to-command=",
                "--use-compress-program=",
                "--rsh-command=",
                "--info-script=",
                "--new-volume-script=",
            ] {
                if let Some(v) = x.strip_prefix(key) {
                    runs = true;
                    // Already unquoted: tar hands the value to `sh -c` as is.
                    self.script(v, &[], c.depth + 1);
                    self.ask("tar runs a program");
                }
            }
            if matches!(
                x.as_str(),
                "-I" | "--to-command" | "--use-compress-program" | "-F" | "--info-script"
            ) && let Some(v) = c.arg_word(i + 1).cloned()
            {
                runs = true;
                self.shell_code(&v, &[], c.script, c.depth);
                self.ask("tar runs a program");
            }
        }
        let first = args.first().map(String::as_str).unwrap_or("");
        let bundle = !first.starts_with('-')
            && !first.contains('/')
            && first.chars().all(|ch| ch.is_ascii_alphabetic());
        let has = |ch: char| {
            args.iter()
                .any(|x| x.starts_with('-') && !x.starts_with("--") && x.contains(ch))
                || (bundle && first.contains(ch))
        };
        let listing = has('t') || c.has("--list");
        let extracting = has('x') || c.has("--extract") || c.has("--get");
        let creating = has('c') || c.has("--create") || has('r') || has('u') || c.has("--append");
        if extracting && (has('P') || c.has("--absolute-names")) {
            self.block(
                "tar -P extracts to the absolute paths the archive names (anywhere on the machine)",
            );
        }
        let dir = c
            .value("-C")
            .or_else(|| c.value("--directory"))
            .cloned()
            .or_else(|| {
                args.iter()
                    .find_map(|a| a.strip_prefix("--directory="))
                    .map(Word::lit)
            });
        // The archive file after -f (or the bundle's f).
        let file_word = args
            .iter()
            .position(|x| {
                x == "-f"
                    || x == "--file"
                    || (x.starts_with('-') && !x.starts_with("--") && x.ends_with('f'))
            })
            .and_then(|i| c.arg_word(i + 1))
            .cloned()
            .or_else(|| {
                if bundle && first.contains('f') {
                    c.arg_word(1).cloned()
                } else {
                    None
                }
            });
        let mut skip_values: Vec<String> = Vec::new();
        if let Some(f) = &file_word {
            skip_values.push(f.text.clone());
        }
        if let Some(d) = &dir {
            skip_values.push(d.text.clone());
        }
        let operands: Vec<Word> = c.words[1..]
            .iter()
            .enumerate()
            .filter(|(k, w)| {
                let option = w.text.starts_with('-') || (bundle && *k == 0);
                !option && !skip_values.contains(&w.text)
            })
            .map(|(_, w)| w.clone())
            .collect();
        if args.iter().any(|x| x == "--remove-files") {
            for o in &operands {
                self.delete_path(
                    o,
                    true,
                    dir.as_ref().map(|d| d.text.as_str()).or(cwd),
                    "tar --remove-files",
                );
            }
        }
        // Lists of names read from a file (`-T F`, `-X F`): a read of F;
        // tar echoes the names it does not find.
        for (i, x) in args.iter().enumerate() {
            let listed = match x.as_str() {
                "-T" | "--files-from" | "-X" | "--exclude-from" => c.arg_word(i + 1).cloned(),
                _ => ["--files-from=", "--exclude-from="]
                    .iter()
                    .find_map(|p| x.strip_prefix(p))
                    .map(Word::lit),
            };
            if let Some(f) = listed.filter(|f| f.text != "-") {
                self.read_path(&f, cwd);
            }
            // Files tar writes beside the archive.
            let written = match x.as_str() {
                "--index-file" | "--volno-file" | "-g" | "--listed-incremental" => {
                    c.arg_word(i + 1).cloned()
                }
                _ => ["--index-file=", "--volno-file=", "--listed-incremental="]
                    .iter()
                    .find_map(|p| x.strip_prefix(p))
                    .map(Word::lit),
            };
            if let Some(f) = written {
                self.write_path(&f, cwd, "tar");
            }
        }
        // A download or a decoder's output piped in, or a file that was one:
        // unpacked into a folder on PATH, its programs run as commands later.
        let piped = file_word.as_ref().is_none_or(|f| f.text == "-")
            && c.src
                .stdin_from
                .is_some_and(|p| self.passes_on(p, c.script) != Producer::Other);
        let untrusted = piped || file_word.as_ref().is_some_and(|f| self.is_tainted(f, cwd));
        if extracting && untrusted {
            let target = self.norm(&dir.clone().unwrap_or_else(|| Word::lit(".")), cwd);
            if paths::user_bin(&format!("{}/x", target.trim_end_matches('/'))) {
                self.block(format!(
                    "download and execute (unpacks a download into {target}, a folder on PATH: its programs run as commands)"
                ));
            }
            if piped {
                self.tainted
                    .push(format!("{}/", target.trim_end_matches('/')));
            }
        }
        // `tar -xOf a.tgz member`: the members printed, nothing written.
        let to_stdout = has('O') || c.has("--to-stdout");
        // Only options that choose what is printed: `-T FILE`, `--index-file`
        // and the like read or write other files.
        let printing_only = args.iter().all(|a| {
            !a.starts_with('-')
                || !a.starts_with("--") && a[1..].chars().all(|ch| "xOzjJvfpSkaC".contains(ch))
                || matches!(
                    a.as_str(),
                    "--to-stdout"
                        | "--extract"
                        | "--get"
                        | "--gzip"
                        | "--xz"
                        | "--bzip2"
                        | "--zstd"
                        | "--wildcards"
                        | "--no-same-owner"
                        | "--directory"
                )
                || a.starts_with("--directory=")
        });
        if extracting && to_stdout && !creating && printing_only {
            let mut ok = !runs;
            if let Some(f) = &file_word {
                ok &= self.read_path(f, cwd);
            }
            return ok;
        }
        if extracting {
            let target = dir.clone().unwrap_or_else(|| Word::lit("."));
            self.extract_into_from(&target, file_word.as_ref(), cwd, "tar -x");
            if let Some(f) = &file_word {
                self.read_path(f, cwd);
            }
            self.ask("tar extracts files");
            return false;
        }
        if creating || !listing {
            if let Some(f) = &file_word
                && f.text != "-"
            {
                self.write_path(f, cwd, "tar");
            }
            for o in &operands {
                // Operands are relative to `-C DIR`.
                let base = dir.as_ref().map(|d| d.text.clone());
                let joined = match &base {
                    Some(d) if !o.text.starts_with('/') && !o.text.starts_with(HOME) => Word {
                        text: format!("{}/{}", d.trim_end_matches('/'), o.text),
                        ..o.clone()
                    },
                    _ => o.clone(),
                };
                self.read_tree(&joined, cwd, "tar");
            }
            if let Some(d) = &dir
                && operands.iter().any(|o| o.text == "." || o.text == "*")
            {
                self.read_tree(d, cwd, "tar");
            }
            self.ask("tar writes an archive");
            return false;
        }
        // Listing an archive only reads it.
        let mut ok = !runs;
        if let Some(f) = &file_word {
            ok &= self.read_path(f, cwd);
        }
        ok
    }
}
