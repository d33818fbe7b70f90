#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use jarvis_core::policy::ScriptedApprover;
use jarvis_core::secrets::MemorySecretStore;
use jarvis_core::{Brain, BrainOptions, Overrides};
use jarvis_protocol::Event;
use jarvis_testkit::{MockServer, Reply};
use jarvis_voice::VoiceError;
use jarvis_voice::audio::{Pcm, read_wav_16k};
use jarvis_voice::capture::{AudioSource, WavSource};
use jarvis_voice::coordinator::{VoiceConfig, VoiceCoordinator, VoiceParts};
use jarvis_voice::sink::NullSink;
use jarvis_voice::stt::{SttConfig, WhisperTranscriber};
use jarvis_voice::tts::Speaker;
use jarvis_voice::vad::SileroVad;

pub fn shared() -> PathBuf {
    jarvis_testkit::shared_dir()
}

pub fn clip(name: &str) -> Pcm {
    read_wav_16k(&shared().join("audio").join(name)).unwrap()
}

pub fn transcripts() -> Vec<String> {
    std::fs::read_to_string(shared().join("audio/transcripts.txt"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

pub fn stt() -> Arc<WhisperTranscriber> {
    static T: OnceLock<Arc<WhisperTranscriber>> = OnceLock::new();
    T.get_or_init(|| {
        let t = WhisperTranscriber::new(SttConfig::new(shared().join("models/ggml-tiny.en.bin")))
            .unwrap();
        t.preload().unwrap();
        Arc::new(t)
    })
    .clone()
}

pub fn silero() -> Arc<SileroVad> {
    static S: OnceLock<Arc<SileroVad>> = OnceLock::new();
    S.get_or_init(|| {
        Arc::new(SileroVad::load(&shared().join("models/silero-v6.2.0-ggml.bin")).unwrap())
    })
    .clone()
}

/// The fake microphone: each press hears the next clip (a person speaking),
/// then silence forever (the person stopped) or the end of the stream.
pub struct ScriptedMic {
    clips: VecDeque<(Pcm, bool)>,
    current: Option<WavSource>,
    pub opens: Arc<std::sync::atomic::AtomicUsize>,
}

impl ScriptedMic {
    /// `(clip, paced)` per open.
    pub fn new(clips: Vec<(Pcm, bool)>) -> Self {
        Self {
            clips: clips.into(),
            current: None,
            opens: Arc::default(),
        }
    }
}

impl AudioSource for ScriptedMic {
    fn name(&self) -> String {
        "scripted mic".into()
    }
    fn open(&mut self) -> Result<Receiver<Vec<f32>>, VoiceError> {
        self.opens.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let (pcm, paced) = self
            .clips
            .pop_front()
            .unwrap_or_else(|| (Pcm::new(vec![0.0; 16_000 * 30], 16_000), true));
        let mut src = WavSource::new(pcm, "scripted", paced);
        let rx = src.open()?;
        self.current = Some(src);
        Ok(rx)
    }
    fn close(&mut self) {
        if let Some(mut s) = self.current.take() {
            s.close();
        }
    }
    fn is_capturing(&self) -> bool {
        self.current.is_some()
    }
}

pub struct Rig {
    pub server: MockServer,
    pub home: tempfile::TempDir,
    pub work: tempfile::TempDir,
    pub brain: Brain,
    pub voice: VoiceCoordinator,
    pub sink: Arc<NullSink>,
    pub events: jarvis_core::events::Subscription,
    pub session: String,
}

pub async fn rig(
    script: Vec<Reply>,
    mic: ScriptedMic,
    speaker: Arc<dyn Speaker>,
    sink: NullSink,
    tweak: impl FnOnce(&mut VoiceConfig),
) -> Rig {
    let server = MockServer::scripted(script).await.unwrap();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let store = jarvis_core::config::ConfigStore::new(home.path());
    store
        .update(|c| {
            c.set("llm.base_url", &server.base_url())?;
            c.set("llm.model", "test-model")?;
            c.set("llm.max_retries", "0")?;
            Ok(())
        })
        .unwrap();
    let brain = Brain::open(BrainOptions {
        home: home.path().to_path_buf(),
        secrets: Arc::new(MemorySecretStore::default()),
        approver: Arc::new(ScriptedApprover::new([])),
        overrides: Overrides {
            workdir: Some(work.path().to_path_buf()),
            ..Default::default()
        },
        registry: None,
        resolver: None,
        sandbox_helper: None,
    })
    .unwrap();
    let events = brain.subscribe();
    let sink = Arc::new(sink);
    let session = "voice-test".to_string();
    let mut cfg = VoiceConfig::new(session.clone());
    tweak(&mut cfg);
    let parts = VoiceParts {
        source: Box::new(mic),
        stt: stt(),
        speaker,
        sink: sink.clone(),
        silero: silero(),
    };
    let voice = VoiceCoordinator::start(Arc::new(brain.clone()), parts, cfg).unwrap();
    Rig {
        server,
        home,
        work,
        brain,
        voice,
        sink,
        events,
        session,
    }
}

impl Rig {
    /// Events until `pred` matches (inclusive), or panic after `secs`.
    pub async fn until(&mut self, secs: u64, mut pred: impl FnMut(&Event) -> bool) -> Vec<Event> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, self.events.recv()).await {
                Ok(Ok(env)) => {
                    let hit = pred(&env.event);
                    seen.push(env.event);
                    if hit {
                        return seen;
                    }
                }
                Ok(Err(jarvis_core::events::RecvError::Lagged(_))) => {}
                Ok(Err(e)) => panic!("event stream ended: {e}"),
                Err(_) => panic!("timed out after {secs} s; saw {seen:#?}"),
            }
        }
    }
}

impl Rig {
    /// Events until the coordinator reaches `state`.
    pub async fn until_state(
        &mut self,
        secs: u64,
        state: jarvis_protocol::VoiceState,
    ) -> Vec<Event> {
        self.until(
            secs,
            |e| matches!(e, Event::VoiceState { state: s } if *s == state),
        )
        .await
    }
}

/// Wait until `cond` holds, or panic with `what` after `secs`.
pub async fn eventually(secs: u64, what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

pub fn states(events: &[Event]) -> Vec<jarvis_protocol::VoiceState> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::VoiceState { state } => Some(*state),
            _ => None,
        })
        .collect()
}

pub fn transcripts_in(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::VoiceTranscript { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

pub fn timings_in(events: &[Event]) -> jarvis_protocol::VoiceTimings {
    events
        .iter()
        .find_map(|e| match e {
            Event::VoiceTimings { timings } => Some(timings.clone()),
            _ => None,
        })
        .expect("no VoiceTimings event")
}
