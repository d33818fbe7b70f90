//! LXD and Incus: the devices, settings and raw configuration that hand
//! a system container (or its VM) the host, and the commands run inside.

use super::infra::powerful_socket;
use super::virt::option_words;
use super::*;

impl Analyzer<'_> {
    /// LXD and Incus: devices and settings that hand a container the host.
    pub(super) fn system_containers(&mut self, c: &Cmd<'_>, args: &[&str]) {
        let tool = c.base.as_str();
        for a in args {
            if let Some(src) = a.strip_prefix("source=") {
                if paths::device(src) {
                    self.block(format!("{tool} hands the disk device {src} to a container"));
                } else {
                    self.host_folder_shared(src, c, "a container");
                }
            }
            if let Some(sock) = a.strip_prefix("connect=unix:")
                && powerful_socket(sock)
            {
                self.block(format!(
                    "sandbox escape ({tool} hands a container a socket that holds root's powers: {sock})"
                ));
            }
        }
        for (key, value) in container_settings(args) {
            self.container_setting(&key, &value, c);
        }
        if let Some(at) = args.iter().position(|a| *a == "exec")
            && let Some(dash) = args[at..].iter().position(|a| *a == "--")
        {
            self.guest_words(
                &args[at + dash + 1..],
                c,
                &format!("a command {tool} runs in a container"),
            );
        }
    }

    fn container_setting(&mut self, key: &str, value: &str, c: &Cmd<'_>) {
        let tool = c.base.as_str();
        let on = matches!(lower(value).as_str(), "true" | "1" | "yes" | "on");
        match key {
            "security.privileged" if on => self.block(format!(
                "sandbox escape ({tool}: a privileged container's root is this machine's root)"
            )),
            "raw.qemu" => {
                let words = option_words(value);
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                self.qemu_args(&words, c);
            }
            "raw.lxc" => {
                for line in value.lines() {
                    let Some((k, v)) = line.split_once('=') else {
                        continue;
                    };
                    let (k, v) = (k.trim(), v.trim());
                    if k.starts_with("lxc.hook.") {
                        self.host_runs(v, c, "an LXC hook");
                    }
                    let unconfined = k == "lxc.apparmor.profile" && v == "unconfined"
                        || k == "lxc.cap.drop" && v.is_empty()
                        || k.starts_with("lxc.cgroup")
                            && k.ends_with("devices.allow")
                            && v.starts_with('a')
                        || k == "lxc.mount.auto" && v.contains(":rw");
                    if unconfined {
                        self.block(format!(
                            "sandbox escape ({tool} lifts a container's confinement: {k} = {v})"
                        ));
                    }
                    if k == "lxc.mount.entry" {
                        self.host_folder_shared(
                            v.split_whitespace().next().unwrap_or(""),
                            c,
                            "a container",
                        );
                    }
                }
            }
            _ => {}
        }
    }
}

/// LXD/Incus settings: `config set INST KEY VALUE`, `config set INST
/// KEY=VALUE…`, `-c KEY=VALUE` on launch/init.
fn container_settings(args: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, w) in args.windows(2).enumerate() {
        if matches!(w[0], "-c" | "--config")
            && let Some((k, v)) = w[1].split_once('=')
        {
            out.push((k.to_string(), v.to_string()));
        }
        if w == ["config", "set"] {
            let rest = &args[(i + 2).min(args.len())..];
            // (A value may begin with `-`: `raw.qemu -- '-netdev …'`.)
            let rest: Vec<&str> = rest
                .iter()
                .copied()
                .filter(|a| *a != "--" && (!a.starts_with('-') || a.contains(' ')))
                .collect();
            let pairs = rest.iter().skip(1).filter_map(|a| a.split_once('='));
            let pairs: Vec<(&str, &str)> = pairs.collect();
            if !pairs.is_empty()
                && rest
                    .get(1)
                    .is_some_and(|a| a.contains('=') && !a.starts_with("raw."))
            {
                out.extend(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())));
            } else if let [_, key, value, ..] = rest.as_slice() {
                out.push((key.to_string(), value.to_string()));
            } else if let [key, value] = rest.as_slice() {
                out.push((key.to_string(), value.to_string()));
            }
        }
    }
    out
}
