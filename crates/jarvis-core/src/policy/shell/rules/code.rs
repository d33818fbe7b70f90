//! Code given to an interpreter on the command line (`python -c`, `node -e`,
//! `perl -e`, awk and sed programs): it cannot be fully analysed, so it asks;
//! what it visibly reaches for — credentials, sockets, fetch-and-run, the
//! home folder's deletion, disks, startup files, Jarvis — blocks.

use super::*;

const NETWORK: &[&str] = &[
    "urlopen",
    "urllib",
    "requests.",
    "httpx",
    "http.get",
    "https.get",
    "http.request",
    "https.request",
    "require('http",
    "require(\"http",
    "from 'http",
    "fetch(",
    "axios",
    "uri.open",
    "open-uri",
    "net::http",
    "lwp::",
    "lwp/",
    "http::tiny",
    "file_get_contents(\"http",
    "file_get_contents('http",
    "curl_exec",
    "curl_init",
    "http://",
    "https://",
    "ftp://",
    "iwr ",
    "invoke-webrequest",
    "invoke-restmethod",
    "downloadstring",
    "downloadfile",
    "net.webclient",
    "system.net.http",
    "socket",
    "wget ",
    "curl ",
];

const RUNS: &[&str] = &[
    "os.system",
    "subprocess",
    "popen",
    "child_process",
    "execsync",
    "execfile",
    "exec_command",
    "invoke-expression",
    "kernel.exec",
    "instance_eval",
    "new function(",
    "vm.run",
    "runpy",
    "pty.",
    "/bin/sh",
    "/bin/bash",
    "sh -c",
    "bash -c",
    "do shell script",
    "loadstring(",
    "dofile(",
    "proc_open",
    "passthru",
    "shell_exec",
    "io.popen",
    "os.execute",
    "start-process",
    "shell-command",
    "call-process",
    "make-process",
    "async-shell-command",
];

const DECODE: &[&str] = &[
    "b64decode",
    "base64",
    "fromhex",
    "unhexlify",
    "decode('hex",
    "decode(\"hex",
    "codecs.decode",
    "zlib.decompress",
    "marshal.loads",
    "pickle.loads",
    "atob(",
    "buffer.from",
    "pack(",
    "unpack(",
    "frombase64string",
    "decode_base64",
    "[convert]::",
    "rot13",
    "rot_13",
    "gzip.decompress",
    "lzma.",
    "bz2.",
    "[::-1]",
    "reverse(",
    "chr(",
    "string.fromcharcode",
];

const CREDENTIAL_MARKERS: &[&str] = &[
    ".ssh/",
    ".ssh'",
    ".ssh\"",
    "'.ssh",
    "\".ssh",
    ".aws/",
    "'.aws",
    "\".aws",
    ".aws'",
    ".aws\"",
    ".gnupg",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".kube/config",
    ".kube'",
    ".docker/config.json",
    ".git-credentials",
    ".bash_history",
    ".zsh_history",
    "fish_history",
    ".python_history",
    ".mysql_history",
    ".psql_history",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    "id_dsa",
    "/etc/shadow",
    "/etc/sudoers",
    "login data",
    "key4.db",
    "logins.json",
    "cookies.sqlite",
    "/cookies",
    "'cookies'",
    "keychain",
    ".password-store",
    "keyrings",
    ".config/gh",
    ".config/gcloud",
    "application_default_credentials",
    ".azure",
    "credentials.toml",
    ".aws/credentials",
    "/environ",
    ".vault-token",
    "google-chrome",
    ".mozilla",
    "find-generic-password",
    "secretstorage",
    "import keyring",
    "require('keytar')",
    "libsecret",
];

const SOCKETS: &[&str] = &[
    "socket.socket",
    "socket(",
    "create_connection",
    "socketserver",
    "fsockopen",
    "stream_socket_client",
    "stream_socket_server",
    "socket_create",
    "io::socket",
    "tcpsocket",
    "tcpserver",
    "udpsocket",
    "unixsocket",
    "net.connect",
    "net.createconnection",
    "net.socket",
    "require('net')",
    "require(\"net\")",
    "require('dgram')",
    "require(\"dgram\")",
    "from 'net'",
    "net.sockets",
    "tcpclient",
    "tcplistener",
    "/dev/tcp/",
    "/dev/udp/",
    "ztcp",
    "zsocket",
    "websocket",
    "nc -e",
];

const DELETE: &[&str] = &[
    "rmtree",
    "remove_tree",
    "rmsync",
    "rm_rf",
    "rm_r",
    "rm -rf",
    "rm -r",
    "rmdirsync",
    "rimraf",
    "fs.rm(",
    "fs.rmdir",
    "fileutils.rm",
    "remove-item",
    "removeall",
    "deletedirectory",
    "directory.delete",
    "unlink",
    "os.remove",
    "shutil.move",
    "file.delete",
    "rm(",
];

const HOME_MARKERS: &[&str] = &[
    "homedir",
    "dir.home",
    "path.home",
    "home_dir",
    "expanduser",
    "$env{home}",
    "env['home']",
    "env[\"home\"]",
    "environ['home']",
    "environ[\"home\"]",
    "getenv('home')",
    "getenv(\"home\")",
    "process.env.home",
    "'~'",
    "\"~\"",
    "'~/'",
    "\"~/\"",
    "glob(\"~\")",
    "glob('~')",
    "(\"/\")",
    "('/')",
    "\"/\",",
    "'/',",
    "userprofile",
    "home()",
    "$home",
    "${home}",
    "~/*",
];

/// Code that reaches the network.
pub(super) fn mentions_network(l: &str) -> bool {
    NETWORK.iter().any(|k| l.contains(k))
}

/// Code that runs code or programs.
pub(super) fn runs_code(l: &str) -> bool {
    RUNS.iter().any(|k| l.contains(k))
        || [
            "eval",
            "exec",
            "system",
            "popen",
            "spawn",
            "spawnsync",
            "execsync",
            "iex",
            "passthru",
            "execve",
            "execvp",
            "fork",
        ]
        .iter()
        .any(|k| has_call(l, k))
}

/// `word` used as a call or a function value (`eval(`, `system "…"`,
/// `.then(eval)`), not as a word in prose.
pub(super) fn has_call(l: &str, word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    l.match_indices(word).any(|(i, _)| {
        let before = l[..i].chars().next_back();
        let after = l[i + word.len()..].trim_start_matches(' ').chars().next();
        !before.is_some_and(ident)
            && after.is_some_and(|c| matches!(c, '(' | ')' | '"' | '\'' | '`' | '$' | ','))
    })
}

/// As [`runs_code`], for a language that calls without parentheses
/// (`eval get "…"` in Perl, `system "…"` in Ruby).
pub(super) fn runs_code_in(lang: &str, l: &str) -> bool {
    let bare = matches!(
        lang,
        "perl" | "ruby" | "irb" | "php" | "lua" | "luajit" | "tclsh" | "wish" | "expect" | "elixir"
    );
    runs_code(l)
        || bare
            && ["eval", "exec", "system", "spawn", "fork", "open3", "qx"]
                .iter()
                .any(|k| {
                    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
                    l.match_indices(k).any(|(i, _)| {
                        !l[..i].chars().next_back().is_some_and(ident)
                            && !l[i + k.len()..].chars().next().is_some_and(ident)
                    })
                })
        || bare && l.contains('`')
}

/// Code that reads its standard input.
pub(super) fn reads_stdin(l: &str) -> bool {
    [
        "sys.stdin",
        "stdin.read",
        "<stdin>",
        "$stdin",
        "process.stdin",
        "io.read",
        "readfilesync(0",
        "readfilesync('/dev/stdin",
        "readfilesync(\"/dev/stdin",
        "stdin",
        "php://stdin",
        "readline",
        "[console]::in",
    ]
    .iter()
    .any(|k| l.contains(k))
}

/// String literals in code (`'…'`, `"…"`), escapes kept as written.
pub(super) fn string_literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let q = b[i];
        if q == '\'' || q == '"' || q == '`' {
            let mut j = i + 1;
            let mut s = String::new();
            while j < b.len() && b[j] != q {
                if b[j] == '\\' && j + 1 < b.len() {
                    s.push(b[j + 1]);
                    j += 2;
                    continue;
                }
                s.push(b[j]);
                j += 1;
            }
            out.push(s);
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// The commands an awk program hands to `system(…)` and `"…" | getline`, as
/// awk concatenates them: literals kept, `ENVIRON["HOME"]` as `~`, fields
/// and variables as run-time values. `None` when the whole command is data.
pub(super) fn awk_commands(prog: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let mut rest = prog;
    while let Some(i) = rest.find("system(") {
        let after = &rest[i + 7..];
        let mut depth = 1;
        let mut end = after.len();
        let mut in_str = false;
        for (k, ch) in after.char_indices() {
            match ch {
                '"' => in_str = !in_str,
                '(' if !in_str => depth += 1,
                ')' if !in_str => {
                    depth -= 1;
                    if depth == 0 {
                        end = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push(awk_expr(&after[..end]));
        rest = &after[end.min(after.len())..];
    }
    out
}

fn awk_expr(e: &str) -> Option<String> {
    let b: Vec<char> = e.trim().chars().collect();
    let env_home: Vec<char> = "ENVIRON[\"HOME\"]".chars().collect();
    let mut cmd = String::new();
    let mut literal = false;
    let mut i = 0;
    while i < b.len() {
        if b[i] == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' {
                if b[j] == '\\' && j + 1 < b.len() {
                    j += 1;
                }
                cmd.push(b[j]);
                j += 1;
            }
            literal = true;
            i = j + 1;
        } else if b[i..].starts_with(&env_home) {
            cmd.push('~');
            i += env_home.len();
        } else if b[i].is_alphanumeric() || b[i] == '$' || b[i] == '_' {
            let mut j = i;
            while j < b.len() && (b[j].is_alphanumeric() || matches!(b[j], '$' | '_' | '[' | ']')) {
                j += 1;
            }
            cmd.push_str("$X");
            i = j;
        } else {
            i += 1;
        }
    }
    literal.then_some(cmd)
}

impl Analyzer<'_> {
    /// Judges inline code; blocks what it visibly reaches for.
    pub(super) fn inline_code(&mut self, lang: &str, code: &str, depth: usize) {
        let text = code.replace(HOME, "~");
        // Markers are matched on the code with runs of blanks made one space.
        let l = lower(&text)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let app = lower(&self.env.app);
        if CREDENTIAL_MARKERS.iter().any(|k| l.contains(k))
            || string_literals(&text).iter().any(|s| {
                let p = self.norm_text(&paths::word_path(s, false), None);
                paths::credential_normalized(&p, s).is_some()
            })
        {
            self.block(format!(
                "{lang} code touches credentials (keys, tokens, browser or keyring data)"
            ));
        }
        let env_access = [
            "environ",
            "getenv",
            "process.env",
            "env[",
            "$env{",
            "env::var",
            "system.getenv",
            "$env:",
        ]
        .iter()
        .any(|k| l.contains(k));
        if env_access {
            let secret = text
                .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                .any(|w| {
                    w.len() > 3
                        && w.chars().any(|ch| ch.is_ascii_uppercase())
                        && super::effects::secret_var(w)
                });
            if secret {
                self.block(format!("{lang} code reads a secret from the environment"));
            }
        }
        if l.contains(&format!(".{app}"))
            || l.contains(&format!("/{app}/"))
            || l.contains(&format!("{app}.db"))
            || l.contains(&format!("{app}-sandbox"))
        {
            self.block(format!("{lang} code aims at Jarvis's own state"));
        }
        if SOCKETS.iter().any(|k| l.contains(k))
            && !(l.contains("gethostname")
                && !l.contains("connect")
                && !l.contains("bind")
                && !l.contains("listen"))
        {
            self.block(format!(
                "{lang} code opens a network connection or listener (remote shell risk)"
            ));
        }
        let net = mentions_network(&l);
        // Backticks run commands in Perl, Ruby and PHP (in JavaScript they are strings).
        let runs = runs_code_in(lang, &l);
        if net && runs {
            self.block(format!(
                "download and execute ({lang} code fetches and runs code)"
            ));
        }
        if DECODE.iter().any(|k| l.contains(k)) && (l.contains("invoke-expression") || runs) {
            self.block(format!(
                "decodes and executes ({lang} code runs what it decodes)"
            ));
        }
        if DELETE.iter().any(|k| l.contains(k)) && HOME_MARKERS.iter().any(|k| l.contains(k)) {
            self.block(format!(
                "recursive delete of the home directory or the root ({lang} code)"
            ));
        }
        if l.contains("fork")
            && ["while", "loop", "for(;;)", "for (;;)", "until", "each"]
                .iter()
                .any(|k| l.contains(k))
        {
            self.block(format!("fork bomb ({lang} code)"));
        }
        if [
            "/dev/sd",
            "/dev/nvme",
            "/dev/disk",
            "/dev/mmcblk",
            "/dev/hd",
            "/dev/vd",
            "/dev/xvd",
            "physicaldrive",
        ]
        .iter()
        .any(|k| l.contains(k))
        {
            self.block(format!("{lang} code touches a disk device"));
        }
        if l.contains("administrator privileges")
            || l.contains("setuid(0")
            || l.contains("os.setuid")
            || l.contains("seteuid(0")
        {
            self.block(format!("privilege escalation ({lang} code)"));
        }
        if l.contains("login item")
            || l.contains("currentversion\\run")
            || l.contains("currentversion/run")
        {
            self.block(format!("persistence ({lang} code adds a login item)"));
        }
        let writes = [
            "open(",
            "write",
            "appendfile",
            ">>",
            "set-content",
            "add-content",
            "out-file",
            "file.new",
            "fopen",
            "file_put_contents",
        ]
        .iter()
        .any(|k| l.contains(k));
        if writes {
            for s in string_literals(&text) {
                let p = self.norm_text(&paths::word_path(&s, false), None);
                if paths::persistence_normalized(&p) && !self.inside(&p)
                    || (paths::system_normalized(&p)
                        && !p.starts_with("/dev/null")
                        && !p.starts_with("/proc/self")
                        && (p.starts_with("/etc")
                            || p.starts_with("/usr")
                            || p.starts_with("/boot")
                            || p.starts_with("/sys")
                            || p.starts_with("/proc/sys")
                            || p.starts_with("/bin")
                            || p.starts_with("/lib")))
                {
                    self.block(format!(
                        "{lang} code writes a system or startup file ({})",
                        shown(&s)
                    ));
                }
            }
            if [
                "bashrc",
                "zshrc",
                ".profile",
                "autostart",
                "launchagents",
                "crontab",
                "authorized_keys",
                "systemd/user",
                "sitecustomize",
                "/etc/",
            ]
            .iter()
            .any(|k| l.contains(k))
                && HOME_MARKERS
                    .iter()
                    .chain(["/etc/"].iter())
                    .any(|k| l.contains(k))
            {
                self.block(format!("persistence ({lang} code writes a startup file)"));
            }
        }
        if l.contains("kill") && (l.contains("ppid") || l.contains(&app)) {
            self.block(format!("{lang} code signals Jarvis's own process"));
        }
        // Languages that call programs like a shell does (Tcl's `exec`, expect's `spawn`).
        if matches!(lang, "expect" | "tclsh" | "wish" | "elisp") {
            self.block_only(|a| a.script(&text, &[], depth + 1));
        }
        // Shell text handed to a shell from inside the code.
        if runs {
            let literals = string_literals(&text);
            // A literal without a blank is one word: the joined text below
            // judges it with its neighbours, and parsing each such word
            // alone (an address, a mode, `<&`) costs a parse apiece.
            for s in literals.iter().filter(|s| s.contains(char::is_whitespace)) {
                self.block_only(|a| a.script(s, &[], depth + 1));
            }
            let joined = literals.join(" ");
            self.block_only(|a| a.script(&joined, &[], depth + 1));
        }
    }

    /// An awk program: `system()`, pipes to and from commands, redirections.
    /// True when it only reads and prints.
    pub(super) fn awk_program(&mut self, prog: &str, c: &Cmd<'_>) -> bool {
        let compact: String = prog.chars().filter(|ch| !ch.is_whitespace()).collect();
        let literals = string_literals(prog);
        let mut read_only = true;
        // gawk's `/inet/tcp/…` files are sockets: `|&` on one is a connection.
        if literals.iter().any(|s| {
            let s = s.trim_start_matches('/');
            ["inet/", "inet4/", "inet6/"]
                .iter()
                .any(|k| s.starts_with(k))
        }) {
            self.block("awk opens a network connection (gawk /inet special file)");
        }
        if compact.contains("system(") || compact.contains("|getline") || compact.contains("|&") {
            read_only = false;
            for s in &literals {
                self.block_only(|a| a.script(s, &[], c.depth + 1));
            }
            for built in awk_commands(prog) {
                match built {
                    None => self.block(
                        "awk runs its input lines as shell commands (like piping them into sh)",
                    ),
                    Some(cmd) => self.block_only(|a| a.script(&cmd, &[], c.depth + 1)),
                }
            }
            self.ask("awk runs shell commands");
        }
        // `print | "sh"`: every line becomes a command.
        for (i, _) in compact.match_indices('|') {
            let after = &compact[i + 1..];
            if let Some(rest) = after.strip_prefix('"').or_else(|| after.strip_prefix('\'')) {
                read_only = false;
                let target = rest.split(['"', '\'']).next().unwrap_or("");
                let tb = base_name(target.split_whitespace().next().unwrap_or(""));
                if is_shell(&tb) || tables::interpreter(&tb).is_some() {
                    self.block("awk pipes its lines into a shell, which runs them as code");
                }
                self.block_only(|a| a.script(target, &[], c.depth + 1));
                self.ask("awk pipes output to a command");
            }
        }
        for (i, _) in compact.match_indices('>') {
            let after = compact[i + 1..].trim_start_matches('>');
            if let Some(rest) = after.strip_prefix('"') {
                read_only = false;
                let f = rest.split('"').next().unwrap_or("");
                self.write_path(&Word::lit(f), c.cwd(), "awk");
            } else if !after.starts_with('=')
                && !compact[..i].ends_with(['<', '>', '=', '!'])
                && i > 0
            {
                // `print > $2`: a file chosen by the input.
                let prev_print = compact[..i].contains("print");
                if prev_print {
                    read_only = false;
                    self.ask("awk writes files");
                }
            }
        }
        if c.args.iter().any(|x| x == "inplace") {
            read_only = false;
            self.ask("awk edits files in place");
        }
        for s in &literals {
            for cand in path_candidates(s) {
                let p = self.norm_text(&paths::word_path(&cand, false), c.cwd());
                if let Some(why) = paths::credential_normalized(&p, &cand) {
                    self.block(format!("awk reads a credential: {why}"));
                }
            }
        }
        read_only
    }

    /// A sed script: `e` runs commands, `w` writes files, `r` reads them.
    /// True when it only prints.
    pub(super) fn sed_script(&mut self, script: &str, c: &Cmd<'_>) -> bool {
        let mut read_only = true;
        for raw in script.split(['\n', ';']) {
            let mut s = raw.trim();
            // Addresses: numbers, $, /re/, \cREc, ranges and `!`.
            loop {
                let before = s.len();
                s = s.trim_start_matches(|ch: char| {
                    ch.is_ascii_digit() || matches!(ch, '$' | ',' | '!' | '~' | '+' | ' ')
                });
                if let Some(rest) = s.strip_prefix('/') {
                    s = rest.split_once('/').map(|(_, r)| r).unwrap_or("");
                }
                if s.len() == before {
                    break;
                }
            }
            let s = s.trim_start_matches('{').trim();
            let Some(cmd) = s.chars().next() else {
                continue;
            };
            let arg = s[cmd.len_utf8()..].trim();
            match cmd {
                'e' => {
                    read_only = false;
                    if arg.is_empty() {
                        self.ask("sed runs its input lines as commands");
                    } else {
                        self.script(arg, &[], c.depth + 1);
                        self.ask("sed runs a command");
                    }
                }
                'w' | 'W' => {
                    read_only = false;
                    self.write_path(&Word::lit(arg), c.cwd(), "sed");
                }
                'r' | 'R' => {
                    read_only &= self.read_path(&Word::lit(arg), c.cwd());
                }
                's' | 'y' => {
                    let Some(delim) = arg.chars().next().or_else(|| s.chars().nth(1)) else {
                        continue;
                    };
                    let body = &s[1..];
                    let parts: Vec<&str> = body.splitn(4, delim).collect();
                    if let Some(flags) = parts.get(3) {
                        if cmd == 's' && flags.contains('e') {
                            read_only = false;
                            self.ask("sed runs the replaced text as a command");
                        }
                        if let Some(pos) = flags.find('w') {
                            read_only = false;
                            self.write_path(&Word::lit(flags[pos + 1..].trim()), c.cwd(), "sed");
                        }
                    }
                }
                _ => {}
            }
        }
        read_only
    }
}
