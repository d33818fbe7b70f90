//! Programs judged by name and verb: disks, services, schedules, accounts,
//! kernel and firewall settings, containers, secret stores, power, and
//! Jarvis itself.

use super::*;

impl Analyzer<'_> {
    /// `None` when `c` is not one of these.
    pub(super) fn system_program(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let b = c.base.as_str();
        let lb = c.lb.as_str();
        let args = &c.args;
        let a = |s: &str| args.iter().any(|x| x == s);
        let joined = lower(&args.join(" "));
        match lb {
            "mkfs" | "mke2fs" | "mkswap" | "mkntfs" | "mkdosfs" | "wipefs" | "fdisk" | "sfdisk"
            | "cfdisk" | "gdisk" | "sgdisk" | "parted" | "blkdiscard" | "cryptsetup"
            | "badblocks" | "hdparm" | "nvme" | "mdadm" | "fsck" | "e2fsck" | "tune2fs"
            | "resize2fs" | "dmsetup" | "losetup" => {
                let listing = (lb == "fdisk" || lb == "sfdisk" || lb == "parted")
                    && (a("-l") || a("--list") || joined.contains(" print"))
                    && !joined.contains("mklabel");
                if listing {
                    self.ask(format!("{b} reads the partition table"));
                } else if args.iter().any(|x| paths::device(x))
                    || matches!(lb, "wipefs" | "blkdiscard") && !a("--help")
                {
                    self.block(format!("disk wipe ({b} on a device)"));
                } else {
                    self.ask(format!("{b} formats or partitions {}", args.join(" ")));
                }
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
                .any(|k| joined.contains(k))
                {
                    self.block("disk wipe (diskutil erase)");
                }
                self.ask("diskutil changes disks");
                Some(false)
            }
            "diskpart" | "format-volume" | "clear-disk" | "initialize-disk" | "format"
            | "remove-partition" | "cipher"
                if lb != "cipher" || joined.contains("/w") =>
            {
                self.block(format!("disk wipe ({b})"));
                Some(false)
            }
            "vssadmin" | "wbadmin" | "bcdedit" | "wmic"
                if joined.contains("delete")
                    || joined.contains("shadowcopy")
                    || joined.contains("/set") =>
            {
                self.block(format!("destroys backups or boot settings ({b})"));
                Some(false)
            }
            "tmutil" if a("deletelocalsnapshots") || a("delete") || a("disable") => {
                self.block("deletes backups (tmutil)");
                Some(false)
            }
            "lvremove" | "vgremove" | "pvremove" | "lvreduce" | "zpool" | "zfs" | "btrfs"
                if !a("list") && !a("status") && !a("get") && !a("show") =>
            {
                self.block(format!("destroys storage volumes ({b})"));
                Some(false)
            }
            "shutdown" | "reboot" | "halt" | "poweroff" | "init" | "telinit" | "stop-computer"
            | "restart-computer" | "suspend" | "hibernate" | "pm-suspend" | "killall5"
            | "logoff" => {
                if lb == "shutdown" && a("-c") {
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
            "gdb" | "lldb" | "ptrace" | "gcore" | "pstack" | "eu-stack" | "perf" => {
                if c.words.iter().any(|w| self.aims_at_self(w, c.script)) {
                    self.block(format!("{b} attaches to Jarvis's own process"));
                }
                for (i, x) in args.iter().enumerate() {
                    if (x == "-ex" || x == "--eval-command" || x == "-o" || x == "--one-line")
                        && let Some(cmd) = args.get(i + 1)
                    {
                        let t = cmd.trim();
                        if let Some(sh) = t
                            .strip_prefix("shell ")
                            .or_else(|| t.strip_prefix('!'))
                            .or_else(|| t.strip_prefix("platform shell "))
                        {
                            self.script(sh, &[], c.depth + 1);
                        }
                        // `call system("…")`: the string is a shell command.
                        if t.contains("system") || t.contains("exec") {
                            for s in super::code::string_literals(t) {
                                self.script(&s, &[], c.depth + 1);
                            }
                        }
                    }
                }
                self.ask(format!("{b} debugs a process"));
                Some(false)
            }
            "systemctl" => Some(self.systemctl(c)),
            "service" | "rc-service" | "update-rc.d" | "chkconfig" | "rc-update"
            | "sysv-rc-conf" => {
                if joined.contains("enable")
                    || joined.contains(" on")
                    || joined.contains(" add")
                    || joined.contains("defaults")
                {
                    self.block(format!("persistence ({b} enables a service at boot)"));
                } else if joined.contains("stop") || joined.contains("disable") {
                    self.ask(format!("{b} stops a service"));
                }
                self.ask(format!("{b} manages services"));
                Some(false)
            }
            "loginctl" => {
                if joined.contains("enable-linger") {
                    self.block("persistence (loginctl enable-linger keeps your services running)");
                } else if ["terminate", "kill", "poweroff", "reboot", "lock"]
                    .iter()
                    .any(|k| joined.contains(k))
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
            "crontab" => {
                if args.iter().all(|x| x == "-l" || x.starts_with("-u")) && a("-l") {
                    return Some(true);
                }
                self.block("persistence (changes the crontab)");
                Some(false)
            }
            "at" | "batch" | "atq" | "atrm" => {
                if lb == "atq" || lb == "atrm" {
                    self.ask(format!("{b} manages scheduled jobs"));
                    return Some(lb == "atq");
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
                if joined.contains("/create") || lb.contains("register") || lb.contains("new-") {
                    self.block("persistence (a scheduled task)");
                }
                self.ask("schtasks");
                Some(false)
            }
            "reg" | "new-itemproperty" | "set-itemproperty" | "remove-itemproperty" | "regedit" => {
                let j = joined.replace('\\', "/");
                if j.contains("currentversion/run")
                    || j.contains("winlogon")
                    || j.contains("image file execution options")
                {
                    self.block("persistence (a Run registry key)");
                } else if (joined.starts_with("save") || joined.starts_with("export"))
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
                    && !joined.contains("-w")
                    && !joined.contains('=')
                    && !a("-p")
                    && !a("--load")
                    && !a("--system");
                let reading = reading
                    || (matches!(lb, "iptables" | "ip6tables" | "nft")
                        && (a("-L") || a("-S") || a("list") || a("--list")))
                    || (lb == "ufw" && (a("status") || a("app")))
                    || (lb == "csrutil" && a("status"))
                    || (lb == "spctl" && (a("--status") || a("--assess")));
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
                .any(|k| joined.contains(k));
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
                let reads = match lb {
                    "mount" | "umount" => args.is_empty() || a("-l"),
                    "ip" => !args.iter().any(|x| {
                        matches!(
                            x.as_str(),
                            "add"
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
                    "ifconfig" => args.len() <= 1 || a("-a"),
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
                    "hostnamectl" | "timedatectl" => {
                        args.is_empty() || a("status") || a("show") || a("list-timezones")
                    }
                    "date" => {
                        !a("-s")
                            && !c.has("--set")
                            && !args.iter().any(|x| {
                                !x.starts_with('-')
                                    && !x.starts_with('+')
                                    && x.chars().all(|ch| ch.is_ascii_digit() || ch == '.')
                            })
                    }
                    "tc" | "ethtool" | "iwconfig" => args.len() <= 2 && !a("qdisc") || a("show"),
                    "chsh" | "chfn" => false,
                    _ => false,
                };
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
                ) || (lb == "ip" && (a("down") || a("flush") || a("del")))
                    || (lb == "nmcli" && (a("off") || a("down") || a("delete")))
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
                    && !(joined.starts_with("user")
                        || joined.starts_with("localgroup")
                        || joined.starts_with("group"))
                {
                    self.ask("net");
                    return Some(false);
                }
                if lb == "passwd" && (a("-S") || a("--status")) {
                    return Some(true);
                }
                self.block(format!("privilege or account change ({b})"));
                Some(false)
            }
            "nsenter" => {
                if joined.contains("-t 1")
                    || joined.contains("--target 1")
                    || joined.contains("--target=1")
                    || a("-a")
                    || a("--all")
                {
                    self.block("sandbox escape (nsenter into the host's namespaces)");
                }
                self.ask("nsenter enters namespaces");
                Some(false)
            }
            "docker" | "podman" | "nerdctl" | "lxc" | "incus" | "ctr" | "crictl" | "kubectl"
            | "helm" | "minikube" | "kind" | "virsh" | "vagrant" => Some(self.container(c)),
            "regsvr32" | "mshta" | "msiexec" | "rundll32" | "installutil" | "regasm"
            | "regsvcs" | "cscript" | "wscript" | "msbuild" | "odbcconf" | "cmstp" | "forfiles" => {
                if joined.contains("http") || joined.contains("\\\\") || lb == "mshta" {
                    self.block(format!("download and execute ({b} with a remote file)"));
                }
                self.ask(format!("{b} runs code"));
                Some(false)
            }
            "certutil" | "bitsadmin" => {
                if [
                    "urlcache",
                    "/transfer",
                    "http",
                    "-decode",
                    "/decode",
                    "-decodehex",
                ]
                .iter()
                .any(|k| joined.contains(k))
                {
                    self.block(format!(
                        "download and execute ({b} fetches or decodes a file)"
                    ));
                }
                self.ask(b.to_string());
                Some(false)
            }
            "cmdkey" | "vaultcmd" | "mimikatz" | "lazagne" | "procdump" | "secretsdump"
            | "pypykatz" | "hashcat" | "john" | "responder" | "keychain" | "lsadump" => {
                if lb == "keychain" {
                    self.ask("keychain manages ssh-agent");
                    return Some(false);
                }
                self.block(format!("dumps or cracks stored credentials ({b})"));
                Some(false)
            }
            "get-content" | "type" | "gc" | "cat" | "select-string" | "sls"
            | "get-itemproperty"
                if args.iter().any(|x| paths::credential(x, c.cwd()).is_some()) =>
            {
                self.block("reads a credential file");
                Some(false)
            }
            "aws" => {
                if [
                    "configure get",
                    "configure export-credentials",
                    "export-credentials",
                    "get-session-token",
                    "get-secret-value",
                    "--with-decryption",
                    "get-login-password",
                    "get-authorization-token",
                    "assume-role",
                    "get-federation-token",
                    "get-access-key-info",
                    "configure list",
                ]
                .iter()
                .any(|k| joined.contains(k))
                {
                    self.block("reveals cloud credentials (aws)");
                }
                self.ask("aws changes cloud resources");
                Some(false)
            }
            "gcloud" | "az" | "doctl" | "heroku" | "flyctl" | "vercel" | "netlify" | "firebase"
            | "wrangler" | "oci" | "ibmcloud" => {
                if [
                    "print-access-token",
                    "print-identity-token",
                    "get-access-token",
                    "auth:token",
                    "auth token",
                    "show-token",
                    "print-refresh-token",
                    "keyvault secret show",
                    "secrets versions access",
                    "application-default print",
                ]
                .iter()
                .any(|k| joined.contains(k))
                {
                    self.block(format!("reveals cloud credentials ({b})"));
                }
                self.ask(format!("{b} changes cloud resources"));
                Some(false)
            }
            "gh"
            | "glab"
            | "hub"
            | "npm"
            | "pnpm"
            | "yarn"
            | "pip"
            | "pip3"
            | "cargo"
            | "gem"
            | "composer"
            | "docker-credential-desktop"
            | "docker-credential-pass"
            | "docker-credential-secretservice"
            | "docker-credential-osxkeychain"
            | "twine"
            | "poetry"
            | "uv"
            | "dotnet"
            | "nuget"
            | "mvn"
            | "gradle"
            | "conda"
            | "bundle" => Some(self.tool_with_tokens(c)),
            "security" => {
                if args.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "find-generic-password"
                            | "find-internet-password"
                            | "dump-keychain"
                            | "export"
                            | "find-certificate"
                            | "unlock-keychain"
                            | "set-generic-password"
                            | "delete-generic-password"
                            | "dump-trust-settings"
                            | "find-key"
                    )
                }) {
                    self.block("reads or changes the macOS keychain");
                }
                self.ask("security");
                Some(false)
            }
            "secret-tool" | "pass" | "gopass" | "op" | "bw" | "lpass" | "keyctl" | "vault"
            | "kwallet-query" | "keepassxc-cli" | "age" | "sops" | "chamber" | "berglas"
            | "envchain" | "1password" => {
                let reads = args.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "lookup"
                            | "search"
                            | "show"
                            | "read"
                            | "get"
                            | "print"
                            | "export"
                            | "list"
                            | "-r"
                            | "--read-password"
                            | "unlock"
                            | "decrypt"
                            | "-d"
                            | "--decrypt"
                            | "item"
                            | "exec"
                            | "run"
                            | "inject"
                            | "kv"
                            | "pipe"
                    )
                });
                // `pass NAME` prints a password; `pass` alone lists names.
                let pass_reads = matches!(lb, "pass" | "gopass")
                    && args.first().is_some_and(|x| {
                        !x.starts_with('-')
                            && !matches!(
                                x.as_str(),
                                "ls" | "init"
                                    | "insert"
                                    | "generate"
                                    | "edit"
                                    | "rm"
                                    | "mv"
                                    | "cp"
                                    | "git"
                                    | "version"
                                    | "help"
                            )
                    });
                if reads || pass_reads || args.is_empty() && lb != "pass" {
                    self.block(format!("reads stored secrets ({b})"));
                }
                self.ask(b.to_string());
                Some(false)
            }
            "gpg" | "gpg2" | "gpgsm" => {
                if args.iter().any(|x| {
                    x.starts_with("--export-secret")
                        || x == "--export-ownertrust"
                        || x == "--export-secret-subkeys"
                }) || (a("--export") && a("--armor") && joined.contains("secret"))
                {
                    self.block("exports private keys (gpg)");
                }
                self.ask("gpg");
                Some(false)
            }
            "ssh-keygen" | "ssh-add" | "ssh-agent" | "ssh-copy-id" | "ssh-keyscan" | "puttygen" => {
                if lb == "ssh-add" && (a("-L") || a("-l")) {
                    self.ask("lists the agent's keys");
                } else if lb == "ssh-agent" {
                    self.ask("starts an ssh agent");
                }
                self.ask(format!("{b} works with ssh keys"));
                Some(false)
            }
            "sqlite3" | "sqlite" | "psql" | "mysql" | "mariadb" | "mongo" | "mongosh"
            | "redis-cli" | "duckdb" => Some(self.database(c)),
            "git-credential-store"
            | "git-credential-cache"
            | "git-credential-manager"
            | "git-credential-libsecret"
            | "git-credential-osxkeychain" => {
                self.block("reveals stored git credentials");
                Some(false)
            }
            "dbus-send" | "gdbus" | "busctl" | "qdbus" | "dbus-monitor" => {
                if joined.contains("secret")
                    || joined.contains("keyring")
                    || joined.contains("kwallet")
                {
                    self.block(format!(
                        "asks the keyring for secrets over the session bus ({b})"
                    ));
                }
                if [
                    "poweroff",
                    "reboot",
                    "halt",
                    "suspend",
                    "hibernate",
                    "terminatesession",
                    "terminateuser",
                    "killuser",
                    "logout",
                    "shutdown",
                ]
                .iter()
                .any(|k| joined.contains(k))
                {
                    self.block(format!(
                        "system disruption ({b} asks the system to power off or end sessions)"
                    ));
                }
                if [
                    "enableunitfiles",
                    "linkunitfiles",
                    "setdefaulttarget",
                    "startunit",
                    "starttransientunit",
                ]
                .iter()
                .any(|k| joined.contains(k))
                {
                    self.block(format!(
                        "persistence ({b} starts or enables services over D-Bus)"
                    ));
                }
                self.ask(format!("{b} talks to desktop services"));
                Some(false)
            }
            "osascript" => None,
            "ngrok" | "chisel" | "frpc" | "frps" | "cloudflared" | "bore" | "lt"
            | "localtunnel" | "pagekite" | "inlets" | "rathole" | "gost" | "ligolo"
            | "ligolo-ng" | "sshuttle" | "tailscale" | "zrok" | "expose" | "telebit" => {
                let exposes_shell = args.iter().any(|x| {
                    let l = lower(x);
                    l.starts_with("r:")
                        || l.contains(":22")
                        || l == "22"
                        || l.contains("socks")
                        || l.contains("3389")
                        || l.contains("5900")
                        || l == "tcp"
                        || l.contains("funnel")
                });
                if exposes_shell
                    || matches!(
                        lb,
                        "chisel"
                            | "frpc"
                            | "frps"
                            | "rathole"
                            | "gost"
                            | "ligolo"
                            | "ligolo-ng"
                            | "inlets"
                    )
                {
                    self.block(format!("remote shell risk ({b} exposes this machine to the network through a tunnel)"));
                }
                self.ask(format!("{b} exposes a local port to the internet"));
                Some(false)
            }
            "ztcp" | "zsocket" => {
                self.block(format!(
                    "opens a raw network connection from the shell ({b}): remote shell risk"
                ));
                Some(false)
            }
            "zmodload" if joined.contains("zsh/net") => {
                self.block("loads zsh's socket modules (remote shell risk)");
                Some(false)
            }
            "alias" => {
                for w in &c.words[1..] {
                    if let Some((name, body)) = w.text.split_once('=') {
                        self.aliases.push((name.to_string(), body.to_string()));
                        let first = base_name(body.split_whitespace().next().unwrap_or(""));
                        let familiar = |n: &str| {
                            known_program(n)
                                || tables::read_only(n).is_some()
                                || tables::KNOWN_TOOLS.contains(&n)
                        };
                        if !first.is_empty() && first != name && familiar(name) && !familiar(&first)
                        {
                            self.block(format!(
                                "alias makes `{name}` run {first}, which hides what runs"
                            ));
                        }
                        self.renamed.push((name.to_string(), first));
                        self.script(body, &[], c.depth + 1);
                    }
                }
                self.ask("defines an alias");
                Some(false)
            }
            "hash" if a("-p") => {
                // `hash -p /bin/rm ls`: from now on `ls` runs rm.
                let ops: Vec<&String> = args.iter().filter(|x| !x.starts_with('-')).collect();
                if let [path, name, ..] = ops.as_slice() {
                    if base_name(path) != **name {
                        self.block(format!(
                            "hash -p makes `{name}` run {path}, which hides what runs"
                        ));
                    }
                    self.renamed.push(((*name).clone(), base_name(path)));
                }
                self.ask("hash -p rebinds a command name");
                Some(false)
            }
            "enable" if a("-f") => {
                self.block("loads a shell builtin from a shared library");
                Some(false)
            }
            "apt" | "apt-get" | "dnf" | "yum" | "zypper" | "pacman" | "apk" | "brew" | "port"
            | "snap" | "flatpak" | "nix-env" | "dpkg" | "rpm" | "choco" | "winget" | "scoop" => {
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

    /// `kill`, `pkill`, `killall`: everyone's processes, or Jarvis's, are off-limits.
    fn signals(&mut self, c: &Cmd<'_>) {
        let args = &c.args;
        let a = |s: &str| args.iter().any(|x| x == s);
        let targets: Vec<&Word> = c.words[1..]
            .iter()
            .filter(|w| {
                !w.text.starts_with('-')
                    || w.text == "-1"
                    || (w.text.starts_with('-')
                        && w.text[1..].chars().all(|ch| ch.is_ascii_digit())
                        && c.lb == "kill"
                        && w.text.len() > 2)
            })
            .collect();
        let everyone = a("-1")
            && c.lb == "kill"
            && !args.iter().any(|x| x == "-s" || x == "-n")
            && targets.iter().any(|t| t.text == "-1")
            || (args
                .iter()
                .any(|x| x == "-u" || x == "-U" || x.starts_with("--user"))
                && (args
                    .iter()
                    .any(|x| x.contains("USER") || x == "root" || x.contains('$'))
                    || c.lb == "killall"))
            || (c.lb == "kill" && targets.iter().any(|t| t.text == "-1"));
        if everyone {
            self.block("kills every process of the user (system disruption)");
        }
        let aimed = c.words[1..].iter().any(|w| self.aims_at_self(w, c.script));
        if aimed {
            self.block("stops Jarvis's own process (or its parent)");
        }
        if c.words[1..]
            .iter()
            .any(|w| w.text == "1" || w.text == "init" || w.text == "systemd")
            && matches!(c.lb.as_str(), "kill" | "pkill" | "killall")
        {
            self.block("signals the init process (system disruption)");
        }
        self.ask(format!("stops processes ({})", shown(&args.join(" "))));
    }

    fn systemctl(&mut self, c: &Cmd<'_>) -> bool {
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

    /// Containers: host mounts, privileges and namespaces escape the sandbox.
    fn container(&mut self, c: &Cmd<'_>) -> bool {
        let args = &c.args;
        let lb = c.lb.as_str();
        if lb == "kubectl" || lb == "helm" {
            let j = lower(&args.join(" "));
            let get_secret = (j.contains("get secret")
                || j.contains("get secrets")
                || j.contains("describe secret")
                || j.contains("get -o") && j.contains("secret"))
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
        let privileged = args.iter().any(|x| {
            let l = lower(x);
            l == "--privileged"
                || l.starts_with("--pid=host")
                || l.starts_with("--ipc=host")
                || l.starts_with("--userns=host")
                || l.starts_with("--uts=host")
                || l.starts_with("--cap-add=sys_admin")
                || l.starts_with("--cap-add=all")
                || l.starts_with("--cap-add=sys_ptrace")
                || l.starts_with("--cap-add=sys_module")
                || l.starts_with("--cap-add=dac_read_search")
                || l.contains("apparmor=unconfined")
                || l.contains("seccomp=unconfined")
                || l.starts_with("--device=/dev/sd")
                || l.starts_with("--device=/dev/nvme")
                || l == "--security-opt=no-new-privileges:false"
        }) || args.windows(2).any(|w| {
            (w[0] == "--pid" || w[0] == "--ipc" || w[0] == "--userns") && w[1] == "host"
                || w[0] == "--cap-add"
                    && matches!(
                        lower(&w[1]).as_str(),
                        "sys_admin" | "all" | "sys_ptrace" | "sys_module"
                    )
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

    /// Developer tools that hold tokens: printing the token is the line.
    fn tool_with_tokens(&mut self, c: &Cmd<'_>) -> bool {
        let j = lower(&c.args.join(" "));
        let token_key = |k: &str| {
            [
                "token",
                "password",
                "_auth",
                "authtoken",
                "secret",
                "apikey",
                "api-key",
                "api_key",
                "credential",
            ]
            .iter()
            .any(|t| k.contains(t))
        };
        let reveals = match c.lb.as_str() {
            "gh" | "glab" | "hub" => {
                j.starts_with("auth token")
                    || j.contains("--show-token")
                    || j.contains("-t") && j.starts_with("auth status") && j.contains("show")
            }
            "npm" | "pnpm" | "yarn" => {
                (j.starts_with("config get")
                    || j.starts_with("config list") && j.contains("-l")
                    || j.starts_with("get "))
                    && token_key(&j)
                    || j.starts_with("token list")
            }
            "pip" | "pip3" | "poetry" | "uv" | "twine" | "conda" => {
                j.contains("config") && j.contains("get") && token_key(&j)
                    || j.starts_with("config show") && j.contains("http-basic")
            }
            "cargo" => {
                j.starts_with("login") && j.contains("--show")
                    || j.contains("config get") && token_key(&j)
            }
            "composer" | "gem" | "bundle" | "mvn" | "gradle" | "dotnet" | "nuget" => {
                j.contains("config") && token_key(&j) && (j.contains("get") || j.contains("--list"))
            }
            l if l.starts_with("docker-credential") => {
                j.starts_with("get") || j.starts_with("list")
            }
            _ => false,
        };
        if reveals {
            self.block(format!("reveals a stored token ({})", c.base));
        }
        if matches!(c.lb.as_str(), "npm" | "pnpm" | "yarn" | "bun")
            && let Some(text) = self.written_text(&Word::lit("package.json"), c.cwd())
        {
            // A package.json this line wrote: its scripts are what `npm run` runs.
            for s in super::code::string_literals(&text) {
                self.block_only(|a| a.script(&s, &[], c.depth + 1));
            }
        }
        if matches!(c.lb.as_str(), "npm" | "pnpm" | "yarn")
            && c.args.first().is_some_and(|x| x == "pkg")
            && c.args.iter().any(|x| x == "set")
        {
            for x in &c.args {
                if let Some((k, v)) = x.split_once('=')
                    && k.starts_with("scripts.")
                {
                    self.script(v, &[], c.depth + 1);
                }
            }
        }
        for (i, x) in c.args.iter().enumerate() {
            if (x == "--index-url" || x == "-i" || x == "--extra-index-url" || x == "--registry")
                && let Some(u) = c.args.get(i + 1)
            {
                self.url(u);
            }
        }
        // Local listings of what is installed; no index, no network.
        let first = c.args.first().map(String::as_str).unwrap_or("");
        let online = c.args.iter().any(|x| {
            matches!(
                x.as_str(),
                "-o" | "--outdated" | "-i" | "--index-url" | "--extra-index-url" | "--registry"
            )
        });
        let listing = match c.lb.as_str() {
            "pip" | "pip3" => matches!(first, "show" | "list" | "freeze" | "check"),
            "npm" | "pnpm" => matches!(first, "ls" | "list" | "ll" | "la"),
            _ => false,
        };
        if listing && !online && !reveals {
            return true;
        }
        self.ask(format!("{} runs package or account actions", c.base));
        false
    }

    /// Database shells: reading is asked, changing Jarvis's database is not.
    fn database(&mut self, c: &Cmd<'_>) -> bool {
        let sql = lower(&c.args.join(" "));
        let mutating = [
            "drop ",
            "delete ",
            "update ",
            "insert ",
            "alter ",
            "create ",
            "replace ",
            "vacuum",
            "attach",
            ".restore",
            ".import",
            "truncate",
            "pragma writable_schema",
            ".shell",
            ".system",
            "load_extension",
            ".load",
            "writefile(",
            ".output",
            ".once",
        ]
        .iter()
        .any(|k| sql.contains(k));
        let on_state = c
            .words
            .iter()
            .skip(1)
            .any(|w| !w.dynamic && self.app_state(&self.norm(w, c.cwd())));
        if mutating && on_state {
            self.block("changes Jarvis's own database");
        }
        if sql.contains(".shell")
            || sql.contains(".system")
            || sql.contains("load_extension")
            || sql.contains(".load ")
        {
            if let Some(pos) = sql.find(".shell").or_else(|| sql.find(".system")) {
                let rest = &c.args.join(" ")[pos..];
                let cmd = rest.split_once(' ').map(|(_, r)| r).unwrap_or("");
                self.script(cmd.trim_matches(['\'', '"']), &[], c.depth + 1);
            }
            self.ask(format!("{} runs a program", c.base));
        }
        if let Some(p) = c.args.iter().find(|x| {
            let l = lower(x);
            l.contains("cookies")
                || l.contains("login data")
                || l.contains("key4.db")
                || l.contains("logins.json")
                || l.contains("web data")
        }) {
            self.block(format!("reads browser secrets ({p})"));
        }
        self.ask(format!("{} can change databases", c.base));
        false
    }

    /// The `jarvis` CLI run by the agent: nothing that changes Jarvis.
    fn self_cli(&mut self, c: &Cmd<'_>) {
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
            "key" | "grants" | "tool" | "undo" | "stop" | "serve" | "mcp"
        ) || (sub == "config" && matches!(verb, "set" | "unset" | "edit"))
            || (sub == "skill"
                && matches!(
                    verb,
                    "enable" | "disable" | "delete" | "restore" | "install"
                ))
            || (sub == "sessions" && matches!(verb, "delete" | "rename"))
            || (matches!(sub, "tasks" | "schedules" | "schedule")
                && !matches!(verb, "list" | "show" | ""))
            || (sub == "models" && matches!(verb, "install" | "remove"))
            || c.args.iter().any(|x| x == "--yes");
        if changes {
            self.block(format!(
                "changes Jarvis's own settings through its CLI ({b} {sub})"
            ));
        }
        self.ask(format!("runs {b}"));
    }
}
