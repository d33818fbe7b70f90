//! Programs judged by their name and verbs.

use super::*;

impl Analyzer<'_> {
    /// Programs judged by name: disks, persistence, privileges, services,
    /// credentials stores, remote shells. True when it decided.
    pub(super) fn system_program(&mut self, c: &Cmd<'_>, script: &Script, depth: usize) -> bool {
        let b = c.base.as_str();
        let lb = lower(b);
        let args = &c.args;
        let a = |s: &str| args.iter().any(|x| x == s);
        match lb.as_str() {
            "rm" | "rmdir" | "unlink" | "shred" | "srm" | "trash" | "del" | "erase" | "rd"
            | "remove-item" | "ri" => {
                self.rm_like(&lb, args, c.src);
                self.ask(format!("deletes files ({})", args.join(" ")));
                return true;
            }
            "find" => {
                self.find(c, script, depth);
                return true;
            }
            "xargs" | "parallel" => {
                self.xargs(c, script, depth);
                return true;
            }
            "chmod" | "chown" | "chgrp" | "takeown" | "icacls" => {
                self.perms(c);
                return true;
            }
            "dd" => {
                if let Some(of) = args.iter().find_map(|x| x.strip_prefix("of=")) {
                    if paths::device(of) {
                        self.block(format!("dd onto the device {of} (disk wipe)"));
                    } else if paths::system(of, c.src.cwd.as_deref()) {
                        self.block(format!("dd into a system path ({of})"));
                    }
                }
                self.ask("dd writes raw data");
                return true;
            }
            "mkfs" | "mke2fs" | "mkswap" | "wipefs" | "fdisk" | "sfdisk" | "cfdisk" | "gdisk"
            | "sgdisk" | "parted" | "blkdiscard" | "cryptsetup" | "badblocks" | "hdparm"
            | "nvme" => {
                if args.iter().any(|x| paths::device(x))
                    || matches!(b, "wipefs" | "sgdisk" | "blkdiscard")
                {
                    self.block(format!("disk wipe ({b} on a device)"));
                } else {
                    self.ask(format!("{b} formats or partitions {}", args.join(" ")));
                }
                return true;
            }
            "diskutil" => {
                if args.iter().any(|x| {
                    lower(x).contains("erase")
                        || lower(x).contains("zero")
                        || lower(x) == "partitiondisk"
                }) {
                    self.block("disk wipe (diskutil erase)");
                }
                self.ask("diskutil changes disks");
                return true;
            }
            "diskpart" | "format-volume" | "clear-disk" | "initialize-disk" | "format" => {
                self.block(format!("disk wipe ({b})"));
                return true;
            }
            "tmutil" if a("deletelocalsnapshots") || a("delete") => {
                self.block("deletes backups (tmutil)");
                return true;
            }
            "lvremove" | "vgremove" | "pvremove" | "zpool" | "zfs"
                if !a("list") && !a("status") =>
            {
                self.block(format!("destroys storage volumes ({b})"));
                return true;
            }
            "shutdown" | "reboot" | "halt" | "poweroff" | "init" | "telinit" | "stop-computer"
            | "restart-computer" => {
                self.block(format!("system disruption ({b})"));
                return true;
            }
            "kill" | "pkill" | "killall" => {
                if a("-1")
                    || (args.iter().any(|x| x == "-u")
                        && args.iter().any(|x| x.contains("USER") || x == "root"))
                    || (lb == "killall" && a("-u"))
                {
                    self.block("kills every process of the user (system disruption)");
                }
                self.ask(format!("stops processes ({})", args.join(" ")));
                return true;
            }
            "systemctl" => {
                self.systemctl(c);
                return true;
            }
            "systemd-run" => {
                if args
                    .iter()
                    .any(|x| x.starts_with("--on-") || x.starts_with("--timer-property"))
                {
                    self.block("persistence (a systemd timer)");
                }
                self.ask("systemd-run starts a unit");
                return true;
            }
            "crontab" => {
                if args.iter().all(|x| x == "-l") && !args.is_empty() {
                    return true;
                }
                self.block("persistence (changes the crontab)");
                return true;
            }
            "at" | "batch" | "atq" if lb != "atq" => {
                self.block("persistence (schedules a job with at)");
                return true;
            }
            "launchctl" => {
                if args.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "load" | "bootstrap" | "enable" | "submit" | "kickstart"
                    )
                }) {
                    self.block("persistence (launchctl loads an agent)");
                }
                self.ask("launchctl changes services");
                return true;
            }
            "schtasks" => {
                if args.iter().any(|x| lower(x) == "/create") {
                    self.block("persistence (schtasks /create)");
                }
                self.ask("schtasks");
                return true;
            }
            "reg" => {
                let joined = lower(&args.join(" "));
                if joined.contains("currentversion\\run") || joined.contains("currentversion/run") {
                    self.block("persistence (a Run registry key)");
                } else if args.first().is_some_and(|x| {
                    matches!(
                        lower(x).as_str(),
                        "add" | "delete" | "import" | "load" | "restore"
                    )
                }) && (joined.contains("hklm") || joined.contains("hkey_local_machine"))
                {
                    self.block("system write (changes HKLM in the registry)");
                }
                self.ask("changes the registry");
                return true;
            }
            "netsh" | "set-mppreference" | "spctl" | "csrutil" | "sysctl" | "setenforce"
            | "ufw" | "iptables" | "nft" => {
                let joined = lower(&args.join(" "));
                if joined.contains("off")
                    || joined.contains("disable")
                    || joined.contains("-w")
                    || joined.contains("-f")
                    || joined.contains("flush")
                    || joined.contains('=')
                {
                    self.block(format!("weakens system protection ({b})"));
                }
                self.ask(format!("{b} changes system settings"));
                return true;
            }
            "usermod" | "useradd" | "userdel" | "adduser" | "deluser" | "groupadd" | "gpasswd"
            | "passwd" | "chpasswd" | "visudo" | "vipw" | "setcap" | "chsh" | "newgrp" => {
                self.block(format!("privilege or account change ({b})"));
                return true;
            }
            "start-process" => {
                if args.iter().any(|x| lower(x) == "runas") {
                    self.block("privilege escalation (Start-Process -Verb RunAs)");
                }
                self.ask("Start-Process");
                return true;
            }
            "regsvr32" | "mshta" | "msiexec" | "rundll32" | "installutil" | "regasm"
            | "cscript" | "wscript" => {
                if args.iter().any(|x| lower(x).contains("http")) {
                    self.block(format!("download and execute ({b} with a URL)"));
                }
                self.ask(format!("{b} runs code"));
                return true;
            }
            "certutil" | "bitsadmin" => {
                if args.iter().any(|x| {
                    lower(x).contains("urlcache")
                        || lower(x).contains("/transfer")
                        || lower(x).contains("http")
                }) {
                    self.block(format!("download and execute ({b} fetches a file)"));
                }
                self.ask(b.to_string());
                return true;
            }
            "cmdkey" | "vaultcmd" | "mimikatz" | "lazagne" => {
                self.block(format!("lists stored credentials ({b})"));
                return true;
            }
            "get-content" | "type" | "gc" | "cat"
                if args.iter().any(|x| paths::credential(x, None).is_some()) =>
            {
                self.block("reads a credential file");
                return true;
            }
            "cmd" | "cmd.exe" => {
                if let Some(i) = args
                    .iter()
                    .position(|x| lower(x) == "/c" || lower(x) == "/k")
                {
                    let text = args[i + 1..].join(" ");
                    self.nested(&text, depth);
                }
                self.ask("runs cmd.exe");
                return true;
            }
            "docker" | "podman" | "nerdctl" => {
                self.container(c);
                return true;
            }
            "nc" | "ncat" | "netcat" | "socat" | "telnet" => {
                let joined = lower(&args.join(" "));
                if args.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "-e" | "-c" | "--exec" | "--sh-exec" | "--lua-exec"
                    )
                }) || joined.contains("exec:")
                    || joined.contains("system:")
                {
                    self.block(format!("remote shell ({b} runs a program for the network)"));
                }
                self.ask(format!("{b} opens a network connection"));
                return true;
            }
            "ssh" => {
                if args.iter().any(|x| x == "-R" || x.starts_with("-R")) {
                    self.block(
                        "remote shell (ssh -R exposes this machine through a reverse tunnel)",
                    );
                }
                self.ask("ssh to another machine");
                return true;
            }
            "sqlite3" => {
                let sql = lower(&args.join(" "));
                let mutating = [
                    "drop ", "delete ", "update ", "insert ", "alter ", "create ", "vacuum",
                    "attach", ".restore", ".import",
                ]
                .iter()
                .any(|k| sql.contains(k));
                if mutating
                    && args.iter().any(|x| {
                        paths::app_state(
                            x,
                            c.src.cwd.as_deref(),
                            &self.env.app,
                            &self.env.protected,
                        )
                    })
                {
                    self.block("changes Jarvis's own database");
                }
                if let Some(p) = args.iter().find(|x| {
                    let l = lower(x);
                    l.contains("cookies")
                        || l.contains("login data")
                        || l.contains("key4.db")
                        || l.contains("logins.json")
                }) {
                    self.block(format!("reads browser secrets ({p})"));
                }
                self.ask("sqlite3 can change databases");
                return true;
            }
            "git" => {
                self.git(c, depth);
                return true;
            }
            "tar" | "bsdtar" => {
                self.tar(c, depth);
                return true;
            }
            "vim" | "vi" | "nvim" | "ex" | "view" => {
                for (i, x) in args.iter().enumerate() {
                    let cmd = if x == "-c" {
                        args.get(i + 1).map(String::as_str)
                    } else {
                        x.strip_prefix('+')
                    };
                    if let Some(cmd) = cmd
                        && let Some(sh) = cmd.trim_start_matches(':').strip_prefix('!')
                    {
                        self.nested(sh, depth);
                    }
                }
                self.ask("opens an editor");
                return true;
            }
            "tmux" | "screen" | "byobu" => {
                if let Some(last) = args.last().filter(|l| !l.starts_with('-')) {
                    self.nested(last, depth);
                }
                self.ask(format!("{b} runs a command in a session"));
                return true;
            }
            "awk" | "gawk" | "mawk" | "nawk" => {
                let prog = args
                    .iter()
                    .find(|x| !x.starts_with('-'))
                    .cloned()
                    .unwrap_or_default();
                let compact: String = prog.chars().filter(|ch| !ch.is_whitespace()).collect();
                if compact.contains("system(")
                    || compact.contains("|\"")
                    || compact.contains("|&")
                    || compact.contains("|getline")
                    || compact.contains("|'")
                {
                    self.block("awk runs shell commands (system or a pipe to sh)");
                }
                if args.iter().any(|x| x == "-i") && args.iter().any(|x| x == "inplace") {
                    self.ask("awk edits files in place");
                }
                if prog.contains('>') {
                    self.ask("awk writes files");
                }
                return true;
            }
            "npm" | "pnpm" | "yarn" => {
                if args.first().is_some_and(|x| x == "pkg") && a("set") {
                    for x in args {
                        if let Some((k, v)) = x.split_once('=')
                            && k.starts_with("scripts.")
                        {
                            self.nested(v, depth);
                        }
                    }
                }
                self.ask(format!("{b} runs package scripts"));
                return true;
            }
            "alias" => {
                self.ask("defines an alias");
                return true;
            }
            _ if lb == lower(&self.env.app) => {
                let sub = args
                    .iter()
                    .find(|x| !x.starts_with('-'))
                    .map(String::as_str)
                    .unwrap_or("");
                let verb = args
                    .iter()
                    .filter(|x| !x.starts_with('-'))
                    .nth(1)
                    .map(String::as_str)
                    .unwrap_or("");
                let changes = matches!(sub, "key" | "grants" | "tool")
                    || (sub == "config" && verb == "set")
                    || (sub == "skill"
                        && matches!(
                            verb,
                            "enable" | "disable" | "delete" | "restore" | "install"
                        ))
                    || (sub == "sessions" && matches!(verb, "delete" | "rename"))
                    || args.iter().any(|x| x == "--yes");
                if changes {
                    self.block(format!(
                        "changes Jarvis's own settings through its CLI ({b} {sub})"
                    ));
                }
                self.ask(format!("runs {b}"));
                return true;
            }
            "aws" => {
                let j = lower(&args.join(" "));
                if (j.contains("configure get") || j.contains("configure export-credentials"))
                    || j.contains("get-session-token")
                    || j.contains("secretsmanager get-secret-value")
                {
                    self.block("reveals cloud credentials (aws)");
                }
                self.ask("aws changes cloud resources");
                return true;
            }
            "gcloud" | "az" => {
                let j = lower(&args.join(" "));
                if j.contains("print-access-token")
                    || j.contains("print-identity-token")
                    || j.contains("get-access-token")
                {
                    self.block(format!("reveals cloud credentials ({b})"));
                }
                self.ask(format!("{b} changes cloud resources"));
                return true;
            }
            "security" => {
                if args.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "find-generic-password"
                            | "find-internet-password"
                            | "dump-keychain"
                            | "export"
                            | "find-certificate"
                    )
                }) {
                    self.block("reads the macOS keychain");
                }
                self.ask("security");
                return true;
            }
            "secret-tool" | "pass" | "gopass" | "op" | "bw" | "lpass" | "keyctl" => {
                let reads = args.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "lookup" | "search" | "show" | "read" | "get" | "print" | "export"
                    )
                });
                // `pass NAME` prints a password; `pass` alone lists names.
                let pass_reads = matches!(b, "pass" | "gopass")
                    && args.first().is_some_and(|x| {
                        !x.starts_with('-')
                            && !matches!(
                                x.as_str(),
                                "ls" | "list"
                                    | "init"
                                    | "insert"
                                    | "generate"
                                    | "edit"
                                    | "rm"
                                    | "mv"
                                    | "cp"
                                    | "git"
                                    | "grep"
                                    | "find"
                                    | "version"
                                    | "help"
                            )
                    });
                if reads || pass_reads {
                    self.block(format!("reads stored secrets ({b})"));
                }
                self.ask(b.to_string());
                return true;
            }
            "gpg" | "gpg2" => {
                if args.iter().any(|x| x.starts_with("--export-secret")) {
                    self.block("exports private keys (gpg)");
                }
                self.ask("gpg");
                return true;
            }
            "kubectl" => {
                if a("view") && a("--raw") || args.iter().any(|x| x.contains("secret")) && a("get")
                {
                    self.block("reveals cluster credentials");
                }
                self.ask("kubectl changes a cluster");
                return true;
            }
            _ => {}
        }
        false
    }
}
