//! The voice coordinator: one state machine (idle → listening → transcribing
//! → thinking → speaking → idle, or listening again) that runs spoken turns
//! against the brain. It is a host of the brain API: it sends `Op`s and
//! reads `Event`s, and publishes its own `Event::Voice*` on the same stream.

mod capture_loop;
mod controller;
mod playback;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jarvis_protocol::{HostEvent, Op, VoiceState};
use tokio::sync::mpsc;

use crate::VoiceError;
use crate::capture::AudioSource;
use crate::sink::AudioSink;
use crate::stt::{Transcriber, Transcript};
use crate::tts::Speaker;
use crate::vad::{EndpointConfig, Segment, SileroVad};

pub use playback::{chime, chime_lead, with_chime};

/// What the coordinator needs from the brain; `jarvis_core::Brain` is one.
pub trait BrainPort: Send + Sync + 'static {
    fn submit(&self, op: Op) -> Result<(), VoiceError>;
    fn subscribe(&self) -> jarvis_core::events::Subscription;
    /// Voice's own state on the brain's stream (never a brain event).
    fn emit(&self, session_id: Option<&str>, event: HostEvent);
    fn is_running(&self, session_id: &str) -> bool;
}

impl BrainPort for jarvis_core::Brain {
    fn submit(&self, op: Op) -> Result<(), VoiceError> {
        jarvis_core::Brain::submit(self, op).map_err(|e| VoiceError::Brain(e.to_string()))
    }
    fn subscribe(&self) -> jarvis_core::events::Subscription {
        jarvis_core::Brain::subscribe(self)
    }
    fn emit(&self, session_id: Option<&str>, event: HostEvent) {
        jarvis_core::Brain::host_event(self, session_id, event);
    }
    fn is_running(&self, session_id: &str) -> bool {
        jarvis_core::Brain::is_running(self, session_id)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListenMode {
    /// Record while the key is held; the VAD trims.
    PushToTalk,
    /// The VAD ends the utterance; after a reply, listen again.
    Conversation,
}

#[derive(Debug, Clone)]
pub struct VoiceConfig {
    pub session_id: String,
    pub endpoint: EndpointConfig,
    /// In conversation mode, no speech for this long returns to idle.
    pub silence_timeout: Duration,
    /// A held key or an endless talker is cut here.
    pub max_utterance: Duration,
    /// Utterances that cancel the running turn instead of starting one.
    pub stop_words: Vec<String>,
    /// Stop after speech to text (`jarvis listen --transcribe-only`).
    pub transcribe_only: bool,
}

impl VoiceConfig {
    pub fn new(session_id: impl Into<String>) -> Self {
        Self {
            session_id: session_id.into(),
            endpoint: EndpointConfig::default(),
            silence_timeout: Duration::from_secs(8),
            max_utterance: Duration::from_secs(30),
            stop_words: [
                "stop",
                "cancel",
                "never mind",
                "be quiet",
                "shut up",
                "停",
                "停止",
                "取消",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            transcribe_only: false,
        }
    }
}

/// The devices and engines a coordinator drives.
pub struct VoiceParts {
    pub source: Box<dyn AudioSource>,
    pub stt: Arc<dyn Transcriber>,
    pub speaker: Arc<dyn Speaker>,
    pub sink: Arc<dyn AudioSink>,
    pub silero: Arc<SileroVad>,
}

/// Internal messages to the controller task.
#[derive(Debug)]
pub(crate) enum Msg {
    Press,
    Release {
        at: Instant,
    },
    Converse,
    ListenOnce,
    Stop,
    Announce(String),
    Chime,
    Audio {
        listen: u64,
        chunk: Vec<f32>,
    },
    /// Speech the VAD heard and Silero confirmed is going on (keeps the
    /// silence timeout away).
    SpeechActive {
        listen: u64,
        at_sample: usize,
    },
    /// A confirmed utterance ended (conversation mode).
    Utterance {
        listen: u64,
        segment: Segment,
        speech_end_at: Instant,
        vad_ms: u64,
    },
    AudioEnded {
        listen: u64,
    },
    Transcribed {
        listen: u64,
        result: Result<Option<Heard>, VoiceError>,
    },
    Synthesized {
        generation: u64,
        ms: u64,
        error: Option<String>,
    },
    AudioStarted {
        generation: u64,
        at: Instant,
    },
    AudioFinished {
        generation: u64,
        at: Instant,
        error: Option<String>,
    },
    SubmitFailed {
        generation: u64,
        error: String,
    },
    Tick,
    Shutdown,
}

/// A confirmed, transcribed utterance.
#[derive(Debug)]
pub(crate) struct Heard {
    transcript: Transcript,
    vad_ms: u64,
    /// The push-to-talk release, if the key ended it.
    release_at: Option<Instant>,
    /// The last speech frame, in wall time.
    speech_end_at: Option<Instant>,
}

/// Handle to a running coordinator; cheap to clone.
#[derive(Clone)]
pub struct VoiceCoordinator {
    tx: mpsc::UnboundedSender<Msg>,
    state: Arc<Mutex<VoiceState>>,
    queue: playback::Queue,
}

impl VoiceCoordinator {
    /// Start the coordinator on the current tokio runtime.
    pub fn start(
        brain: Arc<dyn BrainPort>,
        parts: VoiceParts,
        cfg: VoiceConfig,
    ) -> Result<Self, VoiceError> {
        let (tx, rx) = mpsc::unbounded_channel();
        let state = Arc::new(Mutex::new(VoiceState::Idle));
        let queue = playback::Queue::new();
        let (synth_tx, synth_rx) = std::sync::mpsc::channel();
        playback::spawn_player(queue.clone(), parts.sink.clone(), tx.clone())?;
        playback::spawn_synth(queue.clone(), parts.speaker.clone(), synth_rx, tx.clone())?;
        let ctl = controller::Controller::new(controller::Wiring {
            brain,
            parts,
            cfg,
            tx: tx.clone(),
            shared_state: state.clone(),
            queue: queue.clone(),
            synth: synth_tx,
        });
        tokio::spawn(ctl.run(rx));
        let ticker = tx.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_millis(250));
            loop {
                every.tick().await;
                if ticker.send(Msg::Tick).is_err() {
                    return;
                }
            }
        });
        Ok(Self { tx, state, queue })
    }

    /// Push-to-talk pressed: start listening; if Jarvis is speaking, stop it
    /// now (barge-in).
    pub fn press(&self) {
        // Cut playback right here rather than after a trip through the
        // controller: the barge-in budget is 200 ms.
        if self.queue.is_playing() {
            self.queue.stop.raise();
        }
        let _ = self.tx.send(Msg::Press);
    }

    /// Push-to-talk released: what was said goes to the brain.
    pub fn release(&self) {
        let _ = self.tx.send(Msg::Release { at: Instant::now() });
    }

    /// Hands-free: listen until the VAD ends the utterance, answer, listen again.
    pub fn converse(&self) {
        let _ = self.tx.send(Msg::Converse);
    }

    /// Hands-free for one utterance: the VAD ends it, then one reply.
    pub fn listen_once(&self) {
        let _ = self.tx.send(Msg::ListenOnce);
    }

    /// Stop everything: speech, listening, conversation mode, the turn.
    pub fn stop(&self) {
        let _ = self.tx.send(Msg::Stop);
    }

    /// Speak when idle, never over speech or an open microphone.
    pub fn announce(&self, text: impl Into<String>) {
        let _ = self.tx.send(Msg::Announce(text.into()));
    }

    pub fn chime(&self) {
        let _ = self.tx.send(Msg::Chime);
    }

    pub fn state(&self) -> VoiceState {
        self.state.lock().map(|s| *s).unwrap_or(VoiceState::Idle)
    }

    pub fn shutdown(&self) {
        self.queue.shutdown();
        let _ = self.tx.send(Msg::Shutdown);
    }
}
