//! The coordinator's state machine, on one tokio task. Blocking work (VAD,
//! STT, TTS, playback) runs on threads and reports back as messages.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jarvis_protocol::{HostEvent, Op, Origin, RunSpec, VoiceState, VoiceTimings};
use tokio::sync::mpsc;

use super::capture_loop::{self, Endpointing};
use super::playback::{Kind, Queue, SynthJob};
use super::{BrainPort, Heard, Msg, VoiceConfig, VoiceParts};
use crate::VoiceError;
use crate::audio::SAMPLE_RATE;
use crate::tts::SentenceSplitter;
use crate::vad::Segment;

mod reply;

/// How often the input level is reported while listening.
const LEVEL_EVERY: Duration = Duration::from_millis(100);

/// Kept around a trimmed utterance so the first and last phonemes survive.
const TRIM_MARGIN_MS: u64 = 150;

struct Listening {
    id: u64,
    /// Push-to-talk (ends on release) or conversation (ends on the VAD).
    hold: bool,
    started: Instant,
    /// Stream position (samples) of the last confirmed speech.
    last_speech_at: usize,
    /// When audio last arrived (a dead source sends nothing).
    last_audio: Instant,
    last_level: Instant,
    /// Everything heard since listening began. The capture thread keeps its
    /// own copy for the VAD; this one is needed because a key press can take
    /// over a hands-free listen and must send all of it.
    samples: Vec<f32>,
}

struct Turn {
    generation: u64,
    /// Set by the brain's TurnStarted for our input.
    turn_id: Option<String>,
    /// End of speech as the user meant it: release, or the VAD's last frame.
    release_at: Option<Instant>,
    speech_end_at: Option<Instant>,
    timings: VoiceTimings,
    submitted: Option<Instant>,
    splitter: SentenceSplitter,
    sent: usize,
    played: usize,
    llm_done: bool,
    first_audio: Option<Instant>,
    last_audio: Option<Instant>,
}

/// What the controller talks to: the brain, the devices and engines, its
/// own mailbox, and the threads that speak.
pub(super) struct Wiring {
    pub brain: Arc<dyn BrainPort>,
    pub parts: VoiceParts,
    pub cfg: VoiceConfig,
    pub tx: mpsc::UnboundedSender<Msg>,
    pub shared_state: Arc<Mutex<VoiceState>>,
    pub queue: Queue,
    pub synth: std::sync::mpsc::Sender<SynthJob>,
}

pub(super) struct Controller {
    w: Wiring,
    state: VoiceState,
    conversation: bool,
    listen_seq: u64,
    listening: Option<Listening>,
    /// The utterance being transcribed.
    transcribing: Option<u64>,
    generation: u64,
    turn: Option<Turn>,
}

impl Controller {
    pub fn new(w: Wiring) -> Self {
        Self {
            w,
            state: VoiceState::Idle,
            conversation: false,
            listen_seq: 0,
            listening: None,
            transcribing: None,
            generation: 0,
            turn: None,
        }
    }

    pub async fn run(mut self, mut rx: mpsc::UnboundedReceiver<Msg>) {
        let mut events = self.w.brain.subscribe();
        loop {
            tokio::select! {
                msg = rx.recv() => match msg {
                    None | Some(Msg::Shutdown) => break,
                    Some(m) => self.on_msg(m),
                },
                ev = events.recv() => match ev {
                    Ok(env) if env.session_id.as_deref() == Some(self.w.cfg.session_id.as_str()) => self.on_brain(env.event),
                    Ok(_) => {}
                    Err(jarvis_core::events::RecvError::Lagged(n)) => tracing::warn!("voice missed {n} brain events"),
                    Err(jarvis_core::events::RecvError::Closed) => break,
                },
            }
        }
        self.close_mic();
        self.w.queue.shutdown();
    }

    fn emit(&self, event: HostEvent) {
        self.w.brain.emit(Some(&self.w.cfg.session_id), event);
    }

    fn notice(&self, message: impl Into<String>) {
        self.emit(HostEvent::VoiceNotice {
            message: message.into(),
        });
    }

    fn set_state(&mut self, state: VoiceState) {
        self.w
            .queue
            .set_gate(self.listening.is_some(), state == VoiceState::Idle);
        if state == self.state {
            return;
        }
        self.state = state;
        if let Ok(mut s) = self.w.shared_state.lock() {
            *s = state;
        }
        self.emit(HostEvent::VoiceState { state });
    }

    fn on_msg(&mut self, msg: Msg) {
        match msg {
            Msg::Press => self.on_press(),
            Msg::Release { at } => self.on_release(at),
            Msg::Converse => {
                self.conversation = true;
                if self.listening.is_none() && self.transcribing.is_none() && self.turn.is_none() {
                    self.start_listening(false);
                }
            }
            Msg::ListenOnce => {
                if self.listening.is_none() && self.transcribing.is_none() && self.turn.is_none() {
                    self.start_listening(false);
                }
            }
            Msg::Stop => self.stop_all(),
            Msg::Announce(text) => {
                let _ = self.w.synth.send(SynthJob {
                    kind: Kind::Announcement,
                    text,
                });
            }
            Msg::Chime => self.w.queue.push(Kind::Chime, super::playback::chime()),
            Msg::Audio { listen, chunk } => {
                let mut level = None;
                if let Some(l) = self.listening.as_mut().filter(|l| l.id == listen) {
                    l.samples.extend_from_slice(&chunk);
                    l.last_audio = Instant::now();
                    // The HUD's meter: about ten readings a second is plenty.
                    if l.last_level.elapsed() >= LEVEL_EVERY {
                        l.last_level = Instant::now();
                        level = Some(crate::audio::rms(&chunk));
                    }
                }
                if let Some(level) = level {
                    self.emit(HostEvent::VoiceLevel { level });
                }
                self.on_tick();
            }
            Msg::SpeechActive { listen, at_sample } => {
                if let Some(l) = self.listening.as_mut().filter(|l| l.id == listen) {
                    l.last_speech_at = at_sample;
                }
            }
            Msg::Utterance {
                listen,
                segment,
                speech_end_at,
                vad_ms,
            } => {
                if self
                    .listening
                    .as_ref()
                    .is_some_and(|l| l.id == listen && !l.hold)
                {
                    self.finish_listening(None, Some((segment, speech_end_at, vad_ms)));
                }
            }
            Msg::AudioEnded { listen } => {
                // The source ran dry (a file): for push-to-talk that is the
                // release; in conversation mode an utterance, if any, came first.
                if self.listening.as_ref().is_some_and(|l| l.id == listen) {
                    let hold = self.listening.as_ref().is_some_and(|l| l.hold);
                    if hold {
                        self.finish_listening(Some(Instant::now()), None);
                    } else {
                        tracing::debug!("the audio source ended while listening");
                        self.close_mic();
                        self.listening = None;
                        self.after_turn();
                    }
                }
            }
            Msg::Transcribed { listen, result } => self.on_transcribed(listen, result),
            Msg::Synthesized {
                generation,
                ms,
                error,
            } => self.on_synthesized(generation, ms, error),
            Msg::AudioStarted { generation, at } => {
                if let Some(t) = self.turn.as_mut().filter(|t| t.generation == generation) {
                    if t.first_audio.is_none() {
                        t.first_audio = Some(at);
                        t.timings.release_to_audio_ms = t.release_at.map(|r| ms_between(r, at));
                        t.timings.speech_end_to_audio_ms =
                            t.speech_end_at.map(|r| ms_between(r, at));
                    }
                    self.set_state(VoiceState::Speaking);
                }
            }
            Msg::AudioFinished {
                generation,
                at,
                error,
            } => {
                if let Some(e) = error {
                    self.notice(format!("playback failed: {e}"));
                }
                if let Some(t) = self.turn.as_mut().filter(|t| t.generation == generation) {
                    t.played += 1;
                    t.last_audio = Some(at);
                }
                self.check_turn_done();
            }
            Msg::SubmitFailed { generation, error } => {
                if self
                    .turn
                    .as_ref()
                    .is_some_and(|t| t.generation == generation)
                {
                    self.turn = None;
                    self.notice(error);
                    self.after_turn();
                }
            }
            Msg::Tick => self.on_tick(),
            Msg::Shutdown => {}
        }
    }

    fn on_press(&mut self) {
        if let Some(l) = self.listening.as_mut() {
            // Already listening hands-free: the key takes over.
            l.hold = true;
            return;
        }
        if matches!(self.state, VoiceState::Thinking | VoiceState::Speaking)
            || self.w.queue.is_playing()
        {
            self.barge_in();
        }
        // Speaking again while the last utterance is still being
        // transcribed: that one is dropped, the new one counts.
        self.transcribing = None;
        self.start_listening(true);
    }

    fn on_release(&mut self, at: Instant) {
        if self.listening.as_ref().is_some_and(|l| l.hold) {
            self.finish_listening(Some(at), None);
        }
    }

    /// Stop speaking now; the reply's remaining text is not spoken.
    fn barge_in(&mut self) {
        self.generation += 1;
        self.w.queue.interrupt(self.generation);
        if let Some(t) = self.turn.take() {
            self.emit_timings(&t);
        }
    }

    fn stop_all(&mut self) {
        self.conversation = false;
        self.barge_in();
        self.close_mic();
        self.listening = None;
        self.transcribing = None;
        let _ = self.w.brain.submit(Op::CancelTurn {
            session_id: self.w.cfg.session_id.clone(),
        });
        self.set_state(VoiceState::Idle);
    }

    fn start_listening(&mut self, hold: bool) {
        self.listen_seq += 1;
        let id = self.listen_seq;
        let rx = match self.w.parts.source.open() {
            Ok(rx) => rx,
            Err(e) => {
                self.notice(e.to_string());
                self.conversation = false;
                self.set_state(VoiceState::Idle);
                return;
            }
        };
        let endpointing = (!hold).then(|| Endpointing {
            cfg: self.w.cfg.endpoint.clone(),
            silero: self.w.parts.silero.clone(),
        });
        if let Err(e) = capture_loop::spawn(id, rx, endpointing, self.w.tx.clone()) {
            self.w.parts.source.close();
            self.notice(format!("cannot start capture: {e}"));
            self.set_state(VoiceState::Idle);
            return;
        }
        let now = Instant::now();
        self.listening = Some(Listening {
            id,
            hold,
            started: now,
            last_speech_at: 0,
            last_audio: now,
            last_level: now.checked_sub(LEVEL_EVERY).unwrap_or(now),
            samples: Vec::new(),
        });
        self.emit(HostEvent::VoiceMic {
            capturing: self.w.parts.source.is_capturing(),
        });
        self.set_state(VoiceState::Listening);
    }

    fn close_mic(&mut self) {
        if self.listening.is_some() {
            self.w.parts.source.close();
            self.emit(HostEvent::VoiceMic {
                capturing: self.w.parts.source.is_capturing(),
            });
        }
    }

    /// End listening and send what was heard to speech recognition.
    fn finish_listening(
        &mut self,
        release_at: Option<Instant>,
        vad: Option<(Segment, Instant, u64)>,
    ) {
        self.close_mic();
        let Some(l) = self.listening.take() else {
            return;
        };
        self.set_state(VoiceState::Transcribing);
        self.transcribing = Some(l.id);
        let stt = self.w.parts.stt.clone();
        let silero = self.w.parts.silero.clone();
        let tx = self.w.tx.clone();
        let listen = l.id;
        tokio::task::spawn_blocking(move || {
            let result = transcribe(&l.samples, release_at, vad, &silero, &*stt);
            let _ = tx.send(Msg::Transcribed { listen, result });
        });
    }

    fn on_transcribed(&mut self, listen: u64, result: Result<Option<Heard>, VoiceError>) {
        if self.transcribing != Some(listen) {
            return;
        }
        self.transcribing = None;
        let heard = match result {
            Ok(Some(h)) if !h.transcript.text.is_empty() => h,
            Ok(_) => {
                self.notice("didn't catch that");
                self.after_turn();
                return;
            }
            Err(e) => {
                self.notice(e.to_string());
                self.after_turn();
                return;
            }
        };
        let t = &heard.transcript;
        self.emit(HostEvent::VoiceTranscript {
            text: t.text.clone(),
            language: t.language.clone(),
            audio_ms: t.audio_ms,
        });
        if self.is_stop_word(&t.text) {
            self.conversation = false;
            let _ = self.w.brain.submit(Op::CancelTurn {
                session_id: self.w.cfg.session_id.clone(),
            });
            self.notice("stopped");
            self.set_state(VoiceState::Idle);
            return;
        }
        if self.w.cfg.transcribe_only {
            self.set_state(VoiceState::Idle);
            return;
        }
        self.generation += 1;
        self.w.queue.interrupt(self.generation);
        let mut turn = Turn {
            generation: self.generation,
            turn_id: None,
            release_at: heard.release_at,
            speech_end_at: heard.speech_end_at,
            timings: VoiceTimings {
                audio_ms: t.audio_ms,
                vad_ms: heard.vad_ms,
                stt_ms: t.elapsed_ms,
                ..VoiceTimings::default()
            },
            submitted: None,
            splitter: SentenceSplitter::new(),
            sent: 0,
            played: 0,
            llm_done: false,
            first_audio: None,
            last_audio: None,
        };
        self.set_state(VoiceState::Thinking);
        turn.submitted = Some(Instant::now());
        self.turn = Some(turn);
        let brain = self.w.brain.clone();
        let tx = self.w.tx.clone();
        let session_id = self.w.cfg.session_id.clone();
        let text = t.text.clone();
        let generation = self.generation;
        tokio::spawn(async move {
            // A reply we talked over may still be generating: end it first.
            if brain.is_running(&session_id) {
                let _ = brain.submit(Op::CancelTurn {
                    session_id: session_id.clone(),
                });
            }
            let deadline = Instant::now() + Duration::from_secs(3);
            let op = Op::StartRun {
                spec: RunSpec::interactive(Origin::Voice, session_id.clone()),
                text,
            };
            let result = loop {
                match brain.submit(op.clone()) {
                    Err(_) if brain.is_running(&session_id) && Instant::now() < deadline => {
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    }
                    other => break other,
                }
            };
            if let Err(e) = result {
                let _ = tx.send(Msg::SubmitFailed {
                    generation,
                    error: e.to_string(),
                });
            }
        });
    }

    fn is_stop_word(&self, text: &str) -> bool {
        let said: String = text
            .chars()
            .filter(|c| c.is_alphanumeric() || c.is_whitespace())
            .collect::<String>()
            .to_lowercase();
        let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
        self.w
            .cfg
            .stop_words
            .iter()
            .any(|w| said == *w || said == format!("jarvis {w}"))
    }

    /// After a turn (or a miss): listen again in conversation mode, else idle.
    fn after_turn(&mut self) {
        if self.conversation {
            self.start_listening(false);
        } else {
            self.set_state(VoiceState::Idle);
        }
    }

    fn on_tick(&mut self) {
        let Some(l) = self.listening.as_ref() else {
            return;
        };
        if l.hold {
            if l.started.elapsed() >= self.w.cfg.max_utterance {
                self.notice("push-to-talk held too long; sending what was said");
                self.finish_listening(Some(Instant::now()), None);
            }
            return;
        }
        let stream_ms = |n: usize| n as u64 * 1000 / u64::from(SAMPLE_RATE);
        let silent_ms = stream_ms(l.samples.len().saturating_sub(l.last_speech_at));
        let timeout_ms = self.w.cfg.silence_timeout.as_millis() as u64;
        let limit_ms = (self.w.cfg.max_utterance + self.w.cfg.silence_timeout).as_millis() as u64;
        if silent_ms >= timeout_ms || l.last_audio.elapsed() >= self.w.cfg.silence_timeout {
            tracing::debug!(
                "listening ends: {silent_ms} ms without speech in {} ms of audio",
                stream_ms(l.samples.len())
            );
            self.close_mic();
            self.listening = None;
            self.conversation = false;
            self.set_state(VoiceState::Idle);
        } else if stream_ms(l.samples.len()) >= limit_ms {
            self.close_mic();
            self.listening = None;
            self.conversation = false;
            self.notice("listening stopped: no end of speech found");
            self.set_state(VoiceState::Idle);
        }
    }
}

fn ms_between(from: Instant, to: Instant) -> u64 {
    to.saturating_duration_since(from).as_millis() as u64
}

/// Confirm and trim with Silero (push-to-talk) or use the VAD's segment
/// (conversation), then recognise.
fn transcribe(
    samples: &[f32],
    release_at: Option<Instant>,
    vad: Option<(Segment, Instant, u64)>,
    silero: &crate::vad::SileroVad,
    stt: &dyn crate::stt::Transcriber,
) -> Result<Option<Heard>, VoiceError> {
    let recorded_ms = samples.len() as u64 * 1000 / u64::from(SAMPLE_RATE);
    let (segment, speech_end_at, vad_ms) = match vad {
        Some(v) => (v.0, Some(v.1), v.2),
        None => {
            let started = Instant::now();
            let Some(seg) = silero.confirm(samples)? else {
                return Ok(None);
            };
            // In push-to-talk the last speech frame is dated back from the release.
            let behind = Duration::from_millis(recorded_ms.saturating_sub(seg.end_ms));
            let end = release_at.and_then(|r| r.checked_sub(behind));
            (seg, end, started.elapsed().as_millis() as u64)
        }
    };
    let with_margin = Segment {
        start_ms: segment.start_ms.saturating_sub(TRIM_MARGIN_MS),
        end_ms: (segment.end_ms + TRIM_MARGIN_MS).min(recorded_ms),
    };
    let transcript = stt.transcribe(with_margin.slice(samples))?;
    Ok(Some(Heard {
        transcript,
        vad_ms,
        release_at,
        speech_end_at,
    }))
}
