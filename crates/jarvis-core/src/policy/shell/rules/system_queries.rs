//! Questions to the desktop's own services and tables that only report:
//! fonts, polkit actions, sessions, kernel modules, locales and keymaps,
//! the firewall's state, MAC frameworks, systemd's overrides. Each is an
//! exact verb or option set; setters (`localectl set-…`, `firewall-cmd
//! --add-…`, `setxkbmap us`) are left out.

/// `lb` with `a` (its arguments) only reports.
pub(super) fn queries(lb: &str, a: &[&str]) -> bool {
    let plain = |rest: &[&str]| rest.iter().all(|x| !x.starts_with('-'));
    match (lb, a) {
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
        _ => false,
    }
}
