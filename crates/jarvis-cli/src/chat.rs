//! `jarvis chat`: a streaming conversation. Ctrl-C cancels the running turn,
//! never the program; /new, /history, /quit.

use std::io::Write;
use std::sync::Arc;

use anyhow::Result;
use jarvis_protocol::{Event, Op};

use crate::approver::{Input, Terminal};
use crate::interrupts::Interrupts;
use crate::render::{Renderer, print_message};
use crate::{TurnArgs, open_brain};

/// Asks which folder Jarvis may work in, offering `~/Jarvis` (created), and
/// saves it as `workdir`.
async fn choose_workdir(brain: &jarvis_core::Brain, why: &str, input: &Input) -> Result<()> {
    let home = std::env::var_os("HOME")
        .map(std::path::PathBuf::from)
        .unwrap_or_default();
    let offer = jarvis_core::agent::workdir::suggested(&home);
    eprintln!("{why}");
    eprint!("Which folder may Jarvis work in? [{}] ", offer.display());
    let _ = std::io::stderr().flush();
    let answer = input.line().await.unwrap_or_default();
    let answer = answer.trim();
    let chosen = if answer.is_empty() {
        offer
    } else if let Some(rest) = answer.strip_prefix("~/") {
        home.join(rest)
    } else {
        std::path::absolute(answer)?
    };
    let wd = brain.choose_workdir(&chosen)?;
    eprintln!(
        "Jarvis will work in {} (change it with `jarvis config set workdir DIR`).",
        wd.display()
    );
    Ok(())
}

pub async fn run(resume: Option<String>, turn: TurnArgs) -> Result<i32> {
    let input = Input::spawn();
    let first = !jarvis_core::config::ConfigStore::new(&crate::home()?)
        .path()
        .exists();
    let brain = open_brain(&turn, Arc::new(Terminal::new(Some(input.clone()))))?;
    if let Some(why) = brain.workdir_problem() {
        // First run, or a folder that cannot be used: ask for one (a
        // refused answer ends here with its reason).
        choose_workdir(&brain, &why, &input)
            .await
            .map_err(|e| anyhow::anyhow!("refused: {e}"))?;
    }
    if first {
        crate::first_run::choose_engine(&brain, &input).await?;
    }
    let mut session = match resume {
        Some(id) => {
            let n = brain.session_messages(&id)?.len();
            eprintln!("resuming {id} ({n} messages)");
            id
        }
        None => uuid::Uuid::new_v4().to_string(),
    };
    eprintln!(
        "Jarvis — working in {}. /new, /history, /quit; Ctrl-C cancels a turn.",
        brain.workdir().display()
    );
    let mut events = brain.subscribe();
    let mut interrupts = Interrupts::listen()?;
    let mut out = Renderer::new(false);
    let mut spin = tokio::time::interval(std::time::Duration::from_millis(100));
    loop {
        eprint!("you> ");
        let _ = std::io::stderr().flush();
        let line = tokio::select! {
            l = input.line() => l,
            _ = interrupts.next() => {
                eprintln!("\n(nothing to cancel; /quit or Ctrl-D leaves)");
                continue;
            }
        };
        let Some(line) = line else {
            eprintln!();
            return Ok(0);
        };
        let text = line.trim();
        match text {
            "" => continue,
            "/quit" | "/exit" => return Ok(0),
            "/new" => {
                session = uuid::Uuid::new_v4().to_string();
                eprintln!("new session {session}");
                continue;
            }
            "/history" => {
                match brain.session_messages(&session) {
                    Ok(msgs) => msgs.iter().for_each(|m| print_message(&m.message)),
                    Err(_) => eprintln!("(nothing yet in this session)"),
                }
                continue;
            }
            _ => {}
        }
        brain.submit(Op::UserInput {
            session_id: session.clone(),
            text: text.to_string(),
        })?;
        loop {
            tokio::select! {
                ev = events.next() => {
                    let Some(ev) = ev else { return Ok(1) };
                    if ev.session_id.as_deref() != Some(session.as_str()) && ev.session_id.is_some() {
                        continue;
                    }
                    out.event(&ev)?;
                    if matches!(ev.event, Event::TurnFinished { .. }) {
                        break;
                    }
                }
                _ = interrupts.next() => {
                    eprintln!("\n^C — cancelling the turn");
                    brain.submit(Op::CancelTurn { session_id: session.clone() })?;
                }
                _ = spin.tick() => out.tick(),
            }
        }
        out.finish();
    }
}
