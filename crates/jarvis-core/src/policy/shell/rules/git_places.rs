//! Where git's commands send or take the project: pushes of everything to a
//! new place, remotes and URLs, listings of refs, and what a tree-wide
//! reset or clean destroys.

use super::*;

/// Subcommands that throw away files in the work tree (untracked files,
/// uncommitted changes, the files themselves).
pub(super) fn destroys_tree(sub: &str, rest: &[String]) -> bool {
    let has = |f: &str| rest.iter().any(|x| x == f);
    let short = |ch: char| rest.iter().any(|x| short_has(x, ch));
    match sub {
        "clean" => short('f') || has("--force"),
        "reset" => has("--hard") || has("--merge") || has("--keep"),
        "checkout" | "switch" => {
            short('f') || has("--force") || has("--discard-changes") || has("--") || has(".")
        }
        "restore" | "rm" | "checkout-index" => true,
        "read-tree" => short('u') || has("--reset"),
        "stash" => rest.first().is_some_and(|x| x == "clear" || x == "drop"),
        _ => false,
    }
}

impl Analyzer<'_> {
    /// `git push --all|--mirror DEST` where DEST is a URL, or a remote this
    /// line added or pointed elsewhere: the whole repository leaves for a
    /// place nobody chose before this command.
    pub(super) fn pushes_all_to_new_place(&self, rest: &[String], c: &Cmd<'_>) -> bool {
        // A stash holds untracked and ignored files (`stash push --all`).
        let everything = rest.iter().any(|x| {
            matches!(x.as_str(), "--all" | "--mirror" | "--branches")
                // A glob refspec (`refs/heads/*:refs/heads/*`): every branch.
                || x.contains("refs/") && x.contains('*') && !x.starts_with('-')
                || (x.contains("refs/stash") || x.starts_with("stash@{")) && !x.starts_with('-')
        });
        // With no destination, git pushes to the branch's remote: `origin`
        // unless the line says otherwise.
        let dest = rest
            .iter()
            .find(|x| !x.starts_with('-'))
            .map_or("origin", String::as_str);
        // Only the push address moved (`set-url --push`, `remote.X.pushurl`):
        // fetches still show the old place while every push goes elsewhere.
        let push_only_moved = c.script.commands.iter().any(|k| {
            let words: Vec<&str> = peeled(&k.argv).iter().map(|w| w.text.as_str()).collect();
            let git = words.first().is_some_and(|w| base_name(w) == "git");
            // To a forge or the local network it is a fork's or a mirror's
            // workflow; to anywhere else it is a leak.
            let far = last_far_host(&words).is_some();
            let set_url = words.windows(2).any(|p| p == ["remote", "set-url"])
                && words.contains(&"--push")
                && words.contains(&dest);
            let pushurl = words.contains(&"config")
                && words
                    .iter()
                    .any(|w| lower(w) == format!("remote.{}.pushurl", lower(dest)));
            git && (set_url || pushurl) && far
        });
        if push_only_moved {
            return true;
        }
        if !everything {
            return false;
        }
        if dest.contains("://") || dest.contains('@') && dest.contains(':') {
            return true;
        }
        c.script.commands.iter().any(|k| {
            // Past `env`, `timeout`, `nohup`…: the git they start.
            let words: Vec<&str> = peeled(&k.argv).iter().map(|w| w.text.as_str()).collect();
            if words.is_empty() {
                return false;
            }
            let Some(at) = words.iter().position(|w| *w == "remote") else {
                return false;
            };
            base_name(words[0]) == "git"
                && matches!(words.get(at + 1), Some(&"add") | Some(&"set-url"))
                && words[at + 2..]
                    .iter()
                    .find(|w| !w.starts_with('-'))
                    .is_some_and(|n| *n == dest)
        })
    }
}

/// `git branch`/`git tag` arguments that only list: listing flags, and the
/// commit after a filter that takes one (`--contains HEAD`).
pub(super) fn lists_refs(rest: &[String]) -> bool {
    let mut takes_commit = false;
    // `--list PATTERN…`: the words are patterns, not names to create.
    let listing = rest.iter().any(|x| x == "--list" || x == "-l");
    rest.iter().all(|x| {
        if std::mem::take(&mut takes_commit) && !x.starts_with('-') {
            return true;
        }
        if listing && (x == "--list" || x == "-l" || !x.starts_with('-')) {
            return true;
        }
        takes_commit = matches!(
            x.as_str(),
            "--contains" | "--no-contains" | "--merged" | "--no-merged" | "--points-at"
        );
        matches!(
            x.as_str(),
            "-a" | "--all"
                | "-r"
                | "--remotes"
                | "-v"
                | "-vv"
                | "--verbose"
                | "--show-current"
                | "--column"
                | "--no-column"
                | "--color"
                | "--no-color"
                | "-i"
                | "--ignore-case"
                | "--contains"
                | "--no-contains"
                | "--merged"
                | "--no-merged"
                | "--points-at"
        ) || x.starts_with("--sort=")
            || x.starts_with("--format=")
            || x.starts_with("--contains=")
            || x.starts_with("--merged=")
            || x.starts_with("--points-at=")
            || x.starts_with("--color=")
    }) && !rest.is_empty()
}

/// `git remote`, `-v`, `show [-n] NAME`, `get-url [--push|--all] NAME`:
/// the remotes' names and addresses (a `show` without `-n` asks the remote
/// for its branches, a read).
pub(super) fn remote_reads(rest: &[String]) -> bool {
    let ops: Vec<&str> = rest
        .iter()
        .filter(|x| !x.starts_with('-'))
        .map(String::as_str)
        .collect();
    let flags: Vec<&str> = rest
        .iter()
        .filter(|x| x.starts_with('-'))
        .map(String::as_str)
        .collect();
    let flags_ok = flags
        .iter()
        .all(|f| matches!(*f, "-v" | "--verbose" | "-n" | "--push" | "--all"));
    // A remote's name, not a URL (`show https://host/x.git` asks a host
    // this repository never named).
    let names = |xs: &[&str]| {
        xs.iter().all(|x| {
            x.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "._-".contains(ch))
        })
    };
    flags_ok
        && match ops.as_slice() {
            [] => true,
            // `show NAME` asks the remote for its branches, unless `-n`.
            ["show"] => true,
            ["show", rest @ ..] => names(rest) && flags.contains(&"-n"),
            ["get-url", name] => names(&[name]),
            _ => false,
        }
}

impl Analyzer<'_> {
    /// Where a subcommand sends pushes, puts a work tree or finds a
    /// program: `remote set-url --push` to another host, `worktree add`
    /// outside the project, `send-email --smtp-server=/path`.
    pub(super) fn git_places(&mut self, sub: &str, rest: &[String], c: &Cmd<'_>) {
        let words: Vec<&str> = rest.iter().map(String::as_str).collect();
        match sub {
            "remote" if words.first() == Some(&"set-url") && words.contains(&"--push") => {
                if let Some(h) = last_far_host(&words) {
                    self.block(format!(
                        "exfiltration (git remote set-url --push sends every later push to {h} while fetches still show the remote)"
                    ));
                }
            }
            "worktree" if words.first() == Some(&"add") => {
                let path = rest[1..]
                    .iter()
                    .enumerate()
                    .find(|(i, w)| {
                        !(w.starts_with('-')
                            || *i > 0 && matches!(rest[*i].as_str(), "-b" | "-B" | "--reason"))
                    })
                    .map(|(_, w)| w.clone());
                if let Some(p) = path {
                    let w = super::script_opts::expanded(&p);
                    self.write_path(&w, c.cwd(), "git worktree add");
                }
            }
            "send-email" => {
                for v in super::script_opts::values(c, &["--smtp-server"]) {
                    if v.text.starts_with(['/', '.', '~', HOME]) {
                        self.script(&shell_quote_word(&v.text), &[], c.depth + 1);
                        self.ask("git send-email runs a program as its mail server");
                    }
                }
            }
            _ => {}
        }
    }
}

/// The host of the last address among `words` (`https://…`, `user@host:…`)
/// when it is another machine's, not a forge's or the local network's.
pub(super) fn last_far_host(words: &[&str]) -> Option<String> {
    let u = words
        .iter()
        .rev()
        .find(|w| w.contains("://") || w.contains('@'))?;
    super::project_out::far_host(u.split_once("://").map_or(*u, |(_, r)| r))
}

/// A path as the one word of a command line.
pub(super) fn shell_quote_word(p: &str) -> String {
    crate::policy::shell::quote(&p.replace(HOME, "~"))
}

/// A setting before git that only changes how its report looks.
pub(super) fn display_setting(name: &str, value: &str) -> bool {
    matches!(
        name,
        "LANG"
            | "LANGUAGE"
            | "TZ"
            | "NO_COLOR"
            | "TERM"
            | "COLUMNS"
            | "LINES"
            | "GIT_TERMINAL_PROMPT"
            | "GIT_OPTIONAL_LOCKS"
    ) || name.starts_with("LC_")
        || matches!(name, "GIT_PAGER" | "PAGER") && matches!(value, "" | "cat")
}

/// A variable that changes which config git reads or what it runs.
fn git_relevant(name: &str) -> bool {
    matches!(
        name,
        "HOME" | "XDG_CONFIG_HOME" | "PATH" | "PAGER" | "EDITOR" | "VISUAL"
    ) || ["GIT_", "LESS", "LD_", "SSH_"]
        .iter()
        .any(|p| name.starts_with(p))
}

/// Such a variable given to git by `env NAME=…` before it, or exported
/// anywhere on the line (`export HOME=…; git status`, `set -a`).
pub(super) fn exports_git_setting(c: &Cmd<'_>) -> bool {
    let named = |w: &Word| {
        w.text
            .split_once('=')
            .is_some_and(|(n, v)| git_relevant(n) && !display_setting(n, v))
    };
    let before_program = c.src.argv.iter().take_while(|w| w.text != c.words[0].text);
    let all_exported = c.script.commands.iter().any(|k| {
        k.argv.first().is_some_and(|w| w.text == "set") && k.argv.iter().any(|w| w.text == "-a")
    });
    // A `cd` whose place is not written out (`cd -`, `cd $TMPDIR`).
    let moved_unseen = c.script.commands.iter().any(|k| {
        let first = k
            .argv
            .first()
            .map(|w| program_name(&w.text))
            .unwrap_or_default();
        matches!(first.as_str(), "cd" | "pushd" | "popd")
            && (k.argv.len() < 2 && first != "cd"
                || k.argv.iter().skip(1).any(|w| w.dynamic || w.text == "-"))
    });
    // (HOME and PATH are exported already: a plain assignment reaches git.)
    let plain = c.script.commands.iter().any(|k| {
        k.argv.is_empty()
            && k.assigns
                .iter()
                .any(|(n, v)| git_relevant(n) && !display_setting(n, &v.text))
    });
    moved_unseen
        || plain
        || before_program.clone().any(named)
        || c.script.commands.iter().any(|k| {
            let first = k
                .argv
                .first()
                .map(|w| program_name(&w.text))
                .unwrap_or_default();
            matches!(
                first.as_str(),
                "export" | "declare" | "typeset" | "setenv" | "env"
            ) && k.argv.iter().skip(1).any(named)
                || (all_exported || k.declares)
                    && k.assigns
                        .iter()
                        .any(|(n, v)| git_relevant(n) && !display_setting(n, &v.text))
        })
}
