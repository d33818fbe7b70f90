//! `jarvis`: the Jarvis brain in a terminal. A host of the brain API like the
//! desktop app: it sends `Op`s and renders events.

// The command guard's verdicts allocate many small strings; mimalloc
// takes about a quarter off their slowest (see the policy bench).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod approver;
mod chat;
mod doctor;
mod evolve_cmd;
mod first_run;
mod hub_cmd;
mod interrupts;
mod policy_cmd;
mod render;
mod skill_cmd;
mod undo_cmd;
mod voice_cmd;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use jarvis_core::config::ConfigStore;
use jarvis_core::policy::{AllowOnceApprover, Approver};
use jarvis_core::secrets::{KeyringSecretStore, SecretStore};
use jarvis_core::{Brain, BrainOptions, Overrides};
use jarvis_protocol::{ApprovalMode, Event, Op, Origin, RunSpec, StopReason, ToolStatus};

/// Set in every process the agent's `local_exec` starts.
const AGENT_EXEC_ENV: &str = "JARVIS_AGENT_EXEC";

#[derive(Parser)]
#[command(
    name = "jarvis",
    version,
    about = "Jarvis, your desktop AI companion, in a terminal"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Clone, Default)]
struct TurnArgs {
    /// Working directory that confines the tools (default: `workdir` in config, else the current directory).
    #[arg(long)]
    cwd: Option<PathBuf>,
    /// Answer every approval with "allow once" (a blocked call stays blocked).
    #[arg(long)]
    yes: bool,
}

#[derive(Subcommand)]
enum Command {
    /// One turn: the answer on stdout, tool activity on stderr.
    Ask {
        prompt: String,
        /// Print every event as a JSON line on stdout.
        #[arg(long)]
        json: bool,
        /// Continue this session instead of starting a new one.
        #[arg(long)]
        session: Option<String>,
        /// Run as nobody were there: every question is refused and told to
        /// the model (the run stops at the third; exit code 3).
        #[arg(long, conflicts_with = "yes")]
        unattended: bool,
        /// With --unattended: what runs without a question (write, exec,
        /// network, mcp), as a schedule would have it.
        #[arg(long, value_delimiter = ',', requires = "unattended")]
        allow: Vec<String>,
        #[command(flatten)]
        turn: TurnArgs,
    },
    /// Interactive chat; Ctrl-C cancels the running turn, /quit or Ctrl-D leaves.
    Chat {
        #[arg(long)]
        resume: Option<String>,
        #[command(flatten)]
        turn: TurnArgs,
    },
    /// Stored conversations.
    Sessions {
        #[command(subcommand)]
        command: SessionsCommand,
    },
    /// The tools the model can call.
    Tools {
        #[arg(long)]
        json: bool,
    },
    /// Run one tool exactly as the agent would (gate, approvals and audit included).
    Tool {
        #[command(subcommand)]
        command: ToolCommand,
    },
    /// Settings in config.json, by dotted key.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// The API key in the OS keyring (service `jarvis`).
    Key {
        #[command(subcommand)]
        command: KeyCommand,
    },
    /// Recent audit rows: every tool call and its verdict.
    Audit {
        #[arg(long, default_value_t = 50)]
        limit: usize,
        /// Only this tool's calls.
        #[arg(long)]
        tool: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Agent Skills: what is discovered, and whether a skill is valid.
    Skill {
        #[command(subcommand)]
        command: skill_cmd::SkillCommand,
    },
    /// What the policy says about a command.
    Policy {
        #[command(subcommand)]
        command: PolicyCommand,
    },
    /// "Always allow" grants: list or revoke.
    Grants {
        #[command(subcommand)]
        command: GrantsCommand,
    },
    /// A spoken turn: from a WAV file (`--wav`) or the microphone, answered aloud.
    Listen(voice_cmd::ListenArgs),
    /// Speak text with the Piper or the system voice.
    Say(voice_cmd::SayArgs),
    /// Speech models: list, install (with resume and checksums), verify, remove.
    Models {
        #[command(subcommand)]
        command: voice_cmd::ModelsCommand,
    },
    /// MCP servers Jarvis uses as tool providers.
    Mcp {
        #[command(subcommand)]
        command: McpCommand,
    },
    /// Background tasks: list, show, run, cancel, retry.
    Tasks {
        #[command(subcommand)]
        command: hub_cmd::TasksCommand,
    },
    /// Schedules: add, list, cancel, pause, resume, run now.
    Schedule {
        #[command(subcommand)]
        command: hub_cmd::ScheduleCommand,
    },
    /// Today's model use (tokens, cost) against the daily caps.
    Budget {
        #[arg(long)]
        json: bool,
    },
    /// Run the hub (tasks, and what they announce) in the foreground until
    /// SIGTERM or Ctrl-C.
    Serve {
        /// Print every brain event as a JSON line.
        #[arg(long)]
        json: bool,
        /// Speak announcements (Piper or the system voice), one at a time.
        #[arg(long)]
        voice: bool,
    },
    /// Check the endpoint, model, context length, database and keyring.
    Doctor {
        #[arg(long)]
        json: bool,
    },
    /// Stop everything: cancel every running turn and task of this home (the
    /// app's too), silence speech, and hold the schedules until `jarvis resume`.
    Stop,
    /// Lift the hold `jarvis stop` put on the schedules.
    Resume,
    /// Skill proposals made from requests you repeat: list, show, accept
    /// (drafts for review), apply, dismiss.
    Evolve {
        #[command(subcommand)]
        command: evolve_cmd::EvolveCommand,
    },
    /// What Jarvis remembers about you: list, add, edit, forget, confirm.
    Memory {
        #[command(subcommand)]
        command: evolve_cmd::MemoryCommand,
    },
    /// What Jarvis can and cannot do now, what it did, and a capability radar.
    Reflect {
        #[arg(long)]
        json: bool,
        /// Also write a self-contained HTML report here.
        #[arg(long)]
        html: Option<PathBuf>,
    },
    /// Put back the files a turn or task changed (the latest turn with
    /// changes when neither is given). A file changed since is kept, with
    /// the old version written beside it.
    Undo {
        #[arg(long, conflicts_with = "task")]
        turn: Option<String>,
        #[arg(long)]
        task: Option<String>,
        /// Only list the changes.
        #[arg(long)]
        list: bool,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum SessionsCommand {
    List {
        #[arg(long)]
        json: bool,
    },
    Show {
        id: String,
        #[arg(long)]
        json: bool,
    },
    Rename {
        id: String,
        title: String,
    },
    Delete {
        id: String,
    },
}

#[derive(Subcommand)]
enum ToolCommand {
    Run {
        name: String,
        /// Arguments as a JSON object.
        #[arg(long, default_value = "{}")]
        args: String,
        #[command(flatten)]
        turn: TurnArgs,
    },
}

#[derive(Subcommand)]
enum ConfigCommand {
    Get {
        key: String,
    },
    Set {
        key: String,
        value: String,
    },
    List,
    /// Where config.json lives.
    Path,
}

#[derive(Subcommand)]
enum PolicyCommand {
    /// `jarvis policy check -- CMD…`, or `--jsonl` to read {"id","command"} lines on stdin.
    Check {
        #[arg(long)]
        json: bool,
        #[arg(long)]
        jsonl: bool,
        /// Judge as in this working directory (paths inside it are the
        /// project's); without it, no folder is the project's.
        #[arg(long)]
        cwd: Option<std::path::PathBuf>,
        #[arg(last = true)]
        command: Vec<String>,
    },
}

#[derive(Subcommand)]
enum GrantsCommand {
    List {
        #[arg(long)]
        json: bool,
    },
    /// Revoke the grant for TOOL and SCOPE (a base command, or `*` for the whole tool).
    Revoke { tool: String, scope: String },
}

#[derive(Subcommand)]
enum McpCommand {
    /// Register the MCP server project in DIR (made by `create_mcp`, or your
    /// own: a `server.py`) under NAME; prints the server file first.
    Add {
        name: String,
        dir: PathBuf,
        /// Let its tools run without asking.
        #[arg(long)]
        trusted: bool,
        /// Let the server use the network.
        #[arg(long)]
        network: bool,
    },
    List,
    Remove {
        name: String,
    },
}

#[derive(Subcommand)]
enum KeyCommand {
    /// Reads the key from stdin (so it never lands in shell history).
    Set,
    Delete,
    /// Whether a key is set (never prints it).
    Status,
}

pub(crate) fn home() -> Result<PathBuf> {
    jarvis_core::config::default_home().context("neither JARVIS_HOME nor HOME is set")
}

pub(crate) fn secrets() -> Arc<dyn SecretStore> {
    Arc::new(jarvis_core::secrets::host_store())
}

pub(crate) fn open_brain(turn: &TurnArgs, approver: Arc<dyn Approver>) -> Result<Brain> {
    let approver: Arc<dyn Approver> = if turn.yes {
        Arc::new(AllowOnceApprover)
    } else {
        approver
    };
    let brain = Brain::open(BrainOptions {
        home: home()?,
        secrets: secrets(),
        approver,
        overrides: Overrides::from_env(turn.cwd.clone()),
        registry: None,
        resolver: None,
        sandbox_helper: None,
    })?;
    for n in brain.take_notices() {
        eprintln!("jarvis: {n}");
    }
    Ok(brain)
}

/// Commands that need a working directory stop with the reason and the fix.
fn require_workdir(brain: &Brain) -> Result<()> {
    if let Some(why) = brain.workdir_problem() {
        bail!("refused: {why}");
    }
    Ok(())
}

/// The agent's own commands must not change Jarvis's state or approve things.
fn refuse_if_agent(what: &str) -> Result<()> {
    if std::env::var_os(AGENT_EXEC_ENV).is_some() {
        bail!(
            "refused: `jarvis {what}` changes Jarvis's state and cannot be run by the agent itself"
        );
    }
    Ok(())
}

fn main() {
    // A one-shot keyring read for another jarvis process (see
    // HelperKeyringStore): answered before any runtime starts.
    let args: Vec<String> = std::env::args().collect();
    if let Some(code) = jarvis_core::secrets::helper_main(&args) {
        std::process::exit(code);
    }
    match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt.block_on(async_main()),
        Err(e) => {
            eprintln!("jarvis: cannot start the runtime: {e}");
            std::process::exit(1);
        }
    }
}

async fn async_main() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("JARVIS_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    match run(cli).await {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("jarvis: {e:#}");
            std::process::exit(2);
        }
    }
}

async fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Ask {
            prompt,
            json,
            session,
            unattended,
            allow,
            turn,
        } => {
            if turn.yes {
                refuse_if_agent("ask --yes")?;
            }
            if !allow.is_empty() {
                refuse_if_agent("ask --allow")?;
            }
            let approval = match (unattended, allow.is_empty()) {
                (false, _) => ApprovalMode::Interactive,
                (true, true) => ApprovalMode::Unattended,
                (true, false) => ApprovalMode::PreApproved { allow },
            };
            ask(prompt, json, session, approval, turn).await
        }
        Command::Chat { resume, turn } => {
            if turn.yes {
                refuse_if_agent("chat --yes")?;
            }
            chat::run(resume, turn).await
        }
        Command::Sessions { command } => sessions(command),
        Command::Tasks { command } => hub_cmd::tasks(command).await,
        Command::Serve { json, voice } => hub_cmd::serve(json, voice).await,
        Command::Schedule { command } => hub_cmd::schedule(command).await,
        Command::Budget { json } => hub_cmd::budget(json),
        Command::Evolve { command } => evolve_cmd::evolve(command).await,
        Command::Memory { command } => evolve_cmd::memory(command),
        Command::Reflect { json, html } => evolve_cmd::reflect(json, html),
        Command::Stop => hub_cmd::stop(),
        Command::Resume => {
            refuse_if_agent("resume")?;
            hub_cmd::resume()
        }
        Command::Undo {
            turn,
            task,
            list,
            json,
        } => {
            if !list {
                refuse_if_agent("undo")?;
            }
            undo_cmd::undo(turn, task, list, json)
        }
        Command::Tools { json } => {
            let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
            brain.refresh_mcp().await;
            let offered = brain.offered_tools();
            if json {
                println!("{}", serde_json::to_string_pretty(&offered.openai_tools())?);
            } else {
                for t in offered.iter() {
                    println!("{:<18} {}", t.name(), t.description());
                }
                let off: Vec<String> = brain
                    .tools()
                    .names()
                    .into_iter()
                    .filter(|n| offered.get(n).is_none())
                    .collect();
                if !off.is_empty() {
                    eprintln!(
                        "not offered (turned off in Settings / tools.*): {}",
                        off.join(", ")
                    );
                }
            }
            Ok(0)
        }
        Command::Tool {
            command: ToolCommand::Run { name, args, turn },
        } => {
            refuse_if_agent("tool run")?;
            tool_run(name, args, turn).await
        }
        Command::Config { command } => config(command),
        Command::Key { command } => key(command),
        Command::Skill { command } => skill_cmd::skill(command),
        Command::Policy {
            command:
                PolicyCommand::Check {
                    json,
                    jsonl,
                    cwd,
                    command,
                },
        } => policy_cmd::check(command, json, jsonl, cwd.as_deref()),
        Command::Grants { command } => {
            let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
            match command {
                GrantsCommand::List { json } => {
                    let grants = brain.grants()?;
                    if json {
                        let v: Vec<serde_json::Value> = grants
                            .iter()
                            .map(|(t, s)| serde_json::json!({"tool": t, "scope": s}))
                            .collect();
                        println!("{}", serde_json::to_string_pretty(&v)?);
                    } else if grants.is_empty() {
                        println!("no grants");
                    } else {
                        for (t, s) in grants {
                            println!("{t:<18} {s}");
                        }
                    }
                }
                GrantsCommand::Revoke { tool, scope } => {
                    refuse_if_agent("grants revoke")?;
                    if !brain.revoke_grant(&tool, &scope)? {
                        bail!("no grant for {tool} / {scope} (see `jarvis grants list`)");
                    }
                    eprintln!("revoked {tool} / {scope}");
                }
            }
            Ok(0)
        }
        Command::Audit { limit, tool, json } => {
            let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
            let rows = brain.audit(limit, tool.as_deref())?;
            if json {
                for r in rows {
                    println!("{}", serde_json::to_string(&r)?);
                }
            } else {
                for r in rows {
                    println!(
                        "{:>5}  {:<16} {:<6} {:<18} {:<9} {}  {}",
                        r.id,
                        r.tool,
                        r.verdict,
                        r.decided_by,
                        r.outcome.as_deref().unwrap_or("-"),
                        r.arguments,
                        r.reason
                    );
                }
            }
            Ok(0)
        }
        Command::Listen(args) => voice_cmd::listen(args).await,
        Command::Say(args) => voice_cmd::say(args),
        Command::Models { command } => voice_cmd::models_cmd(command).await,
        Command::Mcp { command } => mcp(command),
        Command::Doctor { json } => doctor::run(json).await,
    }
}

fn mcp(cmd: McpCommand) -> Result<i32> {
    let store = ConfigStore::new(&home()?);
    match cmd {
        McpCommand::Add {
            name,
            dir,
            trusted,
            network,
        } => {
            refuse_if_agent("mcp add")?;
            let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
            let reg = brain.register_mcp(&name, &dir, trusted, network)?;
            // The person registering it sees exactly what will run.
            eprintln!("── {} ──", reg.server_file.display());
            eprintln!("{}", reg.server_text);
            eprintln!(
                "── runs as: {} {} ──",
                reg.config.command,
                reg.config.args.join(" ")
            );
            eprintln!(
                "registered {name}: its tools are mcp__{name}__TOOL from the next turn{}",
                if trusted {
                    " (trusted: they run without asking)"
                } else {
                    " (asked before each call until you trust it)"
                }
            );
        }
        McpCommand::List => {
            for (name, s) in store.load()?.mcp_servers {
                let what = s
                    .url
                    .clone()
                    .unwrap_or_else(|| format!("{} {}", s.command, s.args.join(" ")));
                println!(
                    "{name:<16} {what}{}{}",
                    if s.trusted { "  [trusted]" } else { "" },
                    if s.network { "  [network]" } else { "" }
                );
            }
        }
        McpCommand::Remove { name } => {
            refuse_if_agent("mcp remove")?;
            let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
            if !brain.remove_mcp(&name)? {
                bail!("no MCP server named {name:?} (see `jarvis mcp list`)");
            }
            eprintln!("removed {name}");
        }
    }
    Ok(0)
}

async fn ask(
    prompt: String,
    json: bool,
    session: Option<String>,
    approval: ApprovalMode,
    turn: TurnArgs,
) -> Result<i32> {
    let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    let input = approver::Input::spawn_if(interactive);
    let brain = open_brain(&turn, Arc::new(approver::Terminal::new(input.clone())))?;
    require_workdir(&brain)?;
    let session = session.unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let mut events = brain.subscribe();
    let mut interrupts = interrupts::Interrupts::listen()?;
    brain.start_run(
        RunSpec {
            approval,
            ..RunSpec::interactive(Origin::Cli, session.clone())
        },
        prompt,
    )?;
    let mut out = render::Renderer::new(json);
    let mut spin = tokio::time::interval(std::time::Duration::from_millis(100));
    let mut stop = StopReason::Failed;
    loop {
        tokio::select! {
            ev = events.next() => {
                let Some(ev) = ev else { break };
                if !render::concerns(&ev, &session) {
                    continue;
                }
                out.event(&ev)?;
                if let Event::TurnFinished { stop: s, .. } = ev.event {
                    stop = s;
                    break;
                }
            }
            _ = interrupts.next() => {
                brain.submit(Op::CancelTurn { session_id: session.clone() })?;
            }
            _ = spin.tick() => out.tick(),
        }
    }
    out.finish();
    hub_cmd::wait_for_local_tasks(&brain, json).await?;
    if !json {
        eprintln!("session: {session}");
    }
    Ok(match stop {
        StopReason::Completed | StopReason::MaxRounds | StopReason::Repetition => 0,
        StopReason::Cancelled => 130,
        StopReason::Failed => 1,
        StopReason::NeedsApproval => 3,
    })
}

async fn tool_run(name: String, args: String, turn: TurnArgs) -> Result<i32> {
    let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    let input = approver::Input::spawn_if(interactive);
    let brain = open_brain(&turn, Arc::new(approver::Terminal::new(input)))?;
    if !matches!(name.as_str(), "http_request" | "open_view") && !name.starts_with("mcp__") {
        require_workdir(&brain)?;
    }
    let out = brain.run_tool(&name, &args).await;
    println!("{}", out.content);
    eprintln!(
        "{}: {:?} — {} ({} ms)",
        out.tool, out.status, out.summary, out.duration_ms
    );
    Ok(match out.status {
        ToolStatus::Ok => 0,
        ToolStatus::Error => 1,
        ToolStatus::Refused => 3,
        ToolStatus::Cancelled => 130,
    })
}

fn sessions(cmd: SessionsCommand) -> Result<i32> {
    let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
    match cmd {
        SessionsCommand::List { json } => {
            let list = brain.sessions()?;
            if json {
                println!("{}", serde_json::to_string_pretty(&list)?);
            } else if list.is_empty() {
                println!("no sessions yet");
            } else {
                for s in list {
                    println!("{}  {:>4} msgs  {}", s.id, s.messages, s.title);
                }
            }
        }
        SessionsCommand::Show { id, json } => {
            for m in brain.session_messages(&id)? {
                if json {
                    println!("{}", serde_json::to_string(&m.message.to_wire())?);
                } else {
                    render::print_message(&m.message);
                }
            }
        }
        SessionsCommand::Rename { id, title } => {
            refuse_if_agent("sessions rename")?;
            brain.rename_session(&id, &title)?;
        }
        SessionsCommand::Delete { id } => {
            refuse_if_agent("sessions delete")?;
            brain.delete_session(&id)?;
        }
    }
    Ok(0)
}

fn config(cmd: ConfigCommand) -> Result<i32> {
    let store = ConfigStore::new(&home()?);
    match cmd {
        ConfigCommand::Get { key } => {
            let v = store.load()?.get(&key)?;
            match v {
                serde_json::Value::String(s) => println!("{s}"),
                other => println!("{other}"),
            }
        }
        ConfigCommand::Set { key, value } => {
            refuse_if_agent("config set")?;
            let brain = open_brain(&TurnArgs::default(), Arc::new(approver::Terminal::none()))?;
            brain.set_config(&key, &value)?;
        }
        ConfigCommand::List => {
            for (k, v) in store.load()?.list() {
                println!("{k} = {v}");
            }
        }
        ConfigCommand::Path => println!("{}", store.path().display()),
    }
    Ok(0)
}

fn key(cmd: KeyCommand) -> Result<i32> {
    let store = KeyringSecretStore;
    match cmd {
        KeyCommand::Set => {
            refuse_if_agent("key set")?;
            let mut line = String::new();
            if std::io::stdin().is_terminal() {
                eprint!("API key (input is not hidden; paste and press Enter): ");
            }
            std::io::stdin().read_line(&mut line)?;
            let k = line.trim();
            if k.is_empty() {
                bail!("no key given on stdin");
            }
            store.set(
                jarvis_core::secrets::API_KEY,
                &jarvis_core::llm::Secret::new(k),
            )?;
            eprintln!("stored in the OS keyring (service `jarvis`)");
        }
        KeyCommand::Delete => {
            refuse_if_agent("key delete")?;
            store.delete(jarvis_core::secrets::API_KEY)?;
        }
        KeyCommand::Status => match secrets().get(jarvis_core::secrets::API_KEY) {
            Ok(Some(k)) => println!("{}", k.masked()),
            Ok(None) => println!("not set"),
            Err(e) => println!("unknown: {e}"),
        },
    }
    Ok(0)
}
