//! What a command did to the working directory: a bounded scan before it
//! runs (names, sizes, times, and the bytes of small files) and another
//! after. Files it created, changed or deleted are recorded for undo;
//! those whose old bytes the scan could not keep (too large, past the
//! budget) are recorded as such, so undo says so instead of guessing.
//! `.git` is left to git, and build and dependency folders (`target`,
//! `node_modules`, `.venv`, `__pycache__`) are made again by their tools,
//! so neither spends the budget; links are never followed.

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Files looked at, at most.
const MAX_ENTRIES: usize = 20_000;
/// The largest file whose bytes are kept before a command.
const KEEP_FILE: u64 = 256 * 1024;
/// All the bytes kept before one command.
const KEEP_TOTAL: u64 = 16 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    len: u64,
    mtime_ns: i128,
    ino: u64,
    ctime_ns: i128,
}

/// The working directory before a command.
#[derive(Debug, Default)]
pub struct Before {
    files: BTreeMap<PathBuf, (Seen, Option<Vec<u8>>)>,
    /// The scan stopped at `MAX_ENTRIES`: later files are unknown.
    pub partial: bool,
}

/// One file a command changed, relative to the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changed {
    pub rel: PathBuf,
    /// The file existed before.
    pub existed: bool,
    /// Its bytes before, when the scan kept them.
    pub before: Option<Vec<u8>>,
    /// Its bytes' hash now; `None` when it is gone.
    pub after_sha: Option<String>,
}

fn seen(m: &std::fs::Metadata) -> Seen {
    Seen {
        len: m.len(),
        mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
        ino: m.ino(),
        ctime_ns: i128::from(m.ctime()) * 1_000_000_000 + i128::from(m.ctime_nsec()),
    }
}

/// Regular files under `root`, without following links, skipping `.git`.
fn walk(root: &Path, mut each: impl FnMut(PathBuf, &std::fs::Metadata) -> bool) -> bool {
    let mut stack = vec![PathBuf::new()];
    let mut count = 0usize;
    while let Some(rel) = stack.pop() {
        let Ok(dir) = std::fs::read_dir(root.join(&rel)) else {
            continue;
        };
        for entry in dir.flatten() {
            let name = entry.file_name();
            if [".git", "target", "node_modules", ".venv", "__pycache__"]
                .iter()
                .any(|skip| name == *skip)
            {
                continue;
            }
            let Ok(m) = entry.metadata() else { continue };
            let child = rel.join(&name);
            if m.is_dir() {
                stack.push(child);
            } else if m.is_file() {
                count += 1;
                if count > MAX_ENTRIES || !each(child, &m) {
                    return false;
                }
            }
        }
    }
    true
}

fn sha_of(path: &Path) -> Option<String> {
    crate::digest::sha256_file(path).ok()
}

/// The scan before a command.
pub fn before(root: &Path) -> Before {
    let mut b = Before::default();
    let mut kept = 0u64;
    let complete = walk(root, |rel, m| {
        let bytes = (m.len() <= KEEP_FILE && kept + m.len() <= KEEP_TOTAL)
            .then(|| std::fs::read(root.join(&rel)).ok())
            .flatten();
        kept += bytes.as_ref().map_or(0, |v| v.len() as u64);
        b.files.insert(rel, (seen(m), bytes));
        true
    });
    b.partial = !complete;
    b
}

/// What changed since `before`.
pub fn after(root: &Path, mut before: Before) -> Vec<Changed> {
    let mut out = Vec::new();
    let mut now: BTreeMap<PathBuf, Seen> = BTreeMap::new();
    walk(root, |rel, m| {
        now.insert(rel, seen(m));
        true
    });
    for (rel, s) in &now {
        match before.files.remove(rel) {
            Some((old, _)) if old == *s => {}
            Some((_, bytes)) => out.push(Changed {
                after_sha: sha_of(&root.join(rel)),
                rel: rel.clone(),
                existed: true,
                before: bytes,
            }),
            // Unknown before a partial scan: it may have been there.
            None if before.partial => {}
            None => out.push(Changed {
                after_sha: sha_of(&root.join(rel)),
                rel: rel.clone(),
                existed: false,
                before: None,
            }),
        }
    }
    for (rel, (_, bytes)) in before.files {
        // Not seen after: gone, unless the walk stopped before reaching it.
        if std::fs::symlink_metadata(root.join(&rel)).is_ok() {
            continue;
        }
        out.push(Changed {
            rel,
            existed: true,
            before: bytes,
            after_sha: None,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn finds_what_was_made_changed_and_deleted_and_keeps_small_files() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join("src/a.rs"), "old a").unwrap();
        std::fs::write(root.join("gone.txt"), "bye").unwrap();
        std::fs::write(root.join("same.txt"), "same").unwrap();
        std::fs::write(root.join("big.bin"), vec![7u8; (KEEP_FILE + 1) as usize]).unwrap();
        let b = before(root);
        std::fs::write(root.join("src/a.rs"), "new a").unwrap();
        std::fs::remove_file(root.join("gone.txt")).unwrap();
        std::fs::write(root.join("made.txt"), "hi").unwrap();
        std::fs::write(root.join("big.bin"), "small now").unwrap();
        std::fs::write(root.join(".git/index"), "git's own").unwrap();
        let mut got = after(root, b);
        got.sort_by(|x, y| x.rel.cmp(&y.rel));
        let names: Vec<(&str, bool, Option<&[u8]>, bool)> = got
            .iter()
            .map(|c| {
                (
                    c.rel.to_str().unwrap(),
                    c.existed,
                    c.before.as_deref(),
                    c.after_sha.is_some(),
                )
            })
            .collect();
        assert_eq!(
            names,
            [
                ("big.bin", true, None, true),
                ("gone.txt", true, Some(&b"bye"[..]), false),
                ("made.txt", false, None, true),
                ("src/a.rs", true, Some(&b"old a"[..]), true),
            ]
        );
    }
}
