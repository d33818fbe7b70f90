//! Virtual machines and system containers (QEMU, libvirt, LXD/Incus,
//! VirtualBox, libguestfs, NBD servers, Firecracker's API): host folders,
//! disks and sockets handed to a guest, commands the host runs on a
//! guest's behalf, a monitor opened to the network, the host suspended.
//! A guest's own commands run over there: only what reaches out counts.

use super::infra::{every_interface, jarvis_port};
use super::*;

impl Analyzer<'_> {
    pub(super) fn vm_risks(&mut self, c: &Cmd<'_>) {
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        match c.lb.as_str() {
            l if l.starts_with("qemu-system") || l == "qemu-kvm" => self.qemu_args(&args, c),
            "virsh" => self.virsh(c, &args),
            "virt-install" | "virt-xml" => self.virt_install(c, &args),
            "lxc" | "incus" => self.system_containers(c, &args),
            "vboxmanage" => self.virtualbox(c, &args),
            "virt-customize" | "virt-builder" | "virt-sysprep" => self.image_customize(c, &args),
            "guestfish" => self.guestfish(c),
            "nbdkit" | "qemu-nbd" => self.nbd_server(c, &args),
            "multipass" => self.multipass(c, &args),
            "curl" if args.iter().any(|a| a.contains("unix-socket")) => self.vm_api_body(&args, c),
            _ => {}
        }
    }

    /// A guest's command given as words: a user switch inside the guest
    /// (`sudo -u postgres`, `su app -c '…'`, `gosu app`) is the guest's
    /// business; what it runs is judged.
    pub(super) fn guest_words(&mut self, words: &[&str], c: &Cmd<'_>, tool: &str) {
        let mut i = 0;
        while let Some(w) = words.get(i) {
            match base_name(w).as_str() {
                "sudo" | "doas" | "runuser" => {
                    i += 1;
                    while let Some(o) = words.get(i).filter(|o| o.starts_with('-')) {
                        let valued = matches!(
                            *o,
                            "-u" | "-g" | "-U" | "-C" | "-h" | "-p" | "-D" | "-l" | "-r" | "-t"
                        );
                        i += 1 + usize::from(valued);
                        if *o == "--" {
                            break;
                        }
                    }
                }
                "gosu" | "su-exec" | "setpriv" | "chpst" => i += 2,
                "su" => {
                    if let Some(at) = words[i..]
                        .iter()
                        .position(|o| *o == "-c" || *o == "--command")
                        && let Some(code) = words.get(i + at + 1)
                    {
                        self.guest_command(code, c, tool);
                    }
                    return;
                }
                _ => break,
            }
        }
        let code = words
            .get(i..)
            .unwrap_or_default()
            .iter()
            .map(|w| crate::policy::shell::quote(w))
            .collect::<Vec<_>>()
            .join(" ");
        if !code.is_empty() {
            self.guest_command(&code, c, tool);
        }
    }

    /// A command run inside a guest or container: its paths are the
    /// guest's, so only what reaches out (code fetched and run, a remote
    /// shell, data sent away) or prints a secret here counts.
    pub(super) fn guest_command(&mut self, code: &str, c: &Cmd<'_>, tool: &str) {
        let found = self.apart(|a| a.script(code, &[], c.depth + 1));
        let reveals = found.reason.contains("reveals");
        if found.verdict == Verdict::Block
            && (reveals
                || super::planted_text::GRAVE
                    .iter()
                    .any(|g| found.reason.contains(g)))
        {
            self.block(format!("{tool}: {}", found.reason));
        }
    }

    /// QEMU's options (also given through libvirt's `<qemu:arg>`, LXD's
    /// `raw.qemu` and virt-install's `--qemu-commandline`).
    pub(super) fn qemu_args(&mut self, args: &[&str], c: &Cmd<'_>) {
        let monitor_chardev = args
            .iter()
            .any(|a| matches!(a.trim_start_matches('-'), "mon" | "monitor" | "qmp"));
        let mut i = 0;
        while i < args.len() {
            let flag = format!("-{}", args[i].trim_start_matches('-'));
            let value = args.get(i + 1).copied().unwrap_or("");
            self.qemu_value(args[i], c);
            match flag.as_str() {
                "-virtfs" | "-fsdev" => {
                    if let Some(p) = key_value(value, "path") {
                        self.host_folder_shared(p, c, "a virtual machine");
                    }
                }
                "-monitor" | "-qmp" | "-chardev" | "-serial" | "-gdb" => {
                    let monitor = flag != "-serial" && (flag != "-chardev" || monitor_chardev);
                    if monitor && network_exposed(value) {
                        self.block(format!(
                            "remote control of this machine (a QEMU monitor, which runs host commands through `migrate exec:`, opened to the network: {})",
                            shown(value)
                        ));
                    }
                }
                "-incoming" => {
                    if let Some(cmd) = value.strip_prefix("exec:") {
                        self.host_runs(cmd, c, "qemu -incoming exec:");
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// One QEMU option value: disks, shared folders, forwarded ports and
    /// the commands a user-mode network runs for the guest.
    fn qemu_value(&mut self, a: &str, c: &Cmd<'_>) {
        if let Some(dir) = a.split("fat:rw:").nth(1) {
            self.host_folder_shared(dir.split(',').next().unwrap_or(dir), c, "qemu (read-write)");
        }
        if let Some(dir) = key_value(a, "smb") {
            self.host_folder_shared(dir, c, "a virtual machine (as a Samba share)");
        }
        if let Some(fwd) = a.split("hostfwd=").nth(1) {
            let host = fwd.split(':').nth(1).unwrap_or("");
            if jarvis_port(fwd.split('-').next().unwrap_or("")) {
                self.block("qemu forwards Jarvis's own port");
            } else if every_interface(host) {
                self.ask("qemu forwards a port on every interface");
            }
        }
        // `guestfwd=tcp:IP:PORT-cmd:CMD`: the host runs CMD for every
        // connection the guest makes, its input and output the guest's.
        if let Some(cmd) = a
            .split_once("guestfwd=")
            .and_then(|(_, r)| r.split_once("-cmd:"))
        {
            self.host_runs(cmd.1, c, "qemu guestfwd");
        }
        for key in ["script", "downscript"] {
            if let Some(p) = key_value(a, key).filter(|p| !matches!(*p, "no" | "")) {
                self.host_script(p, c);
            }
        }
        let file = key_value(a, "file").unwrap_or(a);
        if paths::device(file) {
            self.block(format!(
                "qemu hands a disk device of this machine to a guest ({a})"
            ));
        }
    }

    /// A command this machine runs because a guest asked: a shell alone
    /// is a shell served to whoever talks to it.
    pub(super) fn host_runs(&mut self, cmd: &str, c: &Cmd<'_>, tool: &str) {
        let cmd = cmd.trim().trim_matches(['\'', '"']);
        if super::exec::lone_shell(cmd.split_whitespace().next().unwrap_or(""))
            && cmd
                .split_whitespace()
                .all(|w| w.starts_with('-') || super::exec::lone_shell(w))
        {
            self.block(format!(
                "remote shell ({tool} serves a shell on this machine: {cmd})"
            ));
            return;
        }
        self.block_only(|a| a.script(cmd, &[], c.depth + 1));
        self.ask(format!("{tool} runs a command on this machine"));
    }

    /// A script this machine runs for a guest (a tap network's
    /// `script=`, a DHCP hook): judged by what this line wrote in it.
    fn host_script(&mut self, path: &str, c: &Cmd<'_>) {
        if let Some(text) = self.written_text(&Word::lit(path), c.cwd()) {
            self.script(&text, &[], c.depth + 1);
        }
    }

    fn virsh(&mut self, c: &Cmd<'_>, args: &[&str]) {
        for a in args {
            if paths::device(a) {
                self.block(format!("virsh hands the disk device {a} to a virtual machine (every file on it, past all permissions)"));
            }
        }
        let mut rest = args.iter().copied();
        let mut verb = "";
        while let Some(a) = rest.next() {
            if matches!(
                a,
                "-c" | "--connect" | "-l" | "--log" | "-k" | "-K" | "-d" | "--debug"
            ) {
                rest.next();
            } else if !a.starts_with('-') {
                verb = a;
                break;
            }
        }
        let after: Vec<&str> = rest.collect();
        match verb {
            "nodesuspend" => {
                self.block("system disruption (virsh nodesuspend suspends this machine)")
            }
            "pool-create-as" | "pool-define-as" => {
                let target = after
                    .windows(2)
                    .find_map(|w| matches!(w[0], "--target" | "--source-path").then_some(w[1]));
                if let Some(t) = target {
                    self.host_folder_shared(
                        t,
                        c,
                        "a libvirt storage pool (read and written as root)",
                    );
                }
            }
            "qemu-monitor-command" | "qemu-agent-command" => {
                let text = after.join(" ");
                if let Some((_, cmd)) = text.split_once("exec:") {
                    let cmd = cmd.split(['"', '\'']).next().unwrap_or(cmd);
                    self.host_runs(cmd, c, "a QEMU monitor's migrate exec:");
                }
            }
            "define" | "create" | "net-create" | "net-define" | "pool-create" | "pool-define"
            | "attach-device" | "update-device" => {
                if let Some(f) = after.iter().find(|a| !a.starts_with('-'))
                    && let Some(text) = self.written_text(&Word::lit(*f), c.cwd())
                {
                    self.libvirt_xml(&text, c);
                }
            }
            _ => {}
        }
    }

    /// A libvirt domain, network or pool definition this line wrote.
    fn libvirt_xml(&mut self, text: &str, c: &Cmd<'_>) {
        let unescaped = text
            .replace("&gt;", ">")
            .replace("&lt;", "<")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&");
        let values = attribute_values(&unescaped, "value");
        // `<qemu:commandline><qemu:arg value='…'/>`: options given to QEMU.
        let qemu: Vec<&str> = attribute_values(&unescaped, "value")
            .into_iter()
            .filter(|_| unescaped.contains("qemu:arg"))
            .collect();
        if !qemu.is_empty() {
            self.qemu_args(&qemu, c);
        }
        // `<dnsmasq:option value='dhcp-script=P'/>`: libvirt's dnsmasq
        // runs P as root for every lease.
        for v in &values {
            if let Some(p) = v.strip_prefix("dhcp-script=") {
                self.host_script(p, c);
                self.ask("a libvirt network runs a script as root");
            }
        }
        for dir in attribute_values(&unescaped, "dir") {
            self.host_folder_shared(dir, c, "a libvirt guest");
        }
        for dev in attribute_values(&unescaped, "dev")
            .into_iter()
            .chain(attribute_values(&unescaped, "file"))
        {
            if paths::device(dev) {
                self.block(format!("libvirt hands the disk device {dev} to a guest"));
            }
        }
    }

    fn virt_install(&mut self, c: &Cmd<'_>, args: &[&str]) {
        for (flag, v) in option_values(args) {
            match flag {
                "--filesystem" => {
                    let src = key_value(v, "source")
                        .or_else(|| key_value(v, "source.dir"))
                        .unwrap_or_else(|| v.split(',').next().unwrap_or(v));
                    self.host_folder_shared(src, c, "a virtual machine");
                }
                "--disk" => {
                    let p =
                        key_value(v, "path").unwrap_or_else(|| v.split(',').next().unwrap_or(v));
                    if paths::device(p) {
                        self.block(format!("virt-install hands the disk device {p} to a guest"));
                    }
                }
                "--qemu-commandline" => {
                    let words = option_words(v);
                    let words: Vec<&str> = words.iter().map(String::as_str).collect();
                    self.qemu_args(&words, c);
                }
                _ => {}
            }
        }
    }

    fn virtualbox(&mut self, c: &Cmd<'_>, args: &[&str]) {
        for (flag, v) in option_values(args) {
            if matches!(flag, "--hostpath" | "-hostpath") {
                self.host_folder_shared(v, c, "a VirtualBox guest");
            }
            if matches!(flag, "-rawdisk" | "--rawdisk") && paths::device(v) {
                self.block(format!("VirtualBox hands the disk device {v} to a guest"));
            }
        }
        if args.first() == Some(&"guestcontrol")
            && let Some(dash) = args.iter().position(|a| *a == "--")
        {
            self.guest_words(&args[dash + 1..], c, "a command run in a VirtualBox guest");
        }
    }

    /// virt-customize and its kin: host files copied into an image, and
    /// commands run inside it.
    fn image_customize(&mut self, c: &Cmd<'_>, args: &[&str]) {
        for (flag, v) in option_values(args) {
            match flag {
                "--copy-in" | "--upload" => {
                    let src = v.rsplit_once(':').map_or(v, |(s, _)| s);
                    self.read_path(&Word::lit(src), c.cwd());
                }
                "--run-command" | "--firstboot-command" => {
                    self.guest_command(
                        v,
                        c,
                        &format!("a command {} runs inside a disk image", c.base),
                    );
                }
                _ => {}
            }
        }
        self.ask(format!("{} changes a disk image", c.base));
    }

    /// guestfish: lines beginning with `!` run on this machine, not in
    /// the image.
    fn guestfish(&mut self, c: &Cmd<'_>) {
        let mut text: Vec<String> = c
            .src
            .redirects
            .iter()
            .filter_map(|r| r.body.as_ref().map(|b| b.text.clone()))
            .collect();
        if let Some(f) = c.value("-f").or_else(|| c.value("--file"))
            && let Some(t) = self.written_text(f, c.cwd())
        {
            text.push(t);
        }
        text.push(c.args.join(" "));
        for t in &text {
            for line in t.lines().map(str::trim) {
                if let Some(cmd) = line.strip_prefix('!') {
                    self.host_runs(cmd, c, "guestfish's `!`");
                }
            }
        }
        for (flag, v) in option_values(&c.args.iter().map(String::as_str).collect::<Vec<_>>()) {
            if flag == "upload" || flag == "copy-in" {
                self.read_path(&Word::lit(v), c.cwd());
            }
        }
    }

    /// NBD servers: a folder or disk served to whoever connects.
    fn nbd_server(&mut self, c: &Cmd<'_>, args: &[&str]) {
        let local_only = args
            .iter()
            .any(|a| matches!(*a, "-U" | "--unix" | "-k" | "--socket"))
            || args.windows(2).any(|w| {
                matches!(w[0], "-i" | "--ipaddr" | "-b" | "--bind")
                    && super::project_out::is_loopback(w[1])
                    && !every_interface(w[1])
            });
        for a in args
            .iter()
            .filter(|a| a.starts_with('/') || a.starts_with('~') || a.starts_with(HOME))
        {
            let p = a.split_once('=').map_or(*a, |(_, v)| v);
            if paths::device(p) && !local_only {
                self.block(format!("serves the disk device {p} to the network"));
            } else if !local_only {
                self.serve_check(p, c);
            }
        }
        self.ask(format!("{} serves a disk", c.base));
    }

    fn serve_check(&mut self, dir: &str, c: &Cmd<'_>) {
        let p = self.norm(&Word::lit(dir), c.cwd());
        if paths::contains_credentials(&p)
            || paths::catastrophic_normalized(&p) && !self.inside(&p)
            || self.app_state(&p)
        {
            self.block(format!(
                "serves {} to the network (your keys and files with it)",
                shown(dir)
            ));
        }
    }

    fn multipass(&mut self, c: &Cmd<'_>, args: &[&str]) {
        if args.first() == Some(&"mount")
            && let Some(src) = args[1..].iter().find(|a| !a.starts_with('-'))
        {
            self.host_folder_shared(src, c, "a multipass VM");
        }
        if matches!(args.first(), Some(&"exec"))
            && let Some(dash) = args.iter().position(|a| *a == "--")
        {
            self.guest_words(&args[dash + 1..], c, "a command multipass runs in a VM");
        }
    }

    /// A request to a VM manager's local socket (Firecracker, Cloud
    /// Hypervisor): a body naming a host disk or folder hands it over.
    fn vm_api_body(&mut self, args: &[&str], c: &Cmd<'_>) {
        for (flag, v) in option_values(args) {
            if !matches!(
                flag,
                "-d" | "--data" | "--data-raw" | "--data-binary" | "--json"
            ) {
                continue;
            }
            for s in v.split('"').filter(|s| s.starts_with('/')) {
                if paths::device(s) {
                    self.block(format!("hands the disk device {s} to a virtual machine"));
                } else if self.app_state(&self.norm(&Word::lit(s), c.cwd()))
                    || paths::contains_credentials(&self.norm(&Word::lit(s), c.cwd()))
                {
                    self.block(format!("hands {s} to a virtual machine"));
                }
            }
        }
    }
}

/// `key=value` inside a comma-separated option (`local,path=/x,mount_tag=y`).
fn key_value<'a>(spec: &'a str, key: &str) -> Option<&'a str> {
    spec.split(',').find_map(|part| {
        let (k, v) = part.split_once('=')?;
        (k.trim_start_matches('-') == key).then_some(v)
    })
}

/// `(flag, value)` for every `--flag value` and `--flag=value`.
fn option_values<'a>(args: &[&'a str]) -> Vec<(&'a str, &'a str)> {
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if let Some((f, v)) = a.split_once('=').filter(|(f, _)| f.starts_with("--")) {
            out.push((f, v));
        } else if let Some(v) = args.get(i + 1) {
            out.push((*a, *v));
        }
    }
    out
}

/// QEMU's network endpoint reachable from other machines: connecting out
/// to another host, or listening on every interface.
fn network_exposed(spec: &str) -> bool {
    let l = lower(spec);
    let (host, server) =
        if let Some(rest) = l.strip_prefix("tcp:").or_else(|| l.strip_prefix("telnet:")) {
            let addr = rest.split(',').next().unwrap_or("");
            let host = addr.rsplit_once(':').map_or("", |(h, _)| h);
            (host.to_string(), l.contains(",server"))
        } else if l.starts_with("socket,") || l.starts_with("udp,") || l.starts_with("udp:") {
            let host = key_value(&l, "host").unwrap_or("").to_string();
            (host, l.contains(",server"))
        } else {
            return false;
        };
    if server {
        every_interface(&host) || !super::project_out::is_loopback(&host)
    } else {
        !host.is_empty() && !super::project_out::is_loopback(&host)
    }
}

/// Every `NAME='…'` / `NAME="…"` attribute value in XML text.
fn attribute_values<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    for q in ['\'', '"'] {
        let open = format!(" {name}={q}");
        let mut rest = text;
        while let Some(i) = rest.find(&open) {
            let after = &rest[i + open.len()..];
            let Some(end) = after.find(q) else { break };
            out.push(&after[..end]);
            rest = &after[end..];
        }
    }
    out
}

/// Options written as one string (`raw.qemu`, `--qemu-commandline`),
/// split as a shell would.
pub(super) fn option_words(text: &str) -> Vec<String> {
    let script = parse::parse(&format!("qemu {text}"), &[]);
    script
        .commands
        .first()
        .map(|c| c.argv.iter().skip(1).map(|w| w.text.clone()).collect())
        .unwrap_or_default()
}
