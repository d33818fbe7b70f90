//! Programs judged by name and verb: disks, power, processes, services and
//! schedules (the rest of the system programs are in `kernel`, `secrets`
//! and `tunnels`).

use super::debuggers::{attaches, debugger_line, injects};
use super::*;

/// What the system-program judges read of a command, computed once.
pub(super) struct Verb<'c> {
    pub b: &'c str,
    pub lb: &'c str,
    pub args: &'c [String],
    /// The arguments, lower-case, joined by spaces.
    pub joined: String,
}

impl<'c> Verb<'c> {
    fn of(c: &'c Cmd<'_>) -> Verb<'c> {
        Verb {
            b: &c.base,
            lb: &c.lb,
            args: &c.args,
            joined: lower(&c.args.join(" ")),
        }
    }
    /// `s` is one of the arguments.
    pub fn a(&self, s: &str) -> bool {
        self.args.iter().any(|x| x == s)
    }
}

impl Analyzer<'_> {
    /// `None` when `c` is not one of these.
    pub(super) fn system_program(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let v = Verb::of(c);
        self.disks_and_processes(c, &v)
            .or_else(|| self.windows_tools(c, &v))
            .or_else(|| self.device_tools(c, &v))
            .or_else(|| self.services_and_schedules(c, &v))
            .or_else(|| self.kernel_and_accounts(c, &v))
            .or_else(|| self.secret_stores(c, &v))
            .or_else(|| self.tunnels_and_builtins(c, &v))
            .or_else(|| self.packages_and_self(c, &v))
    }

    /// Disks, partitions, power, signals and debuggers.
    pub(super) fn disks_and_processes(&mut self, c: &Cmd<'_>, v: &Verb<'_>) -> Option<bool> {
        let Verb { b, lb, args, .. } = *v;
        match lb {
            "mkfs" | "mke2fs" | "mkswap" | "mkntfs" | "mkdosfs" | "wipefs" | "fdisk" | "sfdisk"
            | "cfdisk" | "gdisk" | "sgdisk" | "parted" | "blkdiscard" | "cryptsetup"
            | "badblocks" | "hdparm" | "nvme" | "mdadm" | "fsck" | "e2fsck" | "tune2fs"
            | "resize2fs" | "dmsetup" | "losetup" => {
                let listing = partition_listing(lb, args);
                // An image file's table is read like any file (`fdisk -l
                // out/sdcard.img`); a device's, or every disk's, asks.
                let images = operands(c);
                let of_images = listing
                    && lb != "parted"
                    && !images.is_empty()
                    && images.iter().all(|w| {
                        !w.dynamic
                            && !paths::device(&w.text)
                            && !["/dev", "/proc", "/sys"]
                                .iter()
                                .any(|d| w.text.starts_with(d))
                    });
                if of_images {
                    let mut read = true;
                    for w in images {
                        read &= self.read_path(w, c.cwd());
                    }
                    return Some(read);
                }
                if listing {
                    self.ask(format!("{b} reads the partition table"));
                } else if args.iter().any(|x| paths::device(x))
                    || matches!(lb, "wipefs" | "blkdiscard") && !v.a("--help")
                {
                    self.block(format!("disk wipe ({b} on a device)"));
                } else if (lb.starts_with("mk")
                    || matches!(
                        lb,
                        "fdisk" | "sfdisk" | "cfdisk" | "gdisk" | "sgdisk" | "parted"
                    ))
                    && target_dynamic(&c.words[1..])
                {
                    // `mkfs.ext4 -F "$dev"`: what it formats is known only
                    // at run time, a disk as likely as an image file.
                    self.block(format!(
                        "disk wipe ({b} on a target known only at run time)"
                    ));
                } else {
                    self.ask(format!("{b} formats or partitions {}", args.join(" ")));
                }
                Some(false)
            }
            // A disk's health and identity: SMART data read, a self-test
            // started; nothing it does writes the disk's blocks.
            "smartctl" => {
                self.ask(format!("{b} queries a disk's health"));
                Some(false)
            }
            "diskutil" => {
                if [
                    "erase",
                    "zero",
                    "partitiondisk",
                    "secureerase",
                    "reformat",
                    "randomdisk",
                ]
                .iter()
                .any(|k| v.joined.contains(k))
                {
                    self.block("disk wipe (diskutil erase)");
                }
                self.ask("diskutil changes disks");
                Some(false)
            }
            "diskpart" | "format-volume" | "clear-disk" | "initialize-disk" | "format"
            | "remove-partition" | "cipher"
                if lb != "cipher" || v.joined.contains("/w") =>
            {
                self.block(format!("disk wipe ({b})"));
                Some(false)
            }
            "vssadmin" | "wbadmin" | "bcdedit" | "wmic"
                if v.joined.contains("delete")
                    || v.joined.contains("shadowcopy")
                    || v.joined.contains("/set") =>
            {
                self.block(format!("destroys backups or boot settings ({b})"));
                Some(false)
            }
            "tmutil" if v.a("deletelocalsnapshots") || v.a("delete") || v.a("disable") => {
                self.block("deletes backups (tmutil)");
                Some(false)
            }
            "lvremove" | "vgremove" | "pvremove" | "lvreduce" => {
                self.block(format!("destroys storage volumes ({b})"));
                Some(false)
            }
            "zpool" | "zfs" | "btrfs" => Some(self.storage_pools(v)),
            "shutdown" | "reboot" | "halt" | "poweroff" | "init" | "telinit" | "stop-computer"
            | "restart-computer" | "suspend" | "hibernate" | "pm-suspend" | "killall5"
            | "logoff" => {
                if lb == "shutdown" && v.a("-c") {
                    self.ask("cancels a shutdown");
                } else {
                    self.block(format!("system disruption ({b})"));
                }
                Some(false)
            }
            "kill" | "pkill" | "killall" | "skill" | "tkill" | "renice" | "stop-process"
            | "taskkill" | "xkill" => {
                self.signals(c);
                Some(false)
            }
            // `fuser -k 7420/tcp`: whatever listens on a port, by the port.
            "fuser" if c.args.iter().any(|a| short_has(a, 'k')) => {
                let admin = c.args.iter().any(|a| {
                    let port = a.trim_start_matches(':').split('/').next().unwrap_or("");
                    port.parse::<u16>()
                        .is_ok_and(|p| crate::policy::url::ADMIN_PORTS.contains(&p))
                });
                if admin {
                    self.block(format!("{b} kills what listens on an admin port (Jarvis itself, a debugger or Docker)"));
                }
                self.ask(format!("{b} -k kills the processes using a file or port"));
                Some(false)
            }
            // (Cross and wrapped debuggers: `gdb-multiarch`,
            // `arm-none-eabi-gdb`, `rust-gdb`, `lldb-18`.)
            d if matches!(d, "ptrace" | "gcore" | "pstack" | "eu-stack" | "perf")
                || d == "gdb"
                || d.starts_with("gdb-")
                || d.ends_with("-gdb")
                || d == "lldb"
                || d.starts_with("lldb-")
                || d.ends_with("-lldb") =>
            {
                if c.words.iter().any(|w| self.aims_at_self(w, c.script)) {
                    self.block(format!("{b} attaches to Jarvis's own process"));
                }
                if c.words
                    .iter()
                    .skip(1)
                    .any(|w| self.aims_at_secret_holder(w, c.script))
                {
                    self.block(format!(
                        "{b} reads the memory of a process that holds secrets (a keyring, an agent, a browser)"
                    ));
                }
                for (i, x) in args.iter().enumerate() {
                    if matches!(
                        x.as_str(),
                        "-ex"
                            | "--eval-command"
                            | "-iex"
                            | "--init-eval-command"
                            | "-o"
                            | "--one-line"
                            | "-O"
                            | "--one-line-before-file"
                            | "-k"
                            | "--one-line-on-crash"
                    ) && let Some(cmd) = args.get(i + 1)
                    {
                        let t = cmd.trim();
                        if let Some(sh) = t
                            .strip_prefix("shell ")
                            .or_else(|| t.strip_prefix('!'))
                            .or_else(|| t.strip_prefix("platform shell "))
                        {
                            self.script(sh, &[], c.depth + 1);
                        }
                        if let Some(sh) = super::debuggers::piped_shell(t) {
                            self.script(sh, &[], c.depth + 1);
                        }
                        // `python …`, lldb's `script …`: Python in the debugger.
                        let lt = lower(t);
                        if let Some(py) =
                            ["python-interactive ", "python ", "py ", "pi ", "script "]
                                .iter()
                                .find_map(|p| lt.starts_with(p).then(|| &t[p.len()..]))
                        {
                            self.inline_code("python3", py, c.depth);
                        }
                        // `call system("…")`: the string is a shell command.
                        if t.contains("system") || t.contains("exec") {
                            for s in super::code::string_literals(t) {
                                self.script(&s, &[], c.depth + 1);
                            }
                        }
                    }
                }
                if attaches(lb, args) && debugger_line(args).0.iter().any(|a| injects(a)) {
                    self.block(format!(
                        "{b} runs code inside another running process (it runs there, with that process's rights and outside this sandbox)"
                    ));
                }
                self.ask(format!("{b} debugs a process"));
                Some(false)
            }
            _ => None,
        }
    }

    /// Services, schedules, the registry and firewall and policy settings.
    pub(super) fn services_and_schedules(&mut self, c: &Cmd<'_>, v: &Verb<'_>) -> Option<bool> {
        let Verb { b, lb, args, .. } = *v;
        match lb {
            "systemctl" => Some(self.systemctl(c)),
            // `--dir DIR`: the entry lands there (autostart included).
            "desktop-file-install" => {
                for d in super::script_opts::values(c, &["--dir"]) {
                    let entry = Word {
                        text: format!("{}/app.desktop", d.text.trim_end_matches('/')),
                        ..d.clone()
                    };
                    self.write_path(&entry, c.cwd(), "desktop-file-install");
                }
                self.ask("desktop-file-install installs a desktop entry");
                Some(false)
            }
            // Every later D-Bus- or systemd-started program's environment.
            "dbus-update-activation-environment" => {
                self.block("persistence (dbus-update-activation-environment sets what later services start with)");
                Some(false)
            }
            "service" | "rc-service" | "update-rc.d" | "chkconfig" | "rc-update"
            | "sysv-rc-conf" => {
                if v.joined.contains("enable")
                    || v.joined.contains(" on")
                    || v.joined.contains(" add")
                    || v.joined.contains("defaults")
                {
                    self.block(format!("persistence ({b} enables a service at boot)"));
                } else if v.joined.contains("stop") || v.joined.contains("disable") {
                    self.ask(format!("{b} stops a service"));
                }
                self.ask(format!("{b} manages services"));
                Some(false)
            }
            "loginctl" => {
                if v.joined.contains("enable-linger") {
                    self.block("persistence (loginctl enable-linger keeps your services running)");
                } else if ["terminate", "kill", "poweroff", "reboot", "lock"]
                    .iter()
                    .any(|k| v.joined.contains(k))
                {
                    self.block("system disruption (loginctl)");
                }
                self.ask("loginctl");
                Some(false)
            }
            "systemd-run" => {
                let foreground = args.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "--wait"
                            | "-W"
                            | "--pty"
                            | "-t"
                            | "--pipe"
                            | "-P"
                            | "--scope"
                            | "-S"
                            | "--shell"
                    )
                });
                if args.iter().any(|x| {
                    x.starts_with("--on-")
                        || x.starts_with("--timer-property")
                        || x.contains("Restart=")
                }) || !foreground
                {
                    self.block("persistence (systemd-run starts a service or timer that outlives the command)");
                }
                let mut i = 0;
                while i < args.len() && args[i].starts_with('-') {
                    if matches!(
                        args[i].as_str(),
                        "-p" | "--property"
                            | "-u"
                            | "--unit"
                            | "-E"
                            | "--setenv"
                            | "--description"
                            | "--slice"
                            | "-M"
                            | "--machine"
                            | "-H"
                            | "--host"
                            | "--uid"
                            | "--gid"
                            | "--working-directory"
                            | "--nice"
                            | "-G"
                    ) {
                        i += 1;
                    }
                    i += 1;
                }
                if i < args.len() {
                    let words: Vec<Word> = c.words[i + 1..].to_vec();
                    self.run_words(words, c.src, c.script, c.depth + 1);
                }
                self.ask("systemd-run starts a unit");
                Some(false)
            }
            // fish keeps a function saved with `funcsave` for every later
            // session, and a universal variable (`set -U`) too: a saved
            // `ls` or a folder put first on the PATH runs in every shell.
            "funcsave" => {
                self.block("persistence (funcsave keeps a function every fish session loads)");
                Some(false)
            }
            "set" if args.iter().any(|x| short_has(x, 'U') || x == "--universal") => {
                let name = args
                    .iter()
                    .find(|x| !x.starts_with('-'))
                    .map(|x| x.to_ascii_uppercase());
                let loads = name.as_deref().is_some_and(|n| {
                    n.contains("PATH")
                        || super::effects::LOADER_VARS.contains(&n)
                        || super::effects::COMMAND_VARS.contains(&n)
                        || super::effects::INJECT_VARS.contains(&n)
                });
                if loads {
                    self.block(format!(
                        "persistence (a fish universal variable, {}, changes what every later fish session runs)",
                        name.unwrap_or_default()
                    ));
                }
                self.ask("sets a fish universal variable, kept for every later session");
                Some(false)
            }
            // The whenever gem writes its schedule into the crontab.
            "whenever"
                if args.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "-i" | "-w" | "--update-crontab" | "--write-crontab"
                    )
                }) =>
            {
                self.block("persistence (whenever writes the crontab)");
                Some(false)
            }
            "crontab" => {
                if args.iter().all(|x| x == "-l" || x.starts_with("-u")) && v.a("-l") {
                    return Some(true);
                }
                self.block("persistence (changes the crontab)");
                Some(false)
            }
            "at" | "batch" | "atq" | "atrm" => {
                // `atq` lists the queue; `atrm` takes jobs off it.
                if lb == "atq" {
                    return Some(true);
                }
                if lb == "atrm" {
                    self.ask(format!("{b} manages scheduled jobs"));
                    return Some(false);
                }
                self.block("persistence (schedules a job with at)");
                Some(false)
            }
            "launchctl" => {
                if args.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "load" | "bootstrap" | "enable" | "submit" | "kickstart" | "setenv"
                    )
                }) {
                    self.block("persistence (launchctl loads an agent)");
                }
                self.ask("launchctl changes services");
                Some(false)
            }
            "schtasks"
            | "register-scheduledtask"
            | "new-scheduledtask"
            | "new-scheduledtaskaction" => {
                if v.joined.contains("/create") || lb.contains("register") || lb.contains("new-") {
                    self.block("persistence (a scheduled task)");
                }
                self.ask("schtasks");
                Some(false)
            }
            "reg" | "new-itemproperty" | "set-itemproperty" | "remove-itemproperty" | "regedit" => {
                let j = v.joined.replace('\\', "/");
                if j.contains("currentversion/run")
                    || j.contains("winlogon")
                    || j.contains("image file execution options")
                {
                    self.block("persistence (a Run registry key)");
                } else if (v.joined.starts_with("save") || v.joined.starts_with("export"))
                    && (j.contains("sam") || j.contains("security") || j.contains("system"))
                {
                    self.block("dumps the registry's credential hives");
                } else if (args.first().is_some_and(|x| {
                    matches!(
                        lower(x).as_str(),
                        "add" | "delete" | "import" | "load" | "restore" | "copy"
                    )
                }) || lb.contains("itemproperty"))
                    && (j.contains("hklm") || j.contains("hkey_local_machine"))
                {
                    self.block("system write (changes HKLM in the registry)");
                }
                self.ask("changes the registry");
                Some(false)
            }
            "netsh"
            | "set-mppreference"
            | "add-mppreference"
            | "spctl"
            | "csrutil"
            | "sysctl"
            | "setenforce"
            | "ufw"
            | "iptables"
            | "ip6tables"
            | "nft"
            | "firewall-cmd"
            | "pfctl"
            | "aa-disable"
            | "aa-complain"
            | "auditctl"
            | "apparmor_parser"
            | "set-netfirewallprofile"
            | "set-executionpolicy" => {
                let reading = lb == "sysctl"
                    && !v.joined.contains("-w")
                    && !v.joined.contains('=')
                    && !v.a("-p")
                    && !v.a("--load")
                    && !v.a("--system");
                let reading = reading
                    || (matches!(lb, "iptables" | "ip6tables" | "nft")
                        && (v.a("-L") || v.a("-S") || v.a("list") || v.a("--list")))
                    || (lb == "ufw" && (v.a("status") || v.a("app")))
                    || (lb == "csrutil" && v.a("status"))
                    || (lb == "spctl" && (v.a("--status") || v.a("--assess")));
                if reading {
                    return Some(lb == "sysctl");
                }
                let weakens = [
                    "off",
                    "disable",
                    "-w",
                    "-f",
                    "--flush",
                    "flush",
                    "=",
                    "-p",
                    "accept",
                    "0",
                    "unconfined",
                    "complain",
                    "-d",
                    "-e 0",
                    "--master-disable",
                    "bypass",
                    "unrestricted",
                    "-x",
                ]
                .iter()
                .any(|k| v.joined.contains(k));
                if weakens
                    || matches!(
                        lb,
                        "aa-disable" | "aa-complain" | "set-mppreference" | "add-mppreference"
                    )
                {
                    self.block(format!("weakens system protection ({b})"));
                }
                self.ask(format!("{b} changes system settings"));
                Some(false)
            }
            _ => None,
        }
    }

    pub(super) fn systemctl(&mut self, c: &Cmd<'_>) -> bool {
        let verb = c
            .args
            .iter()
            .find(|x| !x.starts_with('-'))
            .map(String::as_str)
            .unwrap_or("");
        let user = c.args.iter().any(|x| x == "--user");
        match verb {
            "status" | "is-active" | "is-enabled" | "is-failed" | "list-units"
            | "list-unit-files" | "list-timers" | "list-sockets" | "list-dependencies" | "show"
            | "cat" | "help" | "" => true,
            "enable" | "link" | "reenable" | "preset" | "preset-all" | "add-wants"
            | "add-requires" | "set-default" | "edit" | "revert" | "set-environment"
            | "import-environment" => {
                self.block(format!("persistence (systemctl {verb})"));
                false
            }
            "poweroff"
            | "reboot"
            | "halt"
            | "suspend"
            | "hibernate"
            | "kexec"
            | "emergency"
            | "rescue"
            | "isolate"
            | "hybrid-sleep"
            | "suspend-then-hibernate"
            | "soft-reboot"
            | "default"
            | "exit" => {
                self.block(format!("system disruption (systemctl {verb})"));
                false
            }
            "mask" | "disable" | "stop" | "kill" | "freeze"
                if c.args.iter().any(|x| {
                    tables::names_security_tool(x) || self.mentions_self(&Word::lit(x.as_str()))
                }) =>
            {
                self.block(format!(
                    "disables a security tool or Jarvis itself (systemctl {verb})"
                ));
                false
            }
            "mask" | "disable" | "stop" | "kill" if !user => {
                let critical = c.args.iter().any(|x| {
                    let l = lower(x);
                    [
                        "ssh",
                        "network",
                        "systemd-",
                        "dbus",
                        "firewall",
                        "ufw",
                        "apparmor",
                        "auditd",
                        "gdm",
                        "sddm",
                        "lightdm",
                        "display-manager",
                        "NetworkManager",
                        "udev",
                        "journald",
                        "logind",
                        "polkit",
                    ]
                    .iter()
                    .any(|k| l.contains(&lower(k)))
                });
                if verb == "mask" || verb == "disable" || critical {
                    self.block(format!("disables system services (systemctl {verb})"));
                }
                self.ask(format!("systemctl {verb}"));
                false
            }
            other => {
                self.ask(format!("systemctl {other}"));
                false
            }
        }
    }

    /// Package managers, and Jarvis's own CLI.
    pub(super) fn packages_and_self(&mut self, c: &Cmd<'_>, v: &Verb<'_>) -> Option<bool> {
        let Verb { b, lb, args, .. } = *v;
        match lb {
            "apt" | "apt-get" | "dnf" | "yum" | "zypper" | "pacman" | "apk" | "brew" | "port"
            | "snap" | "flatpak" | "nix-env" | "dpkg" | "rpm" | "choco" | "winget" | "scoop" => {
                if lb == "rpm"
                    && let Some(read_only) = self.rpm_query(c)
                {
                    return Some(read_only);
                }
                if c.assigns.is_empty() && super::package_trust::local_package_query(lb, args) {
                    return Some(true);
                }
                let reads = [
                    "list",
                    "search",
                    "show",
                    "info",
                    "policy",
                    "-l",
                    "-q",
                    "-L",
                    "--version",
                    "outdated",
                    "-Ss",
                    "-Qi",
                    "-Ql",
                    "-Q",
                ]
                .iter()
                .any(|k| args.first().is_some_and(|x| x == k));
                if reads {
                    self.ask(format!("{b} looks up packages"));
                } else {
                    self.ask(format!("{b} installs or removes software"));
                }
                Some(false)
            }
            _ if lb == lower(&self.env.app)
                || lb.starts_with(&format!("{}-", lower(&self.env.app))) =>
            {
                self.self_cli(c);
                Some(false)
            }
            _ => None,
        }
    }

    /// The `jarvis` CLI run by the agent: nothing that changes Jarvis.
    pub(super) fn self_cli(&mut self, c: &Cmd<'_>) {
        let b = &c.base;
        let lb = c.lb.as_str();
        let app = lower(&self.env.app);
        if lb != app {
            // `jarvis-sandbox`, `jarvis-desktop`, `jarvis-llm` run directly.
            if lb.ends_with("-sandbox") {
                self.block("runs Jarvis's sandbox helper directly (it must only be run by Jarvis)");
            }
            self.ask(format!("runs {b}"));
            return;
        }
        let ops: Vec<&str> = c
            .args
            .iter()
            .filter(|x| !x.starts_with('-'))
            .map(String::as_str)
            .collect();
        let sub = ops.first().copied().unwrap_or("");
        let verb = ops.get(1).copied().unwrap_or("");
        let changes = matches!(
            sub,
            "key" | "grants" | "tool" | "undo" | "stop" | "resume" | "serve" | "mcp"
        ) || (sub == "config" && matches!(verb, "set" | "unset" | "edit"))
            || (sub == "skill"
                && matches!(
                    verb,
                    "enable" | "disable" | "delete" | "restore" | "install" | "pin" | "unpin"
                ))
            || (sub == "evolve" && matches!(verb, "accept" | "apply" | "dismiss" | "rollback"))
            || (sub == "memory" && matches!(verb, "add" | "edit" | "forget" | "confirm"))
            || (sub == "sessions" && matches!(verb, "delete" | "rename"))
            || (matches!(sub, "tasks" | "schedules" | "schedule")
                && !matches!(verb, "list" | "show" | ""))
            || (sub == "models" && matches!(verb, "install" | "remove"))
            // `--allow KINDS` approves in advance: an approval the agent gives itself.
            || c
                .args
                .iter()
                .any(|x| x == "--yes" || x == "--allow" || x.starts_with("--allow="));
        if changes {
            self.block(format!(
                "changes Jarvis's own settings through its CLI ({b} {sub})"
            ));
        }
        self.ask(format!("runs {b}"));
    }
}

/// The device a formatter or partitioner is handed is its last operand (a
/// size in blocks may follow it); option values (`-L "$LABEL"`) are not it.
fn target_dynamic(words: &[Word]) -> bool {
    let mut ops: Vec<&Word> = Vec::new();
    let mut i = 0;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        if let Some(flag) = t.strip_prefix('-') {
            // A short option whose value is the next word (`-L name`).
            let valued = flag.len() == 1 && "LbCEONImUTtgGcfj".contains(flag);
            i += if valued { 2 } else { 1 };
            continue;
        }
        ops.push(w);
        i += 1;
    }
    let device = match ops.as_slice() {
        [.., d, n] if n.text.chars().all(|c| c.is_ascii_digit()) && !n.dynamic => Some(*d),
        [.., d] => Some(*d),
        [] => None,
    };
    device.is_some_and(|d| d.dynamic)
}

/// `fdisk -l`, `sfdisk -l`, `parted DEV print`: a partition table shown and
/// nothing else. Every option must be one that shows (sfdisk obeys the
/// last operation given: `-l --delete` deletes; parted runs every command
/// after the device: `print rm 1` removes).
fn partition_listing(lb: &str, args: &[String]) -> bool {
    const SHOWS: &[&str] = &[
        "-l",
        "--list",
        "-x",
        "--list-details",
        "-o",
        "--output",
        "-u",
        "--units",
        "-b",
        "--sector-size",
        "--bytes",
        "-L",
        "--color",
        "-s",
        "--show-size",
        "-d",
        "--dump",
        "-J",
        "--json",
        "-g",
        "--show-geometry",
        "-q",
        "--quiet",
    ];
    const VALUED: &[&str] = &["-o", "--output", "-b", "--sector-size"];
    match lb {
        "fdisk" | "sfdisk" => {
            let mut listed = false;
            let mut i = 0;
            while let Some(a) = args.get(i) {
                if a.starts_with('-') {
                    let name = a.split_once('=').map_or(a.as_str(), |(n, _)| n);
                    if !SHOWS.contains(&name) {
                        return false;
                    }
                    listed |= matches!(
                        name,
                        "-l" | "--list"
                            | "-x"
                            | "--list-details"
                            | "-d"
                            | "--dump"
                            | "-J"
                            | "--json"
                    );
                    if VALUED.contains(&a.as_str()) {
                        i += 1;
                    }
                }
                i += 1;
            }
            listed
        }
        "parted" => {
            let options_show = args.iter().filter(|a| a.starts_with('-')).all(|a| {
                matches!(
                    a.as_str(),
                    "-l" | "--list" | "-s" | "--script" | "-m" | "--machine"
                )
            });
            let words: Vec<&str> = args
                .iter()
                .filter(|a| !a.starts_with('-'))
                .map(String::as_str)
                .collect();
            let commands_show = match words.as_slice() {
                [] => args.iter().any(|a| a == "-l" || a == "--list"),
                [_dev, "print", rest @ ..] | [_dev, "unit", _, "print", rest @ ..] => {
                    rest.iter().all(|w| matches!(*w, "free" | "all"))
                }
                _ => false,
            };
            options_show && commands_show
        }
        _ => false,
    }
}
