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
];

/// The host the command sends to that is not `var`'s service, when `var`
/// is a known service's token (an unknown token's owner cannot be told;
/// the local network is the user's).
pub(super) fn foreign_host(var: &str, args: &[String]) -> Option<String> {
    let upper = var.to_ascii_uppercase();
    let (_, hosts) = SERVICES
        .iter()
        .find(|(prefixes, _)| prefixes.iter().any(|p| upper.starts_with(p)))?;
    // A request signed for S3 (`--aws-sigv4`) goes to whichever store the
    // user runs.
    if args.iter().any(|a| a.starts_with("--aws-sigv4")) {
        return None;
    }
    let words: Vec<Word> = args.iter().map(Word::lit).collect();
    let dest = super::project_out::destination_url(&words)?;
    let own = hosts.iter().any(|s| {
        if s.contains('.') {
            dest == *s || dest.ends_with(&format!(".{s}"))
        } else {
            dest.split('.').any(|label| label.contains(s))
        }
    });
    (!own).then_some(dest)
}

/// The word is the variable's whole value and nothing else: `$NAME` or
/// `${NAME}`, not a slice or a pattern of it.
pub(super) fn plain_reference(text: &str, name: &str) -> bool {
    text == format!("${name}") || text == format!("${{{name}}}")
}
