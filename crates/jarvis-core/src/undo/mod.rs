//! Undo: every file a turn's (or a task's) calls created, overwrote or
//! deleted can be put back byte for byte. Each change is recorded as it
//! happens, with the old bytes kept under `$JARVIS_HOME/undo/` and the
//! file's hash before and after. Undoing restores the oldest state of
//! each file — unless the file changed since (someone else edited it):
//! then it stays as it is and the old version is written beside it, so
//! both are kept. The undo itself is a row in the audit log.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::digest::sha256;
use jarvis_protocol::{ChangeInfo, ChangeKind, Event, UndoReport};

use crate::Brain;
use crate::agent::{BrainError, Inner};
use crate::store::{AuditEntry, Change, ChangeScope};
use crate::tools::ToolContext;
use crate::tools::sandbox::{self, Beneath, WriteMode};

pub mod scan;

/// What to take back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UndoScope {
    Turn(String),
    Task(String),
    /// The latest turn, in any conversation, with changes not undone.
    Last,
}

fn info(c: &Change) -> ChangeInfo {
    ChangeInfo {
        turn_id: c.turn_id.clone(),
        session_id: c.session_id.clone(),
        tool: c.tool.clone(),
        path: PathBuf::from(&c.root).join(&c.path).display().to_string(),
        kind: kind(c),
        at: c.at,
        undone: c.undone_at.is_some(),
    }
}

fn kind(c: &Change) -> ChangeKind {
    if c.lost {
        return if c.after_sha.is_some() {
            ChangeKind::Modified
        } else {
            ChangeKind::Deleted
        };
    }
    match (&c.before_sha, &c.after_sha) {
        (None, _) => ChangeKind::Created,
        (_, None) => ChangeKind::Deleted,
        _ => ChangeKind::Modified,
    }
}

/// Keeps `before` aside and records the change; returns where the old
/// bytes are. Called by the tools that write, as they write.
pub(crate) fn record(
    ctx: &ToolContext,
    tool: &str,
    at: &Beneath,
    before: Option<&[u8]>,
    after: Option<&[u8]>,
) -> Option<PathBuf> {
    record_change(ctx, tool, at, before, after.map(sha256), false)
}

fn record_change(
    ctx: &ToolContext,
    tool: &str,
    at: &Beneath,
    before: Option<&[u8]>,
    after_sha: Option<String>,
    lost: bool,
) -> Option<PathBuf> {
    let inner = ctx.brain.as_ref().and_then(std::sync::Weak::upgrade)?;
    let kept = match before {
        Some(old) => match keep(&ctx.jarvis_home, &ctx.run.run_id, &at.rel, old) {
            Ok(p) => Some(p),
            Err(e) => {
                tracing::warn!("undo: could not keep the old {}: {e}", at.raw);
                return None;
            }
        },
        None => None,
    };
    let change = Change {
        id: 0,
        session_id: ctx.session_id.clone(),
        turn_id: ctx.run.run_id.clone(),
        call_id: ctx.call_id.clone(),
        tool: tool.into(),
        root: at.root.display().to_string(),
        path: at.rel.display().to_string(),
        before_file: kept.as_ref().map(|p| p.display().to_string()),
        before_sha: before.map(sha256),
        after_sha,
        lost,
        at: 0,
        undone_at: None,
    };
    if let Err(e) = inner.store.record_change(&change) {
        tracing::warn!("undo: could not record the change to {}: {e}", at.raw);
    }
    kept
}

/// Records what a command did to the working directory (see [`scan`]);
/// returns a line for its result, when it changed anything.
pub(crate) fn record_scan(
    ctx: &ToolContext,
    tool: &str,
    changed: &[scan::Changed],
) -> Option<String> {
    if changed.is_empty() {
        return None;
    }
    let mut lost = Vec::new();
    for c in changed {
        let at = Beneath {
            root: ctx.workdir.clone(),
            rel: c.rel.clone(),
            raw: c.rel.display().to_string(),
        };
        let gone = c.existed && c.before.is_none();
        if gone {
            lost.push(at.raw.clone());
        }
        record_change(
            ctx,
            tool,
            &at,
            c.before.as_deref(),
            c.after_sha.clone(),
            gone,
        );
    }
    const SHOWN: usize = 10;
    let mut names: Vec<String> = changed
        .iter()
        .take(SHOWN)
        .map(|c| c.rel.display().to_string())
        .collect();
    if changed.len() > SHOWN {
        names.push(format!("and {} more", changed.len() - SHOWN));
    }
    let mut line = format!(
        "files changed in the working directory: {}",
        names.join(", ")
    );
    if !lost.is_empty() {
        line.push_str(&format!(
            " (undo cannot restore {}: too large to keep)",
            lost.join(", ")
        ));
    }
    Some(line)
}

/// Keeps a file's old bytes under `$JARVIS_HOME/undo/<turn>/`.
pub(crate) fn keep(home: &Path, turn: &str, rel: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let name: String = rel
        .display()
        .to_string()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let turn: String = turn
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    let dir = home.join("undo").join(turn);
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(format!("{}-{name}", uuid::Uuid::new_v4().simple()));
    crate::config::atomic_write(&path, bytes)?;
    Ok(path)
}

/// The file's bytes now; `None` when there is none.
fn current(b: &Beneath) -> Result<Option<Vec<u8>>, String> {
    match std::fs::symlink_metadata(b.root.join(&b.rel)) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", b.raw)),
        Ok(_) => sandbox::read_all(b, None)
            .map(Some)
            .map_err(|e| e.to_string()),
    }
}

/// A name beside `b` that is free: `notes.txt.before-undo`, `…-2`, ….
fn beside(b: &Beneath, bytes: &[u8]) -> Result<String, String> {
    for n in 1..100 {
        let suffix = if n == 1 {
            ".before-undo".to_string()
        } else {
            format!(".before-undo-{n}")
        };
        let mut rel = b.rel.clone().into_os_string();
        rel.push(&suffix);
        let there = Beneath {
            root: b.root.clone(),
            rel: PathBuf::from(rel),
            raw: format!("{}{suffix}", b.raw),
        };
        match sandbox::write(&there, bytes, WriteMode::Create) {
            Ok(_) => return Ok(there.root.join(&there.rel).display().to_string()),
            Err(e) if e.to_string().contains("already exists") => continue,
            Err(e) => return Err(e.to_string()),
        }
    }
    Err(format!("{}: no free name beside it", b.raw))
}

/// Takes back one file's changes (oldest first in `group`); the report
/// says what happened to it. True when the changes are settled (undone,
/// or kept both).
fn undo_file(home: &Path, group: &[Change], report: &mut UndoReport) -> bool {
    let (Some(first), Some(last)) = (group.first(), group.last()) else {
        return false;
    };
    let b = Beneath {
        root: PathBuf::from(&first.root),
        rel: PathBuf::from(&first.path),
        raw: PathBuf::from(&first.root)
            .join(&first.path)
            .display()
            .to_string(),
    };
    if first.lost {
        report.problems.push(format!(
            "{}: its content before was too large to keep, so it stays as it is",
            b.raw
        ));
        return true;
    }
    let old = match &first.before_file {
        None => None,
        Some(f) => match std::fs::read(f) {
            Ok(bytes) if first.before_sha.as_deref() == Some(sha256(&bytes).as_str()) => {
                Some(bytes)
            }
            Ok(_) => {
                report.problems.push(format!(
                    "{}: the kept old version was altered; left as it is",
                    b.raw
                ));
                return false;
            }
            Err(e) => {
                report.problems.push(format!(
                    "{}: the kept old version is gone ({e}); left as it is",
                    b.raw
                ));
                return false;
            }
        },
    };
    let now = match current(&b) {
        Ok(now) => now,
        Err(e) => {
            report.problems.push(e);
            return false;
        }
    };
    if now.as_deref().map(sha256) != last.after_sha {
        // Someone changed it since: theirs stays, ours goes beside it.
        return match (&old, &now) {
            (Some(bytes), _) => match beside(&b, bytes) {
                Ok(copy) => {
                    report.kept_both.push((b.raw.clone(), copy));
                    true
                }
                Err(e) => {
                    report.problems.push(e);
                    false
                }
            },
            (None, Some(_)) => {
                report.problems.push(format!(
                    "{} was changed since Jarvis created it, so it stays",
                    b.raw
                ));
                true
            }
            (None, None) => true,
        };
    }
    // What undo replaces or removes is kept too: nothing is lost by an
    // undo (a command that renamed a file looks like a delete and a create).
    if let Some(bytes) = &now
        && let Err(e) = keep(home, "undone", &b.rel, bytes)
    {
        report.problems.push(format!(
            "{}: could not keep its current version ({e}); left as it is",
            b.raw
        ));
        return false;
    }
    let done = match &old {
        Some(bytes) => sandbox::write(&b, bytes, WriteMode::Overwrite)
            .map(|_| report.restored.push(b.raw.clone())),
        None => sandbox::remove(&b).map(|_| report.removed.push(b.raw.clone())),
    };
    match done {
        Ok(()) => true,
        Err(e) => {
            report.problems.push(e.to_string());
            false
        }
    }
}

fn audit(
    inner: &Arc<Inner>,
    session: Option<&str>,
    what: &str,
    by: &str,
    report: &UndoReport,
    ms: u64,
) {
    let call = format!("undo-{}", uuid::Uuid::new_v4().simple());
    let entry = AuditEntry {
        call_id: &call,
        session_id: session,
        tool: "undo",
        arguments: what,
        verdict: "allow",
        reason: "undo asked for by the user",
        decided_by: by,
    };
    match inner.store.audit_begin(&entry) {
        Ok(id) => {
            if let Err(e) = inner.store.audit_finish(id, &report.summary(), ms) {
                tracing::warn!("undo: audit: {e}");
            }
        }
        Err(e) => tracing::warn!("undo: audit: {e}"),
    }
}

impl Brain {
    /// The files a turn or a task changed, oldest first.
    pub fn changes(&self, scope: &UndoScope) -> Result<Vec<ChangeInfo>, BrainError> {
        let rows = match self.scope(scope)? {
            Some(s) => self.inner.store.changes(&s)?,
            None => Vec::new(),
        };
        Ok(rows.iter().map(info).collect())
    }

    /// The files a conversation's turns changed, oldest first.
    pub fn session_changes(&self, session: &str) -> Result<Vec<ChangeInfo>, BrainError> {
        let rows = self
            .inner
            .store
            .changes(&ChangeScope::Session(session.to_string()))?;
        Ok(rows.iter().map(info).collect())
    }

    fn scope(&self, scope: &UndoScope) -> Result<Option<ChangeScope>, BrainError> {
        Ok(match scope {
            UndoScope::Turn(t) => Some(ChangeScope::Turn(t.clone())),
            UndoScope::Task(id) => Some(ChangeScope::Session(self.task(id)?.session_id)),
            UndoScope::Last => self.inner.store.last_changed_turn()?.map(ChangeScope::Turn),
        })
    }

    /// Takes back what a turn or task did to files. A running one is left
    /// alone (stop it first).
    pub fn undo(&self, scope: &UndoScope, by: &str) -> Result<UndoReport, BrainError> {
        let started = std::time::Instant::now();
        // One undo at a time across processes (the app and `jarvis undo`):
        // the second waits, then finds the changes settled.
        let _held = undo_lock(self.home())?;
        let Some(key) = self.scope(scope)? else {
            return Ok(UndoReport::default());
        };
        let rows: Vec<Change> = self
            .inner
            .store
            .changes(&key)?
            .into_iter()
            .filter(|c| c.undone_at.is_none())
            .collect();
        // Running here, or in another process (a turn in the app while the
        // CLI undoes).
        let running =
            |s: &str| self.is_running(s) || self.inner.store.turn_running(s).unwrap_or(true);
        if let Some(busy) = rows
            .iter()
            .find_map(|c| c.session_id.as_deref().filter(|s| running(s)))
        {
            return Err(BrainError::Busy(busy.to_string()));
        }
        // One group per file, newest file first.
        let mut groups: BTreeMap<(String, String), Vec<Change>> = BTreeMap::new();
        let mut order: Vec<(String, String)> = Vec::new();
        for c in rows {
            let k = (c.root.clone(), c.path.clone());
            if !groups.contains_key(&k) {
                order.push(k.clone());
            }
            groups.entry(k).or_default().push(c);
        }
        let mut report = UndoReport::default();
        let mut settled = Vec::new();
        for k in order.iter().rev() {
            let group = &groups[k];
            if undo_file(self.home(), group, &mut report) {
                settled.extend(group.iter().map(|c| c.id));
            }
        }
        self.inner.store.mark_undone(&settled)?;
        if !report.is_empty() {
            let session = groups.values().flatten().find_map(|c| c.session_id.clone());
            let what = serde_json::json!({ key.name(): key.id() }).to_string();
            audit(
                &self.inner,
                session.as_deref(),
                &what,
                by,
                &report,
                started.elapsed().as_millis() as u64,
            );
            self.inner.events.emit(
                session.as_deref(),
                Event::Notice {
                    message: format!("Undo: {}", report.summary()),
                },
            );
        }
        Ok(report)
    }
}

/// Holds `undo/.lock` until dropped.
fn undo_lock(home: &Path) -> Result<std::fs::File, BrainError> {
    let dir = home.join("undo");
    let held = std::fs::create_dir_all(&dir).and_then(|()| {
        let f = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(".lock"))?;
        f.lock()?;
        Ok(f)
    });
    held.map_err(|e| BrainError::Other(format!("undo: cannot lock {}: {e}", dir.display())))
}
