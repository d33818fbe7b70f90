//! Subcommands that print a tool's own secrets, and the read-only questions
//! asked of secret holders: `fly auth token`, `rclone config dump`, `pass
//! git push` out of the password store; `rclone listremotes`, `gpg
//! --list-keys`, which print names and fingerprints, not secrets.

use super::*;

/// Words that name the token in a command line's verbs.
const TOKEN_VERBS: &[&str] = &[
    "token",
    "tokens",
    "access-token",
    "print-access-token",
    "print-identity-token",
    "print-token",
    "show-token",
    "get-token",
    "get-access-token",
    "auth:token",
    "oauth-token",
    "api-key",
    "apikey",
    // `nix config show access-tokens`, `llm keys get openai`.
    "access-tokens",
    "keys",
];

/// Flags that ask a tool to print what it otherwise masks.
const UNMASK_FLAGS: &[&str] = &[
    "--show-token",
    "--show-secrets",
    "--show-secret",
    "--show-password",
    "--show-passwords",
    "--reveal",
    "--unredacted",
    "--unmask",
    "--insecure-print",
    "--expose-token",
    // mysql's and mariadb's: every option their files hold, the password too.
    "--print-defaults",
    // maven's `help:effective-settings`, servers' passwords included.
    "-dshowpasswords",
];

/// Verbs that print, next to a token word.
const PRINT_VERBS: &[&str] = &[
    "print", "show", "get", "view", "cat", "read", "reveal", "export",
];

/// Endpoints whose reply to a POST is a new credential.
const MINTING_PATHS: &[&str] = &[
    "/tokens",
    "/api-keys",
    "/apikeys",
    "/api/auth/keys",
    "/auth/token/create",
    "/auth/token/create-orphan",
    "/personal_access_tokens",
    "/access_tokens",
    "/application_credentials",
    "/deploy_tokens",
];

/// Secret scanners: they print what they find, the secrets themselves.
const SCANNERS: &[&str] = &[
    "trufflehog",
    "gitleaks",
    "detect-secrets",
    "ggshield",
    "noseyparker",
    "whispers",
    "secretlint",
    "talisman",
    "kingfisher",
    "ripsecrets",
    "trivy",
    "git-secrets",
];

impl Analyzer<'_> {
    /// `awk '/token:/{print $2}' ~/.config/tea/config.yml`, `grep -i
    /// password ~/.bashrc`: a search of the user's own settings for a
    /// secret prints the secret, whichever tool's file it is.
    pub(super) fn scrapes_settings(&mut self, c: &Cmd<'_>) {
        if !matches!(
            c.lb.as_str(),
            "grep"
                | "egrep"
                | "fgrep"
                | "rg"
                | "ag"
                | "awk"
                | "gawk"
                | "mawk"
                | "sed"
                | "jq"
                | "yq"
        ) {
            return;
        }
        let words = c.operand_words();
        let pattern = words
            .iter()
            .chain(c.words.iter().filter(|w| w.text.starts_with("-e")))
            .any(|w| {
                super::pipes::names_secret(&lower(&w.text))
                    && !w.text.starts_with('~')
                    && !w.text.starts_with(HOME)
            });
        if !pattern {
            return;
        }
        for w in &words {
            let t = w.text.as_str();
            if !(t.starts_with('~') || t.starts_with(HOME) || t.starts_with("$HOME")) {
                continue;
            }
            let p = self.norm(w, c.cwd());
            // Settings: home's dotfiles and dot-folders (`~/.config`), not
            // the user's own projects (`grep -rn tokenize ~/code`).
            if p.starts_with("~/.") && !self.inside(&p) {
                self.block(format!(
                    "reads a secret out of your settings ({} searched for it in {})",
                    c.base,
                    shown(&w.text)
                ));
                return;
            }
        }
    }

    /// A secret scanner pointed at home or a key store prints every secret
    /// there (`trufflehog filesystem ~`, `gitleaks detect --source ~`):
    /// judged as reading that whole tree. The project's own scan asks.
    pub(super) fn secret_scan(&mut self, c: &Cmd<'_>) {
        let git_secrets = c.lb == "git" && c.args.first().is_some_and(|a| a == "secrets");
        let trivy_fs = c.lb != "trivy"
            || c.args
                .iter()
                .any(|a| matches!(a.as_str(), "fs" | "filesystem" | "rootfs"));
        if !(SCANNERS.contains(&c.lb.as_str()) && trivy_fs || git_secrets) {
            return;
        }
        let mut places: Vec<Word> =
            super::script_opts::values(c, &["--source", "-s", "--path", "--directory", "--repo"]);
        // `-s/home/u`: the short option glued to its value.
        places.extend(c.words.iter().skip(1).filter_map(|w| {
            let v = w
                .text
                .strip_prefix("-s")
                .filter(|v| !v.is_empty() && !v.starts_with('-'))?;
            Some(Word {
                text: v.to_string(),
                ..w.clone()
            })
        }));
        places.extend(
            c.operand_words()
                .into_iter()
                .skip_while(|w| !w.text.contains(['/', '~', HOME, '.']))
                .filter(|w| !w.text.contains("://") || w.text.starts_with("file://")),
        );
        for w in places {
            let w = match w.text.strip_prefix("file://") {
                Some(p) => Word {
                    text: p.to_string(),
                    ..w.clone()
                },
                None => w,
            };
            self.read_tree(&w, c.cwd(), &c.base);
        }
    }

    /// `coredumpctl dump jarvis-desktop`: a saved image of a process's
    /// memory, its keys and tokens with it.
    pub(super) fn core_dump(&mut self, c: &Cmd<'_>) {
        // The verb, past options and their values (`-o FILE dump …`).
        let mut skip = false;
        let verb = c
            .args
            .iter()
            .find(|a| {
                if std::mem::take(&mut skip) {
                    return false;
                }
                skip = matches!(
                    a.as_str(),
                    "-o" | "--output"
                        | "-F"
                        | "--field"
                        | "-S"
                        | "-U"
                        | "--since"
                        | "--until"
                        | "-D"
                        | "--directory"
                        | "--file"
                );
                !skip && !a.starts_with('-')
            })
            .map(String::as_str);
        if c.lb != "coredumpctl" || !matches!(verb, Some("dump" | "debug" | "gdb")) {
            return;
        }
        if c.words[1..].iter().any(|w| self.aims_at_self(w, c.script)) {
            self.block(
                "reads Jarvis's memory (a core dump of its process holds its keys and grants)",
            );
        } else if c.words[1..]
            .iter()
            .any(|w| self.aims_at_secret_holder(w, c.script))
        {
            self.block("reads the memory of a program that holds secrets (a core dump of it)");
        }
    }

    /// Any tool asked to print its sign-in token (`fly auth token`, `railway
    /// auth token`, `supabase tokens show`) or to unmask what it hides.
    /// `docker compose config` prints the compose file with every value
    /// filled in from `.env`, `env_file:` and the environment: the
    /// project's secrets. Names only (`--services`) or a check (`-q`) do not.
    pub(super) fn compose_config(&mut self, c: &Cmd<'_>) {
        if !matches!(
            c.lb.as_str(),
            "docker" | "podman" | "nerdctl" | "finch" | "docker-compose" | "podman-compose"
        ) {
            return;
        }
        let words: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let standalone = matches!(c.lb.as_str(), "docker-compose" | "podman-compose");
        // (`docker config` alone is Swarm's, not compose's.)
        if !standalone && !words.contains(&"compose") {
            return;
        }
        // Past the global, file and project options (`-f dev.yml`, `-p app`).
        let verbs = super::infra::container_verbs(&words);
        // (`convert` is its older name.)
        if !matches!(verbs.first(), Some(&"config" | &"convert")) {
            return;
        }
        let names_only = verbs[1..].iter().any(|w| {
            matches!(
                *w,
                "--services"
                    | "--volumes"
                    | "--images"
                    | "--profiles"
                    | "--networks"
                    | "-q"
                    | "--quiet"
                    | "--help"
                    | "-h"
            )
        });
        if !names_only {
            let cmd = if standalone {
                format!("{} config", c.base)
            } else {
                format!("{} compose config", c.base)
            };
            self.block(format!(
                "reveals credentials ({cmd} prints the values it fills in from .env and the environment)"
            ));
        }
    }

    /// A request to an API that mints a durable credential (`POST
    /// …/serviceaccounts/1/tokens`, `…/api-keys`, Vault's
    /// `auth/token/create`): the reply is the new secret.
    pub(super) fn mints_token(&mut self, c: &Cmd<'_>) {
        if !matches!(
            c.lb.as_str(),
            "curl" | "wget" | "http" | "https" | "xh" | "curlie"
        ) {
            return;
        }
        let sends = c.args.iter().any(|a| {
            matches!(
                a.as_str(),
                "-d" | "--data"
                    | "--data-raw"
                    | "--data-binary"
                    | "--json"
                    | "POST"
                    | "--post-data"
            ) || a.starts_with("--data")
                || a.starts_with("--post-data")
                || a.starts_with("-XPOST")
                || a == "-X" // (the method follows)
        }) && !c
            .args
            .iter()
            .any(|a| matches!(a.as_str(), "GET" | "-XGET" | "DELETE" | "-XDELETE"));
        // (`localhost:3000/api/…` with no scheme is a URL to curl too.)
        let mints = c
            .args
            .iter()
            .filter(|a| !a.starts_with(['-', '{', '@']))
            .any(|a| {
                let l = lower(a);
                let rest = l.split_once("://").map_or(l.as_str(), |(_, r)| r);
                let Some(at) = rest.find('/') else {
                    return false;
                };
                let path = rest[at..]
                    .split(['?', '#'])
                    .next()
                    .unwrap_or("")
                    .trim_end_matches('/');
                MINTING_PATHS.iter().any(|m| {
                    path.ends_with(m)
                        || path.contains(&format!("{m}/")) && path.ends_with("/create")
                })
            });
        if sends && mints {
            self.secret_printed(
                c,
                "a new API credential (the reply of a request that mints one)",
            );
        }
    }

    pub(super) fn reveals_token(&mut self, c: &Cmd<'_>) {
        // Words given to a text tool are its text (`echo print token`).
        let lb = c.lb.as_str();
        if tables::read_only(lb).is_some()
            || matches!(
                lb,
                "echo" | "printf" | "print" | "write-output" | "write-host"
            )
            || is_shell(lb)
            || tables::interpreter(lb).is_some()
        {
            return;
        }
        // The verbs, options skipped (`fly --verbose auth token`).
        let verbs: Vec<String> = c.operands_lower().into_iter().take(4).collect();
        let token_at = verbs.iter().position(|x| TOKEN_VERBS.contains(&x.as_str()));
        let after_auth = token_at.is_some_and(|i| {
            i > 0
                && matches!(
                    verbs[i - 1].as_str(),
                    "auth" | "login" | "account" | "config"
                )
        });
        let printed = token_at.is_some() && verbs.iter().any(|x| PRINT_VERBS.contains(&x.as_str()));
        // `heroku auth:token`, `cf oauth-token`: the verb says it alone.
        let self_printing = token_at
            .is_some_and(|i| verbs[i].starts_with("auth:") || i == 0 && verbs[i] == "oauth-token");
        // `oc whoami -t`: the session's bearer token.
        let whoami = c.lb == "oc" && verbs.first().is_some_and(|v| v == "whoami") && c.has("-t");
        // curl's trace of a request signed from `.netrc` prints the password.
        let netrc_traced = c.lb == "curl"
            && c.args
                .iter()
                .any(|x| matches!(x.as_str(), "-v" | "--verbose") || x.starts_with("--trace"))
            && c.args.iter().any(|x| {
                matches!(x.as_str(), "-n" | "--netrc" | "--netrc-optional")
                    || x.starts_with("--netrc-file")
            });
        // The client options of the files it reads, the password among them.
        // (`mysql_config_editor print` masks the password.)
        let defaults = c.lb == "my_print_defaults"
            // Keys that decrypt a synced store: atuin's history key, a
            // borg repository's key exported to standard output.
            || c.lb == "atuin" && verbs.first().is_some_and(|v| v == "key")
            || c.lb == "borg" && verbs.starts_with(&["key".to_string(), "export".to_string()]) && verbs.len() <= 3;
        if whoami || netrc_traced || defaults {
            self.block(format!(
                "reveals credentials ({} prints the credentials it signs in with)",
                c.base
            ));
        }
        // Printed only into a sign-in's or a secret store's input, or a
        // count: used, not shown (`gh auth token | docker login
        // --password-stdin`).
        let service = Some(super::tokens::printer_service(&c.lb));
        if (after_auth || printed || self_printing) && super::handoffs::handed_on(c, service) {
            self.ask(format!(
                "{} {} hands a sign-in token to the next command",
                c.base,
                verbs.join(" ")
            ));
        } else if after_auth || printed || self_printing {
            self.block(format!(
                "reveals credentials ({} {} prints a sign-in token)",
                c.base,
                verbs.join(" ")
            ));
        }
        if let Some(f) = c.args.iter().find(|x| {
            let l = lower(x);
            UNMASK_FLAGS
                .iter()
                .any(|u| l == *u || eq_value(&l, u).is_some())
        }) {
            self.block(format!(
                "reveals credentials ({} {f} prints what it otherwise masks)",
                c.base
            ));
        }
    }

    /// `pass git …`, `gopass git …`: git in the password store. What sends
    /// the store's history elsewhere (a new remote, a bundle, mail) is
    /// the store leaving; a push to the remote it syncs with asks.
    pub(super) fn store_git(&mut self, c: &Cmd<'_>) -> bool {
        let rest: Vec<String> = c.args.iter().skip(1).map(|x| lower(x)).collect();
        let sub = rest
            .iter()
            .find(|x| !x.starts_with('-'))
            .cloned()
            .unwrap_or_default();
        // A URL, scp-like `host:path` or `user@host` names another place.
        let names_place = rest
            .iter()
            .skip_while(|x| **x != sub)
            .skip(1)
            .any(|x| !x.starts_with('-') && (x.contains(':') || x.contains('@')));
        // Options before the command (`-c remote.x.url=…`, `-C DIR`) are
        // settings of this one run: anything may hide there.
        let options_first = rest.first().is_some_and(|x| x.starts_with('-'));
        let leaves = options_first
            || matches!(
                sub.as_str(),
                "remote"
                    | "config"
                    | "bundle"
                    | "send-email"
                    | "format-patch"
                    | "archive"
                    | "clone"
                    | "daemon"
                    | "instaweb"
                    | "request-pull"
            )
            || sub == "push" && names_place;
        if leaves {
            self.block(format!(
                "exfiltration ({} git {sub} sends the password store's history elsewhere)",
                c.base
            ));
        }
        self.ask(format!("{} git {sub} works on the password store", c.base));
        false
    }

    /// rclone: its config holds every remote's token.
    pub(super) fn rclone(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let ops = c.operands_lower();
        let flags_ok = c
            .args
            .iter()
            .filter(|x| x.starts_with('-'))
            .all(|x| matches!(x.as_str(), "--long" | "--json" | "-q" | "--quiet"));
        // The verbs anywhere among the operands (`rclone --log-level INFO
        // config dump`): an option's value may come first.
        let reveals = ops.windows(2).any(|w| {
            w[0] == "config" && matches!(w[1].as_str(), "dump" | "show" | "userinfo")
                || w[0] == "rc" && (w[1].starts_with("config/") || w[1] == "core/obscure")
        }) || ops.iter().any(|o| o == "reveal");
        if reveals {
            self.block(format!(
                "reveals credentials ({} {} prints the remotes' tokens and passwords)",
                c.base,
                ops.join(" ")
            ));
            return Some(false);
        }
        // What it deletes on this machine (a remote's `name:path` is not).
        if let Some(verb) = ops.first()
            && matches!(
                verb.as_str(),
                "delete" | "purge" | "deletefile" | "rmdir" | "rmdirs" | "sync" | "move"
            )
        {
            let targets: Vec<Word> = c.operand_words().into_iter().skip(1).collect();
            // `sync SRC DST` and `move SRC DST` empty DST or SRC of what the
            // other lacks.
            let local = |w: &Word| !w.text.contains(':') || w.text.starts_with(['/', '~', '.']);
            let deleted: Vec<&Word> = match verb.as_str() {
                "sync" => targets.get(1).into_iter().collect(),
                "move" => targets.first().into_iter().collect(),
                _ => targets.iter().collect(),
            };
            for w in deleted.into_iter().filter(|w| local(w)) {
                self.delete_path(w, verb != "deletefile", c.cwd(), "rclone");
            }
        }
        match ops
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["listremotes"]
            | ["version"]
            | ["help", ..]
            | ["config", "file" | "paths" | "providers"]
                if flags_ok =>
            {
                Some(true)
            }
            _ => None,
        }
    }
}

/// gpg asked only to list, show or verify: key names and fingerprints, and
/// a signature's check. Operand files are read.
pub(super) fn gpg_reads(args: &[String]) -> Option<Vec<usize>> {
    const COMMANDS: &[&str] = &[
        "--list-keys",
        "-k",
        "--list-public-keys",
        "--list-secret-keys",
        "-K",
        "--list-sigs",
        "--check-sigs",
        "--fingerprint",
        "--show-keys",
        "--verify",
        "--list-config",
        "--version",
    ];
    const FLAGS: &[&str] = &[
        "--with-colons",
        "--with-fingerprint",
        "--with-subkey-fingerprint",
        "--with-keygrip",
        "--with-sig-list",
        "--batch",
        "--no-tty",
        "-q",
        "--quiet",
        "-v",
        "--verbose",
        "--keyid-format",
        "--list-options",
        "--verify-options",
        "--import-options",
    ];
    // `--list-options show-photos` starts a viewer program.
    if args
        .iter()
        .any(|a| a.contains("show-photo") || a.contains("photo-viewer"))
    {
        return None;
    }
    let mut command = false;
    let mut operands = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let key = a.split_once('=').map(|(k, _)| k).unwrap_or(a);
        if COMMANDS.contains(&key) {
            command = true;
        } else if FLAGS.contains(&key) {
            // `--keyid-format long`: the value is the next word.
            if !a.contains('=') && key.ends_with("-format")
                || key.ends_with("-options") && !a.contains('=')
            {
                i += 1;
            }
        } else if a.starts_with('-') {
            return None;
        } else {
            operands.push(i);
        }
        i += 1;
    }
    command.then_some(operands)
}
