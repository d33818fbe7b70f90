//! Wire types between the Jarvis brain and its hosts (CLI, desktop shell, voice).
//!
//! Hosts send [`Op`]s in and receive [`EventEnvelope`]s out; nothing else crosses
//! the boundary, so every host sees exactly the same brain.

pub mod changes;
pub mod chat;
pub mod evolve;
pub mod schedules;
pub mod settings;
pub mod skills;
pub mod tasks;

pub use changes::{ChangeInfo, ChangeKind, UndoReport};
pub use schedules::{ScheduleInfo, ScheduleRun, When};
pub use tasks::{AnnouncementInfo, BudgetReport};
pub use tasks::{NotifyPolicy, Priority, TaskInfo, TaskStatus};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// What a host asks the brain to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// A user message. An unknown `session_id` starts a new session with that id.
    UserInput { session_id: String, text: String },
    /// Cancel the turn running in this session, if any.
    CancelTurn { session_id: String },
    /// Answer to an [`ApprovalRequest`].
    ApprovalDecision {
        request_id: String,
        decision: ApprovalDecision,
        decided_by: String,
    },
    /// A run described in full (the hub, voice, the CLI's `--unattended`).
    StartRun { spec: RunSpec, text: String },
    /// Change the working directory that confines the tools.
    SetWorkdir { path: String },
    /// Re-read config.json (and, later, the skills).
    Reload,
    /// Stop everything: cancel every running turn and task (in every
    /// process of this home), silence speech, and hold the schedules until
    /// [`Op::ResumeEverything`]. `by` says who asked (tray, shortcut, CLI).
    StopEverything { by: String },
    /// Lift the hold Stop everything put on the schedules.
    ResumeEverything,
}

/// Who started a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    #[default]
    Chat,
    Voice,
    Task,
    Schedule,
    Evolution,
    Cli,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Chat => "chat",
            Origin::Voice => "voice",
            Origin::Task => "task",
            Origin::Schedule => "schedule",
            Origin::Evolution => "evolution",
            Origin::Cli => "cli",
        }
    }
}

/// Whether a run may wait for a human.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum ApprovalMode {
    /// A person is there: dialogs, the HUD, the terminal (no answer = deny).
    Interactive,
    /// Nobody is: every question is refused and told to the model. The
    /// default, so a run that does not say a person is there never waits
    /// for one nor uses what a person granted.
    #[default]
    Unattended,
    /// What the user approved when creating the run (`write`, `exec`,
    /// `network`, `mcp`) runs; anything else is treated as unattended.
    PreApproved { allow: Vec<String> },
}

impl ApprovalMode {
    pub fn is_interactive(&self) -> bool {
        matches!(self, ApprovalMode::Interactive)
    }
}

/// Everything that describes one agent run; nothing about a run lives in
/// process-wide state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RunSpec {
    #[serde(default)]
    pub origin: Origin,
    pub session_id: String,
    /// The brain's working directory when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workdir: Option<String>,
    #[serde(default)]
    pub approval: ApprovalMode,
    /// Rounds of tool calls at most (`llm.max_rounds` when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rounds: Option<u32>,
    /// Only these tools are offered (all that the toggles allow when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
    /// Tokens the run may use at most (the daily budget still holds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
}

impl RunSpec {
    pub fn interactive(origin: Origin, session_id: impl Into<String>) -> Self {
        RunSpec {
            origin,
            session_id: session_id.into(),
            approval: ApprovalMode::Interactive,
            ..Default::default()
        }
    }
}

/// A run in progress, as a snapshot shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RunInfo {
    pub run_id: String,
    pub session_id: String,
    pub origin: Origin,
    pub approval: ApprovalMode,
    pub started_at: i64,
    /// The user's words that began it, shortened.
    #[serde(default)]
    pub title: String,
    /// The tool it is calling now, if any.
    #[serde(default)]
    pub tool: Option<String>,
}

/// What is going on right now, for a host that starts late or fell behind:
/// every lifecycle event numbered up to `seq` is reflected in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Snapshot {
    pub seq: u64,
    pub runs: Vec<RunInfo>,
    pub pending_approvals: Vec<ApprovalRequest>,
}

/// What a host itself may put on the event stream: its devices' state,
/// never the brain's events.
#[derive(Debug, Clone, PartialEq)]
pub enum HostEvent {
    VoiceState {
        state: VoiceState,
    },
    VoiceMic {
        capturing: bool,
    },
    VoiceLevel {
        level: f32,
    },
    VoiceTranscript {
        text: String,
        language: String,
        audio_ms: u64,
    },
    VoiceTimings {
        timings: VoiceTimings,
    },
    VoiceNotice {
        message: String,
    },
}

impl From<HostEvent> for Event {
    fn from(h: HostEvent) -> Event {
        match h {
            HostEvent::VoiceState { state } => Event::VoiceState { state },
            HostEvent::VoiceMic { capturing } => Event::VoiceMic { capturing },
            HostEvent::VoiceLevel { level } => Event::VoiceLevel { level },
            HostEvent::VoiceTranscript {
                text,
                language,
                audio_ms,
            } => Event::VoiceTranscript {
                text,
                language,
                audio_ms,
            },
            HostEvent::VoiceTimings { timings } => Event::VoiceTimings { timings },
            HostEvent::VoiceNotice { message } => Event::VoiceNotice { message },
        }
    }
}

/// An event with the session it belongs to (`None` for brain-wide events).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct EventEnvelope {
    /// Lifecycle events are numbered in the order they were sent; deltas
    /// and levels are not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    pub session_id: Option<String>,
    #[serde(flatten)]
    pub event: Event,
}

/// What the brain reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    TurnStarted {
        turn_id: String,
    },
    ContentDelta {
        text: String,
    },
    ReasoningDelta {
        text: String,
    },
    ToolCallStarted {
        call_id: String,
        name: String,
    },
    ToolCallArgumentsDelta {
        call_id: String,
        delta: String,
    },
    ToolCallFinished {
        call_id: String,
        name: String,
        status: ToolStatus,
        duration_ms: u64,
        summary: String,
    },
    ApprovalRequested {
        request: ApprovalRequest,
    },
    ApprovalResolved {
        request_id: String,
        decision: ApprovalDecision,
        decided_by: String,
    },
    TurnFinished {
        turn_id: String,
        stop: StopReason,
        usage: Usage,
        rounds: u32,
    },
    Error {
        message: String,
        fatal: bool,
    },
    Action {
        action: UiAction,
    },
    Notice {
        message: String,
    },
    /// A schedule was made, changed, paused, resumed or cancelled.
    ScheduleChanged {
        schedule: ScheduleInfo,
    },
    /// A task was queued, started or ended.
    TaskChanged {
        task: TaskInfo,
    },
    /// Stop everything ran: hosts silence speech; schedules are held.
    Stopped {
        by: String,
        turns: u32,
        tasks: u32,
    },
    /// The hold on schedules was lifted.
    Resumed,
    /// Something Jarvis says unprompted (a task ended): hosts speak it when
    /// idle, show it as a notification and put it in the chat.
    Announcement {
        id: String,
        text: String,
        task_id: Option<String>,
        priority: Priority,
        /// Spoken and notified; false in do-not-disturb hours (the chat
        /// line still appears).
        loud: bool,
    },
    /// The voice coordinator moved to another state.
    VoiceState {
        state: VoiceState,
    },
    /// The microphone opened or closed (the mic-in-use light).
    VoiceMic {
        capturing: bool,
    },
    /// Input level while listening (RMS, 0–1), about ten times a second.
    VoiceLevel {
        level: f32,
    },
    /// What the user said, as recognised.
    VoiceTranscript {
        text: String,
        language: String,
        audio_ms: u64,
    },
    /// How long each stage of a spoken turn took.
    VoiceTimings {
        timings: VoiceTimings,
    },
    /// Something the user should know about voice ("didn't catch that",
    /// "no microphone").
    VoiceNotice {
        message: String,
    },
}

/// The voice coordinator's state, shown by the HUD and tray.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum VoiceState {
    Idle,
    Listening,
    Transcribing,
    Thinking,
    Speaking,
}

/// Stage timings of one spoken turn, in milliseconds. "End of speech" is
/// reported both ways: the push-to-talk release and the last speech frame
/// the VAD found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct VoiceTimings {
    /// Length of the captured utterance.
    pub audio_ms: u64,
    /// Trimming/confirming the utterance with the VAD.
    pub vad_ms: u64,
    pub stt_ms: u64,
    /// From the transcript going to the brain to its first text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm_first_text_ms: Option<u64>,
    /// From the transcript going to the brain to the first whole sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_sentence_ms: Option<u64>,
    /// Synthesis of the first sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tts_first_ms: Option<u64>,
    /// Push-to-talk release to the first reply audio reaching the sink.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release_to_audio_ms: Option<u64>,
    /// Last speech frame to the first reply audio.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speech_end_to_audio_ms: Option<u64>,
    /// The whole turn, end of speech to the last audio.
    pub total_ms: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ToolStatus {
    Ok,
    Error,
    /// Blocked by policy or denied by the user.
    Refused,
    Cancelled,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The model gave a plain answer.
    Completed,
    /// The round limit was reached while the model still wanted tools.
    MaxRounds,
    /// The model repeated an identical call and was stopped.
    Repetition,
    Cancelled,
    Failed,
    /// An unattended run met questions nobody was there to answer.
    NeedsApproval,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub total_tokens: u64,
}

impl Usage {
    pub fn add(&mut self, other: &Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        self.total_tokens += other.total_tokens;
    }
}

/// The HUD's views: the only targets of [`UiAction::Navigate`].
pub const VIEWS: &[&str] = &[
    "cockpit",
    "chat",
    "runs",
    "tasks",
    "schedules",
    "skills",
    "memory",
    "reflect",
    "audit",
    "grants",
    "settings",
];
/// Panels [`UiAction::OpenPanel`] may open.
pub const PANELS: &[&str] = &["approvals", "conversations"];
/// Controls [`UiAction::Focus`] may focus.
pub const FOCUS_TARGETS: &[&str] = &["input", "push_to_talk", "search"];

/// The agent drives the HUD with these; hosts accept only the whitelisted
/// views, panels and targets above.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UiAction {
    /// Show a view, optionally with one entry (`session`, `skill` or `audit`) selected.
    Navigate {
        view: String,
        #[serde(default, skip_serializing_if = "Value::is_null")]
        #[ts(type = "unknown")]
        params: Value,
    },
    OpenPanel {
        panel: String,
    },
    Focus {
        target: String,
    },
}

impl UiAction {
    /// Whether this action names only whitelisted things; the reason if not.
    pub fn check(&self) -> Result<(), String> {
        let (what, value, allowed) = match self {
            UiAction::Navigate { view, params } => {
                if !(params.is_null() || params.is_object()) {
                    return Err("navigate params must be an object".into());
                }
                ("view", view, VIEWS)
            }
            UiAction::OpenPanel { panel } => ("panel", panel, PANELS),
            UiAction::Focus { target } => ("focus target", target, FOCUS_TARGETS),
        };
        if allowed.contains(&value.as_str()) {
            Ok(())
        } else {
            Err(format!(
                "unknown {what} {value:?}; allowed: {}",
                allowed.join(", ")
            ))
        }
    }
}

/// One tool call waiting for a human.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ApprovalRequest {
    pub request_id: String,
    pub call_id: String,
    pub session_id: Option<String>,
    pub tool: String,
    /// The exact command, path or URL, as it will be used.
    pub subject: String,
    pub workdir: String,
    /// What the call will do, when the tool can say (a write's size and diff).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<String>,
    /// Why the policy asks.
    pub reason: String,
    /// What "always allow" would cover (a base command or the tool).
    pub grant_scope: String,
    /// "Always allow" is offered (never for what creates skills, tools or
    /// MCP servers).
    #[serde(default)]
    pub allow_always: bool,
    /// "Allow with network" is offered: a command that runs without the
    /// network unless this one call is given it.
    #[serde(default)]
    pub offer_network: bool,
    pub timeout_sec: u64,
    #[serde(default)]
    pub origin: Origin,
    #[serde(default)]
    pub run_id: String,
    /// When the question expires (a denial), ms since the epoch.
    #[serde(default)]
    pub expires_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum ApprovalDecision {
    AllowOnce,
    /// Allow once, and give this command the network.
    AllowWithNetwork,
    AlwaysAllow,
    Deny {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
}

impl ApprovalDecision {
    pub fn allows(&self) -> bool {
        matches!(
            self,
            Self::AllowOnce | Self::AllowWithNetwork | Self::AlwaysAllow
        )
    }
}

/// A conversation, as lists show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct SessionInfo {
    pub id: String,
    pub title: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub messages: i64,
}

/// One turn's stop reason and token usage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct TurnUsage {
    pub turn_id: String,
    pub stop: String,
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
    pub total_tokens: i64,
}

/// One tool call as the audit recorded it: the verdict (`allow` means it
/// ran without a question), who decided, how it ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct AuditRow {
    pub id: i64,
    pub at: i64,
    pub call_id: String,
    pub session_id: Option<String>,
    pub tool: String,
    pub arguments: String,
    pub verdict: String,
    pub reason: String,
    pub decided_by: String,
    pub outcome: Option<String>,
    pub duration_ms: Option<i64>,
}

/// The TypeScript declarations of every wire type, for the HUD: generated
/// from these definitions so the two sides are never written twice.
pub fn typescript() -> String {
    let cfg = ts_config();
    let decls = [
        Op::decl(&cfg),
        Origin::decl(&cfg),
        ApprovalMode::decl(&cfg),
        RunSpec::decl(&cfg),
        RunInfo::decl(&cfg),
        Snapshot::decl(&cfg),
        SessionInfo::decl(&cfg),
        TurnUsage::decl(&cfg),
        AuditRow::decl(&cfg),
        EventEnvelope::decl(&cfg),
        Event::decl(&cfg),
        ToolStatus::decl(&cfg),
        StopReason::decl(&cfg),
        Usage::decl(&cfg),
        UiAction::decl(&cfg),
        ApprovalRequest::decl(&cfg),
        ApprovalDecision::decl(&cfg),
        VoiceState::decl(&cfg),
        VoiceTimings::decl(&cfg),
        chat::ChatMessage::decl(&cfg),
        chat::Role::decl(&cfg),
        chat::ToolCall::decl(&cfg),
        skills::Skill::decl(&cfg),
        skills::SkillListing::decl(&cfg),
        skills::Finding::decl(&cfg),
        skills::InstallReport::decl(&cfg),
        skills::SkillTest::decl(&cfg),
        skills::McpProject::decl(&cfg),
        settings::Config::decl(&cfg),
        settings::LlmConfig::decl(&cfg),
        settings::Provider::decl(&cfg),
        settings::Persona::decl(&cfg),
        settings::ToolToggles::decl(&cfg),
        settings::Approvals::decl(&cfg),
        settings::McpServerConfig::decl(&cfg),
        settings::SkillsConfig::decl(&cfg),
        settings::SandboxConfig::decl(&cfg),
        settings::VoiceSettings::decl(&cfg),
        settings::Retention::decl(&cfg),
        settings::TasksConfig::decl(&cfg),
        settings::BudgetConfig::decl(&cfg),
        settings::Price::decl(&cfg),
        settings::EvolveConfig::decl(&cfg),
        settings::MemoryConfig::decl(&cfg),
        evolve::ProposalInfo::decl(&cfg),
        evolve::MemoryItem::decl(&cfg),
        evolve::MemoryList::decl(&cfg),
        evolve::RadarAxis::decl(&cfg),
        evolve::ReflectReport::decl(&cfg),
        BudgetReport::decl(&cfg),
        AnnouncementInfo::decl(&cfg),
        ChangeKind::decl(&cfg),
        ChangeInfo::decl(&cfg),
        UndoReport::decl(&cfg),
        TaskInfo::decl(&cfg),
        TaskStatus::decl(&cfg),
        NotifyPolicy::decl(&cfg),
        Priority::decl(&cfg),
        When::decl(&cfg),
        ScheduleInfo::decl(&cfg),
        ScheduleRun::decl(&cfg),
    ];
    ts_module(
        "crates/jarvis-protocol",
        "cargo run -p jarvis-protocol --example typescript",
        "",
        decls,
    )
}

/// How every generated declaration is written: 64-bit integers as
/// `number` (they travel as JSON numbers, not bigints).
pub fn ts_config() -> ts_rs::Config {
    ts_rs::Config::new().with_large_int("number")
}

/// A generated TypeScript module: a header saying where it comes from and
/// how to regenerate it, the imports, then each declaration exported.
pub fn ts_module(
    source: &str,
    command: &str,
    imports: &str,
    decls: impl IntoIterator<Item = String>,
) -> String {
    let mut out = format!(
        "// Generated from {source} by `{command}`.\n// Do not edit: change the Rust types and regenerate.\n{imports}"
    );
    for d in decls {
        out.push_str("\nexport ");
        out.push_str(&d);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_round_trip_as_tagged_json() {
        let ev = EventEnvelope {
            seq: Some(3),
            session_id: Some("s1".into()),
            event: Event::ToolCallFinished {
                call_id: "c".into(),
                name: "local_exec".into(),
                status: ToolStatus::Refused,
                duration_ms: 3,
                summary: "blocked".into(),
            },
        };
        let s = serde_json::to_string(&ev).unwrap();
        assert!(s.contains(r#""type":"tool_call_finished""#), "{s}");
        assert!(s.contains(r#""status":"refused""#), "{s}");
        let back: EventEnvelope = serde_json::from_str(&s).unwrap();
        assert_eq!(back, ev);
    }

    #[test]
    fn the_huds_typescript_types_are_generated_from_these() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/protocol.ts");
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        let ts = typescript();
        assert!(
            committed == ts,
            "{} is out of date: run `cargo run -p jarvis-protocol --example typescript`",
            path.display()
        );
        // The tagged unions keep their tags, and u64 is a JSON number.
        assert!(
            ts.contains(r#"{ "type": "voice_state", state: VoiceState, }"#),
            "{ts}"
        );
        assert!(ts.contains("audio_ms: number"), "{ts}");
        assert!(!ts.contains("bigint"), "{ts}");
    }

    #[test]
    fn only_whitelisted_actions_pass() {
        let nav = |v: &str| UiAction::Navigate {
            view: v.into(),
            params: Value::Null,
        };
        assert!(nav("skills").check().is_ok());
        let e = nav("file:///etc/passwd").check().unwrap_err();
        assert!(e.contains("unknown view"), "{e}");
        assert!(
            UiAction::Navigate {
                view: "chat".into(),
                params: Value::from("x")
            }
            .check()
            .is_err()
        );
        assert!(
            UiAction::OpenPanel {
                panel: "approvals".into()
            }
            .check()
            .is_ok()
        );
        assert!(
            UiAction::Focus {
                target: "devtools".into()
            }
            .check()
            .is_err()
        );
    }

    #[test]
    fn only_explicit_allow_allows() {
        assert!(ApprovalDecision::AllowOnce.allows());
        assert!(ApprovalDecision::AlwaysAllow.allows());
        assert!(!ApprovalDecision::Deny { reason: None }.allows());
        let op: Op = serde_json::from_str(
            r#"{"op":"approval_decision","request_id":"r","decision":{"decision":"deny","reason":"no"},"decided_by":"hud"}"#,
        )
        .unwrap();
        assert!(matches!(op, Op::ApprovalDecision { .. }));
    }
}
