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
    if program_name(&first.text) == "find" {
        return finds_project_files(&argv[1..]);
    }
    if program_name(&first.text) != "git" || argv.get(1).is_none_or(|w| w.text != "ls-files") {
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

/// `find src tests -name '*.py' -print0`: NUL-ended records (a name's new
/// line cannot split one), each a path below a literal folder of the
/// project, its name matching patterns no secret's name matches; links
/// not followed. Tests are an exact list of ones that only narrow.
fn finds_project_files(args: &[Word]) -> bool {
    let roots = args
        .iter()
        .take_while(|w| !w.text.starts_with('-') && !matches!(w.text.as_str(), "(" | "!"))
        .count();
    if !args[..roots].iter().all(|w| below_project(w) && !w.glob) {
        return false;
    }
    // Branches joined by `-o`: each but the last is pruned away, and the
    // last names what is printed (no negation or grouping to follow).
    let tests = &args[roots..];
    let branches: Vec<&[Word]> = tests
        .split(|w| matches!(w.text.as_str(), "-o" | "-or"))
        .collect();
    let Some((last, pruned)) = branches.split_last() else {
        return false;
    };
    if !pruned
        .iter()
        .all(|b| b.last().is_some_and(|w| w.text == "-prune"))
    {
        return false;
    }
    let mut named = false;
    let mut print0 = false;
    let mut i = 0;
    while let Some(w) = last.get(i) {
        let next = last.get(i + 1);
        match w.text.as_str() {
            "-name" | "-iname" => {
                let Some(pat) = next.filter(|p| !p.dynamic) else {
                    return false;
                };
                // find reads `\.env` as `.env`, and `-iname` ignores case.
                let mut p = pat.text.replace('\\', "");
                if w.text == "-iname" {
                    p = p.to_lowercase();
                }
                if paths::glob_could_match_secret(&p) {
                    return false;
                }
                named = true;
                i += 2;
            }
            "-path" | "-ipath" | "-maxdepth" | "-mindepth" | "-type" | "-newer" | "-mtime"
            | "-mmin" | "-size" | "-perm" | "-user" => {
                if next.is_none() {
                    return false;
                }
                i += 2;
            }
            "-print0" => {
                print0 = true;
                i += 1;
            }
            "-a" | "-and" | "-xdev" | "-empty" => i += 1,
            // `-not -name '*.d.ts'`: one test left out narrows further (a
            // negated group is not followed).
            "!" | "-not"
                if next.is_some_and(|n| {
                    matches!(n.text.as_str(), "-name" | "-iname" | "-path" | "-ipath")
                }) && last.get(i + 2).is_some() =>
            {
                i += 3
            }
            _ => return false,
        }
    }
    named && print0
}

/// A literal path that stays below the project: relative, and never
/// climbing out of it.
fn below_project(w: &Word) -> bool {
    let t = w.text.as_str();
    !w.dynamic && !t.starts_with(['/', '~', HOME]) && !t.split('/').any(|c| c == "..")
}

/// `git ls-files` with any listing options and pathspecs below here: its
/// lines are places in the project (a delete of one asks), whatever their
/// names hold.
fn lists_project_places(argv: &[Word]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    // `ls -1t ./backups/*.tgz`, `find build -name '*.o'`: below a literal
    // folder of the project (a name's new line can only forge a bare name,
    // here too).
    match program_name(&first.text).as_str() {
        "ls" => {
            return argv[1..].iter().all(|w| {
                if w.text.starts_with('-') {
                    !w.text.contains('R') && !w.text.starts_with("--")
                } else {
                    below_project(w)
                }
            });
        }
        "find" => {
            let roots: Vec<&Word> = argv[1..]
                .iter()
                .take_while(|w| !w.text.starts_with('-') && !matches!(w.text.as_str(), "(" | "!"))
                .collect();
            return roots.iter().all(|w| below_project(w) && !w.glob)
                && !argv.iter().any(|w| {
                    matches!(w.text.as_str(), "-L" | "-follow" | "-H")
                        || w.text.starts_with("-exec")
                        || w.text.starts_with("-ok")
                        || w.text.starts_with("-fprint")
                        || w.text.starts_with("-printf")
                        || matches!(w.text.as_str(), "-delete" | "-fls" | "-ls")
                });
        }
        _ => {}
    }
    if program_name(&first.text) != "git" || argv.get(1).is_none_or(|w| w.text != "ls-files") {
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
    let b = program_name(&first.text);
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
                && words.get(1).is_none_or(|n| {
                    let n = n.strip_prefix('+').unwrap_or(n);
                    !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
                })
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

/// Indices of the commands of `script` that list a whole system or home,
/// or a system folder's top (`ls -d /*`, `find ~ -maxdepth 1`, `ls /etc`),
/// and of the filters passing their lines on.
pub(super) fn machine_listers(script: &Script) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for (i, c) in script.commands.iter().enumerate() {
        let pa = peeled(&c.argv);
        let args = pa.get(1..).unwrap_or(&[]);
        let lister = pa.first().is_some_and(|w| {
            matches!(
                program_name(&w.text).as_str(),
                "ls" | "find" | "fd" | "du" | "tree" | "echo" | "printf"
            )
        });
        // No folder named: where it runs (on another machine, the login's
        // home when no `cd` came first).
        let here = args.iter().all(|w| w.text.starts_with('-'))
            && c.cwd.as_deref().is_none_or(paths::wipes_a_machine);
        let lists = lister
            && (here
                || args.iter().any(|w| {
                    let t = w.text.replace(HOME, "~");
                    let t = t.strip_suffix("/*").unwrap_or(&t);
                    !t.starts_with('-')
                        && (paths::wipes_a_machine(t)
                            || paths::system_tree_elsewhere(t)
                            || t.is_empty())
                }));
        let fed = c.stdin_from.is_some_and(|p| out.contains(&p));
        if lists || fed && passes_lines(c, pa) {
            out.push(i);
        }
    }
    out
}

/// Indices of the commands of `script` that search for secrets by name
/// (`find . -name '.env*'`, `git ls-files '*.pem'`, `fd -e key`), and of
/// the filters passing their lines on: what they print is a list of
/// secrets' paths.
pub(super) fn secret_finders(script: &Script) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for (i, c) in script.commands.iter().enumerate() {
        let pa = peeled(&c.argv);
        let fed = c.stdin_from.is_some_and(|p| out.contains(&p));
        let filters_secrets = c.stdin_from.is_some() && grep_secret_pattern(pa).is_some();
        if searches_secrets(pa) || filters_secrets || fed && passes_lines(c, pa) {
            out.push(i);
        }
    }
    out
}

/// A filter of names whose pattern aims at secrets (`grep -E
/// '^\\.env(\\..+)?$'`, `grep key`): its longest literal run read as a
/// name, anywhere in a file's name.
pub(super) fn grep_secret_pattern(argv: &[Word]) -> Option<String> {
    let first = argv.first()?;
    if !matches!(
        program_name(&first.text).as_str(),
        "grep" | "egrep" | "fgrep" | "rg"
    ) {
        return None;
    }
    let words: Vec<&str> = argv[1..].iter().map(|w| w.text.as_str()).collect();
    if words.iter().any(|w| matches!(*w, "-v" | "--invert-match")) {
        return None;
    }
    let pattern = words
        .windows(2)
        .find_map(|w| matches!(w[0], "-e" | "--regexp").then_some(w[1]))
        .or_else(|| words.iter().find(|w| !w.starts_with('-')).copied())?;
    let plain = pattern.replace('\\', "");
    let run = plain
        .split(|ch: char| !(ch.is_ascii_alphanumeric() || "._-".contains(ch)))
        .max_by_key(|r| r.len())?
        .to_lowercase();
    let run = run.trim_end_matches('.');
    // (A name with its leading dot spelled matches hidden files: `.env*`.)
    let any = if run.starts_with('.') {
        format!("{run}*")
    } else {
        format!("*{run}*")
    };
    let hidden = format!(".{any}");
    (run.len() > 2
        && [run, any.as_str(), hidden.as_str()]
            .iter()
            .any(|p| paths::glob_aims_at_secret(p)))
    .then_some(any)
}

/// A search whose name patterns aim at secrets; negated ones (`! -name
/// '*.key'`) leave them out.
pub(super) fn searches_secrets(argv: &[Word]) -> bool {
    secret_pattern(argv).is_some()
}

/// The name pattern of a search that aims at secrets, as a wildcard on a
/// file's name (`.env*`, `*.pem`).
pub(super) fn secret_pattern(argv: &[Word]) -> Option<String> {
    let first = argv.first()?;
    let words: Vec<&str> = argv.iter().map(|w| w.text.as_str()).collect();
    // find reads `\\.env` as `.env`; `-iname` ignores case.
    let base = |pat: &str| {
        pat.rsplit('/')
            .next()
            .unwrap_or(pat)
            .replace('\\', "")
            .to_lowercase()
    };
    let aims = |pat: &str| paths::glob_aims_at_secret(&base(pat));
    match program_name(&first.text).as_str() {
        "find" => words.windows(2).enumerate().find_map(|(k, w)| {
            (matches!(
                w[0],
                "-name" | "-iname" | "-path" | "-ipath" | "-wholename" | "-iwholename"
            ) && !(k > 0 && matches!(words[k - 1], "!" | "-not"))
                && aims(w[1]))
            .then(|| base(w[1]))
        }),
        "fd" | "fdfind" => words
            .windows(2)
            .find_map(|w| {
                if matches!(w[0], "-e" | "--extension") && aims(&format!("x.{}", w[1])) {
                    Some(format!("*.{}", w[1]))
                } else if matches!(w[0], "-g" | "--glob") && aims(w[1]) {
                    Some(base(w[1]))
                } else {
                    None
                }
            })
            .or_else(|| {
                let x = words.iter().skip(1).find(|x| !x.starts_with('-'))?;
                let any = format!("*{x}*");
                (aims(x) || x.len() > 2 && aims(&any)).then_some(any)
            }),
        "git" if words.get(1) == Some(&"ls-files") => words[2..]
            .iter()
            .find(|x| !x.starts_with('-') && aims(x))
            .map(|x| base(x)),
        "locate" | "plocate" | "mlocate" => words
            .iter()
            .skip(1)
            .find(|x| !x.starts_with('-') && aims(x))
            .map(|x| base(x)),
        _ => None,
    }
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
        // (A filter keeping secrets' names makes a list of secrets.)
        if lists(pa) || fed && passes_lines(c, pa) && grep_secret_pattern(pa).is_none() {
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

    /// `wc -l $(git ls-files '*.go')`: the words of a project listing,
    /// split by the shell. A name with a blank may split into a path
    /// outside the project, which only a program that prints counts or
    /// metadata (never the content) may be handed without asking.
    pub(super) fn counted_listing(&self, w: &Word, cwd: Option<&str>, program: &str) -> bool {
        matches!(program, "wc" | "du" | "stat" | "ls")
            && cwd.is_none()
            && !w.subs.is_empty()
            && w.subs.iter().all(|i| self.listers.contains(i))
            && w.text.starts_with("$(")
            && plain_expansion(&w.text)
    }

    /// As [`Self::listed_in_project`], for a place: a line of any listing
    /// of the project's files.
    pub(super) fn placed_by_listing(&self, w: &Word, cwd: Option<&str>) -> bool {
        line_of(w, cwd, &self.place_listers)
    }

    /// A word whose value comes from a search for secrets by name.
    pub(super) fn found_by_secret_search(&self, w: &Word) -> bool {
        w.subs.iter().any(|i| self.secret_finders.contains(i))
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
