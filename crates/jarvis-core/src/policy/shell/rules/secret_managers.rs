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
    "list",
    "-r",
    "--read-password",
    "unlock",
    "decrypt",
    "-d",
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
        // Help and versions print the tool's own text.
        let help = args.iter().any(|x| matches!(*x, "-h" | "--help" | "-help"));
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
            let line = command
                .iter()
                .map(|w| crate::policy::shell::quote(w))
                .collect::<Vec<_>>()
                .join(" ");
            // One string (`sops exec-env F 'cmd …'`) is a shell line.
            let line = match command.as_slice() {
                [one] if one.contains(' ') => (*one).to_string(),
                _ => line,
            };
            self.script(&line, &[], c.depth + 1);
            // The environment printed is the secrets printed (1Password
            // masks them in its output unless told not to).
            let masked = lb == "op" && !args.contains(&"--no-masking");
            let dumps = parse::parse(&line, &[])
                .commands
                .iter()
                .any(|k| super::pipe_sources::dumps_env(peeled(&k.argv)));
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
        let verbs: Vec<&str> = args
            .iter()
            .copied()
            .filter(|x| !x.starts_with('-'))
            .collect();
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
                )
            });
        // age encrypts to a public recipient (`-r`) unless told to decrypt;
        // Vault's `token create` prints the new token.
        let reads = match lb {
            "age" => args.iter().any(|x| matches!(*x, "-d" | "--decrypt")),
            "vault" if args.windows(2).any(|w| w == ["token", "create"]) => true,
            _ => reads && !writes,
        };
        if reads || pass_reads || args.is_empty() && !matches!(lb, "pass" | "passage") {
            self.block(format!("reads stored secrets ({b})"));
        }
        // `bw config server URL` then `bw login`: the master password
        // goes to that server.
        let signs_in_later = c.script.commands.iter().any(|k| {
            k.argv
                .first()
                .is_some_and(|w| program_name(&w.text) == "bw")
                && k.argv
                    .get(1)
                    .is_some_and(|w| matches!(w.text.as_str(), "login" | "unlock"))
        });
        if lb == "bw" && args.starts_with(&["config", "server"]) && args.len() > 2 && signs_in_later
        {
            self.block(
                "sends the Bitwarden login to another server (bw config server, then bw login)",
            );
        }
        // `bw serve --hostname 0.0.0.0`: the unlocked vault's API for
        // every machine that can reach this one.
        if lb == "bw" && first == Some("serve") {
            let host = c.value("--hostname").map(|w| w.text.clone());
            if host.is_some_and(|h| !super::project_out::is_loopback(&h) || h == "0.0.0.0") {
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
    let after_dashes = || {
        args.iter()
            .position(|a| *a == "--")
            .map(|i| args[i + 1..].to_vec())
    };
    match (lb, args.first().copied()) {
        ("op" | "doppler" | "infisical", Some("run")) => after_dashes(),
        ("chamber" | "berglas", Some("exec")) => after_dashes(),
        ("sops", Some("exec-env" | "exec-file")) => {
            let ops: Vec<&str> = args[1..]
                .iter()
                .copied()
                .filter(|a| !a.starts_with('-'))
                .collect();
            ops.get(1..).map(<[&str]>::to_vec).filter(|v| !v.is_empty())
        }
        ("envchain", Some(ns)) if !ns.starts_with('-') => args
            .get(2..)
            .map(<[&str]>::to_vec)
            .filter(|v| !v.is_empty()),
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
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let first = args.iter().find(|x| !x.starts_with('-')).copied();
        match (c.lb.as_str(), first) {
            ("chezmoi", Some("execute-template" | "cat" | "secret")) => {
                let text = lower(&c.args.join(" "));
                let reads = first == Some("secret")
                    || text.contains("{{")
                        && TEMPLATE_SECRETS.iter().any(|f| {
                            text.match_indices(f).any(|(i, _)| {
                                let before = text[..i].chars().next_back();
                                let after = text[i + f.len()..].chars().next();
                                before.is_some_and(|ch| matches!(ch, ' ' | '(' | '{'))
                                    && after.is_some_and(|ch| matches!(ch, ' ' | '"' | ')'))
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
                if args.iter().any(|x| matches!(*x, "--apply" | "-a"))
                    && args.iter().filter(|x| !x.starts_with('-')).count() > 1 =>
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
                if file.is_none_or(|f| f == "-" || f == "/dev/stdout") || sent {
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
