//! Kernel and network settings, mounts, accounts, namespaces and containers.

use super::system::Verb;
use super::*;

impl Analyzer<'_> {
    /// `date -f FILE` prints each line it cannot parse (a key, whole);
    /// `-r FILE` its time. True when every such file is harmless. Read as
    /// getopt does: bundles (`-uf F`, `-fF`) and long prefixes (`--fil F`).
    fn date_files(&mut self, c: &Cmd<'_>) -> bool {
        let mut ok = true;
        let mut k = 0;
        while k < c.args.len() {
            let a = c.args[k].as_str();
            let word = &c.words[k + 1];
            let mut file: Option<Word> = None;
            let mut takes_next = false;
            if let Some(long) = a.strip_prefix("--") {
                let (name, value) = long
                    .split_once('=')
                    .map_or((long, None), |(n, v)| (n, Some(v)));
                let named = !name.is_empty()
                    && ("file".starts_with(name)
                        || name.len() >= 3 && "reference".starts_with(name));
                if named {
                    match value {
                        Some(v) => {
                            file = Some(Word {
                                text: v.to_string(),
                                ..word.clone()
                            })
                        }
                        None => takes_next = true,
                    }
                }
            } else if let Some(letters) = a.strip_prefix('-').filter(|l| !l.is_empty()) {
                for (at, ch) in letters.char_indices() {
                    if matches!(ch, 'd' | 's') {
                        break;
                    }
                    if matches!(ch, 'f' | 'r') {
                        let rest = &letters[at + 1..];
                        if rest.is_empty() {
                            takes_next = true;
                        } else {
                            file = Some(Word {
                                text: rest.to_string(),
                                ..word.clone()
                            });
                        }
                        break;
                    }
                }
            }
            if takes_next {
                file = c.words.get(k + 2).cloned();
                k += 1;
            }
            if let Some(f) = file {
                ok &= self.read_path(&f, c.cwd());
            }
            k += 1;
        }
        ok
    }

    /// Kernel, mounts, network settings, accounts, namespaces and containers.
    pub(super) fn kernel_and_accounts(&mut self, c: &Cmd<'_>, v: &Verb<'_>) -> Option<bool> {
        let Verb { b, lb, args, .. } = *v;
        match lb {
            "modprobe"
            | "insmod"
            | "rmmod"
            | "kexec"
            | "swapoff"
            | "swapon"
            | "mount"
            | "umount"
            | "sysrq"
            | "ifdown"
            | "ifup"
            | "nmcli"
            | "ip"
            | "ifconfig"
            | "route"
            | "tc"
            | "ethtool"
            | "iwconfig"
            | "hostnamectl"
            | "timedatectl"
            | "hwclock"
            | "date"
            | "update-grub"
            | "grub-install"
            | "efibootmgr"
            | "dracut"
            | "mkinitcpio"
            | "update-initramfs"
            | "chsh"
            | "chfn"
            | "ldconfig"
            | "update-alternatives"
            | "mount.cifs" => {
                // NetworkManager keeps Wi-Fi, VPN and 802.1X passwords;
                // these print them.
                if lb == "nmcli" && nmcli_secrets(args) {
                    self.block("reveals stored Wi-Fi and VPN passwords (nmcli)");
                }
                // `ip netns exec NAME CMD`, `ip vrf exec NAME CMD`, `ip -all
                // netns exec CMD`: CMD runs, judged as run here.
                if lb == "ip"
                    && let Some(at) = args.iter().position(|x| x == "exec")
                {
                    let every = args[..at].iter().any(|x| x == "-all" || x == "-a");
                    let start = at + if every { 1 } else { 2 };
                    let words: Vec<Word> = c.words.iter().skip(start + 1).cloned().collect();
                    if !words.is_empty() {
                        let mut line = Word::lit(Word::join(&words));
                        line.dynamic = words.iter().any(|w| w.dynamic);
                        self.shell_code(&line, &[], c.script, c.depth);
                    }
                    self.ask("ip runs a program in another network namespace");
                }
                let reads = match lb {
                    "mount" | "umount" => args.is_empty() || v.a("-l"),
                    // `-b F`/`-batch F` runs the commands in F: not a read.
                    "ip" => !args.iter().any(|x| {
                        matches!(
                            x.as_str(),
                            "-b" | "-batch"
                                | "--batch"
                                | "exec"
                                | "add"
                                | "del"
                                | "delete"
                                | "set"
                                | "flush"
                                | "change"
                                | "replace"
                                | "down"
                                | "up"
                                | "append"
                                | "prepend"
                        )
                    }),
                    "ifconfig" => args.len() <= 1 || v.a("-a"),
                    "route" => {
                        args.is_empty() || args.iter().all(|x| x.starts_with('-') && x != "-A")
                    }
                    "nmcli" => !args.iter().any(|x| {
                        matches!(
                            x.as_str(),
                            "down"
                                | "delete"
                                | "modify"
                                | "off"
                                | "up"
                                | "add"
                                | "connect"
                                | "disconnect"
                        )
                    }),
                    // `swapon --show`, `swapon -s`: the swap areas listed.
                    "swapon" => {
                        !args.is_empty()
                            && args.iter().all(|x| {
                                matches!(
                                    x.as_str(),
                                    "--show" | "-s" | "--summary" | "--bytes" | "--noheadings"
                                )
                            })
                            || args.iter().any(|x| x.starts_with("--show="))
                                && args.iter().all(|x| x.starts_with('-'))
                    }
                    "hostnamectl" | "timedatectl" => {
                        args.is_empty() || v.a("status") || v.a("show") || v.a("list-timezones")
                    }
                    "date" => {
                        !v.a("-s")
                            && !c.has("--set")
                            && !args.iter().any(|x| {
                                !x.starts_with('-')
                                    && !x.starts_with('+')
                                    && x.chars().all(|ch| ch.is_ascii_digit() || ch == '.')
                            })
                    }
                    "tc" | "ethtool" | "iwconfig" => {
                        args.len() <= 2 && !v.a("qdisc") || v.a("show")
                    }
                    "chsh" | "chfn" => false,
                    // `ldconfig -p` prints the linker's cache; any other
                    // spelling may rebuild it or link a folder's libraries.
                    "ldconfig" => {
                        !args.is_empty() && args.iter().all(|x| x == "-p" || x == "--print-cache")
                    }
                    _ => false,
                };
                if reads && lb == "date" {
                    return Some(self.date_files(c));
                }
                if reads {
                    return Some(true);
                }
                let outside = |a: &Self| {
                    c.words[1..]
                        .iter()
                        .filter(|w| !w.text.starts_with('-'))
                        .any(|w| w.dynamic || !a.inside(&a.norm(w, c.cwd())))
                };
                if matches!(lb, "chsh" | "chfn") {
                    self.block(format!("account change ({b})"));
                } else if matches!(lb, "mount" | "umount" | "mount.cifs" | "swapon")
                    && outside(self)
                {
                    // Remounting `/` writable, hiding a directory under another mount.
                    self.block(format!(
                        "changes the system's mounts ({b} outside the working directory)"
                    ));
                } else if matches!(
                    lb,
                    "kexec"
                        | "swapoff"
                        | "sysrq"
                        | "ifdown"
                        | "grub-install"
                        | "efibootmgr"
                        | "update-grub"
                        | "dracut"
                        | "mkinitcpio"
                        | "update-initramfs"
                        | "insmod"
                        | "modprobe"
                        | "rmmod"
                ) || lb == "date"
                    || (lb == "ip" && (v.a("down") || v.a("flush") || v.a("del")))
                    || (lb == "nmcli" && (v.a("off") || v.a("down") || v.a("delete")))
                {
                    self.block(format!("system disruption or kernel change ({b})"));
                }
                self.ask(format!("{b} changes system state"));
                Some(false)
            }
            "usermod"
            | "useradd"
            | "userdel"
            | "adduser"
            | "deluser"
            | "groupadd"
            | "groupdel"
            | "groupmod"
            | "gpasswd"
            | "passwd"
            | "chpasswd"
            | "visudo"
            | "vipw"
            | "vigr"
            | "setcap"
            | "newusers"
            | "chage"
            | "pwck"
            | "addgroup"
            | "delgroup"
            | "dscl"
            | "net"
            | "new-localuser"
            | "add-localgroupmember"
            | "pw" => {
                if lb == "net"
                    && !(v.joined.starts_with("user")
                        || v.joined.starts_with("localgroup")
                        || v.joined.starts_with("group"))
                {
                    self.ask("net");
                    return Some(false);
                }
                if lb == "passwd" && (v.a("-S") || v.a("--status")) {
                    return Some(true);
                }
                self.block(format!("privilege or account change ({b})"));
                Some(false)
            }
            "nsenter" => {
                if v.joined.contains("-t 1")
                    || v.joined.contains("--target 1")
                    || v.joined.contains("--target=1")
                    || v.a("-a")
                    || v.a("--all")
                {
                    self.block("sandbox escape (nsenter into the host's namespaces)");
                }
                self.ask("nsenter enters namespaces");
                Some(false)
            }
            "docker" | "podman" | "nerdctl" | "lxc" | "incus" | "ctr" | "crictl" | "kubectl"
            | "helm" | "minikube" | "kind" | "virsh" | "vagrant" => Some(self.container(c)),
            _ => None,
        }
    }

    /// Containers: host mounts, privileges and namespaces escape the sandbox.
    pub(super) fn container(&mut self, c: &Cmd<'_>) -> bool {
        let args = &c.args;
        let lb = c.lb.as_str();
        if lb == "kubectl" || lb == "helm" {
            let j = lower(&args.join(" "));
            // A secret's values, not its name: `get secret -o yaml`, a
            // template, jsonpath (a listing shows names; `describe` sizes).
            let values_shown = args.iter().any(|x| {
                let l = lower(x);
                (l == "-o" || l == "--output" || l.starts_with("-o") || l.starts_with("--output="))
                    && !matches!(
                        l.as_str(),
                        "-oname" | "-owide" | "--output=name" | "--output=wide"
                    )
                    || l.starts_with("--template")
            }) && !args.windows(2).any(|w| {
                matches!(w[0].as_str(), "-o" | "--output")
                    && matches!(w[1].as_str(), "name" | "wide")
            });
            let get_secret = (j.contains("get secret")
                || j.contains("get -o") && j.contains("secret"))
                && values_shown
                && !j.contains("--dry-run");
            if (j.contains("config view") && j.contains("--raw"))
                || get_secret
                || j.contains("create token")
                || j.contains("config view --flatten")
            {
                self.block("reveals cluster credentials");
            }
            if j.contains("--privileged") || j.contains("hostpid") || j.contains("\"hostpath\"") {
                self.block("sandbox escape (a privileged pod with host access)");
            }
            // The tool's own version, the cluster not asked.
            let own_version = args.first().is_some_and(|x| x == "version")
                && (lb == "helm" || args.iter().any(|x| x == "--client" || x == "--client=true"))
                && args[1..].iter().all(|x| {
                    matches!(
                        x.as_str(),
                        "--client"
                            | "--client=true"
                            | "--short"
                            | "-o"
                            | "--output"
                            | "json"
                            | "yaml"
                    ) || x.starts_with("--output=")
                });
            if own_version {
                return true;
            }
            let reads = matches!(
                args.first().map(String::as_str),
                Some(
                    "get"
                        | "describe"
                        | "logs"
                        | "version"
                        | "top"
                        | "explain"
                        | "api-resources"
                        | "cluster-info"
                )
            );
            self.ask(format!(
                "{} {}",
                c.base,
                if reads {
                    "reads a cluster"
                } else {
                    "changes a cluster"
                }
            ));
            return false;
        }
        // Each `--flag value` as `--flag=value`, so one spelling is judged.
        let mut joined: Vec<String> = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let x = &args[i];
            let valued = matches!(
                x.as_str(),
                "--pid" | "--userns" | "--uts" | "--cap-add" | "--device" | "--security-opt"
            );
            match args.get(i + 1).filter(|_| valued) {
                Some(v) => {
                    joined.push(format!("{x}={v}"));
                    i += 2;
                }
                None => {
                    joined.push(x.clone());
                    i += 1;
                }
            }
        }
        let privileged = joined.iter().any(|x| {
            let l = lower(x);
            l == "--privileged"
                || l.strip_prefix("--privileged=").is_some_and(|v| v != "false")
                || l.starts_with("--pid=host")
                || l.starts_with("--userns=host")
                || l.starts_with("--uts=host")
                || l.starts_with("--cap-add=sys_admin")
                || l.starts_with("--cap-add=all")
                || l.starts_with("--cap-add=sys_ptrace")
                || l.starts_with("--cap-add=sys_module")
                || l.starts_with("--cap-add=dac_read_search")
                || l.contains("apparmor=unconfined")
                || l.contains("seccomp=unconfined")
                // A disk or memory device handed in (`/dev/sda:/dev/xvda`).
                || l.strip_prefix("--device=").is_some_and(|d| {
                    paths::device(d.split(':').next().unwrap_or(d))
                })
                || l == "--security-opt=no-new-privileges:false"
        });
        let mount_of = |spec: &str| -> Option<String> {
            let l = spec.trim_matches(['\'', '"']);
            if let Some(src) = l.strip_prefix("type=bind,").or(Some(l)) {
                let src = src
                    .split(',')
                    .find_map(|kv| {
                        kv.strip_prefix("source=")
                            .or_else(|| kv.strip_prefix("src="))
                    })
                    .unwrap_or_else(|| src.split(':').next().unwrap_or(""));
                return Some(src.to_string());
            }
            None
        };
        let mut mounts: Vec<String> = Vec::new();
        for (i, x) in args.iter().enumerate() {
            if matches!(x.as_str(), "-v" | "--volume" | "--mount")
                && let Some(spec) = args.get(i + 1)
            {
                mounts.extend(mount_of(spec));
            } else if let Some(spec) = x
                .strip_prefix("--volume=")
                .or_else(|| x.strip_prefix("--mount="))
                .or_else(|| x.strip_prefix("-v").filter(|s| !s.is_empty()))
            {
                mounts.extend(mount_of(spec));
            }
        }
        for m in &mounts {
            let p = self.norm_text(&paths::word_path(m, false), c.cwd());
            if paths::credential_normalized(&p, m).is_some()
                || m.contains("docker.sock")
                || m.contains("containerd.sock")
                || m.contains("podman.sock")
                || p == "/"
                || p == "/etc"
                || p == "/root"
                || p == "/home"
                || p == "/var/run"
                || p == "/run"
                || p == "/proc"
                || p == "/sys"
                || p == "/dev"
                || p.starts_with("/var/lib/docker")
                || paths::contains_credentials(&p)
                || self.app_state(&p)
            {
                self.block(format!(
                    "sandbox escape ({} mounts {m} from the host)",
                    c.base
                ));
            }
        }
        if privileged {
            self.block(format!("sandbox escape ({} with host access)", c.base));
        }
        if args.first().is_some_and(|x| x == "login")
            && (args.iter().any(|x| x == "--password-stdin")
                || args.iter().any(|x| x == "-p" || x == "--password"))
        {
            self.ask(format!("{} logs in to a registry", c.base));
        }
        self.container_command(c);
        // Listing containers and images shows names and states, not their
        // environments or files.
        let sub: Vec<&str> = args.iter().take(2).map(String::as_str).collect();
        let lists = matches!(
            sub.as_slice(),
            ["ps" | "images" | "version", ..]
                | ["compose", "ps" | "ls" | "images"]
                | ["container" | "image", "ls"]
        ) && args.iter().skip(1).all(|x| {
            !x.starts_with('-')
                || matches!(
                    x.as_str(),
                    "-a" | "--all"
                        | "-q"
                        | "--quiet"
                        | "--no-trunc"
                        | "--format"
                        | "-f"
                        | "--filter"
                )
                || x.starts_with("--format=")
                || x.starts_with("--filter=")
        });
        if lists {
            return true;
        }
        let reads = matches!(
            args.first().map(String::as_str),
            Some(
                "ps" | "images"
                    | "logs"
                    | "inspect"
                    | "version"
                    | "info"
                    | "stats"
                    | "top"
                    | "port"
                    | "diff"
                    | "history"
                    | "search"
            )
        );
        self.ask(format!(
            "{} {}",
            c.base,
            if reads {
                "reads containers"
            } else {
                "manages containers"
            }
        ));
        false
    }

    /// The command a container is started with. Inside a throwaway
    /// container it is the container's business; in one that stays up or
    /// comes back after a reboot (`-d`, `--restart`), what would block here
    /// is a backdoor kept running.
    fn container_command(&mut self, c: &Cmd<'_>) {
        let Some(sub) = c.args.first().map(String::as_str) else {
            return;
        };
        if !matches!(sub, "run" | "create" | "exec") {
            return;
        }
        let kept = c.args.iter().any(|x| {
            matches!(x.as_str(), "-d" | "--detach")
                || (x.starts_with("--restart") && !x.ends_with("=no"))
                || (short_has(x, 'd') && x.len() <= 4)
        });
        if !kept {
            return;
        }
        let Some(k) = c
            .words
            .iter()
            .enumerate()
            .skip(2)
            .find(|(_, w)| !w.text.starts_with('-') && super::known_program(&program_name(&w.text)))
            .map(|(k, _)| k)
        else {
            return;
        };
        let rest: Vec<Word> = c.words[k..].to_vec();
        self.block_only(|b| b.run_words(rest, c.src, c.script, c.depth + 1));
    }
}

/// nmcli takes any unambiguous prefix of its options and words: `-s`,
/// `--show-sec`, `-show-secrets`, and under `device wifi` anything from
/// `sh…` (`show-password`) print stored passwords.
fn nmcli_secrets(args: &[String]) -> bool {
    let prefix_of = |x: &str, word: &str, min: usize| x.len() >= min && word.starts_with(x);
    let secrets_flag = args.iter().any(|x| {
        let l = x.to_ascii_lowercase();
        l == "-s" || prefix_of(&l, "--show-secrets", 4) || prefix_of(&l, "-show-secrets", 3)
    });
    let words: Vec<String> = args
        .iter()
        .filter(|x| !x.starts_with('-'))
        .map(|x| x.to_ascii_lowercase())
        .collect();
    let wifi = words
        .windows(2)
        .any(|w| prefix_of(&w[0], "device", 1) && prefix_of(&w[1], "wifi", 1))
        && words.iter().any(|w| w.starts_with("sh"));
    secrets_flag || wifi
}
