//! `jarvis evolve`, `jarvis memory`, `jarvis reflect`: the skill
//! proposals made from repeated requests, what Jarvis remembers, and its
//! account of itself.

use std::path::PathBuf;

use anyhow::Result;
use clap::Subcommand;
use jarvis_protocol::evolve::ProposalInfo;

use crate::{TurnArgs, refuse_if_agent};

#[derive(Subcommand)]
pub enum EvolveCommand {
    /// Skill proposals, newest first.
    List {
        #[arg(long)]
        json: bool,
    },
    /// One proposal: its requests, and its draft with the validator's and
    /// the scan's verdicts and the difference from the skill it replaces.
    Show {
        id: String,
        #[arg(long)]
        json: bool,
    },
    /// Draft the skill for review (one model request); nothing is installed.
    Accept { id: String },
    /// Install the reviewed draft (validated and scanned again).
    Apply { id: String },
    /// Not wanted; not proposed again unless asked for three more times.
    Dismiss { id: String },
    /// Undo an apply: the skill goes to the trash, the one it replaced
    /// comes back.
    Rollback { id: String },
}

#[derive(Subcommand)]
pub enum MemoryCommand {
    /// What Jarvis remembers (in its prompt), with what waits for you.
    List {
        #[arg(long)]
        json: bool,
        /// Also what the bound pushed out.
        #[arg(long)]
        archived: bool,
    },
    /// Remember this, in your words.
    Add {
        text: String,
        /// preference, fact or do_not_disturb.
        #[arg(long, default_value = "preference")]
        kind: String,
    },
    /// New words for an item.
    Edit { id: String, text: String },
    /// Forget an item (an archived or suggested one too).
    Forget { id: String },
    /// Keep a suggestion Jarvis made.
    Confirm { id: String },
}

/// Who changed it, in the audit.
const BY: &str = "the user (jarvis evolve)";

fn brain() -> Result<jarvis_core::Brain> {
    crate::hub_cmd::brain(&TurnArgs::default())
}

fn print(p: &ProposalInfo, full: bool) {
    println!(
        "{}  [{}]  {} — “{}” ({} requests)",
        p.id,
        p.status,
        p.name,
        p.summary,
        p.requests.len()
    );
    if !full {
        return;
    }
    for r in &p.requests {
        println!("    · {r}");
    }
    if !p.tools.is_empty() {
        println!("  tools: {}", p.tools.join(", "));
    }
    if let Some(d) = &p.draft {
        println!("\n{d}");
        if p.problems.is_empty() {
            println!("✓ valid Agent Skill");
        }
        for pr in &p.problems {
            println!("✗ {pr}");
        }
        if p.findings.is_empty() {
            println!("✓ the install scan found nothing");
        }
        for f in &p.findings {
            println!("✗ scan: {}:{} {}", f.file, f.line, f.reason);
        }
        if let Some(diff) = &p.diff {
            println!("\nreplaces the installed skill:\n{diff}");
        }
    }
}

pub async fn evolve(command: EvolveCommand) -> Result<i32> {
    let b = brain()?;
    match command {
        EvolveCommand::List { json } => {
            let all = b.proposals()?;
            if json {
                let rows: Vec<serde_json::Value> = all
                    .iter()
                    .map(|p| {
                        serde_json::json!({"id": p.id, "status": p.status, "name": p.name,
                            "summary": p.summary, "requests": p.requests, "tools": p.tools,
                            "created_at": p.created_at})
                    })
                    .collect();
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else if all.is_empty() {
                eprintln!(
                    "no proposals yet: one comes when you ask for something similar three times"
                );
            } else {
                for p in &all {
                    print(p, false);
                }
            }
        }
        EvolveCommand::Show { id, json } => {
            let p = b.proposal(&id)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&p)?);
            } else {
                print(&p, true);
            }
        }
        EvolveCommand::Accept { id } => {
            refuse_if_agent("evolve accept")?;
            let p = b.accept_proposal(&id).await?;
            print(&p, true);
            eprintln!(
                "\nreview it, then `jarvis evolve apply {}` installs it (or `evolve dismiss`)",
                p.id
            );
        }
        EvolveCommand::Apply { id } => {
            refuse_if_agent("evolve apply")?;
            let to = b.apply_proposal(&id, BY)?;
            eprintln!(
                "installed {}; it is in the catalog from the next request (undo: `jarvis evolve rollback {id}`)",
                to.display()
            );
        }
        EvolveCommand::Dismiss { id } => {
            refuse_if_agent("evolve dismiss")?;
            b.dismiss_proposal(&id, BY)?;
            eprintln!("dismissed");
        }
        EvolveCommand::Rollback { id } => {
            refuse_if_agent("evolve rollback")?;
            let to = b.rollback_proposal(&id, BY)?;
            eprintln!("rolled back: the skill is in {}", to.display());
        }
    }
    Ok(0)
}

pub fn memory(command: MemoryCommand) -> Result<i32> {
    let b = brain()?;
    match command {
        MemoryCommand::List { json, archived } => {
            let mut m = b.memory()?;
            if !archived {
                m.archived.clear();
            }
            if json {
                println!("{}", serde_json::to_string_pretty(&m)?);
                return Ok(0);
            }
            println!("{} of {} characters", m.used_chars, m.max_chars);
            for i in &m.items {
                println!("{}  [{}, {}] {}", i.id, i.kind, i.source, i.text);
            }
            for i in &m.suggested {
                println!(
                    "{}  [{}, suggested: `jarvis memory confirm {}`] {}",
                    i.id, i.kind, i.id, i.text
                );
            }
            for i in &m.archived {
                println!("{}  [{}, archived] {}", i.id, i.kind, i.text);
            }
        }
        MemoryCommand::Add { text, kind } => {
            refuse_if_agent("memory add")?;
            let i = b.memory_add(&text, &kind, "the user (jarvis memory add)")?;
            eprintln!("remembered ({}): {}", i.id, i.text);
        }
        MemoryCommand::Edit { id, text } => {
            refuse_if_agent("memory edit")?;
            let i = b.memory_edit(&id, &text, "the user (jarvis memory edit)")?;
            eprintln!("now: {}", i.text);
        }
        MemoryCommand::Forget { id } => {
            refuse_if_agent("memory forget")?;
            let i = b.memory_forget(&id, "the user (jarvis memory forget)")?;
            eprintln!("forgot: {}", i.text);
        }
        MemoryCommand::Confirm { id } => {
            refuse_if_agent("memory confirm")?;
            let i = b.memory_confirm(&id, "the user (jarvis memory confirm)")?;
            eprintln!("kept: {}", i.text);
        }
    }
    Ok(0)
}

pub fn reflect(json: bool, html: Option<PathBuf>) -> Result<i32> {
    let r = brain()?.reflect()?;
    if let Some(path) = html {
        let page = jarvis_core::evolve::reflect::html(&r);
        let tmp = path.with_extension("html.part");
        std::fs::write(&tmp, page)?;
        std::fs::rename(&tmp, &path)?;
        eprintln!("wrote {}", path.display());
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&r)?);
        return Ok(0);
    }
    println!("Can now:");
    for c in &r.can {
        println!("  ✓ {c}");
    }
    println!("Cannot now:");
    for c in &r.cannot {
        println!("  ✗ {c}");
    }
    println!("Did:");
    for d in &r.did {
        println!("  · {d}");
    }
    println!("Radar:");
    for a in &r.radar {
        let bar = "█".repeat((a.score * 20.0).round() as usize);
        println!(
            "  {:<9} {:>4.0} % {bar:<20} {}",
            a.axis,
            a.score * 100.0,
            a.metric
        );
    }
    Ok(0)
}
