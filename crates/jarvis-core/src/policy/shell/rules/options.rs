//! Options and settings whose value is a program to run, or that switch a
//! safety off for every later run: judged as what they run or switch off.

use super::*;

/// (program, options whose value is a shell command line).
const COMMAND_OPTIONS: &[(&str, &[&str])] = &[
    ("split", &["--filter"]),
    ("sort", &["--compress-program"]),
    ("zip", &["-TT", "--unzip-command"]),
    ("tcpdump", &["-z"]),
    ("mysql", &["--pager"]),
    ("mariadb", &["--pager"]),
    ("wget", &["--use-askpass"]),
    ("cpio", &["--rsh-command"]),
    ("pandoc", &["--filter", "-F", "--lua-filter"]),
    (
        "openvpn",
        &[
            "--up",
            "--down",
            "--route-up",
            "--ipchange",
            "--client-connect",
            "--learn-address",
            "--tls-verify",
            "--auth-user-pass-verify",
        ],
    ),
    // `-o '|cmd'` pipes the trace into a command.
    ("strace", &["-o", "--output"]),
    ("ltrace", &["-o", "--output"]),
];

/// Cargo settings (`--config K=V`, `CARGO_…` variables) whose value cargo runs.
fn cargo_runs(key: &str) -> bool {
    let k = key.to_ascii_lowercase().replace('_', "-");
    k.ends_with(".runner")
        || k.ends_with(".linker")
        || k.ends_with("rustc-wrapper")
        || k.ends_with("rustc-workspace-wrapper")
        || k.ends_with("rustc")
        || k.ends_with("rustdoc")
        || k.ends_with("credential-provider")
        || k.ends_with("credential-providers")
        || k.starts_with("alias.")
        || k.ends_with("-runner")
        || k.ends_with("-linker")
}

impl Analyzer<'_> {
    pub(super) fn command_options(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        if let Some((_, opts)) = COMMAND_OPTIONS.iter().find(|(p, _)| *p == lb) {
            for (i, w) in c.words.iter().enumerate().skip(1) {
                for opt in opts.iter() {
                    let value = if w.text == *opt {
                        c.words.get(i + 1).cloned()
                    } else {
                        w.text.strip_prefix(&format!("{opt}=")).map(|v| Word {
                            text: v.to_string(),
                            ..w.clone()
                        })
                    };
                    let Some(mut v) = value else { continue };
                    if matches!(lb, "strace" | "ltrace") {
                        let Some(cmd) = v.text.strip_prefix(['|', '!']) else {
                            continue;
                        };
                        v.text = cmd.to_string();
                    }
                    self.shell_code(&v, &[], c.script, c.depth);
                    self.ask(format!("{} {opt} runs a program", c.base));
                }
            }
        }
        if lb == "cargo" {
            self.cargo_config(c);
        }
        self.safety_off(c);
        // `machinectl shell [USER@]HOST` is root's shell unless a user is named.
        if lb == "machinectl" {
            let ops: Vec<&String> = c.args.iter().filter(|x| !x.starts_with('-')).collect();
            if ops.first().is_some_and(|x| *x == "shell" || *x == "login") {
                let user = ops.get(1).and_then(|t| t.split_once('@')).map(|(u, _)| u);
                let uid_root = c.args.iter().any(|x| x == "--uid=0" || x == "--uid=root");
                if user.is_none_or(|u| u.is_empty() || u == "root" || u == "0") || uid_root {
                    self.block("privilege escalation (machinectl shell opens a root shell)");
                }
            }
        }
    }

    /// `cargo --config 'target.X.runner="…"'` and the same as `CARGO_…`
    /// variables: the value is a program cargo starts.
    fn cargo_config(&mut self, c: &Cmd<'_>) {
        let mut settings: Vec<(String, Word)> = Vec::new();
        for (i, w) in c.words.iter().enumerate().skip(1) {
            let kv = if w.text == "--config" {
                c.words.get(i + 1).cloned()
            } else {
                w.text.strip_prefix("--config=").map(|v| Word {
                    text: v.to_string(),
                    ..w.clone()
                })
            };
            if let Some(kv) = kv
                && let Some((k, v)) = kv.text.split_once('=')
            {
                // A TOML string: one pair of quotes, `\"` inside.
                let v = v.trim();
                let v = v
                    .strip_prefix('"')
                    .and_then(|x| x.strip_suffix('"'))
                    .or_else(|| v.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')))
                    .unwrap_or(v)
                    .replace("\\\"", "\"");
                settings.push((
                    k.trim().to_string(),
                    Word {
                        text: v,
                        ..kv.clone()
                    },
                ));
            }
        }
        for (name, v) in &c.src.assigns {
            if name.starts_with("CARGO_") || name.starts_with("RUSTC_") || name == "RUSTC" {
                settings.push((name.clone(), v.clone()));
            }
        }
        for (k, v) in settings {
            if cargo_runs(&k) {
                self.shell_code(&v, &[], c.script, c.depth);
                self.ask(format!("cargo setting {k} runs a program"));
            }
        }
    }

    /// Settings that turn TLS verification (or package signatures) off for
    /// every later run of a tool: disabling security, so they block.
    /// One run with the check off (`git -c http.sslVerify=false clone`)
    /// asks like any other.
    fn safety_off(&mut self, c: &Cmd<'_>) {
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
                j.starts_with("config set") && (off("strict-ssl") || off("ssl-verify"))
            }
            "pip" | "pip3" => {
                j.starts_with("config set") && (j.contains("trusted-host") || off("cert"))
            }
            "conda" => j.contains("--set") && off("ssl_verify"),
            "apt-config" | "dnf" | "yum" => off("gpgcheck") && j.contains("set"),
            _ => false,
        };
        if persistent {
            self.block(format!(
                "disables security ({} stops verifying TLS or signatures for every later run)",
                c.base
            ));
        }
    }
}
