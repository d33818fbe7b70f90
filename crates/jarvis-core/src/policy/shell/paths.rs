//! What a path argument points at: home, system, credentials, Jarvis's own
//! state. Lexical only (the command has not run); the file tools resolve
//! real paths separately.

/// `$HOME`, `${HOME}`, `%USERPROFILE%`, `$env:USERPROFILE`, `/home/NAME`,
/// `/root`, `C:\Users\NAME` → `~`; backslashes → `/`; `.`/`..` folded; a
/// relative path is joined to a known `cd` target.
pub fn normalize(raw: &str, cwd: Option<&str>) -> String {
    let mut p = raw.replace('\\', "/");
    for (from, to) in [
        ("${HOME}", "~"),
        ("$HOME", "~"),
        ("%USERPROFILE%", "~"),
        ("$env:USERPROFILE", "~"),
        ("%APPDATA%", "~/AppData/Roaming"),
        ("%LOCALAPPDATA%", "~/AppData/Local"),
        ("$env:APPDATA", "~/AppData/Roaming"),
    ] {
        if let Some(rest) = strip_prefix_ci(&p, from) {
            p = format!("{to}{rest}");
        }
    }
    if let Some(rest) = p
        .strip_prefix("/home/")
        .or_else(|| p.strip_prefix("/Users/"))
    {
        let rest = rest
            .split_once('/')
            .map(|(_, r)| format!("/{r}"))
            .unwrap_or_default();
        p = format!("~{rest}");
    } else if let Some(rest) = strip_prefix_ci(&p, "c:/users/") {
        let rest = rest
            .split_once('/')
            .map(|(_, r)| format!("/{r}"))
            .unwrap_or_default();
        p = format!("~{rest}");
    } else if p == "/root" || p.starts_with("/root/") {
        p = format!("~{}", &p[5..]);
    }
    if !(p.starts_with('/') || p.starts_with('~') || has_drive(&p))
        && let Some(c) = cwd
    {
        let c = normalize(c, None);
        p = format!("{}/{p}", c.trim_end_matches('/'));
    }
    fold(&p)
}

fn has_drive(p: &str) -> bool {
    let b = p.as_bytes();
    b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':'
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    if s.len() >= prefix.len()
        && s.is_char_boundary(prefix.len())
        && s[..prefix.len()].eq_ignore_ascii_case(prefix)
    {
        Some(&s[prefix.len()..])
    } else {
        None
    }
}

/// Folds `.` and `..` components lexically, keeping a leading `~`, `/` or drive.
fn fold(p: &str) -> String {
    let (root, rest) = if let Some(r) = p.strip_prefix('~') {
        ("~", r)
    } else if let Some(r) = p.strip_prefix('/') {
        ("/", r)
    } else if has_drive(p) {
        (&p[..2], &p[2..])
    } else {
        ("", p)
    };
    let mut parts: Vec<&str> = Vec::new();
    let mut ups = 0;
    for c in rest.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    ups += 1;
                }
            }
            other => parts.push(other),
        }
    }
    let mut out = String::from(root);
    if root.is_empty() && ups > 0 {
        out.push_str(&"../".repeat(ups));
    } else if root == "~" && ups > 0 {
        // Above home: treat as the filesystem root's neighbourhood.
        return "/".into();
    }
    if !out.is_empty() && !out.ends_with('/') && !parts.is_empty() {
        out.push('/');
    }
    out.push_str(&parts.join("/"));
    if out.is_empty() { ".".into() } else { out }
}

/// Shell-style wildcard match (`*`, `?`, `[…]` loosely), `*` not crossing `/`.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    fn go(p: &[char], t: &[char]) -> bool {
        match p.first() {
            None => t.is_empty(),
            Some('*') => (0..=t.len())
                .take_while(|&i| i == 0 || t[i - 1] != '/')
                .any(|i| go(&p[1..], &t[i..])),
            Some('?') => !t.is_empty() && t[0] != '/' && go(&p[1..], &t[1..]),
            Some('[') => match p.iter().position(|&c| c == ']') {
                Some(end) if !t.is_empty() => {
                    p[1..end].contains(&t[0]) && go(&p[end + 1..], &t[1..])
                }
                _ => false,
            },
            Some(c) => !t.is_empty() && *c == t[0] && go(&p[1..], &t[1..]),
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    go(&p, &t)
}

pub fn has_glob(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

const CREDENTIAL_DIRS: &[&str] = &[
    "~/.ssh",
    "~/.aws",
    "~/.azure",
    "~/.config/gcloud",
    "~/.kube",
    "~/.docker/config.json",
    "~/.npmrc",
    "~/.pypirc",
    "~/.netrc",
    "~/.git-credentials",
    "~/.config/git/credentials",
    "~/.config/gh",
    "~/.config/hub",
    "~/.gnupg",
    "~/.password-store",
    "~/.local/share/keyrings",
    "~/.mozilla",
    "~/.config/google-chrome",
    "~/.config/chromium",
    "~/.config/BraveSoftware",
    "~/Library/Keychains",
    "~/.vault-token",
    "~/.terraform.d/credentials.tfrc.json",
    "~/.cargo/credentials",
    "~/.cargo/credentials.toml",
    "~/Library/Application Support/Google/Chrome",
    "~/AppData/Local/Google/Chrome/User Data",
    "/etc/shadow",
    "/etc/gshadow",
    "/etc/sudoers",
    "/etc/ssl/private",
];

/// Concrete files a wildcard may be aiming at.
const CREDENTIAL_EXAMPLES: &[&str] = &[
    "~/.ssh/id_rsa",
    "~/.ssh/id_ed25519",
    "~/.ssh/id_ecdsa",
    "~/.ssh/config",
    "~/.aws/credentials",
    "~/.gnupg/private-keys-v1.d",
    "~/.netrc",
    "~/.npmrc",
    "~/.kube/config",
    "~/.git-credentials",
];

/// Key-like file names, for `find -name` patterns.
pub const SECRET_BASENAMES: &[&str] = &[
    "id_rsa",
    "id_dsa",
    "id_ecdsa",
    "id_ed25519",
    "private.pem",
    "server.key",
    "key.pem",
    ".env",
    "credentials",
    ".netrc",
];

fn env_file(base: &str) -> bool {
    if base == ".env" {
        return true;
    }
    let Some(rest) = base.strip_prefix(".env.") else {
        return false;
    };
    ![
        "example",
        "sample",
        "template",
        "dist",
        "defaults",
        "schema",
        "test.example",
    ]
    .iter()
    .any(|s| rest == *s || rest.ends_with(&format!(".{s}")))
}

/// `Some(what)` when the path names a credential store or secret file.
pub fn credential(raw: &str, cwd: Option<&str>) -> Option<String> {
    let p = normalize(raw, cwd);
    let base = p.rsplit('/').next().unwrap_or(&p);
    if env_file(base) {
        return Some(format!("{raw} holds secrets (.env)"));
    }
    if matches!(base, "id_rsa" | "id_dsa" | "id_ecdsa" | "id_ed25519")
        && (raw.contains('/') || raw.starts_with('~'))
    {
        return Some(format!("{raw} is a private key"));
    }
    if p.starts_with("/proc/") && p.ends_with("/environ") {
        return Some(format!("{raw} exposes a process's environment"));
    }
    let under = |dir: &str| p == dir || p.starts_with(&format!("{dir}/"));
    if let Some(d) = CREDENTIAL_DIRS.iter().find(|d| under(d)) {
        return Some(format!("{raw} is in {d}"));
    }
    if has_glob(&p) {
        // The literal part before the first wildcard, and concrete targets it matches.
        let lit_end = p.find(['*', '?', '[']).unwrap_or(p.len());
        let lit = &p[..lit_end];
        let lit_dir = lit.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        if let Some(d) = CREDENTIAL_DIRS
            .iter()
            .find(|d| lit_dir == **d || lit_dir.starts_with(&format!("{d}/")))
        {
            return Some(format!("{raw} reaches into {d}"));
        }
        if let Some(ex) = CREDENTIAL_EXAMPLES.iter().find(|ex| glob_match(&p, ex)) {
            return Some(format!("{raw} matches {ex}"));
        }
    }
    None
}

/// Jarvis's own state: `~/.jarvis`, the app's data/config dirs, `$JARVIS_HOME`
/// and the protected absolute paths the host passes in.
pub fn app_state(raw: &str, cwd: Option<&str>, app: &str, protected: &[String]) -> bool {
    if raw.contains("$JARVIS_HOME") || raw.contains("${JARVIS_HOME}") {
        return true;
    }
    let p = normalize(raw, cwd).to_ascii_lowercase();
    let app = app.to_ascii_lowercase();
    let dirs = [
        format!("~/.{app}"),
        format!("~/.local/share/{app}"),
        format!("~/.config/{app}"),
        format!("~/.cache/{app}"),
        format!("~/library/application support/{app}"),
        format!("~/appdata/roaming/{app}"),
        format!("~/appdata/local/{app}"),
    ];
    let under = |d: &str| p == d || p.starts_with(&format!("{d}/"));
    // Its binaries, wherever they were installed.
    let binary = [
        format!("/bin/{app}"),
        format!("/bin/{app}-sandbox"),
        format!("/bin/{app}-desktop"),
    ]
    .iter()
    .any(|b| p.ends_with(b.as_str()));
    binary
        || dirs.iter().any(|d| under(d))
        || protected
            .iter()
            .map(|x| normalize(x, None).to_ascii_lowercase())
            .any(|d| d != "~" && under(&d))
}

const SYSTEM_DIRS: &[&str] = &[
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/opt",
    "/proc",
    "/sbin",
    "/sys",
    "/usr",
    "/var",
    "/System",
    "/Library",
    "/private/etc",
    "/private/var",
    "/Applications",
    "c:/windows",
    "c:/program files",
    "c:/program files (x86)",
    "c:/programdata",
];

/// Writing here changes the system for every user.
pub fn system(raw: &str, cwd: Option<&str>) -> bool {
    let p = normalize(raw, cwd);
    let lower = p.to_ascii_lowercase();
    if lower.starts_with("/var/tmp")
        || lower.starts_with("/dev/null")
        || lower.starts_with("/dev/std")
        || lower.starts_with("/dev/fd")
    {
        return false;
    }
    SYSTEM_DIRS.iter().any(|d| {
        let d = d.to_ascii_lowercase();
        lower == d || lower.starts_with(&format!("{d}/"))
    })
}

/// A block device or raw disk.
pub fn device(raw: &str) -> bool {
    let p = raw.trim();
    p.starts_with("/dev/")
        && !matches!(
            p,
            "/dev/null"
                | "/dev/zero"
                | "/dev/random"
                | "/dev/urandom"
                | "/dev/stdin"
                | "/dev/stdout"
                | "/dev/stderr"
                | "/dev/tty"
        )
        && !p.starts_with("/dev/fd/")
        && !p.starts_with("/dev/tcp/")
        && !p.starts_with("/dev/udp/")
        && !p.starts_with("/dev/shm/")
        && !p.starts_with("/dev/pts/")
}

/// Deleting or re-permissioning this recursively destroys a system or a home.
pub fn catastrophic(raw: &str, cwd: Option<&str>) -> bool {
    let t = raw.trim().replace('\\', "/");
    let t = t.as_str();
    if matches!(
        t,
        "*" | "/*" | "~" | "~/" | "~/*" | ".." | "../" | "../*" | "..*"
    ) {
        return true;
    }
    let p = normalize(t.trim_end_matches("/*").trim_end_matches("/.*"), cwd);
    let lower = p.to_ascii_lowercase();
    if p == "/" || p == "~" || p.starts_with("..") || lower == "c:" || lower == "c:/" {
        return true;
    }
    // Home's direct children (~/Documents) and the top of system directories.
    if let Some(rest) = p.strip_prefix("~/")
        && !rest.contains('/')
    {
        return true;
    }
    if p == "/home" || p == "/Users" || lower == "c:/users" {
        return true;
    }
    SYSTEM_DIRS.iter().any(|d| lower == d.to_ascii_lowercase())
        || system(&p, None) && p.matches('/').count() <= 2
}

/// Files whose change runs code at login or on a schedule.
pub fn persistence(raw: &str, cwd: Option<&str>) -> bool {
    let p = normalize(raw, cwd);
    const FILES: &[&str] = &[
        "~/.bashrc",
        "~/.bash_profile",
        "~/.bash_login",
        "~/.profile",
        "~/.zshrc",
        "~/.zprofile",
        "~/.zshenv",
        "~/.zlogin",
        "~/.config/fish/config.fish",
        "~/.xprofile",
        "~/.xinitrc",
        "~/.config/autostart",
        "~/Library/LaunchAgents",
        "/Library/LaunchAgents",
        "/Library/LaunchDaemons",
        "/etc/cron.d",
        "/etc/crontab",
        "/etc/cron.daily",
        "/etc/cron.hourly",
        "/etc/profile.d",
        "/var/spool/cron",
        "~/.config/systemd/user",
        "/etc/systemd/system",
        "~/.ssh/rc",
        "~/.ssh/authorized_keys",
        "~/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup",
    ];
    FILES
        .iter()
        .any(|f| p == *f || p.starts_with(&format!("{f}/")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizing_and_classifying() {
        assert_eq!(
            normalize("$HOME/.ssh/../.ssh/id_rsa", None),
            "~/.ssh/id_rsa"
        );
        assert_eq!(normalize("hosts", Some("/etc")), "/etc/hosts");
        assert_eq!(normalize("/home/u/x", None), "~/x");
        assert!(credential("~/.s*/id_*", None).is_some());
        assert!(credential(".env", None).is_some());
        assert!(credential("config/.env.production", None).is_some());
        assert!(credential(".env.example", None).is_none());
        assert!(credential("src/credentials.rs", None).is_none());
        assert!(catastrophic("~/Documents", None));
        assert!(catastrophic("/home/$USER", None));
        assert!(!catastrophic("build/", None));
        assert!(!catastrophic("/tmp/myproj-build-cache", None));
        assert!(catastrophic("/usr", None));
        assert!(system("/etc/hosts", None));
        assert!(!system("/tmp/x", None));
        assert!(!system("./etc/nginx", None));
        assert!(app_state(
            "~/.local/share/jarvis/jarvis.db",
            None,
            "jarvis",
            &[]
        ));
        assert!(glob_match("id_*", "id_rsa"));
        assert!(!glob_match("*.pem", "a/b.pem"));
    }
}
