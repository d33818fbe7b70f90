//! Installing a skill from a folder or a `.zip`, in two phases: `inspect`
//! stages it and reports what would be installed (files, validation,
//! warnings, scan findings); `commit` moves it into `$JARVIS_HOME/skills`
//! atomically. Zip-slip and symbolic links are refused.

use std::io::Read;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::scan::scan_dir;
use super::validate::{skill_file, validate_dir};

#[derive(Debug, Error)]
pub enum InstallError {
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

pub use jarvis_protocol::skills::InstallReport;

/// A staged skill: the report and the files, not yet installed.
pub struct Staged {
    pub report: InstallReport,
    dir: PathBuf,
    _staging: tempfile::TempDir,
}

const MAX_FILES: usize = 2_000;
const MAX_BYTES: u64 = 50 * 1024 * 1024;

fn refuse(s: impl Into<String>) -> InstallError {
    InstallError::Refused(s.into())
}

fn copy_tree(from: &Path, to: &Path, count: &mut (usize, u64)) -> Result<(), InstallError> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let ft = e.file_type()?;
        let name = e.file_name();
        if ft.is_symlink() {
            return Err(refuse(format!(
                "{} is a symbolic link; skills may not contain links",
                e.path().display()
            )));
        }
        if ft.is_dir() {
            copy_tree(&e.path(), &to.join(&name), count)?;
        } else if ft.is_file() {
            count.0 += 1;
            count.1 += e.metadata()?.len();
            if count.0 > MAX_FILES || count.1 > MAX_BYTES {
                return Err(refuse(
                    "the skill is too large (2,000 files or 50 MiB at most)",
                ));
            }
            std::fs::copy(e.path(), to.join(&name))?;
        }
    }
    Ok(())
}

fn extract_zip(zip_path: &Path, to: &Path) -> Result<(), InstallError> {
    let file = std::fs::File::open(zip_path)?;
    let mut archive =
        zip::ZipArchive::new(file).map_err(|e| refuse(format!("not a readable zip: {e}")))?;
    if archive.len() > MAX_FILES {
        return Err(refuse("the archive has too many entries"));
    }
    let mut total = 0u64;
    for i in 0..archive.len() {
        let mut entry = archive
            .by_index(i)
            .map_err(|e| refuse(format!("zip entry {i}: {e}")))?;
        let raw_name = entry
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| format!("entry {i}"));
        let Some(rel) = entry.enclosed_name() else {
            return Err(refuse(format!(
                "zip entry {raw_name:?} would land outside the skill folder (zip-slip)"
            )));
        };
        if entry.is_symlink() {
            return Err(refuse(format!(
                "zip entry {raw_name:?} is a symbolic link; skills may not contain links"
            )));
        }
        let dest = to.join(&rel);
        if entry.is_dir() {
            std::fs::create_dir_all(&dest)?;
            continue;
        }
        total += entry.size();
        if total > MAX_BYTES {
            return Err(refuse("the archive unpacks to more than 50 MiB"));
        }
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut buf = Vec::new();
        entry.by_ref().take(MAX_BYTES + 1).read_to_end(&mut buf)?;
        std::fs::write(&dest, buf)?;
    }
    Ok(())
}

/// The skill folder inside what was unpacked: the top itself, or its one folder.
fn skill_root(top: &Path) -> Result<PathBuf, InstallError> {
    if skill_file(top).is_some() {
        return Ok(top.to_path_buf());
    }
    let dirs: Vec<PathBuf> = std::fs::read_dir(top)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_dir()
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("__MACOSX"))
        })
        .collect();
    match dirs.as_slice() {
        [one] if skill_file(one).is_some() => Ok(one.clone()),
        _ => Err(refuse("no SKILL.md at the top of the folder or archive")),
    }
}

/// Phase one: stage, validate and scan; nothing in `$JARVIS_HOME/skills` changes.
pub fn inspect(src: &Path, home: &Path) -> Result<Staged, InstallError> {
    let staging_parent = home.join(".staging");
    std::fs::create_dir_all(&staging_parent)?;
    let staging = tempfile::Builder::new()
        .prefix("skill-")
        .tempdir_in(&staging_parent)?;
    let meta =
        std::fs::symlink_metadata(src).map_err(|e| refuse(format!("{}: {e}", src.display())))?;
    let top_name = src
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "skill".into());
    let unpacked = staging.path().join("unpacked").join(&top_name);
    if meta.file_type().is_symlink() {
        return Err(refuse(format!("{} is a symbolic link", src.display())));
    } else if meta.is_dir() {
        copy_tree(src, &unpacked, &mut (0, 0))?;
    } else if src
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
    {
        extract_zip(src, &unpacked)?;
    } else {
        return Err(refuse("give a skill folder or a .zip"));
    }
    let dir = skill_root(&unpacked)?;
    let skill = super::load_dir(&dir, "install")
        .map_err(|b| refuse(format!("the skill cannot be loaded: {}", b.reason)))?;
    if !skill.name.chars().all(|c| c.is_alphanumeric() || c == '-') || skill.name.starts_with('-') {
        return Err(refuse(format!(
            "the name {:?} cannot be a folder name (letters, digits and hyphens only)",
            skill.name
        )));
    }
    let target = home.join("skills").join(&skill.name);
    let mut files = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)?.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let size = e.metadata().map(|m| m.len()).unwrap_or(0);
                files.push((
                    p.strip_prefix(&dir).unwrap_or(&p).display().to_string(),
                    size,
                ));
            }
        }
    }
    files.sort();
    let report = InstallReport {
        exists: target.exists(),
        target,
        problems: validate_dir(&dir).into_iter().map(|p| p.message).collect(),
        warnings: skill.warnings.clone(),
        findings: scan_dir(&dir),
        name: skill.name,
        description: skill.description,
        files,
    };
    Ok(Staged {
        report,
        dir,
        _staging: staging,
    })
}

/// Phase two: move the staged skill into place. An existing skill is kept
/// unless `force`, and then goes to the trash; findings refuse unless `force`.
pub fn commit(staged: Staged, force: bool) -> Result<PathBuf, InstallError> {
    let r = &staged.report;
    if !r.findings.is_empty() && !force {
        return Err(refuse(format!(
            "the scan found {} dangerous command(s), e.g. {}: {}; install with --force only if you trust it",
            r.findings.len(),
            r.findings[0].file,
            r.findings[0].reason
        )));
    }
    if r.target.exists() {
        if !force {
            return Err(refuse(format!(
                "{} already exists; use --force to replace it",
                r.target.display()
            )));
        }
        // `skills/<name>` under the home: the replaced one can be restored.
        let home = r
            .target
            .parent()
            .and_then(Path::parent)
            .unwrap_or(Path::new("."));
        super::manage::to_trash(home, &r.name, &r.target)?;
    }
    if let Some(parent) = r.target.parent() {
        std::fs::create_dir_all(parent)?;
    }
    // Same filesystem (staging lives in $JARVIS_HOME): the rename is atomic.
    std::fs::rename(&staged.dir, &r.target)?;
    Ok(r.target.clone())
}
