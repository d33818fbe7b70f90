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
            // A proxy device: with `bind=instance` the host's socket is
            // reached from inside; listening on every interface, anyone's.
            if let Some(sock) = a.strip_prefix("connect=unix:")
                && powerful_socket(sock)
            {
                let inward = args
                    .iter()
                    .any(|x| matches!(*x, "bind=instance" | "bind=container"));
                let everyone = args.iter().any(|x| {
                    x.strip_prefix("listen=tcp:").is_some_and(|l| {
                        let host = l.rsplit_once(':').map_or(l, |(h, _)| h);
                        !super::project_out::is_loopback(host) || host == "0.0.0.0"
                    })
                });
                if inward || everyone {
                    self.block(format!(
                        "sandbox escape ({tool} hands a socket that holds root's powers to a container or the network: {sock})"
                    ));
                }
            }
        }
        // `config device set C DEV source /home/u`: a key, then its value.
        for w in args.windows(2) {
            if w[0] == "source" && !w[1].starts_with('-') {
                self.host_folder_shared(w[1], c, "a container");
            }
        }
        // `profile edit NAME` fed YAML: its `config:` keys.
        if args.contains(&"edit")
            && let Some(feeder) = c.src.stdin_from.and_then(|i| c.script.commands.get(i))
            && let Some(text) = super::super::eval::printed(feeder)
        {
            for line in text.lines() {
                if let Some((k, v)) = line.trim().split_once(": ") {
                    self.container_setting(k.trim(), v.trim().trim_matches(['"', '\'']), c);
                }
            }
        }
        for (key, value) in container_settings(args) {
            self.container_setting(&key, &value, c);
        }
        // `exec C -- sh -c "$(wget …)"`: code from the network, run inside.
        if args.contains(&"exec") {
            for w in c.words.iter().filter(|w| w.dynamic || w.procsub) {
                if let Some(why) = self.code_source(w, c.script) {
                    self.block(format!("{why} ({tool} runs it in a container)"));
                }
            }
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
                    if k == "lxc.include" {
                        match self.written_text(&Word::lit(v), c.cwd()) {
                            // (Its own includes are not followed again.)
                            Some(text) => {
                                let text: String = text
                                    .lines()
                                    .filter(|l| !l.contains("lxc.include"))
                                    .collect::<Vec<_>>()
                                    .join("\n");
                                self.container_setting("raw.lxc", &text, c);
                            }
                            None => self.ask(format!("{tool} includes a configuration file")),
                        }
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

/// LXD/Incus settings: `config set INST KEY VALUE`, `… KEY=VALUE…`,
/// `profile set P KEY VALUE`, `-c KEY=VALUE`, `--config=KEY=VALUE` on
/// launch and init.
fn container_settings(args: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let is_key = |k: &str| {
        k.contains('.')
            && k.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "._-".contains(ch))
    };
    for (i, a) in args.iter().enumerate() {
        // (`-csecurity.privileged=true`: the value attached.)
        let given = match *a {
            "-c" | "--config" => args.get(i + 1).copied(),
            _ => a
                .strip_prefix("--config=")
                .or_else(|| a.strip_prefix("-c").filter(|r| r.contains('='))),
        };
        if let Some((k, v)) = given.and_then(|g| g.split_once('=')) {
            out.push((k.to_string(), v.to_string()));
        }
    }
    if let Some(at) = args.iter().position(|a| *a == "set") {
        // (A value may begin with `-`: `raw.qemu -- '-netdev …'`.)
        let rest: Vec<&str> = args[at + 1..]
            .iter()
            .copied()
            .filter(|a| *a != "--" && (!a.starts_with('-') || a.contains(' ')))
            .collect();
        let mut k = 0;
        while let Some(w) = rest.get(k) {
            match w.split_once('=') {
                Some((key, v)) if is_key(key) => out.push((key.to_string(), v.to_string())),
                _ if is_key(w) => {
                    if let Some(v) = rest.get(k + 1) {
                        out.push((w.to_string(), v.to_string()));
                        k += 1;
                    }
                }
                _ => {}
            }
            k += 1;
        }
    }
    out
}
