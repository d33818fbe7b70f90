//! `tar`: what an archive reads, where extraction writes, and the options
//! that run programs, with the command line read as GNU tar reads it
//! (`-czf OUT`, `-Tlist`, old-style `cfT OUT LIST`, `--opt=V`, `--opt V`).

use super::*;

/// Short options that take a value, by the long name they stand for.
const SHORT_VALUES: &[(char, &str)] = &[
    ('b', "blocking-factor"),
    ('C', "directory"),
    ('f', "file"),
    ('F', "info-script"),
    ('g', "listed-incremental"),
    ('H', "format"),
    ('I', "use-compress-program"),
    ('K', "starting-file"),
    ('L', "tape-length"),
    ('N', "newer"),
    ('T', "files-from"),
    ('V', "label"),
    ('X', "exclude-from"),
];

/// Long options whose value may be the next word.
const LONG_VALUES: &[&str] = &[
    "add-file",
    "after-date",
    "blocking-factor",
    "checkpoint-action",
    "directory",
    "exclude",
    "exclude-from",
    "file",
    "files-from",
    "format",
    "group",
    "index-file",
    "info-script",
    "label",
    "listed-incremental",
    "mode",
    "mtime",
    "new-volume-script",
    "newer",
    "newer-mtime",
    "owner",
    "record-size",
    "rmt-command",
    "rsh-command",
    "starting-file",
    "strip-components",
    "suffix",
    "tape-length",
    "to-command",
    "transform",
    "use-compress-program",
    "volno-file",
    "xform",
];

/// Options whose value is a program tar runs through the shell.
const RUNS: &[&str] = &[
    "info-script",
    "new-volume-script",
    "rmt-command",
    "rsh-command",
    "to-command",
    "use-compress-program",
];

/// Long options without a value that change what tar does.
const SWITCHES: &[&str] = &[
    "absolute-names",
    "append",
    "catenate",
    "concatenate",
    "create",
    "delete",
    "extract",
    "get",
    "list",
    "remove-files",
    "to-stdout",
    "update",
];

/// A long option as GNU tar reads it: the whole name, or a prefix of one.
/// A prefix that could be an option running a program or naming a file is
/// read as that one (the stricter reading).
fn long_name(given: &str) -> Option<&'static str> {
    let all = || LONG_VALUES.iter().chain(SWITCHES.iter());
    if let Some(exact) = all().find(|l| **l == given) {
        return Some(exact);
    }
    let matches: Vec<&'static str> = all().copied().filter(|l| l.starts_with(given)).collect();
    matches
        .iter()
        .find(|l| RUNS.contains(l))
        .or_else(|| matches.iter().find(|l| LONG_VALUES.contains(l)))
        .or_else(|| matches.first())
        .copied()
}

/// A tar command line, read once.
#[derive(Default)]
struct TarLine {
    /// Every single-letter option, bundled or not.
    letters: String,
    /// Long options given without a value (`--list`).
    switches: Vec<String>,
    /// Options with their values, by long name (`-f X` is `file`).
    values: Vec<(String, Word)>,
    /// The names to archive or extract.
    operands: Vec<Word>,
}

impl TarLine {
    fn read(c: &Cmd<'_>) -> Self {
        let words = &c.words[1..];
        let mut line = TarLine::default();
        let mut pending: Vec<&'static str> = Vec::new();
        let mut options_end = false;
        for (k, w) in words.iter().enumerate() {
            let t = w.text.as_str();
            if let Some(name) = (!pending.is_empty()).then(|| pending.remove(0)) {
                line.values.push((name.to_string(), w.clone()));
            } else if options_end
                || t == "-"
                || !t.starts_with('-') && (k > 0 || !t.chars().all(|ch| ch.is_ascii_alphabetic()))
            {
                line.operands.push(w.clone());
            } else if t == "--" {
                options_end = true;
            } else if let Some(long) = t.strip_prefix("--") {
                let (given, inline) = match long.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (long, None),
                };
                let name = long_name(given);
                match (name, inline) {
                    (Some(name), Some(v)) => line.values.push((
                        name.to_string(),
                        Word {
                            text: v.to_string(),
                            ..w.clone()
                        },
                    )),
                    (Some(name), None) if LONG_VALUES.contains(&name) => pending.push(name),
                    (Some(name), None) => line.switches.push(name.to_string()),
                    (None, Some(_)) => line.values.push((given.to_string(), w.clone())),
                    (None, None) => line.switches.push(given.to_string()),
                }
            } else {
                // `-czf`, or the old-style first word `czf`: letters, each
                // value-taking one taking the rest of the word when it has
                // a rest (`-Tlist`, dash form only) or else the next word.
                let dash = t.starts_with('-');
                let letters = t.trim_start_matches('-');
                for (i, ch) in letters.char_indices() {
                    line.letters.push(ch);
                    let Some(&(_, name)) = SHORT_VALUES.iter().find(|(s, _)| *s == ch) else {
                        continue;
                    };
                    let rest = &letters[i + ch.len_utf8()..];
                    if dash && !rest.is_empty() {
                        line.values.push((
                            name.to_string(),
                            Word {
                                text: rest.to_string(),
                                ..w.clone()
                            },
                        ));
                        break;
                    }
                    pending.push(name);
                }
            }
        }
        // `--add-file=F` names a file to archive, as an operand does.
        let added: Vec<Word> = line.all("add-file").cloned().collect();
        line.operands.extend(added);
        line
    }

    fn has(&self, ch: char, long: &str) -> bool {
        self.letters.contains(ch) || self.switches.iter().any(|s| s == long)
    }

    fn value(&self, name: &str) -> Option<&Word> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, w)| w)
    }

    fn all(&self, name: &'static str) -> impl Iterator<Item = &Word> {
        self.values
            .iter()
            .filter(move |(n, _)| n == name)
            .map(|(_, w)| w)
    }
}

impl Analyzer<'_> {
    /// `tar`: archives read their sources, extraction writes its target,
    /// some options run programs.
    pub(super) fn tar(&mut self, c: &Cmd<'_>) -> bool {
        let line = TarLine::read(c);
        let cwd = c.cwd();
        if line.all("files-from").any(|f| f.text == "-") {
            self.names_on_stdin(c);
        }
        let runs = self.tar_programs(c, &line);
        let listing = line.has('t', "list");
        let extracting = line.has('x', "extract") || line.has('x', "get");
        let creating = [
            "create",
            "append",
            "update",
            "catenate",
            "concatenate",
            "delete",
        ]
        .iter()
        .any(|s| line.switches.iter().any(|x| x == s))
            || line.letters.contains(['c', 'r', 'u', 'A']);
        if extracting && line.has('P', "absolute-names") {
            self.block(
                "tar -P extracts to the absolute paths the archive names (anywhere on the machine)",
            );
        }
        // Each `-C` is from the folder the one before it left tar in.
        let mut dirs: Vec<Word> = Vec::new();
        for d in line.all("directory") {
            let from_last = dirs.last().filter(|_| !d.text.starts_with(['/', HOME]));
            dirs.push(match from_last {
                Some(prev) => Word {
                    text: format!("{}/{}", prev.text.trim_end_matches('/'), d.text),
                    ..d.clone()
                },
                None => d.clone(),
            });
        }
        let file = line.value("file").cloned();
        self.tar_side_files(c, &line, &dirs);
        self.tar_untrusted(c, file.as_ref(), dirs.first(), extracting);
        if extracting && line.has('O', "to-stdout") && !creating && printing_only(&line) {
            let mut ok = !runs;
            for f in line.all("file") {
                ok &= self.read_path(f, cwd);
            }
            return ok;
        }
        if extracting {
            let here = [Word::lit(".")];
            for target in if dirs.is_empty() {
                &here[..]
            } else {
                &dirs[..]
            } {
                self.extract_into_from(target, file.as_ref(), cwd, "tar -x");
            }
            for f in line.all("file") {
                self.read_path(f, cwd);
            }
            self.ask("tar extracts files");
            return false;
        }
        if creating || !listing {
            self.tar_sources(c, &line, &dirs);
            self.ask("tar writes an archive");
            return false;
        }
        // Listing an archive only reads it.
        let mut ok = !runs;
        for f in line.all("file") {
            ok &= self.read_path(f, cwd);
        }
        ok
    }

    /// The programs tar's options run; whether there are any.
    fn tar_programs(&mut self, c: &Cmd<'_>, line: &TarLine) -> bool {
        let mut runs = false;
        for (name, v) in &line.values {
            let code = match name.as_str() {
                "checkpoint-action" => match v.text.strip_prefix("exec=") {
                    Some(code) => Word {
                        text: code.to_string(),
                        ..v.clone()
                    },
                    None => continue,
                },
                n if RUNS.contains(&n) => v.clone(),
                _ => continue,
            };
            runs = true;
            self.shell_code(&code, &[], c.script, c.depth);
            self.ask("tar runs a program");
        }
        runs
    }

    /// Lists of names tar reads (`-T F`, `-X F`; tar echoes the names it
    /// does not find), files it writes beside the archive, and the sources
    /// `--remove-files` deletes.
    fn tar_side_files(&mut self, c: &Cmd<'_>, line: &TarLine, dirs: &[Word]) {
        let cwd = c.cwd();
        for (name, v) in &line.values {
            match name.as_str() {
                "files-from" | "exclude-from" if v.text != "-" => {
                    self.read_path(v, cwd);
                }
                "index-file" | "volno-file" | "listed-incremental" => {
                    self.write_path(v, cwd, "tar");
                }
                _ => {}
            }
        }
        if line.switches.iter().any(|x| x == "remove-files") {
            for o in &line.operands {
                let bases: Vec<Option<&str>> = if dirs.is_empty() {
                    vec![cwd]
                } else {
                    dirs.iter().map(|d| Some(d.text.as_str())).collect()
                };
                for base in bases {
                    self.delete_path(o, true, base, "tar --remove-files");
                }
            }
        }
    }

    /// A download or a decoder's output piped in, or a file that was one:
    /// unpacked into a folder on PATH, its programs run as commands later.
    fn tar_untrusted(
        &mut self,
        c: &Cmd<'_>,
        file: Option<&Word>,
        dir: Option<&Word>,
        extracting: bool,
    ) {
        let cwd = c.cwd();
        let piped = file.is_none_or(|f| f.text == "-")
            && c.src
                .stdin_from
                .is_some_and(|p| self.passes_on(p, c.script) != Producer::Other);
        let untrusted = piped || file.is_some_and(|f| self.is_tainted(f, cwd));
        if !extracting || !untrusted {
            return;
        }
        let target = self.norm(dir.unwrap_or(&Word::lit(".")), cwd);
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

    /// What an archive is made of: its operands, relative to `-C DIR`.
    fn tar_sources(&mut self, c: &Cmd<'_>, line: &TarLine, dirs: &[Word]) {
        let cwd = c.cwd();
        for f in line.all("file").filter(|f| f.text != "-") {
            self.write_path(f, cwd, "tar");
        }
        for o in &line.operands {
            if dirs.is_empty() || o.text.starts_with('/') || o.text.starts_with(HOME) {
                self.read_tree(o, cwd, "tar");
                continue;
            }
            for d in dirs {
                let joined = Word {
                    text: format!("{}/{}", d.text.trim_end_matches('/'), o.text),
                    ..o.clone()
                };
                self.read_tree(&joined, cwd, "tar");
            }
        }
        if line.operands.iter().any(|o| o.text == "." || o.text == "*") {
            for d in dirs {
                self.read_tree(d, cwd, "tar");
            }
        }
    }
}

/// `tar -xOf a.tgz member`: only options that choose what is printed;
/// `-T FILE`, `--index-file` and the like read or write other files.
fn printing_only(line: &TarLine) -> bool {
    line.letters.chars().all(|ch| "xOzjJvfpSkaC".contains(ch))
        && line
            .values
            .iter()
            .all(|(n, _)| matches!(n.as_str(), "file" | "directory"))
        && line.switches.iter().all(|s| {
            matches!(
                s.as_str(),
                "to-stdout"
                    | "extract"
                    | "get"
                    | "gzip"
                    | "xz"
                    | "bzip2"
                    | "zstd"
                    | "wildcards"
                    | "no-same-owner"
            )
        })
}
