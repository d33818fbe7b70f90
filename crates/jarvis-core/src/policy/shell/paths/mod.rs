//! What a path argument points at: the working directory, scratch space,
//! home, system, credentials, Jarvis's own state. Lexical only (the command
//! has not run); the file tools resolve real paths separately and the OS
//! sandbox enforces what this cannot see.

use super::parse::HOME;

mod credentials;

pub use credentials::*;

/// A word's value as a path: the shell's home expansion becomes `~`, while a
/// quoted `'~'` or `'$HOME'` is a file of that name in the current directory.
pub fn word_path(text: &str, dynamic: bool) -> String {
    if let Some(rest) = text.strip_prefix(HOME) {
        format!("~{rest}")
    } else if text.starts_with('~')
        || (text.starts_with('$') && !dynamic && !text.to_ascii_lowercase().starts_with("$env:"))
    {
        format!("./{text}")
    } else {
        text.replace(HOME, "~")
    }
}

/// `a//b`, `a/./b`: one spelling of the same path (`..` is left alone:
/// through a symlink it is not the parent it names).
pub fn squeezed(p: &str) -> String {
    let mut s = p.to_string();
    while s.contains("/./") {
        s = s.replace("/./", "/");
    }
    while s.contains("//") {
        s = s.replace("//", "/");
    }
    s
}

/// `$HOME`, `${HOME}`, `%USERPROFILE%`, `$env:USERPROFILE`, `/home/NAME`,
/// `/root`, `C:\Users\NAME` → `~`; backslashes → `/`; `.`/`..` folded; a
/// relative path is joined to a known `cd` target.
pub fn normalize(raw: &str, cwd: Option<&str>) -> String {
    // A plain word with no place to resolve it from (`curl`, `-fsSL`,
    // `main.c`) is its own path: most words of most lines are such.
    if cwd.is_none() && plain_word(raw) {
        return raw.to_string();
    }
    let mut p = if raw.contains(['\\', HOME]) {
        raw.replace('\\', "/").replace(HOME, "~")
    } else {
        raw.to_string()
    };
    // Every spelling below starts with `$`, `%` or `HK`: most paths have
    // none of them, and this runs for each word of each command.
    let spelled = p.contains(['$', '%']) || p.starts_with("HK") || p.starts_with("hk");
    for (from, to) in [
        ("${HOME}", "~"),
        ("$HOME", "~"),
        // CMake's and Perl's spellings of the environment's HOME.
        ("$ENV{HOME}", "~"),
        ("%USERPROFILE%", "~"),
        ("$env:USERPROFILE", "~"),
        ("${env:HOME}", "~"),
        ("$env:HOME", "~"),
        ("%HOMEPATH%", "~"),
        ("%APPDATA%", "~/AppData/Roaming"),
        ("%LOCALAPPDATA%", "~/AppData/Local"),
        ("$env:APPDATA", "~/AppData/Roaming"),
        ("%windir%", "c:/windows"),
        ("$env:windir", "c:/windows"),
        ("%systemroot%", "c:/windows"),
        ("$env:systemroot", "c:/windows"),
        ("%programfiles%", "c:/program files"),
        ("$env:programfiles", "c:/program files"),
        ("%programdata%", "c:/programdata"),
        ("$env:programdata", "c:/programdata"),
        ("%temp%", "/tmp"),
        ("$env:temp", "/tmp"),
        ("%tmp%", "/tmp"),
        ("$env:LOCALAPPDATA", "~/AppData/Local"),
        ("${XDG_CONFIG_HOME}", "~/.config"),
        ("$XDG_CONFIG_HOME", "~/.config"),
        ("${XDG_DATA_HOME}", "~/.local/share"),
        ("$XDG_DATA_HOME", "~/.local/share"),
        ("$XDG_CACHE_HOME", "~/.cache"),
        ("HKCU:", "HKCU"),
        ("HKLM:", "HKLM"),
    ] {
        if !spelled {
            break;
        }
        // `$HOMEBREW_PREFIX` is another variable, not home with a suffix.
        if let Some(rest) = strip_prefix_ci(&p, from)
            && !(from.ends_with(|c: char| c.is_ascii_alphanumeric())
                && rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
        {
            p = format!("{to}{rest}");
        }
    }
    // `${HOME%/*}` is home's parent; any other operation on HOME is judged
    // as home itself (`${HOME/u/x}`, `${HOME:0}`).
    if let Some(rest) = p.strip_prefix("${HOME")
        && rest.starts_with(['%', '#', '/', ':', '^', ','])
        && let Some(end) = rest.find('}')
    {
        let tail = rest[end + 1..].to_string();
        p = if rest.starts_with("%/") {
            format!("/home{tail}")
        } else {
            format!("~{tail}")
        };
    }
    p = through_proc(&p);
    // (`/mnt/c/../../etc` climbs out of the mount before it is a drive.)
    if let Some(drive) = windows_drive_mount(&fold(&p)) {
        p = drive;
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
    } else if let Some(rest) = has_drive(&p)
        .then(|| strip_prefix_ci(&p[2..], "/users/"))
        .flatten()
    {
        let rest = rest
            .split_once('/')
            .map(|(_, r)| format!("/{r}"))
            .unwrap_or_default();
        p = format!("~{rest}");
    } else if p == "/root" || p.starts_with("/root/") {
        p = format!("~{}", &p[5..]);
    } else if p == "/var/root" || p.starts_with("/var/root/") {
        p = format!("~{}", &p[9..]);
    }
    if !(p.starts_with('/') || p.starts_with('~') || has_drive(&p))
        && let Some(c) = cwd
    {
        let c = normalize(&word_path(c, false), None);
        p = format!("{}/{p}", c.trim_end_matches('/'));
    }
    let folded = fold(&p);
    // `/tmp/../home/u/.ssh` is home only once folded.
    let l = folded.to_ascii_lowercase();
    if folded != p
        && (l.starts_with("/home/")
            || l.starts_with("/users/")
            || l.starts_with("c:/users/")
            || l == "/root"
            || l.starts_with("/root/")
            || l.starts_with("/var/root"))
    {
        return normalize(&folded, None);
    }
    folded
}

/// No separator, home, variable, drive, registry hive or dot-folder
/// spelling: [`normalize`] would give the word back as it is.
fn plain_word(raw: &str) -> bool {
    !raw.is_empty()
        && raw != "."
        && raw != ".."
        && !raw.starts_with("HK")
        && !raw.starts_with("hk")
        && raw.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'=' | b'+' | b',' | b'@')
        })
}

/// `/proc/self/cwd/…` is the command's own directory and `/proc/self/root/…`
/// the root, for any process (`self`, `thread-self`, a pid, `$$`): the path
/// they lead to is what is judged.
fn through_proc(p: &str) -> String {
    let Some(rest) = p.strip_prefix("/proc/") else {
        return p.to_string();
    };
    let (who, rest) = rest.split_once('/').unwrap_or((rest, ""));
    let a_process = matches!(
        who,
        "self" | "thread-self" | "$$" | "$BASHPID" | "${BASHPID}"
    ) || (!who.is_empty() && who.bytes().all(|b| b.is_ascii_digit()));
    if !a_process {
        return p.to_string();
    }
    let (link, tail) = rest.split_once('/').unwrap_or((rest, ""));
    match link {
        "root" => format!("/{tail}"),
        "cwd" if tail.is_empty() => ".".into(),
        "cwd" => tail.to_string(),
        _ => p.to_string(),
    }
}

/// `C:…`: a Windows drive, not `host:path`.
pub fn looks_like_drive(p: &str) -> bool {
    has_drive(p)
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
pub fn fold(p: &str) -> String {
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
        // Above home: `/home`, and the filesystem's top past it
        // (`~/../../etc/shadow` is `/etc/shadow`).
        let top = if ups == 1 { "/home" } else { "" };
        return if parts.is_empty() {
            if top.is_empty() {
                "/".into()
            } else {
                top.into()
            }
        } else {
            format!("{top}/{}", parts.join("/"))
        };
    }
    if !out.is_empty() && !out.ends_with('/') && !parts.is_empty() {
        out.push('/');
    }
    out.push_str(&parts.join("/"));
    // A relative `~x` or `$x` is a file of that name, not home or a variable.
    if root.is_empty() && ups == 0 && out.starts_with(['~', '$', '%']) {
        out.insert_str(0, "./");
    }
    let trimmed = out.trim_end_matches('/');
    if out.is_empty() {
        ".".into()
    } else if trimmed.is_empty() {
        "/".into()
    } else {
        trimmed.to_string()
    }
}

/// A Windows drive as WSL (`/mnt/c/…`) or Cygwin (`/cygdrive/c/…`) mounts
/// it, spelled as the drive (`c:/…`): the Windows user's home and system
/// are then judged as they are under `C:\`.
fn windows_drive_mount(p: &str) -> Option<String> {
    // Git Bash and WSL with its mounts at `/` spell it `/c/Users/…`.
    let msys = p
        .get(2..9)
        .is_some_and(|r| r.eq_ignore_ascii_case("/users/") || r.eq_ignore_ascii_case("/window"))
        && p.starts_with('/');
    let rest = p
        .strip_prefix("/mnt/")
        .or_else(|| p.strip_prefix("/cygdrive/"))
        .or_else(|| msys.then(|| &p[1..]))?;
    let mut chars = rest.chars();
    let letter = chars.next().filter(char::is_ascii_alphabetic)?;
    let tail = chars.as_str();
    (tail.is_empty() || tail.starts_with('/')).then(|| {
        format!(
            "{}:{}",
            letter.to_ascii_lowercase(),
            if tail.is_empty() { "/" } else { tail }
        )
    })
}

/// Shell-style wildcard match (`*`, `?`, `[…]`), `*` not crossing `/`.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    wildcard(pattern, text, true)
}

/// A parameter operator's pattern (`${p%/*}`): `*` matches any text,
/// slashes and leading dots too.
pub fn pattern_match(pattern: &str, text: &str) -> bool {
    wildcard(pattern, text, false)
}

fn wildcard(pattern: &str, text: &str, paths: bool) -> bool {
    // Past a path's longest (4096) or a table of millions of cells, a match
    // is assumed: the callers look for what a pattern may reach. (Before
    // any shortcut: an answer must not depend on which path gave it, and
    // the table's recursion stays as deep as a path is long.)
    // (`**` counted as the one `*` it matches as.) Bytes are never fewer
    // than characters: lengths within the limits in bytes need no count.
    let within =
        |p: usize, t: usize| p <= MAX_PATH && t <= MAX_PATH && (p + 1) * (t + 1) <= MAX_CELLS;
    if !within(pattern.len(), text.len()) {
        let p_len = std::iter::once(' ')
            .chain(pattern.chars())
            .zip(pattern.chars())
            .filter(|&(prev, c)| !(c == '*' && prev == '*'))
            .count();
        if !within(p_len, text.chars().count()) {
            return true;
        }
    }
    // Most calls (a credential list against one word) are plain names or
    // short ASCII patterns: decided without allocating.
    if !has_glob(pattern) {
        return pattern == text;
    }
    // What comes before the first wildcard and after the last is matched
    // as written: most candidates fail there, before any table.
    let head = &pattern[..pattern.find(['*', '?', '[']).unwrap_or(pattern.len())];
    let tail = &pattern[pattern.rfind(['*', '?', '[', ']']).map_or(0, |i| i + 1)..];
    if !text.starts_with(head) || !text.ends_with(tail) || text.len() < head.len() + tail.len() {
        return false;
    }
    // One `*` between literals (`*.pem`, `~/*`, `id_*`): what it spans.
    if pattern.matches(['*', '?', '[', ']']).eq(["*"]) {
        let span = &text[head.len()..text.len() - tail.len()];
        let at_name = head.is_empty() || head.ends_with('/');
        let dot = at_name && text[head.len()..].starts_with('.');
        return !paths || !(span.contains('/') || dot);
    }
    let cells = (pattern.len() + 1) * (text.len() + 1);
    if cells <= SMALL_TABLE && pattern.is_ascii() && text.is_ascii() && !pattern.contains("**") {
        return TABLE.with(|cell| match cell.try_borrow_mut() {
            Ok(mut memo) => {
                memo.clear();
                memo.resize(cells, 0);
                go(pattern.as_bytes(), text.as_bytes(), 0, 0, paths, &mut memo)
            }
            Err(_) => go(
                pattern.as_bytes(),
                text.as_bytes(),
                0,
                0,
                paths,
                &mut vec![0; cells],
            ),
        });
    }
    table_match(pattern, text, paths)
}

/// The general matcher: a table of every (pattern, text) position.
fn table_match(pattern: &str, text: &str, paths: bool) -> bool {
    // `**` is `*`: one star decides the same.
    let mut p: Vec<char> = Vec::with_capacity(pattern.len());
    for c in pattern.chars() {
        if !(c == '*' && p.last() == Some(&'*')) {
            p.push(c);
        }
    }
    let t: Vec<char> = text.chars().collect();
    if p.len() > MAX_PATH || t.len() > MAX_PATH || (p.len() + 1) * (t.len() + 1) > MAX_CELLS {
        return true;
    }
    // Each (pattern, text) position is decided once: a pattern of many
    // `*` against a long text stays polynomial.
    let mut memo = vec![0u8; (p.len() + 1) * (t.len() + 1)];
    go(&p, &t, 0, 0, paths, &mut memo)
}

/// The longest pattern or text matched, and the largest table.
const MAX_PATH: usize = 4096;
const MAX_CELLS: usize = 4_000_000;

/// The largest wildcard table a thread keeps for reuse (64 KiB).
const SMALL_TABLE: usize = 1 << 16;

thread_local! {
    static TABLE: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Whether `p[pi..]` matches `t[ti..]`. In a path a wildcard never crosses
/// `/` nor, as bash without dotglob, matches a name's leading dot. `memo`
/// holds each position's answer: 0 not yet known, 1 no, 2 yes.
fn go<C: Copy + Into<char>>(
    p: &[C],
    t: &[C],
    pi: usize,
    ti: usize,
    paths: bool,
    memo: &mut [u8],
) -> bool {
    let key = pi * (t.len() + 1) + ti;
    match memo[key] {
        1 => return false,
        2 => return true,
        _ => {}
    }
    let at = |s: &[C], i: usize| s.get(i).map(|&c| c.into());
    let sep = |c: char| paths && c == '/';
    let start = ti == 0 || at(t, ti - 1) == Some('/');
    let first = at(t, ti);
    let v = match at(p, pi) {
        None => first.is_none(),
        Some('*' | '?') if paths && start && first == Some('.') => false,
        Some('*') => {
            go(p, t, pi + 1, ti, paths, memo)
                || first.is_some_and(|c| !sep(c)) && go(p, t, pi, ti + 1, paths, memo)
        }
        Some('?') => first.is_some_and(|c| !sep(c)) && go(p, t, pi + 1, ti + 1, paths, memo),
        Some('[') => match (p[pi..].iter().position(|&c| c.into() == ']'), first) {
            (Some(len), Some(c)) => {
                let set = &p[pi + 1..pi + len];
                let neg = matches!(at(set, 0), Some('!' | '^'));
                let mut hit = false;
                let mut k = usize::from(neg);
                while let Some(s) = at(set, k) {
                    match (at(set, k + 1), at(set, k + 2)) {
                        (Some('-'), Some(hi)) => {
                            hit |= s <= c && c <= hi;
                            k += 3;
                        }
                        _ => {
                            hit |= s == c;
                            k += 1;
                        }
                    }
                }
                hit != neg && !sep(c) && go(p, t, pi + len + 1, ti + 1, paths, memo)
            }
            _ => false,
        },
        Some(c) => first == Some(c) && go(p, t, pi + 1, ti + 1, paths, memo),
    };
    memo[key] = if v { 2 } else { 1 };
    v
}

pub fn has_glob(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// `p` is `dir` or below it, ASCII case ignored, without allocating (the
/// verdict checks hundreds of such prefixes per command).
/// A raw word shown with `~` for the home sentinel, formatted only when a
/// reason is written.
struct ShowHome<'a>(&'a str);

impl std::fmt::Display for ShowHome<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.replace(HOME, "~"))
    }
}

pub fn under_dir(p: &str, dir: &str) -> bool {
    let (pb, db) = (p.as_bytes(), dir.as_bytes());
    pb.len() >= db.len()
        && pb[..db.len()].eq_ignore_ascii_case(db)
        && (pb.len() == db.len() || pb[db.len()] == b'/')
}

/// As [`under_dir`], case kept.
pub fn under_dir_exact(p: &str, dir: &str) -> bool {
    p.strip_prefix(dir)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Jarvis's own state: `~/.jarvis`, the app's data/config dirs, `$JARVIS_HOME`,
/// its binaries, and the protected absolute paths the host passes in.
/// One of Jarvis's installed programs (`/usr/bin/jarvis-sandbox`): its
/// bytes and metadata are no secret, replacing it is.
pub fn app_binary(p: &str, app: &str) -> bool {
    let p = p.to_ascii_lowercase();
    let app = app.to_ascii_lowercase();
    p.rsplit_once('/').is_some_and(|(dir, name)| {
        (dir == "/bin" || dir.ends_with("/bin"))
            && name
                .strip_prefix(app.as_str())
                .is_some_and(|suffix| ["", "-sandbox", "-desktop", "-llm"].contains(&suffix))
    })
}

/// Jarvis's state folder itself (`~/.jarvis`, `~/.config/jarvis`, a
/// protected root): read as a whole, it is every file in it at once.
pub fn app_state_root(p: &str, app: &str, protected: &[String]) -> bool {
    let p = p.trim_end_matches('/').to_ascii_lowercase();
    let app = app.to_ascii_lowercase();
    ["~/.", "~/.local/share/", "~/.local/state/", "~/.config/"]
        .iter()
        .any(|parent| p.strip_prefix(parent) == Some(app.as_str()))
        || protected
            .iter()
            .any(|r| r.trim_end_matches('/').eq_ignore_ascii_case(&p))
}

/// `protected`: Jarvis's state roots, normalised and lower-cased.
pub fn app_state(raw: &str, cwd: Option<&str>, app: &str, protected: &[String]) -> bool {
    if raw.contains("$JARVIS_HOME") || raw.contains("${JARVIS_HOME}") {
        return true;
    }
    let p = normalize(raw, cwd).to_ascii_lowercase();
    let app = app.to_ascii_lowercase();
    const PARENTS: &[&str] = &[
        "~/.",
        "~/.local/share/",
        "~/.local/state/",
        "~/.config/",
        "~/.cache/",
        "~/library/application support/",
        "~/library/preferences/",
        "~/appdata/roaming/",
        "~/appdata/local/",
    ];
    let state = PARENTS.iter().any(|parent| {
        p.strip_prefix(parent)
            .and_then(|rest| rest.strip_prefix(app.as_str()))
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    });
    // Its binaries, wherever they were installed.
    let binary = app_binary(&p, &app);
    // `~/.*/jarvis.db`: a pattern that can expand into the state folders.
    let globbed = has_glob(&p)
        && PARENTS
            .iter()
            .map(|parent| format!("{parent}{app}"))
            .chain(protected.iter().cloned())
            .any(|d| d != "~" && d != "/" && glob_reaches(&p, &d));
    binary
        || state
        || globbed
        || protected
            .iter()
            .any(|d| d != "~" && d != "/" && under_dir_exact(&p, d))
}

/// A wildcard path that can name `dir` or something below it: each of
/// `dir`'s components matched by the pattern's component at that depth.
pub fn glob_reaches(pattern: &str, dir: &str) -> bool {
    let pat: Vec<&str> = pattern.trim_end_matches('/').split('/').collect();
    let d: Vec<&str> = dir.trim_end_matches('/').split('/').collect();
    pat.len() >= d.len()
        && d.iter().zip(&pat).all(|(name, p)| {
            if has_glob(p) {
                glob_match(p, name)
            } else {
                p == name
            }
        })
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
    "/run",
    "/srv",
    "/snap",
    "/nix",
    "/System",
    "/Library",
    "/private/etc",
    "/private/var",
    "/Applications",
    "c:/windows",
    "c:/program files",
    "c:/program files (x86)",
    "c:/programdata",
    "HKLM",
];

/// Scratch space every user may use: `/tmp`, `/var/tmp`, `/dev/shm`.
pub fn scratch(p: &str) -> bool {
    let l = p.to_ascii_lowercase();
    [
        "/tmp",
        "/var/tmp",
        "/dev/shm",
        "/private/tmp",
        "$tmpdir",
        "${tmpdir}",
    ]
    .iter()
    .any(|d| l.strip_prefix(d).is_some_and(|r| r.starts_with('/')))
}

/// Writing here changes the system for every user.
pub fn system(raw: &str, cwd: Option<&str>) -> bool {
    system_normalized(&normalize(raw, cwd))
}

pub fn system_normalized(p: &str) -> bool {
    let lower = p.to_ascii_lowercase();
    if scratch(p)
        || lower == "/tmp"
        || lower.starts_with("/dev/null")
        || lower.starts_with("/dev/std")
        || lower.starts_with("/dev/fd")
        || lower.starts_with("/dev/tty")
        || lower == "/dev/zero"
        || lower == "/dev/random"
        || lower == "/dev/urandom"
    {
        return false;
    }
    lower == "/" || SYSTEM_DIRS.iter().any(|d| under_dir(&lower, d))
}

/// A block device or raw disk.
pub fn device(raw: &str) -> bool {
    let p = raw.trim();
    let disk_like = |n: &str| {
        [
            "sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "mapper/",
            "loop", "sr", "nbd", "zd", "mtd", "ubi",
        ]
        .iter()
        .any(|d| n.starts_with(d))
    };
    match p.strip_prefix("/dev/") {
        Some(n) => disk_like(n) || n.starts_with("disk/") || n.starts_with("block/"),
        None => {
            let l = p.to_ascii_lowercase();
            l.starts_with("\\\\.\\physicaldrive") || l.starts_with("//./physicaldrive")
        }
    }
}

/// Deleting or re-permissioning this recursively destroys a system or a home.
pub fn catastrophic(raw: &str, cwd: Option<&str>) -> bool {
    let t = raw.trim().replace('\\', "/");
    if matches!(
        t.as_str(),
        "*" | "/*" | ".*" | "~" | "~/" | "~/*" | ".." | "../" | "../*" | "..*"
    ) && cwd.is_some_and(|c| c != ".")
    {
        return true;
    }
    catastrophic_normalized(&normalize(
        t.trim_end_matches("/*").trim_end_matches("/.*"),
        cwd,
    ))
}

pub fn catastrophic_normalized(p: &str) -> bool {
    let lower = p.to_ascii_lowercase();
    if p == "/" || p == "~" || p.starts_with("..") || lower == "c:" || lower == "c:/" {
        return true;
    }
    // Home's direct children (~/Documents, ~/.config) and the top of system directories.
    if let Some(rest) = p.strip_prefix("~/")
        && !rest.contains('/')
    {
        return true;
    }
    if matches!(p, "/home" | "/Users" | "/root") || lower == "c:/users" {
        return true;
    }
    if p.starts_with("/home/") && p.matches('/').count() == 2 {
        return true;
    }
    SYSTEM_DIRS.iter().any(|d| lower.eq_ignore_ascii_case(d))
        || system_normalized(p) && p.matches('/').count() <= 2
}

/// On another machine, a system folder's whole tree or a service's whole
/// configuration or data (`/etc/nginx`, `/var/lib/postgresql`, `/usr/lib`):
/// not a deploy's target (`/srv/app`, `/var/www/site`, `/opt/app`).
pub fn system_tree_elsewhere(path: &str) -> bool {
    let p = path.trim_end_matches('/').to_ascii_lowercase();
    let parts: Vec<&str> = p.split('/').skip(1).collect();
    matches!(
        parts.as_slice(),
        ["etc" | "usr" | "boot" | "bin" | "sbin" | "lib" | "lib32" | "lib64", ..]
            if parts.len() <= 2
    ) || matches!(parts.as_slice(), ["var", "lib"] | ["var", "lib", _])
}

/// A whole system or home on another machine (`/`, `~`, `/home/u`,
/// `/etc`), as `host:PATH` names it: not a deploy folder like `/srv/www`.
pub fn wipes_a_machine(path: &str) -> bool {
    let p = path.trim_end_matches('/');
    let p = p.strip_suffix("/.").unwrap_or(p);
    // `~alice`, `$HOME`, `/Users/alice`: a home by another spelling.
    let user_home = p.starts_with('~') && !p.contains('/');
    p.is_empty()
        || user_home
        || matches!(p, "." | "/home" | "/Users" | "/root" | "$HOME" | "${HOME}")
        || (p.starts_with("/home/") || p.starts_with("/Users/")) && p.matches('/').count() == 2
        || SYSTEM_DIRS.iter().any(|d| p.eq_ignore_ascii_case(d))
}

/// Files whose change runs code at login, on a schedule or when a common
/// program starts.
pub fn persistence(raw: &str, cwd: Option<&str>) -> bool {
    persistence_normalized(&normalize(raw, cwd))
}

/// Startup files and folders: what they hold runs at login, on a
/// schedule or when a program starts.
const STARTUP_PLACES: &[&str] = &[
    "~/.bashrc",
    "~/.bash_profile",
    "~/.bash_login",
    "~/.bash_logout",
    "~/.bashrc.d",
    // Completions bash loads on demand, the first time a command is
    // completed: code that runs in the user's interactive shells.
    "~/.bash_completion",
    "~/.bash_completion.d",
    "~/.local/share/bash-completion",
    "~/.zfunc",
    "~/.config/zsh",
    "~/.oh-my-zsh/custom",
    "~/.profile",
    "~/.profile.d",
    "~/.zshrc",
    "~/.zprofile",
    "~/.zshenv",
    "~/.zlogin",
    "~/.zlogout",
    "~/.config/fish",
    "~/.config/nushell",
    "~/.config/elvish",
    "~/.elvish/rc.elv",
    "~/.config/xonsh",
    "~/.xonshrc",
    "~/.kshrc",
    "~/.cshrc",
    "~/.tcshrc",
    "~/.xprofile",
    "~/.xinitrc",
    "~/.xsession",
    "~/.xsessionrc",
    "~/.pam_environment",
    "~/.config/environment.d",
    "~/.config/autostart",
    "~/.config/autostart-scripts",
    // Editors' user settings and tasks: a terminal profile's arguments,
    // a task that runs on folder open, workspace trust turned off.
    "~/.config/Code/User/settings.json",
    "~/.config/Code/User/tasks.json",
    "~/.config/VSCodium/User/settings.json",
    "~/.config/Cursor/User/settings.json",
    // Desktop entries: the command a file type or a menu item opens.
    "~/.local/share/applications",
    "~/.config/mimeapps.list",
    "~/.config/plasma-workspace",
    "~/.config/lxsession",
    "~/.config/openbox",
    "~/.kde/Autostart",
    "~/.config/systemd",
    "~/.local/share/systemd",
    // Session services started on demand or with the sound server.
    "~/.local/share/dbus-1",
    "~/.config/pipewire",
    "~/.config/wireplumber",
    "~/.config/pulse",
    "~/.vimrc",
    "~/.vim",
    "~/.config/nvim",
    "~/.exrc",
    "~/.emacs",
    "~/.emacs.d",
    "~/.tmux.conf",
    "~/.config/tmux",
    "~/.screenrc",
    // IDEs' own start-up: JVM options (`-javaagent:`), plugins,
    // extensions. (A terminal's settings file is mostly fonts and
    // colours: writing it asks; WezTerm's is Lua, run at every start.)
    "~/.config/wezterm",
    "~/.vscode/extensions",
    "~/.wezterm.lua",
    "~/.gvimrc",
    "~/.config/emacs",
    "~/.doom.d",
    "~/.config/doom",
    "~/.spacemacs",
    "~/.inputrc",
    // less's key bindings and environment (`LESSOPEN=|cmd`), read at start.
    "~/.lesskey",
    "~/.config/lesskey",
    "~/.less",
    "~/.gitconfig",
    "~/.config/git/config",
    "~/.curlrc",
    "~/.wgetrc",
    "~/.pythonrc",
    "~/.pythonstartup",
    // Tool settings that name programs to run or where code comes from.
    "~/.cargo/config",
    "~/.cargo/config.toml",
    "~/.config/pip/pip.conf",
    "~/.pip/pip.conf",
    "~/.config/uv/uv.toml",
    "~/.gradle/init.d",
    "~/.gradle/init.gradle",
    "~/.m2/settings.xml",
    "~/.config/direnv",
    "~/.bunfig.toml",
    "~/.config/containers",
    // Docker's CLI plugins run as `docker NAME` (compose, buildx).
    "~/.docker/cli-plugins",
    // Conan's hooks, plugins and custom commands are Python it imports
    // at every run (`~/.conan/hooks` in Conan 1).
    "~/.conan2/extensions",
    "~/.conan/hooks",
    // Jupyter's and IPython's settings are Python run at every start.
    "~/.jupyter",
    "~/.ipython",
    // Airflow's scheduler runs every DAG file in its folder (AIRFLOW_HOME
    // is `~/airflow` unless set), and imports its plugins at start.
    "~/airflow/dags",
    "~/airflow/plugins",
    // GNOME Shell's and Plasma's extensions are code loaded into the
    // desktop shell at every login.
    "~/.local/share/gnome-shell/extensions",
    "~/.local/share/plasma/plasmoids",
    "~/.local/share/kwin/scripts",
    // Where nix, conda, yarn and the version managers get code, and
    // the hooks they run in every shell.
    "~/.config/nix",
    "/etc/nix",
    "~/.config/mise",
    "~/.config/rtx",
    "~/.condarc",
    "~/.yarnrc",
    "~/.yarnrc.yml",
    "~/.config/pnpm",
    "~/.local/share/devbox/global",
    "~/.ssh/rc",
    "~/.ssh/authorized_keys",
    "~/.ssh/authorized_keys2",
    "~/.ssh/config",
    "~/Library/LaunchAgents",
    "~/Library/StartupItems",
    "/Library/LaunchAgents",
    "/Library/LaunchDaemons",
    "/Library/StartupItems",
    "/etc/cron.d",
    "/etc/crontab",
    "/etc/cron.daily",
    "/etc/cron.hourly",
    "/etc/cron.weekly",
    "/etc/cron.monthly",
    "/etc/anacrontab",
    "/etc/profile",
    "/etc/profile.d",
    "/etc/bash.bashrc",
    "/etc/zsh",
    "/etc/environment",
    "/etc/rc.local",
    "/etc/init.d",
    "/etc/xdg/autostart",
    "/etc/ld.so.preload",
    "/var/spool/cron",
    "/etc/systemd",
    "/lib/systemd/system",
    "/usr/lib/systemd/system",
    "~/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup",
    "c:/programdata/microsoft/windows/start menu/programs/startup",
    // PowerShell's profiles run at each start, on Linux and Windows.
    "~/.config/powershell",
    "~/Documents/PowerShell",
    "~/Documents/WindowsPowerShell",
    // Editors' extensions run at every start of the editor.
    "~/.vscode/extensions",
    "~/.vscode-server/extensions",
    "~/.vscode-oss/extensions",
    "~/.cursor/extensions",
    // (The wezterm config is Lua, run at each start.)
    "~/.config/wezterm",
    "~/.wezterm.lua",
    // Applications' script and plug-in folders, and the settings that
    // name programs they run: code each start or each file opened runs.
    "~/.config/blender",
    "~/.config/inkscape/extensions",
    "~/.config/GIMP",
    "~/.config/ImageMagick",
    "~/.config/mpv/scripts",
    "~/.config/yt-dlp",
    "~/.config/youtube-dl",
    "~/yt-dlp.conf",
    "~/.config/obs-studio/plugins",
    "~/.local/share/jupyter/kernels",
    "~/.julia/config",
    "~/.mailcap",
    "~/.config/mutt",
    "~/.config/neomutt",
    "~/.config/msmtp",
    // LibreOffice's profile: its macros, and the macro security level.
    "~/.config/libreoffice",
    // Hotkey daemons: every binding in their files is a command line
    // (sxhkd's indented lines, skhd's, KDE's custom shortcuts' actions).
    // (Window managers' and bars' configs hold fonts and colours too: an
    // edit there asks.)
    "~/.config/sxhkd",
    // sbt's global plugins and settings are Scala loaded by every build.
    "~/.sbt/1.0",
    // Coding agents' settings: hooks and MCP servers are commands they
    // run at every session, aider's test and lint commands after edits.
    "~/.claude/settings.json",
    "~/.claude/settings.local.json",
    "~/.claude.json",
    "~/.cursor/mcp.json",
    "~/.codeium/windsurf/mcp_config.json",
    "~/.config/Claude/claude_desktop_config.json",
    "~/.codex/config.toml",
    "~/.aider.conf.yml",
    "~/.config/skhd",
    "~/.config/khotkeysrc",
    // Text expanders, key remappers and clipboard managers whose rules run
    // commands (espanso's `shell` matches, AutoKey's Python, CopyQ's
    // automatic commands, keyd's `command()`).
    "~/.config/espanso",
    "~/.config/autokey",
    "~/.config/copyq",
    "~/.config/keyd",
    "~/.config/kmonad",
    "~/.config/xremap",
    "~/.config/input-remapper",
    "~/.config/input-remapper-2",
    // ranger's commands.py is Python it loads at every start.
    "~/.config/ranger/commands.py",
    // Speech and screen readers: speech-dispatcher's generic modules are
    // command lines, Orca loads its customisations as Python.
    "~/.config/speech-dispatcher",
    // acme.sh's hooks run at every renewal.
    "~/.acme.sh/deploy",
    "~/.acme.sh/dnsapi",
    "~/.acme.sh/notify",
    "~/.local/share/orca",
];

/// A hidden or system folder that holds startup places (`~/.config`,
/// `~/.local/share`, `/etc`): whatever fills it whole can put files there.
/// (A visible folder of home's, `~/Documents`, is the user's files.)
pub fn holds_startup_places(p: &str) -> bool {
    let dir = p.trim_end_matches('/');
    (dir.contains("/.") || dir.starts_with('/'))
        && STARTUP_PLACES.iter().any(|f| {
            f.len() > dir.len() + 1
                && f.as_bytes()[..dir.len()].eq_ignore_ascii_case(dir.as_bytes())
                && f.as_bytes()[dir.len()] == b'/'
        })
}

pub fn persistence_normalized(p: &str) -> bool {
    let lower = p.to_ascii_lowercase();
    // Home dotfiles that programs read at start (`~/.bash_aliases`, `~/.psqlrc`,
    // `~/.gdbinit`, `~/.Rprofile`) run what they hold.
    if let Some(rest) = lower.strip_prefix("~/.") {
        let name = rest.split('/').next().unwrap_or("");
        if name.ends_with("rc")
            || name.ends_with("rc.local")
            || [
                "profile", "login", "logout", "aliases", "init", "bash", "zsh",
            ]
            .iter()
            .any(|k| name.contains(k))
            || name == "env"
            || name == "environment"
            // R reads it first; `R_PROFILE_USER` there names code to run.
            || name == "renviron"
            || name.starts_with("ipython") && rest.contains("/startup")
        {
            return true;
        }
    }
    let hit = STARTUP_PLACES.iter().any(|f| under_dir(&lower, f));
    hit || persistence_anywhere(&lower)
}

/// Startup places known by their own names wherever they are: whatever
/// comes before them (a user's folder, a path known only at run time).
pub fn persistence_anywhere(p: &str) -> bool {
    let lower = p.replace('\\', "/").to_ascii_lowercase();
    // A Startup folder (`…/Start Menu/Programs/Startup`), Windows Terminal's
    // settings (each profile's command line runs at every new tab).
    // A JVM's options file (`idea64.vmoptions`: `-javaagent:` loads code
    // into the IDE at every start), an IDE's plugins folder.
    lower.ends_with(".vmoptions")
        || lower.contains("/jetbrains/") && lower.contains("/plugins/")
        || lower.contains("/start menu/programs/startup")
        || (lower.contains("/microsoft.windowsterminal") || lower.contains("/windows terminal/"))
            && lower.ends_with("/settings.json")
        // PowerShell's profiles, OneDrive's copy of Documents too.
        || (lower.contains("/documents/powershell/")
            || lower.contains("/documents/windowspowershell/"))
            && lower.ends_with("profile.ps1")
        // Python runs `.pth` files and sitecustomize at every start; git runs hooks.
        || (lower.contains("site-packages/")
            && (lower.ends_with(".pth") || lower.ends_with("customize.py")))
        || lower.contains(".git/hooks/")
        || lower.ends_with(".git/hooks")
        // A Wine prefix's registry (its `Run` keys start programs with
        // every Wine session).
        || ["/user.reg", "/system.reg", "/userdef.reg"]
            .iter()
            .any(|r| lower.ends_with(r) && lower.contains("wine"))
}

/// A git hook (`.git/hooks/…`): git runs it by itself.
pub fn git_hook(p: &str) -> bool {
    let lower = p.to_ascii_lowercase();
    lower.contains(".git/hooks/") || lower.ends_with(".git/hooks")
}

/// User directories on `PATH`: a program written there shadows the real one.
pub fn user_bin(p: &str) -> bool {
    [
        "~/bin",
        "~/.local/bin",
        "~/.cargo/bin",
        "~/go/bin",
        "~/.npm-global/bin",
        "~/.bun/bin",
        "~/.deno/bin",
        "~/.volta/bin",
        "~/.pyenv/shims",
        "~/.asdf/shims",
        "~/.local/share/pnpm",
        "~/.yarn/bin",
        "~/.nix-profile/bin",
        "/usr/local/bin",
        "/usr/local/sbin",
        "/home/linuxbrew/.linuxbrew/bin",
        "/opt/homebrew/bin",
    ]
    .iter()
    .any(|d| p.strip_prefix(d).is_some_and(|r| r.starts_with('/')))
}

/// Inside the working directory: relative without climbing out, or under
/// the working directory named absolutely.
pub fn inside(p: &str, workdir: Option<&str>) -> bool {
    let relative = !(p.starts_with('/')
        || p.starts_with('~')
        || has_drive(p)
        || p.starts_with('$')
        || p.starts_with('%'));
    if relative {
        return !p.starts_with("..");
    }
    workdir.is_some_and(|w| {
        let w = w.trim_end_matches('/');
        !w.is_empty() && w != "~" && w != "/" && under_dir_exact(p, w)
    })
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
        assert_eq!(normalize("~/..", None), "/home");
        // Two levels above home is the root, not home's sibling.
        assert_eq!(normalize("~/../../etc/shadow", None), "/etc/shadow");
        assert_eq!(normalize("~/../..", None), "/");
        assert_eq!(normalize("~/../v/x", None), "~/x");
        assert_eq!(word_path("~", false), "./~");
        assert_eq!(word_path(&format!("{HOME}/x"), false), "~/x");
        assert!(credential("~/.s*/id_*", None).is_some());
        assert!(credential(".env", None).is_some());
        assert!(credential("config/.env.production.local", None).is_some());
        assert!(credential(".env.example", None).is_none());
        assert!(credential(".env.sample", None).is_none());
        assert!(credential("src/credentials.rs", None).is_none());
        assert!(credential("./.ssh/deploy_key.pub", None).is_none());
        assert!(credential("HKLM\\SAM", None).is_some());
        assert!(catastrophic("~/Documents", None));
        assert!(catastrophic("/home/$USER", None));
        assert!(!catastrophic("build/", None));
        assert!(!catastrophic("/tmp/myproj-build-cache", None));
        assert!(catastrophic("/usr", None));
        assert!(system("/etc/hosts", None));
        assert!(!system("/tmp/x", None));
        assert!(!system("./etc/nginx", None));
        assert!(persistence(".git/hooks/pre-commit", None));
        assert!(persistence(
            "~/.local/lib/python3.12/site-packages/zz.pth",
            None
        ));
        assert!(app_state(
            "~/.local/share/jarvis/jarvis.db",
            None,
            "jarvis",
            &[]
        ));
        assert!(app_state("/usr/bin/jarvis-sandbox", None, "jarvis", &[]));
        // The plain-word shortcut gives what the whole normalisation gives
        // (`./w` takes the long way: it has a separator).
        for w in [
            "curl", "-fsSL", "main.c", "a..b", "x=1", "f=@y", "v1.2.3", "HOME", "Hk", "c", ".env",
        ] {
            assert!(plain_word(w) || w == "Hk", "{w}");
            assert_eq!(
                normalize(w, None),
                normalize(&format!("./{w}"), None),
                "{w}"
            );
        }
        assert!(!plain_word("HKCU") && !plain_word("c:x") && !plain_word("..") && !plain_word(""));
        assert!(glob_reaches("~/.*/jarvis.db", "~/.jarvis"));
        assert!(glob_reaches("~/.config/*/config.json", "~/.config/jarvis"));
        assert!(!glob_reaches("~/*/jarvis.db", "~/.jarvis"), "no dotglob");
        assert!(!glob_reaches("~/work/*.db", "~/.jarvis"));
        assert!(glob_match("id_*", "id_rsa"));
        assert!(!glob_match("~/*", "~/.netrc"), "no dotglob");
        assert!(glob_match("~/.*", "~/.netrc"));
        assert!(glob_match("[r]m", "rm"));
        assert!(!glob_match("*.pem", "a/b.pem"));
        assert!(glob_could_match_secret("*.pem"));
        assert!(!glob_could_match_secret("*.txt"));
        assert!(contains_credentials("~"));
        assert!(contains_credentials("~/.config"));
        assert!(!contains_credentials("~/Documents"));
        assert!(
            inside("src/../README.md", None) || inside(&normalize("src/../README.md", None), None)
        );
        assert!(!inside("../x", None));
        assert!(inside("~/proj/x", Some("~/proj")));
        assert!(device("/dev/sda") && device("/dev/nvme0n1") && !device("/dev/null"));
    }

    #[test]
    fn shortcuts_decide_as_the_table() {
        let patterns = [
            "*", "~/*", "*.pem", "id_*", "~/.ss?", "~/.*", "[ab]c", "a*b*c", "~/**", "*/x",
            ".e?v*", "[!.]*", "x[a-c]", "é*", "*é", "a]b*", "a[b", "**", "~/.ssh/*",
        ];
        let texts = [
            "",
            "a",
            "abc",
            "~/.ssh",
            "~/.ssh/id_rsa",
            "~/x",
            "x.pem",
            "a/b.pem",
            ".pem",
            "id_rsa",
            ".env",
            ".envrc",
            "bc",
            "xb",
            "ac",
            "é",
            "éa",
            "a]bc",
            "a[b",
            "~/.netrc",
            "aXbYc",
            "q/x",
            ".x/x",
        ];
        for p in patterns {
            for t in texts {
                for paths in [true, false] {
                    assert_eq!(
                        wildcard(p, t, paths),
                        table_match(p, t, paths),
                        "{p:?} {t:?} {paths}"
                    );
                }
            }
        }
        // Past the cap a match is assumed, by every path through the
        // matcher (and none recurses that deep).
        let long = format!("/{}/x.txt", "a".repeat(16_383));
        for p in ["*.pem", "/*[", "x", "/a*"] {
            assert!(wildcard(p, &long, true), "{p}");
        }
        assert!(wildcard(&"a".repeat(5000), "~/.ssh/id_rsa", true));
    }
}
