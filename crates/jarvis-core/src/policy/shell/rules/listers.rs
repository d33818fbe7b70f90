//! Names that come from listing the project: `git ls-files '*.py' | while
//! read -r f; do …; done`. Such a listing prints tracked paths below the
//! working directory, one per line, and its patterns keep secrets' names
//! out; a whole line of it, alone in its word, is read as one of the
//! project's files (the OS sandbox confines what a link inside may point
//! to). Names split out of `$(…)`, `find`'s raw names and fields of a line
//! are text a file's name can forge, and stay unknown.

use super::wrappers::peeled;
use super::*;

/// `git ls-files` narrowed by pathspecs that no secret's name matches
/// (`'*.py'`, `'src/*.rs'`): every line one tracked path below here (git
/// quotes a name holding a newline), never `..`, never absolute, never a
/// `.env` or a key.
fn lists_project(argv: &[Word]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    if lower(&base_name(&first.text)) != "git" || argv.get(1).is_none_or(|w| w.text != "ls-files") {
        return false;
    }
    let rest = &argv[2..];
    let flags_ok = rest.iter().filter(|w| w.text.starts_with('-')).all(|w| {
        matches!(
            w.text.as_str(),
            "-c" | "--cached"
                | "-m"
                | "--modified"
                | "-o"
                | "--others"
                | "--exclude-standard"
                | "--"
        )
    });
    let specs: Vec<&Word> = rest.iter().filter(|w| !w.text.starts_with('-')).collect();
    flags_ok
        && !specs.is_empty()
        && specs.iter().all(|w| {
            let t = w.text.as_str();
            let base = t.rsplit('/').next().unwrap_or(t);
            !w.dynamic
                && t.contains('*')
                && !t.starts_with(['/', '~', ':', HOME])
                && !t.contains("..")
                && !paths::glob_could_match_secret(base)
        })
}

/// `git ls-files` with any listing options and pathspecs below here: its
/// lines are places in the project (a delete of one asks), whatever their
/// names hold.
fn lists_project_places(argv: &[Word]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    if lower(&base_name(&first.text)) != "git" || argv.get(1).is_none_or(|w| w.text != "ls-files") {
        return false;
    }
    argv[2..].iter().all(|w| {
        let t = w.text.as_str();
        !w.dynamic
            && if t.starts_with('-') {
                matches!(
                    t,
                    "-c" | "--cached"
                        | "-m"
                        | "--modified"
                        | "-o"
                        | "--others"
                        | "-d"
                        | "--deleted"
                        | "-i"
                        | "--ignored"
                        | "--exclude-standard"
                        | "--directory"
                        | "--"
                )
            } else {
                !t.starts_with(['/', '~', ':', HOME]) && !t.contains("..")
            }
    })
}

/// A filter passing whole lines of its input through, by an exact list of
/// options (`grep -v test`, `sort -u`, `head -n 20`), reading only the pipe.
fn passes_lines(c: &Command, argv: &[Word]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    if !c.redirects.is_empty() {
        return false;
    }
    let b = lower(&base_name(&first.text));
    let words: Vec<&str> = argv[1..].iter().map(|w| w.text.as_str()).collect();
    let operands = words.iter().filter(|w| !w.starts_with('-')).count();
    let flags = |ok: &[&str]| {
        words
            .iter()
            .filter(|w| w.starts_with('-'))
            .all(|w| ok.contains(w))
    };
    match b.as_str() {
        "grep" | "egrep" | "fgrep" => flags(&["-v", "-i", "-E", "-F", "-x"]) && operands == 1,
        "sort" => flags(&["-u", "-r"]) && operands == 0,
        "uniq" | "tac" | "cat" => words.is_empty(),
        "head" | "tail" => {
            matches!(words.as_slice(), [] | ["-n", _])
                && words
                    .get(1)
                    .is_none_or(|n| n.chars().all(|c| c.is_ascii_digit()))
        }
        _ => false,
    }
}

/// Indices of the commands of `script` whose output is project paths.
pub(super) fn project_listers(script: &Script) -> Vec<usize> {
    listers_by(script, lists_project)
}

/// Indices of the commands of `script` whose output is places in the project.
pub(super) fn place_listers(script: &Script) -> Vec<usize> {
    listers_by(script, lists_project_places)
}

fn listers_by(script: &Script, lists: fn(&[Word]) -> bool) -> Vec<usize> {
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
        if lists(pa) || fed && passes_lines(c, pa) {
            out.push(i);
        }
    }
    out
}

impl Analyzer<'_> {
    /// A word that is one line of a listing of the project's files read
    /// for their content (`"$f"`, `"src/$f"`).
    pub(super) fn listed_in_project(&self, w: &Word, cwd: Option<&str>) -> bool {
        line_of(w, cwd, &self.listers)
    }

    /// As [`Self::listed_in_project`], for a place: a line of any listing
    /// of the project's files.
    pub(super) fn placed_by_listing(&self, w: &Word, cwd: Option<&str>) -> bool {
        line_of(w, cwd, &self.place_listers)
    }
}

/// `w` is a whole line of what one of `listers` printed, alone in its word
/// or inside a literal folder, where the line runs (no `cd` before).
fn line_of(w: &Word, cwd: Option<&str>, listers: &[usize]) -> bool {
    cwd.is_none()
        && w.line
        && !w.subs.is_empty()
        && w.subs.iter().all(|i| listers.contains(i))
        && !w.text.starts_with(['/', '~', HOME])
        && !w.text.contains("..")
        && plain_expansion(&w.text)
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
        // `"${lines[@]}"`: each element one whole line (quoted, or it was
        // no longer a line).
        let element = |s: &str| {
            s.strip_suffix("[@]")
                .or_else(|| {
                    s.strip_suffix(']')
                        .and_then(|x| x.split_once('['))
                        .map(|(n, _)| n)
                })
                .is_some_and(ident)
        };
        return inner
            .strip_suffix('}')
            .is_some_and(|n| ident(n) || element(n))
            || inner
                .split_once('}')
                .is_some_and(|(n, tail)| ident(n) && !tail.contains('$'));
    }
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    name_len > 0 && !rest[name_len..].contains('$')
}
