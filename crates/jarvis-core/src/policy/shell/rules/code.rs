//! Code given to an interpreter on the command line (`python -c`, `node -e`,
//! `perl -e`, awk and sed programs): it cannot be fully analysed, so it asks;
//! what it visibly reaches for — credentials, sockets, fetch-and-run, the
//! home folder's deletion, disks, startup files, Jarvis — blocks.

use super::code_markers::{DECODE, NETWORK, RUNS, UNPICKLES, computed_call, escaped_text};
use super::code_shapes::{allocates_forever, allocates_huge, delete_calls, deletes_by_name};
use super::*;

const CREDENTIAL_MARKERS: &[&str] = &[
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
fn whole_environment(l: &str) -> bool {
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
const SCIENCE_RUNS: &[&str] = &[
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
const SAVES: &[&str] = &[
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
        // `getenv("HOME") . "/.pgpass"`, `os.homedir() + '/.ssh/id_rsa'`:
        // a literal joined onto the home folder is a path in it.
        let joins_home = [
            "getenv(\"home\")",
            "getenv('home')",
            "env.home",
            "env['home']",
            "env[\"home\"]",
            "environ['home']",
            "environ[\"home\"]",
            "$env{home}",
            "$env{'home'}",
            "homedir()",
            "home_dir()",
            "path.home()",
            "dir.home",
            "expanduser(",
            "$_server['home']",
            "user.home",
        ]
        .iter()
        .any(|k| l.contains(k));
        // Literals as written, and as the code decodes them.
        let mut literals = string_literals(&text);
        literals.extend(super::code_fold::decoded_literals(&text));
        if CREDENTIAL_MARKERS.iter().any(|k| l.contains(k))
            || literals.iter().any(|s| {
                let p = self.norm_text(&paths::word_path(s, false), None);
                paths::credential_normalized(&p, s).is_some()
                    || joins_home && {
                        let under = format!("~/{}", s.trim_start_matches(['/', '~']));
                        paths::credential_normalized(&under, &under).is_some()
                    }
            })
        {
            self.block(format!(
                "{lang} code touches credentials (keys, tokens, browser or keyring data)"
            ));
        }
        if super::code_markers::drives_auth_widgets(&l) {
            self.block(format!(
                "{lang} code drives other apps through the accessibility bus into a password field or an authentication dialog"
            ));
        }
        // An accessor spelled inside a string is text (a template, a
        // replacement), not a read.
        let outside = lower(&super::code_fold::blank_literals(&text));
        let env_access = [
            "environ",
            "getenv",
            "process.env",
            "deno.env",
            "bun.env",
            "env[",
            "$env{",
            "env::var",
            "system.getenv",
            "$env:",
        ]
        .iter()
        .any(|k| outside.contains(k));
        if env_access {
            let secret = text.split(|ch: char| !ident(ch)).any(|w| {
                w.len() > 3
                    && w.chars().any(|ch| ch.is_ascii_uppercase())
                    && super::effects::secret_var(w)
                    && !presence_only(&text, w)
            });
            if secret {
                self.block(format!("{lang} code reads a secret from the environment"));
            }
        }
        // `print(settings.SECRET_KEY)`, `console.log(config.apiKey)`: a
        // secret named outside any string, printed.
        if super::code_shapes::prints_secret(&outside) {
            self.block(format!(
                "{lang} code prints a secret (a key, a token or a password it names)"
            ));
        }
        if l.contains(&format!(".{app}"))
            || l.contains(&format!("/{app}/"))
            || l.contains(&format!("{app}.db"))
            || l.contains(&format!("{app}-sandbox"))
        {
            self.block(format!("{lang} code aims at Jarvis's own state"));
        }
        // Name lookups and address checks open nothing (`gethostname`,
        // node's `net.isIP`).
        let opens = [
            "connect",
            "bind",
            "listen",
            "createserver",
            "socket(",
            "send",
        ]
        .iter()
        .any(|k| l.contains(k));
        let inspects_only = (l.contains("gethostname") || l.contains(").isip")) && !opens;
        if SOCKETS.iter().any(|k| l.contains(k)) && !inspects_only {
            self.block(format!(
                "{lang} code opens a network connection or listener (remote shell risk)"
            ));
        }
        let net = mentions_network(&l);
        // `urlretrieve('http://…', '/tmp/p.py')`: the files code that
        // fetches writes hold what it fetched, for what later runs them.
        if net && SAVES.iter().any(|k| l.contains(k)) {
            for s in &literals {
                // A path, or a file name with an extension (`'p.py'`).
                let named_file = s.rsplit_once('.').is_some_and(|(b, e)| {
                    !b.is_empty()
                        && (1..=5).contains(&e.len())
                        && e.chars().all(|ch| ch.is_ascii_alphanumeric())
                });
                let local = !s.contains("://")
                    && !s.contains(char::is_whitespace)
                    && (s.starts_with(['/', '~']) || s.starts_with("./") || named_file)
                    && s.len() > 2;
                if local {
                    let p = self.written_as(&Word::lit(s.as_str()), None);
                    self.tainted.push(p);
                }
            }
        }
        if net && whole_environment(&l) {
            self.block(format!(
                "exfiltration ({lang} code sends the whole environment, its tokens with it, over the network)"
            ));
        }
        // Backticks run commands in Perl, Ruby and PHP (in JavaScript they are strings).
        // What runs is read outside the strings: a string that says
        // "Invoke-Expression" is text the code writes.
        // R's `source`, `source_url`, `sys.source` (by name too, as in
        // `do.call(source, …)`) and `eval(parse(…))` run what they read.
        let runs = runs_code_in(lang, &outside)
            || matches!(lang, "rscript" | "r")
                && (outside.contains("source")
                    || outside.contains("eval(parse")
                    // A package installed from a file or a URL runs its build.
                    || outside.contains("install_url(")
                    || outside.contains("install.packages(")
                        && outside.replace(' ', "").contains("repos=null"));
        if net && runs {
            self.block(format!(
                "download and execute ({lang} code fetches and runs code)"
            ));
        }
        // `source("x.R")`, `include("x.jl")`, `run('x.m')` of a file this
        // line downloaded.
        if (runs || runs_code_in(lang, &outside) || l.contains("source(") || l.contains("run("))
            && literals.iter().any(|s| {
                !s.is_empty() && !s.contains(' ') && self.is_tainted(&Word::lit(s.as_str()), None)
            })
        {
            self.block(format!(
                "download and execute ({lang} code runs a file this line downloaded)"
            ));
        }
        self.model_loading(lang, &l, &text, net);
        // Code it decodes, run by a name it computes or fed to a loader
        // that executes: what runs cannot be read here.
        let decodes = DECODE.iter().any(|k| l.contains(k)) || escaped_text(code);
        let executes = outside.contains("invoke-expression")
            || runs
            || computed_call(&outside, &l)
            || UNPICKLES.iter().any(|k| l.contains(k))
            || l.contains("yaml.load(") && !l.contains("safeloader")
            || lang == "lua" && named_at(&l, "load(").next().is_some()
            || matches!(lang, "rscript" | "r") && (l.contains("source(") || l.contains("eval(parse("))
            // `import 'data:…'`: a module that is the encoded text.
            || l.contains("import") && l.contains("data:");
        if decodes && executes {
            self.block(format!(
                "decodes and executes ({lang} code runs what it decodes)"
            ));
        }
        if matches!(lang, "pwsh" | "powershell") && super::code_shapes::computed_call(&l) {
            self.block(format!(
                "{lang} runs a command whose name it computes (the call operator on a built name hides what runs)"
            ));
        }
        if super::code_shapes::sets_setuid(&l) {
            self.block(format!(
                "privilege escalation ({lang} code sets the setuid or setgid bit)"
            ));
        }
        // URLs in the code: cloud metadata and Jarvis's own port are never
        // its business.
        for u in literals
            .iter()
            .filter(|s| s.starts_with("http://") || s.starts_with("https://"))
        {
            self.url(u);
        }
        let catastrophic = literals.iter().any(|s| {
            let p = self.norm_text(&paths::word_path(s, false), None);
            (s.starts_with('/') || s.starts_with('~'))
                && paths::catastrophic_normalized(&p)
                && !self.inside(&p)
        });
        let home_joined = HOME_MARKERS.iter().any(|k| l.contains(k));
        // `fs.chmodSync(os.homedir(), 0o777)`: home or a system folder
        // opened to every user.
        // The call's own arguments name the place, or a variable set
        // elsewhere in the code does.
        let opened = super::code_shapes::world_writable_chmods(&l)
            .into_iter()
            .any(|args| {
                let named_here = string_literals(args).iter().any(|s| {
                    let p = self.norm_text(&paths::word_path(s, false), None);
                    (s.starts_with('/') || s.starts_with('~')) && paths::catastrophic_normalized(&p)
                });
                let variable = string_literals(args).is_empty();
                named_here
                    || HOME_MARKERS.iter().any(|k| args.contains(k))
                    || variable && (home_joined || catastrophic)
            });
        if opened {
            self.block(format!(
                "{lang} code makes the home directory or a system path writable by everyone"
            ));
        }
        if deletes_by_name(&l) && (catastrophic || home_joined) {
            self.block(format!(
                "recursive delete of the home directory or the root ({lang} code)"
            ));
        }
        // Code that deletes, naming a place outside the working folder
        // (`remove_tree(glob "~/.local/share")`, `os.remove('/etc/x')`).
        // In code `~` is home once expanded (`glob`, `expanduser`); the
        // place must follow the delete call closely, as its argument would.
        let after_delete = delete_calls(&l);
        let outside = literals.iter().find(|s| {
            let p = self.norm_text(s, None);
            (s.starts_with('/') || s.starts_with('~') || s.starts_with(".."))
                && !self.inside(&p)
                && !paths::scratch(&p)
                && !p.starts_with("/dev/")
                && !p.starts_with("/proc/self")
                && after_delete.iter().any(|tail| tail.contains(&lower(s)))
        });
        if let Some(place) = outside {
            self.block(format!(
                "{lang} code deletes, and names {} outside the working folder",
                shown(place)
            ));
        }
        if super::code_shapes::fills_disk(&l) {
            self.block(format!("fills the disk ({lang} code writes without end)"));
        }
        if allocates_huge(&l) || allocates_forever(&l) {
            self.block(format!(
                "exhausts memory ({lang} code allocates tens of gigabytes or more)"
            ));
        }
        if l.contains("fork")
            && [
                "while",
                "loop",
                "for(;;)",
                "for (;;)",
                "until",
                "each",
                "itertools.count",
                "itertools.cycle",
                "itertools.repeat",
                // An iterator that never ends (`for _ in iter(int, 1)`).
                "iter(int",
                "repeat(",
                "cycle(",
            ]
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
        self.code_writes(lang, &text, &l, home_joined);
        // `os.kill(-1, 9)`, R's `tools::pskill(-1, …)`: every process the
        // user may signal.
        let tight: String = l.chars().filter(|c| !c.is_whitespace()).collect();
        // (`os.kill(pid=-1, 9)`, `kill(-0x1, …)`, `killpg(0, …)`.)
        let every_process = tight.match_indices("kill(").any(|(i, _)| {
            let first = tight[i + 5..]
                .split([',', ')'])
                .next()
                .unwrap_or("")
                .trim_start_matches("pid=");
            matches!(
                first,
                "-1" | "-0x1" | "-0o1" | "-0b1" | "-(1)" | "0" | "0x0"
            )
        });
        if every_process {
            self.block(format!(
                "kills every process of the user (system disruption, {lang} code)"
            ));
        }
        if l.contains("kill") && (l.contains("ppid") || l.contains(&app)) {
            self.block(format!("{lang} code signals Jarvis's own process"));
        }
        // Languages that call programs like a shell does (Tcl's `exec`, expect's `spawn`).
        if matches!(lang, "expect" | "tclsh" | "wish") {
            self.block_only(|a| a.script(&text, &[], depth + 1));
        }
        // Shell text handed to a shell from inside the code, or written as
        // code that will run later (a `.pth` file's `os.system`): its
        // strings are judged as shell wherever the call is spelled.
        if runs || runs_code_in(lang, &l) {
            let literals = string_literals(&text);
            // A literal without a blank is one word: the joined text below
            // judges it with its neighbours, and parsing each such word
            // alone (an address, a mode, `<&`) costs a parse apiece.
            for s in literals.iter().filter(|s| s.contains(char::is_whitespace)) {
                // `plot '< cmd'` (gnuplot), `open(F, "cmd |")` (Perl): a
                // command read from, or written to, through a pipe.
                let s = s
                    .trim()
                    .trim_start_matches(['<', '|'])
                    .trim_end_matches('|');
                self.block_only(|a| a.script(s, &[], depth + 1));
            }
            let joined = literals.join(" ");
            self.block_only(|a| a.script(&joined, &[], depth + 1));
        }
    }
}

/// Every mention of the variable `name` only asks whether it is set:
/// `if os.environ.get('K')`, `not os.getenv("K")`, `'K' in os.environ`,
/// `os.environ.get('K') is None`. Its value goes nowhere.
fn presence_only(text: &str, name: &str) -> bool {
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
