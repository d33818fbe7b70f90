//! Packages fetched and run: a package runner or an account-wide install
//! handed a location instead of a registry name, and indexes reached
//! without TLS.

use super::safety_off::{RUBYGEMS, other_registry};
use super::*;

impl Analyzer<'_> {
    /// A package installed from an index reached without TLS (`http://`,
    /// or a host marked trusted so its certificate is not checked): code
    /// that runs at install, fetched over a channel anyone on the path can
    /// rewrite. Loopback mirrors are the user's own.
    pub(super) fn insecure_index(&mut self, c: &Cmd<'_>) {
        let pip = matches!(c.lb.as_str(), "pip" | "pip3" | "uv" | "pipx" | "poetry")
            || c.lb.starts_with("python")
                && c.args.windows(2).any(|w| w[0] == "-m" && w[1] == "pip");
        let npm = matches!(c.lb.as_str(), "npm" | "pnpm" | "yarn" | "bun" | "npx");
        if !pip && !npm {
            return;
        }
        let remote = |host: &str| {
            let h = host
                .trim_start_matches('[')
                .split([']', ':', '/'])
                .next()
                .unwrap_or("");
            !(h == "localhost" || h.starts_with("127.") || h == "::1" || h.is_empty())
        };
        let valued: &[&str] = if pip {
            &[
                "--index-url",
                "-i",
                "--extra-index-url",
                "--find-links",
                "-f",
                "--trusted-host",
            ]
        } else {
            &["--registry"]
        };
        for (i, a) in c.args.iter().enumerate() {
            let (flag, value) = match a.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
                _ => (a.as_str(), c.args.get(i + 1).cloned()),
            };
            if !valued.contains(&flag) {
                continue;
            }
            let Some(v) = value else { continue };
            let insecure = if flag == "--trusted-host" {
                remote(&v)
            } else {
                v.strip_prefix("http://").is_some_and(remote)
            };
            if insecure {
                self.block(format!(
                    "{} installs code fetched without TLS from {v} (download and execute)",
                    c.base
                ));
            }
        }
        // The same settings in the environment (`PIP_INDEX_URL=http://…`,
        // `npm_config_registry=…`), before the program or exported earlier.
        for k in c.script.commands.iter() {
            for (name, w) in &k.assigns {
                let up = name.to_ascii_uppercase();
                let setting = if pip {
                    ["INDEX_URL", "EXTRA_INDEX_URL", "FIND_LINKS", "TRUSTED_HOST"]
                        .iter()
                        .find(|s| up == format!("PIP_{s}") || up == format!("UV_{s}"))
                } else {
                    ["REGISTRY"]
                        .iter()
                        .find(|s| up == format!("NPM_CONFIG_{s}") || up == format!("YARN_{s}"))
                };
                let Some(setting) = setting else { continue };
                let insecure = w.text.split_whitespace().any(|v| {
                    if *setting == "TRUSTED_HOST" {
                        remote(v)
                    } else {
                        v.strip_prefix("http://").is_some_and(remote)
                    }
                });
                if insecure {
                    self.block(format!(
                        "{} installs code fetched without TLS ({name}={}: download and execute)",
                        c.base, w.text
                    ));
                }
            }
        }
    }

    /// `GOPROXY=https://elsewhere go …`: modules and toolchains fetched
    /// from there are run; `GOTOOLCHAIN=go1.x go version` fetches one.
    fn go_settings(&mut self, c: &Cmd<'_>) {
        if c.lb != "go" {
            return;
        }
        let set: Vec<(&String, &Word)> = c
            .assigns
            .iter()
            .chain(c.script.commands.iter().flat_map(|k| k.assigns.iter()))
            .map(|(n, v)| (n, v))
            .collect();
        for (n, v) in &set {
            if n.as_str() == "GOPROXY" {
                let far = v.text.split([',', '|']).find(|u| {
                    let host = u.split_once("://").map_or(*u, |(_, r)| r);
                    !matches!(*u, "direct" | "off")
                        && !host.starts_with("proxy.golang.org")
                        && super::project_out::far_host(host).is_some()
                });
                // The checksum database vouches for what any proxy serves,
                // unless the line turns it off or the proxy is plain HTTP.
                // (`GOPRIVATE=corp.example/*` exempts the company's own
                // modules only; `*` exempts them all; another checksum
                // database is the proxy owner's choosing.)
                // The modules the line fetches (`go install host/path@v`).
                let modules: Vec<String> = c
                    .args
                    .iter()
                    .filter(|a| !a.starts_with('-') && a.contains('/') && a.contains('.'))
                    .map(|a| lower(a.split('@').next().unwrap_or(a)))
                    .collect();
                let unchecked = set.iter().any(|(n, v)| {
                    let v = lower(&v.text);
                    let everything = v.split(',').any(|p| {
                        let p = p.trim();
                        p.starts_with('*')
                            || !p.is_empty()
                                && modules.iter().any(|m| {
                                    // A pattern matches a module's leading path elements.
                                    let k = p.split('/').count();
                                    let head: Vec<&str> = m.split('/').take(k).collect();
                                    paths::glob_match(p, &head.join("/"))
                                })
                    });
                    matches!(n.as_str(), "GONOSUMDB" | "GOPRIVATE" | "GOINSECURE") && everything
                        || n.as_str() == "GONOSUMCHECK" && !v.is_empty()
                        || n.as_str() == "GOSUMDB"
                            && !v.is_empty()
                            && !v.starts_with("sum.golang.org")
                            && !v.starts_with("sum.golang.google.cn")
                        || n.as_str() == "GOFLAGS" && v.contains("-insecure")
                });
                match far {
                    Some(u) if unchecked || lower(u).starts_with("http://") => self.block(format!(
                        "download and execute (go fetches modules and toolchains from {u}, which GOPROXY names, unchecked)"
                    )),
                    Some(u) => self.ask(format!("go fetches modules from {u}, which GOPROXY names")),
                    None => {}
                }
            }
            if n.as_str() == "GOTOOLCHAIN" && !matches!(v.text.as_str(), "local" | "auto" | "") {
                self.ask(format!("go fetches and runs the toolchain {}", v.text));
            }
        }
    }

    /// Package runners handed a location instead of a registry name: code
    /// fetched from there and run at once, download and execute.
    pub(super) fn runs_fetched_package(&mut self, c: &Cmd<'_>) {
        self.go_settings(c);
        let located = |spec: &str| {
            let l = lower(spec);
            [
                "http://",
                "https://",
                "git+",
                "git://",
                "github:",
                "gitlab:",
                "bitbucket:",
                "ssh://",
            ]
            .iter()
            .any(|p| l.starts_with(p))
        };
        let ops: Vec<&str> = c
            .args
            .iter()
            .map(String::as_str)
            .filter(|x| !x.starts_with('-'))
            .collect();
        // A location on a host that is not a code forge, or known only at
        // run time.
        let far = |u: &str| {
            let rest = u.split_once("://").map_or(u, |(_, r)| r);
            u.contains(['$', '`'])
                || !rest.contains('.')
                || super::project_out::far_host(rest).is_some()
        };
        let extensions = installed_extensions(c);
        for w in &extensions {
            // An editor's or a desktop shell's extension runs with the
            // user's rights at every start: one this line downloaded is
            // downloaded code, run.
            let file = extension_file(w);
            if self.fetched_elsewhere(&Word::lit(file), c.cwd()) {
                self.block(format!(
                    "download and execute ({} installs an extension this line downloaded: {})",
                    c.base,
                    shown(file)
                ));
            }
        }
        let fetched = match c.lb.as_str() {
            // Extensions from a URL, as downloaded above.
            _ if !extensions.is_empty() => extensions.iter().any(|w| {
                let file = extension_file(w);
                located(file) && far(file)
            }),
            // `brew tap NAME URL`: formulae (and look-alike commands on
            // PATH) from a repository elsewhere than a code forge.
            "brew" => {
                ops.first() == Some(&"tap") && ops.get(2).is_some_and(|u| located(u) && far(u))
            }
            // `go run host/path@version`: a module fetched and run.
            // A module from a host other than the Go project's own is
            // fetched from a location and run.
            "go" => {
                ops.first() == Some(&"run")
                    && ops.iter().skip(1).any(|x| {
                        x.contains('@')
                            && x.split('/').next().is_some_and(|h| {
                                h.contains('.') && !GO_MODULE_HOSTS.contains(&lower(h).as_str())
                            })
                    })
            }
            // Installed for the whole account (`deno install -g`), or a
            // tool's plugin (its scripts run at every use), from a location.
            "deno" => {
                ops.first() == Some(&"install")
                    && c.args
                        .iter()
                        .any(|x| matches!(x.as_str(), "-g" | "--global"))
                    && ops.iter().skip(1).any(|x| located(x))
            }
            "gh" | "glab" => {
                matches!(ops.first(), Some(&"extension") | Some(&"ext"))
                    && ops.get(1) == Some(&"install")
                    && ops
                        .get(2)
                        .is_some_and(|x| located(x) && !lower(x).starts_with("https://github.com/"))
            }
            // `yarn set version URL`, `yarn plugin import URL`: a release
            // or plugin from a location, run by every later yarn command.
            "yarn"
                if matches!(
                    (ops.first(), ops.get(1)),
                    (Some(&"set"), Some(&"version")) | (Some(&"plugin"), Some(&"import"))
                ) =>
            {
                ops.get(2).is_some_and(|x| located(x) && far(x))
            }
            "mise" | "rtx" | "asdf" => {
                matches!(
                    ops.first(),
                    Some(&"plugin") | Some(&"plugins") | Some(&"plugin-add")
                ) && ops.iter().skip(1).any(|x| located(x))
            }
            "kubectl" | "kubectl-krew" => {
                c.args.iter().any(|x| {
                    x.strip_prefix("--manifest-url=")
                        .or_else(|| x.strip_prefix("--archive="))
                        .is_some_and(located)
                }) || c.args.windows(2).any(|w| {
                    matches!(w[0].as_str(), "--manifest-url" | "--archive") && located(&w[1])
                })
            }
            "cargo" if ops.first() == Some(&"binstall") => c.args.iter().any(|x| {
                matches!(x.as_str(), "--pkg-url" | "--git")
                    || x.starts_with("--pkg-url=")
                    || x.starts_with("--git=")
            }),
            "devbox" => {
                ops.first() == Some(&"global")
                    && ops.get(1) == Some(&"pull")
                    && ops.get(2).is_some_and(|x| located(x))
            }
            // `earthly host/path+target`: an Earthfile from another machine.
            "earthly" => ops.iter().any(|x| {
                x.contains('+')
                    && x.split('/').next().is_some_and(|h| h.contains('.'))
                    && !x.starts_with(['.', '/'])
            }),
            "npx" | "bunx" | "pnpx" => {
                ops.first().is_some_and(|x| located(x))
                    || c.args
                        .iter()
                        .any(|x| x.strip_prefix("--package=").is_some_and(located))
            }
            // `npm exec` is npx.
            "npm" if matches!(ops.first(), Some(&"exec") | Some(&"x")) => {
                ops.get(1).is_some_and(|x| located(x))
                    || c.args
                        .iter()
                        .any(|x| x.strip_prefix("--package=").is_some_and(located))
                    || c.args
                        .windows(2)
                        .any(|w| matches!(w[0].as_str(), "--package" | "-p") && located(&w[1]))
            }
            // Installed for the whole account (`--user`, or past the
            // system's guard) from a location: its build code runs now and
            // its commands land on PATH, as `npm -g` below.
            "pip" | "pip3" | "python" | "python3"
                if pip_args(c, &ops).is_some_and(|o| o.first() == Some(&"install")) =>
            {
                let account = c.args.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "--user" | "--break-system-packages" | "--prefix"
                    )
                }) || c.args.iter().any(|x| x.starts_with("--prefix="))
                    || c.assigns.iter().any(|(n, v)| {
                        matches!(
                            n.as_str(),
                            "PIP_USER" | "PIP_BREAK_SYSTEM_PACKAGES" | "PIP_PREFIX"
                        ) && !matches!(lower(&v.text).as_str(), "" | "0" | "false" | "no")
                    });
                account && ops.iter().any(|x| located(x))
            }
            // `cargo +nightly install`: the toolchain comes first. A
            // repository on a code forge is where such tools are published
            // (asked, as `pip install URL` is); another host is not.
            "cargo" => {
                // A URL known only at run time may be anywhere.
                let elsewhere = |u: &str| {
                    let rest = u.split_once("://").map_or(u, |(_, r)| r);
                    u.contains(['$', '`'])
                        || !rest.contains('.')
                        || super::project_out::far_host(rest).is_some()
                };
                let gits: Vec<&str> = c
                    .args
                    .iter()
                    .enumerate()
                    .filter_map(|(i, x)| match x.strip_prefix("--git=") {
                        Some(v) => Some(v),
                        None if x == "--git" => Some(c.args.get(i + 1).map_or("", String::as_str)),
                        None => None,
                    })
                    .collect();
                // (`--config 'source.crates-io.replace-with=…'`: another
                // registry for every crate, as `--index`.)
                // (`--config V` may come first: its value is no command.)
                ops.contains(&"install")
                    && (gits.iter().any(|u| elsewhere(u))
                        || c.args.iter().any(|x| {
                            let v = x
                                .trim_start_matches("--config=")
                                .trim_start_matches(['\'', '"']);
                            x.starts_with("--index")
                                || v.starts_with("source.")
                                || v.starts_with("registries.")
                        }))
            }
            "gem" => {
                let sources: Vec<String> = c
                    .args
                    .iter()
                    .enumerate()
                    .filter_map(|(i, x)| {
                        if matches!(x.as_str(), "--source" | "-s") {
                            c.args.get(i + 1).cloned()
                        } else {
                            x.strip_prefix("--source=")
                                .or_else(|| x.strip_prefix("-s").filter(|v| v.contains("://")))
                                .map(str::to_string)
                        }
                    })
                    .collect();
                ops.first() == Some(&"install") && other_registry(&sources, RUBYGEMS)
            }
            // Hooks cloned from a location and run at once.
            "pre-commit" => {
                ops.first() == Some(&"try-repo") && ops.get(1).is_some_and(|x| located(x))
            }
            "pnpm" | "yarn" | "bun" if matches!(ops.first(), Some(&"dlx") | Some(&"x")) => {
                ops.get(1).is_some_and(|x| located(x))
            }
            // Installed for the whole account from a location: its install
            // scripts run now and its commands land on PATH, outside the
            // project (a project's own install from a location asks).
            "npm" | "pnpm" | "bun" | "yarn" => {
                let global = c.args.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "-g" | "--global" | "--location=global" | "--global=true"
                    ) || x == "--prefix"
                        || x.starts_with("--prefix=")
                }) || c
                    .args
                    .windows(2)
                    .any(|w| w[0] == "--location" && w[1] == "global")
                    || c.lb == "yarn" && ops.first() == Some(&"global")
                    || c.assigns.iter().any(|(n, v)| {
                        n.eq_ignore_ascii_case("npm_config_global") && lower(&v.text) != "false"
                    });
                // `user/repo`: a GitHub repository, not the registry's `@scope/pkg`.
                let repo = |x: &str| {
                    let mut parts = x.split('/');
                    let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next())
                    else {
                        return false;
                    };
                    !a.is_empty()
                        && !b.is_empty()
                        && !a.starts_with(['@', '.', '~'])
                        && a.chars()
                            .all(|ch| ch.is_ascii_alphanumeric() || "-_.".contains(ch))
                };
                let sub = if c.lb == "yarn" {
                    ops.get(1)
                } else {
                    ops.first()
                };
                global
                    && sub.is_some_and(|x| INSTALLS.contains(x))
                    && ops.iter().skip(1).any(|x| located(x) || repo(x))
            }
            "uvx" | "pipx" => {
                c.args
                    .iter()
                    .any(|x| located(x.split_once('=').map_or(x.as_str(), |(_, v)| v)))
                    && (c.lb == "uvx" || matches!(ops.first(), Some(&"run") | Some(&"install")))
            }
            // `uv run URL` (a script from the web), `uv tool run --from git+…`.
            "uv" => {
                (ops.first() == Some(&"run") && ops.get(1).is_some_and(|x| located(x)))
                    || (ops.first() == Some(&"tool")
                        && c.args
                            .iter()
                            .any(|x| located(x.split_once('=').map_or(x.as_str(), |(_, v)| v))))
            }
            // `nix run git+https://…`, `nix shell https://…/x.tar.gz#pkg`.
            "nix" => {
                matches!(
                    ops.first(),
                    Some(&"run") | Some(&"shell") | Some(&"develop")
                ) && ops.iter().skip(1).any(|x| located(x))
            }
            "nix-shell" | "nix-build" => ops.iter().any(|x| located(x)),
            // A playbook repository pulled and run on this machine.
            "ansible-pull" => {
                c.value("-U")
                    .or_else(|| c.value("--url"))
                    .is_some_and(|w| located(&w.text))
                    || c.args
                        .iter()
                        .any(|x| x.strip_prefix("--url=").is_some_and(located))
            }
            _ => false,
        };
        // What a package runner runs is the package's command, with the
        // rest of the line: judged as that command (`npx localtunnel --port
        // 7420` is a tunnel to Jarvis's port).
        let runner = match c.lb.as_str() {
            "npx" | "bunx" | "pnpx" => Some(0),
            "pnpm" | "yarn" | "bun" if matches!(ops.first(), Some(&"dlx") | Some(&"x")) => Some(1),
            _ => None,
        };
        if let Some(skip) = runner {
            let words: Vec<&str> = c
                .args
                .iter()
                .map(String::as_str)
                .skip_while(|x| x.starts_with('-'))
                .skip(skip)
                .collect();
            if let Some(pkg) = words.first() {
                let name = pkg
                    .rsplit('/')
                    .next()
                    .unwrap_or(pkg)
                    .split('@')
                    .next()
                    .unwrap_or(pkg);
                let line = crate::policy::shell::quoted_line(
                    std::iter::once(name).chain(words[1..].iter().copied()),
                );
                self.block_only(|a| a.script(&line, &[], c.depth + 1));
            }
        }
        if fetched {
            self.block(format!(
                "download and execute ({} fetches code from a location and runs it)",
                c.base
            ));
        }
    }
}

/// pip's own words: `pip install …`, or past `python -m pip`.
fn pip_args<'a>(c: &Cmd<'_>, ops: &[&'a str]) -> Option<Vec<&'a str>> {
    if c.lb.starts_with("pip") {
        return Some(ops.to_vec());
    }
    if c.args.iter().any(|a| a == "-mpip") {
        return Some(ops.to_vec());
    }
    if !c.args.windows(2).any(|w| w[0] == "-m" && w[1] == "pip") {
        return None;
    }
    let at = ops.iter().position(|x| *x == "pip")?;
    Some(ops[at + 1..].to_vec())
}

/// The Go project's and Kubernetes' own module hosts: their tools
/// (`golang.org/x/tools/cmd/stringer`) are the toolchain's registry. A
/// forge's repository is anyone's code (`npx user/repo` blocks too).
const GO_MODULE_HOSTS: &[&str] = &[
    "golang.org",
    "google.golang.org",
    "go.googlesource.com",
    "cloud.google.com",
    "k8s.io",
    "sigs.k8s.io",
];

/// Package managers' install commands, with npm's abbreviations.
const INSTALLS: &[&str] = &[
    "install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall",
    "add",
];

/// The extension files an editor or a desktop shell is told to install
/// (`code --install-extension F`, `gnome-extensions install F`,
/// `kpackagetool6 -i F`): each runs with the user's rights at every start.
fn installed_extensions<'c>(c: &'c Cmd<'_>) -> Vec<&'c Word> {
    let after = |flags: &[&str]| -> Vec<&'c Word> {
        c.words
            .iter()
            .enumerate()
            .skip(1)
            .filter_map(|(i, w)| {
                if flags.contains(&w.text.as_str()) {
                    c.words.get(i + 1)
                } else {
                    flags
                        .iter()
                        .any(|f| f.starts_with("--") && eq_value(&w.text, f).is_some())
                        .then_some(w)
                }
            })
            .collect()
    };
    match c.lb.as_str() {
        "code" | "codium" | "code-insiders" | "code-oss" | "code-server" | "cursor"
        | "windsurf" => after(&["--install-extension"]),
        "gnome-extensions" if c.args.first().is_some_and(|a| a == "install") => c.words[2..]
            .iter()
            .filter(|w| !w.text.starts_with('-'))
            .collect(),
        "kpackagetool5" | "kpackagetool6" | "plasmapkg2" => {
            after(&["-i", "--install", "-u", "--upgrade"])
        }
        _ => Vec::new(),
    }
}

/// The file of `--install=F` or of a word that is only the file.
fn extension_file(w: &Word) -> &str {
    match w.text.split_once('=') {
        Some((f, v)) if f.starts_with("--") => v,
        _ => &w.text,
    }
}
