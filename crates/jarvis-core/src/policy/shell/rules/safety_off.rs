//! Settings that switch a safety off for every later run of a tool (TLS
//! verification, package signatures, checksum databases), and the
//! package registries whose addresses count as the usual ones.

use super::*;

impl Analyzer<'_> {
    /// Settings that turn TLS verification (or package signatures) off for
    /// every later run of a tool: disabling security, so they block.
    /// One run with the check off (`git -c http.sslVerify=false clone`)
    /// asks like any other.
    pub(super) fn safety_off(&mut self, c: &Cmd<'_>) {
        let j = lower(&c.args.join(" "));
        let off = |k: &str| {
            j.contains(k)
                && ["false", "0", "no", "off", "never"]
                    .iter()
                    .any(|f| j.split([' ', '=']).any(|w| w == *f))
        };
        let persistent = match c.lb.as_str() {
            "git" => {
                c.args.first().is_some_and(|x| x == "config")
                    && (c.has("--global") || c.has("--system"))
                    && off("sslverify")
            }
            "npm" | "pnpm" | "yarn" => {
                j.starts_with("config set")
                    && (off("strict-ssl")
                        || off("ssl-verify")
                        || off("strictssl")
                        || j.contains("registry") && j.contains("http://"))
            }
            "pip" | "pip3" => {
                j.starts_with("config set") && (j.contains("trusted-host") || off("cert"))
            }
            "conda" => j.contains("--set") && off("ssl_verify"),
            "go" => {
                c.args.first().is_some_and(|x| x == "env")
                    && c.has("-w")
                    && c.args.iter().any(|kv| go_unverified(kv))
            }
            "composer" => {
                j.contains("config") && (off("secure-http") || j.contains("disable-tls true"))
            }
            "gem" => {
                j.starts_with("sources") && (c.has("--add") || c.has("-a")) && j.contains("http://")
            }
            "bundle" | "bundler" => {
                j.contains("config")
                    && j.contains("ssl_verify_mode")
                    && j.split([' ', '=']).any(|w| w == "0")
            }
            "kubectl" => {
                j.starts_with("config set-cluster")
                    && j.contains("insecure-skip-tls-verify")
                    && !off("insecure-skip-tls-verify")
            }
            "helm" => j.starts_with("repo add") && c.has("--insecure-skip-tls-verify"),
            "apt-config" | "dnf" | "yum" => off("gpgcheck") && j.contains("set"),
            _ => false,
        };
        if persistent {
            self.block(format!(
                "disables security ({} stops verifying TLS or signatures for every later run)",
                c.base
            ));
        }
        // Settings that make every later run of the tool start a program
        // or fetch packages from a place without TLS: persistence.
        let set = j.starts_with("config set") || j.contains(" config set") || j.starts_with("set ");
        let runs_later = match c.lb.as_str() {
            "npm" | "pnpm" | "yarn" => {
                set && [
                    "script-shell",
                    "shell",
                    "node-options",
                    "onload-script",
                    "init-module",
                    " git ",
                ]
                .iter()
                .any(|k| j.contains(k))
                    || set
                        && j.contains("registry")
                        && !project_location(&c.args)
                        && other_registry(&c.args, NPM)
            }
            "go" => {
                c.args.first().is_some_and(|x| x == "env")
                    && c.has("-w")
                    && c.args.iter().any(|kv| {
                        kv.to_ascii_uppercase().starts_with("GOFLAGS=")
                            && (kv.contains("-toolexec") || kv.contains("-exec"))
                    })
            }
            "pip" | "pip3" | "uv" | "poetry" => {
                j.contains("config")
                    && !c.has("--site")
                    && (j.contains("index-url")
                        || j.contains("index_url")
                        || j.contains("find-links"))
                    && (j.contains("http://") || other_registry(&c.args, PYPI))
            }
            // Every later Ruby install, in every project, from that mirror.
            "bundle" | "bundler" => {
                j.contains("config")
                    && j.contains("mirror.")
                    && !c.has("--local")
                    && other_registry(&c.args, RUBYGEMS)
            }
            "gem" => {
                j.starts_with("sources")
                    && (c.has("--add") || c.has("-a"))
                    && other_registry(&c.args, RUBYGEMS)
            }
            _ => false,
        };
        if runs_later {
            self.block(format!(
                "persistence ({} is set to run a program, or to fetch packages from another place or without TLS, on every later run)",
                c.base
            ));
        }
    }
}

const PYPI: &[&str] = &[
    "pypi.org",
    "files.pythonhosted.org",
    "pypi.python.org",
    "test.pypi.org",
];
pub(super) const RUBYGEMS: &[&str] = &["rubygems.org", "index.rubygems.org", "gems.ruby-china.com"];
const NPM: &[&str] = &[
    "registry.npmjs.org",
    "registry.yarnpkg.com",
    "npm.pkg.github.com",
];

/// `--location=project` (or `--location project`) as an option of its own.
fn project_location(args: &[String]) -> bool {
    args.iter().any(|a| a == "--location=project")
        || args
            .windows(2)
            .any(|w| w[0] == "--location" && w[1] == "project")
}

/// A URL among the arguments whose host is not the public registry's: every
/// later install would fetch its code from there.
pub(super) fn other_registry(args: &[String], public: &[&str]) -> bool {
    args.iter()
        .flat_map(|a| a.split(['=', ' ']))
        .filter(|a| {
            let l = a.to_ascii_lowercase();
            l.starts_with("http://") || l.starts_with("https://")
        })
        .any(|a| match url::Url::parse(a) {
            // The real host, after any `user:pass@`.
            Ok(u) => !u.host_str().is_some_and(|h| public.contains(&h)),
            Err(_) => true,
        })
}

/// `go env -w KEY=VALUE` settings that stop Go verifying the modules it
/// downloads (the checksum database, TLS) for every later build.
fn go_unverified(kv: &str) -> bool {
    let Some((k, v)) = kv.split_once('=') else {
        return false;
    };
    let v = lower(v.trim_matches(['"', '\'']));
    match k.to_ascii_uppercase().as_str() {
        "GOSUMDB" => v == "off",
        "GONOSUMDB" | "GONOSUMCHECK" | "GOPRIVATE" => v.split(',').any(|p| p == "*" || p == "*/*"),
        "GOINSECURE" => !v.is_empty(),
        "GOFLAGS" => v.contains("-insecure"),
        "GOPROXY" => v.contains("http://"),
        _ => false,
    }
}
