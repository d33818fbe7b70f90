//! The allow-list: programs that only read, each with the options that
//! would make it write or run something, and which of its operands are
//! files (checked against the read set) and which are text.

use super::positions::text_positions;
use super::tables::Role;
use super::*;

/// Readers whose use of Jarvis's state is a read, not a change.
pub(super) fn pure_reader(b: &str) -> bool {
    matches!(
        b,
        "cat"
            | "ls"
            | "head"
            | "tail"
            | "less"
            | "more"
            | "sqlite3"
            | "du"
            | "stat"
            | "file"
            | "wc"
            | "grep"
            | "rg"
            | "find"
            | "tree"
            | "jq"
            | "strings"
            | "sha256sum"
            | "md5sum"
            | "nl"
            | "tac"
            | "bat"
            | "xxd"
            | "od"
            | "hexdump"
            | "diff"
            | "cmp"
            | "fd"
            | "exa"
            | "eza"
            | "realpath"
            | "readlink"
    )
}

/// Options (with a value) of the common readers, so the value is not
/// mistaken for a file operand.
pub(super) fn takes_value(b: &str, flag: &str) -> bool {
    if inspector_options(b).1.contains(&flag) || b == "tcpdump" && matches!(flag, "-r" | "-c") {
        return true;
    }
    match b {
        "head" | "tail" => matches!(flag, "-n" | "-c" | "--lines" | "--bytes" | "-s" | "--pid"),
        "cut" => matches!(
            flag,
            "-d" | "-f" | "-c" | "-b" | "--delimiter" | "--fields" | "--output-delimiter"
        ),
        "iconv" => matches!(flag, "-f" | "-t" | "--from-code" | "--to-code"),
        "sort" => matches!(
            flag,
            "-k" | "-t"
                | "-S"
                | "--key"
                | "--field-separator"
                | "--buffer-size"
                | "-T"
                | "--parallel"
        ),
        "grep" | "egrep" | "fgrep" | "zgrep" => matches!(
            flag,
            "-e" | "-f"
                | "-m"
                | "-A"
                | "-B"
                | "-C"
                | "--include"
                | "--exclude"
                | "--exclude-dir"
                | "--color"
                | "--regexp"
                | "--file"
                | "--max-count"
                | "--label"
                | "-d"
                | "-D"
        ),
        "rg" => matches!(
            flag,
            "-e" | "-f"
                | "-g"
                | "--glob"
                | "-t"
                | "--type"
                | "-T"
                | "--type-not"
                | "-m"
                | "-A"
                | "-B"
                | "-C"
                | "--max-depth"
                | "-j"
                | "--threads"
                | "-M"
                | "--max-columns"
                | "--regexp"
                | "--file"
                | "-r"
                | "--replace"
                | "--iglob"
                | "--type-add"
                | "-E"
                | "--encoding"
                | "--sort"
                | "--sortr"
                | "--color"
                | "--colors"
                | "-d"
        ),
        "ag" | "ack" => matches!(
            flag,
            "-G" | "--ignore" | "-m" | "-A" | "-B" | "-C" | "--depth"
        ),
        "ls" | "exa" | "eza" | "lsd" => matches!(
            flag,
            "-I" | "--ignore"
                | "-w"
                | "--width"
                | "--sort"
                | "--time-style"
                | "-T"
                | "--color"
                | "--level"
                | "-L"
        ),
        "tree" => matches!(flag, "-L" | "-I" | "-P" | "--filelimit" | "-o"),
        "du" => matches!(
            flag,
            "-d" | "--max-depth" | "-t" | "--threshold" | "--exclude" | "-B" | "--block-size"
        ),
        "jq" | "yq" | "gojq" | "jaq" => matches!(
            flag,
            "--arg"
                | "--argjson"
                | "--slurpfile"
                | "--rawfile"
                | "--indent"
                | "-f"
                | "--from-file"
                | "--args"
        ),
        "sed" => matches!(
            flag,
            "-e" | "-f" | "--expression" | "--file" | "-l" | "--line-length"
        ),
        "awk" | "gawk" | "mawk" | "nawk" => matches!(
            flag,
            "-F" | "-v" | "-f" | "--field-separator" | "--assign" | "--file"
        ),
        "xxd" => matches!(flag, "-c" | "-g" | "-l" | "-s" | "-o"),
        "shellcheck" => matches!(
            flag,
            "-f" | "-S"
                | "-e"
                | "-i"
                | "-o"
                | "-s"
                | "-P"
                | "-W"
                | "--format"
                | "--severity"
                | "--exclude"
                | "--include"
                | "--enable"
                | "--shell"
                | "--source-path"
                | "--rcfile"
        ),
        "od" => matches!(flag, "-t" | "-j" | "-N" | "-A" | "-w" | "-S"),
        "hexdump" | "hd" => matches!(flag, "-n" | "-s" | "-e" | "-f"),
        "nl" => matches!(flag, "-b" | "-v" | "-i" | "-w" | "-s" | "-n"),
        "diff" => matches!(
            flag,
            "-U" | "-C" | "--label" | "-x" | "--exclude" | "-X" | "--exclude-from" | "-I"
        ),
        "column" => matches!(flag, "-s" | "-t" | "-c" | "-o" | "-N"),
        "stat" => matches!(flag, "-c" | "--format" | "-f" | "--printf"),
        "date" => matches!(flag, "-d" | "--date" | "-r" | "--reference" | "-f"),
        "find" => false,
        "fold" | "fmt" => matches!(flag, "-w" | "--width"),
        "strings" => matches!(flag, "-n" | "-t" | "-e"),
        "uniq" => matches!(flag, "-f" | "-s" | "-w"),
        "journalctl" => matches!(
            flag,
            "-u" | "-n"
                | "-p"
                | "--since"
                | "--until"
                | "-t"
                | "--unit"
                | "-o"
                | "--output"
                | "-b"
                | "--boot"
        ),
        "ps" => matches!(
            flag,
            "-o" | "-p" | "-u" | "-C" | "--sort" | "-U" | "-G" | "-t"
        ),
        "lsof" => matches!(flag, "-i" | "-p" | "-u" | "-c" | "-d" | "-g"),
        _ => false,
    }
}

impl Analyzer<'_> {
    /// A program on the allow-list: true when this invocation only reads
    /// what the read set holds.
    pub(super) fn read_only(&mut self, c: &Cmd<'_>, role: Role) -> bool {
        let b = c.lb.as_str();
        let args = &c.args;
        let has = |f: &str| c.has(f);
        let flags_ok = self.reader_flags(c);
        // Writing output anywhere but /dev/null is not read-only. Either way
        // the files it reads are still judged: a key copied into a file is
        // a key read (`base64 ~/.ssh/id_rsa > x.txt`, `sort -o x secrets`).
        let redirect_writes = c.src.redirects.iter().any(Redirect::writes_file);
        let text = text_positions(c);
        let mut ok = flags_ok && !redirect_writes;
        let mut skip_next = false;
        let recursive = matches!(b, "grep" | "egrep" | "fgrep" | "zgrep")
            && (c.short('r')
                || c.short('R')
                || has("--recursive")
                || has("-d") && args.iter().any(|x| x == "recurse"))
            || matches!(b, "rg" | "ag" | "ack");
        // An endless device read whole (`sort /dev/zero`), or copied into a
        // file by the tens of gigabytes (`head -c 200G /dev/zero > f`).
        let endless = operands(c)
            .iter()
            .any(|w| super::streams::endless_device(&lower(&w.text)));
        if endless && matches!(b, "sort" | "tac" | "shuf") {
            self.block(format!(
                "exhausts memory ({b} holds an endless device's output whole)"
            ));
        }
        let huge = c
            .value("-c")
            .or_else(|| c.value("--bytes"))
            .and_then(|v| super::files::byte_size(&v.text))
            .is_some_and(|n| n >= super::files::DISK_FILL);
        if endless && huge && redirect_writes {
            self.block(format!(
                "fills the disk ({b} copies tens of gigabytes into a file)"
            ));
        }
        // `jq --rawfile NAME FILE`, `--slurpfile NAME FILE`: the file is the
        // option's second value.
        if matches!(b, "jq" | "yq" | "gojq" | "jaq") {
            for (k, a) in args.iter().enumerate() {
                if matches!(a.as_str(), "--rawfile" | "--slurpfile" | "--argfile")
                    && let Some(f) = c.arg_word(k + 2).cloned()
                {
                    ok &= self.read_path(&f, c.cwd());
                }
            }
        }
        for (i, w) in c.words.iter().enumerate().skip(1) {
            let k = i - 1;
            let t = w.text.as_str();
            if skip_next {
                skip_next = false;
                // An option's value that is a file (`grep -f FILE`).
                let prev = args[k - 1].as_str();
                if expression_value(b, prev, &w.text) {
                    continue;
                }
                // `-format @FILE`: ImageMagick reads the file named after `@`.
                let at_file;
                let w = match w.text.strip_prefix('@').filter(|_| b == "identify") {
                    Some(rest) => {
                        at_file = Word {
                            text: rest.to_string(),
                            ..w.clone()
                        };
                        &at_file
                    }
                    None => w,
                };
                let pathish =
                    w.text.contains('/') || w.text.starts_with(HOME) || w.text.starts_with('.');
                if (matches!(
                    prev,
                    "-f" | "--file"
                        | "--from-file"
                        | "--slurpfile"
                        | "--rawfile"
                        | "-X"
                        | "--exclude-from"
                        | "-r"
                        | "--reference"
                ) || pathish)
                    && !text.contains(&k)
                {
                    ok &= self.read_path(w, c.cwd());
                }
                continue;
            }
            if t.starts_with('-') && t.len() > 1 && !w.dynamic {
                // udevadm's `--name=/dev/X` names a device; nothing is read.
                if let Some((_, v)) = t
                    .split_once('=')
                    .filter(|(f, v)| b != "udevadm" && !expression_value(b, f, v))
                    && (v.starts_with('/')
                        || v.starts_with(HOME)
                        || v.starts_with("..")
                        || v.starts_with('~'))
                {
                    let vw = Word {
                        text: v.to_string(),
                        ..w.clone()
                    };
                    ok &= self.read_path(&vw, c.cwd());
                }
                // A short option glued to a file (`hexdump -f/path`,
                // `grep -f../x`): the file is read.
                if !t.starts_with("--")
                    && t.len() > 2
                    && takes_value(b, &t[..2])
                    && let Some(v) = t
                        .get(2..)
                        .filter(|v| v.starts_with(['/', '~', '.']) || v.starts_with(HOME))
                {
                    let vw = Word {
                        text: v.to_string(),
                        ..w.clone()
                    };
                    ok &= self.read_path(&vw, c.cwd());
                }
                if takes_value(b, t) {
                    skip_next = true;
                }
                continue;
            }
            if text.contains(&k) {
                continue;
            }
            ok &= self.reader_operand(c, w, role, recursive);
        }
        if matches!(b, "cd" | "pushd") {
            // Where later relative paths land decides them; `cd` itself reads nothing.
            if let Some(d) = c.words.get(1) {
                let p = self.norm(d, c.cwd());
                if let Some(why) = paths::credential_normalized(&p, &d.text) {
                    self.block(format!("moves into a credential store: {why}"));
                }
            }
            return true;
        }
        ok
    }

    /// One operand of an allow-listed reader, by its role: true when
    /// reading it is provably harmless.
    fn reader_operand(&mut self, c: &Cmd<'_>, w: &Word, role: Role, recursive: bool) -> bool {
        let b = c.lb.as_str();
        let mut ok = true;
        match role {
            Role::Text => {
                if w.dynamic && matches!(b, "cd" | "pushd") {
                    ok = false;
                }
                // `man ./x`, `man -l F`, `bc F`, `last -f F`: a name,
                // unless it is a path, then a file whose text is shown.
                let pathish = w.text.contains('/')
                    || w.text.starts_with('~')
                    || w.text.starts_with('.')
                    || w.dynamic;
                // `man -l F` reads F wherever it is (`cd ~/.ssh && man -l id_rsa`).
                let local = b == "man" && (c.has("-l") || c.has("--local-file"));
                if (pathish || local) && tables::NAME_OR_FILE.contains(&b) {
                    ok &= self.read_path(w, c.cwd());
                }
            }
            // df names a file system by any path on it: nothing is read.
            Role::Meta if c.lb == "df" && !w.dynamic => {}
            Role::Meta => {
                ok &= self.list_path(w, c.cwd());
            }
            Role::Files | Role::PatternFiles | Role::ScriptFiles => {
                // A value from a listing of the project is one of its files.
                let counted = !recursive && self.counted_listing(w, c.cwd(), b);
                let listed = !recursive && self.listed_in_project(w, c.cwd()) || counted;
                if counted {
                    // Counts and metadata of the listing's words.
                } else if w.dynamic && !w.procsub && !listed {
                    // Judged for what its fixed parts and its source
                    // say (a search for secrets' names); never provably
                    // harmless.
                    self.read_path(w, c.cwd());
                    if super::finders::PRINTS_CONTENT.contains(&b) && self.found_by_secret_search(w)
                    {
                        self.block(format!(
                            "prints the files a search for secrets' names found ({})",
                            shown(&w.text)
                        ));
                    }
                    ok = false;
                } else if recursive {
                    let p = self.norm(w, c.cwd());
                    let app = lower(&self.env.app);
                    let last = lower(p.trim_end_matches('/').rsplit('/').next().unwrap_or(""));
                    if self.app_state(&p) && (last == app || last == format!(".{app}")) {
                        self.block(format!(
                            "{} searches all of Jarvis's state, its configuration and grants with it ({})",
                            c.base,
                            shown(&w.text)
                        ));
                        ok = false;
                    } else if paths::contains_credentials(&p) {
                        self.block(format!(
                            "{} searches everything below {}, where keys and tokens live",
                            c.base,
                            shown(&w.text)
                        ));
                        ok = false;
                    } else {
                        ok &= self.read_path(w, c.cwd());
                    }
                } else {
                    ok &= self.read_path(w, c.cwd());
                }
            }
        }
        ok
    }
}

/// The environment's listing cut down to its names by the next stage
/// (`printenv | cut -d= -f1`, `env | sed 's/=.*//'`, `awk -F= '{print $1}'`).
pub(super) fn names_only(c: &Command, script: &Script) -> bool {
    // Its output must go down the pipe, not past it (`printenv >&2 | cut`).
    if !c.redirects.is_empty() {
        return false;
    }
    let Some((_, argv)) = super::wrappers::next_stage(c, script) else {
        return false;
    };
    let words: Vec<&str> = argv.iter().map(|w| w.text.as_str()).collect();
    match words.as_slice() {
        // One delimiter `=`, one field `1` (cut keeps the last of each).
        ["cut", rest @ ..] => matches!(
            rest,
            ["-d=", "-f1"]
                | ["-f1", "-d="]
                | ["-d", "=", "-f1"]
                | ["-f1", "-d", "="]
                | ["-d=", "-f", "1"]
                | ["-d", "=", "-f", "1"]
        ),
        ["sed", "s/=.*//"] | ["sed", "-e", "s/=.*//"] => true,
        // Named variables only (`grep -E '^(CONDA_PREFIX|VIRTUAL_ENV)='`),
        // none of them a secret's.
        ["grep" | "egrep", flags @ .., pattern]
            if flags
                .iter()
                .all(|f| matches!(*f, "-E" | "--extended-regexp")) =>
        {
            named_variables(pattern)
        }
        ["awk" | "gawk" | "mawk", "-F=" | "-F", ..] => {
            words
                .last()
                .is_some_and(|p| p.replace(' ', "") == "{print$1}")
                && words.len() <= 4
                && (words[1] == "-F=" || words.get(2) == Some(&"="))
        }
        _ => false,
    }
}

/// `^NAME=` or `^(A|B)=`: lines of the named variables, none a secret.
fn named_variables(pattern: &str) -> bool {
    let Some(body) = pattern.strip_prefix('^').and_then(|p| p.strip_suffix('=')) else {
        return false;
    };
    let body = body
        .strip_prefix('(')
        .and_then(|b| b.strip_suffix(')'))
        .unwrap_or(body);
    body.split('|').all(|name| {
        name.chars()
            .next()
            .is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_')
            && name
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
            && !super::effects::secret_var(name)
    })
}

/// An inspector's option whose value says what to print (an XPath, a
/// format), not a file to read: every listed value but the inputs and
/// schemas, which are files.
fn expression_value(b: &str, flag: &str, value: &str) -> bool {
    match (b, flag) {
        ("xmllint", "--xpath")
        | (
            "ffprobe",
            "-show_entries" | "-of" | "-print_format" | "-select_streams" | "-v" | "-loglevel",
        )
        | ("pdfinfo" | "pdftotext", "-f" | "-l" | "-enc" | "-eol") => true,
        // `-format @file` reads the file.
        ("identify", "-format") => !value.starts_with('@'),
        _ => false,
    }
}

/// The options an inspector may be given and still only read: flags
/// alone, and flags whose value is the next word (or `--flag=V`).
pub(super) fn inspector_options(b: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match b {
        "ffprobe" => (
            &[
                "-hide_banner",
                "-show_format",
                "-show_streams",
                "-show_chapters",
                "-show_programs",
                "-show_error",
                "-count_frames",
                "-count_packets",
                "-pretty",
                "-sexagesimal",
                "-unit",
                "-prefix",
                "-byte_binary_prefix",
            ],
            &[
                "-v",
                "-loglevel",
                "-show_entries",
                "-of",
                "-print_format",
                "-select_streams",
                "-i",
            ],
        ),
        "identify" => (
            &["-verbose", "-ping", "-quiet", "-regard-warnings"],
            &["-format"],
        ),
        "pdfinfo" => (
            &[
                "-box",
                "-meta",
                "-js",
                "-rawdates",
                "-isodates",
                "-struct",
                "-url",
            ],
            &["-f", "-l", "-enc"],
        ),
        "pdftotext" => (
            &["-layout", "-raw", "-nopgbrk", "-q", "-simple", "-htmlmeta"],
            &["-f", "-l", "-enc", "-eol"],
        ),
        "xmllint" => (
            &["--noout", "--format", "--nonet", "--nowarning", "--recover"],
            &[
                "--xpath",
                "--pretty",
                "--encode",
                "--schema",
                "--relaxng",
                "--dtdvalid",
            ],
        ),
        "texcount" => (
            &[
                "-inc", "-total", "-sum", "-brief", "-q", "-1", "-nosub", "-nocol",
            ],
            &[],
        ),
        "pg_restore" => (&["-l", "--list"], &["-F", "--format"]),
        "mediainfo" => (&["-f", "--Full"], &["--Output", "--Language"]),
        "pandoc" => (
            &[
                "-s",
                "--standalone",
                "--toc",
                "--table-of-contents",
                "--no-highlight",
                "--strip-comments",
            ],
            &[
                "-f",
                "--from",
                "-r",
                "--read",
                "-t",
                "--to",
                "-w",
                "--write",
                "--wrap",
                "--columns",
            ],
        ),
        "soxi" => (
            &[
                "-D", "-r", "-c", "-s", "-d", "-b", "-p", "-e", "-t", "-a", "-V",
            ],
            &[],
        ),
        "qpdf" => (
            &[
                "--show-npages",
                "--check",
                "--show-encryption",
                "--show-pages",
                "--show-xref",
                "--list-attachments",
                "--is-encrypted",
                "--requires-password",
                "--json",
            ],
            &[],
        ),
        "hadolint" => (
            &["--no-fail", "--no-color", "--verbose", "-v"],
            &["-f", "--format", "--ignore", "-t", "--failure-threshold"],
        ),
        _ => (&[], &[]),
    }
}

/// Every option in `args` is one of `bare` or `valued` (whose value is the
/// next word, or glued on with `=`); operands may be anything.
pub(super) fn only_options(args: &[String], bare: &[&str], valued: &[&str]) -> bool {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a == "-" || !a.starts_with('-') {
            i += 1;
        } else if valued.contains(&a.as_str()) {
            i += 2;
        } else if bare.contains(&a.as_str()) || valued.iter().any(|v| eq_value(a, v).is_some()) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}
