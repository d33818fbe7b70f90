//! Devices on the desk: a phone over adb and fastboot, boards and their
//! flash, the machine's own firmware and buses, USB over the network, the
//! clipboard watched. A phone is another machine whose messages, contacts
//! and apps' sign-ins are secrets; its bootloader and partitions are its
//! system.

use super::system::Verb;
use super::*;

/// Programs that put a file's text on the output, in a device's shell.
const READS_TEXT: &[&str] = &[
    "cat ", "cp ", "tar ", "sqlite3 ", "dd ", "base64", "xxd", "head ", "tail ", "more ", "less ",
    "grep ", "strings ", "od ", "zip ", "nc ",
];

/// Content providers of a phone's personal data (`content query --uri
/// content://sms/inbox`).
const PHONE_PROVIDERS: &[&str] = &[
    "sms",
    "mms",
    "mms-sms",
    "contacts",
    "com.android.contacts",
    "call_log",
    "telephony",
    "browser",
    "com.android.calendar",
    "user_dictionary",
    "icc",
];

impl Analyzer<'_> {
    pub(super) fn device_tools(&mut self, c: &Cmd<'_>, v: &Verb<'_>) -> Option<bool> {
        // (An environment set for it may point it elsewhere: its server,
        // its settings.)
        if device_listing(v.lb, v.args) && c.assigns.is_empty() {
            return Some(true);
        }
        match v.lb {
            "adb" => Some(self.adb(c)),
            "fastboot" => Some(self.fastboot(c)),
            "flashrom" => {
                // (`--write=F`, and long options shortened as flashrom allows.)
                let writes = v.args.iter().any(|a| {
                    let name = a.split('=').next().unwrap_or(a);
                    name.len() >= 4 && ("--write".starts_with(name) || "--erase".starts_with(name))
                        || short_flags(a).is_some_and(|f| f.contains(['w', 'E']))
                });
                let internal = super::script_opts::values(c, &["-p", "--programmer"])
                    .iter()
                    .any(|p| lower(&p.text).starts_with("internal"))
                    || v.joined.contains("-pinternal");
                if writes && internal {
                    self.block("overwrites this machine's own firmware (flashrom -p internal): a bad image leaves it unable to start");
                }
                self.ask("flashrom reads or writes a flash chip");
                Some(false)
            }
            "i2cset" | "i2ctransfer" => {
                // 0x50–0x57: the memory modules' SPD EEPROMs.
                // (The chip address in hex, octal or decimal, as i2c-tools read it.)
                let number = |t: &str| {
                    if let Some(h) = t.strip_prefix("0x") {
                        u32::from_str_radix(h, 16).ok()
                    } else if t.len() > 1 && t.starts_with('0') {
                        u32::from_str_radix(&t[1..], 8).ok()
                    } else {
                        t.parse().ok()
                    }
                };
                let spd_at = |t: &str| number(t).is_some_and(|n| (0x50..=0x57).contains(&n));
                let ops: Vec<String> = v
                    .args
                    .iter()
                    .filter(|a| !a.starts_with('-'))
                    .map(|a| lower(a))
                    .collect();
                let spd = if v.lb == "i2cset" {
                    ops.get(1).is_some_and(|a| spd_at(a))
                } else {
                    ops.iter().any(|a| {
                        a.starts_with('w') && a.split_once('@').is_some_and(|(_, x)| spd_at(x))
                    })
                };
                if spd {
                    self.block("writes a memory module's SPD EEPROM (can leave the machine unable to boot)");
                }
                self.ask(format!("{} writes to a device on a system bus", v.b));
                Some(false)
            }
            "usbip" => {
                let hosts = super::script_opts::values(c, &["-r", "--remote"]);
                if v.args.iter().any(|a| a == "attach")
                    && let Some(h) = hosts
                        .iter()
                        .find_map(|h| super::project_out::far_host(&h.text))
                {
                    self.block(format!(
                        "attaches a USB device served by {h} (a keyboard that types, a disk that is read)"
                    ));
                }
                self.ask("usbip shares or attaches USB devices over the network");
                Some(false)
            }
            "wl-paste"
                if v.args
                    .iter()
                    .any(|a| a == "--watch" || short_flags(a).is_some_and(|f| f.contains('w'))) =>
            {
                self.block("surveillance (every change of the clipboard is handed to a program)");
                Some(false)
            }
            _ => None,
        }
    }

    fn adb(&mut self, c: &Cmd<'_>) -> bool {
        // Global options: `-s SERIAL`, `-t ID`, `-H host`, `-P port`, `-L socket`.
        let mut at = 0;
        while let Some(a) = c.args.get(at) {
            match a.as_str() {
                "-s" | "-t" | "-H" | "-P" | "-L" => at += 2,
                _ if a.starts_with('-') => at += 1,
                _ => break,
            }
        }
        let Some(verb) = c.args.get(at).map(|v| lower(v)) else {
            self.ask("adb talks to a device");
            return false;
        };
        let rest: Vec<Word> = c.words.iter().skip(at + 2).cloned().collect();
        match verb.as_str() {
            "shell" | "exec-out" => {
                let mut line = Word::lit(Word::join(&rest));
                line.dynamic = rest.iter().any(|w| w.dynamic);
                let piped_on = c.script.commands.iter().any(|k| {
                    k.stdin_from
                        .and_then(|i| c.script.commands.get(i))
                        .is_some_and(|p| std::ptr::eq(p, c.src))
                });
                if let Some(why) =
                    phone_secret(&line.text).or_else(|| run_as_secret(&line.text, piped_on))
                {
                    self.block(format!("reads {why} (adb {verb})"));
                }
                if let Some(why) = phone_security_off(&line.text) {
                    self.block(format!("disables security on the device ({why})"));
                }
                self.remote_script(&line, c, true);
                if let Some(what) = wipes_phone_storage(&line.text) {
                    self.block(format!("destroys the user's files on the device ({what})"));
                }
                self.ask(format!("adb {verb} runs a command on the device"));
            }
            "backup" if rest.iter().any(|w| w.text == "-all") => {
                self.block("copies every app's data off the device (their sign-ins and tokens)");
            }
            "pull" => {
                let files: Vec<&Word> = rest.iter().filter(|w| !w.text.starts_with('-')).collect();
                // The last is where they go (with one, the working directory).
                let (sources, dest) = match files.split_last() {
                    Some((d, s)) if !s.is_empty() => (s.to_vec(), Some(*d)),
                    _ => (files.clone(), None),
                };
                for w in sources {
                    if let Some(why) = phone_secret(&format!("cat {}", w.text)) {
                        self.block(format!("reads {why} (adb pull)"));
                    }
                }
                if let Some(dest) = dest {
                    self.write_path(dest, c.cwd(), "adb pull");
                }
                self.ask("adb pull copies files from the device");
            }
            "push" => {
                let files: Vec<&Word> = rest.iter().filter(|w| !w.text.starts_with('-')).collect();
                if let Some((_, sources)) = files.split_last() {
                    for s in sources {
                        self.read_path(s, c.cwd());
                    }
                }
                self.ask("adb push copies files to the device");
            }
            "install" | "install-multiple" | "install-multi-package" | "sideload" => {
                for w in rest.iter().filter(|w| !w.text.starts_with('-')) {
                    if self.fetched_elsewhere(w, c.cwd()) {
                        self.block(format!(
                            "download and execute (adb installs {}, which this line downloaded)",
                            shown(&w.text)
                        ));
                    }
                }
                self.ask(format!("adb {verb} installs software on the device"));
            }
            "disable-verity" => {
                self.block(
                    "disables security on the device (adb disable-verity turns off verified boot)",
                );
            }
            _ => self.ask(format!("adb {verb} on the device")),
        }
        false
    }

    fn fastboot(&mut self, c: &Cmd<'_>) -> bool {
        // Options that take a value (`-s SERIAL`, `--slot all`).
        let mut ops: Vec<String> = Vec::new();
        let mut i = 0;
        while let Some(a) = c.args.get(i) {
            if matches!(
                a.as_str(),
                "-s" | "-S"
                    | "--slot"
                    | "-i"
                    | "-b"
                    | "--base"
                    | "-c"
                    | "--cmdline"
                    | "-n"
                    | "--page-size"
                    | "--os-version"
                    | "--os-patch-level"
                    | "--header-version"
                    | "--kernel-offset"
                    | "--ramdisk-offset"
                    | "--tags-offset"
                    | "--dtb"
                    | "--dtb-offset"
            ) {
                i += 2;
                continue;
            }
            if !a.starts_with('-') {
                ops.push(lower(a));
            }
            i += 1;
        }
        let op = |i: usize| ops.get(i).map_or("", String::as_str);
        if matches!(
            (op(0), op(1)),
            (
                "oem" | "flashing",
                "unlock" | "unlock_critical" | "lock" | "lock_critical"
            )
        ) {
            self.block("locks or unlocks the device's bootloader (either wipes it; unlocked, verified boot is off)");
        }
        // (`format:ext4 userdata`: the file system named after a colon.)
        if ops
            .iter()
            .any(|o| matches!(o.split(':').next(), Some("erase" | "format" | "wipe-super")))
            || c.args.iter().any(|a| a == "-w")
        {
            self.block("destroys the device's data (fastboot erases its partitions)");
        }
        if c.args
            .iter()
            .any(|a| matches!(a.as_str(), "--disable-verity" | "--disable-verification"))
        {
            self.block("disables security on the device (verified boot turned off)");
        }
        if ops
            .iter()
            .any(|o| matches!(o.as_str(), "flash" | "boot" | "update" | "flashall"))
        {
            for w in c.words.iter().skip(1).filter(|w| !w.text.starts_with('-')) {
                if self.fetched_elsewhere(w, c.cwd()) {
                    self.block(format!(
                        "download and execute (fastboot puts {}, which this line downloaded, on the device)",
                        shown(&w.text)
                    ));
                }
            }
        }
        self.ask("fastboot changes the device's partitions");
        false
    }
}

/// What on a phone a device command line reads that is a secret.
fn phone_secret(line: &str) -> Option<&'static str> {
    // Spellings that name the same path: `//`, empty quotes.
    let mut l = lower(line).replace("''", "").replace("\"\"", "");
    while l.contains("//") && !l.contains("://") {
        l = l.replace("//", "/");
    }
    if l.contains("content://")
        && l.split("content://").skip(1).any(|rest| {
            let authority = rest.split(['/', ' ', '"', '\'']).next().unwrap_or("");
            PHONE_PROVIDERS.contains(&authority)
        })
    {
        return Some("the phone's messages, contacts or call log");
    }
    if l.contains("dumpsys notification") && l.contains("--noredact") {
        return Some("the text of the phone's notifications (messages, codes)");
    }
    // Read, not listed: apps' private folders, the system's account stores.
    let reads = READS_TEXT.iter().any(|k| l.contains(k));
    let private = [
        "/data/data",
        "/data/user",
        "/data/user_de",
        "/data_mirror",
        "/data/system",
        "/data/misc",
    ]
    .iter()
    .any(|d| l.contains(d));
    (reads && private).then_some("an app's private data (its sign-ins and tokens)")
}

/// `run-as PKG cat …`: a debuggable app's own files, which only a build of
/// the developer's is. Its sign-in files, or any of its data passed on down
/// a pipe (to an encoder, to the network), are its users' secrets.
fn run_as_secret(line: &str, piped_on: bool) -> Option<&'static str> {
    let l = lower(line);
    let reads = READS_TEXT.iter().any(|k| l.contains(k));
    let sign_in = [
        "token",
        "session",
        "auth",
        "cookie",
        "password",
        "credential",
        "secret",
        "key",
    ]
    .iter()
    .any(|k| l.contains(k));
    (l.contains("run-as ") && reads && (piped_on || sign_in))
        .then_some("an app's private data (its sign-ins and tokens)")
}

/// A recursive delete of the phone's shared storage or one of its top
/// folders (`rm -rf /sdcard/DCIM`): its user's photos, downloads, files.
fn wipes_phone_storage(line: &str) -> Option<String> {
    const ROOTS: &[&str] = &[
        "/storage/emulated/0",
        "/storage/self/primary",
        "/storage/emulated",
        "/mnt/sdcard",
        "/data/media/0",
        "/data/media",
        "/sdcard",
        "$external_storage",
        "${external_storage}",
    ];
    let mut l = lower(line);
    while l.contains("/./") {
        l = l.replace("/./", "/");
    }
    let recursive = l.split_whitespace().any(|w| {
        w.starts_with('-') && !w.starts_with("--") && w.contains('r')
            || matches!(w, "--recursive" | "-delete")
    });
    if !recursive {
        return None;
    }
    l.split_whitespace()
        .map(|w| w.trim_matches(['\'', '"']))
        .find(|w| {
            ROOTS.iter().any(|r| {
                w.strip_prefix(r).is_some_and(|rest| {
                    // The root, everything in it, or one of its top folders.
                    // (`DCIM/*`: everything in it.)
                    let rest = rest
                        .trim_start_matches('/')
                        .trim_end_matches('*')
                        .trim_end_matches('/');
                    rest.is_empty() || !rest.contains('/')
                })
            })
        })
        .map(str::to_string)
}

/// Settings that turn off a phone's checks of what is installed.
fn phone_security_off(line: &str) -> Option<&'static str> {
    let l = lower(line);
    // An accessibility service reads every screen and types for the user.
    if (l.contains("settings put") || l.contains("content insert") || l.contains("content update"))
        && (l.contains("enabled_accessibility_services") || l.contains("accessibility_enabled"))
    {
        return Some("an accessibility service turned on, which reads the screen and types");
    }
    (l.contains("settings put")
        && [
            "package_verifier",
            "verifier_verify",
            "install_non_market_apps",
            "upload_apk_enable",
        ]
        .iter()
        .any(|k| l.contains(k)))
    .then_some("install verification turned off")
}

/// Listings of devices and versions: nothing written, nothing sent.
fn device_listing(lb: &str, args: &[String]) -> bool {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    match lb {
        // (Not adb's: any of its commands may start its server, which
        // listens on a port and writes a key.)
        "fastboot" => matches!(
            a.as_slice(),
            ["devices"] | ["devices", "-l"] | ["--version"]
        ),
        "arduino-cli" => matches!(
            a.as_slice(),
            ["version"]
                | ["board", "list"]
                | ["board", "listall"]
                | ["core", "list"]
                | ["lib", "list"]
        ),
        "pio" | "platformio" => matches!(a.as_slice(), ["device", "list"] | ["--version"]),
        "dfu-util" => matches!(a.as_slice(), ["-l"] | ["--list"] | ["-V"] | ["--version"]),
        "esptool.py" | "esptool" => matches!(a.as_slice(), ["version"]),
        "xrandr" => matches!(
            a.as_slice(),
            [] | ["-q"]
                | ["--query"]
                | ["--listmonitors"]
                | ["--listactivemonitors"]
                | ["--current"]
        ),
        "rfkill" => matches!(a.as_slice(), [] | ["list"] | ["list", _]),
        "gpiodetect" => a.is_empty(),
        "gpioinfo" => a.iter().all(|x| !x.starts_with('-')),
        "i2cdetect" => matches!(a.as_slice(), ["-l"]),
        "bluetoothctl" => matches!(
            a.as_slice(),
            ["list"]
                | ["show"]
                | ["show", _]
                | ["devices"]
                | ["devices", _]
                | ["paired-devices"]
                | ["--version"]
        ),
        "xdotool" => {
            !a.is_empty()
                && a.iter().all(|x| {
                    matches!(
                        *x,
                        "getdisplaygeometry"
                            | "getmouselocation"
                            | "getactivewindow"
                            | "getwindowname"
                            | "getwindowgeometry"
                            | "getwindowpid"
                            | "--shell"
                    )
                })
        }
        _ => false,
    }
}
