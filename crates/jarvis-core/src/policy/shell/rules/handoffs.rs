//! Where a secret printed on the output goes: down the pipe into a
//! sign-in's or a secret store's input, or into a count, it is used, not
//! shown.

use super::*;

/// The output goes only down the pipe into a sign-in's or a secret store's
/// input, or a count: a token handed on there is used, not shown. With
/// `service` (the hosts the token is issued for), the sign-in must be
/// that service's: a GitHub token typed into another registry's login is
/// sent there.
pub(super) fn handed_on(c: &Cmd<'_>, service: Option<&[&str]>) -> bool {
    if !c.src.pipes_out || !c.src.redirects.is_empty() {
        return false;
    }
    if into_counter(c) {
        return true;
    }
    let Some(dest) = into_login(c) else {
        return false;
    };
    // A secret store holds other services' tokens (a Sentry token kept as
    // a GitHub Actions secret): the question names the repository.
    match (service, dest) {
        (_, Handed::Store) | (None, _) => true,
        (Some(hosts), Handed::Login(d)) => {
            d.is_some_and(|d| super::tokens::serves_strictly(hosts, &d))
        }
    }
}

/// A sign-in's options that read its secret from the input.
pub(super) const SECRET_FROM_STDIN: &[&str] = &[
    "--password-stdin",
    "--with-token",
    "--token-stdin",
    "--stdin",
];

/// Where a secret read from the input goes.
pub(super) enum Handed {
    /// A sign-in at this host (when the line names it).
    Login(Option<String>),
    /// A service's secret store.
    Store,
}

/// When the next command reads a secret from its input to sign in or to
/// store it (`docker login --password-stdin`, `gh secret set NAME`): the
/// host it goes to, when the line names it.
pub(super) fn into_login(c: &Cmd<'_>) -> Option<Handed> {
    let (next, argv) = super::wrappers::next_stage(c.src, c.script)?;
    // `2>&1`, `>/dev/null`: its own messages moved, the secret not shown.
    let moves_messages = |r: &Redirect| {
        r.target.text.starts_with('&') || r.target.text == "/dev/null" || is_fd(&r.target.text)
    };
    if !next.redirects.iter().all(moves_messages) || next.pipes_out {
        return None;
    }
    let words: Vec<&str> = argv.iter().map(|w| w.text.as_str()).collect();
    let b = words.first().map(|w| base_name(w)).unwrap_or_default();
    let value_of = |flag: &str| {
        words.iter().enumerate().find_map(|(i, w)| {
            eq_value(w, flag).or_else(|| (*w == flag).then(|| words.get(i + 1).copied()).flatten())
        })
    };
    let env_of = |name: &str| {
        next.assigns
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.text.as_str())
    };
    // Only the sign-in of a known tool, run by this machine's own daemon:
    // `docker -H tcp://x login` hands the password to that daemon.
    const LOGINS: &[&str] = &[
        "docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras", "crane", "gh", "glab",
        "npm", "pnpm", "yarn", "cf", "regctl",
    ];
    let elsewhere_daemon = words.iter().any(|w| {
        matches!(*w, "-H" | "--host" | "--context" | "-c")
            || w.starts_with("--host=")
            || w.starts_with("--context=")
    }) || next.assigns.iter().any(|(n, _)| {
        matches!(
            n.as_str(),
            "DOCKER_HOST" | "DOCKER_CONTEXT" | "CONTAINER_HOST"
        )
    });
    let login_at = words
        .iter()
        .position(|w| *w == "login")
        .filter(|_| LOGINS.contains(&b.as_str()) && !elsewhere_daemon);
    let from_stdin = words.iter().any(|w| SECRET_FROM_STDIN.contains(w));
    if let Some(at) = login_at.filter(|_| from_stdin) {
        let dest = match b.as_str() {
            // A host set another way (`-h`, `GH_HOST`) is read as named.
            "gh" | "glab" => {
                let (variable, default) = if b == "gh" {
                    ("GH_HOST", "github.com")
                } else {
                    ("GITLAB_HOST", "gitlab.com")
                };
                Some(
                    value_of("--hostname")
                        .or_else(|| value_of("-h"))
                        .or_else(|| env_of(variable))
                        .unwrap_or(default)
                        .to_string(),
                )
            }
            "npm" | "pnpm" | "yarn" => Some(
                value_of("--registry").map_or("registry.npmjs.org".to_string(), host_of_address),
            ),
            // `docker login [OPTIONS] [SERVER]`: Docker Hub when none.
            _ => {
                let mut server = None;
                let mut skip = false;
                for w in &words[at + 1..] {
                    if std::mem::take(&mut skip) {
                        continue;
                    }
                    if matches!(*w, "-u" | "--username" | "-p" | "--password" | "--authfile") {
                        skip = true;
                    } else if !w.starts_with('-') {
                        server = Some(host_of_address(w));
                        break;
                    }
                }
                Some(server.unwrap_or_else(|| "docker.io".to_string()))
            }
        };
        return Some(Handed::Login(dest));
    }
    // A secret store's setter reading the value from its input (`gh secret
    // set NAME`, `wrangler secret put NAME`): stored at the service.
    let store = match b.as_str() {
        "gh" | "glab" => {
            words.get(1..3) == Some(&["secret", "set"])
                && !words
                    .iter()
                    .any(|w| w.starts_with("-b") || w.starts_with("--body"))
        }
        "wrangler" => words.get(1..3) == Some(&["secret", "put"]),
        "vercel" => words.get(1..3) == Some(&["env", "add"]),
        "fly" | "flyctl" => words.get(1..3) == Some(&["secrets", "import"]),
        _ => false,
    };
    store.then_some(Handed::Store)
}

/// `https://registry.example.com:5000/v2` → `registry.example.com`.
fn host_of_address(a: &str) -> String {
    let rest = a.split_once("://").map_or(a, |(_, r)| r);
    super::project_out::address_host(rest)
}

/// Piped only into `wc`: what comes out is a count (a token's length,
/// whether it is set), never the text.
pub(super) fn into_counter(c: &Cmd<'_>) -> bool {
    super::wrappers::next_stage(c.src, c.script).is_some_and(|(_, argv)| {
        argv.first().is_some_and(|w| base_name(&w.text) == "wc")
            && argv[1..]
                .iter()
                .all(|w| w.text.starts_with('-') && !w.text.starts_with("--files0"))
    })
}
