//! Which service a token variable belongs to, and the host a command
//! sends it to: a token in a header or a login belongs at its own service.

use super::*;

/// Host suffixes each family of token variables is issued for.
const SERVICES: &[(&[&str], &[&str])] = &[
    (&["GITHUB", "GH_"], &["github.com", "githubusercontent.com"]),
    (&["GITLAB"], &["gitlab.com"]),
    (&["NPM"], &["npmjs.org", "npmjs.com"]),
    (&["AWS"], &["amazonaws.com", "aws.amazon.com"]),
    (&["OPENAI"], &["openai.com"]),
    (&["ANTHROPIC"], &["anthropic.com"]),
    (&["HF_", "HUGGING"], &["huggingface.co"]),
    (&["SLACK"], &["slack.com"]),
    (&["STRIPE"], &["stripe.com"]),
    (&["DOCKER"], &["docker.io", "docker.com"]),
    (&["CLOUDFLARE", "CF_"], &["cloudflare.com"]),
    (
        &["GOOGLE", "GCP", "GCLOUD"],
        &["googleapis.com", "google.com"],
    ),
    (&["AZURE"], &["azure.com", "microsoft.com", "windows.net"]),
    (&["PYPI", "TWINE"], &["pypi.org"]),
    (&["CARGO", "CRATES"], &["crates.io"]),
    (&["SENTRY"], &["sentry.io"]),
    (&["DIGITALOCEAN", "DO_"], &["digitalocean.com"]),
    (&["HEROKU"], &["heroku.com"]),
    (&["VERCEL"], &["vercel.com"]),
    (&["NETLIFY"], &["netlify.com"]),
];

/// The host the command names that is not `var`'s service, when `var` is
/// a known service's token (an unknown token's owner cannot be told).
pub(super) fn foreign_host(var: &str, args: &[String]) -> Option<String> {
    let upper = var.to_ascii_uppercase();
    let (_, hosts) = SERVICES
        .iter()
        .find(|(prefixes, _)| prefixes.iter().any(|p| upper.starts_with(p)))?;
    args.iter().filter_map(|a| url_host(a)).find(|h| {
        let local = h == "localhost" || h.starts_with("127.") || h == "[::1]";
        !local
            && !hosts
                .iter()
                .any(|s| h == s || h.ends_with(&format!(".{s}")))
    })
}

/// The host of a URL in `a` (`https://user:pw@host:443/p` → `host`).
fn url_host(a: &str) -> Option<String> {
    let (_, rest) = a.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit('@').next().unwrap_or("");
    let host = host.rsplit_once(':').map_or(host, |(h, port)| {
        if port.chars().all(|ch| ch.is_ascii_digit()) {
            h
        } else {
            host
        }
    });
    (!host.is_empty()).then(|| lower(host))
}
