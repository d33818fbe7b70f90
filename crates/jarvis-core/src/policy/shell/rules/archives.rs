//! Archives: the names a program reads from its input, and where
//! extraction writes.

use super::*;

impl Analyzer<'_> {
    /// Programs that read the files named on their input (`cpio -o`,
    /// `tar -T -`, `zip -@`): each name is a read.
    pub(super) fn names_on_stdin(&mut self, c: &Cmd<'_>) {
        let producer = c.src.stdin_from.and_then(|i| c.script.commands.get(i));
        let (_, items) = self.input_items(c, producer, &[], None, false);
        match items {
            Some(items) => {
                for it in items {
                    self.read_path(&it, c.cwd());
                }
            }
            None => {
                let here = self.norm(&Word::lit("."), c.cwd());
                if paths::contains_credentials(&here) {
                    self.block(format!(
                        "{} archives files named at run time from {}, where keys live",
                        c.base,
                        shown(&here)
                    ));
                }
            }
        }
    }

    /// Extracting an archive: into home or a top-level folder it can replace
    /// startup files and keys.
    ///
    /// What a downloaded or decoded archive unpacks is as untrusted as the
    /// archive: anything later run from that folder is download and execute.
    pub(super) fn extract_into_from(
        &mut self,
        d: &Word,
        archive: Option<&Word>,
        cwd: Option<&str>,
        what: &str,
    ) {
        if let Some(a) = archive
            && self.is_tainted(a, cwd)
        {
            let dir = self.norm(d, cwd);
            let dir = dir.trim_end_matches('/');
            if paths::user_bin(&format!("{dir}/x")) {
                self.block(format!(
                    "download and execute ({what} unpacks a download into {dir}, a folder on PATH: its programs run as commands)"
                ));
            }
            self.tainted.push(if dir.is_empty() || dir == "." {
                "./".to_string()
            } else {
                format!("{dir}/")
            });
        }
        if !d.dynamic {
            let p = self.norm(d, cwd);
            // `unzip -:` keeps members' `../`: no folder bounds it.
            let climbs = what == "unzip -:";
            // Into a folder on PATH or of startup files: what it unpacks
            // runs as commands or at login, ahead of the system's own.
            let dir = p.trim_end_matches('/');
            if !self.inside(&p)
                && (paths::user_bin(&format!("{dir}/x"))
                    || paths::persistence_normalized(dir)
                    || paths::persistence_normalized(&format!("{dir}/x"))
                    // A folder holding startup places, filled by a tree from
                    // elsewhere (a restore, a remote copy, a download).
                    || paths::holds_startup_places(dir)
                        && archive.is_none_or(|a| self.is_tainted(a, cwd)))
            {
                self.block(format!(
                    "{what} extracts into {}, a folder of commands or startup files",
                    shown(&d.text)
                ));
                return;
            }
            // On another machine, a deploy folder (`/srv/docs`) is where
            // releases are unpacked; its system, home or root is not.
            let deploy = self.remote
                && !climbs
                && !paths::wipes_a_machine(&p)
                && !paths::system_tree_elsewhere(&p)
                && !p.starts_with('~');
            if paths::catastrophic_normalized(&p)
                && !self.inside(&p)
                && !deploy
                && (climbs || !plain_home_folder(&p) && !local_prefix(&p, archive, self, cwd))
            {
                self.block(format!(
                    "{what} extracts into {}, where it can replace startup files and keys",
                    shown(&d.text)
                ));
                return;
            }
        }
        self.write_path(d, cwd, what);
    }
}

/// `~/.local`, `~/.local/opt`: where programs are installed by hand from a
/// local archive (asked as a write); one downloaded by this line, or its
/// startup folders (`share/applications`, caught above), are not this.
fn local_prefix(p: &str, archive: Option<&Word>, a: &Analyzer<'_>, cwd: Option<&str>) -> bool {
    let p = p.trim_end_matches('/');
    (p == "~/.local" || p.starts_with("~/.local/") && !p.starts_with("~/.local/share"))
        && archive.is_some_and(|w| !a.is_tainted(w, cwd))
}

/// `~/restore`, `~/Documents`: a visible folder of home's holds the user's
/// files, not startup files or keys. Tar and unzip refuse members that
/// climb out with `..`, so extraction there overwrites only that folder's
/// files, which is asked like any write outside the project.
fn plain_home_folder(p: &str) -> bool {
    // Folders whose insides programs run or keys live in: `~/go/bin`,
    // macOS's `~/Library`, Windows' `~/AppData`, snaps' profiles.
    const PROGRAM_ROOTS: &[&str] = &["go", "Library", "AppData", "snap", "bin", "opt", "perl5"];
    p.strip_prefix("~/").is_some_and(|name| {
        !name.is_empty()
            && !name.starts_with('.')
            && !name.contains('/')
            && !PROGRAM_ROOTS.iter().any(|r| r.eq_ignore_ascii_case(name))
            && !paths::user_bin(&format!("{p}/x"))
    })
}
