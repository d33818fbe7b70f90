//! Names that come from listing the project: `for f in $(git ls-files)`,
//! `find src -name '*.py' | while read -r f`, `wc -l $(git ls-files
//! '*.ts')`. What such a listing prints are paths below the working
//! directory, so a value taken from it, alone in its word, is read as one
//! of the project's files (the OS sandbox confines what a link inside may
//! point to).

use super::wrappers::peeled;
use super::*;

/// A literal path below where the command runs (`src`, `.`, `tests/unit`).
fn relative_inside(w: &Word) -> bool {
    !w.dynamic
        && !w.text.starts_with(['/', '~', '-', '$', HOME])
        && !w.text.split('/').any(|c| c == "..")
        && !w.text.contains(':')
}

/// A command printing paths below its working directory, one per line.
fn lists_project(argv: &[Word]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    let b = lower(&base_name(&first.text));
    let args = &argv[1..];
    let has = |f: &[&str]| args.iter().any(|w| f.iter().any(|x| w.text.starts_with(x)));
    let operands_inside = |skip_first: usize| {
        args.iter()
            .skip(skip_first)
            .filter(|w| !w.text.starts_with('-'))
            .all(relative_inside)
    };
    match b.as_str() {
        "git" => {
            let listing = match args.first().map(|w| w.text.as_str()) {
                Some("ls-files") => !has(&["--format"]),
                Some("diff") => has(&["--name-only"]),
                _ => false,
            };
            // Pathspecs below here (`git ls-files ..` prints `../x`).
            listing && operands_inside(1)
        }
        "find" => {
            // Starting points, then the expression.
            let starts: Vec<&Word> = args
                .iter()
                .take_while(|w| !w.text.starts_with(['-', '(', '!']))
                .collect();
            starts.iter().all(|w| relative_inside(w))
                && !has(&[
                    "-L", "-H", "-follow", "-printf", "-fprint", "-ls", "-fls", "-exec", "-ok",
                ])
        }
        "fd" | "fdfind" => {
            !has(&[
                "-a",
                "--absolute-path",
                "-L",
                "--follow",
                "-x",
                "-X",
                "--exec",
                "--base-directory",
                "--search-path",
                "--format",
            ]) && operands_inside(1)
        }
        "rg" => {
            has(&["--files", "-l", "--files-with-matches"])
                && !has(&["-L", "--follow", "--null-data"])
                && operands_inside(if has(&["--files"]) { 0 } else { 1 })
        }
        "ls" => {
            args.iter()
                .filter(|w| w.text.starts_with('-'))
                .all(|w| matches!(w.text.as_str(), "-1" | "-A" | "-d"))
                && operands_inside(0)
        }
        _ => false,
    }
}

/// A filter that passes whole lines of its input through (`grep '\.py$'`,
/// `sort`, `head`): its output is lines its producer printed.
fn passes_lines(argv: &[Word]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    let b = lower(&base_name(&first.text));
    let flags_ok = |bad: &[&str]| {
        argv[1..]
            .iter()
            .all(|w| !w.text.starts_with('-') || !bad.iter().any(|x| w.text.starts_with(x)))
    };
    // Only standard input: no file operands of their own.
    let stdin_only = |pattern: bool| {
        argv[1..]
            .iter()
            .filter(|w| !w.text.starts_with('-'))
            .count()
            <= usize::from(pattern)
    };
    match b.as_str() {
        "grep" | "egrep" | "fgrep" => {
            flags_ok(&["-o", "--only-matching", "-b", "-n", "-c", "-r", "-R", "-f"])
                && stdin_only(true)
        }
        "sort" | "uniq" | "head" | "tail" | "tac" | "shuf" | "cat" => {
            flags_ok(&["-c", "--count", "-o", "--output", "-z"]) && stdin_only(false)
        }
        _ => false,
    }
}

/// Indices of the commands of `script` whose output is project paths.
pub(super) fn project_listers(script: &Script) -> Vec<usize> {
    // A repository or work tree chosen elsewhere in the line (`export
    // GIT_WORK_TREE=~`) lists another place.
    let git_moved = script.commands.iter().any(|c| {
        c.assigns.iter().any(|(n, _)| n.starts_with("GIT_"))
            || c.argv.iter().any(|w| w.text.starts_with("GIT_"))
    });
    let mut out: Vec<usize> = Vec::new();
    for (i, c) in script.commands.iter().enumerate() {
        if !c.assigns.is_empty() || c.cwd.is_some() {
            continue;
        }
        let pa = peeled(&c.argv);
        if git_moved && pa.first().is_some_and(|w| base_name(&w.text) == "git") {
            continue;
        }
        let fed = c.stdin_from.is_some_and(|p| out.contains(&p));
        if lists_project(pa) || fed && passes_lines(pa) {
            out.push(i);
        }
    }
    out
}

impl Analyzer<'_> {
    /// A word that is one value taken from a listing of the project,
    /// possibly inside a literal folder of it (`"$f"`, `"src/$f"`,
    /// `$(git ls-files '*.ts')`).
    pub(super) fn listed_in_project(&self, w: &Word, cwd: Option<&str>) -> bool {
        cwd.is_none()
            && !w.subs.is_empty()
            && w.subs.iter().all(|i| self.listers.contains(i))
            && !w.text.starts_with(['/', '~', HOME])
            && !w.text.contains("..")
            && plain_expansion(&w.text)
    }
}

/// One expansion, taken as it is: `$f`, `${f}` or a `$(…)` ending the word,
/// with at most a literal folder before it (not `${f/a/b}`, `$f$g`).
fn plain_expansion(text: &str) -> bool {
    let Some(at) = text.find('$') else {
        return false;
    };
    let rest = &text[at + 1..];
    let ident = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if rest.starts_with('(') {
        return rest.ends_with(')') && rest.matches('$').count() == 0;
    }
    if let Some(inner) = rest.strip_prefix('{') {
        return inner.strip_suffix('}').is_some_and(ident)
            || inner
                .split_once('}')
                .is_some_and(|(n, tail)| ident(n) && !tail.contains('$'));
    }
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    name_len > 0 && !rest[name_len..].contains('$')
}
