//! Opening files beneath a root with no check-then-open race: every open
//! goes through `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS |
//! RESOLVE_NO_XDEV)` from a directory handle, so a `..`, an absolute or
//! escaping symlink, a magic link or a mount crossing fails in the kernel,
//! whatever changed on disk since the policy looked. Writes also refuse a
//! symlinked or hard-linked leaf, whose inode may live outside.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, ResolveFlags};
use rustix::io::Errno;

use super::ToolError;

const RESOLVE: ResolveFlags = ResolveFlags::BENEATH
    .union(ResolveFlags::NO_MAGICLINKS)
    .union(ResolveFlags::NO_XDEV);

/// A path split into the root it must stay beneath and the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Beneath {
    pub root: PathBuf,
    pub rel: PathBuf,
    pub raw: String,
}

/// Where `raw` lives: relative paths beneath the working directory,
/// absolute ones beneath whichever root they name literally.
pub fn locate(workdir: &Path, roots: &[PathBuf], raw: &str) -> Result<Beneath, ToolError> {
    let p = Path::new(raw);
    if !p.is_absolute() {
        return Ok(Beneath {
            root: workdir.to_path_buf(),
            rel: p.to_path_buf(),
            raw: raw.into(),
        });
    }
    for root in std::iter::once(workdir).chain(roots.iter().map(PathBuf::as_path)) {
        if let Ok(rest) = p.strip_prefix(root) {
            let rel = if rest.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                rest.to_path_buf()
            };
            return Ok(Beneath {
                root: root.to_path_buf(),
                rel,
                raw: raw.into(),
            });
        }
    }
    Err(ToolError::Refused(format!(
        "{raw} is outside the working directory"
    )))
}

fn errno(b: &Beneath, e: Errno) -> ToolError {
    match e {
        // RESOLVE_BENEATH / NO_MAGICLINKS / NO_XDEV refusals.
        Errno::XDEV | Errno::LOOP => ToolError::Refused(format!(
            "{} leads outside the working directory (a symlink, `..` or a mount)",
            b.raw
        )),
        Errno::NOENT => ToolError::Failed(format!("{}: no such file or directory", b.raw)),
        Errno::NOTDIR => ToolError::Failed(format!("{}: a parent is not a directory", b.raw)),
        Errno::ACCESS | Errno::PERM => ToolError::Failed(format!("{}: permission denied", b.raw)),
        Errno::NAMETOOLONG => ToolError::Failed(format!("{}: the path is too long", b.raw)),
        Errno::ISDIR => ToolError::Failed(format!("{} is a directory", b.raw)),
        other => ToolError::Failed(format!("{}: {other}", b.raw)),
    }
}

fn root_fd(b: &Beneath) -> Result<OwnedFd, ToolError> {
    rustix::fs::open(
        &b.root,
        OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|e| ToolError::Failed(format!("the working directory {}: {e}", b.root.display())))
}

/// Opens a file for reading. `hook` runs between the policy's check and the
/// open (tests swap files there to prove the open itself is safe).
pub fn open_read(
    b: &Beneath,
    hook: Option<&(dyn Fn() + Sync)>,
) -> Result<(File, u64, bool), ToolError> {
    let root = root_fd(b)?;
    if let Some(h) = hook {
        h();
    }
    let fd = rustix::fs::openat2(
        &root,
        &b.rel,
        OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
        RESOLVE,
    )
    .map_err(|e| errno(b, e))?;
    let st = rustix::fs::fstat(&fd).map_err(|e| errno(b, e))?;
    let is_dir = FileType::from_raw_mode(st.st_mode) == FileType::Directory;
    Ok((File::from(fd), st.st_size as u64, is_dir))
}

pub fn read_all(b: &Beneath, hook: Option<&(dyn Fn() + Sync)>) -> Result<Vec<u8>, ToolError> {
    let (mut f, _, is_dir) = open_read(b, hook)?;
    if is_dir {
        return Err(ToolError::Failed(format!(
            "{} is a directory: use local_list_dir to see what is in it",
            b.raw
        )));
    }
    let mut buf = Vec::new();
    f.read_to_end(&mut buf)
        .map_err(|e| ToolError::Failed(format!("{}: {e}", b.raw)))?;
    Ok(buf)
}

/// Entries of a directory: name, is-directory, size.
pub fn list(b: &Beneath) -> Result<Vec<(String, bool, u64)>, ToolError> {
    let root = root_fd(b)?;
    let fd = rustix::fs::openat2(
        &root,
        &b.rel,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
        RESOLVE,
    )
    .map_err(|e| errno(b, e))?;
    let mut out = Vec::new();
    let dir = rustix::fs::Dir::read_from(&fd).map_err(|e| errno(b, e))?;
    for entry in dir {
        let entry = entry.map_err(|e| errno(b, e))?;
        let name = entry.file_name().to_string_lossy().to_string();
        if name == "." || name == ".." {
            continue;
        }
        let (is_dir, size) =
            match rustix::fs::statat(&fd, entry.file_name(), AtFlags::SYMLINK_NOFOLLOW) {
                Ok(st) => (
                    FileType::from_raw_mode(st.st_mode) == FileType::Directory,
                    st.st_size as u64,
                ),
                Err(_) => (false, 0),
            };
        out.push((name, is_dir, size));
    }
    out.sort();
    Ok(out)
}

/// `a/./b/../c` → `a/c`; `None` if it climbs above the root.
fn fold(rel: &Path) -> Option<Vec<std::ffi::OsString>> {
    let mut parts = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(n) => parts.push(n.to_os_string()),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteMode {
    Create,
    Overwrite,
    Append,
}

/// What a write will do, for the approval request and the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub created: bool,
    pub old_content: Option<Vec<u8>>,
}

/// Writes beneath the root, creating parent directories. Overwrite is atomic
/// (temp file + rename in the same directory).
/// The directory that holds `b`'s leaf, walked beneath the root without
/// following links (and made on the way when `create`), with the leaf;
/// `None` when a parent is missing and not to be made.
fn open_parent(
    b: &Beneath,
    create: bool,
) -> Result<Option<(OwnedFd, std::ffi::OsString)>, ToolError> {
    let parts = fold(&b.rel).ok_or_else(|| {
        ToolError::Refused(format!("{} leads outside the working directory", b.raw))
    })?;
    let Some((leaf, dirs)) = parts.split_last() else {
        return Err(ToolError::Failed(format!(
            "{} is the working directory itself",
            b.raw
        )));
    };
    let mut cur = root_fd(b)?;
    for d in dirs {
        let open = |at: &OwnedFd| {
            rustix::fs::openat2(
                at,
                d.as_os_str(),
                OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
                RESOLVE,
            )
        };
        cur = match open(&cur) {
            Ok(fd) => fd,
            Err(Errno::NOENT) if create => {
                match rustix::fs::mkdirat(&cur, d.as_os_str(), Mode::from_raw_mode(0o755)) {
                    Ok(()) | Err(Errno::EXIST) => {}
                    Err(e) => return Err(errno(b, e)),
                }
                open(&cur).map_err(|e| errno(b, e))?
            }
            Err(Errno::NOENT) => return Ok(None),
            Err(e) => return Err(errno(b, e)),
        };
    }
    Ok(Some((cur, leaf.as_os_str().to_os_string())))
}

/// Removes a regular file beneath the root (never a link's target, never a
/// directory); a file already gone is not an error.
pub fn remove(b: &Beneath) -> Result<(), ToolError> {
    let Some((cur, leaf)) = open_parent(b, false)? else {
        return Ok(());
    };
    match rustix::fs::statat(&cur, leaf.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) if FileType::from_raw_mode(st.st_mode) == FileType::RegularFile => {
            rustix::fs::unlinkat(&cur, leaf.as_os_str(), AtFlags::empty()).map_err(|e| errno(b, e))
        }
        Ok(_) => Err(ToolError::Refused(format!(
            "{} is not a regular file",
            b.raw
        ))),
        Err(Errno::NOENT) => Ok(()),
        Err(e) => Err(errno(b, e)),
    }
}

pub fn write(b: &Beneath, bytes: &[u8], mode: WriteMode) -> Result<Written, ToolError> {
    let Some((cur, leaf)) = open_parent(b, true)? else {
        return Err(errno(b, Errno::NOENT));
    };
    let existing = match rustix::fs::statat(&cur, leaf.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => Some(st),
        Err(Errno::NOENT) => None,
        Err(e) => return Err(errno(b, e)),
    };
    if let Some(st) = &existing {
        match FileType::from_raw_mode(st.st_mode) {
            FileType::Symlink => {
                return Err(ToolError::Refused(format!(
                    "{} is a symbolic link; Jarvis does not write through links",
                    b.raw
                )));
            }
            FileType::Directory => {
                return Err(ToolError::Failed(format!("{} is a directory", b.raw)));
            }
            FileType::RegularFile if st.st_nlink > 1 => {
                return Err(ToolError::Refused(format!(
                    "{} has other hard links, which may be outside the working directory",
                    b.raw
                )));
            }
            FileType::RegularFile => {}
            _ => {
                return Err(ToolError::Refused(format!(
                    "{} is not a regular file",
                    b.raw
                )));
            }
        }
        if mode == WriteMode::Create {
            return Err(ToolError::Failed(format!(
                "{} already exists (use mode 'overwrite')",
                b.raw
            )));
        }
    }
    let old_content = match (&existing, mode) {
        (Some(_), WriteMode::Overwrite) => {
            let fd = rustix::fs::openat(
                &cur,
                leaf.as_os_str(),
                OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .map_err(|e| errno(b, e))?;
            let mut v = Vec::new();
            File::from(fd)
                .read_to_end(&mut v)
                .map_err(|e| ToolError::Failed(format!("{}: {e}", b.raw)))?;
            Some(v)
        }
        _ => None,
    };
    let io = |e: std::io::Error| ToolError::Failed(format!("{}: {e}", b.raw));
    match mode {
        WriteMode::Append => {
            let fd = rustix::fs::openat(
                &cur,
                leaf.as_os_str(),
                OFlags::WRONLY
                    | OFlags::APPEND
                    | OFlags::CREATE
                    | OFlags::NOFOLLOW
                    | OFlags::CLOEXEC,
                Mode::from_raw_mode(0o644),
            )
            .map_err(|e| errno(b, e))?;
            File::from(fd).write_all(bytes).map_err(io)?;
        }
        WriteMode::Create | WriteMode::Overwrite => {
            let tmp = format!(".jarvis-write-{}", uuid::Uuid::new_v4().simple());
            let fd = rustix::fs::openat(
                &cur,
                tmp.as_str(),
                OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::from_raw_mode(0o644),
            )
            .map_err(|e| errno(b, e))?;
            // A replaced file keeps its permissions (a 0600 `.env` stays
            // private, a script stays executable).
            if let Some(st) = &existing {
                let _ = rustix::fs::fchmod(&fd, Mode::from_raw_mode(st.st_mode & 0o7777));
            }
            let mut f = File::from(fd);
            let done = f.write_all(bytes).and_then(|_| f.sync_all());
            if let Err(e) = done {
                let _ = rustix::fs::unlinkat(&cur, tmp.as_str(), AtFlags::empty());
                return Err(io(e));
            }
            let renamed = if mode == WriteMode::Create {
                // Never replace a file that appeared meanwhile.
                rustix::fs::renameat_with(
                    &cur,
                    tmp.as_str(),
                    &cur,
                    leaf.as_os_str(),
                    rustix::fs::RenameFlags::NOREPLACE,
                )
            } else {
                rustix::fs::renameat(&cur, tmp.as_str(), &cur, leaf.as_os_str())
            };
            if let Err(e) = renamed {
                let _ = rustix::fs::unlinkat(&cur, tmp.as_str(), AtFlags::empty());
                return Err(if e == Errno::EXIST {
                    ToolError::Failed(format!("{} already exists (use mode 'overwrite')", b.raw))
                } else {
                    errno(b, e)
                });
            }
        }
    }
    Ok(Written {
        created: existing.is_none(),
        old_content,
    })
}
