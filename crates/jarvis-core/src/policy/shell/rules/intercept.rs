//! Traffic handed to a proxy on another host with the TLS check switched
//! off or its trust replaced: whoever runs that proxy reads every request
//! in clear, the tokens and passwords that sign them in too
//! (`./gradlew publish -Dhttps.proxyHost=H -Djavax.net.ssl.trustStore=…`,
//! `HTTPS_PROXY=http://H NODE_TLS_REJECT_UNAUTHORIZED=0 npm publish`).
//! Either alone asks: a proxy with TLS intact sees host names only, and a
//! check switched off still needs someone on the path; so does a request
//! that carries no sign-in (a corporate proxy's own certificate), and a
//! bundle of the system's own authorities (`/etc/ssl/certs/…`).

use super::*;

/// Variables naming the proxy every request goes through.
const PROXY_VARS: &[&str] = &[
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "ALL_PROXY",
    "NPM_CONFIG_HTTPS_PROXY",
    "NPM_CONFIG_PROXY",
    "YARN_HTTPS_PROXY",
];

/// Options whose value names a proxy (curl's, npm's, pip's, the JVM's).
const PROXY_OPTIONS: &[&str] = &[
    "-x",
    "--proxy",
    "--https-proxy",
    "--preproxy",
    "--socks4",
    "--socks4a",
    "--socks5",
    "--socks5-hostname",
    "-dhttps.proxyhost",
    "-dhttp.proxyhost",
    "-dsocksproxyhost",
    "http.proxy",
    "https.proxy",
];

/// Variables that switch the certificate check off.
const CHECK_OFF_VARS: &[&str] = &[
    "NODE_TLS_REJECT_UNAUTHORIZED",
    "PYTHONHTTPSVERIFY",
    "NPM_CONFIG_STRICT_SSL",
    "YARN_ENABLE_STRICT_SSL",
];

/// Variables that switch the check off when set on.
const CHECK_OFF_WHEN_ON: &[&str] = &[
    "CLOUDSDK_AUTH_DISABLE_SSL_VALIDATION",
    "DENO_TLS_CA_STORE_OFF",
];

/// Variables that hand the check other authorities, or skip it for hosts.
const TRUST_VARS: &[&str] = &[
    "GIT_SSL_NO_VERIFY",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "REQUESTS_CA_BUNDLE",
    "CURL_CA_BUNDLE",
    "NODE_EXTRA_CA_CERTS",
    "PIP_CERT",
    "GIT_SSL_CAINFO",
    "AWS_CA_BUNDLE",
    "NPM_CONFIG_CAFILE",
    "CARGO_HTTP_CAINFO",
    "CLOUDSDK_CORE_CUSTOM_CA_CERTS_FILE",
    "PIP_TRUSTED_HOST",
    "GOINSECURE",
];

/// Options that switch the check off.
const CHECK_OFF_OPTIONS: &[&str] = &[
    "-k",
    "--insecure",
    "--no-check-certificate",
    "--no-verify-ssl",
    "--insecure-skip-tls-verify",
    "--no-strict-ssl",
    "--strict-ssl=false",
    "--tls-verify=false",
    "--trusted-host",
    "--unsafely-ignore-certificate-errors",
    "--insecure-skip-tls-verify=true",
    "--verify-ssl=false",
    "-dmaven.wagon.http.ssl.insecure=true",
    "-dmaven.wagon.http.ssl.allowall=true",
    "-dmaven.resolver.transport.http.ssl.insecure=true",
    "http.sslverify=false",
];

/// Options whose value is a bundle of authorities to trust.
const TRUST_OPTIONS: &[&str] = &[
    "--cacert",
    "--capath",
    "--cafile",
    "--ca-certificate",
    "--ca-directory",
    "--ca-bundle",
    "--certificate-authority",
    "-djavax.net.ssl.truststore",
    "http.sslcainfo",
    "http.cainfo",
];

/// Variables whose value is more of the JVM's options.
const JVM_OPTION_VARS: &[&str] = &[
    "MAVEN_OPTS",
    "GRADLE_OPTS",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
];

impl Analyzer<'_> {
    pub(super) fn intercepted(&mut self, c: &Cmd<'_>) {
        // Most lines name no proxy: leave before building anything.
        let hint = |t: &str| {
            t.contains("proxy")
                || t.contains("PROXY")
                || t.contains("socks")
                || t.contains("_OPTS")
                || t.contains("_OPTIONS")
                || short_flags(t).is_some_and(|f| f.contains('x'))
        };
        if !c.src.argv.iter().any(|w| hint(&w.text))
            && !c.assigns.iter().any(|(n, _)| hint(n))
            && !c
                .script
                .commands
                .iter()
                .any(|k| k.declares && k.assigns.iter().any(|(n, _)| hint(n)))
        {
            return;
        }
        let mut settings: Vec<(String, String)> = c
            .assigns
            .iter()
            .chain(
                c.script
                    .commands
                    .iter()
                    .filter(|k| k.declares)
                    .flat_map(|k| k.assigns.iter()),
            )
            .map(|(n, v)| (n.to_ascii_uppercase(), v.text.clone()))
            .collect();
        let mut words: Vec<String> = c.words.iter().skip(1).map(|w| lower(&w.text)).collect();
        // `env HTTPS_PROXY=… git push` (the line's words, before the
        // program env runs), `wget -e https_proxy=…`.
        let line: Vec<String> = c.src.argv.iter().map(|w| lower(&w.text)).collect();
        settings.extend(line.iter().chain(words.iter()).filter_map(|w| {
            let (n, v) = w.split_once('=')?;
            n.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
                .then(|| (n.to_ascii_uppercase(), v.to_string()))
        }));
        for (n, v) in &settings {
            if JVM_OPTION_VARS.contains(&n.as_str()) {
                words.extend(v.split_whitespace().map(lower));
            }
        }
        let Some(host) = proxy_host(&settings, &words) else {
            return;
        };
        if check_off(&settings, &words, c.lb == "twine") && signs_in(c, &words) {
            self.block(format!(
                "interception (requests go through a proxy on {host} with the certificate check off or its authorities replaced: the proxy reads their sign-ins)"
            ));
        }
    }
}

/// The far host of the first proxy the line names.
fn proxy_host(settings: &[(String, String)], words: &[String]) -> Option<String> {
    let mut values: Vec<String> = settings
        .iter()
        .filter(|(n, _)| PROXY_VARS.contains(&n.as_str()))
        .map(|(_, v)| v.clone())
        .collect();
    for (i, w) in words.iter().enumerate() {
        values.extend(option_value(words, i, w, PROXY_OPTIONS));
        // curl's bundles: `-kx URL`, `-xhttp://…`.
        if let Some(b) = short_bundle(w)
            && let Some(at) = b.find('x')
            && b[..at].chars().all(|c| c.is_ascii_alphabetic())
        {
            let rest = &b[at + 1..];
            values.extend(if rest.is_empty() {
                words.get(i + 1).cloned()
            } else {
                Some(rest.to_string())
            });
        }
    }
    values.iter().find_map(|v| {
        let rest = v.split_once("://").map_or(v.as_str(), |(_, r)| r);
        super::project_out::far_host(rest)
    })
}

/// The check switched off, or authorities other than the system's trusted.
fn check_off(settings: &[(String, String)], words: &[String], twine: bool) -> bool {
    let vars = settings.iter().any(|(n, v)| {
        let v = lower(v);
        CHECK_OFF_VARS.contains(&n.as_str()) && matches!(v.as_str(), "0" | "false" | "no")
            || CHECK_OFF_WHEN_ON.contains(&n.as_str()) && matches!(v.as_str(), "1" | "true" | "yes")
            // git skips the check whatever the value.
            || n == "GIT_SSL_NO_VERIFY"
            || TRUST_VARS.contains(&n.as_str()) && !v.is_empty() && !system_authorities(&v)
    });
    vars || words.iter().enumerate().any(|(i, w)| {
        CHECK_OFF_OPTIONS.contains(&w.as_str())
            // `-sLkm10`, `-skx URL`: a `k` among the bundle's letters, before
            // any `x` (which takes the rest as its value).
            || short_bundle(w).is_some_and(|b| {
                let letters: String = b.chars().take_while(char::is_ascii_alphabetic).collect();
                letters
                    .find('k')
                    .is_some_and(|k| letters.find('x').is_none_or(|x| k < x))
            })
            || w == "--strict-ssl" && words.get(i + 1).is_some_and(|v| v == "false")
            || option_value(words, i, w, TRUST_OPTIONS).is_some_and(|v| !system_authorities(&v))
            // twine's `--cert` is the authorities it trusts.
            || twine && option_value(words, i, w, &["--cert"]).is_some_and(|v| !system_authorities(&v))
    })
}

/// The system's own bundle of authorities (`/etc/ssl/certs/…`; not a
/// path that climbs out of it).
fn system_authorities(path: &str) -> bool {
    !path.contains("..")
        && [
            "/etc/ssl/",
            "/etc/pki/",
            "/etc/ca-certificates",
            "/usr/share/ca-certificates",
            "/usr/local/share/ca-certificates",
            "/etc/ssl",
        ]
        .iter()
        .any(|d| path.starts_with(d))
}

/// `-x V`, `--proxy=V`, `-Dhttps.proxyHost=V`: the value of one of `opts`.
fn option_value(words: &[String], i: usize, w: &str, opts: &[&str]) -> Option<String> {
    opts.iter().find_map(|o| {
        if w == *o {
            words.get(i + 1).cloned()
        } else {
            w.strip_prefix(o)
                .and_then(|r| r.strip_prefix('='))
                .map(str::to_string)
        }
    })
}

/// The letters of a bundle of curl's short options (`-sk`, `-kx`).
fn short_bundle(w: &str) -> Option<&str> {
    short_flags(w).filter(|b| b.starts_with(|c: char| c.is_ascii_alphabetic()))
}

/// The requests carry the user's sign-in: a publish, push or upload, a
/// login, credentials on the line, or a cloud client (always signed in).
fn signs_in(c: &Cmd<'_>, words: &[String]) -> bool {
    const VERBS: &[&str] = &[
        "publish", "upload", "push", "deploy", "release", "login", "adduser",
    ];
    const CLOUD: &[&str] = &[
        "aws",
        "gcloud",
        "gsutil",
        "az",
        "kubectl",
        "oc",
        "helm",
        "gh",
        "glab",
        "terraform",
        "tofu",
        "pulumi",
        "vault",
        "heroku",
        "flyctl",
        "doctl",
        "twine",
    ];
    const HEADER_NAMES: &[&str] = &["auth", "token", "key", "cookie", "secret", "session"];
    words.iter().enumerate().any(|(i, w)| {
        let header = match w.as_str() {
            "-h" | "--header" => words.get(i + 1).map(String::as_str),
            _ => w.strip_prefix("--header="),
        };
        // A verb as a word or a build task (`publish`, `publishToMaven…`,
        // `:app:publish`), not inside a name (`--release`, `x-release.txt`).
        VERBS.iter().any(|v| {
            w == v
                || w.starts_with(v) && w.chars().all(|ch| ch.is_ascii_alphanumeric())
                || w.contains(&format!(":{v}"))
        })
            || matches!(
                w.as_str(),
                "-u" | "--user"
                    | "-n"
                    | "--netrc"
                    | "--netrc-optional"
                    | "--oauth2-bearer"
                    | "--http-user"
                    | "--http-password"
                    | "-b"
                    | "--cookie"
            )
            || w.contains("access_token=")
            || w.contains("api_key=")
            || w.starts_with("--user=")
            || w.starts_with("--netrc-file")
            || w.starts_with("--http-user=")
            || w.starts_with("--http-password=")
            || header.is_some_and(|h| {
                let name = h.split(':').next().unwrap_or("");
                HEADER_NAMES.iter().any(|k| name.contains(k))
            })
            // `https://user:pw@host/…`.
            || w.split_once("://").is_some_and(|(_, r)| {
                r.split('/').next().is_some_and(|a| a.contains('@') && a.contains(':'))
            })
    }) || CLOUD.contains(&c.lb.as_str())
}
