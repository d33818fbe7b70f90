//! Events on a terminal: the answer on stdout, activity on stderr, or every
//! event as a JSON line.

use std::io::{IsTerminal, Write};

use jarvis_core::llm::{ChatMessage, Role};
use jarvis_protocol::{Event, EventEnvelope, ToolStatus, UiAction};

const FRAMES: &[char] = &['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

pub struct Renderer {
    json: bool,
    tty: bool,
    mid_line: bool,
    /// What the spinner says while nothing else is printed (TTY only).
    waiting: Option<String>,
    spinner_on_screen: bool,
    frame: usize,
}

impl Renderer {
    pub fn new(json: bool) -> Self {
        Renderer {
            json,
            tty: std::io::stderr().is_terminal(),
            mid_line: false,
            waiting: None,
            spinner_on_screen: false,
            frame: 0,
        }
    }

    /// Advances the spinner; call it every ~100 ms.
    pub fn tick(&mut self) {
        if !self.tty || self.json || self.mid_line || crate::approver::prompting() {
            return;
        }
        if let Some(label) = &self.waiting {
            self.frame = (self.frame + 1) % FRAMES.len();
            eprint!("\r{} {label}\x1b[K", FRAMES[self.frame]);
            self.spinner_on_screen = true;
        }
    }

    fn clear_spinner(&mut self) {
        if self.spinner_on_screen {
            eprint!("\r\x1b[K");
            self.spinner_on_screen = false;
        }
    }

    fn end_line(&mut self) {
        if self.mid_line {
            println!();
            self.mid_line = false;
        }
    }

    pub fn event(&mut self, ev: &EventEnvelope) -> anyhow::Result<()> {
        if self.json {
            println!("{}", serde_json::to_string(ev)?);
            return Ok(());
        }
        self.clear_spinner();
        match &ev.event {
            Event::TurnStarted { .. } => self.waiting = Some("thinking".into()),
            Event::ContentDelta { text } => {
                self.waiting = None;
                print!("{text}");
                let _ = std::io::stdout().flush();
                self.mid_line = !text.ends_with('\n');
            }
            Event::ReasoningDelta { .. } => self.waiting = Some("thinking (reasoning)".into()),
            Event::ToolCallStarted { name, .. } => {
                self.end_line();
                eprintln!("⚙ {name} …");
                self.waiting = Some(format!("running {name}"));
            }
            Event::ApprovalRequested { .. } => self.waiting = None,
            Event::ToolCallFinished {
                name,
                status,
                duration_ms,
                summary,
                ..
            } => {
                let mark = match status {
                    ToolStatus::Ok => "✓",
                    ToolStatus::Error => "✗",
                    ToolStatus::Refused => "⊘ refused:",
                    ToolStatus::Cancelled => "⊘ cancelled:",
                };
                eprintln!("{mark} {name} — {summary} ({duration_ms} ms)");
                self.waiting = Some("thinking".into());
            }
            Event::ApprovalResolved {
                decision,
                decided_by,
                ..
            } => {
                let verdict = if decision.allows() {
                    "allowed"
                } else {
                    "denied"
                };
                eprintln!("  {verdict} by {decided_by}");
            }
            Event::Error { message, .. } => {
                self.end_line();
                eprintln!("error: {message}");
            }
            Event::Notice { message } => eprintln!("note: {message}"),
            Event::Action {
                action: UiAction::Navigate { view, .. },
            } => eprintln!("→ HUD: {view}"),
            Event::Action {
                action: UiAction::OpenPanel { panel: what } | UiAction::Focus { target: what },
            } => eprintln!("→ HUD: {what}"),
            Event::TurnFinished { usage, rounds, .. } => {
                self.waiting = None;
                self.end_line();
                if self.tty {
                    eprintln!("({} rounds, {} tokens)", rounds, usage.total_tokens);
                }
            }
            Event::VoiceState { state } => self.waiting = Some(format!("{state:?}").to_lowercase()),
            Event::VoiceTranscript { text, .. } => eprintln!("🎤 {text}"),
            Event::VoiceNotice { message } => eprintln!("voice: {message}"),
            Event::VoiceTimings { timings } => {
                if self.tty {
                    eprintln!("(stt {} ms, total {} ms)", timings.stt_ms, timings.total_ms);
                }
            }
            Event::ScheduleChanged { .. } => {}
            Event::Stopped { by, .. } => {
                eprintln!(
                    "note: everything was stopped ({by}); schedules are held until `jarvis resume`"
                )
            }
            Event::Resumed => eprintln!("note: schedules run again"),
            Event::TaskChanged { task } => {
                self.end_line();
                eprintln!("task {} {}", short_id(&task.id), task.status.as_str());
            }
            Event::Announcement { text, .. } => {
                self.end_line();
                eprintln!("📣 {text}");
            }
            Event::ToolCallArgumentsDelta { .. }
            | Event::VoiceMic { .. }
            | Event::VoiceLevel { .. } => {}
        }
        Ok(())
    }

    pub fn finish(&mut self) {
        self.clear_spinner();
        self.end_line();
    }
}

pub fn print_message(m: &ChatMessage) {
    let who = match m.role {
        Role::System => "system",
        Role::User => "you",
        Role::Assistant => "jarvis",
        Role::Tool => "tool",
    };
    if let Some(c) = m.content.as_deref().filter(|c| !c.is_empty()) {
        let c: String = if m.role == Role::Tool && c.chars().count() > 300 {
            format!("{}…", c.chars().take(300).collect::<String>())
        } else {
            c.to_string()
        };
        println!("{who}: {c}");
    }
    for call in &m.tool_calls {
        println!("{who}: ⚙ {}({})", call.name, call.arguments);
    }
}

/// Events a host showing `session` renders: its own and brain-wide ones.
pub fn concerns(ev: &jarvis_protocol::EventEnvelope, session: &str) -> bool {
    ev.session_id.as_deref().is_none_or(|s| s == session)
}

pub use jarvis_core::tasks::short_id;
