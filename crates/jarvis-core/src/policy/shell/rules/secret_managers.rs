//! Password and secret managers (pass, Bitwarden, 1Password, Vault, SOPS,
//! age, Doppler, Infisical, KeePassXC, the Secret Service): what prints a
//! secret blocks; a command run with the secrets in its environment is
//! judged as that command; storing a secret, help and versions do not.

use super::*;

/// Verbs that print or hand out what the store holds.
const READ_VERBS: &[&str] = &[
    "lookup",
    "search",
    "show",
    "read",
    "get",
    "print",
    "export",
    "--read-password",
    "unlock",
    "decrypt",
    "--decrypt",
    "item",
    "view",
    "inject",
    "kv",
    "pipe",
    "download",
    "secrets",
];

/// Verbs that store, remove or move a secret, or sign in.
const WRITE_VERBS: &[&str] = &[
    "put",
    "patch",
    "delete",
    "destroy",
    "undelete",
    "rollback",
    "set",
    "store",
    "insert",
    "create",
    "edit",
    "rm",
    "login",
    "logout",
    "sync",
    "encrypt",
    "-e",
    "--encrypt",
];

impl Analyzer<'_> {
    pub(super) fn secret_manager(&mut self, c: &Cmd<'_>) -> bool {
        let lb = c.lb.as_str();
        let b = c.base.as_str();
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        // Jarvis's own entry (its API key), replaced or removed.
        if c.words[1..].iter().any(|w| self.mentions_self(w)) {
            self.block(format!("changes Jarvis's own keyring entry ({b})"));
        }
        // Help and versions print the tool's own text (before the command
        // a runner starts: `op run -- sh -c … -h` runs sh).
        let own = args.iter().position(|x| *x == "--").unwrap_or(args.len());
        let help = secret_runner(lb, &args).is_none()
            && args[..own]
                .iter()
                .any(|x| matches!(*x, "-h" | "--help" | "-help"));
        let version = !args.is_empty()
            && args.iter().all(|x| {
                matches!(
                    *x,
                    "--version" | "-V" | "version" | "--disable-version-check"
                )
            });
        if help || version {
            return true;
        }
        if let Some(command) = secret_runner(lb, &args) {
            let line = crate::policy::shell::quoted_line(&command);
            // One string (`sops exec-env F 'cmd …'`) is a shell line.
            let line = match command.as_slice() {
                [one] if one.contains(' ') => (*one).to_string(),
                _ => line,
            };
            self.script(&line, &[], c.depth + 1);
            // The environment printed is the secrets printed (1Password
            // masks them in its output unless told not to).
            // (`OP_RUN_NO_MASKING` set before it, exported, or given to env.)
            let unmasked_env = c.script.commands.iter().any(|k| {
                k.assigns.iter().any(|(n, _)| n == "OP_RUN_NO_MASKING")
                    || k.argv
                        .iter()
                        .any(|w| w.text.starts_with("OP_RUN_NO_MASKING="))
            });
            let masked =
                lb == "op" && !args.iter().any(|a| a.starts_with("--no-masking")) && !unmasked_env;
            // (One level into `sh -c '…'`: the dump inside it.)
            let dumps_in = |text: &str| {
                parse::parse(text, &[])
                    .commands
                    .iter()
                    .any(|k| super::pipe_sources::dumps_env(peeled(&k.argv)))
            };
            let dumps = dumps_in(&line)
                || parse::parse(&line, &[]).commands.iter().any(|k| {
                    let pa = peeled(&k.argv);
                    pa.first().is_some_and(|w| is_shell(&program_name(&w.text)))
                        && pa.windows(2).any(|w| {
                            (w[0].text == "-c"
                                || short_flags(&w[0].text).is_some_and(|f| f.ends_with('c')))
                                && dumps_in(&w[1].text)
                        })
                });
            if dumps && !masked {
                self.block(format!(
                    "reveals stored secrets ({b} runs a command that prints its environment)"
                ));
            }
            self.ask(format!(
                "{b} runs a command with stored secrets in its environment"
            ));
            return false;
        }
        let first = args.iter().find(|x| !x.starts_with('-')).copied();
        let reads = args.iter().any(|x| READ_VERBS.contains(x));
        // (`vault kv put`, `doppler secrets set`, `op item create`: the
        // verb within the first words.)
        // (Past global options and their values: `chamber -r 3 env`.)
        let mut verbs: Vec<&str> = Vec::new();
        let mut skip = false;
        for x in &args {
            if std::mem::take(&mut skip) {
                continue;
            }
            if x.starts_with('-') {
                skip = !x.contains('=')
                    && matches!(
                        *x,
                        "-r" | "--retries"
                            | "--log-level"
                            | "--backend"
                            | "--session"
                            | "--account"
                            | "--project"
                            | "--config"
                            | "--search"
                            | "--token"
                    );
                continue;
            }
            verbs.push(x);
        }
        let writes = match verbs.as_slice() {
            [v, ..] if WRITE_VERBS.contains(v) || lb == "vault" && *v == "write" => true,
            // A noun, then its verb (`vault kv put`, `op item create`).
            [noun, v, ..] => {
                matches!(
                    *noun,
                    "kv" | "item" | "items" | "secrets" | "secret" | "document" | "config"
                ) && WRITE_VERBS.contains(v)
            }
            _ => false,
        };
        // `pass NAME` prints a password; `pass` alone lists names.
        let pass_reads = matches!(lb, "pass" | "gopass" | "passage")
            && first.is_some_and(|x| {
                !matches!(
                    x,
                    "ls" | "init"
                        | "insert"
                        | "generate"
                        | "edit"
                        | "rm"
                        | "mv"
                        | "cp"
                        | "git"
                        | "version"
                        | "help"
                        | "find"
                        | "search"
                        | "setup"
                        | "mounts"
                        | "sync"
                        | "list"
                        | "recipients"
                        | "templates"
                        | "config"
                )
            });
        // age encrypts to a public recipient (`-r`) unless told to decrypt;
        // Vault's `token create` prints the new token.
        // New tokens are printed as made (`vault token create`, `doppler
        // configs tokens create`, `op service-account create`).
        let mints = args.windows(2).any(|w| {
            matches!(
                w[0],
                "token" | "tokens" | "service-token" | "service-account"
            ) && matches!(w[1], "create" | "create-orphan")
        }) || lb == "vault"
            && args.iter().any(|a| {
                // (`/auth/token/create`, `…/secret-id/`: the same paths.)
                let a = a.trim_matches('/');
                a == "unwrap"
                    || a.contains("wrapping/unwrap")
                    || a.ends_with("/secret-id")
                    || a == "create-orphan"
                    || a.starts_with("auth/token/create")
                    || a.contains("/login")
            });
        let reads = match lb {
            "age" => args.iter().any(|x| matches!(*x, "-d" | "--decrypt")),
            "sops" | "ansible-vault" => reads || args.contains(&"-d"),
            _ if mints => true,
            // `bw list items`: whole items, passwords with them.
            "bw" if verbs.starts_with(&["list", "items"]) => true,
            // `chamber env`, `berglas access`: every value, one value.
            "chamber" if verbs.first() == Some(&"env") => true,
            "berglas" if verbs.first() == Some(&"access") => true,
            "chamber" if args.iter().any(|a| matches!(*a, "-e" | "--expand")) => true,
            // `vault kv list`, `op item list`: names, not values (`bw list
            // items` prints whole items, passwords with them; `chamber
            // list -e` the values).
            _ if matches!(
                verbs.as_slice(),
                [_, "list" | "ls", ..] | ["list" | "ls", ..]
            ) && lb != "bw"
                && !args.iter().any(|a| matches!(*a, "-e" | "--expand")) =>
            {
                false
            }
            _ => reads && !writes,
        };
        if reads || pass_reads || args.is_empty() && !matches!(lb, "pass" | "passage") {
            self.block(format!("reads stored secrets ({b})"));
        }
        // `bw serve --hostname 0.0.0.0`: the unlocked vault's API for
        // every machine that can reach this one.
        if lb == "bw" && first == Some("serve") {
            let host = c.value("--hostname").map(|w| w.text.clone()).or_else(|| {
                args.iter()
                    .find_map(|a| a.strip_prefix("--hostname="))
                    .map(str::to_string)
            });
            if host.is_some_and(|h| {
                !super::project_out::is_loopback(&h)
                    || super::infra::every_interface(&h)
                    || h == "0"
            }) {
                self.block("serves the unlocked Bitwarden vault to the network (bw serve)");
            }
        }
        self.ask(b.to_string());
        false
    }
}

/// The command a secrets runner starts with the secrets in its
/// environment: `op run -- CMD`, `doppler run -- CMD`, `infisical run --
/// CMD`, `chamber exec SVC -- CMD`, `sops exec-env FILE 'CMD'`,
/// `envchain NS CMD`.
fn secret_runner<'a>(lb: &str, args: &[&'a str]) -> Option<Vec<&'a str>> {
    let after_dashes = |from: usize| {
        args.iter()
            .skip(from)
            .position(|a| *a == "--")
            .map(|i| args[from + i + 1..].to_vec())
            // `doppler run --command 'env'`: the line given as an option.
            .or_else(|| {
                args.iter().enumerate().skip(from).find_map(|(i, a)| {
                    a.strip_prefix("--command=").map(|v| vec![v]).or_else(|| {
                        (*a == "--command")
                            .then(|| args.get(i + 1).map(|v| vec![*v]))
                            .flatten()
                    })
                })
            })
    };
    // (Global options may come first: `doppler --debug run -- …`.)
    let verb_at = |verbs: &[&str]| args.iter().position(|a| verbs.contains(a));
    match lb {
        "op" | "doppler" | "infisical" => verb_at(&["run"]).and_then(after_dashes),
        "chamber" | "berglas" | "saml2aws" => verb_at(&["exec"]).and_then(after_dashes),
        "teller" => verb_at(&["run"]).and_then(after_dashes),
        // `aws-vault exec PROFILE [--] CMD`.
        "aws-vault" => {
            let at = verb_at(&["exec"])?;
            after_dashes(at).or_else(|| {
                let rest: Vec<&str> = args[at + 1..]
                    .iter()
                    .copied()
                    .skip_while(|a| a.starts_with('-'))
                    .skip(1)
                    .collect();
                (!rest.is_empty()).then_some(rest)
            })
        }
        // `summon [-p PROVIDER] [-f secrets.yml] CMD`.
        "summon" => after_dashes(0).or_else(|| {
            let mut k = 0;
            while let Some(a) = args.get(k) {
                match *a {
                    "-p" | "--provider" | "-f" | "-D" | "--up" | "--environment" | "-e" => k += 2,
                    a if a.starts_with('-') => k += 1,
                    _ => return Some(args[k..].to_vec()),
                }
            }
            None
        }),
        "sops" => {
            let at = verb_at(&["exec-env", "exec-file"])?;
            let mut ops = Vec::new();
            let mut k = at + 1;
            while let Some(a) = args.get(k) {
                if matches!(*a, "--user" | "--filename") {
                    k += 2;
                    continue;
                }
                if !a.starts_with('-') {
                    ops.push(*a);
                }
                k += 1;
            }
            ops.get(1..).map(<[&str]>::to_vec).filter(|v| !v.is_empty())
        }
        // (`envchain --set NS VAR` stores; it runs nothing.)
        "envchain" if !args.iter().any(|a| matches!(*a, "--set" | "-s")) => {
            let ns = args.iter().position(|a| !a.starts_with('-'))?;
            args.get(ns + 1..)
                .map(<[&str]>::to_vec)
                .filter(|v| !v.is_empty())
        }
        _ => None,
    }
}

/// chezmoi's template functions that read a password manager.
const TEMPLATE_SECRETS: &[&str] = &[
    "bitwarden",
    "onepassword",
    "pass",
    "passraw",
    "passfields",
    "gopass",
    "keepassxc",
    "keeper",
    "lastpass",
    "vault",
    "secret",
    "secretjson",
    "awssecretsmanager",
    "azurekeyvault",
    "doppler",
    "hcpvaultsecret",
    "ejsondecrypt",
    "keyring",
    "dashlanepassword",
    "protonpass",
];

impl Analyzer<'_> {
    /// Dotfile and repository-secret tools: chezmoi's templates that read
    /// a password manager, `init --apply` from a repository, git-crypt's
    /// key exported and sent.
    pub(super) fn dotfile_secrets(&mut self, c: &Cmd<'_>) {
        if !matches!(c.lb.as_str(), "chezmoi" | "git-crypt") {
            return;
        }
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let first = args.iter().find(|x| !x.starts_with('-')).copied();
        match (c.lb.as_str(), first) {
            ("chezmoi", Some("execute-template" | "cat" | "secret")) => {
                // The template given, or fed on standard input.
                let mut text = lower(&c.args.join(" "));
                if let Some(feeder) = c.src.stdin_from.and_then(|i| c.script.commands.get(i))
                    && let Some(fed) = super::super::eval::printed(feeder)
                {
                    text.push_str(&lower(&fed));
                }
                for body in c.src.redirects.iter().filter_map(|r| r.body.as_ref()) {
                    text.push_str(&lower(&body.text));
                }
                // (Each function by its name's start: `onepasswordRead`,
                // `bitwardenFields` read the same stores.)
                let reads = first == Some("secret")
                    || text.contains("{{")
                        && TEMPLATE_SECRETS.iter().any(|f| {
                            text.match_indices(f).any(|(i, _)| {
                                let before = text[..i].chars().next_back();
                                before.is_some_and(|ch| {
                                    ch.is_whitespace() || matches!(ch, '(' | '{' | '|' | '-')
                                })
                            })
                        });
                if reads {
                    self.secret_printed(
                        c,
                        "a password manager's secret (a chezmoi template reads it)",
                    );
                }
            }
            // Another repository's dotfiles written over this home and its
            // `run_` scripts run.
            ("chezmoi", Some("init"))
                if args.iter().any(|x| {
                    matches!(*x, "--apply" | "-a" | "--one-shot")
                        || x.starts_with('-') && !x.starts_with("--") && x.contains('a')
                        || x.strip_prefix("--apply=")
                            .is_some_and(|v| !matches!(lower(v).as_str(), "false" | "0" | "f"))
                }) && args.iter().filter(|x| !x.starts_with('-')).count() > 1 =>
            {
                self.block("download and execute (chezmoi init --apply writes a repository's dotfiles over home and runs its scripts)");
            }
            ("git-crypt", Some("export-key")) => {
                let file = args.iter().filter(|x| !x.starts_with('-')).nth(1).copied();
                let sent = file.is_some_and(|f| {
                    c.script.commands.iter().any(|k| {
                        let sender = k.argv.first().is_some_and(|w| {
                            let p = program_name(&w.text);
                            tables::FETCHERS.contains(&p.as_str()) || super::captures::is_sender(&p)
                        });
                        sender && k.argv.iter().any(|w| w.text.contains(f))
                    })
                });
                // Shown (`-`, standard output by any name), handed to a
                // process substitution, or read by a later command.
                let shown = file.is_none_or(|f| super::backups::to_output(&paths::squeezed(f)))
                    || c.words.iter().any(|w| w.procsub);
                let read_later = file.is_some_and(|f| {
                    c.script.commands.iter().any(|k| {
                        !std::ptr::eq(k, c.src)
                            && (k.argv.iter().skip(1).any(|w| w.text == f)
                                || k.redirects
                                    .iter()
                                    .any(|r| r.op == "<" && r.target.text == f))
                    })
                });
                if shown || sent || read_later {
                    self.block(
                        "reveals the repository's git-crypt key (exported and shown or sent)",
                    );
                }
                self.ask("git-crypt exports the repository's key");
            }
            _ => {}
        }
    }
}
