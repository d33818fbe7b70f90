//! The hub from the terminal: `jarvis serve` runs it headless; `jarvis
//! tasks …` lists, shows, starts, cancels and retries background tasks.

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::Subcommand;
use jarvis_core::Brain;
use jarvis_core::tasks::TaskRequest;
use jarvis_protocol::{Event, NotifyPolicy, Origin, TaskInfo, TaskStatus};

use crate::render::short_id;
use crate::{TurnArgs, approver, open_brain, refuse_if_agent, render};

#[derive(Subcommand)]
pub enum TasksCommand {
    /// Recent tasks, newest first.
    List {
        #[arg(long, default_value_t = 20)]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
    /// One task in full (its id or the first characters of it).
    Show {
        id: String,
        #[arg(long)]
        json: bool,
    },
    Cancel {
        id: String,
    },
    /// Run a task again, with the approval it was missing given up front.
    Retry {
        id: String,
        /// What it may do without asking (write, exec, network, mcp); asked
        /// here when not given.
        #[arg(long, value_delimiter = ',')]
        allow: Vec<String>,
    },
    /// Start a task: queued for the running hub, else run in this process.
    Run {
        instruction: String,
        /// Wait for it; print how it ended; exit 0 only if it succeeded
        /// (3 when it needs an approval).
        #[arg(long)]
        wait: bool,
        /// What it may do without asking (write, exec, network, mcp).
        #[arg(long, value_delimiter = ',')]
        allow: Vec<String>,
        /// When to hear about it: done_only (default), state_changes, silent.
        #[arg(long, default_value = "done_only", value_parser = notify_policy)]
        notify: NotifyPolicy,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        turn: TurnArgs,
    },
}

fn notify_policy(s: &str) -> Result<NotifyPolicy, String> {
    NotifyPolicy::parse(s).ok_or_else(|| format!("{s:?}: one of done_only, state_changes, silent"))
}

pub(crate) fn brain(turn: &TurnArgs) -> Result<Brain> {
    open_brain(turn, Arc::new(approver::Terminal::none()))
}

fn when(ms: Option<i64>) -> String {
    let Some(ms) = ms else {
        return "-".into();
    };
    jiff::Timestamp::from_millisecond(ms)
        .map(|t| {
            t.to_zoned_datetime(jiff::tz::TimeZone::system())
                .strftime("%Y-%m-%d %H:%M:%S")
                .to_string()
        })
        .unwrap_or_else(|_| ms.to_string())
}

fn print_task(t: &TaskInfo) {
    println!("task     {}", t.id);
    println!("status   {}", t.status.as_str());
    println!("origin   {}", t.origin.as_str());
    println!("asked    {}", t.instruction);
    println!("created  {}", when(Some(t.created_at)));
    println!("started  {}", when(t.started_at));
    println!("finished {}", when(t.finished_at));
    if let Some(s) = &t.summary {
        println!("summary  {s}");
    }
    if let Some(r) = &t.reason {
        println!("reason   {r}");
    }
    if let Some(p) = &t.report {
        println!("report   {p}");
    }
    if !t.allow.is_empty() {
        println!("allowed  {}", t.allow.join(", "));
    }
    println!(
        "usage    {} tokens ({} prompt, {} completion)",
        t.usage.total_tokens, t.usage.prompt_tokens, t.usage.completion_tokens
    );
    println!("session  {}", t.session_id);
}

fn exit_code(t: &TaskInfo) -> i32 {
    match t.status {
        TaskStatus::Succeeded => 0,
        TaskStatus::NeedsApproval => 3,
        TaskStatus::Cancelled => 130,
        _ => 1,
    }
}

pub async fn tasks(command: TasksCommand) -> Result<i32> {
    match command {
        TasksCommand::List { limit, json } => {
            let list = brain(&TurnArgs::default())?.tasks(limit, 0)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&list)?);
            } else if list.is_empty() {
                println!("no tasks");
            } else {
                for t in &list {
                    println!(
                        "{}  {:<14} {}  {}",
                        short_id(&t.id),
                        t.status.as_str(),
                        when(Some(t.created_at)),
                        t.instruction.lines().next().unwrap_or("")
                    );
                }
            }
            Ok(0)
        }
        TasksCommand::Show { id, json } => {
            let t = brain(&TurnArgs::default())?.task(&id)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&t)?);
            } else {
                print_task(&t);
            }
            Ok(0)
        }
        TasksCommand::Cancel { id } => {
            refuse_if_agent("tasks cancel")?;
            let t = brain(&TurnArgs::default())?.cancel_task(&id)?;
            eprintln!("task {} {}", short_id(&t.id), t.status.as_str());
            Ok(0)
        }
        TasksCommand::Retry { id, allow } => {
            refuse_if_agent("tasks retry")?;
            let b = brain(&TurnArgs::default())?;
            let old = b.task(&id)?;
            let allow = if allow.is_empty() {
                ask_allow(&old)?
            } else {
                allow
            };
            let t = b.retry_task(&old.id, allow)?;
            eprintln!(
                "task {} queued (retry of {})",
                short_id(&t.id),
                short_id(&old.id)
            );
            follow(&b, &t, true, false).await
        }
        TasksCommand::Run {
            instruction,
            wait,
            allow,
            notify,
            json,
            turn,
        } => {
            if !allow.is_empty() {
                refuse_if_agent("tasks run --allow")?;
            }
            let b = brain(&turn)?;
            let t = b.start_task(TaskRequest {
                instruction,
                origin: Origin::Cli,
                allow,
                notify,
                ..Default::default()
            })?;
            if json && !wait {
                println!("{}", serde_json::json!({"id": t.id, "status": t.status}));
            } else if !json {
                eprintln!("task {} {}", short_id(&t.id), t.status.as_str());
            }
            follow(&b, &t, wait, json).await
        }
    }
}

/// The approval a `needs_approval` task missed, asked in the terminal.
fn ask_allow(old: &TaskInfo) -> Result<Vec<String>> {
    if old.needs.is_empty() {
        return Ok(old.allow.clone());
    }
    if !std::io::stdin().is_terminal() {
        bail!(
            "task {} needs {}; give it with --allow {}",
            short_id(&old.id),
            old.needs.join(", "),
            old.needs.join(",")
        );
    }
    eprint!(
        "“{}” needs your approval to {} without asking. Allow that for this run? [y/N] ",
        old.instruction,
        old.needs.join(", ")
    );
    let mut line = String::new();
    std::io::stdin().read_line(&mut line)?;
    if !matches!(line.trim(), "y" | "Y" | "yes") {
        bail!("not retried");
    }
    Ok(old.needs.clone())
}

/// Waits for the task when asked to, or when only this process will run
/// it (no hub): leaving would leave it lost.
async fn follow(b: &Brain, t: &TaskInfo, wait: bool, json: bool) -> Result<i32> {
    let here = b.tasks_here().contains(&t.id);
    if !wait && !here {
        return Ok(0);
    }
    if here && !wait && !json {
        eprintln!("no Jarvis hub is running: running it here (Ctrl-C cancels it)");
    }
    let mut interrupts = crate::interrupts::Interrupts::listen()?;
    let done = tokio::select! {
        r = b.wait_task(&t.id) => r?,
        _ = interrupts.next() => {
            b.cancel_task(&t.id)?;
            b.wait_task(&t.id).await?
        }
    };
    if json {
        println!("{}", serde_json::to_string(&done)?);
    } else {
        let reason = done
            .reason
            .as_deref()
            .map(|r| format!(": {r}"))
            .unwrap_or_default();
        println!("{}{reason}", done.status.as_str());
        if let Some(s) = &done.summary {
            println!("{s}");
        }
        if let Some(p) = &done.report {
            println!("report: {p}");
        }
    }
    Ok(exit_code(&done))
}

/// `jarvis ask` started tasks in this process (no hub runs them): wait, so
/// they are not left lost; Ctrl-C cancels them.
pub async fn wait_for_local_tasks(b: &Brain, json: bool) -> Result<()> {
    if b.tasks_here().is_empty() {
        return Ok(());
    }
    if !json {
        eprintln!("waiting for the task started in this turn (Ctrl-C cancels it) …");
    }
    let mut events = b.subscribe();
    let mut interrupts = crate::interrupts::Interrupts::listen()?;
    let mut out = render::Renderer::new(json);
    while !b.tasks_here().is_empty() {
        tokio::select! {
            ev = events.next() => {
                let Some(ev) = ev else { break };
                if matches!(ev.event, Event::Announcement { .. } | Event::TaskChanged { .. }) {
                    out.event(&ev)?;
                }
            }
            _ = interrupts.next() => {
                b.cancel_tasks_here(Duration::from_secs(3)).await;
                break;
            }
            _ = tokio::time::sleep(Duration::from_millis(500)) => {}
        }
    }
    // The announcement comes right after the task's end is recorded.
    let until = tokio::time::Instant::now() + Duration::from_millis(500);
    while let Ok(Some(ev)) = tokio::time::timeout_at(until, events.next()).await {
        if matches!(ev.event, Event::Announcement { .. }) {
            out.event(&ev)?;
        }
    }
    out.finish();
    Ok(())
}

/// Runs the hub in the foreground until SIGTERM or Ctrl-C.
pub async fn serve(json: bool, voice: bool) -> Result<i32> {
    let b = brain(&TurnArgs::default())?;
    let speak = if voice {
        Some(crate::voice_cmd::speaking_queue()?)
    } else {
        None
    };
    let mut events = b.subscribe();
    let host = b.start_services(
        vec![jarvis_core::hub::HubService::service()],
        Arc::new(jarvis_core::notify::NoNotifier),
        Default::default(),
    );
    if !json {
        eprintln!(
            "jarvis: the hub is running ({}); Ctrl-C stops it",
            host.holder
        );
    }
    let mut interrupts = crate::interrupts::Interrupts::listen()?;
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    let terminated = async {
        #[cfg(unix)]
        term.recv().await;
        #[cfg(not(unix))]
        std::future::pending::<()>().await;
    };
    tokio::pin!(terminated);
    loop {
        tokio::select! {
            ev = events.next() => {
                let Some(ev) = ev else { break };
                if let (Some(tx), Event::Announcement { text, loud: true, .. }) = (&speak, &ev.event) {
                    let _ = tx.send(text.clone());
                }
                if json {
                    println!("{}", serde_json::to_string(&ev)?);
                } else {
                    match &ev.event {
                        Event::Announcement { text, .. } => println!("{text}"),
                        Event::TaskChanged { task } => eprintln!(
                            "task {} {}",
                            short_id(&task.id),
                            task.status.as_str()
                        ),
                        _ => {}
                    }
                }
            }
            _ = interrupts.next() => break,
            _ = &mut terminated => break,
        }
    }
    host.stop().await;
    Ok(0)
}

#[derive(Subcommand)]
pub enum ScheduleCommand {
    /// Schedule an instruction (stored as written) to run as a task.
    Add {
        instruction: String,
        /// Once, at this instant (RFC 3339, e.g. 2026-12-24T09:00:00+01:00).
        #[arg(long, group = "when")]
        at: Option<String>,
        /// Every DURATION: 15m, 2h, 1d.
        #[arg(long, group = "when")]
        every: Option<String>,
        /// Every day at HH:MM local time (with --on: those days only).
        #[arg(long, group = "when")]
        daily: Option<String>,
        /// With --daily: mon,tue,… or weekdays / weekends.
        #[arg(long, value_delimiter = ',', requires = "daily")]
        on: Vec<String>,
        /// A cron expression, e.g. "0 9 * * 1-5".
        #[arg(long, group = "when")]
        cron: Option<String>,
        /// IANA time zone (default: this machine's).
        #[arg(long)]
        tz: Option<String>,
        /// What its runs may do without asking (write, exec, network, mcp).
        #[arg(long, value_delimiter = ',')]
        allow: Vec<String>,
        /// When to hear about its runs: done_only (default), state_changes, silent.
        #[arg(long, default_value = "done_only", value_parser = notify_policy)]
        notify: NotifyPolicy,
        #[arg(long)]
        json: bool,
    },
    List {
        #[arg(long)]
        json: bool,
    },
    Cancel {
        id: String,
    },
    Pause {
        id: String,
    },
    Resume {
        id: String,
    },
    /// Run it now, as a slot would.
    RunNow {
        id: String,
    },
}

/// `15m`, `2h`, `1d`, `90` (minutes) as minutes.
fn minutes(s: &str) -> Result<u32> {
    let s = s.trim();
    let (n, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: u32 = n.parse().map_err(|_| {
        anyhow::anyhow!("--every {s:?}: give a number and a unit, e.g. 15m, 2h, 1d")
    })?;
    let m = match unit {
        "" | "m" | "min" => n,
        "h" => n.saturating_mul(60),
        "d" => n.saturating_mul(1440),
        other => bail!("--every {s:?}: unknown unit {other:?} (m, h or d)"),
    };
    if m == 0 {
        bail!("--every {s:?}: at least one minute");
    }
    Ok(m)
}

fn schedule_json(s: &jarvis_protocol::ScheduleInfo) -> serde_json::Value {
    serde_json::json!({
        "id": s.id, "instruction": s.instruction, "when": s.when, "tz": s.tz,
        "next_run": s.next_run.map(|n| jarvis_core::schedule::rfc3339(n, &s.tz)),
        "next_run_ms": s.next_run, "paused": s.paused, "allow": s.allow,
        "failures": s.failures, "runs": s.runs,
    })
}

pub async fn schedule(command: ScheduleCommand) -> Result<i32> {
    use jarvis_core::schedule::{ScheduleRequest, local, tools::describe};
    use jarvis_protocol::When;
    let b = brain(&TurnArgs::default())?;
    match command {
        ScheduleCommand::Add {
            instruction,
            at,
            every,
            daily,
            on,
            cron,
            tz,
            allow,
            notify,
            json,
        } => {
            refuse_if_agent("schedule add")?;
            let when = match (at, every, daily, cron) {
                (Some(at), ..) => When::Once { at },
                (_, Some(e), ..) => When::Every {
                    minutes: minutes(&e)?,
                },
                (_, _, Some(time), _) => When::Daily { time, weekdays: on },
                (.., Some(expr)) => When::Cron { expr },
                _ => bail!("say when: --at, --every, --daily or --cron"),
            };
            let s = b.create_schedule(ScheduleRequest {
                instruction,
                when,
                tz,
                allow,
                notify,
            })?;
            if json {
                println!(
                    "{}",
                    serde_json::json!({"id": s.id, "next_run": s.next_run.map(|n| jarvis_core::schedule::rfc3339(n, &s.tz)), "next_run_ms": s.next_run})
                );
            } else {
                eprintln!(
                    "scheduled {} {} ({}); next: {}",
                    short_id(&s.id),
                    describe(&s.when),
                    s.tz,
                    s.next_run.map(|n| local(n, &s.tz)).unwrap_or_default()
                );
            }
        }
        ScheduleCommand::List { json } => {
            let list = b.schedules()?;
            if json {
                let v: Vec<serde_json::Value> = list.iter().map(schedule_json).collect();
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else if list.is_empty() {
                println!("no schedules");
            } else {
                for s in &list {
                    println!(
                        "{}  {:<22} next {:<28} {}{}",
                        short_id(&s.id),
                        describe(&s.when),
                        s.next_run
                            .map(|n| local(n, &s.tz))
                            .unwrap_or_else(|| "never".into()),
                        s.instruction,
                        if s.paused { "  [paused]" } else { "" }
                    );
                }
            }
        }
        ScheduleCommand::Cancel { id } => {
            refuse_if_agent("schedule cancel")?;
            let s = b.cancel_schedule(&id)?;
            eprintln!("cancelled {}", short_id(&s.id));
        }
        ScheduleCommand::Pause { id } => {
            let s = b.pause_schedule(&id, true)?;
            eprintln!("paused {}", short_id(&s.id));
        }
        ScheduleCommand::Resume { id } => {
            refuse_if_agent("schedule resume")?;
            let s = b.pause_schedule(&id, false)?;
            eprintln!(
                "resumed {}; next: {}",
                short_id(&s.id),
                s.next_run.map(|n| local(n, &s.tz)).unwrap_or_default()
            );
        }
        ScheduleCommand::RunNow { id } => {
            refuse_if_agent("schedule run-now")?;
            let t = b.run_schedule_now(&id)?;
            eprintln!("task {} {}", short_id(&t.id), t.status.as_str());
            return follow(&b, &t, false, false).await;
        }
    }
    Ok(0)
}

pub fn budget(json: bool) -> Result<i32> {
    let r = brain(&TurnArgs::default())?.budget()?;
    if json {
        println!("{}", serde_json::to_string_pretty(&r)?);
        return Ok(0);
    }
    let cap = |used: String, cap: String, set: bool| {
        if set {
            format!("{used} of {cap}")
        } else {
            format!("{used} (no cap)")
        }
    };
    println!("{} ({})", r.day, r.tz);
    println!(
        "tokens   {}",
        cap(
            r.tokens.to_string(),
            r.daily_tokens.to_string(),
            r.daily_tokens > 0
        )
    );
    println!(
        "cost     {}",
        cap(
            format!("${:.4}", r.cost_usd),
            format!("${:.2}", r.daily_cost_usd),
            r.daily_cost_usd > 0.0
        )
    );
    println!("requests {}", r.requests);
    if r.estimated_tokens > 0 {
        println!(
            "         {} tokens estimated (the server reported no usage)",
            r.estimated_tokens
        );
    }
    for (origin, tokens) in &r.by_origin {
        println!("  {origin:<10} {tokens}");
    }
    Ok(0)
}

/// `jarvis stop`: the same Stop everything as the tray's and the app's.
pub fn stop() -> Result<i32> {
    let b = brain(&TurnArgs::default())?;
    let r = b.stop_everything("jarvis stop")?;
    eprintln!(
        "stopped: {} task(s) cancelled; turns in the app and other terminals stop within a second; \
         speech is silenced; schedules are held until `jarvis resume`",
        r.tasks
    );
    Ok(0)
}

/// `jarvis resume`: schedules go on from their next slot.
pub fn resume() -> Result<i32> {
    let b = brain(&TurnArgs::default())?;
    if b.resume_everything()? {
        eprintln!("resumed: schedules run again from their next slot");
    } else {
        eprintln!("nothing was held");
    }
    Ok(0)
}
