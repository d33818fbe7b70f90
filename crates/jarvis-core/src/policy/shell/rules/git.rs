//! git: read-only subcommands run without asking; configuration that names
//! a program (pagers, editors, hooks, aliases, filters, transports) is
//! analysed as the program it runs.

use super::git_places::*;
use super::git_settings::config_from_env;
use super::*;

const READS: &[&str] = &[
    "status",
    "log",
    "diff",
    "show",
    "blame",
    "rev-parse",
    "ls-files",
    "ls-tree",
    "cat-file",
    "describe",
    "shortlog",
    "grep",
    "rev-list",
    "whatchanged",
    "reflog",
    "show-ref",
    "for-each-ref",
    "merge-base",
    "name-rev",
    "count-objects",
    "version",
    "help",
    "check-ignore",
    "annotate",
    "var",
    "cherry",
    "range-diff",
    "verify-commit",
    "verify-tag",
    "check-attr",
    "check-ref-format",
    "fsck",
    "get-tar-commit-id",
    "show-branch",
];

impl Analyzer<'_> {
    pub(super) fn git(&mut self, c: &Cmd<'_>) -> bool {
        self.proxied_past_tls(c);
        let args = &c.args;
        let mut i = 0;
        let mut sub: Option<usize> = None;
        let mut read_only = true;
        // Where the work tree is: `-C` and `--work-tree` move it; `None`
        // when a move cannot be read.
        let mut tree: Option<String> = Some(self.norm_text(".", c.cwd()));
        for (name, w) in c.assigns.iter() {
            if name == "GIT_WORK_TREE" || name == "GIT_DIR" {
                tree = (!w.dynamic).then(|| self.norm(w, c.cwd()));
            } else if !super::git_places::display_setting(name, &w.text) {
                // `HOME=D`, `XDG_CONFIG_HOME=D`, `GIT_CONFIG_GLOBAL=F`:
                // another config file, whose settings run programs
                // (`core.fsmonitor`, `core.pager`, `diff.external`).
                read_only = false;
            }
        }
        while i < args.len() {
            let x = args[i].as_str();
            if x == "-c" || x == "--config-env" || x.starts_with("--config-env=") {
                let (kv, step) = match x.strip_prefix("--config-env=") {
                    Some(kv) => (Some(kv.to_string()), 1),
                    None => (args.get(i + 1).cloned(), 2),
                };
                if let Some(kv) = kv {
                    let kv = if x == "-c" {
                        kv
                    } else {
                        config_from_env(&kv, c)
                    };
                    read_only &= self.git_setting(&kv, c, false);
                }
                i += step;
                continue;
            }
            if let Some(p) = x
                .strip_prefix("--exec-path=")
                .or_else(|| x.strip_prefix("--upload-pack="))
                .or_else(|| x.strip_prefix("--receive-pack="))
            {
                self.script(p, &[], c.depth + 1);
                self.ask("git runs a program from its options");
                read_only = false;
            }
            if matches!(
                x,
                "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--super-prefix"
            ) {
                if let Some(d) = c.arg_word(i + 1) {
                    read_only &= self.list_path(&d.clone(), c.cwd());
                    if matches!(x, "-C" | "--work-tree") {
                        tree = match (&tree, d.dynamic) {
                            (Some(t), false) => Some(self.norm(d, Some(t))),
                            _ => None,
                        };
                    }
                }
                i += 2;
                continue;
            }
            if let Some(d) = x.strip_prefix("--work-tree=") {
                tree = tree.map(|t| self.norm_text(d, Some(&t)));
            }
            // `--git-dir=D`: another repository, its config with it.
            if let Some(d) = x.strip_prefix("--git-dir=") {
                read_only &= self.list_path(&Word::lit(d), c.cwd());
            }
            if !x.starts_with('-') {
                sub = Some(i);
                break;
            }
            i += 1;
        }
        let Some(si) = sub else { return read_only };
        let sub = args[si].as_str();
        let rest = &args[si + 1..];
        let has = |s: &str| rest.iter().any(|x| x == s || eq_value(x, s).is_some());
        if matches!(sub, "clone" | "submodule") {
            self.clone_runs_its_code(&args[..si], rest);
        }
        self.git_places(sub, rest, c);
        // Options on any subcommand that run programs.
        for (k, x) in rest.iter().enumerate() {
            let value = |prefix: &str| -> Option<String> {
                eq_value(x, prefix)
                    .map(str::to_string)
                    .or_else(|| (x == prefix).then(|| rest.get(k + 1).cloned()).flatten())
                    // A short option's value may be glued on (`-u'cmd'`).
                    .or_else(|| {
                        (prefix.len() == 2 && !prefix.starts_with("--"))
                            .then(|| x.strip_prefix(prefix).filter(|v| !v.is_empty()))
                            .flatten()
                            .map(str::to_string)
                    })
            };
            for opt in [
                "--upload-pack",
                "-u",
                "--receive-pack",
                "--exec",
                "--extcmd",
                "--tool",
                "-x",
                "--tree-filter",
                "--index-filter",
                "--msg-filter",
                "--env-filter",
                "--commit-filter",
                "--parent-filter",
                "--tag-name-filter",
            ] {
                if opt == "-x" && !matches!(sub, "rebase" | "difftool")
                    || opt == "-u" && !matches!(sub, "clone" | "ls-remote")
                {
                    continue;
                }
                if let Some(v) = value(opt) {
                    read_only = false;
                    let w = Word::lit(v);
                    self.shell_code(&w, &[], c.script, c.depth);
                    self.ask(format!("git {sub} runs a program"));
                }
            }
            if let Some(kv) = value("--config").or_else(|| {
                (x == "-c" && sub == "clone")
                    .then(|| rest.get(k + 1).cloned())
                    .flatten()
            }) {
                read_only &= self.git_setting(&kv, c, false);
            }
            if x.starts_with("ext::") || x.contains("::ext::") {
                self.script(
                    &x.trim_start_matches("ext::")
                        .replace("% ", " ")
                        .replace('%', " "),
                    &[],
                    c.depth + 1,
                );
                self.block("git's ext:: transport runs a command (a remote URL that is a program)");
            }
        }
        // A repository outside the project (`cd /tmp/x && git status`), or
        // settings exported before it (`env HOME=…`, `export
        // GIT_CONFIG_GLOBAL=…`): another config, whose `core.fsmonitor` or
        // pager runs a program.
        if exports_git_setting(c) || !tree.as_deref().is_some_and(|t| self.inside(t)) {
            read_only = false;
        }
        // Files taken from a work tree that holds the user's keys (`git
        // --work-tree=~ add -A`): the next commit or push carries them.
        if matches!(sub, "add" | "stage" | "commit" | "stash" | "archive")
            && let Some(t) = tree.as_deref()
            && !self.inside(t)
            && paths::contains_credentials(t)
        {
            self.block(format!(
                "exfiltration (git {sub} takes files from a work tree that holds your keys: {})",
                shown(t)
            ));
        }
        if destroys_tree(sub, rest) && !tree.as_deref().is_some_and(|t| self.inside(t)) {
            self.block(format!(
                "git {sub} discards files in a work tree outside the working directory ({})",
                tree.as_deref()
                    .map_or("one that cannot be read".into(), shown)
            ));
        }
        // Patches mailed through a server this line names: the project's
        // history to whoever runs it.
        if sub == "send-email" {
            // `--sendmail-cmd=CMD`: the shell runs CMD for each message; an
            // `--smtp-server` that is a path is a program too.
            for (i, a) in rest.iter().enumerate() {
                let cmd = long_value(a, "--sendmail-cmd")
                    .map(str::to_string)
                    .or_else(|| {
                        (spells(a, "--sendmail-cmd") && !a.contains('='))
                            .then(|| rest.get(i + 1).cloned())
                            .flatten()
                    });
                if let Some(cmd) = cmd {
                    self.shell_code(&Word::lit(cmd), &[], c.script, c.depth);
                    self.ask("git send-email runs a program to send mail");
                }
            }
            let server = rest.iter().enumerate().find_map(|(i, a)| {
                a.strip_prefix("--smtp-server=")
                    .map(str::to_string)
                    .or_else(|| {
                        (a == "--smtp-server")
                            .then(|| rest.get(i + 1).cloned())
                            .flatten()
                    })
            });
            // Mail providers' servers are the usual way out for a patch;
            // a program path is sendmail's.
            let provider = |h: &str| {
                [
                    "gmail.com",
                    "googlemail.com",
                    "outlook.com",
                    "office365.com",
                    "yahoo.com",
                    "fastmail.com",
                    "icloud.com",
                    "me.com",
                    "zoho.com",
                    "mailbox.org",
                    "gmx.net",
                ]
                .iter()
                .any(|p| h.ends_with(p))
            };
            if let Some(h) = server
                .filter(|h| !h.starts_with('/'))
                .and_then(|h| super::project_out::far_host(&h))
                .filter(|h| !provider(h))
            {
                self.block(format!(
                    "exfiltration (mails the project's history through a server this line names: {})",
                    shown(&h)
                ));
            }
        }
        if sub == "push" && self.pushes_all_to_new_place(rest, c) {
            self.block("exfiltration (pushes to a destination this same line chose)");
        }
        match sub {
            "config" => {
                let global = has("--global") || has("--system");
                let mut ops: Vec<&String> = rest.iter().filter(|x| !x.starts_with('-')).collect();
                // git 2.46's verbs (`git config set KEY VALUE`, `get`,
                // `list`, `unset`, `edit`): a key always has a dot.
                let verb = ops
                    .first()
                    .map(|v| v.as_str())
                    .filter(|v| {
                        matches!(
                            *v,
                            "get"
                                | "set"
                                | "list"
                                | "unset"
                                | "edit"
                                | "rename-section"
                                | "remove-section"
                        )
                    })
                    .map(str::to_string);
                if verb.is_some() {
                    ops.remove(0);
                }
                let verb = verb.as_deref();
                if verb == Some("edit") {
                    self.ask("git config edit opens an editor");
                    return false;
                }
                let key = ops.first().map(|k| lower(k)).unwrap_or_default();
                let value = ops.get(1).cloned();
                let reading = match verb {
                    Some(v) => matches!(v, "get" | "list"),
                    None => {
                        has("--get")
                            || has("--get-all")
                            || has("--get-regexp")
                            || has("--list")
                            || has("-l")
                            || has("--show-origin") && value.is_none()
                            || (value.is_none()
                                && !has("--unset")
                                && !has("--unset-all")
                                && !has("--add")
                                && !has("--remove-section")
                                && !has("--rename-section")
                                && !has("--edit")
                                && !has("-e"))
                    }
                };
                // Tokens git keeps: credential settings, and the
                // Authorization headers CI checkouts persist (`extraheader`).
                // A key pattern (`--get-regexp 'http\..*'`, `get --regexp`)
                // reaches whatever keys it matches: a section that holds
                // tokens, or one too broad to tell.
                let pattern = has("--get-regexp") || has("--regexp");
                let unescaped = key.replace('\\', "");
                if reading
                    && pattern
                    && ["http", "credential", "sendemail", "url."]
                        .iter()
                        .any(|k| unescaped.contains(k))
                {
                    self.block(
                        "reveals stored git credentials (a key pattern over their sections)",
                    );
                }
                if reading
                    && pattern
                    && !unescaped
                        .trim_start_matches('^')
                        .starts_with(|ch: char| ch.is_ascii_alphabetic())
                {
                    self.ask("git config prints every key a broad pattern matches");
                    return false;
                }
                if reading
                    && (key.starts_with("credential.") || super::effects::secret_setting(&key))
                {
                    self.block("reveals stored git credentials");
                }
                if reading {
                    return read_only;
                }
                if has("--edit") || has("-e") {
                    self.ask("git config --edit opens an editor");
                    return false;
                }
                if let Some(v) = value {
                    // What the line writes there later is a hook.
                    if key == "core.hookspath"
                        && let Some(w) = c.words.iter().find(|w| &w.text == v)
                    {
                        let dir = self.norm(w, c.cwd());
                        self.hook_dirs.push(dir);
                    }
                    self.git_setting(&format!("{key}={v}"), c, global);
                }
                self.ask(format!("git config {key}"));
                false
            }
            "credential" | "credential-store" | "credential-cache" => {
                if rest
                    .first()
                    .is_some_and(|x| matches!(x.as_str(), "fill" | "get"))
                    || sub != "credential"
                {
                    self.block("reveals stored git credentials");
                }
                self.ask("git credential");
                false
            }
            "submodule" if rest.first().is_some_and(|x| x == "foreach") => {
                let text = rest[1..]
                    .iter()
                    .filter(|x| !x.starts_with("--"))
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" ");
                self.script(&text, &[], c.depth + 1);
                self.ask("git submodule foreach runs a command in every submodule");
                false
            }
            // Shown, not changed: each submodule's commit and what changed in it.
            "submodule"
                if rest
                    .first()
                    .is_some_and(|x| x == "status" || x == "summary")
                    && rest[1..].iter().all(|x| {
                        matches!(
                            x.as_str(),
                            "--recursive" | "--cached" | "--quiet" | "-q" | "--"
                        ) || !x.starts_with('-')
                    }) =>
            {
                read_only
            }
            "bisect" if rest.first().is_some_and(|x| x == "run") => {
                let words: Vec<Word> = c.words[si + 3..].to_vec();
                self.run_words(words, c.src, c.script, c.depth + 1);
                self.ask("git bisect run runs a command");
                false
            }
            // Reads of the object store and of settings the tree keeps.
            "verify-pack" => read_only,
            "hash-object" if !rest.iter().any(|x| x == "-w" || x == "--stdin-paths") => {
                let mut ro = read_only;
                for w in c.words[si + 2..]
                    .iter()
                    .filter(|w| !w.text.starts_with('-'))
                {
                    ro &= self.read_path(w, c.cwd());
                }
                ro
            }
            "sparse-checkout" if rest.first().is_some_and(|x| x == "list") => read_only,
            "lfs"
                if matches!(
                    rest.first().map(String::as_str),
                    Some("ls-files" | "status" | "env" | "version" | "track")
                ) && (rest.first().is_some_and(|x| x != "track") || rest.len() == 1) =>
            {
                read_only
            }
            s if READS.contains(&s) => {
                // `git show HEAD~3:.env`, `git log -p -- .env`, `git blame F`:
                // a file's text from history, printed. Judged as a read of it.
                let names_only = rest.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "--stat"
                            | "--name-only"
                            | "--name-status"
                            | "--numstat"
                            | "--shortstat"
                            | "--quiet"
                            | "--exit-code"
                            | "-s"
                            | "--no-patch"
                            | "-l"
                            | "--files-with-matches"
                            | "-c"
                            | "--count"
                    )
                });
                let patch = rest
                    .iter()
                    .any(|x| matches!(x.as_str(), "-p" | "-u" | "--patch"));
                let printed = match s {
                    "log" | "whatchanged" => patch,
                    "show" | "cat-file" | "diff" | "grep" | "blame" | "annotate" => {
                        patch || !names_only
                    }
                    _ => false,
                };
                let dashes = rest.iter().position(|x| x == "--");
                // Paths name files in the work tree, wherever that is.
                // (As a folder, home is spelled as the parser marks it.)
                let base = match &tree {
                    Some(t) => Some(match t.strip_prefix('~') {
                        Some(rest) => format!("{HOME}{rest}"),
                        None => t.clone(),
                    }),
                    None => Some(parse::UNKNOWN_DIR.to_string()),
                };
                for (k, x) in rest.iter().enumerate() {
                    // `-L RANGE` apart: blame's range names no file (`/^mqtt:/,+15`),
                    // log's names one after its last colon (`-L 1,5:src/a.rs`).
                    if k > 0 && rest[k - 1] == "-L" {
                        if let Some((_, p)) = x.rsplit_once(':').filter(|_| s == "log")
                            && !p.is_empty()
                        {
                            read_only &= self.read_path(&Word::lit(p), base.as_deref());
                        }
                        continue;
                    }
                    // `REV:PATH` (any revision, `:0:PATH` from the index, and
                    // `-L1,5:PATH`): git prints that file's text, whatever
                    // else the options say.
                    let blob = x
                        .strip_prefix("-L")
                        .and_then(|r| r.rsplit_once(':').map(|(_, p)| p))
                        .or_else(|| {
                            x.split_once(':')
                                .filter(|_| !x.starts_with('-'))
                                .map(|(_, p)| {
                                    p.strip_prefix(['0', '1', '2', '3'])
                                        .and_then(|p| p.strip_prefix(':'))
                                        .unwrap_or(p)
                                })
                        })
                        .filter(|p| !p.is_empty() && !p.starts_with("//"));
                    let path = match blob {
                        Some(p) => Some(p.to_string()),
                        // Pathspecs after `--`, and operands of a printing
                        // command (`git log -p .env`; a revision read as a
                        // project path is harmless).
                        None if printed && dashes.is_none_or(|d| k > d) && !x.starts_with('-') => {
                            Some(x.clone())
                        }
                        // (`-L '/regex/,+3'`: the range is no file.)
                        None if matches!(s, "blame" | "annotate")
                            && !x.starts_with('-')
                            && (k == 0 || rest[k - 1] != "-L") =>
                        {
                            Some(x.clone())
                        }
                        None => None,
                    };
                    if let Some(p) = path {
                        read_only &= self.read_path(&Word::lit(p), base.as_deref());
                    }
                }
                // `--output=F` writes F: judged as any write.
                for (k, x) in rest.iter().enumerate() {
                    let out = x.strip_prefix("--output=").map(str::to_string).or_else(|| {
                        (x == "--output")
                            .then(|| rest.get(k + 1).cloned())
                            .flatten()
                    });
                    if let Some(f) = out {
                        self.write_path(&Word::lit(f), c.cwd(), "git");
                    }
                }
                if has("--output")
                    // `-o` is `--others` to ls-files, `--only-matching` to grep.
                    || has("-o") && !matches!(s, "log" | "ls-files" | "grep")
                    || has("--ext-diff")
                    || has("--textconv")
                    || (s == "reflog"
                        && rest.first().is_some_and(|x| x == "delete" || x == "expire"))
                    || (s == "fsck" && has("--lost-found"))
                {
                    self.ask(format!(
                        "git {s} with an option that writes or runs programs"
                    ));
                    return false;
                }
                // `-O`, alone or last in a bundle (`-oO'cmd'`), takes the
                // pager as the rest of its word.
                fn pager_at(x: &str) -> Option<&str> {
                    short_flags(x)
                        .and_then(|b| b.find('O'))
                        .map(|i| &x[i + 2..])
                }
                if s == "grep"
                    && rest
                        .iter()
                        .any(|x| pager_at(x).is_some() || spells(x, "--open-files-in-pager"))
                {
                    for x in rest {
                        if let Some(pager) = long_value(x, "--open-files-in-pager")
                            .or_else(|| pager_at(x).filter(|p| !p.is_empty()))
                        {
                            let w = Word::lit(pager);
                            self.shell_code(&w, &[], c.script, c.depth);
                        }
                    }
                    self.ask("git grep opens a pager program");
                    return false;
                }
                for (k, w) in c.words[si + 2..].iter().enumerate() {
                    // (A `-L` range was judged above.)
                    let range = k > 0 && c.words[si + 1 + k].text == "-L";
                    if !w.text.starts_with('-')
                        && !range
                        && !w.dynamic
                        && (w.text.starts_with('/')
                            || w.text.starts_with(HOME)
                            || w.text.starts_with(".."))
                    {
                        read_only &= self.read_path(w, c.cwd());
                    }
                }
                read_only
            }
            // `git tag --list 'v*'`, `git branch -l 'feat/*'`: patterns only list.
            "branch" | "tag"
                if (has("-l") || has("--list"))
                    && rest.iter().all(|x| {
                        !x.starts_with('-')
                            || matches!(
                                x.as_str(),
                                "-l" | "--list"
                                    | "-v"
                                    | "-vv"
                                    | "-r"
                                    | "-i"
                                    | "--ignore-case"
                                    | "--column"
                                    | "--no-column"
                                    | "--merged"
                                    | "--no-merged"
                                    | "--contains"
                                    | "--no-contains"
                                    | "--points-at"
                            )
                            || x.starts_with("-n")
                            || x.starts_with("--sort=")
                            || x.starts_with("--format=")
                    }) =>
            {
                read_only
            }
            // `git branch -a --contains HEAD`: listing flags, and the commits
            // they filter by; a name of its own would create one.
            "branch" | "tag" if lists_refs(rest) => read_only,
            "remote" if remote_reads(rest) => read_only,
            // `git bundle verify|list-heads F`: the bundle file is read.
            "bundle"
                if rest
                    .first()
                    .is_some_and(|x| x == "verify" || x == "list-heads")
                    && rest
                        .iter()
                        .skip(1)
                        .all(|x| !x.starts_with('-') || x == "-q" || x == "--quiet") =>
            {
                let mut ro = read_only;
                for w in c.words[si + 3..]
                    .iter()
                    .filter(|w| !w.text.starts_with('-'))
                {
                    ro &= self.read_path(w, c.cwd());
                }
                ro
            }
            // `git stash` alone pushes; only `show` and `list` read.
            // (`remote` is answered by `remote_reads` above.)
            "branch" | "tag" | "stash" | "worktree" | "notes" | "config-list"
                if (sub != "stash" || rest.first().is_some_and(|x| x == "show" || x == "list"))
                    && (sub == "stash"
                        || !rest.iter().any(|x| matches!(x.as_str(), "-p" | "--patch")))
                    && (rest.is_empty()
                        || rest.iter().all(|x| {
                            matches!(
                                x.as_str(),
                                "-v" | "-vv"
                                    | "-a"
                                    | "-r"
                                    | "-l"
                                    | "--list"
                                    | "list"
                                    | "show"
                                    | "--show-current"
                                    | "--merged"
                                    | "--no-merged"
                                    | "--contains"
                                    | "--sort=-committerdate"
                                    | "get-url"
                                    | "origin"
                                    | "--all"
                                    | "--verbose"
                                    | "-p"
                                    | "--patch"
                                    | "--stat"
                            ) || sub == "notes"
                                && matches!(rest.first().map(String::as_str), Some("show" | "list"))
                                && !x.starts_with('-')
                                || sub == "stash"
                                    && (x.starts_with("stash@{")
                                        || x.chars().all(|ch| ch.is_ascii_digit())
                                        || matches!(x.as_str(), "--name-only" | "--name-status"))
                        })) =>
            {
                read_only
            }
            // A dry run lists what it would delete, and deletes nothing.
            "clean"
                if rest.iter().any(|x| {
                    x == "--dry-run" || letter_flags(x).is_some_and(|b| b.contains('n'))
                }) && rest.iter().all(|x| {
                    x == "--dry-run"
                        || letter_flags(x).is_some_and(|b| b.chars().all(|ch| "ndxXq".contains(ch)))
                }) =>
            {
                read_only
            }
            // The bisection's record so far, printed.
            "bisect" if rest.len() == 1 && rest[0] == "log" => read_only,
            other => {
                self.ask(format!("git {other} changes the repository"));
                false
            }
        }
    }
}
