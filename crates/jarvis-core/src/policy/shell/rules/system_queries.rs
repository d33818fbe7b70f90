//! Questions to the desktop's own services and tables that only report:
//! fonts, polkit actions, sessions, kernel modules, locales and keymaps,
//! the firewall's state, MAC frameworks, systemd's overrides. Each is an
//! exact verb or option set; setters (`localectl set-…`, `firewall-cmd
//! --add-…`, `setxkbmap us`) are left out.

/// `lb` with `a` (its arguments) only reports.
pub(super) fn queries(lb: &str, a: &[&str]) -> bool {
    let plain = |rest: &[&str]| rest.iter().all(|x| !x.starts_with('-'));
    match (lb, a) {
        // Where GnuPG keeps its sockets and files, its parts' versions.
        ("gpgconf", ["--list-dirs" | "--list-components" | "--version", ..]) => {
            a.len() <= 2 && a.iter().skip(1).all(|x| !x.starts_with('-'))
        }
        ("fc-match" | "fc-list" | "fc-query" | "fc-pattern", rest) => rest.iter().all(|x| {
            !x.starts_with('-')
                || matches!(
                    *x,
                    "-s" | "--sort"
                        | "-a"
                        | "--all"
                        | "-v"
                        | "--verbose"
                        | "-q"
                        | "--quiet"
                        | "-b"
                        | "--brief"
                )
        }),
        ("pkaction", rest) => rest.iter().all(|x| {
            !x.starts_with('-') || matches!(*x, "--action-id" | "-a" | "--verbose" | "-v")
        }),
        (
            "loginctl",
            [
                "show-session" | "list-sessions" | "session-status" | "show-user" | "list-users"
                | "user-status" | "list-seats" | "seat-status" | "show-seat",
                ..,
            ],
        ) => a[1..].iter().all(|x| {
            !x.starts_with('-')
                || matches!(
                    *x,
                    "-p" | "--property" | "--no-pager" | "--value" | "-a" | "--all"
                )
                || x.starts_with("--property=")
        }),
        ("modinfo", rest) => rest.iter().all(|x| {
            !x.starts_with('-') || matches!(*x, "-F" | "--field" | "-d" | "-a" | "-l" | "-p" | "-n")
        }),
        (
            "localectl",
            ["status"]
            | [
                "list-locales"
                | "list-keymaps"
                | "list-x11-keymap-models"
                | "list-x11-keymap-layouts"
                | "list-x11-keymap-variants"
                | "list-x11-keymap-options",
                ..,
            ],
        ) => plain(&a[1..]),
        ("firewall-cmd", rest) if !rest.is_empty() => rest.iter().all(|x| {
            matches!(
                *x,
                "--state"
                    | "--get-active-zones"
                    | "--get-default-zone"
                    | "--get-zones"
                    | "--get-services"
                    | "--list-all"
                    | "--list-services"
                    | "--list-ports"
                    | "--list-all-zones"
            ) || x.starts_with("--zone=")
                || x.starts_with("--query-")
        }),
        ("aa-enabled" | "getenforce" | "sestatus", []) => true,
        ("systemd-delta", rest) => rest.iter().all(|x| {
            matches!(*x, "--no-pager" | "--diff=false" | "--diff=no") || x.starts_with("--type=")
        }),
        ("systemd-tmpfiles", ["--cat-config", ..]) => a[1..].iter().all(|x| *x == "--no-pager"),
        ("setxkbmap", ["-query"] | ["-print"] | ["-query", "-v"]) => true,
        // OCR, speech and input tools asked what they are and what they know.
        ("tesseract", ["--list-langs" | "--version" | "-v" | "--help" | "--print-parameters"]) => {
            true
        }
        ("espeak-ng" | "espeak", [v]) => {
            matches!(*v, "--version" | "--voices" | "--help") || v.starts_with("--voices=")
        }
        (
            "xdotool",
            [
                "version" | "getactivewindow" | "getwindowfocus" | "getdisplaygeometry"
                | "get_desktop" | "get_num_desktops" | "getmouselocation",
            ],
        ) => true,
        (
            "xdotool",
            [
                "getactivewindow" | "getwindowfocus",
                "getwindowname" | "getwindowpid" | "getwindowgeometry" | "getwindowclassname",
            ],
        ) => true,
        (
            "xdotool",
            [
                "getwindowname" | "getwindowpid" | "getwindowgeometry" | "getwindowclassname",
                _,
            ],
        ) => true,
        // `search` alone prints window ids; commands chained after it act.
        ("xdotool", ["search", rest @ ..]) => {
            let mut patterns = 0;
            let mut k = 0;
            while let Some(x) = rest.get(k) {
                match *x {
                    "--name" | "--class" | "--classname" | "--role" | "--onlyvisible" | "--all"
                    | "--any" | "--sync" => {}
                    "--pid" | "--desktop" | "--limit" | "--maxdepth" | "--screen" => k += 1,
                    x if !x.starts_with('-') => patterns += 1,
                    _ => return false,
                }
                k += 1;
            }
            patterns <= 1
        }
        // Properties printed; `-set`, `-remove` and `-f` (a format to set with) change them.
        ("xprop", rest) if !rest.is_empty() => {
            let mut k = 0;
            while let Some(x) = rest.get(k) {
                match *x {
                    "-root" | "-notype" | "-frame" | "-spy" => {}
                    "-id" | "-name" | "-len" => k += 1,
                    x if !x.starts_with('-') => {}
                    _ => return false,
                }
                k += 1;
            }
            true
        }
        // The server's keymap printed to the output (`-`); a display as the
        // destination would load one.
        ("xkbcomp", ["-xkb", src, "-"] | [src, "-"] | ["-xkb", src, "-o", "-"]) => {
            src.starts_with(':') || *src == "$DISPLAY" || *src == "${DISPLAY}"
        }
        // Boards, cores and libraries as the tools list them.
        ("arduino-cli", ["version"] | ["config", "dump"]) => true,
        (
            "arduino-cli",
            ["board", "list" | "listall", rest @ ..] | ["core" | "lib", "list", rest @ ..],
        ) => report_options(
            rest,
            &["--all", "--updatable", "-a"],
            &["--format", "--fqbn", "-b"],
        ),
        ("pio" | "platformio", ["--version"] | ["system", "info"]) => true,
        ("pio" | "platformio", ["pkg", "list", rest @ ..] | ["device", "list", rest @ ..]) => {
            report_options(
                rest,
                &["--json-output", "--global", "-g", "--serial", "--mdns"],
                &["-e", "--environment", "--only-platforms"],
            )
        }
        // The JVM's version and the settings it would start with.
        ("java", rest)
            if rest
                .iter()
                .any(|x| matches!(*x, "-version" | "--version" | "-showversion")) =>
        {
            rest.iter().all(|x| {
                matches!(
                    *x,
                    "-version"
                        | "--version"
                        | "-showversion"
                        | "-XX:+PrintFlagsFinal"
                        | "-XX:+PrintCommandLineFlags"
                ) || x.starts_with("-XshowSettings")
            })
        }
        // Slurm's reports of jobs, nodes and shares. sacct's `--env-vars`
        // and `-B` print jobs' environments and scripts, `--file` reads any
        // file; sdiag's `-r` resets its counters.
        ("squeue" | "sinfo" | "sprio" | "sshare" | "seff" | "sstat", _) => true,
        // (getopt takes `--batch`, `--fi=` and `-XB` for `--batch-script`
        // and `--file`.)
        ("sacct", rest) => !rest.iter().any(|x| {
            let long =
                |full: &str| x.len() >= 4 && full.starts_with(x.split('=').next().unwrap_or(x));
            if x.starts_with("--") {
                long("--batch-script") || long("--file") || x.starts_with("--env")
            } else {
                x.starts_with('-') && x.contains(['B', 'f'])
            }
        }),
        ("sdiag", rest) => rest
            .iter()
            .all(|x| matches!(*x, "-a" | "--all" | "-V" | "--version")),
        // `scontrol show …` with its own words: no cluster option whose
        // value could be taken for the verb.
        ("scontrol" | "sacctmgr", rest) => {
            let plain = |x: &&str| {
                !x.starts_with('-')
                    || matches!(
                        *x,
                        "-o" | "--oneline"
                            | "-d"
                            | "--details"
                            | "-n"
                            | "-P"
                            | "-p"
                            | "--noheader"
                            | "--parsable"
                            | "--parsable2"
                    )
            };
            // Objects by name: `sacctmgr show runawayjobs` (and its `lost`,
            // `orphan`, `ru` spellings) offers to fix them, and takes a
            // piped `y`.
            const OBJECTS: &[&str] = &[
                "job",
                "jobs",
                "node",
                "nodes",
                "partition",
                "partitions",
                "config",
                "configuration",
                "reservation",
                "reservations",
                "step",
                "steps",
                "assoc",
                "association",
                "associations",
                "account",
                "accounts",
                "user",
                "users",
                "qos",
                "cluster",
                "clusters",
                "tres",
                "wckey",
                "wckeys",
                "event",
                "events",
                "federation",
                "resource",
                "resources",
                "stats",
                "transactions",
                "txn",
                "coordinator",
                "licenses",
                "topology",
                "frontend",
                "burstbuffer",
                "hostnames",
                "hostlist",
                "aliases",
                "daemons",
            ];
            let words: Vec<&&str> = rest.iter().filter(|x| !x.starts_with('-')).collect();
            rest.iter().all(plain)
                && words
                    .first()
                    .is_some_and(|v| matches!(**v, "show" | "list" | "ping" | "version"))
                && words
                    .get(1)
                    .is_none_or(|o| OBJECTS.contains(&o.to_ascii_lowercase().as_str()))
        }
        // Environment modules and Spack asked what exists (`load` changes
        // the environment, `install` builds). A modulefile is Tcl or Lua that
        // `show` runs: names from the module path only, no file named.
        ("module" | "ml", rest) => {
            let ops: Vec<&&str> = rest.iter().filter(|x| !x.starts_with('-')).collect();
            ops.first().is_some_and(|v| {
                matches!(
                    **v,
                    "list"
                        | "avail"
                        | "show"
                        | "display"
                        | "help"
                        | "spider"
                        | "whatis"
                        | "keyword"
                )
            }) && ops.iter().all(|x| {
                // (Home as the parser spells it, `$HOME`, a path.)
                !x.starts_with(['.', '/', '~', '$'])
                    && !x.starts_with(crate::policy::shell::parse::HOME)
                    && !x.ends_with(".lua")
                    && !x.ends_with(".tcl")
            })
        }
        ("spack", [verb, rest @ ..]) => {
            matches!(*verb, "find" | "list" | "info" | "location" | "arch")
                && rest.iter().all(|x| {
                    !x.starts_with('-')
                        || !x.starts_with("--") && x[1..].chars().all(|ch| "lLvdpxI".contains(ch))
                        || matches!(
                            *x,
                            "-l" | "-L"
                                | "-v"
                                | "-d"
                                | "-p"
                                | "-x"
                                | "-I"
                                | "--long"
                                | "--very-long"
                                | "--variants"
                                | "--deps"
                                | "--paths"
                                | "--explicit"
                                | "--install-status"
                        )
                })
        }
        ("mpicc" | "mpicxx" | "mpic++" | "mpif90" | "mpifort" | "mpif77", rest)
            if !rest.is_empty() =>
        {
            rest.iter()
                .all(|x| x.starts_with("--showme") || matches!(*x, "-show" | "-showme"))
        }
        (
            "apptainer" | "singularity",
            ["--version"] | ["version"] | ["cache", "list", ..] | ["remote", "list"],
        ) => true,
        // Name resolution's state shown (`dns IFACE SERVER` would set one),
        // MIBs translated offline.
        ("resolvectl", rest) => {
            let ops: Vec<&&str> = rest.iter().filter(|x| !x.starts_with('-')).collect();
            rest.iter()
                .all(|x| !x.starts_with('-') || *x == "--no-pager")
                && match ops.as_slice() {
                    [] => true,
                    [v, ..] if **v == "status" || **v == "statistics" => true,
                    [v] | [v, _] => matches!(**v, "dns" | "domain"),
                    _ => false,
                }
        }
        // OIDs translated: output options (`-T`, `-O`, `-I`) and MIB modules
        // by name; `-M DIR`, `-m FILE` and `-L` (logging to a file) left out.
        ("snmptranslate", rest) => {
            let mut ok = true;
            let mut k = 0;
            while let Some(x) = rest.get(k) {
                if *x == "-m" {
                    ok &= rest
                        .get(k + 1)
                        .is_some_and(|m| !m.contains(['/', '~', '.']));
                    k += 1;
                } else if let Some(flag) = x.strip_prefix('-') {
                    ok &= flag.starts_with(['T', 'O', 'I']);
                }
                k += 1;
            }
            ok
        }
        // Android's SDK tools listing what is installed.
        ("sdkmanager", ["--list_installed"] | ["--version"]) => true,
        ("avdmanager", ["list", ..]) => true,
        ("emulator", ["-list-avds"] | ["-version"]) => true,
        // Self-hosting dashboards' listings and statuses.
        ("qm" | "pct", ["list" | "status" | "config" | "pending", ..]) => true,
        ("pvesm", ["status" | "list", ..]) => true,
        ("pvesh", ["get", ..]) => a
            .iter()
            .all(|x| !x.starts_with("--output") || x.starts_with("--output-format")),
        ("upsc", _) => true,
        ("pihole", ["status"] | ["-v"] | ["version"] | ["-q", ..]) => true,
        // (`validate` opens the config's logs and storage; `fmt -w` writes.)
        ("caddy", ["version"] | ["list-modules", ..]) => true,
        ("caddy", ["adapt", rest @ ..]) => !rest.iter().any(|x| x.contains("validate")),
        ("caddy", ["fmt", rest @ ..]) => rest
            .iter()
            .all(|x| !x.starts_with('-') || matches!(*x, "--diff" | "-diff")),
        ("certbot", ["--version"] | ["certificates", ..]) => true,
        ("acme.sh", ["--version"] | ["--list"]) => true,
        ("cloudflared", ["--version"] | ["version"]) => true,
        // Foundry's offline conversions and encodings (no RPC named).
        ("cast", [verb, rest @ ..]) => {
            matches!(
                *verb,
                "sig"
                    | "sig-event"
                    | "keccak"
                    | "k"
                    | "abi-encode"
                    | "calldata"
                    | "to-wei"
                    | "--to-wei"
                    | "from-wei"
                    | "--from-wei"
                    | "to-hex"
                    | "--to-hex"
                    | "to-dec"
                    | "--to-dec"
                    | "to-ascii"
                    | "--to-ascii"
                    | "from-utf8"
                    | "--from-utf8"
                    | "to-check-sum-address"
                    | "--to-checksum-address"
                    | "max-int"
                    | "min-int"
                    | "max-uint"
                    | "address-zero"
                    | "hash-zero"
                    | "format-bytes32-string"
                    | "parse-bytes32-string"
                    | "to-unit"
                    | "shl"
                    | "shr"
                    | "concat-hex"
            ) && rest.iter().all(|x| !x.starts_with('-'))
        }
        _ => false,
    }
}

/// Every word is one of `bare`, one of `valued` with its value after it
/// (or glued with `=`), or an operand.
fn report_options(rest: &[&str], bare: &[&str], valued: &[&str]) -> bool {
    let mut k = 0;
    while let Some(x) = rest.get(k) {
        let flag = x.split_once('=').map_or(*x, |(f, _)| f);
        if valued.contains(x) {
            k += 1;
        } else if !(bare.contains(x)
            || valued.contains(&flag) && x.contains('=')
            || !x.starts_with('-'))
        {
            return false;
        }
        k += 1;
    }
    true
}
