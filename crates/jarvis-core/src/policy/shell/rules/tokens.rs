//! Which service a token variable belongs to, and the host a command
//! sends it to: a token in a header or a login belongs at its own service.

use super::*;

/// Host suffixes each family of token variables is issued for; a host
/// naming the service (`gitlab.company.com`, `github.corp.example`) is a
/// self-hosted one.
const SERVICES: &[(&[&str], &[&str])] = &[
    (
        &["GITHUB", "GH_"],
        &["github.com", "githubusercontent.com", "ghcr.io", "github"],
    ),
    (&["GITLAB"], &["gitlab.com", "gitlab"]),
    (
        &["NPM"],
        &[
            "npmjs.org",
            "npmjs.com",
            "yarnpkg.com",
            "github.com",
            "npm",
            "registry",
        ],
    ),
    (
        &["AWS"],
        &[
            "amazonaws.com",
            "aws.amazon.com",
            "cloudflarestorage.com",
            "digitaloceanspaces.com",
            "backblazeb2.com",
            "wasabisys.com",
            "minio",
        ],
    ),
    (&["OPENAI"], &["openai.com", "openai.azure.com"]),
    (&["ANTHROPIC"], &["anthropic.com"]),
    (&["HF_", "HUGGING"], &["huggingface.co", "hf.co"]),
    (&["SLACK"], &["slack.com"]),
    (&["STRIPE"], &["stripe.com"]),
    (&["DOCKER"], &["docker.io", "docker.com"]),
    (&["PYPI", "TWINE"], &["pypi.org"]),
    (&["CARGO", "CRATES"], &["crates.io"]),
    (&["SENTRY"], &["sentry.io"]),
    (&["HEROKU"], &["heroku.com"]),
    (&["VERCEL"], &["vercel.com"]),
    (&["NETLIFY"], &["netlify.com"]),
    (&["TELEGRAM", "TG_BOT"], &["api.telegram.org"]),
    (&["DISCORD"], &["discord.com", "discordapp.com"]),
    (&["TWILIO"], &["twilio.com"]),
    (&["SENDGRID"], &["sendgrid.com"]),
    (&["MAILGUN"], &["mailgun.net"]),
    (&["CLOUDFLARE", "CF_API"], &["cloudflare.com"]),
    (&["DIGITALOCEAN", "DO_TOKEN"], &["digitalocean.com"]),
    (&["LINEAR"], &["linear.app"]),
    (&["NOTION"], &["notion.com", "notion.so"]),
];

/// The host the command sends to that is not `var`'s service, when `var`
/// is a known service's token (an unknown token's owner cannot be told;
/// the local network is the user's).
pub(super) fn foreign_host(var: &str, args: &[String]) -> Option<String> {
    let hosts = service_hosts(var)?;
    // A request signed for S3 (`--aws-sigv4`) goes to whichever store the
    // user runs.
    if args.iter().any(|a| a.starts_with("--aws-sigv4")) {
        return None;
    }
    let words: Vec<Word> = args.iter().map(Word::lit).collect();
    let dest = super::project_out::destination_url(&words)?;
    (!serves(hosts, &dest)).then_some(dest)
}

/// The hosts the service of token variable `var` answers on.
pub(super) fn service_hosts(var: &str) -> Option<&'static [&'static str]> {
    let upper = var.to_ascii_uppercase();
    SERVICES
        .iter()
        .find(|(prefixes, _)| prefixes.iter().any(|p| upper.starts_with(p)))
        .map(|(_, hosts)| *hosts)
}

/// The hosts the sign-in token a CLI prints is issued for (`gh auth
/// token`, `aws ecr get-login-password`, `gcloud auth print-access-token`).
pub(super) fn printer_service(lb: &str) -> &'static [&'static str] {
    match lb {
        "gh" | "hub" => &["github.com", "ghcr.io", "githubusercontent.com"],
        "glab" => &["gitlab.com", "gitlab"],
        "aws" => &["amazonaws.com", "aws.amazon.com"],
        "gcloud" => &["gcr.io", "pkg.dev", "googleapis.com", "google.com"],
        "az" => &["azurecr.io", "azure.com", "microsoft.com"],
        "heroku" => &["heroku.com"],
        "doctl" => &["digitalocean.com", "docr.io"],
        "flyctl" | "fly" => &["fly.io"],
        "vercel" => &["vercel.com"],
        "netlify" => &["netlify.com"],
        "npm" | "pnpm" | "yarn" => &["npmjs.org", "npmjs.com"],
        _ => &[],
    }
}

/// `host` is one of `hosts`, a subdomain of one, or a self-hosted
/// instance named for the service.
pub(super) fn serves(hosts: &[&str], host: &str) -> bool {
    hosts.iter().any(|s| {
        if s.contains('.') {
            host == *s || host.ends_with(&format!(".{s}"))
        } else {
            host.split('.').any(|label| label.contains(s))
        }
    })
}

/// `host` is one of `hosts` with a dot (a registered name) or a subdomain
/// of one: a host merely named like the service is anyone's.
pub(super) fn serves_strictly(hosts: &[&str], host: &str) -> bool {
    hosts
        .iter()
        .filter(|s| s.contains('.'))
        .any(|s| host == *s || host.ends_with(&format!(".{s}")))
}

/// A token whose service is known, in its credential slot of a request
/// that goes only there: the `bot<token>` path of Telegram's API or a
/// `token=`/`access_token=`/`key=` parameter, in the URL word `url` or in
/// a form body (`word`), which curl sends to every URL on the line. A
/// token anywhere else (a message's text) is data, whatever the host: the
/// same service serves accounts of anyone's (a bot, a webhook, a bucket).
/// Options that point the name at another address (`--resolve`, a proxy,
/// `-k` that accepts any certificate) make the host unknown.
pub(super) fn own_service(var: &str, args: &[String], url: Option<&str>, word: &str) -> bool {
    let Some(hosts) = service_hosts(var) else {
        return false;
    };
    if !in_credential_slot(word, var) {
        return false;
    }
    let rerouted = args.iter().any(|a| {
        let flag = a.split('=').next().unwrap_or(a);
        matches!(
            flag,
            "--resolve"
                | "--connect-to"
                | "-x"
                | "--proxy"
                | "--preproxy"
                | "-k"
                | "--insecure"
                | "--doh-url"
                | "-K"
                | "--config"
                | "--cacert"
                | "--capath"
                | "--no-check-certificate"
                | "-e"
                | "--execute"
        ) || flag.starts_with("--socks")
            || short_flags(a).is_some_and(|b| b.contains(['x', 'k', 'K']))
    });
    if rerouted {
        return false;
    }
    // Only the service's own registered names: a host merely named like
    // it (`github.attacker.example`) is anyone's.
    let own = |address: &str| {
        let rest = address.split_once("://").map_or(address, |(_, r)| r);
        let h = super::project_out::address_host(rest);
        !h.is_empty() && serves_strictly(hosts, &h)
    };
    // Every mention of the token on the line sits in a credential slot (the
    // same token as a message's text goes to whoever reads the message).
    if !args
        .iter()
        .filter(|a| plain_mentions(a, var) > 0)
        .all(|a| in_credential_slot(a, var))
    {
        return false;
    }
    let words: Vec<Word> = args.iter().map(Word::lit).collect();
    // Every operand is an address curl goes to (`curl URL 3405803783`
    // reaches a host written as a number): each must be the service's.
    let operands = super::project_out::curl_operands(&words);
    match url {
        // The address itself, not a referer or a header naming one.
        Some(u) => u.starts_with("https://") && operands.contains(&u) && own(u),
        None => !operands.is_empty() && operands.iter().all(|u| own(u)),
    }
}

/// How many times `word` spells `$VAR` or `${VAR}`.
fn plain_mentions(word: &str, var: &str) -> usize {
    word.matches(&format!("${var}")).count() + word.matches(&format!("${{{var}}}")).count()
}

/// `$VAR` (or `${VAR}`) as the credential of `word` at every mention:
/// right after `/bot` in a path, or the value of a parameter named for a
/// credential.
fn in_credential_slot(word: &str, var: &str) -> bool {
    let spellings = [format!("${var}"), format!("${{{var}}}")];
    plain_mentions(word, var) > 0
        && spellings.iter().all(|v| {
            word.match_indices(v.as_str()).all(|(at, _)| {
                let before = &word[..at];
                let after = &word[at + v.len()..];
                let ends = after.is_empty() || after.starts_with(['/', '&', '"', '\'']);
                let param = before
                    .rsplit(['?', '&', '"', '\''])
                    .next()
                    .and_then(|p| p.strip_suffix('='))
                    .is_some_and(|name| {
                        matches!(
                            name.to_ascii_lowercase().as_str(),
                            "token"
                                | "access_token"
                                | "private_token"
                                | "api_key"
                                | "apikey"
                                | "key"
                                | "auth"
                                | "oauth_token"
                        )
                    });
                ends && (before.ends_with("/bot") || param)
            })
        })
}

/// The word is the variable's whole value and nothing else: `$NAME` or
/// `${NAME}`, not a slice or a pattern of it.
pub(super) fn plain_reference(text: &str, name: &str) -> bool {
    text == format!("${name}") || text == format!("${{{name}}}")
}
