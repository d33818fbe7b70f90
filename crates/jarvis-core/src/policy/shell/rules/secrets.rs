//! Where secrets live: credential dumpers, cloud CLIs, keychains, keys,
//! token-holding developer tools, databases and the session bus; and the
//! Windows script hosts that fetch and run.

use super::system::Verb;
use super::*;

impl Analyzer<'_> {
    /// Windows script hosts, credential dumpers, cloud CLIs, keychains, keys and the session bus.
    pub(super) fn secret_stores(&mut self, c: &Cmd<'_>, v: &Verb<'_>) -> Option<bool> {
        let Verb { b, lb, args, .. } = *v;
        match lb {
            "regsvr32" | "mshta" | "msiexec" | "rundll32" | "installutil" | "regasm"
            | "regsvcs" | "cscript" | "wscript" | "msbuild" | "odbcconf" | "cmstp" | "forfiles" => {
                // `rundll32 comsvcs.dll, MiniDump PID F full`: a process's
                // memory (LSASS's: every signed-in user's credentials).
                if lb == "rundll32"
                    && v.joined.contains("comsvcs")
                    && (v.joined.contains("minidump") || v.joined.contains("#24"))
                {
                    self.block(format!(
                        "dumps a process's memory to steal credentials ({b} comsvcs MiniDump)"
                    ));
                }
                if v.joined.contains("http") || v.joined.contains("\\\\") || lb == "mshta" {
                    self.block(format!("download and execute ({b} with a remote file)"));
                }
                self.ask(format!("{b} runs code"));
                Some(false)
            }
            "certutil" | "bitsadmin" => {
                if [
                    "urlcache",
                    "/transfer",
                    "http",
                    "-decode",
                    "/decode",
                    "-decodehex",
                ]
                .iter()
                .any(|k| v.joined.contains(k))
                {
                    self.block(format!(
                        "download and execute ({b} fetches or decodes a file)"
                    ));
                }
                self.ask(b.to_string());
                Some(false)
            }
            "cmdkey" | "vaultcmd" | "mimikatz" | "lazagne" | "procdump" | "secretsdump"
            | "pypykatz" | "hashcat" | "john" | "responder" | "keychain" | "lsadump" => {
                if lb == "keychain" {
                    self.ask("keychain manages ssh-agent");
                    return Some(false);
                }
                self.block(format!("dumps or cracks stored credentials ({b})"));
                Some(false)
            }
            "get-content" | "type" | "gc" | "cat" | "select-string" | "sls"
            | "get-itemproperty"
                if args.iter().any(|x| paths::credential(x, c.cwd()).is_some()) =>
            {
                self.block("reads a credential file");
                Some(false)
            }
            "aws" => {
                if [
                    "configure get",
                    "configure export-credentials",
                    "export-credentials",
                    "get-session-token",
                    "get-secret-value",
                    "--with-decryption",
                    "get-login-password",
                    "get-authorization-token",
                    "assume-role",
                    "get-federation-token",
                    "get-access-key-info",
                    // New keys and short-lived logins, printed as made.
                    "create-access-key",
                    "create-service-specific-credential",
                    "get-role-credentials",
                    "get-credentials-for-identity",
                    "generate-db-auth-token",
                ]
                .iter()
                .any(|k| v.joined.contains(k))
                {
                    if super::handoffs::handed_on(c, Some(super::tokens::printer_service("aws"))) {
                        self.ask("aws hands credentials to the next command");
                    } else {
                        self.block("reveals cloud credentials (aws)");
                    }
                }
                self.ask("aws changes cloud resources");
                Some(false)
            }
            "gcloud" | "az" | "doctl" | "heroku" | "flyctl" | "vercel" | "netlify" | "firebase"
            | "wrangler" | "oci" | "ibmcloud" => {
                if [
                    "print-access-token",
                    "print-identity-token",
                    "get-access-token",
                    "auth:token",
                    "auth token",
                    "show-token",
                    "print-refresh-token",
                    "keyvault secret show",
                    "secrets versions access",
                    "application-default print",
                    "config-helper",
                    // A storage account's keys and the strings that carry them.
                    "keys list",
                    "list-keys",
                    "show-connection-string",
                ]
                .iter()
                .any(|k| v.joined.contains(k))
                {
                    if super::handoffs::handed_on(c, Some(super::tokens::printer_service(&c.lb))) {
                        self.ask(format!("{b} hands credentials to the next command"));
                    } else {
                        self.block(format!("reveals cloud credentials ({b})"));
                    }
                }
                self.ask(format!("{b} changes cloud resources"));
                Some(false)
            }
            "gh"
            | "glab"
            | "hub"
            | "npm"
            | "pnpm"
            | "yarn"
            | "pip"
            | "pip3"
            | "cargo"
            | "gem"
            | "composer"
            | "docker-credential-desktop"
            | "docker-credential-pass"
            | "docker-credential-secretservice"
            | "docker-credential-osxkeychain"
            | "twine"
            | "poetry"
            | "uv"
            | "dotnet"
            | "nuget"
            | "mvn"
            | "gradle"
            | "conda"
            | "bundle" => Some(self.tool_with_tokens(c)),
            "security" => {
                if args.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "find-generic-password"
                            | "find-internet-password"
                            | "dump-keychain"
                            | "export"
                            | "find-certificate"
                            | "unlock-keychain"
                            | "set-generic-password"
                            | "delete-generic-password"
                            | "dump-trust-settings"
                            | "find-key"
                    )
                }) {
                    self.block("reads or changes the macOS keychain");
                }
                self.ask("security");
                Some(false)
            }
            "pass" | "gopass" | "passage" if args.first().is_some_and(|x| x == "git") => {
                Some(self.store_git(c))
            }
            "rclone" => self.rclone(c),
            "secret-tool" | "pass" | "gopass" | "op" | "bw" | "lpass" | "keyctl" | "vault"
            | "kwallet-query" | "keepassxc-cli" | "age" | "sops" | "chamber" | "berglas"
            | "envchain" | "1password" | "passage" | "rbw" | "kpcli" | "keyring"
            | "ansible-vault" | "doppler" | "infisical" | "aws-vault" | "saml2aws" | "teller"
            | "summon" => Some(self.secret_manager(c)),
            "gpg" | "gpg2" | "gpgsm" => {
                if args.iter().any(|x| {
                    x.starts_with("--export-secret")
                        || x == "--export-ownertrust"
                        || x == "--export-secret-subkeys"
                }) || (v.a("--export") && v.a("--armor") && v.joined.contains("secret"))
                {
                    self.block("exports private keys (gpg)");
                }
                if let Some(files) = super::reveals::gpg_reads(args) {
                    let mut read_only = true;
                    for i in files {
                        if let Some(f) = c.arg_word(i).cloned() {
                            read_only &= self.read_path(&f, c.cwd());
                        }
                    }
                    return Some(read_only);
                }
                self.ask("gpg");
                Some(false)
            }
            "ssh-keygen" | "ssh-add" | "ssh-agent" | "ssh-copy-id" | "ssh-keyscan" | "puttygen" => {
                // A key added to this machine's own authorized_keys.
                if lb == "ssh-copy-id"
                    && c.operand_words().last().is_some_and(|h| {
                        let h = h.text.rsplit('@').next().unwrap_or(&h.text);
                        super::project_out::is_loopback(h)
                    })
                {
                    self.block("persistence (ssh-copy-id adds a key to this machine's own authorized_keys)");
                }
                // `ssh-keygen -l -f key.pub` (or `-lf`): a public key's fingerprint.
                let flags_only = |x: &str| {
                    x.strip_prefix('-')
                        .is_some_and(|f| !f.is_empty() && f.chars().all(|ch| "lvf".contains(ch)))
                };
                let file = args
                    .iter()
                    .position(|x| flags_only(x) && x.ends_with('f'))
                    .and_then(|i| c.arg_word(i + 1).cloned());
                if lb == "ssh-keygen"
                    && args.iter().any(|x| flags_only(x) && x.contains('l'))
                    && args.iter().all(|x| {
                        flags_only(x)
                            || matches!(x.as_str(), "-E" | "sha256" | "md5")
                            || !x.starts_with('-')
                    })
                    && let Some(f) = file
                    // Public keys only: a key's `.pub`, or the project's
                    // `authorized_keys` list (fingerprints are printed,
                    // nothing else; the home's own list stays a question).
                    && (f.text.ends_with(".pub")
                        || matches!(
                            f.text.rsplit('/').next(),
                            Some("authorized_keys" | "authorized_keys2")
                        ) && !f.dynamic
                            && self.inside(&self.norm(&f, c.cwd())))
                {
                    return Some(self.read_path(&f, c.cwd()));
                }
                if lb == "ssh-add" && (v.a("-L") || v.a("-l")) {
                    self.ask("lists the agent's keys");
                } else if lb == "ssh-agent" {
                    self.ask("starts an ssh agent");
                }
                // PKCS#11 / security-key providers are libraries ssh loads.
                let flags: &[&str] = match lb {
                    "ssh-keygen" => &["-D", "-w"],
                    "ssh-add" => &["-s", "-S", "-e"],
                    "ssh-agent" => &["-P"],
                    _ => &[],
                };
                for (i, x) in args.iter().enumerate() {
                    if flags.contains(&x.as_str())
                        && let Some(lib) = c.arg_word(i + 1).cloned()
                    {
                        self.loaded_library(&lib, &c.base);
                    }
                }
                self.ask(format!("{b} works with ssh keys"));
                Some(false)
            }
            "sqlite3" | "sqlite" | "psql" | "mysql" | "mariadb" | "mongo" | "mongosh"
            | "redis-cli" | "duckdb" => Some(self.database(c)),
            "git-credential-store"
            | "git-credential-cache"
            | "git-credential-manager"
            | "git-credential-libsecret"
            | "git-credential-osxkeychain" => {
                self.block("reveals stored git credentials");
                Some(false)
            }
            "dbus-send" | "gdbus" | "busctl" | "qdbus" | "dbus-monitor" => {
                if v.joined.contains("secret")
                    || v.joined.contains("keyring")
                    || v.joined.contains("kwallet")
                {
                    self.block(format!(
                        "asks the keyring for secrets over the session bus ({b})"
                    ));
                }
                if [
                    "poweroff",
                    "reboot",
                    "halt",
                    "suspend",
                    "hibernate",
                    "terminatesession",
                    "terminateuser",
                    "killuser",
                    "logout",
                    "shutdown",
                ]
                .iter()
                .any(|k| v.joined.contains(k))
                {
                    self.block(format!(
                        "system disruption ({b} asks the system to power off or end sessions)"
                    ));
                }
                if [
                    "enableunitfiles",
                    "linkunitfiles",
                    "setdefaulttarget",
                    "startunit",
                    "starttransientunit",
                ]
                .iter()
                .any(|k| v.joined.contains(k))
                {
                    self.block(format!(
                        "persistence ({b} starts or enables services over D-Bus)"
                    ));
                }
                if [
                    "stopunit",
                    "killunit",
                    "restartunit",
                    "disableunitfiles",
                    "maskunitfiles",
                    "resetfailedunit",
                ]
                .iter()
                .any(|k| v.joined.contains(k))
                {
                    self.block(format!(
                        "system disruption ({b} stops, kills or disables services over D-Bus)"
                    ));
                }
                // A method that evaluates code or starts programs in another
                // process (GNOME Shell's Eval, KLauncher, Flatpak's
                // HostCommand) runs them outside the sandbox.
                let runs = c.args.iter().any(|x| {
                    let method = lower(x.rsplit(['.', '/']).next().unwrap_or(""));
                    [
                        "eval",
                        "evaluate",
                        "evaluatescript",
                        "execute",
                        "executecommand",
                        "exec",
                        "exec_blocking",
                        "kdeinit_exec",
                        "spawn",
                        "spawnv",
                        "runcommand",
                        "hostcommand",
                        "startprocess",
                        "launchcommand",
                    ]
                    .contains(&method.as_str())
                });
                if runs {
                    self.block(format!(
                        "{b} asks a desktop service to run code outside the sandbox"
                    ));
                }
                // systemd's StopUnit/KillUnit/MaskUnitFiles on Jarvis's own
                // unit, or any stop-like method naming it: `systemctl stop`
                // by another road.
                let stops = c.args.iter().any(|x| {
                    let method = lower(x.rsplit(['.', '/']).next().unwrap_or(""));
                    [
                        "stop",
                        "kill",
                        "mask",
                        "disable",
                        "terminate",
                        "quit",
                        "restart",
                        "freeze",
                        "tryrestart",
                        "reloadorrestart",
                        "reloadortryrestart",
                    ]
                    .iter()
                    .any(|k| method.starts_with(k))
                });
                if stops && c.words.iter().skip(1).any(|w| self.mentions_self(w)) {
                    self.block(format!("{b} stops or disables Jarvis itself over D-Bus"));
                }
                for x in c.args.iter().filter(|x| x.contains(char::is_whitespace)) {
                    self.block_only(|a| a.inline_code("dbus", x, c.depth + 1));
                }
                // Describing a service or listing the bus calls no method of
                // the service's own.
                let describes = match b {
                    "gdbus" => c.args.first().is_some_and(|a| a == "introspect"),
                    "busctl" => c
                        .args
                        .iter()
                        .find(|a| !a.starts_with('-'))
                        .is_some_and(|a| {
                            matches!(a.as_str(), "list" | "status" | "tree" | "introspect")
                        }),
                    _ => false,
                };
                if describes && !runs && !stops {
                    return Some(true);
                }
                // Any method of Jarvis's own service (`SetAutoApprove`):
                // its settings and approvals are the brain's to change.
                // (A bus name, an object path or a method: not a
                // notification's text that names Jarvis.)
                let addresses = |w: &&Word| {
                    !w.text.contains(char::is_whitespace)
                        && (w.text.contains('.') || w.text.starts_with('/'))
                };
                if !describes
                    && c.words
                        .iter()
                        .skip(1)
                        .filter(addresses)
                        .any(|w| self.mentions_self(w))
                {
                    self.block(format!("{b} calls Jarvis's own service over D-Bus"));
                }
                self.ask(format!("{b} talks to desktop services"));
                Some(false)
            }
            _ => None,
        }
    }

    /// Developer tools that hold tokens: printing the token is the line.
    pub(super) fn tool_with_tokens(&mut self, c: &Cmd<'_>) -> bool {
        let j = lower(&c.args.join(" "));
        if let Some(host) = publishes_elsewhere(c) {
            self.block(format!(
                "exfiltration (publishes the project to a registry this line names: {})",
                shown(&host)
            ));
        }
        let token_key = |k: &str| {
            [
                "token",
                "password",
                "_auth",
                "authtoken",
                "secret",
                "apikey",
                "api-key",
                "api_key",
                "credential",
            ]
            .iter()
            .any(|t| k.contains(t))
        };
        let reveals = match c.lb.as_str() {
            "gh" | "glab" | "hub" => {
                j.starts_with("auth token")
                    || j.contains("--show-token")
                    || j.starts_with("auth status") && c.args.iter().any(|x| x == "-t")
            }
            "npm" | "pnpm" | "yarn" => {
                (j.starts_with("config get")
                    || j.starts_with("config list") && j.contains("-l")
                    || j.starts_with("get "))
                    && token_key(&j)
                    || j.starts_with("token list")
            }
            "pip" | "pip3" | "poetry" | "uv" | "twine" | "conda" => {
                j.contains("config") && j.contains("get") && token_key(&j)
                    || j.starts_with("config show") && j.contains("http-basic")
            }
            "cargo" => {
                j.starts_with("login") && j.contains("--show")
                    || j.contains("config get") && token_key(&j)
            }
            "composer" | "gem" | "bundle" | "mvn" | "gradle" | "dotnet" | "nuget" => {
                j.contains("config") && token_key(&j) && (j.contains("get") || j.contains("--list"))
            }
            l if l.starts_with("docker-credential") => {
                j.starts_with("get") || j.starts_with("list")
            }
            _ => false,
        };
        if reveals && super::handoffs::handed_on(c, Some(super::tokens::printer_service(&c.lb))) {
            self.ask(format!(
                "{} hands a stored token to the next command",
                c.base
            ));
        } else if reveals {
            self.block(format!("reveals a stored token ({})", c.base));
        }
        if matches!(c.lb.as_str(), "npm" | "pnpm" | "yarn")
            && c.args.first().is_some_and(|x| x == "pkg")
            && c.args.iter().any(|x| x == "set")
        {
            for x in &c.args {
                if let Some((k, v)) = x.split_once('=')
                    && k.starts_with("scripts.")
                {
                    self.script(v, &[], c.depth + 1);
                }
            }
        }
        // `composer config scripts.NAME 'cmd'`: composer runs it on that
        // event (a `@php`/`@composer` entry is composer's own).
        if c.lb == "composer"
            && let [cfg, key, value, ..] = c.args.as_slice()
            && cfg == "config"
            && key.starts_with("scripts.")
            && !value.starts_with('@')
        {
            self.script(value, &[], c.depth + 1);
        }
        for (i, x) in c.args.iter().enumerate() {
            if (x == "--index-url" || x == "-i" || x == "--extra-index-url" || x == "--registry")
                && let Some(u) = c.args.get(i + 1)
            {
                self.url(u);
            }
        }
        // Local listings of what is installed; no index, no network.
        // (Past the options that only quiet the tool.)
        let first = c
            .args
            .iter()
            .map(String::as_str)
            .find(|x| !PIP_QUIET.contains(x))
            .unwrap_or("");
        // (Or writes a log: pip's `--log F`.)
        let online = c.args.iter().any(|x| {
            matches!(
                x.as_str(),
                "-o" | "--outdated"
                    | "-u"
                    | "--uptodate"
                    | "-i"
                    | "--index-url"
                    | "--extra-index-url"
                    | "--registry"
                    | "--log"
                    | "--log-file"
            ) || x.starts_with("--log")
                || x.starts_with("--index")
                || short_flags(x).is_some_and(|f| f.contains(['o', 'u', 'i']))
        });
        // Reading a setting prints it (a token's key was judged above).
        let second = c.args.get(1).map(String::as_str).unwrap_or("");
        // (pip's settings name private indexes with their tokens: its
        // `config list` asks.)
        let reads_setting = first == "config"
            && matches!(second, "get" | "list" | "ls")
            && !matches!(c.lb.as_str(), "pip" | "pip3");
        let listing = match c.lb.as_str() {
            "pip" | "pip3" => {
                matches!(first, "show" | "list" | "freeze" | "check") || reads_setting
            }
            "npm" | "pnpm" | "yarn" => {
                matches!(first, "ls" | "list" | "ll" | "la" | "explain" | "why") || reads_setting
            }
            // What is installed here (`--remote` asks the index).
            "gem" => {
                matches!(first, "list" | "contents" | "which" | "environment" | "env")
                    && !c.args.iter().any(|x| {
                        matches!(x.as_str(), "-r" | "--remote" | "-b" | "--both" | "--source")
                    })
            }
            _ => false,
        };
        // (`PIP_LOG=F` before it writes F.)
        if listing && !online && !reveals && c.assigns.is_empty() {
            return true;
        }
        self.ask(format!("{} runs package or account actions", c.base));
        false
    }
}

impl Analyzer<'_> {
    /// A word naming (or looking up with `pgrep`/`pidof`) a process that
    /// holds secrets in memory: keyrings, key agents, password managers,
    /// browsers.
    pub(super) fn aims_at_secret_holder(&self, w: &Word, script: &Script) -> bool {
        const HOLDERS: &[&str] = &[
            "keyring",
            "ssh-agent",
            "gpg-agent",
            "kwallet",
            "keepass",
            "1password",
            "bitwarden",
            "secret",
            "seahorse",
            "firefox",
            "chrom",
            "brave",
            "thunderbird",
            "polkit",
            "sshd",
        ];
        let holder = |x: &Word| {
            let t = lower(&x.text);
            HOLDERS.iter().any(|h| t.contains(h))
        };
        super::effects::in_word_or_subs(w, script, holder)
    }
}

/// The parts of Jarvis's state that grant access: its configuration (MCP
/// servers' environments hold their tokens) and its grants. Reading them
/// blocks like any credential file; its conversations and logs ask.
pub(super) fn app_access(p: &str, db_engine: Option<&str>) -> bool {
    let name = p.rsplit('/').next().unwrap_or("").to_ascii_lowercase();
    // A database's bytes hold every table at once, the grants among them:
    // only its engine, whose statements are judged, reads it table by table
    // (and only the database it opens: `readfile()` of another is a read).
    let database = [".db", ".sqlite", ".sqlite3", "-wal", "-journal", "-shm"]
        .iter()
        .any(|x| name.ends_with(x));
    // A pattern that could name one of them (`jarvis.d[b]`, `*.db-*`).
    let pattern = name.contains(['*', '?', '['])
        && [
            "jarvis.db",
            "jarvis.db-wal",
            "state.db",
            "config.json",
            "grants.json",
        ]
        .iter()
        .any(|n| paths::glob_match(&name, n));
    (database || pattern) && db_engine != Some(p)
        || [
            "config",
            "settings",
            "grant",
            "secret",
            "token",
            "mcp",
            "credential",
        ]
        .iter()
        .any(|k| name.contains(k))
}

/// A publish or upload to a registry the line names (`npm publish
/// --registry URL`, `NPM_CONFIG_REGISTRY=URL npm publish`, `twine upload
/// --repository-url URL`): its host, unless it is the public registry the
/// tool publishes to by default or this machine.
fn publishes_elsewhere(c: &Cmd<'_>) -> Option<String> {
    let first = c.args.first().map(String::as_str).unwrap_or("");
    let publishes = match c.lb.as_str() {
        "npm" | "pnpm" | "yarn" => {
            first == "publish" || c.args.windows(2).any(|w| w == ["npm", "publish"])
        }
        "twine" => first == "upload",
        "cargo" => first == "publish",
        "gem" => first == "push",
        "poetry" | "uv" => first == "publish",
        _ => false,
    };
    if !publishes || c.args.iter().any(|a| a == "--dry-run") {
        return None;
    }
    let named = c.args.iter().enumerate().find_map(|(i, a)| {
        let flag = matches!(
            a.as_str(),
            "--registry" | "--repository-url" | "--index" | "--host" | "--publish-url"
        );
        if flag {
            return c.args.get(i + 1).cloned();
        }
        [
            "--registry=",
            "--repository-url=",
            "--index=",
            "--host=",
            "--publish-url=",
        ]
        .iter()
        .find_map(|p| a.strip_prefix(p).map(str::to_string))
    });
    let from_env = c.assigns.iter().find_map(|(n, v)| {
        let n = n.to_ascii_uppercase();
        matches!(
            n.as_str(),
            "NPM_CONFIG_REGISTRY"
                | "TWINE_REPOSITORY_URL"
                | "CARGO_REGISTRY_INDEX"
                | "UV_PUBLISH_URL"
        )
        .then(|| v.text.clone())
    });
    // A registry's name (`cargo publish --registry mine`) is the user's
    // own configuration; a URL names the place.
    let url = named.or(from_env).filter(|u| u.contains("://"))?;
    let host = super::project_out::far_host(url.split_once("://").map_or("", |(_, r)| r))?;
    let default = [
        "registry.npmjs.org",
        "registry.yarnpkg.com",
        "upload.pypi.org",
        "test.pypi.org",
        "crates.io",
        "rubygems.org",
    ]
    .contains(&host.as_str());
    (!default).then_some(host)
}

/// pip's options that only quiet it, before or after its command.
pub(super) const PIP_QUIET: &[&str] = &[
    "--disable-pip-version-check",
    "-q",
    "--quiet",
    "--no-color",
    "--no-input",
];
