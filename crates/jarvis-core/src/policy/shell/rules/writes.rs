//! What a command writes, deletes or changes the mode of: only what the
//! analyser can place in the working directory or scratch space may even
//! be asked.

use super::*;

impl Analyzer<'_> {
    /// A file created or changed.
    pub(super) fn write_path(&mut self, w: &Word, cwd: Option<&str>, what: &str) {
        let text = shown(&w.text);
        if w.dynamic || unplaced(w, cwd) {
            let fixed = &w.text[..w.text.find('$').unwrap_or(w.text.len())];
            let prefix = self.norm_text(&paths::word_path(fixed, false), cwd);
            if self.mentions_self(w) {
                self.block(format!("{what} writes over Jarvis's own files ({text})"));
            } else if fixed.starts_with("/dev/")
                && !fixed.starts_with("/dev/fd")
                && !fixed.starts_with("/dev/std")
            {
                self.block(format!(
                    "{what} writes to a device chosen at run time ({text})"
                ));
            } else if self.remote && paths::system_normalized(&prefix) {
                // Another machine's system folders are a deploy's target.
                self.ask(format!("{what} writes {text} on another machine"));
            } else if fixed.contains('/')
                && (paths::system_normalized(&prefix) && prefix != "/"
                    || paths::persistence_normalized(&prefix))
            {
                self.block(format!(
                    "{what} writes into a system or startup location ({text})"
                ));
            } else if super::startup::startup_name(w.text.rsplit('/').next().unwrap_or(""))
                || paths::persistence_anywhere(&w.text)
            {
                // `"$(python3 -m site --user-site)/usercustomize.py"`: wherever
                // it lands, the file's name is one a program runs at start.
                self.block(format!(
                    "{what} writes a startup file at a path known only at run time ({text})"
                ));
            } else {
                self.ask(format!(
                    "{what} writes a path known only at run time ({text})"
                ));
            }
            return;
        }
        let p = self.norm(w, cwd);
        if p == "/dev/null"
            || p.starts_with("/dev/std")
            || p.starts_with("/dev/fd/")
            || p.starts_with("/dev/tty")
            || is_fd(&w.text)
            || w.text.starts_with('&')
        {
            return;
        }
        if p.starts_with("/dev/tcp/") || p.starts_with("/dev/udp/") {
            self.block(format!(
                "opens a network socket through {text} (reverse shell)"
            ));
        } else if paths::device(&p) {
            self.block(format!(
                "{what} writes to the disk device {text} (disk wipe)"
            ));
        } else if self.app_state(&p) {
            self.block(format!("{what} overwrites Jarvis's own state ({text})"));
        } else if let Some(why) = paths::credential_normalized(&p, &w.text) {
            if self.remote {
                // A key added to a server's `authorized_keys` (what
                // `ssh-copy-id` does): the question shows which key.
                self.ask(format!("{what} writes {text} on another machine ({why})"));
            } else if self.inside(&p) && !paths::credential_store(&p) {
                self.ask(format!("{what} writes a secrets file ({text})"));
            } else {
                self.block(format!("{what} writes a credential file: {why}"));
            }
        } else if self.inside(&p) && (paths::git_hook(&p) || self.in_hook_dir(&p)) {
            // The project's own hook: in the folder the user works in, and
            // run by git on its own at the next commit or push. What it will
            // run, when this line spells it out, is judged now.
            if let Some(code) = self.written_text(w, cwd) {
                self.block_only(|a| a.script(&code, &[], 1));
            }
            self.ask(format!(
                "{what} writes the git hook {text}: git runs it by itself at your next commit or push, outside the sandbox"
            ));
        } else if paths::persistence_normalized(&p) {
            self.block(format!(
                "persistence: {what} writes {text}, which runs code at login, on a schedule or when a program starts"
            ));
        } else if paths::system_normalized(&p) && self.remote {
            // Another machine's system folders are a deploy's target.
            self.ask(format!("{what} writes {text} on another machine"));
        } else if paths::system_normalized(&p) {
            self.block(format!("{what} writes into a system directory ({text})"));
        } else if paths::user_bin(&p)
            && (shadows_program(&p) || self.written_text(w, cwd).is_some_and(|t| wraps(&p, &t)))
        {
            self.block(format!(
                "persistence: {what} puts a program named like a system one on your PATH ({text})"
            ));
        } else if self.inside(&p) || paths::scratch(&p) {
            self.ask(format!("{what} writes {text}"));
        } else {
            self.ask(format!(
                "{what} writes outside the working directory ({text})"
            ));
        }
    }

    /// A path on another machine known only at run time may be a whole
    /// system or home: its spelled-out start is one (`"$HOME"`, `/$d`).
    fn wipes_elsewhere(&self, w: &Word, cwd: Option<&str>) -> bool {
        let fixed = &w.text[..w.text.find('$').unwrap_or(w.text.len())];
        let wipes = |p: &str| paths::wipes_a_machine(p) || paths::system_tree_elsewhere(p);
        // A whole word known only there (`xargs rm -rf` over a listing):
        // another machine's files, asked like a named one, unless the
        // listing is of a whole system or home, or runs in one.
        if fixed.is_empty() {
            return w.subs.iter().any(|i| self.machine_listers.contains(i))
                || cwd.is_some_and(|d| !d.starts_with(parse::UNKNOWN_DIR) && wipes(d));
        }
        let prefix = self.norm_text(&paths::word_path(fixed, false), cwd);
        let folder = if fixed.ends_with('/') {
            prefix.as_str()
        } else {
            prefix.rsplit_once('/').map_or("", |(d, _)| d)
        };
        fixed.starts_with(['~', HOME]) && !fixed.contains('/')
            || wipes(&prefix)
            || wipes(if folder.is_empty() { "/" } else { folder })
    }

    /// A path deleted (or moved away): only what the analyser can place in
    /// the working directory or scratch space may even be asked.
    pub(super) fn delete_path(&mut self, w: &Word, recursive: bool, cwd: Option<&str>, what: &str) {
        let text = shown(&w.text);
        // On another machine a relative path is from the login's home
        // (`ssh host 'rm -rf *'` empties it).
        if self.remote && !w.dynamic && !w.text.starts_with(['/', '~']) && !w.text.starts_with(HOME)
        {
            let there = Word {
                text: format!("{HOME}/{}", w.text),
                ..w.clone()
            };
            self.delete_path(&there, recursive, None, what);
            return;
        }
        if w.dynamic || unplaced(w, cwd) {
            let p = self.norm(w, cwd);
            if paths::scratch(&p) {
                self.ask(format!("{what} deletes {text}"));
            } else if self.remote && !self.wipes_elsewhere(w, cwd) {
                // Another machine's files named at run time (`cd
                // /srv/app/releases && ls -1t | tail -n +6 | xargs rm -rf`).
                self.ask(format!("{what} deletes {text} on another machine"));
            } else if !recursive && self.placed_by_listing(w, cwd) {
                self.ask(format!(
                    "{what} deletes files a listing of the project names ({text})"
                ));
            } else {
                self.block(format!(
                    "{what} deletes a path known only at run time ({text}): it cannot be placed inside the working directory"
                ));
            }
            return;
        }
        let p = self.norm(w, cwd);
        // A wildcard deletes what its directory holds.
        let dir = if w.glob {
            let lit = &p[..p.find(['*', '?', '[']).unwrap_or(p.len())];
            match lit.rsplit_once('/') {
                Some(("", _)) => "/".to_string(),
                Some((d, _)) => d.to_string(),
                None => ".".to_string(),
            }
        } else {
            p.clone()
        };
        if let Some(why) = paths::credential_normalized(&p, &w.text)
            && (!self.inside(&p) || paths::credential_store(&p))
        {
            self.block(format!("{what} deletes a credential: {why}"));
        } else if self.app_state(&p) || self.app_state(&dir) {
            self.block(format!("{what} deletes Jarvis's own state ({text})"));
        } else if paths::device(&p) {
            self.block(format!("{what} destroys the disk device {text}"));
        } else if recursive
            && !w.glob
            && !w.text.is_empty()
            && !what.starts_with("find")
            && self.is_workdir(&p)
        {
            // `rm -rf .`, `rm -rf "$PWD"`: the project itself, as
            // `rm -rf /home/u/work` or `rm -rf ../work` are.
            self.block(format!(
                "recursive delete of {text}: the working directory itself"
            ));
        } else if !self.remote && self.repository_history(&p, &dir, w) {
            self.block(format!(
                "{what} deletes {text}: the repository's history (.git), not undoable"
            ));
        } else if self.remote
            && ![&dir, &p]
                .iter()
                .any(|x| paths::wipes_a_machine(x) || recursive && paths::system_tree_elsewhere(x))
        {
            // Another machine's files, short of a whole system or home.
            self.ask(format!("{what} deletes {text} on another machine"));
        } else if (recursive || w.glob)
            && (paths::catastrophic_normalized(&dir)
                || (w.glob && paths::catastrophic(&w.text, cwd)))
            || paths::catastrophic_normalized(&p) && !self.inside(&p)
        {
            self.block(format!(
                "recursive delete of {text} (a system, home or parent directory)"
            ));
        } else if paths::persistence_normalized(&p) && !(self.inside(&p) && paths::git_hook(&p))
            || paths::system_normalized(&p)
        {
            self.block(format!("{what} deletes system or startup files ({text})"));
        } else if self.inside(&p) && self.inside(&dir) || paths::scratch(&p) {
            self.ask(format!("{what} deletes {text}"));
        } else if dir.strip_prefix("~/.cache/").is_some_and(|r| !r.is_empty()) {
            // A tool's cache (`~/.cache/pip`): rebuilt on demand, no one's data.
            self.ask(format!("{what} deletes a cache ({text})"));
        } else {
            self.block(format!(
                "{what} deletes {text}, outside the working directory"
            ));
        }
    }

    /// `chmod`/`chown`/ACLs on a path.
    pub(super) fn perm_path(
        &mut self,
        w: &Word,
        recursive: bool,
        wide_open: bool,
        cwd: Option<&str>,
        what: &str,
    ) {
        let text = shown(&w.text);
        if w.dynamic {
            // Opened to everyone (`chmod 777 "$SSH_AUTH_SOCK"`), a file
            // known only at run time may be a key, a socket or a program.
            if recursive || wide_open {
                self.block(format!(
                    "{what} re-permissions a path known only at run time ({text})"
                ));
            } else {
                self.ask(format!("{what} {text}"));
            }
            return;
        }
        let p = self.norm(w, cwd);
        let dir = if w.glob {
            p[..p.find(['*', '?', '[']).unwrap_or(p.len())]
                .trim_end_matches('/')
                .to_string()
        } else {
            p.clone()
        };
        let dir = if dir.is_empty() {
            if p.starts_with('/') {
                "/".to_string()
            } else {
                ".".to_string()
            }
        } else {
            dir
        };
        if let Some(why) = paths::credential_normalized(&p, &w.text)
            && (!self.inside(&p) || paths::credential_store(&p))
        {
            self.block(format!("{what} changes a credential's permissions: {why}"));
        } else if self.app_state(&p) {
            self.block(format!("{what} changes Jarvis's own files ({text})"));
        } else if (recursive || w.glob)
            && paths::catastrophic_normalized(&dir)
            && !self.is_workdir(&p)
        {
            self.block(format!("recursive permission change of {text}"));
        } else if paths::system_normalized(&p)
            && (recursive || wide_open || what.starts_with("chown") || what.starts_with("takeown"))
        {
            self.block(format!(
                "{what} opens up, locks or takes over a system path ({text})"
            ));
        } else if paths::system_normalized(&p) {
            self.block(format!("{what} changes a system path ({text})"));
        } else if recursive && !(self.inside(&p) || paths::scratch(&p)) {
            self.block(format!(
                "{what} recursively re-permissions {text}, outside the working directory"
            ));
        } else if wide_open && !(self.inside(&p) || paths::scratch(&p)) {
            // Home, or a folder in it, made writable by every user.
            self.block(format!(
                "{what} opens {text} to every user, outside the working directory"
            ));
        } else {
            self.ask(format!("{what} {text}"));
        }
    }
}

/// A relative path after `cd -` or `cd "$OLDPWD"` (`cd - && rm -rf ./*`):
/// it lands in the folder the shell was in before, outside what this line
/// places.
fn unplaced(w: &Word, cwd: Option<&str>) -> bool {
    let t = w.text.as_str();
    let placed = t.starts_with(['/', '~', '&']) || t.starts_with(HOME) || is_fd(t);
    cwd.is_some_and(|c| c.starts_with(parse::ELSEWHERE_DIR)) && !placed
}

/// A script that hands on to another program of its own name
/// (`exec /usr/bin/jupyter "$@"`): a wrapper that sits in front of that
/// program, seeing every use of it.
fn wraps(p: &str, text: &str) -> bool {
    let name = p.rsplit('/').next().unwrap_or(p);
    !name.is_empty()
        && text
            .split(|c: char| c.is_whitespace() || "\"';|&()".contains(c))
            .any(|w| w.starts_with('/') && w != p && w.rsplit('/').next() == Some(name))
}

/// A file name on PATH that a common program already answers to.
fn shadows_program(p: &str) -> bool {
    let name = p.rsplit('/').next().unwrap_or(p);
    super::tables::PRIVILEGE.contains(&name)
        || super::tables::KNOWN_TOOLS.contains(&name)
        || super::tables::read_only(name).is_some()
        || is_shell(name)
        || super::tables::interpreter(name).is_some()
}

/// Files a command writes its output to: `-o F`, `-O` (the URL's name),
/// `--output F`, `> F`, `tee F`.
pub(super) fn output_files(c: &Command) -> Vec<String> {
    let mut argv: Vec<&str> = c.argv.iter().map(|w| w.text.as_str()).collect();
    // `busybox wget …`: the applet is the program.
    if argv
        .first()
        .is_some_and(|a| matches!(base_name(a).as_str(), "busybox" | "toybox"))
    {
        argv.remove(0);
    }
    let mut out = Vec::new();
    let b = argv.first().map(|a| base_name(a)).unwrap_or_default();
    let norm = |f: &str| paths::normalize(&paths::word_path(f, false), c.cwd.as_deref());
    for (i, a) in argv.iter().enumerate() {
        let names_file = *a == "-o"
            || *a == "--output"
            || *a == "--output-document"
            || (b == "wget" && short_flags(a).is_some_and(|f| f.ends_with('O')))
            || short_flags(a).is_some_and(|f| f.len() > 1 && f.ends_with('o'));
        if names_file && i + 1 < argv.len() && argv[i + 1] != "-" {
            out.push(norm(argv[i + 1]));
        } else if let Some(f) = a
            .strip_prefix("--output=")
            .or_else(|| a.strip_prefix("--output-document="))
        {
            out.push(norm(f));
        } else if (*a == "-O"
            || *a == "--remote-name"
            || (b == "curl" && short_has(a, 'O'))
            || (b == "wget" && a.starts_with("http")))
            && let Some(url) = argv.iter().find(|x| x.starts_with("http"))
        {
            out.push(norm(
                url.trim_end_matches('/').rsplit('/').next().unwrap_or(""),
            ));
        }
    }
    // `dd of=F`; `install -m 755 /dev/stdin F`, `cp /dev/stdin F`.
    if b == "dd" {
        out.extend(argv.iter().filter_map(|a| a.strip_prefix("of=")).map(&norm));
    }
    if matches!(b.as_str(), "install" | "cp")
        && argv
            .iter()
            .any(|a| matches!(*a, "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0"))
        && let Some(dest) = last_operand(&argv[1..])
    {
        out.push(norm(dest));
    }
    if b == "tee" {
        out.extend(
            argv.iter()
                .skip(1)
                .filter(|a| !a.starts_with('-'))
                .map(|a| norm(a)),
        );
    }
    for r in &c.redirects {
        if r.op.contains('>') && !r.op.starts_with("<<") {
            out.push(norm(&r.target.text));
        }
    }
    out
}

/// The last operand of `install`/`cp`, past the options and their values
/// (`-m 755`, `-o root`, `-t DIR` names the folder instead).
pub(super) fn last_operand<'a>(args: &[&'a str]) -> Option<&'a str> {
    let mut last = None;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match *a {
            "-m" | "--mode" | "-o" | "--owner" | "-g" | "--group" | "-S" | "--suffix" => i += 1,
            "-t" | "--target-directory" => {
                return args.get(i + 1).copied();
            }
            _ if !a.starts_with('-') => last = Some(*a),
            _ => {}
        }
        i += 1;
    }
    last
}

impl Analyzer<'_> {
    /// The working directory's own `.git`, or what holds its history
    /// (`.git/objects`, `.git/refs`, `.git/*`), or a pattern in the
    /// working directory that `.git` matches (`.g*`, `.[g]it`, `.??*`).
    /// A nested repository's `.git` (a vendored copy's) is not the project's.
    /// Inside a folder this line made git's hooks folder.
    fn in_hook_dir(&self, p: &str) -> bool {
        self.hook_dirs.iter().any(|d| {
            p.strip_prefix(d.as_str())
                .is_some_and(|r| r.starts_with('/'))
        })
    }

    fn repository_history(&self, p: &str, dir: &str, w: &Word) -> bool {
        let parent_of = |x: &str| {
            x.rsplit_once('/')
                .map(|(d, n)| (d.to_string(), n.to_string()))
        };
        if w.glob || paths::has_glob(p) {
            let pattern = p.rsplit('/').next().unwrap_or(p);
            // (A quoted or bracketed pattern the parser left as a word:
            // the folder it lists is its parent.)
            let dir = if w.glob {
                dir.to_string()
            } else {
                parent_of(p).map_or_else(|| ".".to_string(), |(d, _)| d)
            };
            let dir = dir.as_str();
            // What in `.git` holds the history (`.git/*`, `.git/ob*`; not
            // `.git/*.lock`), or anything in its objects or refs.
            let in_git = if dir.trim_end_matches('/').ends_with(".git") {
                self.history_folder(dir)
                    && ["objects", "refs", "packed-refs"]
                        .iter()
                        .any(|h| paths::glob_match(pattern, h))
            } else {
                self.history_folder(dir)
            };
            // (A shell pattern reaches a dot-file only with its leading dot.)
            return in_git
                || self.is_workdir(dir)
                    && pattern.starts_with('.')
                    && paths::glob_match(pattern, ".git");
        }
        self.history_folder(p)
    }

    /// The working directory's `.git`, or what in it holds the history:
    /// its objects (loose and packed), its refs, `packed-refs`.
    fn history_folder(&self, p: &str) -> bool {
        let p = p.trim_end_matches('/');
        // (`.git/objects` as written: below the working directory.)
        let p = if p.starts_with(".git") {
            format!("./{p}")
        } else {
            p.to_string()
        };
        match p.split_once("/.git") {
            Some((root, rest)) => {
                let rest = rest.trim_end_matches('/');
                self.is_workdir(if root.is_empty() { "." } else { root })
                    && (matches!(rest, "" | "/packed-refs" | "/refs")
                        // (Not `refs/original`, filter-branch's backup, nor
                        // remote-tracking refs: both come back or are spare.)
                        || ["/objects", "/refs/heads", "/refs/tags"].iter().any(|d| {
                            rest.strip_prefix(d)
                                .is_some_and(|r| r.is_empty() || r.starts_with('/'))
                        }))
            }
            None => false,
        }
    }
}
