//! Voice in the app: the coordinator is built on first use (no model is
//! loaded while nobody talks) on a worker thread, so loading never blocks
//! the window, and presses and releases keep their order.

use std::path::PathBuf;
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};

use jarvis_core::Brain;
use jarvis_protocol::{HostEvent, VoiceState};
use jarvis_voice::capture::{AudioSource, MicConfig, MicSource, WavSource};
use jarvis_voice::coordinator::{VoiceConfig, VoiceCoordinator, VoiceParts};
use jarvis_voice::setup;
use jarvis_voice::sink::{AudioSink, NullSink, RodioSink};
use serde::Serialize;

#[derive(Debug)]
enum Cmd {
    Press,
    Release,
    Converse,
    Stop,
    Announce(String),
    /// Settings changed: the next use builds the coordinator afresh.
    Reset,
}

/// What the HUD's status bar and first-run page show about voice.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct VoiceStatus {
    pub state: VoiceState,
    pub paused: bool,
    pub microphones: Vec<String>,
    pub models: Vec<ModelRow>,
    /// Why voice cannot start, when it cannot.
    pub problem: Option<String>,
}

#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct ModelRow {
    pub name: String,
    pub what: String,
    pub installed: bool,
    pub bytes: u64,
}

pub struct Voice {
    tx: Sender<Cmd>,
    home: PathBuf,
    /// For the settings, held in memory (every change reloads the brain).
    brain: Brain,
    state: Arc<Mutex<(VoiceState, Option<String>)>>,
}

impl Voice {
    pub fn new(brain: Brain, home: PathBuf) -> Self {
        let (tx, rx) = channel::<Cmd>();
        let state = Arc::new(Mutex::new((VoiceState::Idle, None)));
        let shared = state.clone();
        let worker_home = home.clone();
        let brain_for_worker = brain.clone();
        let spawned = std::thread::Builder::new()
            .name("voice-host".into())
            .spawn(move || {
                let brain = brain_for_worker;
                let _rt = tauri::async_runtime::handle().inner().enter();
                let mut coord: Option<VoiceCoordinator> = None;
                for cmd in rx {
                    if let Cmd::Reset = cmd {
                        if let Some(c) = coord.take() {
                            c.shutdown();
                        }
                        continue;
                    }
                    if coord.is_none() {
                        match build(&brain, &worker_home) {
                            Ok(c) => {
                                set_problem(&shared, None);
                                coord = Some(c);
                            }
                            // An announcement without a voice stays a
                            // notification and a chat line: no alarm.
                            Err(problem) if matches!(cmd, Cmd::Announce(_)) => {
                                tracing::info!("announcement not spoken: {problem}");
                                continue;
                            }
                            Err(problem) => {
                                tracing::warn!("voice unavailable: {problem}");
                                set_problem(&shared, Some(problem.clone()));
                                brain.host_event(None, HostEvent::VoiceNotice { message: problem });
                                continue;
                            }
                        }
                    }
                    let Some(c) = coord.as_ref() else { continue };
                    match cmd {
                        Cmd::Press => c.press(),
                        Cmd::Release => c.release(),
                        Cmd::Converse => c.converse(),
                        Cmd::Stop => c.stop(),
                        Cmd::Announce(t) => c.announce(t),
                        Cmd::Reset => {}
                    }
                }
                if let Some(c) = coord {
                    c.shutdown();
                }
            });
        if let Err(e) = spawned {
            tracing::error!("voice worker not started: {e}");
        }
        Voice {
            tx,
            home,
            brain,
            state,
        }
    }

    fn paused(&self) -> bool {
        self.brain.config().voice.paused
    }

    fn send(&self, cmd: Cmd) {
        if self.paused() && !matches!(cmd, Cmd::Stop | Cmd::Reset) {
            return;
        }
        let _ = self.tx.send(cmd);
    }

    pub fn press(&self) {
        self.send(Cmd::Press);
    }
    pub fn release(&self) {
        self.send(Cmd::Release);
    }
    pub fn converse(&self) {
        self.send(Cmd::Converse);
    }
    pub fn stop(&self) {
        self.send(Cmd::Stop);
    }
    pub fn announce(&self, text: String) {
        self.send(Cmd::Announce(text));
    }
    pub fn reset(&self) {
        self.send(Cmd::Reset);
    }

    /// Follows the coordinator's state from the event stream (the bridge calls this).
    pub fn observe(&self, state: VoiceState) {
        if let Ok(mut s) = self.state.lock() {
            s.0 = state;
        }
    }

    pub fn status(&self) -> VoiceStatus {
        let (state, problem) = self
            .state
            .lock()
            .map(|s| s.clone())
            .unwrap_or((VoiceState::Idle, None));
        let models = jarvis_voice::models::list(&self.home)
            .into_iter()
            .filter(|m| m.kind == jarvis_voice::models::ModelKind::Voice)
            .map(|m| ModelRow {
                name: m.name,
                what: m.what,
                installed: m.installed,
                bytes: m.bytes,
            })
            .collect::<Vec<_>>();
        VoiceStatus {
            state,
            paused: self.paused(),
            microphones: jarvis_voice::capture::input_devices(),
            models,
            problem,
        }
    }
}

fn set_problem(shared: &Mutex<(VoiceState, Option<String>)>, problem: Option<String>) {
    if let Ok(mut s) = shared.lock() {
        s.1 = problem;
    }
}

/// A WAV file to take as the microphone instead of a device.
const MIC_WAV: &str = "JARVIS_MIC_WAV";

/// The voice session: one per day, so spoken turns read as a conversation.
fn voice_session() -> String {
    let day = jarvis_core::store::now_ms() / 86_400_000;
    format!("voice-{day}")
}

fn build(brain: &Brain, home: &std::path::Path) -> Result<VoiceCoordinator, String> {
    let settings = brain.config().voice;
    let source: Box<dyn AudioSource> = match std::env::var_os(MIC_WAV) {
        // Played in real time while the key is held: what a scripted
        // speaker would say into a microphone (tests, demos, no sound card).
        Some(path) => Box::new(
            WavSource::from_file(std::path::Path::new(&path), true)
                .map_err(|e| format!("{MIC_WAV}: {e}"))?,
        ),
        None if jarvis_voice::capture::input_devices().is_empty() => {
            return Err("no microphone: connect one, or type instead".into());
        }
        None => Box::new(MicSource::new(MicConfig {
            device: settings.input_device.clone(),
            keep_warm: settings.keep_mic_warm,
            ..MicConfig::default()
        })),
    };
    let stt = setup::transcriber(home, &settings)
        .map_err(|e| format!("no speech model ({e}); install it in Settings → Voice"))?;
    let silero = setup::silero(home)
        .map_err(|e| format!("no VAD model ({e}); install it in Settings → Voice"))?;
    let speaker = setup::speaker(home, &settings, None).map_err(|e| e.to_string())?;
    let sink: Arc<dyn AudioSink> = match RodioSink::open_default() {
        Ok(s) => Arc::new(s),
        Err(e) => {
            tracing::warn!("no speaker ({e}): replies are shown, not spoken");
            Arc::new(NullSink::with_speed(1000.0))
        }
    };
    let mut cfg = VoiceConfig::new(voice_session());
    cfg.silence_timeout = std::time::Duration::from_secs(settings.silence_timeout_sec.max(1));
    VoiceCoordinator::start(
        Arc::new(brain.clone()),
        VoiceParts {
            source,
            stt,
            speaker,
            sink,
            silero,
        },
        cfg,
    )
    .map_err(|e| e.to_string())
}
