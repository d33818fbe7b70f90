//! Copies and moves (cp, mv, install, ln, rsync, scp and their Windows
//! kin): what each source leaves and each destination becomes, and
//! rsync's deletes here or on another machine.

use super::*;

impl Analyzer<'_> {
    /// `cp`/`mv`/`ln`/`rsync`/`install`: the sources are read (or moved
    /// away), the destination written.
    pub(super) fn copy(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        let cwd = c.cwd();
        let mut ops: Vec<Word> = Vec::new();
        let mut target_dir: Option<Word> = None;
        let mut skip = false;
        let mut mode: Option<String> = None;
        let mut recursive = matches!(lb, "rsync" | "ditto" | "robocopy" | "xcopy");
        let mut symbolic = false;
        for (i, w) in c.words.iter().enumerate().skip(1) {
            if skip {
                skip = false;
                continue;
            }
            let x = w.text.as_str();
            if x == "-t" || x == "--target-directory" {
                target_dir = c.words.get(i + 1).cloned();
                skip = true;
            } else if let Some(t) = x.strip_prefix("--target-directory=") {
                target_dir = Some(Word::lit(t));
            } else if x == "-m" || x == "--mode" {
                mode = c.words.get(i + 1).map(|m| m.text.clone());
                skip = true;
            } else if let Some(m) = x.strip_prefix("--mode=").or_else(|| {
                x.strip_prefix("-m")
                    .filter(|m| !m.is_empty() && lb == "install")
            }) {
                mode = Some(m.to_string());
            } else if matches!(
                x,
                "-e" | "--rsh"
                    | "-o"
                    | "-g"
                    | "--suffix"
                    | "-S"
                    | "--exclude"
                    | "--include"
                    | "--rsync-path"
                    | "-Path"
                    | "-Destination"
                    | "-LiteralPath"
            ) && !x.starts_with("-P")
            {
                if x == "-e" || x == "--rsh" {
                    if let Some(cmd) = c.words.get(i + 1).cloned() {
                        self.shell_code(&cmd, &[], c.script, c.depth);
                    }
                } else if (x == "-Path" || x == "-Destination" || x == "-LiteralPath")
                    && let Some(p) = c.words.get(i + 1).cloned()
                {
                    ops.push(p);
                }
                skip = true;
            } else if let Some(cmd) = x.strip_prefix("--rsh=").or_else(|| x.strip_prefix("-e=")) {
                self.script(cmd, &[], c.depth + 1);
            } else if x.starts_with('-') && x.len() > 1 {
                recursive |= x == "--recursive"
                    || x == "--archive"
                    || (!x.starts_with("--")
                        && (x.contains('r') || x.contains('R') || x.contains('a')));
                symbolic |= x == "--symbolic" || (!x.starts_with("--") && x.contains('s'));
                if lb == "rsync"
                    && (x == "--delete"
                        || x == "--del"
                        || x.starts_with("--delete-")
                        || x == "--remove-source-files")
                {
                    let dest = c
                        .words
                        .iter()
                        .skip(1)
                        .rfind(|w| !w.text.starts_with('-'))
                        .cloned();
                    if x == "--remove-source-files" {
                        for s in c.words.iter().skip(1).filter(|w| !w.text.starts_with('-')) {
                            if Some(s) != dest.as_ref() {
                                self.delete_path(s, false, cwd, "rsync --remove-source-files");
                            }
                        }
                    } else if let Some(d) = dest {
                        // `-e 'ssh -o HostName=127.0.0.1'`: this machine under
                        // the remote's name.
                        let here = c.args.iter().enumerate().any(|(k, a)| {
                            let rsh = a
                                .strip_prefix("--rsh=")
                                .or_else(|| a.strip_prefix("-e").filter(|v| !v.is_empty()))
                                .or_else(|| {
                                    (a == "-e" || a == "--rsh")
                                        .then(|| c.args.get(k + 1).map(String::as_str))
                                        .flatten()
                                });
                            rsh.is_some_and(|r| {
                                lower(r)
                                    .split(|ch: char| ch.is_whitespace() || ch == '=')
                                    .any(|t| {
                                        super::project_out::is_loopback(t.trim_matches(['\'', '"']))
                                    })
                            })
                        });
                        self.rsync_delete(&d, cwd, here);
                    }
                }
            } else if x.starts_with('/')
                && x.len() <= 3
                && matches!(lb, "xcopy" | "robocopy" | "copy" | "move")
            {
                recursive |= matches!(lower(x).as_str(), "/s" | "/e" | "/mir");
            } else {
                ops.push(w.clone());
            }
        }
        if let Some(m) = &mode
            && setuid_mode(m)
        {
            self.block(format!(
                "privilege escalation ({} -m {m} sets setuid/setgid)",
                c.base
            ));
        }
        let (sources, dest): (Vec<Word>, Option<Word>) = match (&target_dir, ops.len()) {
            (Some(t), _) => (ops.clone(), Some(t.clone())),
            (None, 0) => (vec![], None),
            (None, 1) if lb == "ln" || lb == "link" || lb == "symlink" => {
                // `ln -s TARGET` links into the current directory.
                let name = base_name(&ops[0].text);
                (ops.clone(), Some(Word::lit(name)))
            }
            (None, 1) => (ops.clone(), None),
            (None, n) => (ops[..n - 1].to_vec(), Some(ops[n - 1].clone())),
        };
        // A folder copied over home itself (`rsync -a dotfiles/ ~/`) puts
        // whatever it holds there: rc files, keys, autostart entries.
        if recursive
            && matches!(lb, "cp" | "rsync" | "ditto")
            && dest.as_ref().is_some_and(|d| {
                !d.dynamic && self.norm(d, cwd).trim_end_matches(['/', '.']) == "~"
            })
            && sources.iter().any(|s| remote_spec(&s.text).is_none())
        {
            self.block(format!(
                "persistence ({} copies a folder over home, where rc files, keys and autostart entries live)",
                c.base
            ));
        }
        // A hook linked to a program outside the project: git runs it by
        // itself, and nobody reviews what lies in `/dev/shm`.
        if matches!(lb, "ln" | "link" | "symlink" | "cp" | "install")
            && let Some(d) = dest.as_ref().filter(|d| !d.dynamic)
            && paths::git_hook(&self.norm(d, cwd))
        {
            let hook = self.norm(d, cwd);
            let hook_dir = hook
                .rsplit_once('/')
                .map_or(".", |(dir, _)| dir)
                .to_string();
            for s in &sources {
                // A symbolic link's relative target is read from the
                // link's own folder.
                let p = if symbolic && !s.text.starts_with(['/', '~', HOME]) {
                    self.norm(s, Some(&hook_dir))
                } else {
                    self.norm(s, cwd)
                };
                if s.dynamic || paths::scratch(&p) || !self.inside(&p) && !p.starts_with("/usr/") {
                    self.block(format!(
                        "persistence (a git hook made from {}, outside the project: git runs it by itself)",
                        shown(&s.text)
                    ));
                }
            }
        }
        let mut new_links: Vec<(String, String)> = Vec::new();
        let remote = |w: &Word| remote_spec(&w.text).is_some();
        for s in &sources {
            if remote(s) {
                continue;
            }
            if lb == "mv" || lb == "move" || lb == "move-item" || lb == "mi" {
                let p = self.norm(s, cwd);
                // One named file of the user's brought into the project
                // (`mv ~/Downloads/data.csv data/`) is still there, moved:
                // that asks; a folder, a wildcard or anything the delete
                // rules guard is judged as the delete it also is.
                // Or into scratch space (`mv ~/Downloads/x.sql /tmp/`).
                let into_project = dest.as_ref().is_some_and(|d| {
                    let to = self.norm(d, cwd);
                    !d.dynamic && (self.inside(&to) || paths::scratch(&format!("{to}/x")))
                });
                let one_file = !s.dynamic
                    && !s.glob
                    && s.text
                        .rsplit('/')
                        .next()
                        .is_some_and(|b| b.contains('.') && !b.starts_with('.'))
                    && !paths::contains_credentials(&p)
                    && !paths::credential_store(&p)
                    && paths::credential_normalized(&p, &s.text).is_none()
                    && !self.app_state(&p)
                    && !paths::persistence_normalized(&p)
                    && !paths::system_normalized(&p);
                if one_file && into_project && !self.inside(&p) {
                    self.ask(format!(
                        "{} moves {} to {}",
                        c.base,
                        shown(&s.text),
                        dest.as_ref().map_or(String::new(), |d| shown(&d.text))
                    ));
                } else if !(self.inside(&p) || paths::scratch(&p)) || s.dynamic {
                    self.delete_path(s, true, cwd, &c.base);
                }
                self.read_path(s, cwd);
            } else if (lb == "ln" || lb == "link" || lb == "symlink") && symbolic {
                // A link's target is not read now, but a link to a secret
                // puts it where the file tools can read it.
                if !s.dynamic {
                    let mut p = self.norm(s, cwd);
                    if let Some(d) = &dest {
                        let name = if d.text.ends_with('/') || sources.len() > 1 {
                            format!("{}/{}", d.text.trim_end_matches('/'), base_name(&s.text))
                        } else {
                            d.text.clone()
                        };
                        let link = self.norm(
                            &Word {
                                text: name,
                                ..d.clone()
                            },
                            cwd,
                        );
                        // A relative target is stored as written and read
                        // from the link's own folder (`ln -s ../../x
                        // notes/cfg`), unless `-r` computed it from here.
                        let relative_flag =
                            c.has("--relative") || c.args.iter().any(|a| short_has(a, 'r'));
                        let relative =
                            !s.text.starts_with(['/', '~', '$']) && !s.text.starts_with(HOME);
                        if let Some((dir, _)) =
                            link.rsplit_once('/').filter(|_| !relative_flag && relative)
                        {
                            p = self.norm_text(&format!("{dir}/{}", s.text), cwd);
                        }
                        new_links.push((link, p.clone()));
                    }
                    if let Some(why) = paths::credential_normalized(&p, &s.text) {
                        self.block(format!("links a credential into reach: {why}"));
                    } else if self.app_state(&p) {
                        self.block(format!(
                            "links Jarvis's own state into reach ({})",
                            shown(&s.text)
                        ));
                    } else if matches!(p.as_str(), "~" | "/" | "/home" | "/root") {
                        // Home or the root as a folder of the project: every
                        // key below it goes wherever the project does.
                        self.block(format!(
                            "links {} into reach, and every secret below it",
                            shown(&s.text)
                        ));
                    }
                }
            } else if recursive {
                self.read_tree(s, cwd, &c.base);
            } else {
                self.read_path(s, cwd);
            }
        }
        if let Some(d) = &dest {
            if !remote(d) {
                let dest_file = if sources.len() == 1 && !d.text.ends_with('/') {
                    d.clone()
                } else {
                    Word {
                        text: format!(
                            "{}/{}",
                            d.text.trim_end_matches('/'),
                            sources
                                .first()
                                .map(|s| base_name(&s.text))
                                .unwrap_or_default()
                        ),
                        ..d.clone()
                    }
                };
                self.write_path(d, cwd, &c.base);
                if dest_file.text != d.text {
                    self.write_path(&dest_file, cwd, &c.base);
                }
                // `ln -s /bin/rm ./ls` then `./ls`: the name now runs rm.
                if let Some(src) = sources.first()
                    && !src.dynamic
                    && matches!(lb, "ln" | "cp" | "mv" | "install" | "link" | "symlink")
                {
                    let real = base_name(&src.text);
                    let p = self.norm(&dest_file, cwd);
                    self.renamed.push((p, real.clone()));
                    self.renamed.push((dest_file.text.clone(), real));
                    if self.is_tainted(src, cwd) {
                        let t = self.norm(&dest_file, cwd);
                        self.tainted.push(t);
                    }
                }
            } else if lb == "rsync" || lb == "scp" {
                // A whole folder of the user's own personal files (`~`,
                // `~/Documents`, `~/Pictures`), sent to a machine outside
                // the local network: their files, not the project's data.
                const PERSONAL: &[&str] = &[
                    "documents",
                    "pictures",
                    "photos",
                    "desktop",
                    "downloads",
                    "music",
                    "videos",
                    "mail",
                ];
                let far = dest
                    .as_ref()
                    .and_then(|d| remote_spec(&d.text))
                    .and_then(|(host, _)| super::project_out::far_host(host));
                for src in sources.iter().filter(|s| !s.dynamic && !remote(s)) {
                    let p = self.norm(src, cwd);
                    let top = p
                        .strip_prefix("~/")
                        .map(|r| r.split('/').next().unwrap_or("").to_ascii_lowercase());
                    let personal = top.as_deref().is_some_and(|t| PERSONAL.contains(&t))
                        || p.trim_end_matches('/') == "~";
                    if recursive && personal && far.is_some() && !self.inside(&p) {
                        self.block(format!(
                            "exfiltration ({} sends all of {} to another machine)",
                            c.base,
                            shown(&src.text)
                        ));
                    }
                }
                self.ask(format!("{} copies to another machine", c.base));
            }
        }
        for s in &sources {
            if remote(s) {
                // A tree from another machine lands as an archive's would.
                if recursive && let Some(d) = dest.as_ref().filter(|d| !remote(d)) {
                    self.extract_into_from(d, None, cwd, &c.base);
                }
                self.ask(format!("{} copies from another machine", c.base));
            }
        }
        if !new_links.is_empty() {
            self.norms.get_mut().clear();
        }
        self.links.extend(new_links);
        self.ask(format!("{} changes files", c.base));
    }

    /// `rsync --delete` removes what the destination holds beyond the
    /// source: on another machine that is a deploy, asked; on this one (a
    /// local path, or the loopback host over ssh) it is a recursive delete.
    fn rsync_delete(&mut self, d: &Word, cwd: Option<&str>, here: bool) {
        match remote_spec(&d.text) {
            Some((host, path)) if here || super::project_out::is_loopback(host) => {
                // A remote path is relative to the login's home.
                let home = crate::policy::shell::parse::HOME;
                let here = if path.starts_with('/') {
                    path.to_string()
                } else if let Some(rest) = path.strip_prefix('~') {
                    if rest.is_empty() || rest.starts_with('/') {
                        format!("{home}{rest}")
                    } else if rest == "root" || rest.starts_with("root/") {
                        format!("/{rest}")
                    } else {
                        format!("/home/{rest}")
                    }
                } else {
                    format!("{home}/{path}")
                };
                let here = Word::lit(here.trim_end_matches("/."));
                self.delete_path(&here, true, cwd, "rsync --delete");
            }
            Some((_, path)) if paths::wipes_a_machine(path) => self.block(format!(
                "rsync --delete empties a whole system or home on another machine ({})",
                shown(&d.text)
            )),
            Some(_) => self.ask(format!(
                "rsync --delete deletes files on another machine ({})",
                shown(&d.text)
            )),
            None => self.delete_path(d, true, cwd, "rsync --delete"),
        }
    }
}

/// `host:path` or `user@host:path` as rsync and scp spell another
/// machine's files: the host and the path there.
pub(super) fn remote_spec(t: &str) -> Option<(&str, &str)> {
    if t.starts_with('/') || t.starts_with('.') || paths::looks_like_drive(t) {
        return None;
    }
    let (user_host, path) = match t.split_once("]:") {
        Some((h, p)) if h.contains('[') => (h, p),
        _ => t.split_once(':')?,
    };
    // `dir/a:b` is a local file whose name has a colon.
    if user_host.contains('/') {
        return None;
    }
    let host = user_host.rsplit('@').next().unwrap_or(user_host);
    Some((host.trim_start_matches('['), path))
}
