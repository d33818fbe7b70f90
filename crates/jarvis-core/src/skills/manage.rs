//! Managing skills: enable/disable (persisted), delete to the trash and
//! restore, with the skill's name as its identity.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::Catalog;

#[derive(Debug, Error)]
pub enum ManageError {
    #[error("no skill named {0:?} (see `jarvis skill list`)")]
    Unknown(String),
    #[error("{0:?} is bundled with the app and cannot be deleted; disable it instead")]
    Bundled(String),
    #[error("nothing named {0:?} in the trash")]
    NotInTrash(String),
    #[error("{path} already exists; move it away first")]
    Exists { path: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

pub use jarvis_protocol::skills::SkillTest;

/// Validates and scans an installed skill, as it is on disk now.
pub fn test(catalog: &Catalog, name: &str) -> Result<SkillTest, ManageError> {
    let skill = catalog
        .get(name)
        .ok_or_else(|| ManageError::Unknown(name.into()))?;
    Ok(SkillTest {
        name: name.to_string(),
        problems: super::validate::validate_dir(&skill.dir)
            .into_iter()
            .map(|p| p.message)
            .collect(),
        findings: super::scan::scan_dir(&skill.dir),
    })
}

/// What the trash remembers about a deleted skill.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct TrashNote {
    name: String,
    original: PathBuf,
    deleted_at: i64,
}

fn trash_dir(home: &Path) -> PathBuf {
    home.join(".trash/skills")
}

/// Moves the skill's folder to `$JARVIS_HOME/.trash/skills/`; returns where.
pub fn delete(home: &Path, catalog: &Catalog, name: &str) -> Result<PathBuf, ManageError> {
    let skill = catalog
        .get(name)
        .ok_or_else(|| ManageError::Unknown(name.into()))?;
    if skill.source == "bundled" {
        return Err(ManageError::Bundled(name.into()));
    }
    Ok(to_trash(home, name, &skill.dir)?)
}

/// Moves a skill's folder into the trash, with the note `restore` reads.
pub(crate) fn to_trash(home: &Path, name: &str, dir: &Path) -> std::io::Result<PathBuf> {
    let now = crate::store::now_ms();
    let dest = trash_dir(home).join(format!("{now}-{name}"));
    std::fs::create_dir_all(&dest)?;
    std::fs::rename(dir, dest.join("skill"))?;
    let note = TrashNote {
        name: name.into(),
        original: dir.to_path_buf(),
        deleted_at: now,
    };
    let text =
        serde_json::to_string_pretty(&note).map_err(|e| std::io::Error::other(e.to_string()))?;
    crate::config::atomic_write(&dest.join("trash.json"), text.as_bytes())?;
    Ok(dest)
}

/// Brings back the most recently deleted skill of that name.
pub fn restore(home: &Path, name: &str) -> Result<PathBuf, ManageError> {
    restore_before(home, name, i64::MAX)
}

/// Brings back the newest copy of that name trashed before `before` (ms):
/// what an install replaced, once the install itself went to the trash.
pub fn restore_before(home: &Path, name: &str, before: i64) -> Result<PathBuf, ManageError> {
    let mut found: Option<(i64, PathBuf, TrashNote)> = None;
    if let Ok(rd) = std::fs::read_dir(trash_dir(home)) {
        for e in rd.flatten() {
            let Ok(text) = std::fs::read_to_string(e.path().join("trash.json")) else {
                continue;
            };
            let Ok(note) = serde_json::from_str::<TrashNote>(&text) else {
                continue;
            };
            if note.name == name
                && note.deleted_at < before
                && found.as_ref().is_none_or(|(t, _, _)| note.deleted_at > *t)
            {
                found = Some((note.deleted_at, e.path(), note));
            }
        }
    }
    let (_, entry, note) = found.ok_or_else(|| ManageError::NotInTrash(name.into()))?;
    if note.original.exists() {
        return Err(ManageError::Exists {
            path: note.original.display().to_string(),
        });
    }
    if let Some(parent) = note.original.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::rename(entry.join("skill"), &note.original)?;
    std::fs::remove_dir_all(&entry)?;
    Ok(note.original)
}
