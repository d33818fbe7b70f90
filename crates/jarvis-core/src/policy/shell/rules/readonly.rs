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
        let flags_ok = match b {
            "sed" => {
                let script = c
                    .value("-e")
                    .map(|w| w.text.clone())
                    .or_else(|| c.value("--expression").map(|w| w.text.clone()));
                let script = script.or_else(|| operands(c).first().map(|w| w.text.clone()));
                let mut ok = !c.args.iter().any(|x| {
                    x == "-i"
                        || x.starts_with("-i")
                        || x.starts_with("--in-place")
                        || (short_has(x, 'i'))
                });
                if has("-f") || has("--file") {
                    ok = false;
                }
                if let Some(s) = script {
                    ok &= self.sed_script(&s, c);
                }
                ok
            }
            "awk" | "gawk" | "mawk" | "nawk" => {
                if has("-f") || has("--file") || has("-E") || has("--exec") {
                    false
                } else if has("-i") || has("--include") || has("-l") || has("--load") {
                    // An extension or library loaded (`-l readfile`): never
                    // read-only, and the program is still judged.
                    let prog = awk_text(&c.args);
                    self.awk_program(&prog, c);
                    false
                } else {
                    let prog = operands(c)
                        .first()
                        .map(|w| w.text.clone())
                        .unwrap_or_default();
                    self.awk_program(&prog, c)
                }
            }
            "sort" => !has("-o") && !has("--output") && !has("--compress-program") && !has("-T"),
            "base64" | "base32" | "basenc" => !has("-o") && !has("--output"),
            "iconv" => {
                !has("-o") && !has("--output") && !c.args.iter().any(|a| a.starts_with("--output="))
            }
            // `tree --fromfile F`, `du --files0-from=F`: F's lines printed.
            "tree" | "du"
                if c.words[1..]
                    .iter()
                    .any(|w| w.text == "--fromfile" || w.text.starts_with("--files0-from")) =>
            {
                let mut ro = !has("-o");
                for (i, w) in c.words.iter().enumerate().skip(1) {
                    let file = if let Some(v) = w.text.strip_prefix("--files0-from=") {
                        Some(Word {
                            text: v.to_string(),
                            ..w.clone()
                        })
                    } else if w.text == "--files0-from" {
                        c.words.get(i + 1).cloned()
                    } else if w.text == "--fromfile" {
                        c.words
                            .get(i + 1)
                            .filter(|n| !n.text.starts_with('-'))
                            .cloned()
                    } else {
                        None
                    };
                    if let Some(f) = file {
                        ro &= self.read_path(&f, c.cwd());
                    }
                }
                ro
            }
            "tree" => !has("-o") && !has("-R"),
            "rg" => !has("--pre") && !has("--pre-glob") && !has("-z") && !has("--search-zip"),
            "grep" | "egrep" | "fgrep" | "zgrep" => true,
            "jq" | "yq" | "gojq" | "jaq" => self.jq_reads_env(c),
            "env" | "printenv" => {
                if args.is_empty() && !names_only(c.src, c.script) {
                    self.ask("prints the whole environment");
                    false
                } else if args.is_empty() {
                    true
                } else {
                    for a in args {
                        // Into its service's sign-in or a count, it is used.
                        let handed = super::effects::handed_on(c, super::tokens::service_hosts(a));
                        if super::effects::secret_var(a) && !handed {
                            self.block(format!("reveals the secret variable {a}"));
                        }
                    }
                    true
                }
            }
            "xxd" => {
                // `xxd -r DUMP OUT` writes OUT.
                let ops = operands(c);
                if has("-r") && ops.len() >= 2 {
                    self.write_path(ops[1], c.cwd(), "xxd -r");
                }
                ops.len() <= 1 || !has("-r")
            }
            "uniq" => operands(c).len() <= 1,
            // Batch mode, often bundled (`top -bn1`).
            "top" | "htop" | "btop" => args
                .iter()
                .any(|x| short_flags(x).is_some_and(|b| b.contains(['b', 'n', 'l']))),
            "date" => {
                if has("-s") || has("--set") || args.iter().any(|x| x.starts_with("--set=")) {
                    self.block("changes the system clock (date -s): certificates, logs and schedules depend on it");
                }
                true
            }
            "hostname" => {
                if args.iter().any(|x| !x.starts_with('-'))
                    || has("-F")
                    || has("--file")
                    || has("-b")
                {
                    self.block("renames the machine (hostname NAME)");
                }
                args.is_empty()
                    || args
                        .iter()
                        .all(|x| x.starts_with('-') && x != "-F" && x != "--file" && x != "-b")
            }
            "journalctl" => {
                !has("--vacuum-size")
                    && !has("--vacuum-time")
                    && !has("--vacuum-files")
                    && !has("--rotate")
                    && !has("--flush")
                    && !has("--relinquish-var")
                    && !has("--setup-keys")
            }
            "dmesg" => {
                !has("-c")
                    && !has("-C")
                    && !has("-D")
                    && !has("-E")
                    && !has("--clear")
                    && !has("-n")
            }
            "history" => {
                !has("-c")
                    && !has("-d")
                    && !has("-w")
                    && !has("-r")
                    && !has("-a")
                    && !has("-n")
                    && !has("-s")
            }
            "less" | "more" | "most" => {
                // `-o FILE`/`-O FILE`/`--log-file=FILE` copies the input there.
                for (k, x) in args.iter().enumerate() {
                    let value = match x.as_str() {
                        "-o" | "-O" | "--log-file" | "--LOG-FILE" => c.arg_word(k + 1).cloned(),
                        _ => x
                            .strip_prefix("--log-file=")
                            .or_else(|| x.strip_prefix("--LOG-FILE="))
                            .or_else(|| x.strip_prefix("-o").filter(|v| !v.is_empty()))
                            .or_else(|| x.strip_prefix("-O").filter(|v| !v.is_empty()))
                            .map(Word::lit),
                    };
                    if let Some(f) = value {
                        self.write_path(&f, c.cwd(), &c.base);
                    }
                }
                !has("-o")
                    && !has("--log-file")
                    && !has("-O")
                    && !has("--LOG-FILE")
                    && !args
                        .iter()
                        .any(|x| x.starts_with("+!") || x.starts_with('+') && x.contains('!'))
            }
            "man" => !has("-P") && !has("--pager") && !has("-H") && !has("--html"),
            // Source lines come from the files a binary's debug info names,
            // wherever they are: not a read of the operands alone.
            "objdump" => {
                !has("-S")
                    && !has("--source")
                    && !has("-l")
                    && !has("--line-numbers")
                    && !has("-I")
                    && !args
                        .iter()
                        .any(|x| x.starts_with("--include") || (short_has(x, 'S')))
            }
            // `-x` follows `source` lines to other files and quotes them.
            "shellcheck" => {
                !has("-x") && !has("--external-sources") && !has("-P") && !has("--source-path")
            }
            "ulimit" => true,
            // Tags read, none written: no `-TAG=`, `<=` file copies, `-o`.
            // `-if EXPR` and `${TAG;EXPR}` in a format are Perl: a condition
            // on tags alone (`-if '$GPSLatitude'`) calls nothing.
            "exiftool" => {
                let mut plain = true;
                let mut skip = false;
                for (i, a) in args.iter().enumerate() {
                    if skip {
                        skip = false;
                        continue;
                    }
                    if lower(a) == "-if"
                        && let Some(code) = args.get(i + 1)
                    {
                        self.inline_code("perl", code, c.depth);
                        plain &= !code.contains(['(', ';', '`', '{', '@', '&', '\\']);
                        skip = true;
                        continue;
                    }
                    let l = lower(a);
                    let formats_code = a.contains("${") && a.contains(';');
                    let writes = a.contains(['=', '<'])
                        || matches!(
                            l.as_str(),
                            "-o" | "-out" | "-w" | "-tagsfromfile" | "-geotag" | "-delete_original"
                        )
                        || l.starts_with("-overwrite_original");
                    plain &= !formats_code && !writes;
                }
                plain
            }
            // Inspectors of media and documents: an exact list of options
            // that only choose what is printed, local files only (no
            // protocol or coder: `http:`, `concat:`, ImageMagick's `msl:`
            // runs a script, `@file` reads a list), no settings from the
            // environment (`FFREPORT` writes a log).
            "ffprobe" | "identify" | "pdfinfo" | "pdftotext" | "xmllint" | "texcount"
            | "pg_restore" | "hadolint" | "mediainfo" | "soxi" | "qpdf" | "pandoc" => {
                let (bare, valued) = inspector_options(b);
                let files = operands(c);
                c.src.assigns.is_empty()
                    && only_options(args, bare, valued)
                    && files
                        .iter()
                        .all(|w| !names_protocol(&w.text) && !w.text.starts_with('@'))
                    // Without `-` for its output, pdftotext writes FILE.txt;
                    // qpdf with a second file writes it.
                    && (b != "pdftotext" || files.last().is_some_and(|w| w.text == "-"))
                    && (b != "qpdf" || files.len() == 1)
                    // Formats by name: a `.lua` reader or writer is code.
                    && super::script_opts::values(
                        c,
                        &["-f", "--from", "-r", "--read", "-t", "--to", "-w", "--write"],
                    )
                    .iter()
                    .all(|v| b != "pandoc" || v.text.chars().all(|ch| ch.is_ascii_alphanumeric() || "_+-".contains(ch)))
                    // `--Output=file://…` reads a template.
                    && super::script_opts::values(c, &["--Output", "--Inform"])
                        .iter()
                        .all(|v| b != "mediainfo" || !v.text.contains([':', '/']))
                    // A schema is a file read too.
                    && super::script_opts::values(c, &["--schema", "--relaxng", "--dtdvalid"])
                        .iter()
                        .all(|f| !names_protocol(&f.text) && self.read_path(f, c.cwd()))
            }
            // A saved capture read back; a live capture (`-i`, or no `-r`)
            // needs the network device, `-w` writes one.
            "tcpdump" => match c.value("-r").cloned() {
                Some(f) if only_options(args, TCPDUMP_SHOWS, &["-r", "-c"]) => {
                    self.read_path(&f, c.cwd())
                }
                _ => false,
            },
            "umask" => args.iter().all(|x| x.starts_with('-')),
            "stty" => args.is_empty() || args.iter().all(|x| x == "-a" || x == "size" || x == "-g"),
            // `set`, `export -p`, `declare -x`: every variable's value, as
            // `env` prints them.
            "set" | "export" | "declare" | "typeset"
                if (c.src.assigns.is_empty() || !c.src.declares)
                    && super::pipes::dumps_env(&c.words) =>
            {
                self.ask("prints the whole environment");
                false
            }
            // `declare -p AWS_SECRET_ACCESS_KEY`: that variable's value.
            "declare" | "typeset" | "export" | "readonly" | "local"
                if args
                    .iter()
                    .any(|a| letter_flags(a).is_some_and(|b| b.contains('p')))
                    && args.iter().any(|a| super::effects::secret_var(a)) =>
            {
                let a = args.iter().find(|a| super::effects::secret_var(a)).cloned();
                self.block(format!(
                    "reveals the secret variable {}",
                    a.unwrap_or_default()
                ));
                false
            }
            "set" | "shopt" | "export" | "declare" | "typeset" | "local" | "readonly" | "unset"
            | "let" | "shift" | "getopts" | "return" | "exit" | "break" | "continue" | "read"
            | "cd" | "pushd" | "popd" | "dirs" | "wait" | "type" | "hash" | "true" | "false"
            | ":" => true,
            "find" | "fd" | "fdfind" => true,
            // Jarvis's own open files and sockets are its business.
            "lsof" => {
                if c.words[1..].iter().any(|w| self.aims_at_self(w, c.script)) {
                    self.block(
                        "lsof looks into Jarvis's own process (its files, sockets and database)",
                    );
                }
                true
            }
            "ps" | "pgrep" | "pidof" | "pstree" => true,
            // `ss -K` closes the sockets its filter matches.
            "ss" if has("-K") || has("--kill") || args.iter().any(|x| short_has(x, 'K')) => {
                let port = crate::policy::url::JARVIS_PORT.to_string();
                if args
                    .iter()
                    .any(|x| x.trim_start_matches(':') == port || x.ends_with(&format!(":{port}")))
                {
                    self.block("ss -K cuts Jarvis's own connections");
                }
                self.ask("ss -K closes network connections");
                false
            }
            "mount" | "findmnt" | "blkid" => args.is_empty() || b != "mount",
            "compgen" => {
                // `-C CMD` runs a command, `-F FUNC` a function, to list.
                for flag in ["-C", "-F"] {
                    if let Some(code) = c.value(flag).cloned() {
                        let v = self.judged(|a| a.shell_code(&code, &[], c.script, c.depth));
                        if v != Verdict::Allow {
                            self.ask(format!("compgen {flag} runs a command"));
                        }
                    }
                }
                !has("-C") && !has("-F")
            }
            "complete" => {
                if let Some(code) = c.value("-C").cloned() {
                    self.judged(|a| a.shell_code(&code, &[], c.script, c.depth));
                }
                has("-p") || args.is_empty()
            }
            // `-C CALLBACK` runs code every few lines; the lines come from
            // the input (a file, judged as a read) into a variable.
            // The callback is called as `CALLBACK INDEX LINE`: judged with a
            // line from a here-string when it is known, else unknown.
            "mapfile" | "readarray" => {
                let Some(code) = c.value("-C").cloned() else {
                    return true;
                };
                let lines: Vec<String> = c
                    .src
                    .redirects
                    .iter()
                    .find(|r| r.op == "<<<")
                    .and_then(|r| r.body.as_ref().or(Some(&r.target)))
                    .filter(|w| !w.dynamic)
                    .map(|w| w.text.lines().take(16).map(functions::spelled).collect())
                    .unwrap_or_else(|| vec!["\"$line\"".into()]);
                let mut harmless = true;
                for line in lines {
                    let call = Word {
                        text: format!("{} 0 {line}", code.text),
                        ..code.clone()
                    };
                    harmless &= self.judged(|a| a.shell_code(&call, &[], c.script, c.depth))
                        == Verdict::Allow;
                }
                harmless
            }
            // The shadow databases hold password hashes; the rest (users,
            // groups, hosts, services) is what any process may read.
            "getent" => {
                let db = operands(c)
                    .first()
                    .map(|w| lower(&w.text))
                    .unwrap_or_default();
                if matches!(db.as_str(), "shadow" | "gshadow") {
                    self.block(format!("reads password hashes (getent {db})"));
                }
                true
            }
            "gsettings" => matches!(
                args.first().map(String::as_str),
                Some(
                    "get"
                        | "list-schemas"
                        | "list-relocatable-schemas"
                        | "list-keys"
                        | "list-children"
                        | "list-recursively"
                        | "range"
                        | "describe"
                        | "writable"
                )
            ),
            "xdg-mime" => args.first().is_some_and(|a| a == "query"),
            "udevadm" => args.first().is_some_and(|a| a == "info"),
            "bc" => true,
            "zipinfo" => true,
            "tldr" | "cheat" => false,
            _ => true,
        };
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
                if takes_value(b, t) {
                    skip_next = true;
                }
                continue;
            }
            if text.contains(&k) {
                continue;
            }
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
                        if super::finders::PRINTS_CONTENT.contains(&b)
                            && self.found_by_secret_search(w)
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
}

impl Analyzer<'_> {}

/// An awk program's text: the first operand that is not an option's value.
fn awk_text(args: &[String]) -> String {
    const VALUED: &[&str] = &[
        "-l",
        "--load",
        "-i",
        "--include",
        "-v",
        "--assign",
        "-F",
        "--field-separator",
    ];
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
            continue;
        }
        if a.starts_with('-') {
            skip = VALUED.contains(&a.as_str());
            continue;
        }
        return a.clone();
    }
    String::new()
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

/// `http://…`, `concat:a|b`, `msl:x.msl`: a protocol or a coder before a
/// colon, not a path or an option's `key=a:b` value.
fn names_protocol(a: &str) -> bool {
    a.split_once(':').is_some_and(|(head, _)| {
        !head.is_empty()
            && head
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '+' | '-' | '_' | '.'))
            && !head.starts_with('-')
    })
}

/// tcpdump's options that only choose how a saved capture is printed.
const TCPDUMP_SHOWS: &[&str] = &[
    "-n", "-nn", "-v", "-vv", "-vvv", "-e", "-q", "-t", "-tt", "-ttt", "-A", "-x", "-xx", "-X",
    "-XX", "-N", "-S",
];

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
fn inspector_options(b: &str) -> (&'static [&'static str], &'static [&'static str]) {
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
fn only_options(args: &[String], bare: &[&str], valued: &[&str]) -> bool {
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
