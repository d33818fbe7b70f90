//! The options of each allow-listed reader that keep it a reader: those
//! that would make it write, run something or read beyond its operands
//! are looked for here, the operands themselves in `readonly`.

use super::readonly::{inspector_options, names_only, only_options};
use super::*;

impl Analyzer<'_> {
    /// pandoc reading a format with includes: the files its visible input
    /// includes are judged as reads; true when includes may be followed.
    fn pandoc_includes(&mut self, c: &Cmd<'_>) -> bool {
        const INCLUDING: &[&str] = &["rst", "latex", "tex", "org", "asciidoc", "textile"];
        let named = super::script_opts::values(c, &["-f", "--from", "-r", "--read"]);
        let by_name = named.iter().any(|v| {
            let f = lower(&v.text);
            INCLUDING.iter().any(|k| f.starts_with(k))
        });
        let by_file = operands(c).iter().any(|w| {
            let l = lower(&w.text);
            [".rst", ".tex", ".org", ".adoc", ".textile"]
                .iter()
                .any(|e| l.ends_with(e))
        });
        let (text, _) = self.statements(c);
        for k in [
            ".. include::",
            ".. literalinclude::",
            "#+INCLUDE:",
            "#+include:",
        ] {
            for (at, _) in text.match_indices(k) {
                let rest = text[at + k.len()..].trim_start();
                let f = rest
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .trim_matches('"');
                self.read_path(&super::script_opts::expanded(f), c.cwd());
            }
        }
        for k in ["\\input{", "\\include{"] {
            for (at, _) in text.match_indices(k) {
                let f = text[at + k.len()..].split('}').next().unwrap_or("");
                self.read_path(&super::script_opts::expanded(f), c.cwd());
            }
        }
        by_name || by_file
    }

    /// Each value of `opts` judged as a file the program writes; true when
    /// there is one (the program is then no reader).
    fn writes_values(&mut self, c: &Cmd<'_>, opts: &[&str]) -> bool {
        let written = super::script_opts::values(c, opts);
        for w in &written {
            self.write_path(w, c.cwd(), &c.base);
        }
        !written.is_empty()
    }

    /// Text tools and pagers: true when the options keep them reading.
    pub(super) fn reader_flags(&mut self, c: &Cmd<'_>) -> bool {
        let b = c.lb.as_str();
        let args = &c.args;
        // (Each option as getopt reads it: glued, bundled, abbreviated.)
        let has = |f: &str| c.args.iter().any(|x| spells(x, f));
        match b {
            // `file -s /dev/sda`: a block device's content read; `-C`
            // compiles the magic files into `*.mgc` beside them.
            "file" => !c.args.iter().any(|a| {
                a == "--special-files" || a == "--compile" || short_has(a, 's') || short_has(a, 'C')
            }),
            "sed" => {
                let mut scripts = super::awk_sed::sed_scripts(&c.args);
                if scripts.is_empty() {
                    scripts.extend(operands(c).first().map(|w| w.text.clone()));
                }
                let mut ok = !c.args.iter().any(|x| {
                    x == "-i"
                        || x.starts_with("-i")
                        || x.starts_with("--in-place")
                        || (short_has(x, 'i'))
                });
                if has("-f") || has("--file") {
                    ok = false;
                }
                for s in &scripts {
                    ok &= self.sed_script(s, c);
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
            // (Pagers and helper programs that run through the shell are
            // judged, and asked, by `options.rs`'s COMMAND_OPTIONS.)
            "rg" => !has("--pre") && !has("--pre-glob") && !has("-z") && !has("--search-zip"),
            // ack's `--output` is a Perl expression.
            "ack" => !has("--output"),
            // `ss -D F` dumps raw socket data into F.
            "ss" if has("-D") || has("--diag") => !self.writes_values(c, &["-D", "--diag"]),
            "lshw" if has("-dump") => !self.writes_values(c, &["-dump"]),
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
                        let handed = super::handoffs::handed_on(c, super::tokens::service_hosts(a));
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
            _ => self.inspector_flags(c),
        }
    }

    /// System and file inspectors.
    pub(super) fn inspector_flags(&mut self, c: &Cmd<'_>) -> bool {
        let b = c.lb.as_str();
        let args = &c.args;
        let has = |f: &str| c.has(f);
        match b {
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
                // `-o FILE`/`-O FILE`/`--log-file=FILE` copies the input
                // there (long options abbreviated as getopt takes them).
                for f in super::script_opts::values(c, &["-o", "-O", "--log-file", "--LOG-FILE"]) {
                    self.write_path(&f, c.cwd(), &c.base);
                }
                !has("-o")
                    && !has("--log-file")
                    && !has("-O")
                    && !has("--LOG-FILE")
                    && !args
                        .iter()
                        .any(|x| x.starts_with("+!") || x.starts_with('+') && x.contains('!'))
            }
            // (`-C FILE`: a man-db config's `DEFINE nroff …` is run.)
            "man" => {
                !has("-P")
                    && !has("--pager")
                    && !has("-H")
                    && !has("--html")
                    && !has("-C")
                    && !has("--config-file")
            }
            // Counters that can write their report, or read options (and
            // the commands cloc runs to extract or list) from a file.
            "scc" => {
                let written = self.writes_values(c, &["-o", "--output"]);
                !written && !has("-o") && !has("--output") && !has("--format-multi")
            }
            "cloc" => ![
                "--config",
                "--report-file",
                "--out",
                "--sql",
                "--read-lang-def",
                "--force-lang-def",
                "--write-lang-def",
                "--write-lang-def-incl-dup",
                "--list-file",
                "--script-lang",
            ]
            .iter()
            .any(|f| has(f)),
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
                    // (`-@ FILE` reads more options, `-p FILE` a format,
                    // `-config` Perl: not what the line shows.)
                    let from_file = matches!(l.as_str(), "-@" | "-config")
                        || matches!(l.as_str(), "-p" | "-printformat")
                            && args.get(i + 1).is_some_and(|f| !f.contains('$'));
                    let writes = from_file
                        || a.contains(['=', '<'])
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
                c.assigns.is_empty()
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
                    // Readers that follow includes (rST's `include::`,
                    // LaTeX's `\input`, Org's `#+INCLUDE`) read files the
                    // input names, anywhere, unless sandboxed.
                    && (b != "pandoc" || has("--sandbox") || !self.pandoc_includes(c))
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
            _ => self.shell_state_flags(c),
        }
    }

    /// Builtins that show the shell's state, and the rest of the allow-list.
    pub(super) fn shell_state_flags(&mut self, c: &Cmd<'_>) -> bool {
        let b = c.lb.as_str();
        let args = &c.args;
        let has = |f: &str| c.has(f);
        match b {
            // `set`, `export -p`, `declare -x`: every variable's value, as
            // `env` prints them.
            "set" | "export" | "declare" | "typeset"
                if (c.assigns.is_empty() || !c.src.declares)
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
            // `blkid -c FILE` rewrites its cache in FILE (`/dev/null`: none).
            "blkid" => {
                let caches: Vec<Word> = super::script_opts::values(c, &["-c", "--cache-file"])
                    .into_iter()
                    .filter(|w| w.text != "/dev/null")
                    .collect();
                for w in &caches {
                    self.write_path(w, c.cwd(), "blkid -c");
                }
                caches.is_empty()
            }
            "mount" | "findmnt" => args.is_empty() || b != "mount",
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
                // `-W LIST` is expanded as the shell expands words, its
                // substitutions run (`compgen -W '$(cmd)' x`).
                let mut words_run = true;
                if let Some(list) = c.value("-W").cloned() {
                    let line = format!(": {}", list.text);
                    words_run =
                        self.judged(|a| a.script(&line, &[], c.depth + 1)) == Verdict::Allow;
                }
                !has("-C") && !has("-F") && words_run
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
            // (A key that stores a password is a credential read.)
            "gsettings"
                if args.first().is_some_and(|a| a == "get")
                    && args
                        .get(2)
                        .is_some_and(|k| super::effects::secret_setting(k)) =>
            {
                self.block("reads a stored password (gsettings)");
                false
            }
            "gsettings"
                if args.first().is_some_and(|a| a == "list-recursively")
                    && args
                        .get(1)
                        .is_none_or(|s| s.starts_with("org.gnome.system.proxy")) =>
            {
                false
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
        }
    }
}

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
