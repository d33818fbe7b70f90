//! Virtual machines and system containers (QEMU, libvirt, LXD/Incus,
//! VirtualBox, libguestfs, NBD servers, Firecracker's API): host folders,
//! disks and sockets handed to a guest, commands the host runs on a
//! guest's behalf, a monitor opened to the network, the host suspended.
//! A guest's own commands run over there: only what reaches out counts.

use super::infra::{every_interface, jarvis_port};
use super::*;

impl Analyzer<'_> {
    pub(super) fn vm_risks(&mut self, c: &Cmd<'_>) {
        const TOOLS: &[&str] = &[
            "kvm",
            "qemu-kvm",
            "virsh",
            "virt-install",
            "virt-xml",
            "lxc",
            "incus",
            "vboxmanage",
            "virt-customize",
            "virt-builder",
            "virt-sysprep",
            "guestfish",
            "nbdkit",
            "qemu-nbd",
            "multipass",
            "curl",
            "emulator",
        ];
        let lb = c.lb.as_str();
        if !(lb.starts_with("qemu-system") || TOOLS.contains(&lb)) {
            return;
        }
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        match lb {
            l if l.starts_with("qemu-system") || l == "qemu-kvm" || l == "kvm" => {
                self.qemu_args(&args, c)
            }
            "virsh" => self.virsh(c, &args),
            "virt-install" | "virt-xml" => self.virt_install(c, &args),
            "lxc" | "incus" => self.system_containers(c, &args),
            "vboxmanage" => self.virtualbox(c, &args),
            "virt-customize" | "virt-builder" | "virt-sysprep" => self.image_customize(c, &args),
            "guestfish" => self.guestfish(c),
            "nbdkit" | "qemu-nbd" => self.nbd_server(c, &args),
            "multipass" => self.multipass(c, &args),
            // The Android emulator hands the words after `-qemu` to QEMU.
            "emulator" => {
                if let Some(at) = args.iter().position(|a| *a == "-qemu") {
                    self.qemu_args(&args[at + 1..], c);
                }
            }
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
                    // `su -c CMD`, `su -lc CMD app`, `su app --command=CMD`.
                    let rest = &words[i + 1..];
                    for (k, o) in rest.iter().enumerate() {
                        let inline = o.strip_prefix("--command=");
                        let takes = *o == "--command"
                            || o.starts_with('-') && !o.starts_with("--") && o.ends_with('c');
                        let code =
                            inline.or_else(|| takes.then(|| rest.get(k + 1).copied()).flatten());
                        if let Some(code) = code {
                            self.guest_command(code, c, tool);
                        }
                    }
                    return;
                }
                _ => break,
            }
        }
        // A shell or interpreter inside, reading this line's input: a
        // download or decoded text piped in runs there.
        let reads_input = words.get(i).is_some_and(|p| {
            let p = program_name(p);
            (is_shell(&p) || tables::interpreter(&p).is_some())
                && !words[i + 1..]
                    .iter()
                    .any(|w| *w == "-c" || !w.starts_with('-'))
        });
        let fed = c
            .src
            .stdin_from
            .and_then(|k| c.script.commands.get(k))
            .map(|p| self.producer(p))
            .or_else(|| {
                c.src
                    .redirects
                    .iter()
                    .filter(|r| r.op == "<" && r.target.procsub)
                    .flat_map(|r| r.target.subs.iter())
                    .filter_map(|&k| c.script.commands.get(k))
                    .map(|p| self.producer(p))
                    .find(|p| *p != Producer::Other)
            });
        if reads_input && fed.is_some_and(|p| p != Producer::Other) {
            self.block(format!(
                "download and execute ({tool}: its shell runs what the line feeds it)"
            ));
        }
        let code = crate::policy::shell::quoted_line(words.get(i..).unwrap_or_default());
        if !code.is_empty() {
            self.guest_command(&code, c, tool);
        }
    }

    /// A command run inside a guest or container: its paths are the
    /// guest's, so only what reaches out (code fetched and run, a remote
    /// shell, data sent away) or prints a secret here counts.
    pub(super) fn guest_command(&mut self, code: &str, c: &Cmd<'_>, tool: &str) {
        let (_, blocks) = self.apart_all(|a| a.script(code, &[], c.depth + 1));
        if let Some(why) = blocks.iter().find(|r| {
            r.contains("reveals") || super::planted_text::GRAVE.iter().any(|g| r.contains(g))
        }) {
            self.block(format!("{tool}: {why}"));
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
                    // `-serial mon:…` multiplexes the monitor onto it.
                    let monitor = value.starts_with("mon:")
                        || flag != "-serial" && (flag != "-chardev" || monitor_chardev);
                    if monitor && network_exposed(value.trim_start_matches("mon:")) {
                        self.block(format!(
                            "remote control of this machine (a QEMU monitor, which runs host commands through `migrate exec:`, opened to the network: {})",
                            shown(value)
                        ));
                    }
                }
                // Files QEMU writes: its pid, its log.
                "-pidfile" | "-D" => self.write_path(&Word::lit(value), c.cwd(), "qemu"),
                // A disk image written by the guest: a startup file is not one.
                "-hda" | "-hdb" | "-hdc" | "-hdd" | "-fda" | "-fdb" | "-sd" | "-pflash"
                | "-mtdblock" => {
                    let p = self.norm_text(value, c.cwd());
                    if paths::persistence_normalized(&p) || self.app_state(&p) {
                        self.write_path(&Word::lit(value), c.cwd(), "qemu (a disk image)");
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

    /// One QEMU option value: disks, shared folders, forwarded ports, the
    /// files it writes and the commands a user-mode network runs for the
    /// guest.
    fn qemu_value(&mut self, a: &str, c: &Cmd<'_>) {
        // `fat:rw:DIR`, `fat:DIR`: a folder as a disk, read or written.
        if let Some(dir) = a.split("fat:").nth(1) {
            // (`fat:16:rw:DIR`, `fat:floppy:DIR`: options before the folder.)
            let dir = dir
                .split(':')
                .find(|p| p.starts_with(['/', '~', '.']) || p.starts_with(HOME))
                .unwrap_or(dir);
            self.host_folder_shared(
                dir.split(',').next().unwrap_or(dir),
                c,
                "a virtual machine (as a disk)",
            );
        }
        for key in ["smb", "tftp", "dir", "file.dir"] {
            if let Some(dir) = key_value(a, key) {
                self.host_folder_shared(dir, c, "a virtual machine (a network share)");
            }
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
        // A disk device in any spelling (`file=`, `filename=`,
        // `file.filename=`, JSON, `\/dev\/sda`).
        let unescaped = paths::squeezed(
            &a.replace("\\/", "/")
                .replace("/proc/self/root", "")
                .replace("/dev/../dev/", "/dev/"),
        );
        if let Some(dev) = unescaped
            .split([',', '=', '"', '\'', ' ', '{', '}', ':'])
            .find(|p| paths::device(p))
        {
            self.block(format!(
                "qemu hands the disk device {dev} of this machine to a guest"
            ));
        }
        // Files it writes: guest memory backed by a file, a character
        // device or serial port logged to a file, a disk image.
        let written = key_value(a, "mem-path")
            .or_else(|| a.strip_prefix("file:"))
            .or_else(|| {
                a.starts_with("file,")
                    .then(|| key_value(a, "path"))
                    .flatten()
            });
        if let Some(f) = written {
            self.write_path(&Word::lit(f), c.cwd(), "qemu");
        }
        if let Some(f) = key_value(a, "file").or_else(|| key_value(a, "filename")) {
            let p = self.norm_text(f, c.cwd());
            if paths::persistence_normalized(&p) || self.app_state(&p) {
                self.write_path(&Word::lit(f), c.cwd(), "qemu (a disk image)");
            }
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
        let Some((verb, after)) = virsh_verb(args) else {
            return;
        };
        // `virsh 'list; nodesuspend mem 60'`: one word is virsh's own
        // command line, `;`-separated.
        if verb.contains(char::is_whitespace) || verb.contains(';') {
            for part in verb.split(';') {
                let words: Vec<&str> = part.split_whitespace().collect();
                if !words.is_empty() {
                    self.virsh(c, &words);
                }
            }
            return;
        }
        match verb {
            "nodesuspend" => {
                self.block("system disruption (virsh nodesuspend suspends this machine)")
            }
            "pool-create-as" | "pool-define-as" => {
                let target = after
                    .windows(2)
                    .find_map(|w| matches!(w[0], "--target" | "--source-path").then_some(w[1]))
                    .or_else(|| after.iter().find_map(|a| a.strip_prefix("--target=")))
                    // `NAME TYPE SRC-HOST SRC-PATH SRC-DEV SRC-NAME TARGET`.
                    .or_else(|| {
                        let ops: Vec<&&str> =
                            after.iter().filter(|a| !a.starts_with("--")).collect();
                        ops.get(6).map(|t| **t)
                    });
                if let Some(t) = target {
                    self.host_folder_shared(
                        t,
                        c,
                        "a libvirt storage pool (read and written as root)",
                    );
                }
            }
            "qemu-monitor-command" | "qemu-agent-command" => {
                let text = unescape_json(&after.join(" "));
                if let Some((_, cmd)) = text.split_once("exec:") {
                    let cmd = cmd.trim_end_matches(['"', '\'', '}', ' ']);
                    self.host_runs(cmd, c, "a QEMU monitor's migrate exec:");
                }
                // `netdev_add …,script=…`, `drive_add … file=/dev/sda`,
                // `chardev-add socket,…,host=0.0.0.0,server=on`.
                for word in text.split_whitespace() {
                    let word = word.trim_matches(['"', '\'']);
                    self.qemu_value(word, c);
                    if network_exposed(word) {
                        self.block("remote control of this machine (a QEMU monitor character device opened to the network)");
                    }
                }
            }
            "define" | "create" | "net-create" | "net-define" | "pool-create" | "pool-define"
            | "attach-device" | "update-device" | "nwfilter-define" => {
                for f in after.iter().filter_map(|a| {
                    a.strip_prefix("--file=")
                        .or_else(|| (!a.starts_with('-')).then_some(*a))
                }) {
                    if let Some(text) = self.written_text(&Word::lit(f), c.cwd()) {
                        self.libvirt_xml(&text, c);
                    }
                    if matches!(f, "/dev/stdin" | "-" | "/proc/self/fd/0")
                        || f.starts_with("/dev/fd/")
                    {
                        self.ask("virsh defines a guest from text it is fed");
                        if let Some(feeder) =
                            c.src.stdin_from.and_then(|i| c.script.commands.get(i))
                            && let Some(text) = super::super::eval::printed(feeder)
                        {
                            self.libvirt_xml(&text, c);
                        }
                        for w in c.words.iter().filter(|w| w.procsub) {
                            for k in w.subs.iter().filter_map(|&k| c.script.commands.get(k)) {
                                if let Some(text) = super::super::eval::printed(k) {
                                    self.libvirt_xml(&text, c);
                                }
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// A libvirt domain, network or pool definition this line wrote.
    fn libvirt_xml(&mut self, text: &str, c: &Cmd<'_>) {
        let xml = normalize_xml(text);
        // `<qemu:commandline><qemu:arg value='…'/>`: options given to QEMU,
        // in document order.
        let qemu: Vec<&str> = element_values(&xml, "qemu:arg", "value");
        if !qemu.is_empty() {
            self.qemu_args(&qemu, c);
        }
        // `<dnsmasq:option value='dhcp-script=P'/>`: libvirt's dnsmasq
        // runs P as root for every lease.
        for v in element_values(&xml, "dnsmasq:option", "value") {
            if let Some(p) = v.strip_prefix("dhcp-script=") {
                self.host_script(p, c);
                self.ask("a libvirt network runs a script as root");
            }
        }
        for dir in attribute_values(&xml, "dir") {
            self.host_folder_shared(dir, c, "a libvirt guest");
        }
        for dev in attribute_values(&xml, "dev")
            .into_iter()
            .chain(attribute_values(&xml, "file"))
        {
            if paths::device(dev) {
                self.block(format!("libvirt hands the disk device {dev} to a guest"));
            }
        }
    }

    fn virt_install(&mut self, c: &Cmd<'_>, args: &[&str]) {
        // (argparse takes a unique prefix of an option: `--filesys`.)
        let full = |f: &str| {
            ["--filesystem", "--disk", "--qemu-commandline"]
                .into_iter()
                .find(|o| f.len() >= 5 && o.starts_with(f))
                .unwrap_or("")
        };
        for (flag, v) in option_values(args) {
            match full(flag) {
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
            let v = v.strip_prefix("RawDrive=").unwrap_or(v);
            if matches!(flag, "-rawdisk" | "--rawdisk" | "--property") && paths::device(v) {
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
                    // A whole folder (home, its keys with it) copied in.
                    if flag == "--copy-in" {
                        self.host_folder_shared(src, c, "a disk image");
                    }
                }
                "--commands-from-file" => {
                    if let Some(text) = self.written_text(&Word::lit(v), c.cwd()) {
                        for line in text.lines() {
                            let words: Vec<&str> = line.splitn(2, ' ').collect();
                            if let [verb, value] = words.as_slice()
                                && *verb != "commands-from-file"
                            {
                                self.image_customize(c, &[&format!("--{verb}"), value]);
                            }
                        }
                    }
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
        // `--run-command "$(curl …)"`, `--run <(curl …)`: code from the
        // network run in the image.
        for w in c.words.iter().filter(|w| w.dynamic || w.procsub) {
            if let Some(why) = self.code_source(w, c.script) {
                self.block(format!("{why} ({} runs it inside a disk image)", c.base));
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
        // Commands fed on standard input: what the feeder prints, or code
        // nobody saw.
        if let Some(feeder) = c.src.stdin_from.and_then(|i| c.script.commands.get(i)) {
            match super::super::eval::printed(feeder) {
                Some(t) => text.push(t),
                None if self.producer(feeder) != Producer::Other => {
                    self.block("download and execute (guestfish runs the commands it is fed, `!` lines on this machine)");
                }
                None => self.ask("guestfish runs the commands it is fed"),
            }
        }
        // (Each word on the line may be a command: `guestfish … '!id'`.)
        text.extend(c.args.iter().cloned());
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
        // `qemu-nbd -c /dev/nbd0 disk.qcow2`: a local device, no server.
        let local_only = args.iter().any(|a| {
            matches!(
                *a,
                "-U" | "--unix" | "-k" | "--socket" | "-c" | "--connect" | "-d" | "--disconnect"
            ) || a.starts_with("--connect=")
        }) || args.windows(2).any(|w| {
            matches!(w[0], "-i" | "--ipaddr" | "-b" | "--bind")
                && super::project_out::is_loopback(w[1])
                && !every_interface(w[1])
        });
        // nbdkit's plugins that run code: `eval`, `sh`, the languages.
        if c.lb == "nbdkit"
            && let Some(plugin) = nbdkit_plugin(args)
            && matches!(
                plugin,
                "eval"
                    | "sh"
                    | "perl"
                    | "python"
                    | "lua"
                    | "ruby"
                    | "tcl"
                    | "ocaml"
                    | "rust"
                    | "cc"
            )
        {
            for a in args.iter().filter(|a| a.contains('=')) {
                let code = a.split_once('=').map_or(*a, |(_, v)| v);
                self.block_only(|x| x.script(code, &[], c.depth + 1));
            }
            for body in c.src.redirects.iter().filter_map(|r| r.body.as_ref()) {
                let code = body.text.clone();
                self.block_only(|x| x.script(&code, &[], c.depth + 1));
            }
            self.ask(format!("nbdkit's {plugin} plugin runs code"));
        }
        for a in args.iter() {
            // (`dir=/home/u`, `file=/dev/sda`: a plugin's parameter.)
            let p = a.split_once('=').map_or(*a, |(_, v)| v);
            if !(p.starts_with('/') || p.starts_with('~') || p.starts_with(HOME)) {
                continue;
            }
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
        // `mount [-t native] SRC VM:DST`, `launch --mount SRC:DST`.
        if args.first() == Some(&"mount") {
            let mut k = 1;
            while let Some(a) = args.get(k) {
                if matches!(
                    *a,
                    "-t" | "--type" | "-g" | "--gid-map" | "-u" | "--uid-map"
                ) {
                    k += 2;
                } else if a.starts_with('-') {
                    k += 1;
                } else {
                    self.host_folder_shared(a, c, "a multipass VM");
                    break;
                }
            }
        }
        for (flag, v) in option_values(args) {
            if flag == "--mount" {
                let src = v.split_once(':').map_or(v, |(s, _)| s);
                self.host_folder_shared(src, c, "a multipass VM");
            }
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
        // (`-d'{…}'` last on the line has no next word to pair with.)
        let attached = args
            .iter()
            .filter_map(|a| {
                a.strip_prefix("-d")
                    .filter(|r| !r.is_empty() && !a.starts_with("--"))
            })
            .map(|v| ("-d", v));
        for (flag, v) in option_values(args).into_iter().chain(attached) {
            // (`-d"{…}"`: the value attached.)
            let (flag, v) = match flag
                .strip_prefix("-d")
                .filter(|r| !r.is_empty() && !flag.starts_with("--"))
            {
                Some(attached) => ("-d", attached),
                None => (flag, v),
            };
            if !matches!(
                flag,
                "-d" | "--data" | "--data-raw" | "--data-binary" | "--json" | "--data-urlencode"
            ) {
                continue;
            }
            // (A body from a file this line wrote: `-d @b.json`.)
            let body = match v.strip_prefix('@') {
                Some(f) => self
                    .written_text(&Word::lit(f), c.cwd())
                    .unwrap_or_default(),
                None => v.to_string(),
            };
            let body = unescape_json(&body);
            for s in body.split('"').filter(|s| s.starts_with('/')) {
                let p = self.norm(&Word::lit(s), c.cwd());
                if paths::device(s) || paths::device(&p) {
                    self.block(format!("hands the disk device {s} to a virtual machine"));
                } else if self.app_state(&p)
                    || paths::contains_credentials(&p)
                    || paths::credential_normalized(&p, s).is_some()
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
    let server = l.contains(",server") && !l.contains("server=off") && !l.contains("server=no");
    let host = if let Some(rest) = l.strip_prefix("tcp:").or_else(|| l.strip_prefix("telnet:")) {
        let addr = rest.split(',').next().unwrap_or("");
        addr.rsplit_once(':').map_or("", |(h, _)| h).to_string()
    } else if key_value(&l, "path").is_some() || l.starts_with("unix:") {
        // A unix socket (`socket,path=/tmp/mon.sock`): this machine only.
        return false;
    } else if l.starts_with("socket,")
        || l.starts_with("udp")
        || l.contains("backend=socket")
        || key_value(&l, "host").is_some()
        || key_value(&l, "port").is_some()
    {
        key_value(&l, "host").unwrap_or("").to_string()
    } else {
        return false;
    };
    // (`0` and `[::]` listen everywhere, though `0` also names loopback.)
    let host = host.trim_matches(['[', ']']).to_string();
    if server {
        every_interface(&host) || host == "0" || !super::project_out::is_loopback(&host)
    } else {
        !host.is_empty() && !super::project_out::is_loopback(&host)
    }
}

/// XML with white space folded to one space, none around `=`, and
/// character references decoded (`&#47;`, `&#x2f;`, `&gt;`).
fn normalize_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let Some(end) = tail.find(';').filter(|e| *e <= 10) else {
            out.push('&');
            rest = &tail[1..];
            continue;
        };
        let entity = &tail[1..end];
        let decoded = match entity {
            "gt" => Some('>'),
            "lt" => Some('<'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "amp" => Some('&'),
            e => e
                .strip_prefix("#x")
                .or_else(|| e.strip_prefix("#X"))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| e.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(ch) => {
                out.push(ch);
                rest = &tail[end + 1..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    let folded = out.split_whitespace().collect::<Vec<_>>().join(" ");
    folded.replace(" =", "=").replace("= ", "=")
}

/// Every `NAME='…'` / `NAME="…"` attribute value in (normalized) XML, in
/// document order.
fn attribute_values<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!(" {name}=");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(&open) {
        let after = &rest[i + open.len()..];
        let Some(q) = after.chars().next().filter(|q| matches!(q, '\'' | '"')) else {
            rest = after;
            continue;
        };
        let body = &after[1..];
        let Some(end) = body.find(q) else { break };
        out.push(&body[..end]);
        rest = &body[end..];
    }
    out
}

/// The `attr` values of every `<element …>` in (normalized) XML, in
/// document order.
fn element_values<'a>(text: &'a str, element: &str, attr: &str) -> Vec<&'a str> {
    let open = format!("<{element} ");
    text.match_indices(&open)
        // (The value may hold a decoded `>`: the first such attribute after
        // the element's name is its own.)
        .filter_map(|(i, _)| attribute_values(&text[i..], attr).into_iter().next())
        .collect()
}

/// JSON's `\u0065` escapes and `\/` decoded.
fn unescape_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\\u") {
        out.push_str(&rest[..at]);
        let hex = rest.get(at + 2..at + 6).unwrap_or("");
        match u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
            Some(ch) if hex.len() == 4 => {
                out.push(ch);
                rest = &rest[at + 6..];
            }
            _ => {
                out.push_str("\\u");
                rest = &rest[at + 2..];
            }
        }
    }
    out.push_str(rest);
    out.replace("\\/", "/")
}

/// virsh's verb and the words after it, past its global options.
pub(super) fn virsh_verb<'a>(args: &'a [&'a str]) -> Option<(&'a str, &'a [&'a str])> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match *a {
            "-c"
            | "--connect"
            | "-l"
            | "--log"
            | "-k"
            | "--keepalive-interval"
            | "-K"
            | "--keepalive-count"
            | "-d"
            | "--debug"
            | "-e"
            | "--escape" => i += 2,
            a if a.starts_with('-') => i += 1,
            verb => return Some((verb, &args[i + 1..])),
        }
    }
    None
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

/// nbdkit's plugin: the first word past its options and their values
/// (`-P pidfile`, `-U sock`, `-p 10810`), a plugin file by its name
/// (`nbdkit-eval-plugin.so`), or a filter's script option.
fn nbdkit_plugin<'a>(args: &[&'a str]) -> Option<&'a str> {
    if args
        .iter()
        .any(|a| a.starts_with("exit-when-script=") || a.contains("-script="))
    {
        return Some("sh");
    }
    let mut k = 0;
    while let Some(a) = args.get(k) {
        if matches!(
            *a,
            "-P" | "--pidfile"
                | "-U"
                | "--unix"
                | "-p"
                | "--port"
                | "-i"
                | "--ipaddr"
                | "-e"
                | "--exportname"
                | "-t"
                | "--threads"
                | "-u"
                | "--user"
                | "-g"
                | "--group"
                | "--filter"
                | "-D"
                | "--debug"
                | "--tls"
                | "--tls-certificates"
                | "--tls-psk"
        ) {
            k += 2;
        } else if a.starts_with('-') {
            k += 1;
        } else {
            let name = program_name(a);
            let name = name
                .strip_prefix("nbdkit-")
                .map(|n| n.split('-').next().unwrap_or(n))
                .unwrap_or(&name)
                .to_string();
            return [
                "eval", "sh", "perl", "python", "lua", "ruby", "tcl", "ocaml", "rust", "cc",
            ]
            .into_iter()
            .find(|p| *p == name)
            .or(Some(a));
        }
    }
    None
}
