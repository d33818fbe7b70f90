//! Servers whose clients run code: debuggers, notebooks, web IDEs and the
//! Docker daemon. Listening on this machine only they are a developer's
//! tools; bound to another address, anyone who reaches the port runs
//! programs as the user (a remote shell with extra steps).

use super::*;

/// `0.0.0.0`, `::`, `*`, a LAN address or a host name: reachable from
/// elsewhere. An empty host is the tool's default, judged by the caller.
pub(super) fn beyond_this_machine(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    if h.is_empty() {
        return false;
    }
    match h.parse::<std::net::IpAddr>() {
        Ok(ip) => !ip.is_loopback(),
        Err(_) => !h.eq_ignore_ascii_case("localhost"),
    }
}

/// The host of `HOST:PORT`, `[::]:PORT`, `tcp://HOST:PORT`, or a bare
/// `PORT` (no host: `None`).
fn host_of(address: &str) -> Option<&str> {
    let a = address.split_once("://").map_or(address, |(_, r)| r);
    let a = a.trim_matches(['\'', '"']);
    if a.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    match a.rsplit_once(':') {
        Some((h, _)) => Some(h),
        None => Some(a),
    }
}

/// A listening address (`HOST:PORT`, `:PORT`, `*:PORT`) that others than
/// this machine reach.
pub(super) fn listens_past_loopback(address: &str) -> bool {
    // A bare address, IPv6's colons included (`::1`, `::`).
    if let Ok(ip) = address
        .trim_matches(['[', ']', '\'', '"'])
        .parse::<std::net::IpAddr>()
    {
        return !ip.is_loopback();
    }
    host_of(address).is_some_and(|h| h.is_empty() || h == "*" || beyond_this_machine(h))
}

/// The value of `--flag=V` or `--flag V` among `args`.
pub(super) fn flag_values<'a>(args: &'a [String], flags: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        for f in flags {
            if a == f {
                out.extend(args.get(i + 1).map(String::as_str));
            } else if let Some(v) = eq_value(a, f) {
                out.push(v);
            }
        }
    }
    out
}

/// Node's inspector options (on the line or in `NODE_OPTIONS`) bound past
/// loopback: `--inspect=0.0.0.0:9229`.
fn node_inspector_exposed(words: &[String]) -> bool {
    words.iter().any(|a| {
        [
            "--inspect=",
            "--inspect-brk=",
            "--inspect-wait=",
            "--inspect-port=",
        ]
        .iter()
        .filter_map(|p| a.strip_prefix(p))
        .any(|v| host_of(v).is_some_and(beyond_this_machine))
    })
}

/// A JDWP agent that listens (`server=y`) on an address past loopback,
/// or connects out to a debugger on another machine.
fn jdwp_exposed(words: &[String]) -> bool {
    words.iter().any(|a| {
        let Some(opts) = a
            .strip_prefix("-agentlib:jdwp=")
            .or_else(|| a.strip_prefix("-Xrunjdwp:"))
        else {
            return false;
        };
        let server = opts.split(',').any(|o| o == "server=y");
        let address = opts
            .split(',')
            .find_map(|o| o.strip_prefix("address="))
            .unwrap_or("");
        // A bare port is loopback since Java 9. Without `server=y` the JVM
        // connects out, and the debugger at that address drives it.
        match host_of(address) {
            None => false,
            Some(h) => server && h == "*" || beyond_this_machine(h),
        }
    })
}

/// A JMX agent with a remote port and no authentication: whoever reaches
/// the port loads classes into the JVM (`-Dcom.sun.management.jmxremote.*`
/// on a java line, `jcmd PID ManagementAgent.start jmxremote.*`), unless
/// its host is loopback.
fn jmx_open(words: &[String]) -> bool {
    let setting = |name: &str| {
        words.iter().find_map(|w| {
            let (k, v) = w.split_once('=')?;
            k.ends_with(&format!("jmxremote.{name}")).then_some(v)
        })
    };
    setting("authenticate").is_some_and(|v| v.eq_ignore_ascii_case("false"))
        && setting("port").is_some()
        && setting("host").is_none_or(beyond_this_machine)
}

/// The words a JVM reads as its options: the line's own, and those inside
/// a property or option that carries more of them
/// (`-Dspring-boot.run.jvmArguments="-agentlib:jdwp=…"`,
/// `-Dorg.gradle.jvmargs=…`, `--jvm-args=…`).
fn jvm_words(args: &[String]) -> Vec<String> {
    let mut out = args.to_vec();
    for a in args {
        if (a.starts_with("-D") || a.starts_with("--jvm"))
            && let Some((_, v)) = a.split_once('=')
        {
            out.extend(
                v.split_whitespace()
                    .map(|w| w.trim_matches(['\'', '"']).to_string()),
            );
        }
    }
    out
}

/// Variables whose value is more of a JVM's or Node's options.
const OPTION_VARS: &[&str] = &[
    "NODE_OPTIONS",
    "JAVA_TOOL_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "_JAVA_OPTIONS",
    "JAVA_OPTS",
    "MAVEN_OPTS",
    "GRADLE_OPTS",
    "SBT_OPTS",
    "CATALINA_OPTS",
];

impl Analyzer<'_> {
    /// A debugger, notebook or IDE server reachable from other machines.
    pub(super) fn code_server(&mut self, c: &Cmd<'_>) {
        // `php -S 0.0.0.0:8000`: the project's root served to the network,
        // its `.git` and `.env` with it, and its PHP run for any visitor
        // (as `python -m http.server --bind 0.0.0.0`).
        if c.lb.starts_with("php")
            && let Some(addr) = c.value("-S")
        {
            let host = addr.text.rsplit_once(':').map_or("", |(h, _)| h);
            let root = c.value("-t").cloned().unwrap_or_else(|| Word::lit("."));
            if matches!(host, "0.0.0.0" | "[::]" | "::")
                && !root.dynamic
                && self.is_workdir(&self.norm(&root, c.cwd()))
            {
                self.block("serves the project's root to the network, its .git and secrets files with it, and runs its PHP for any visitor (php -S)");
            }
        }
        let env: Vec<String> = c
            .assigns
            .iter()
            .filter(|(n, _)| OPTION_VARS.contains(&n.as_str()))
            .flat_map(|(_, v)| {
                v.text
                    .split_whitespace()
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect();
        let args = &c.args;
        let lb = c.lb.as_str();
        let exposed = match lb {
            _ if node_inspector_exposed(&env) || jdwp_exposed(&env) => Some("a debugger"),
            _ if jmx_open(&env) => Some("a JMX agent without authentication"),
            "node" | "nodejs" | "deno" | "bun" if node_inspector_exposed(args) => {
                Some("the inspector")
            }
            // Any program: build tools and launchers pass JVM options on.
            _ if jdwp_exposed(&jvm_words(args)) => Some("a JDWP debugger"),
            _ if jmx_open(&jvm_words(args)) => Some("a JMX agent without authentication"),
            // `gdbserver :1234 prog` listens on every interface.
            // A serial device or a `--wrapper` command is no address.
            "gdbserver" => args
                .iter()
                .find(|a| !a.starts_with(['-', '/']) && a.contains(':'))
                .is_some_and(|a| listens_past_loopback(a))
                .then_some("gdbserver"),
            _ if debugpy(c) => flag_values(args, &["--listen", "--host", "--connect"])
                .into_iter()
                .any(|v| host_of(v).is_some_and(beyond_this_machine))
                .then_some("debugpy"),
            // Delve's headless server runs whatever a client sends it.
            "dlv"
                if args
                    .iter()
                    .any(|a| a == "--headless" || a == "--headless=true") =>
            {
                flag_values(args, &["--listen", "-l"])
                    .into_iter()
                    .any(listens_past_loopback)
                    .then_some("Delve's headless debugger")
            }
            _ if jupyter(c) => {
                let ips = flag_values(args, &["--ip", "--ServerApp.ip", "--NotebookApp.ip"]);
                // jupyter_server reads `*` and an empty address as every
                // interface.
                let open = ips.iter().any(|h| {
                    let h = h.trim_matches(['\'', '"']);
                    h == "*" || h.is_empty() || beyond_this_machine(h)
                });
                let no_token = flag_values(
                    args,
                    &[
                        "--ServerApp.token",
                        "--NotebookApp.token",
                        "--IdentityProvider.token",
                    ],
                )
                .iter()
                .any(|t| t.trim_matches(['\'', '"']).is_empty());
                if open && !no_token {
                    self.ask("jupyter serves notebooks to other machines (its token guards them)");
                }
                (open && no_token).then_some("Jupyter without a token")
            }
            "code-server" | "openvscode-server" => {
                let open = flag_values(args, &["--bind-addr", "--host"])
                    .into_iter()
                    .any(|v| host_of(v).is_some_and(beyond_this_machine));
                let no_auth = flag_values(args, &["--auth"]).contains(&"none")
                    || args.iter().any(|a| a == "--without-connection-token");
                (open && no_auth).then_some("a web IDE without a password")
            }
            "chrome"
            | "chromium"
            | "google-chrome"
            | "chromium-browser"
            | "google-chrome-stable"
            | "microsoft-edge"
            | "brave-browser"
            | "vivaldi" => flag_values(args, &["--remote-debugging-address"])
                .into_iter()
                .any(beyond_this_machine)
                .then_some("the browser's debugging port"),
            // A TCP socket (the default when no scheme is given) without
            // `--tlsverify`, which admits only clients holding its CA's cert.
            "dockerd" => {
                let mut hosts = flag_values(args, &["-H", "--host"]);
                hosts.extend(
                    args.iter()
                        .filter_map(|a| a.strip_prefix("-H").filter(|v| !v.is_empty())),
                );
                let tcp = hosts.into_iter().any(|v| {
                    !v.starts_with("unix://")
                        && !v.starts_with("fd://")
                        && host_of(v).is_some_and(beyond_this_machine)
                });
                let verified = args
                    .iter()
                    .any(|a| a == "--tlsverify" || a == "--tlsverify=true");
                (tcp && !verified).then_some("the Docker daemon (root on this machine)")
            }
            // `podman system service tcp:0.0.0.0:8888`: the container API,
            // unauthenticated on TCP.
            "podman" | "docker"
                if args.first().is_some_and(|a| a == "system")
                    && args.get(1).is_some_and(|a| a == "service") =>
            {
                args.iter()
                    .filter(|a| a.starts_with("tcp:"))
                    .any(|a| {
                        let a = a.trim_start_matches("tcp:").trim_start_matches("//");
                        listens_past_loopback(a)
                    })
                    .then_some("the container API")
            }
            // `OLLAMA_HOST=0.0.0.0 ollama serve`: a model server that pulls,
            // builds and deletes models for whoever asks.
            "ollama" if args.first().is_some_and(|a| a == "serve") => c
                .assigns
                .iter()
                .chain(c.script.commands.iter().flat_map(|k| k.assigns.iter()))
                .filter(|(n, _)| n == "OLLAMA_HOST")
                .any(|(_, v)| listens_past_loopback(&v.text))
                .then_some("the model server"),
            _ => None,
        };
        if let Some(what) = exposed {
            self.block(format!(
                "remote shell ({what} listens beyond this machine: whoever reaches the port runs code as you)"
            ));
        }
    }
}

/// `python -m debugpy …`, `debugpy …`, `python -m ptvsd …`.
/// Jupyter's servers, by name or as `python -m jupyter|notebook|jupyterlab`.
fn jupyter(c: &Cmd<'_>) -> bool {
    matches!(
        c.lb.as_str(),
        "jupyter" | "jupyter-lab" | "jupyter-notebook" | "jupyter-server"
    ) || c.lb.starts_with("python")
        && c.args
            .windows(2)
            .any(|w| w[0] == "-m" && matches!(w[1].as_str(), "jupyter" | "notebook" | "jupyterlab"))
}

fn debugpy(c: &Cmd<'_>) -> bool {
    matches!(c.lb.as_str(), "debugpy" | "ptvsd")
        || c.lb.starts_with("python")
            && (c
                .args
                .windows(2)
                .any(|w| w[0] == "-m" && matches!(w[1].as_str(), "debugpy" | "ptvsd"))
                || c.args
                    .iter()
                    .any(|a| matches!(a.as_str(), "-mdebugpy" | "-mptvsd")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_past_loopback() {
        assert!(beyond_this_machine("0.0.0.0"));
        assert!(beyond_this_machine("[::]"));
        assert!(beyond_this_machine("192.168.1.5"));
        assert!(beyond_this_machine("devbox"));
        assert!(!beyond_this_machine("127.0.0.1"));
        assert!(!beyond_this_machine("[::1]"));
        assert!(!beyond_this_machine("localhost"));
        assert_eq!(host_of("9229"), None);
        assert_eq!(host_of("0.0.0.0:9229"), Some("0.0.0.0"));
        assert_eq!(host_of("tcp://0.0.0.0:2375"), Some("0.0.0.0"));
    }
}
