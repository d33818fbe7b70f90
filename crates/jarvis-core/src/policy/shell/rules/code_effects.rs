//! What inline code visibly does, phase by phase: what it reads (keys,
//! secrets in the environment, Jarvis's state), where it reaches out
//! (sockets, fetch-and-run, decode-and-run), what it damages (deletes,
//! disks, memory, processes), and the shell text it hands a shell.

use super::code::*;
use super::code_markers::{DECODE, UNPICKLES, computed_call, escaped_text};
use super::code_shapes::{allocates_forever, allocates_huge, delete_calls, deletes_by_name};
use super::*;

impl Analyzer<'_> {
    /// Keys and secrets it reads, and Jarvis's own state it names.
    pub(super) fn code_reads(&mut self, src: &Source<'_>) {
        let Source {
            lang,
            text,
            l,
            outside,
            literals,
            app,
            ..
        } = *src;
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
        // A keystore, a signing password file or a service account's key,
        // read by code that also talks to the network.
        if mentions_network(l)
            && let Some(f) = literals
                .iter()
                .find(|s| !s.contains(' ') && paths::secret_file_name(s))
        {
            self.block(format!(
                "{lang} code reads a key or secrets file ({}) and talks to the network",
                shown(f)
            ));
        }
        if super::code_markers::drives_auth_widgets(l) {
            self.block(format!(
                "{lang} code drives other apps through the accessibility bus into a password field or an authentication dialog"
            ));
        }
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
                    && !presence_only(text, w)
            });
            if secret {
                self.block(format!("{lang} code reads a secret from the environment"));
            }
        }
        // `print(settings.SECRET_KEY)`, `console.log(config.apiKey)`: a
        // secret named outside any string, printed.
        if super::code_shapes::prints_secret(outside)
            || super::code_shapes::prints_setting_secret(l)
        {
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
    }

    /// Sockets, downloads it runs or saves, decoded code it runs; true when
    /// it runs code (a shell, `eval`, backticks).
    pub(super) fn code_reaches_out(&mut self, src: &Source<'_>) -> bool {
        let Source {
            lang,
            code,
            text,
            l,
            outside,
            literals,
            ..
        } = *src;
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
        let net = mentions_network(l);
        // `urlretrieve('http://…', '/tmp/p.py')`: the files code that
        // fetches writes hold what it fetched, for what later runs them.
        if net && SAVES.iter().any(|k| l.contains(k)) {
            for s in literals {
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
        // A framework's secrets read by name and sent (`settings.SECRET_KEY`,
        // `app.config['API_TOKEN']`, `settings.DATABASES` with their
        // passwords) in a request that carries data.
        let sends_data = [".post(", ".put(", ".patch(", "data=", "body:", "json="]
            .iter()
            .any(|k| l.contains(k));
        let framework_secret = text
            .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
            .filter(|w| {
                w.len() > 3
                    && w.chars().all(|ch| ch.is_ascii_uppercase() || ch == '_')
                    && (super::effects::secret_var(w) || *w == "DATABASES")
            })
            .any(|w| read_from_settings(text, w));
        if net && sends_data && framework_secret {
            self.block(format!(
                "exfiltration ({lang} code sends the secrets it reads by name over the network)"
            ));
        }
        if net && whole_environment(l) {
            self.block(format!(
                "exfiltration ({lang} code sends the whole environment, its tokens with it, over the network)"
            ));
        }
        // Backticks run commands in Perl, Ruby and PHP (in JavaScript they are strings).
        // What runs is read outside the strings: a string that says
        // "Invoke-Expression" is text the code writes.
        // R's `source`, `source_url`, `sys.source` (by name too, as in
        // `do.call(source, …)`) and `eval(parse(…))` run what they read.
        let runs = runs_code_in(lang, outside)
            || matches!(lang, "rscript" | "r")
                && (outside.contains("source")
                    || outside.contains("eval(parse")
                    // A package installed from a file or a URL runs its build.
                    || outside.contains("install_url(")
                    || outside.contains("install.packages(")
                        && outside.replace(' ', "").contains("repos=null"));
        // `import (builtins.fetchTarball "https://…") {}`: Nix code fetched
        // and evaluated (a pin of nixpkgs on a code forge is the project's
        // own dependency, and asks).
        let nix_import = lang == "nix"
            && outside.contains("import")
            && literals.iter().any(|s| {
                s.split_once("://").is_some_and(|(_, r)| {
                    let host = super::project_out::address_host(r);
                    !super::project_out::forge_host(&host) && !host.ends_with("nixos.org")
                })
            });
        if net && (runs || nix_import) {
            self.block(format!(
                "download and execute ({lang} code fetches and runs code)"
            ));
        }
        // `source("x.R")`, `include("x.jl")`, `run('x.m')` of a file this
        // line downloaded.
        if (runs || runs_code_in(lang, outside) || l.contains("source(") || l.contains("run("))
            && literals.iter().any(|s| {
                !s.is_empty() && !s.contains(' ') && self.is_tainted(&Word::lit(s.as_str()), None)
            })
        {
            self.block(format!(
                "download and execute ({lang} code runs a file this line downloaded)"
            ));
        }
        self.model_loading(lang, l, text, net);
        // Code it decodes, run by a name it computes or fed to a loader
        // that executes: what runs cannot be read here.
        let decodes = DECODE.iter().any(|k| l.contains(k)) || escaped_text(code);
        let executes = outside.contains("invoke-expression")
            || runs
            || computed_call(outside, l)
            || UNPICKLES.iter().any(|k| l.contains(k))
            || l.contains("yaml.load(") && !l.contains("safeloader")
            || lang == "lua" && named_at(l, "load(").next().is_some()
            || matches!(lang, "rscript" | "r") && (l.contains("source(") || l.contains("eval(parse("))
            // `import 'data:…'`: a module that is the encoded text.
            || l.contains("import") && l.contains("data:");
        if decodes && executes {
            self.block(format!(
                "decodes and executes ({lang} code runs what it decodes)"
            ));
        }
        if matches!(lang, "pwsh" | "powershell") && super::code_shapes::computed_call(l) {
            self.block(format!(
                "{lang} runs a command whose name it computes (the call operator on a built name hides what runs)"
            ));
        }
        if super::code_shapes::sets_setuid(l) {
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
        runs
    }

    /// Deletes, open permissions, disks, memory, processes, escalation and
    /// persistence it spells.
    pub(super) fn code_damage(&mut self, src: &Source<'_>) {
        let Source {
            lang,
            text,
            l,
            literals,
            app,
            ..
        } = *src;
        let catastrophic = literals.iter().any(|s| {
            (s.starts_with('/') || s.starts_with('~')) && {
                let p = self.norm_text(&paths::word_path(s, false), None);
                paths::catastrophic_normalized(&p) && !self.inside(&p)
            }
        });
        let home_joined = HOME_MARKERS.iter().any(|k| l.contains(k));
        // `fs.chmodSync(os.homedir(), 0o777)`: home or a system folder
        // opened to every user.
        // The call's own arguments name the place, or a variable set
        // elsewhere in the code does.
        let opened = super::code_shapes::world_writable_chmods(l)
            .into_iter()
            .any(|args| {
                let named_here = string_literals(args).iter().any(|s| {
                    (s.starts_with('/') || s.starts_with('~'))
                        && paths::catastrophic_normalized(
                            &self.norm_text(&paths::word_path(s, false), None),
                        )
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
        if deletes_by_name(l) && (catastrophic || home_joined) {
            self.block(format!(
                "recursive delete of the home directory or the root ({lang} code)"
            ));
        }
        // Code that deletes, naming a place outside the working folder
        // (`remove_tree(glob "~/.local/share")`, `os.remove('/etc/x')`).
        // In code `~` is home once expanded (`glob`, `expanduser`); the
        // place must follow the delete call closely, as its argument would.
        let after_delete = delete_calls(l);
        let outside = literals.iter().find(|s| {
            if !(s.starts_with('/') || s.starts_with('~') || s.starts_with("..")) {
                return false;
            }
            let p = self.norm_text(s, None);
            !self.inside(&p)
                && !paths::scratch(&p)
                && !p.starts_with("/dev/")
                && !p.starts_with("/proc/self")
                && after_delete.iter().any(|tail| tail.contains(&lower(s)))
        });
        // `shutil.rmtree('.git')`: the repository's history.
        let history = literals.iter().any(|s| {
            matches!(s.trim_end_matches('/'), ".git" | "./.git")
                && after_delete.iter().any(|tail| tail.contains(&lower(s)))
        });
        if history {
            self.block(format!(
                "{lang} code deletes the repository's history (.git), not undoable"
            ));
        }
        if let Some(place) = outside {
            self.block(format!(
                "{lang} code deletes, and names {} outside the working folder",
                shown(place)
            ));
        }
        if super::code_shapes::fills_disk(l) {
            self.block(format!("fills the disk ({lang} code writes without end)"));
        }
        if allocates_huge(l) || allocates_forever(l) {
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
        // An SDK's call that deletes a whole remote store (`HfApi().
        // delete_repo`, boto3's `delete_bucket`, `deleteRepository`).
        if [
            "delete_repo(",
            "delete_bucket(",
            "delete_repository(",
            "deletebucket(",
            "deleterepository(",
            "delete_project(",
        ]
        .iter()
        .any(|k| l.contains(k))
        {
            self.block(format!(
                "{lang} code deletes a whole remote repository, bucket or project: not undoable"
            ));
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
        self.code_writes(lang, text, l, home_joined);
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
        if l.contains("kill") && (l.contains("ppid") || l.contains(app)) {
            self.block(format!("{lang} code signals Jarvis's own process"));
        }
    }

    /// Shell text handed to a shell from inside the code.
    pub(super) fn code_shell_strings(&mut self, src: &Source<'_>, runs: bool, depth: usize) {
        let Source { lang, text, l, .. } = *src;
        // Languages that call programs like a shell does (Tcl's `exec`, expect's `spawn`).
        if matches!(lang, "expect" | "tclsh" | "wish") {
            self.block_only(|a| a.script(text, &[], depth + 1));
        }
        // Shell text handed to a shell from inside the code, or written as
        // code that will run later (a `.pth` file's `os.system`): its
        // strings are judged as shell wherever the call is spelled.
        if runs || runs_code_in(lang, l) {
            let literals = string_literals(text);
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
        } else if writes_files(l) {
            // Text the code writes out may run later (a kernel spec's
            // `argv`, a hook, a unit): a grave command line among its
            // strings is planted, whichever file it lands in.
            // (Only a grave finding: a template's `{a} {b}` or `${x}` is
            // text, not an obfuscated command.)
            let literals = string_literals(text);
            for s in literals.iter().filter(|s| s.contains(char::is_whitespace)) {
                if let Some(why) = self.grave_finding(s.trim(), depth) {
                    self.block(format!(
                        "{lang} code writes out a command line to be run later: {why}"
                    ));
                    return;
                }
            }
        }
    }
}

/// Code that writes files (`p.write_text(…)`, `json.dump(…, f)`,
/// `fs.writeFileSync`, `file_put_contents`).
fn writes_files(l: &str) -> bool {
    [
        "write_text(",
        ".write(",
        "dump(",
        "writefile",
        "appendfile",
        "file_put_contents",
        "fputs(",
        "spit ",
    ]
    .iter()
    .any(|k| l.contains(k))
}

/// `name` read from an object that is not the environment: an attribute
/// (`settings.SECRET_KEY`) or a key (`app.config['API_TOKEN']`). (A token
/// from `os.environ` sent to its own service is judged elsewhere.)
fn read_from_settings(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].trim_end_matches(['\'', '"']);
        let owner_end = if let Some(b) = before.strip_suffix('.') {
            b
        } else if let Some(b) = before.strip_suffix('[') {
            b
        } else {
            return false;
        };
        let owner = trailing_identifier(owner_end);
        !owner.is_empty() && !matches!(owner, "environ" | "env" | "ENV" | "os")
    })
}

/// The identifier (letters, digits, `_`) that `s` ends with.
pub(super) fn trailing_identifier(s: &str) -> &str {
    let start = s
        .char_indices()
        .rev()
        .take_while(|(_, ch)| ch.is_ascii_alphanumeric() || *ch == '_')
        .last()
        .map_or(s.len(), |(i, _)| i);
    &s[start..]
}
