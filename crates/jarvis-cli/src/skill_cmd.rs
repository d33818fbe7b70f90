//! `jarvis skill`: what is discovered, validation, install, enable/disable,
//! trash and restore, and the catalog the model sees.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use clap::Subcommand;

use crate::{TurnArgs, approver, home, open_brain, refuse_if_agent};

#[derive(Subcommand)]
pub enum SkillCommand {
    /// Every skill found, with its source and warnings; broken ones with the reason.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Check a skill directory against the Agent Skills spec.
    Validate {
        path: PathBuf,
    },
    /// Install a skill folder or .zip into $JARVIS_HOME/skills (validated and scanned first).
    Install {
        path: PathBuf,
        /// Replace an existing skill, and install despite scan findings.
        #[arg(long)]
        force: bool,
        /// Print the report; write nothing.
        #[arg(long)]
        dry_run: bool,
        #[arg(long)]
        json: bool,
    },
    /// Validate a skill and scan its files for dangerous commands.
    Test {
        name: String,
    },
    /// Offer the skill to the model again.
    Enable {
        name: String,
    },
    /// Keep a skill Jarvis made out of the curator's reach (never marked
    /// stale, never moved to the trash).
    Pin {
        name: String,
    },
    Unpin {
        name: String,
    },
    /// Keep the skill out of the model's catalog.
    Disable {
        name: String,
    },
    /// Move the skill to $JARVIS_HOME/.trash (restore brings it back).
    Delete {
        name: String,
    },
    Restore {
        name: String,
    },
    /// The catalog exactly as the model sees it.
    Prompt,
}

pub fn skill(cmd: SkillCommand) -> Result<i32> {
    match cmd {
        SkillCommand::Validate { path } => {
            let dir = if path
                .file_name()
                .is_some_and(|f| f.eq_ignore_ascii_case("SKILL.md"))
            {
                path.parent().map(PathBuf::from).unwrap_or(path)
            } else {
                path
            };
            let problems = jarvis_core::skills::validate::validate_dir(&dir);
            if problems.is_empty() {
                println!("Valid skill: {}", dir.display());
                return Ok(0);
            }
            eprintln!("Validation failed for {}:", dir.display());
            for p in problems {
                eprintln!("  - {}", p.message);
            }
            Ok(1)
        }
        SkillCommand::List { json } => {
            let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
            let listing = brain.skill_listing()?;
            let broken = brain.skills().broken;
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(
                        &serde_json::json!({"skills": listing, "broken": broken})
                    )?
                );
                return Ok(0);
            }
            if listing.is_empty() && broken.is_empty() {
                println!(
                    "no skills (looked in ~/.claude/skills, ~/.agents/skills, $JARVIS_HOME/skills and skills.extra_dirs)"
                );
            }
            for l in &listing {
                let s = &l.skill;
                let flags = format!(
                    "{}{}",
                    if l.enabled { "" } else { " disabled" },
                    if l.valid { "" } else { " invalid" }
                );
                let shadow = if s.shadows.is_empty() {
                    String::new()
                } else {
                    format!(" (shadows {})", s.shadows.join(", "))
                };
                println!(
                    "{:<32} {:<8} used {:>3}×{flags}{shadow}  {}",
                    s.name,
                    s.source,
                    l.usage_count,
                    s.location.display()
                );
                for w in &s.warnings {
                    println!("    warning: {w}");
                }
            }
            for b in &broken {
                println!(
                    "{:<32} {:<8} BROKEN: {}",
                    b.dir.display(),
                    b.source,
                    b.reason
                );
            }
            Ok(0)
        }
        SkillCommand::Install {
            path,
            force,
            dry_run,
            json,
        } => {
            if !dry_run {
                refuse_if_agent("skill install")?;
            }
            let staged = jarvis_core::skills::install::inspect(&path, &home()?)?;
            let r = &staged.report;
            if json {
                println!("{}", serde_json::to_string_pretty(r)?);
            } else {
                println!(
                    "{} — {}",
                    r.name,
                    r.description.chars().take(120).collect::<String>()
                );
                println!(
                    "  into {}{}",
                    r.target.display(),
                    if r.exists {
                        " (replaces the installed one)"
                    } else {
                        ""
                    }
                );
                println!(
                    "  {} file(s), {} bytes",
                    r.files.len(),
                    r.files.iter().map(|f| f.1).sum::<u64>()
                );
                for p in &r.problems {
                    println!("  spec: {p}");
                }
                for w in &r.warnings {
                    println!("  warning: {w}");
                }
                for f in &r.findings {
                    println!("  DANGER {}:{}: {} — {}", f.file, f.line, f.reason, f.text);
                }
            }
            if dry_run {
                return Ok(0);
            }
            let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
            let to = brain.install_skill(staged, force)?;
            eprintln!("installed into {}", to.display());
            Ok(0)
        }
        SkillCommand::Test { name } => {
            let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
            let t = jarvis_core::skills::manage::test(&brain.skills(), &name)?;
            for p in &t.problems {
                println!("spec: {p}");
            }
            for f in &t.findings {
                println!("DANGER {}:{}: {} — {}", f.file, f.line, f.reason, f.text);
            }
            if t.passed() {
                println!("{name}: valid, and nothing dangerous found");
            }
            Ok(if t.findings.is_empty() { 0 } else { 1 })
        }
        SkillCommand::Pin { name } => {
            refuse_if_agent("skill pin")?;
            open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?
                .pin_skill(&name, true)?;
            eprintln!("{name} pinned: the curator leaves it alone");
            Ok(0)
        }
        SkillCommand::Unpin { name } => {
            refuse_if_agent("skill unpin")?;
            open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?
                .pin_skill(&name, false)?;
            eprintln!("{name} unpinned");
            Ok(0)
        }
        SkillCommand::Enable { name } => {
            refuse_if_agent("skill enable")?;
            open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?
                .set_skill_enabled(&name, true)?;
            eprintln!("{name} enabled");
            Ok(0)
        }
        SkillCommand::Disable { name } => {
            refuse_if_agent("skill disable")?;
            open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?
                .set_skill_enabled(&name, false)?;
            eprintln!("{name} disabled: the model no longer sees it");
            Ok(0)
        }
        SkillCommand::Delete { name } => {
            refuse_if_agent("skill delete")?;
            let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
            let to = brain.delete_skill(&name)?;
            eprintln!(
                "{name} moved to {} (jarvis skill restore {name} brings it back)",
                to.display()
            );
            Ok(0)
        }
        SkillCommand::Restore { name } => {
            refuse_if_agent("skill restore")?;
            let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
            let to = brain.restore_skill(&name)?;
            eprintln!("{name} restored to {}", to.display());
            Ok(0)
        }
        SkillCommand::Prompt => {
            let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
            let section = jarvis_core::skills::catalog::prompt_section(
                &brain.enabled_skills(),
                brain.config().skills.prompt_budget,
            );
            if section.is_empty() {
                eprintln!("(no skills: the system prompt has no skills section)");
            } else {
                println!("{section}");
            }
            Ok(0)
        }
    }
}
