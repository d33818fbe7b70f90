//! Read-only questions to virtual machine tools: versions, listings,
//! a guest's definition, a disk image's header, the files inside an image
//! read through libguestfs. Each is an exact form; anything that starts,
//! changes or connects a guest is left to `virt.rs` and the ask.

use super::*;

/// The host files `c` reads when it is one of those questions; `None`
/// when it is not.
pub(super) fn vm_reads(c: &Cmd<'_>) -> Option<Vec<Word>> {
    let a: Vec<&str> = c.args.iter().map(String::as_str).collect();
    let lb = c.lb.as_str();
    let none = Some(Vec::new());
    match (lb, a.as_slice()) {
        (l, [v]) if qemu(l) && matches!(*v, "--version" | "-version" | "-h" | "--help") => none,
        (l, [k, "help"])
            if qemu(l) && matches!(*k, "-machine" | "-M" | "-cpu" | "-device" | "-accel") =>
        {
            none
        }
        ("qemu-img", ["--version" | "-V" | "--help" | "-h"]) => none,
        ("qemu-img", ["info" | "check" | "map", rest @ ..]) => image_files(c, rest),
        ("virsh", _) => virsh_reads(&a).then_some(Vec::new()),
        ("lxc" | "incus", _) => lxd_reads(&a).then_some(Vec::new()),
        ("vboxmanage", ["--version" | "-v" | "-version"]) => none,
        ("vboxmanage", ["list", rest @ ..]) => rest
            .iter()
            .all(|x| !x.starts_with('-') || matches!(*x, "-l" | "--long" | "-s" | "--sorted"))
            .then_some(Vec::new()),
        ("vboxmanage", ["showvminfo", _, rest @ ..]) => rest
            .iter()
            .all(|x| matches!(*x, "--machinereadable" | "--details"))
            .then_some(Vec::new()),
        ("multipass", ["version" | "--version"]) => none,
        ("multipass", ["list" | "ls" | "info", rest @ ..]) => {
            only(rest, &["--all", "--no-ipv4"], &["--format"]).then_some(Vec::new())
        }
        ("virt-host-validate", rest) if rest.iter().all(|x| !x.starts_with('-') || *x == "-q") => {
            none
        }
        ("osinfo-query", [_, rest @ ..]) => rest
            .iter()
            .all(|x| {
                !x.starts_with('-') || x.starts_with("--fields=") || x.starts_with("--sort-key=")
            })
            .then_some(Vec::new()),
        ("virt-xml-validate", [file] | [file, _]) => Some(vec![Word::lit(*file)]),
        ("cloud-init", ["--version"]) => none,
        ("cloud-init", ["schema", rest @ ..]) => {
            let mut files = Vec::new();
            let mut i = 0;
            while let Some(x) = rest.get(i) {
                match *x {
                    "-c" | "--config-file" => files.push(Word::lit(*rest.get(i + 1)?)),
                    "--annotate" => {}
                    _ => return None,
                }
                i += 1 + usize::from(matches!(*x, "-c" | "--config-file"));
            }
            (!files.is_empty()).then_some(files)
        }
        ("isoinfo", rest) => {
            let at = rest.iter().position(|x| *x == "-i")?;
            let file = rest.get(at + 1)?;
            rest.iter()
                .enumerate()
                .all(|(k, x)| {
                    k == at + 1 || matches!(*x, "-d" | "-l" | "-f" | "-J" | "-R" | "-i" | "-debug")
                })
                .then(|| vec![Word::lit(*file)])
        }
        (
            "virt-ls" | "virt-df" | "virt-inspector" | "virt-cat" | "virt-filesystems" | "virt-log",
            rest,
        ) => guest_reader(rest),
        ("guestfish", rest) if c.src.stdin_from.is_none() => guestfish_reads(rest),
        _ => None,
    }
}

fn qemu(lb: &str) -> bool {
    lb.starts_with("qemu-system") || lb == "qemu-kvm"
}

/// Every word is one of `bare`, or one of `valued` with its value.
fn only(rest: &[&str], bare: &[&str], valued: &[&str]) -> bool {
    let mut i = 0;
    while let Some(x) = rest.get(i) {
        let flag = x.split_once('=').map_or(*x, |(f, _)| f);
        if valued.contains(&flag) && !x.contains('=') {
            i += 1;
        } else if x.starts_with('-') && !bare.contains(x) && !valued.contains(&flag) {
            return false;
        }
        i += 1;
    }
    true
}

/// `qemu-img info [-f FMT] [--output=…] [-U] [--backing-chain] FILE`:
/// the image's header; a protocol (`nbd:`, `json:{…}`) is not a file.
fn image_files(c: &Cmd<'_>, rest: &[&str]) -> Option<Vec<Word>> {
    if !only(
        rest,
        &["-U", "--force-share", "--backing-chain", "-q"],
        &["-f", "--output"],
    ) {
        return None;
    }
    let mut files = Vec::new();
    let mut skip = false;
    for (k, x) in rest.iter().enumerate() {
        if skip {
            skip = false;
            continue;
        }
        if matches!(*x, "-f" | "--output") {
            skip = true;
        } else if !x.starts_with('-') {
            if x.contains(':') {
                return None;
            }
            files.push(c.arg_word(k + 1).cloned().unwrap_or_else(|| Word::lit(*x)));
        }
    }
    Some(files)
}

/// virsh's queries, on this machine's own hypervisor.
fn virsh_reads(a: &[&str]) -> bool {
    let mut i = 0;
    while let Some(x) = a.get(i) {
        match *x {
            "-c" | "--connect" => {
                let uri = a.get(i + 1).copied().unwrap_or("");
                // (`test:///FILE` parses any file; `qemu:///embed?root=`
                // writes under its root.)
                if !matches!(
                    uri,
                    "qemu:///session" | "qemu:///system" | "lxc:///" | "lxc:///system"
                ) {
                    return false;
                }
                i += 2;
            }
            "-r" | "--readonly" | "-q" | "--quiet" => i += 1,
            "--version" | "-v" | "-V" => return a.len() == i + 1,
            _ => break,
        }
    }
    let Some((verb, rest)) = a.get(i..).and_then(<[&str]>::split_first) else {
        return false;
    };
    matches!(
        *verb,
        "list"
            | "dominfo"
            | "domstate"
            | "dumpxml"
            | "domblklist"
            | "domiflist"
            | "domifaddr"
            | "domblkinfo"
            | "vcpuinfo"
            | "dommemstat"
            | "net-list"
            | "net-info"
            | "net-dumpxml"
            | "pool-list"
            | "pool-info"
            | "pool-dumpxml"
            | "vol-list"
            | "vol-info"
            | "nodeinfo"
            | "capabilities"
            | "version"
            | "uri"
            | "snapshot-list"
            | "sysinfo"
            | "iface-list"
    ) && rest.iter().all(|x| {
        // Passwords (`--security-info`), a file written (`--file`).
        !matches!(*x, "--security-info" | "--include-password" | "--file")
    })
}

/// LXD/Incus listings on this machine (a `remote:` is another one).
fn lxd_reads(a: &[&str]) -> bool {
    let listing = match a {
        ["version" | "--version"] => return true,
        ["list" | "ls", rest @ ..] => rest,
        ["info", rest @ ..] => rest,
        ["config", "device", "show" | "list", rest @ ..] => rest,
        [
            "image" | "profile" | "network" | "storage" | "remote",
            "list" | "ls",
            rest @ ..,
        ] => rest,
        _ => return false,
    };
    let mut i = 0;
    while let Some(x) = listing.get(i) {
        match *x {
            "-c" | "--columns" | "-f" | "--format" => i += 1,
            _ if x.starts_with("--format=") || x.starts_with("--columns=") => {}
            "--fast" | "--all-projects" | "--resources" => {}
            _ if x.starts_with('-') || x.contains(':') => return false,
            _ => {}
        }
        i += 1;
    }
    true
}

/// libguestfs's `-a IMAGE`: a file on this machine, read (a URL is a
/// remote disk, not judged here).
fn host_image(f: Option<&&str>) -> Option<Word> {
    f.filter(|f| !f.contains("://")).map(|f| Word::lit(*f))
}

/// libguestfs's readers: `-a IMAGE` (the host file read) or `-d DOMAIN`,
/// and paths inside the image.
fn guest_reader(rest: &[&str]) -> Option<Vec<Word>> {
    let mut files = Vec::new();
    let mut i = 0;
    while let Some(x) = rest.get(i) {
        match *x {
            "-a" | "--add" => {
                files.push(host_image(rest.get(i + 1))?);
                i += 1;
            }
            "-d" | "--domain" | "--format" => i += 1,
            "-l" | "--long" | "-R" | "--recursive" | "-h" | "--human-readable" | "--csv"
            | "--uuid" | "--ro" | "-x" | "--all" | "--no-title" | "--extra" | "--partitions"
            | "--filesystems" | "--long-options" => {}
            _ if x.starts_with("--format=") => {}
            // `-lR`, `-lh`: bundled listing flags.
            _ if x.starts_with('-') && !x[1..].chars().all(|ch| "lRh".contains(ch)) => {
                return None;
            }
            _ => {}
        }
        i += 1;
    }
    (!files.is_empty() || rest.iter().any(|x| matches!(*x, "-d" | "--domain"))).then_some(files)
}

/// `guestfish --ro -a IMG -i cat /etc/fstab`: reading commands only, none
/// beginning with `!` (run on this machine).
fn guestfish_reads(rest: &[&str]) -> Option<Vec<Word>> {
    if !rest.contains(&"--ro") && !rest.contains(&"-r") {
        return None;
    }
    let mut files = Vec::new();
    let mut i = 0;
    while let Some(x) = rest.get(i) {
        match *x {
            "-a" | "--add" => {
                files.push(host_image(rest.get(i + 1))?);
                i += 2;
            }
            "-d" | "--domain" | "--format" => i += 2,
            "--ro" | "-r" | "-i" | "--inspector" | "-n" | "--no-sync" => i += 1,
            _ if x.starts_with('-') => return None,
            _ => break,
        }
    }
    let commands = rest.get(i..).unwrap_or_default();
    // (No command: guestfish reads them from its input.)
    let reads = !commands.is_empty()
        && commands.split(|x| *x == ":").all(|cmd| {
            cmd.first().is_none_or(|name| {
                matches!(
                    *name,
                    "cat"
                        | "ls"
                        | "ll"
                        | "df"
                        | "df-h"
                        | "list-filesystems"
                        | "list-partitions"
                        | "list-devices"
                        | "inspect-os"
                        | "head"
                        | "tail"
                        | "file"
                        | "stat"
                        | "find"
                        | "vfs-type"
                        | "checksum"
                        | "is-file"
                        | "is-dir"
                        | "exists"
                )
            })
        });
    (reads && !files.is_empty()).then_some(files)
}
