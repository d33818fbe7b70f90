//! Containers, clusters, infrastructure as code, virtual machines and
//! cloud CLIs: what they do to this machine (a host folder or device
//! handed over, a port of Jarvis's taken, a socket published, code pulled
//! from a location and run) and what they open to the world (a listener on
//! every interface, a firewall opened to the internet, a cluster-admin
//! binding). Reads of their state are in `inspectors.rs`.

use super::*;

/// Ports of this machine that are never for anyone else: Jarvis's own.
pub(super) fn jarvis_port(spec: &str) -> bool {
    spec.split([':', '-', '/', ','])
        .any(|p| p.parse::<u16>() == Ok(crate::policy::url::JARVIS_PORT))
}

/// An address that listens beyond this machine.
pub(super) fn every_interface(addr: &str) -> bool {
    let a = addr.trim_matches(['\'', '"', '[', ']']);
    a == "0.0.0.0" || a == "::" || a == "*" || a.is_empty()
}

/// Sockets that hand over a user's powers to whoever reaches them.
pub(super) fn powerful_socket(s: &str) -> bool {
    let l = lower(s);
    l.contains("docker.sock")
        || l.contains("containerd.sock")
        || l.contains("podman.sock")
        || l.contains("ssh_auth_sock")
        || l.contains("/agent.")
        || l.contains("gnupg/s.gpg-agent")
        // (`$(gpgconf --list-dirs agent-socket)`: the agent's socket, found.)
        || l.contains("agent-socket")
        || l.contains("agent-ssh-socket")
        || l.contains("dbus")
        // Virtual machine and system container managers run as root.
        || l.contains("libvirt-sock")
        || l.contains("lxd/unix.socket")
        || l.contains("incus/unix.socket")
        || l.contains("vbox") && l.contains("ipc")
}

impl Analyzer<'_> {
    /// The risks of containers, clusters, IaC, VMs and cloud CLIs.
    pub(super) fn infra_risks(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let j = lower(&c.args.join(" "));
        self.vm_risks(c);
        match lb {
            "docker" | "podman" | "nerdctl" | "docker-compose" | "podman-compose" => {
                self.container_risks(c, &args, &j)
            }
            "kubectl" | "oc" => self.cluster_risks(c, &args, &j),
            "helm"
                if args.starts_with(&["plugin", "install"])
                    && args.get(2).is_some_and(|u| u.contains("://")) =>
            {
                self.block("download and execute (a helm plugin from a location runs its hooks and binaries)");
            }
            "terraform" | "tofu" => self.iac_risks(c, &args),
            "minikube" if args.first() == Some(&"mount") => {
                let src = args.get(1).and_then(|m| m.split(':').next()).unwrap_or("");
                self.host_folder_shared(src, c, "minikube mount");
            }
            "kind" => {
                if let Some(cfg) = c.value("--config").cloned()
                    && let Some(text) = self.written_text(&cfg, c.cwd())
                {
                    for line in text.lines() {
                        if let Some(p) = line
                            .trim()
                            .strip_prefix("- hostPath:")
                            .or_else(|| line.trim().strip_prefix("hostPath:"))
                        {
                            self.host_folder_shared(p.trim(), c, "a kind node");
                        }
                    }
                }
            }
            // (`serve-web` without its token: an editor, a terminal with
            // it, for whoever reaches the port.)
            "code" | "code-insiders" | "devtunnel"
                if args.first().is_some_and(|a| *a == "tunnel" || *a == "host")
                    || args.first() == Some(&"serve-web")
                        && args.contains(&"--without-connection-token")
                        && super::script_opts::values(c, &["--host"])
                            .iter()
                            .any(|h| super::code_servers::beyond_this_machine(&h.text)) =>
            {
                self.block(format!(
                    "remote shell risk ({} tunnel opens this machine to a remote login)",
                    c.base
                ));
            }
            "aws" | "gcloud" | "az" if opens_to_the_internet(&j) => {
                self.block(format!("{} opens a firewall to the whole internet", c.base));
            }
            "act" => {
                for w in super::script_opts::values(c, &["-W", "--workflows"]) {
                    self.sourced(&w, c);
                }
                if let Some(opts) = c.value("--container-options") {
                    let o = lower(&opts.text);
                    if o.contains("--privileged")
                        || o.contains("-v /:")
                        || o.contains("docker.sock")
                    {
                        self.block("act runs jobs in containers with host access");
                    }
                }
            }
            "gitlab-runner" => {
                // Registered with the shell executor, this machine runs in a
                // shell whatever jobs the server hands out: a remote shell.
                let shell_executor = super::script_opts::values(c, &["--executor"])
                    .iter()
                    .any(|w| matches!(w.text.as_str(), "shell" | "ssh"));
                if c.args.first().is_some_and(|a| a == "register") && shell_executor {
                    self.block(
                        "remote shell (gitlab-runner registers this machine to run a server's jobs in its shell)",
                    );
                }
                if j.contains("--docker-privileged") || j.contains("docker.sock") {
                    self.block(
                        "gitlab-runner runs a job with host access (privileged, the Docker socket)",
                    );
                }
                for w in super::script_opts::values(c, &["--docker-volumes"]) {
                    let src = w.text.split(':').next().unwrap_or("").to_string();
                    self.host_folder_shared(&src, c, "a CI job");
                }
            }
            "mvn" | "mvnw" if j.contains("exec-maven-plugin") || j.contains("exec:exec") => {
                let prog = args
                    .iter()
                    .find_map(|a| a.strip_prefix("-Dexec.executable="));
                let rest = args
                    .iter()
                    .find_map(|a| a.strip_prefix("-Dexec.args="))
                    .unwrap_or("");
                if let Some(p) = prog {
                    let line = format!("{} {}", crate::policy::shell::quote(p), rest);
                    self.script(&line, &[], c.depth + 1);
                }
                self.ask("maven runs a program (exec plugin)");
            }
            // `-p:PostBuildEvent='cmd'`: MSBuild runs the event's text as
            // a command line after (or before) the build.
            "dotnet" | "msbuild" | "xbuild" => self.build_events(c, &args),
            "direnv" if args.first() == Some(&"allow") => {
                let dir = args.get(1).copied().unwrap_or(".");
                let envrc = Word::lit(format!("{}/.envrc", dir.trim_end_matches('/')));
                if let Some(text) = self.written_text(&envrc, c.cwd()) {
                    self.script(&text, &[], c.depth + 1);
                }
                self.ask("direnv trusts an .envrc, run on every cd into the folder");
            }
            "vagrant" => {
                if args.first() == Some(&"box")
                    && args.get(1) == Some(&"add")
                    && args
                        .iter()
                        .any(|a| a.starts_with("http://") || a.starts_with("https://"))
                {
                    self.block("download and execute (a Vagrant box from a location ships a Vagrantfile that runs on this machine)");
                }
                let vf = Word::lit("Vagrantfile");
                if let Some(text) = self.written_text(&vf, c.cwd()) {
                    self.inline_code("ruby", &text, c.depth);
                }
            }
            "puppet" if args.first() == Some(&"apply") => {
                let code = c
                    .value("-e")
                    .or_else(|| c.value("--execute"))
                    .map(|w| w.text.clone());
                if let Some(code) = code {
                    self.puppet_code(&code, c);
                }
            }
            "ansible-playbook" => {
                for w in c.words.iter().skip(1).filter(|w| !w.text.starts_with('-')) {
                    self.sourced(w, c);
                }
            }
            "ssh" => {
                self.ssh_forwards(c, &args);
                self.ssh_sends_env(c);
            }
            "scp" | "sftp" | "autossh" => self.ssh_sends_env(c),
            _ => {}
        }
        // Another session's agent, picked up from where it lies.
        for (name, value) in c.assigns.iter() {
            let elsewhere = |w: &Word| w.text.contains("/tmp/ssh-") || w.text.contains("/agent.");
            if name == "SSH_AUTH_SOCK"
                && super::effects::in_word_or_subs(value, c.script, elsewhere)
            {
                self.block("borrows another session's SSH agent (its keys sign for whoever holds the socket)");
            }
        }
        // A socket that hands over the user's powers, put on the network.
        if lb == "socat" {
            let listens =
                j.contains("tcp-listen") || j.contains("tcp4-listen") || j.contains("tcp6-listen");
            let powerful = |w: &Word| powerful_socket(&w.text);
            if listens
                && c.words
                    .iter()
                    .skip(1)
                    .any(|w| super::effects::in_word_or_subs(w, c.script, powerful))
            {
                self.block("publishes a local socket that holds the user's powers (an agent, Docker) on the network");
            }
            // `socat TCP-LISTEN:9000,fork TCP:127.0.0.1:8888`: a notebook
            // server, Jarvis or a debugger relayed to every interface.
            let everywhere =
                !j.contains("bind=") || j.contains("bind=0.0.0.0") || j.contains("bind=[::]");
            let relays_code_port = c.words.iter().skip(1).any(|w| {
                let l = lower(&w.text);
                let Some(rest) = l.strip_prefix("tcp:").or_else(|| l.strip_prefix("tcp4:")) else {
                    return false;
                };
                let (host, port) = rest
                    .split(',')
                    .next()
                    .unwrap_or("")
                    .rsplit_once(':')
                    .unwrap_or(("", ""));
                super::project_out::is_loopback(host)
                    && port.parse::<u16>().is_ok_and(|p| {
                        crate::policy::url::ADMIN_PORTS.contains(&p)
                            || crate::policy::url::CODE_PORTS.contains(&p)
                    })
            });
            if listens && everywhere && relays_code_port {
                self.block("relays a local port that runs code (a notebook, Jarvis, a debugger) to the network");
            }
        }
    }

    /// A host folder handed to a guest, a container or a cluster: home, the
    /// root or a system folder is everything in it, past every permission.
    pub(super) fn host_folder_shared(&mut self, src: &str, c: &Cmd<'_>, to: &str) {
        let src = src.trim_matches(['\'', '"']);
        if src.is_empty() {
            return;
        }
        // `/home//user`, `/home/./user/`: the same folder.
        let cleaned = paths::squeezed(src);
        let cleaned = cleaned.trim_end_matches("/.");
        let src = if cleaned.len() > 1 {
            cleaned.trim_end_matches('/')
        } else {
            cleaned
        };
        let p = self.norm(&super::script_opts::expanded(src), c.cwd());
        if p == "/"
            || p == "~"
            || p == "/home"
            || p == "/root"
            || [
                "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/proc", "/sys",
                "/dev", "/run", "/var/run",
            ]
            .iter()
            .any(|d| p == *d || p.starts_with(&format!("{d}/")))
            || p == "/var"
            || paths::contains_credentials(&p)
            || paths::credential_normalized(&p, src).is_some()
            || self.app_state(&p)
        {
            self.block(format!(
                "sandbox escape ({src} of this machine shared with {to})"
            ));
        }
        if !self.inside(&p) {
            self.ask(format!("shares {src} with {to}"));
        }
    }

    fn container_risks(&mut self, c: &Cmd<'_>, args: &[&str], j: &str) {
        // Containers' environments are where their passwords and keys are
        // handed in: a field that prints them, or `env` run inside one.
        // `docker container inspect`, `docker compose exec`: the same verbs.
        let verbs = container_verbs(args);
        // `docker cp C:/x ~/.bashrc`: a host path on either side is read
        // (sent in) or written (copied out).
        if verbs.first() == Some(&"cp") {
            let ends: Vec<&str> = verbs[1..]
                .iter()
                .copied()
                .filter(|a| !a.starts_with('-'))
                .collect();
            if let [src, dst] = ends.as_slice() {
                let host = |p: &str| !p.contains(':') || p.starts_with('/') || p.starts_with('~');
                let word = |p: &str| {
                    c.words
                        .iter()
                        .find(|w| w.text == p)
                        .cloned()
                        .unwrap_or_else(|| Word::lit(p))
                };
                if host(dst) && !host(src) {
                    self.write_path(&word(dst), c.cwd(), &format!("{} cp", c.base));
                } else if host(src) && !host(dst) {
                    self.read_path(&word(src), c.cwd());
                }
            }
        }
        let env_field = verbs.first() == Some(&"inspect")
            && verbs.iter().any(|a| {
                let t = a.replace(' ', "");
                let l = t.to_ascii_lowercase();
                t.contains(".Env")
                    || t.contains("\"Env\"")
                    // `{{index . "Config"}}`: the whole config, Env in it.
                    || l.contains("index") && l.contains("config")
                    || t.contains("{{json.}}")
                    || t == "{{.}}"
            });
        // Past exec's options and their values, the container, then what runs.
        let run: Vec<&str> = if verbs.first() == Some(&"exec") {
            let mut rest = verbs[1..].iter();
            let mut operands = Vec::new();
            while let Some(a) = rest.next() {
                // (Past the container, every word is the command's.)
                if !operands.is_empty() || !a.starts_with('-') {
                    operands.push(*a);
                } else if matches!(
                    *a,
                    "-u" | "--user"
                        | "-e"
                        | "--env"
                        | "-w"
                        | "--workdir"
                        | "--env-file"
                        | "--index"
                ) {
                    rest.next();
                }
            }
            operands.get(1..).map(<[&str]>::to_vec).unwrap_or_default()
        } else {
            Vec::new()
        };
        let exec_env = run
            .iter()
            .any(|w| matches!(base_name(w).as_str(), "env" | "printenv"));
        // What runs inside: its paths are the container's, so only what
        // reaches out counts (code fetched and run, a remote shell, data
        // sent away).
        if !run.is_empty() {
            self.guest_words(
                &run,
                c,
                &format!("a command {} runs in a container", c.base),
            );
        }
        // A compose file on standard input: its services judged as `run`'s
        // flags would be.
        let compose_stdin = args.contains(&"compose")
            && args
                .windows(2)
                .any(|w| matches!(w[0], "-f" | "--file") && w[1] == "-");
        if compose_stdin {
            for body in c.src.redirects.iter().filter_map(|r| r.body.as_ref()) {
                let l = lower(&body.text);
                let host_root = l.contains("\"/:/") || l.contains("- /:/") || l.contains("[\"/:");
                if l.contains("privileged: true")
                    || l.contains("pid: host")
                    || l.contains("network_mode: host") && l.contains("cap_add")
                    || host_root
                {
                    self.block(format!(
                        "container escape ({} starts a service from standard input with the host's root, processes or full privileges)",
                        c.base
                    ));
                }
            }
        }
        // A container's root making a setuid file in a host folder it was
        // given (`-v /tmp:/t … chmod 4755 /t/x`): root's powers for
        // whoever runs that file here.
        let mounts_host = args.iter().any(|a| {
            matches!(*a, "-v" | "--volume" | "--mount")
                || a.starts_with("-v/")
                || a.starts_with("--volume=")
        });
        // (`chmod 4755`, `chmod u+s`, `install -m 04755`: the setuid bit;
        // setgid alone, `2775`, is a shared folder's.)
        let words: Vec<&str> = j
            .split(|ch: char| ch.is_whitespace() || "'\";&|".contains(ch))
            .filter(|w| !w.is_empty())
            .collect();
        let setuid_mode = |m: &str| {
            let digits = m.trim_start_matches('0');
            m.contains("+s") && (m.starts_with('u') || m.starts_with('a') || m.starts_with('+'))
                || m.contains("u=") && m.split(',').any(|p| p.starts_with("u=") && p.contains('s'))
                || digits.len() == 4
                    && digits.starts_with(['4', '5', '6', '7'])
                    && digits.chars().all(|ch| ch.is_ascii_digit())
        };
        let setuid = words.iter().enumerate().any(|(i, w)| match *w {
            // chmod's mode: its first word that is not an option.
            "chmod" => words[i + 1..]
                .iter()
                .find(|m| !m.starts_with('-'))
                .is_some_and(|m| setuid_mode(m)),
            "install" => words[i + 1..].iter().enumerate().any(|(k, m)| {
                let value = m
                    .strip_prefix("--mode=")
                    .or_else(|| m.strip_prefix("-m").filter(|r| !r.is_empty()))
                    .or_else(|| {
                        (*m == "-m" || *m == "--mode")
                            .then(|| words.get(i + k + 2).copied())
                            .flatten()
                    });
                value.is_some_and(setuid_mode)
            }),
            _ => false,
        });
        if verbs.first() == Some(&"run") && mounts_host && setuid {
            self.block(format!(
                "privilege escalation ({} makes a setuid file as a container's root in a folder of this machine)",
                c.base
            ));
        }
        if env_field || exec_env {
            self.block(format!(
                "reveals containers' environments, where their passwords and keys are ({})",
                c.base
            ));
        }
        let host_net = j.contains("--net=host")
            || j.contains("--network=host")
            || args
                .windows(2)
                .any(|w| matches!(w[0], "--net" | "--network") && w[1] == "host");
        let net_admin = j.contains("net_admin") || j.contains("net_raw");
        // Started again after every reboot, on the host's own network: a
        // service of this machine's, kept by whoever made the image.
        let returns = args.iter().any(|a| {
            a.starts_with("--restart") && (a.contains("always") || a.contains("unless-stopped"))
        }) || args
            .windows(2)
            .any(|w| w[0] == "--restart" && matches!(w[1], "always" | "unless-stopped"));
        if returns && host_net {
            self.block(format!(
                "persistence ({} keeps a container on the host's network that restarts with the machine)",
                c.base
            ));
        }
        if host_net && net_admin {
            self.block(format!("sandbox escape ({} changes this machine's network: host networking with NET_ADMIN)", c.base));
        }
        // `-p 127.0.0.1:7420:80`: Jarvis's port taken by an impostor.
        for (i, a) in args.iter().enumerate() {
            let spec = if matches!(*a, "-p" | "--publish") {
                args.get(i + 1).copied()
            } else {
                a.strip_prefix("--publish=")
            };
            if let Some(spec) = spec {
                let host_side: Vec<&str> = spec.split(':').collect();
                let host_port = if host_side.len() >= 2 {
                    host_side[host_side.len() - 2]
                } else {
                    ""
                };
                if jarvis_port(host_port) {
                    self.block(format!(
                        "{} takes Jarvis's own port ({spec}): an impostor would answer its clients",
                        c.base
                    ));
                }
            }
        }
        // `--rootfs /`: a host folder as the container's whole filesystem.
        for w in super::script_opts::values(c, &["--rootfs"]) {
            self.host_folder_shared(&w.text, c, &format!("a {} container", c.base));
        }
        // Mounts of system folders (the container is root there).
        for (i, a) in args.iter().enumerate() {
            let spec = if matches!(*a, "-v" | "--volume") {
                args.get(i + 1).copied()
            } else {
                a.strip_prefix("--volume=")
            };
            if let Some(spec) = spec {
                let src = spec.split(':').next().unwrap_or("");
                if src.starts_with('/') || src.starts_with('~') || src.starts_with("$HOME") {
                    self.host_folder_shared(src, c, &format!("a {} container", c.base));
                }
            }
        }
        // The host's secrets handed to a container (`-e GITHUB_TOKEN`, bare
        // or with its value; `--env-file .env`): another program's now.
        for (i, a) in args.iter().enumerate() {
            let spec = if matches!(*a, "-e" | "--env") {
                args.get(i + 1).copied()
            } else {
                a.strip_prefix("--env=")
            };
            if let Some(spec) = spec {
                let (name, value) = spec.split_once('=').unwrap_or((spec, ""));
                if super::effects::secret_var(name) && (value.is_empty() || value.contains('$')) {
                    self.block(format!("hands the secret {name} to a container"));
                }
            }
        }
        // (A project's `.env` given to the image this line built from the
        // project is the project's own settings at work; a key elsewhere
        // is handed over whatever the image.)
        // (A compose stack reads the project's `.env` unasked: naming it
        // changes nothing.)
        let own_image =
            built_here(c) || args.first() == Some(&"compose") || c.lb == "docker-compose";
        for w in super::script_opts::values(c, &["--env-file"]) {
            let p = self.norm(&w, c.cwd());
            if paths::credential_normalized(&p, &w.text).is_some()
                && !(own_image && self.inside(&p) && !w.dynamic)
            {
                self.block(format!("hands the secrets in {} to a container", w.text));
            }
        }
        // A compose file from a download, or written by this line with host
        // powers in it (privileged, the host's processes or network, its root).
        if args.first() == Some(&"compose") || c.lb == "docker-compose" {
            let from_stdin = super::script_opts::values(c, &["-f", "--file"])
                .iter()
                .any(|w| matches!(w.text.as_str(), "-" | "/dev/stdin"));
            let producer = c
                .src
                .stdin_from
                .and_then(|i| c.script.commands.get(i))
                .map(|p| self.producer(p));
            if from_stdin && producer.is_some_and(|p| p != Producer::Other) {
                self.block(
                    "download and execute (a compose stack from a download or decoder, started)",
                );
            }
            let written: Vec<String> = self
                .written
                .iter()
                .filter(|(p, _)| {
                    let name = p.rsplit('/').next().unwrap_or("");
                    (name.contains("compose") || name.starts_with("docker-compose"))
                        && (name.ends_with(".yml") || name.ends_with(".yaml"))
                })
                .map(|(_, t)| t.clone())
                .collect();
            for text in written {
                for line in text.lines() {
                    let t = lower(line.trim());
                    let host_power = t.starts_with("privileged: true")
                        || t.starts_with("pid: host")
                        || t.starts_with("pid: \"host\"")
                        || t.starts_with("network_mode: host")
                            && text.to_lowercase().contains("net_admin")
                        || t.contains("docker.sock");
                    if host_power {
                        self.block(format!("sandbox escape (a compose file this line wrote gives a container host powers: {})", line.trim()));
                    }
                    if let Some(v) = t.strip_prefix("- ") {
                        let src = v.trim_matches(['"', '\'']).split(':').next().unwrap_or("");
                        if src.starts_with('/') || src.starts_with('~') {
                            self.host_folder_shared(src, c, "a compose service");
                        }
                    }
                }
            }
        }
        // An image named for a program, run with arguments on the host's
        // network (`alpine/socat TCP-LISTEN:… EXEC:/bin/bash`): judged as
        // that program, since it listens here.
        if host_net {
            let image_at = args.iter().enumerate().skip(1).find(|(k, a)| {
                !a.starts_with('-')
                    && !args.get(k.wrapping_sub(1)).is_some_and(|p| {
                        p.starts_with('-') && !p.contains('=') && takes_container_value(p)
                    })
            });
            if let Some((k, image)) = image_at {
                let program = image
                    .rsplit('/')
                    .next()
                    .unwrap_or("")
                    .split([':', '@'])
                    .next()
                    .unwrap_or("");
                if super::known_program(program) {
                    let mut words = vec![Word::lit(program)];
                    words.extend(c.words.iter().skip(k + 2).cloned());
                    self.block_only(|a| a.run_words(words, c.src, c.script, c.depth + 1));
                }
            }
        }
        // The whole command line from a download or a decoder.
        for w in c.words.iter().skip(1) {
            if let Some(why) = self.code_source(w, c.script) {
                self.block(format!("{why} ({}'s arguments come from it)", c.base));
            }
        }
    }

    fn cluster_risks(&mut self, c: &Cmd<'_>, args: &[&str], j: &str) {
        let sub = args.first().copied().unwrap_or("");
        match sub {
            "port-forward" | "proxy" => {
                let addr = c.value("--address").map(|w| w.text.clone()).or_else(|| {
                    args.iter()
                        .find_map(|a| a.strip_prefix("--address=").map(str::to_string))
                });
                if addr
                    .as_deref()
                    .is_some_and(|a| a.split(',').any(every_interface))
                {
                    self.block(format!("kubectl {sub} listens on every interface: the cluster opened to the network"));
                }
                if args
                    .iter()
                    .any(|a| jarvis_port(a.split(':').next().unwrap_or("")))
                    && sub == "port-forward"
                {
                    self.block("kubectl port-forward takes Jarvis's own port");
                }
            }
            "apply" | "create" | "replace" => {
                // From a code forge (a project's release asset, its raw
                // files) is how projects publish their manifests, and asks;
                // from anywhere else it runs whatever it defines.
                let elsewhere = |u: &str| {
                    u.split_once("://")
                        .is_some_and(|(_, r)| super::project_out::far_host(r).is_some())
                };
                if args.windows(2).any(|w| {
                    matches!(w[0], "-f" | "--filename" | "-k" | "--kustomize") && elsewhere(w[1])
                }) || args
                    .iter()
                    .any(|a| a.strip_prefix("--filename=").is_some_and(elsewhere))
                {
                    self.block("applies a manifest fetched from a location (whatever it defines runs in the cluster)");
                }
                if j.contains("clusterrolebinding") && j.contains("cluster-admin") {
                    self.block("privilege escalation (binds cluster-admin)");
                }
            }
            "debug" if args.iter().any(|a| a.starts_with("node/")) => {
                self.block("kubectl debug on a node: a root shell on the node's host");
            }
            _ => {}
        }
        // Code for the pod from a download or a decoder.
        for w in c.words.iter().skip(1) {
            if let Some(why) = self.code_source(w, c.script) {
                self.block(format!("{why} (run by kubectl {sub})"));
            }
        }
    }

    fn iac_risks(&mut self, c: &Cmd<'_>, args: &[&str]) {
        // `terraform output -json` prints every output, those marked
        // sensitive in clear (the plain listing hides them).
        // (Go's flags: one dash or two, `-json=true`.)
        let json = args
            .iter()
            .any(|a| matches!(a.trim_start_matches('-'), "json" | "json=true"));
        if args.first() == Some(&"output") && json && !args[1..].iter().any(|a| !a.starts_with('-'))
        {
            self.block(
                "reveals secrets (terraform output -json prints the sensitive outputs in clear)",
            );
        }
        // `show -json` prints the state or plan whole, sensitive values in clear.
        if args.first() == Some(&"show") && json {
            self.block("reveals secrets (terraform show -json prints sensitive values in clear)");
        }
        if args.first() == Some(&"init")
            && args.iter().any(|a| {
                a.strip_prefix("-from-module=")
                    .is_some_and(|m| m.contains("://") || m.starts_with("git::"))
            })
        {
            self.block("download and execute (terraform init copies a module from a location into the project)");
        }
        // Files this line wrote that the run will read: provisioners and
        // external data sources run commands on this machine.
        let written: Vec<String> = self
            .written
            .iter()
            .filter(|(p, _)| p.ends_with(".tf") || p.ends_with(".tf.json"))
            .map(|(_, t)| t.clone())
            .collect();
        for text in written {
            for line in text.lines() {
                let t = line.trim();
                if let Some(v) = t
                    .strip_prefix("command")
                    .map(str::trim_start)
                    .and_then(|r| r.strip_prefix('='))
                {
                    let cmd = v.trim().trim_matches('"').replace("\\\"", "\"");
                    self.script(&cmd, &[], c.depth + 1);
                }
                if let Some(v) = t
                    .strip_prefix("program")
                    .map(str::trim_start)
                    .and_then(|r| r.strip_prefix('='))
                {
                    let words = super::code::string_literals(v);
                    let line = crate::policy::shell::quoted_line(words);
                    self.script(&line, &[], c.depth + 1);
                }
            }
        }
    }

    /// Puppet's DSL: `file` resources write their title, `exec` runs its
    /// command.
    fn puppet_code(&mut self, code: &str, c: &Cmd<'_>) {
        let l = code;
        for (at, _) in l.match_indices("file {") {
            if let Some(p) = super::code::string_literals(&l[at..]).into_iter().next() {
                self.write_path(&super::script_opts::expanded(&p), c.cwd(), "puppet");
            }
        }
        for (at, _) in l.match_indices("command") {
            if let Some(cmd) = super::code::string_literals(&l[at..]).into_iter().next() {
                self.script(&cmd, &[], c.depth + 1);
            }
        }
        self.inline_code("puppet", code, c.depth);
    }

    /// `ssh -g -L 0.0.0.0:9000:127.0.0.1:7420`: Jarvis's port forwarded to
    /// whoever reaches this machine.
    fn ssh_forwards(&mut self, c: &Cmd<'_>, args: &[&str]) {
        let gateway = args.iter().any(|a| short_has(a, 'g'));
        for w in super::script_opts::values(c, &["-L"]) {
            let parts: Vec<&str> = w.text.split(':').collect();
            let target_port = parts.last().copied().unwrap_or("");
            let bind = if parts.len() == 4 { parts[0] } else { "" };
            if jarvis_port(target_port) && (gateway || (parts.len() == 4 && every_interface(bind)))
            {
                self.block("ssh forwards Jarvis's own port to other machines");
            }
        }
        // `-D 0.0.0.0:1080`: a SOCKS proxy anyone on the network can
        // route through this machine.
        for w in super::script_opts::values(c, &["-D"]) {
            let bind = w.text.rsplit_once(':').map_or("", |(b, _)| b);
            let open = if bind.is_empty() {
                gateway
            } else {
                every_interface(bind)
                    || !matches!(bind, "localhost" | "127.0.0.1" | "[::1]" | "::1")
            };
            if open {
                self.block(
                    "tunnel exposing this machine (ssh -D opens a SOCKS proxy to other machines)",
                );
            }
        }
    }
}

impl Analyzer<'_> {
    /// `ssh -o SendEnv='*'`: every variable matching the pattern goes to
    /// the server, the tokens among them.
    fn ssh_sends_env(&mut self, c: &Cmd<'_>) {
        for (i, a) in c.args.iter().enumerate() {
            let opt = match a.strip_prefix("-o") {
                Some("") => c.args.get(i + 1).map(String::as_str).unwrap_or(""),
                Some(v) => v,
                None => continue,
            };
            let Some((k, v)) = opt.split_once(['=', ' ']) else {
                continue;
            };
            if !k.trim().eq_ignore_ascii_case("sendenv") {
                continue;
            }
            let v = v.trim_matches(['\'', '"', ' ']);
            // `LANG LC_*` is the usual (the locale and the terminal); any
            // other pattern may match a token's name.
            let risky = v.split_whitespace().any(|p| {
                let p = p.trim_start_matches('-');
                let usual = matches!(p, "LANG" | "LANGUAGE" | "TERM" | "COLORTERM" | "TZ")
                    || p.starts_with("LC_")
                    || p.starts_with("LANG");
                super::effects::secret_var(p) || p.contains(['*', '?']) && !usual
            });
            if risky {
                self.block(format!(
                    "exfiltration (ssh SendEnv {v} sends the environment's secrets to the server)"
                ));
            }
        }
    }
}

/// A cloud firewall rule for the whole internet (`--cidr 0.0.0.0/0`,
/// `--source-ranges=0.0.0.0/0`, `--source-address-prefixes '*'`).
fn opens_to_the_internet(j: &str) -> bool {
    let opens = [
        "authorize-security-group-ingress",
        "firewall-rules create",
        "firewall-rules update",
        "nsg rule create",
    ]
    .iter()
    .any(|k| j.contains(k));
    let everyone = j.contains("0.0.0.0/0")
        || j.contains("::/0")
        || j.contains("prefixes '*'")
        || j.contains("prefixes *");
    opens && everyone
}

/// Options of `docker run` that take a value (the next word is not the image).
fn takes_container_value(opt: &str) -> bool {
    matches!(
        opt,
        "-e" | "--env"
            | "-v"
            | "--volume"
            | "-p"
            | "--publish"
            | "--name"
            | "--net"
            | "--network"
            | "-w"
            | "--workdir"
            | "-u"
            | "--user"
            | "--entrypoint"
            | "--mount"
            | "--env-file"
            | "--cap-add"
            | "--cap-drop"
            | "-l"
            | "--label"
            | "--restart"
            | "--platform"
            | "-h"
            | "--hostname"
            | "-m"
            | "--memory"
            | "--cpus"
            | "--device"
            | "--pid"
            | "--ipc"
            | "--security-opt"
            | "--add-host"
            | "--dns"
            | "--log-driver"
            | "--tmpfs"
    )
}

impl Analyzer<'_> {
    /// `-p:PostBuildEvent='cmd'` (`/p:`, `-property:`, dotnet's `-p NAME=V`,
    /// several joined by `;`, `%7C`-style escapes): MSBuild runs the event's
    /// text as a command line before or after the build.
    fn build_events(&mut self, c: &Cmd<'_>, args: &[&str]) {
        let mut props = Vec::new();
        for (i, a) in args.iter().enumerate() {
            match a.split_once(':') {
                Some((k, prop))
                    if matches!(
                        lower(k).as_str(),
                        "-p" | "/p" | "-property" | "/property" | "--property"
                    ) =>
                {
                    props.push(prop.to_string());
                }
                _ if matches!(*a, "-p" | "--property") => {
                    props.extend(args.get(i + 1).map(|v| v.to_string()));
                }
                _ => {}
            }
        }
        // `RunCommand` names the program `dotnet run` starts, with
        // `RunArguments`: judged as that command line.
        let value = |name: &str| {
            props.iter().flat_map(|p| p.split(';')).find_map(|kv| {
                kv.split_once('=')
                    .filter(|(k, _)| k.eq_ignore_ascii_case(name))
                    .map(|(_, v)| v.to_string())
            })
        };
        if let Some(program) = value("RunCommand") {
            let line = format!(
                "{} {}",
                crate::policy::shell::quote(&program),
                value("RunArguments").unwrap_or_default()
            );
            self.script(&line, &[], c.depth + 1);
        }
        for prop in props {
            for (k, v) in prop.split(';').filter_map(|kv| kv.split_once('=')) {
                if matches!(lower(k).as_str(), "prebuildevent" | "postbuildevent") {
                    // MSBuild expands `%XX` escapes (`%3B` is `;`, `%7C` is `|`).
                    self.script(&super::sqlite::percent_decoded(v), &[], c.depth + 1);
                    self.ask(format!("{} runs the command line {k} holds", c.base));
                }
            }
        }
    }
}

/// docker's verbs past its global options (`--context X`, `-H host`) and
/// compose's (`-f F`, `-p NAME`); `container exec` is `exec`.
pub(super) fn container_verbs<'a>(args: &'a [&'a str]) -> &'a [&'a str] {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match *a {
            "--context"
            | "-c"
            | "-H"
            | "--host"
            | "--config"
            | "-l"
            | "--log-level"
            | "-f"
            | "--file"
            | "-p"
            | "--project-name"
            | "--env-file"
            | "--profile"
            | "--project-directory"
            | "--ansi"
            | "--progress"
            | "--parallel"
            | "--tlscacert"
            | "--tlscert"
            | "--tlskey"
            | "--connection"
            | "--url"
            | "--identity"
            | "--root"
            | "--runroot"
            | "--namespace"
            | "--address"
            | "-n" => i += 2,
            "container" | "compose" => i += 1,
            a if a.starts_with('-') => i += 1,
            _ => break,
        }
    }
    args.get(i..).unwrap_or_default()
}

/// The image this command runs was built by this line (`docker build -t
/// app:dev . && docker run … app:dev`).
fn built_here(c: &Cmd<'_>) -> bool {
    let tags: Vec<&str> = c
        .script
        .commands
        .iter()
        .filter(|k| !std::ptr::eq(*k, c.src))
        .filter(|k| {
            k.argv
                .iter()
                .any(|w| matches!(w.text.as_str(), "build" | "bud"))
        })
        .flat_map(|k| {
            k.argv.windows(2).filter_map(|p| {
                matches!(p[0].text.as_str(), "-t" | "--tag").then_some(p[1].text.as_str())
            })
        })
        .collect();
    !tags.is_empty() && c.args.iter().any(|a| tags.contains(&a.as_str()))
}
