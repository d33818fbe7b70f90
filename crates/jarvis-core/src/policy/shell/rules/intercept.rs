//! Traffic handed to a proxy on another host with the TLS check switched
//! off or its trust replaced: whoever runs that proxy reads every request
//! in clear, the tokens and passwords that sign them in too
//! (`./gradlew publish -Dhttps.proxyHost=H -Djavax.net.ssl.trustStore=…`,
//! `HTTPS_PROXY=http://H NODE_TLS_REJECT_UNAUTHORIZED=0 npm publish`).
//! Either alone asks: a proxy with TLS intact sees host names only, and a
//! check switched off still needs someone on the path; so does a request
//! that carries no sign-in (a corporate proxy's own certificate).

use super::*;

/// Variables naming the proxy every request goes through.
const PROXY_VARS: &[&str] = &["HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY"];

/// Options naming a proxy: `curl -x`, `pip --proxy`, npm's, the JVM's.
const PROXY_OPTIONS: &[&str] = &[
    "-x",
    "--proxy",
    "--https-proxy",
    "-Dhttps.proxyHost",
    "-Dhttp.proxyHost",
    "-Dhttps.proxyhost",
];

/// Variables that switch the certificate check off (any value but off's)
/// or replace the authorities it trusts (a file of someone's choosing).
const TRUST_VARS: &[&str] = &[
    "NODE_TLS_REJECT_UNAUTHORIZED",
    "GIT_SSL_NO_VERIFY",
    "PYTHONHTTPSVERIFY",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "REQUESTS_CA_BUNDLE",
    "CURL_CA_BUNDLE",
    "NODE_EXTRA_CA_CERTS",
    "PIP_CERT",
    "GIT_SSL_CAINFO",
    "AWS_CA_BUNDLE",
    "NPM_CONFIG_STRICT_SSL",
    "NPM_CONFIG_CAFILE",
    "PIP_TRUSTED_HOST",
    "GOINSECURE",
];

/// Options that switch the check off or hand it other authorities.
const TRUST_OPTIONS: &[&str] = &[
    "-k",
    "--insecure",
    "--no-check-certificate",
    "--trusted-host",
    "--cacert",
    "--cert",
    "--cafile",
    "--strict-ssl=false",
    "-Djavax.net.ssl.trustStore",
    "-Dmaven.wagon.http.ssl.insecure",
    "-Dmaven.resolver.transport.http.ssl.insecure",
    "http.sslVerify=false",
    "http.sslverify=false",
    "http.sslCAInfo",
];

impl Analyzer<'_> {
    pub(super) fn intercepted(&mut self, c: &Cmd<'_>) {
        let assigns: Vec<&(String, Word)> = c
            .src
            .assigns
            .iter()
            .chain(
                c.script
                    .commands
                    .iter()
                    .filter(|k| k.declares)
                    .flat_map(|k| k.assigns.iter()),
            )
            .collect();
        let words: Vec<&str> = c.words.iter().skip(1).map(|w| w.text.as_str()).collect();
        let option =
            |w: &str, o: &str| w == o || w.strip_prefix(o).is_some_and(|r| r.starts_with('='));
        let proxy = assigns
            .iter()
            .filter(|(n, _)| PROXY_VARS.contains(&n.to_ascii_uppercase().as_str()))
            .map(|(_, v)| v.text.clone())
            .chain(words.iter().enumerate().filter_map(|(i, w)| {
                let o = PROXY_OPTIONS.iter().find(|o| option(w, o))?;
                match w.split_once('=') {
                    Some((_, v)) if w.len() > o.len() => Some(v.to_string()),
                    _ => words.get(i + 1).map(|v| v.to_string()),
                }
            }))
            // `git -c http.proxy=H`.
            .chain(words.iter().filter_map(|w| {
                let (k, v) = w.split_once('=')?;
                k.eq_ignore_ascii_case("http.proxy").then(|| v.to_string())
            }))
            .find_map(|v| {
                let rest = v.split_once("://").map_or(v.as_str(), |(_, r)| r);
                super::project_out::far_host(rest)
            });
        let Some(host) = proxy else { return };
        let trust_off = assigns.iter().any(|(n, v)| {
            let up = n.to_ascii_uppercase();
            let value = lower(&v.text);
            TRUST_VARS.contains(&up.as_str())
                && match up.as_str() {
                    "NODE_TLS_REJECT_UNAUTHORIZED"
                    | "PYTHONHTTPSVERIFY"
                    | "NPM_CONFIG_STRICT_SSL" => {
                        matches!(value.as_str(), "0" | "false" | "no")
                    }
                    "GIT_SSL_NO_VERIFY" => !matches!(value.as_str(), "" | "0" | "false" | "no"),
                    _ => !value.is_empty(),
                }
        }) || words
            .iter()
            .any(|w| TRUST_OPTIONS.iter().any(|o| option(w, o) || *w == *o));
        if trust_off && signs_in(c, &words) {
            self.block(format!(
                "interception (requests go through a proxy on {host} with the certificate check off or its authorities replaced: the proxy reads their sign-ins)"
            ));
        }
    }
}

/// The requests carry the user's sign-in: a publish, push or upload, a
/// login, credentials on the line, or a cloud client (always signed in).
fn signs_in(c: &Cmd<'_>, words: &[&str]) -> bool {
    const VERBS: &[&str] = &[
        "publish",
        "upload",
        "push",
        "deploy",
        "release",
        "login",
        "adduser",
        "publishToMavenLocal",
        "uploadArchives",
    ];
    const CLOUD: &[&str] = &[
        "aws",
        "gcloud",
        "gsutil",
        "az",
        "kubectl",
        "helm",
        "gh",
        "glab",
        "docker",
        "podman",
        "terraform",
        "vault",
        "heroku",
        "flyctl",
        "doctl",
    ];
    words.iter().any(|w| {
        let l = lower(w);
        VERBS
            .iter()
            .any(|v| l == lower(v) || l.ends_with(&format!(":{}", lower(v))))
            || matches!(l.as_str(), "-u" | "--user" | "-n" | "--netrc")
            || l.starts_with("authorization:")
            || l.starts_with("--user=")
    }) || CLOUD.contains(&c.lb.as_str())
}
