//! `jarvis undo`: put back the files a turn or a task changed.

use anyhow::Result;
use jarvis_core::undo::UndoScope;
use jarvis_protocol::ChangeKind;

use crate::TurnArgs;

fn scope(turn: Option<String>, task: Option<String>) -> UndoScope {
    match (turn, task) {
        (Some(t), _) => UndoScope::Turn(t),
        (None, Some(t)) => UndoScope::Task(t),
        (None, None) => UndoScope::Last,
    }
}

/// `--list` shows what would be undone; otherwise it is undone.
pub fn undo(turn: Option<String>, task: Option<String>, list: bool, json: bool) -> Result<i32> {
    let b = crate::hub_cmd::brain(&TurnArgs::default())?;
    let scope = scope(turn, task);
    if list {
        let changes = b.changes(&scope)?;
        if json {
            println!("{}", serde_json::to_string_pretty(&changes)?);
        } else if changes.is_empty() {
            eprintln!("no file changes to undo");
        }
        if !json {
            for c in &changes {
                let kind = match c.kind {
                    ChangeKind::Created => "created",
                    ChangeKind::Modified => "changed",
                    ChangeKind::Deleted => "deleted",
                };
                let undone = if c.undone { " (undone)" } else { "" };
                println!("{}  {kind:<8} {}{undone}  [{}]", c.turn_id, c.path, c.tool);
            }
        }
        return Ok(0);
    }
    let report = b.undo(&scope, "jarvis undo")?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        eprintln!("{}", report.summary());
    }
    // Something the user must look at: not all of it could be taken back.
    Ok(if report.problems.is_empty() { 0 } else { 1 })
}
