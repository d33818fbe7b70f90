//! Code given to an interpreter on the command line (`python -c`, `node -e`,
//! `perl -e`, awk and sed programs): it cannot be fully analysed, so it asks;
//! what it visibly reaches for — credentials, sockets, fetch-and-run, the
//! home folder's deletion, disks, startup files, Jarvis — blocks.

use super::code_markers::{NETWORK, RUNS};
use super::*;

pub(super) const CREDENTIAL_MARKERS: &[&str] = &[
    // Hubs' stored tokens (`HfFolder.get_token()`).
    "hffolder",
    "get_token(",
    // Cloud SDKs resolving the user's keys (`boto3.Session().get_credentials()`).
    "get_credentials(",
    "get_frozen_credentials",
    "google.auth.default(",
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
    // netrc's kin: Emacs's auth-source, libpq's and MySQL's password files.
    ".authinfo",
    ".pgpass",
    ".my.cnf",
    "atuin/key",
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
    "keytar",
    "browser_cookie",
    "browsercookie",
    "pycookiecheat",
    "rookiepy",
    "chrome-cookies",
    "chrome_cookies",
    "win32crypt",
    "cryptunprotectdata",
    "pykeepass",
    "kwallet",
    "gnomekeyring",
    "safe storage",
    "keyring.get",
    "keyring::key_get",
    "key_get(",
    "from keyring",
    "firefox_decrypt",
    "pk11sdr",
    "get_password(",
    "getpassword(",
    "findcredentials(",
    // Keystrokes as they are typed.
    "pynput",
    "import evdev",
    "from evdev",
    "import keyboard",
    "keyboard.on_press",
    "libsecret",
];

pub(super) const SOCKETS: &[&str] = &[
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
    // Erlang's and Elixir's sockets, and an SSH server in code.
    ":gen_tcp",
    ":gen_udp",
    ":ssh.daemon",
    "asyncssh.create_server",
    "paramiko.serverinterface",
    "/dev/tcp/",
    "/dev/udp/",
    "ztcp",
    "zsocket",
    "websocket",
    "nc -e",
];

pub(super) const DELETE: &[&str] = &[
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
    "deno.remove(",
    "deno.removesync(",
    "fs.promises.rm(",
    "fsp.rm(",
    "remove_dir_all",
    // An argument list run as a command (`["rm", "-r", "-f", …]`).
    "\"rm\",\"-r",
    "\"rm\", \"-r",
    "'rm','-r",
    "'rm', '-r",
];

pub(super) const HOME_MARKERS: &[&str] = &[
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
    "bun.env.home",
    "env.get(\"home\")",
    "env.get('home')",
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
    "env:home",
    "home()",
    "$home",
    "${home}",
    "~/*",
];

/// Code that reaches the network.
pub(super) fn mentions_network(l: &str) -> bool {
    NETWORK.iter().any(|k| l.contains(k))
}

/// The environment taken whole (`process.env`, `dict(os.environ)`, `%ENV`),
/// not one named variable read from it.
pub(super) fn whole_environment(l: &str) -> bool {
    let whole_after = |key: &str, single: &[&str]| {
        l.match_indices(key).any(|(i, _)| {
            let rest = &l[i + key.len()..];
            !single.iter().any(|s| rest.starts_with(s))
        })
    };
    whole_after("process.env", &[".", "["])
        || l.contains("deno.env.toobject")
        || whole_after("bun.env", &[".", "["])
        || whole_after("os.environ", &["[", ".get(", ".setdefault(", ".pop("])
        || whole_after("os.getenv", &["("])
        || l.contains("%env")
        || l.contains("getenv()")
        || l.contains("$_env")
        || l.contains("$_server")
        || [
            "env.to_h",
            "env.to_a",
            "env.each",
            "env.map",
            "env.inspect",
            "env.to_s",
        ]
        .iter()
        .any(|k| l.contains(k))
        || l.contains("std::env::vars()")
        || l.contains("system.getenv()")
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

/// A character of an identifier in most languages.
pub(super) fn ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Where `word` starts a name of its own in `l` (`fs.rm(`, not `confirm(`):
/// no identifier character right before it. A word that does not start
/// with a letter (`.unlink(`) stands on its own wherever it is.
pub(super) fn named_at<'a>(l: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    l.match_indices(word).map(|(i, _)| i).filter(move |&i| {
        !word.starts_with(|c: char| c.is_ascii_alphabetic())
            || !l[..i].chars().next_back().is_some_and(ident)
    })
}

/// `word` used as a call or a function value (`eval(`, `system "…"`,
/// `.then(eval)`), not as a word in prose.
pub(super) fn has_call(l: &str, word: &str) -> bool {
    named_at(l, word).any(|i| {
        let after = l[i + word.len()..].trim_start_matches(' ').chars().next();
        after.is_some_and(|c| matches!(c, '(' | ')' | '"' | '\'' | '`' | '$' | ','))
    })
}

/// As [`runs_code`], for a language that calls without parentheses
/// (`eval get "…"` in Perl, `system "…"` in Ruby).
pub(super) fn runs_code_in(lang: &str, l: &str) -> bool {
    let bare = matches!(
        lang,
        "perl"
            | "ruby"
            | "irb"
            | "php"
            | "lua"
            | "luajit"
            | "tclsh"
            | "wish"
            | "expect"
            | "elixir"
            | "julia"
    );
    // Julia's backticks are commands, `run` starts them, `include` runs a file.
    if lang == "julia" && (l.contains('`') || l.contains("run(") || l.contains("include(")) {
        return true;
    }
    // The JVM languages: Groovy's `evaluate` and a string's `.execute()`,
    // Scala's `sys.process` (`Seq(…).!`), Java's `ProcessBuilder`.
    if matches!(lang, "groovy" | "groovysh" | "scala" | "jshell" | "kotlin")
        && [
            "evaluate(",
            ".execute()",
            "sys.process",
            ").!",
            ".!!",
            "processbuilder",
            "groovyshell",
        ]
        .iter()
        .any(|k| l.contains(k))
    {
        return true;
    }
    // Nix's `builtins.exec [ "sh" "-c" "…" ]` (with unsafe native code on).
    if lang == "nix" && l.contains("builtins.exec") {
        return true;
    }
    // The scientific languages' calls to programs and to their own
    // evaluators; gnuplot's and Octave's `!` and backticks are the shell.
    if matches!(
        lang,
        "octave"
            | "octave-cli"
            | "matlab"
            | "maxima"
            | "wolframscript"
            | "gnuplot"
            | "scilab"
            | "scilab-cli"
    ) && (SCIENCE_RUNS.iter().any(|k| l.contains(k))
        || l.starts_with('!')
        || l.contains("; !")
        || l.contains('`'))
    {
        return true;
    }
    runs_code(l)
        || bare
            && ["eval", "exec", "system", "spawn", "fork", "open3", "qx"]
                .iter()
                .any(|k| {
                    named_at(l, k).any(|i| !l[i + k.len()..].chars().next().is_some_and(ident))
                })
        || bare && l.contains('`')
}

/// How Octave/MATLAB, Maxima, Wolfram, gnuplot and Scilab run programs
/// or text as code (`system("…")`, `Run["…"]`, `set print '| cmd'`).
pub(super) const SCIENCE_RUNS: &[&str] = &[
    "system(",
    "unix(",
    "dos(",
    "eval(",
    "evalin(",
    "feval(",
    "evalc(",
    "run[",
    "runprocess[",
    "startprocess[",
    "externalevaluate[",
    "toexpression[",
    "get[",
    "popen",
    "print '|",
    "plot '<",
    "plot \"<",
    "print \"|",
    "output '|",
    "output \"|",
    "host(",
    "unix_g(",
    "unix_s(",
    "unix_w(",
    "unix_x(",
    "execstr(",
    "batchload(",
];

/// Calls that save what code fetched into a file.
pub(super) const SAVES: &[&str] = &[
    "urlretrieve",
    "download",
    "writefile",
    "write(",
    "createwritestream",
    "file_put_contents",
    "outfile",
    "copyfileobj",
    "write_bytes",
    "write_text",
    "websave(",
    "urlwrite(",
];

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

/// Inline code as it is read: folded, lowered, its strings apart.
#[derive(Clone, Copy)]
pub(super) struct Source<'a> {
    pub(super) lang: &'a str,
    pub(super) code: &'a str,
    /// Folded (escapes and concatenations undone), home spelled `~`.
    pub(super) text: &'a str,
    /// Lowered, runs of blanks made one space: what markers match.
    pub(super) l: &'a str,
    /// Lowered, string literals blanked: what the code does, not says.
    pub(super) outside: &'a str,
    /// Literals as written, and as the code decodes them.
    pub(super) literals: &'a [String],
    pub(super) app: &'a str,
}

impl Analyzer<'_> {
    /// Judges inline code; blocks what it visibly reaches for.
    pub(super) fn inline_code(&mut self, lang: &str, code: &str, depth: usize) {
        let text = super::code_fold::fold(code).replace(HOME, "~");
        // Markers are matched on the code with runs of blanks made one space.
        let l = lower(&text)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let app = lower(&self.env.app);
        // Literals as written, and as the code decodes them.
        let mut literals = string_literals(&text);
        literals.extend(super::code_fold::decoded_literals(&text));
        // An accessor spelled inside a string is text (a template, a
        // replacement), not a read.
        let outside = lower(&super::code_fold::blank_literals(&text));
        let src = Source {
            lang,
            code,
            text: &text,
            l: &l,
            outside: &outside,
            literals: &literals,
            app: &app,
        };
        self.code_reads(&src);
        let runs = self.code_reaches_out(&src);
        self.code_damage(&src);
        self.code_shell_strings(&src, runs, depth);
    }
}

/// Every mention of the variable `name` only asks whether it is set:
/// `if os.environ.get('K')`, `not os.getenv("K")`, `'K' in os.environ`,
/// `os.environ.get('K') is None`. Its value goes nowhere.
pub(super) fn presence_only(text: &str, name: &str) -> bool {
    const ACCESSORS: &[&str] = &[
        "os.environ.get(",
        "os.getenv(",
        "os.environ[",
        "process.env.",
    ];
    text.match_indices(name).all(|(at, _)| {
        let before = &text[..at];
        let after = &text[at + name.len()..];
        let quoted_after = after.trim_start_matches(['\'', '"']);
        if quoted_after.trim_start().starts_with("in os.environ")
            || quoted_after.trim_start().starts_with("in process.env")
        {
            return true;
        }
        let lead = before.trim_end_matches(['\'', '"']);
        let Some(acc) = ACCESSORS.iter().find(|a| lead.ends_with(*a)) else {
            return false;
        };
        let ahead = lead[..lead.len() - acc.len()].trim_end();
        let closing = quoted_after.trim_start_matches([')', ']']).trim_start();
        ahead.ends_with("if")
            || ahead.ends_with("not")
            || ahead.ends_with("bool(")
            || ahead.ends_with('!')
            || closing.starts_with('?') && !closing.starts_with("??")
            || closing.starts_with("is None")
            || closing.starts_with("is not None")
    })
}
