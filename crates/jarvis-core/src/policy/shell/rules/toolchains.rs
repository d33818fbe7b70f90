//! Toolchains asked about the project, not told to change it: `go env`,
//! `gofmt -l`, `cargo metadata --no-deps`, `cargo tree --frozen`.

use super::*;

impl Analyzer<'_> {
    /// `go env [-json] [NAME…]` prints settings; `gofmt` without `-w`
    /// prints what it would change. `None` for anything else.
    pub(super) fn go_inspects(&mut self, c: &Cmd<'_>) -> Option<bool> {
        if c.words[0].text.contains('/') {
            return None;
        }
        match c.lb.as_str() {
            "go" if c.args.first().is_some_and(|x| x == "env") => Some(
                c.args[1..]
                    .iter()
                    .all(|x| x == "-json" || !x.starts_with('-') && !x.contains('=')),
            ),
            "cargo" => self.cargo_inspects(c),
            "apt-cache" | "apt" | "dpkg" | "dpkg-query" => {
                Some(packages_inspect(&c.lb, &c.args)).filter(|read_only| *read_only)
            }
            "gofmt" | "clang-format"
                if c.args
                    .iter()
                    .all(|x| prints_only(&c.lb, x) || !x.starts_with('-')) =>
            {
                let mut harmless = true;
                for w in c.operand_words() {
                    harmless &= self.read_path(&w, c.cwd());
                }
                Some(harmless)
            }
            _ => None,
        }
    }

    /// `cargo metadata --no-deps`, `cargo tree --frozen`: what cargo reads
    /// of the project, nothing fetched, nothing built, the lock file kept.
    /// Without `--no-deps` or `--locked` cargo may rewrite Cargo.lock, and
    /// online it may fetch the index: those ask like any other cargo run.
    fn cargo_inspects(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let sub = c.args.first()?.as_str();
        let rest = &c.args[1..];
        let has = |f: &str| rest.iter().any(|x| x == f);
        let offline = has("--frozen") || has("--offline") && has("--locked");
        let settled = match sub {
            "metadata" => has("--no-deps") || offline,
            "tree" => offline || has("--offline"),
            "locate-project" | "verify-project" => true,
            _ => return None,
        };
        if !settled {
            return None;
        }
        // Flags that only choose what is printed, and the manifest read.
        const SHOWS: &[&str] = &[
            "--no-deps",
            "--frozen",
            "--offline",
            "--locked",
            "-q",
            "--quiet",
            "-d",
            "--duplicates",
            "--workspace",
            "--all-features",
            "--no-default-features",
            "--no-dedupe",
            "--prefix",
            "--charset",
            "-e",
            "--edges",
            "-i",
            "--invert",
            "-p",
            "--package",
            "--depth",
            "--format-version",
            "--features",
            "-F",
            "--target",
            "--color",
            "--message-format",
            "--manifest-path",
            "--format",
            "-f",
            "--all-targets",
            "--plain",
        ];
        let mut harmless = true;
        let mut i = 1;
        while i < c.args.len() {
            let a = c.args[i].as_str();
            let (flag, inline) = a.split_once('=').map_or((a, false), |(f, _)| (f, true));
            if !a.starts_with('-') {
                // Values of the flags below (`-p serde`, `--depth 1`).
                i += 1;
                continue;
            }
            if !SHOWS.contains(&flag) {
                return None;
            }
            if flag == "--manifest-path" {
                let path = if inline {
                    Some(Word::lit(a.split_once('=').map_or("", |(_, v)| v)))
                } else {
                    c.arg_word(i + 1).cloned()
                };
                match path {
                    Some(p) => harmless &= self.read_path(&p, c.cwd()),
                    None => return None,
                }
            }
            i += 1;
        }
        Some(harmless)
    }
}

/// Queries of the local package database (`apt-cache policy X`, `dpkg -L
/// X`, `dpkg-query -W -f FMT`): they read /var/lib/dpkg and apt's cache,
/// and change nothing. Options that point apt at other settings
/// (`-o`, `-c`) or dpkg at another database are not queries.
fn packages_inspect(lb: &str, args: &[String]) -> bool {
    // A dpkg-query output format is text, not a file, wherever it stands
    // (`dpkg-query -f '${Package}\n' -W`).
    let mut kept: Vec<&str> = Vec::with_capacity(args.len());
    let mut words = args.iter().map(String::as_str);
    while let Some(a) = words.next() {
        match a {
            "-f" | "--showformat" if lb == "dpkg-query" => {
                words.next();
            }
            x if lb == "dpkg-query" && (x.starts_with("--showformat=") || x.starts_with("-f")) => {}
            x => kept.push(x),
        }
    }
    let Some((&first, rest)) = kept.split_first() else {
        return false;
    };
    let query = match lb {
        "apt-cache" => matches!(
            first,
            "policy"
                | "show"
                | "showpkg"
                | "showsrc"
                | "depends"
                | "rdepends"
                | "search"
                | "madison"
                | "pkgnames"
                | "stats"
        ),
        "apt" => matches!(
            first,
            "list" | "show" | "search" | "policy" | "depends" | "rdepends"
        ),
        _ => matches!(
            first,
            "-l" | "--list"
                | "-s"
                | "--status"
                | "-L"
                | "--listfiles"
                | "-S"
                | "--search"
                | "-W"
                | "--show"
                | "--get-selections"
                | "--print-architecture"
        ),
    };
    let plain = rest.iter().all(|x| {
        matches!(
            *x,
            "--installed"
                | "--upgradable"
                | "--all-versions"
                | "--no-all-versions"
                | "--names-only"
                | "--full"
                | "--recurse"
                | "-n"
                | "-f"
                | "-a"
        ) || !x.starts_with('-')
    });
    query && plain
}

/// A formatter's flags that only choose what it prints: without `-w`
/// (gofmt) or `-i` (clang-format) the files are read, never rewritten.
/// clang-format's `--style=file:PATH` names another file to read: it asks
/// rather than be judged as a second kind of operand.
fn prints_only(program: &str, flag: &str) -> bool {
    match program {
        "gofmt" => matches!(flag, "-l" | "-d" | "-e" | "-s"),
        "clang-format" => {
            matches!(
                flag,
                "-n" | "--dry-run"
                    | "--Werror"
                    | "--dump-config"
                    | "--version"
                    | "--verbose"
                    | "--output-replacements-xml"
                    | "--sort-includes"
            ) || [
                "--style=",
                "--fallback-style=",
                "--assume-filename=",
                "--ferror-limit=",
            ]
            .iter()
            .any(|p| flag.starts_with(p) && !flag.contains(':') && !flag.contains('/'))
        }
        _ => false,
    }
}
