//! Voice activity: a fast frame-level VAD (webrtc-vad) finds candidate
//! utterances with onset/hangover endpointing, and Silero (through
//! whisper.cpp's VAD API) confirms them, so noise never starts a turn.

use std::path::Path;
use std::sync::Mutex;

use crate::VoiceError;
use crate::audio::{SAMPLE_RATE, to_i16};

/// A frame-level speech/non-speech classifier on 16 kHz audio.
pub trait Vad {
    /// Samples per frame this VAD accepts.
    fn frame_len(&self) -> usize;
    fn is_speech(&mut self, frame: &[i16]) -> Result<bool, VoiceError>;
    fn reset(&mut self);
}

/// webrtc-vad with its sharp edges guarded: it panics on an empty frame
/// (indexes `buffer[0]`), `reset()` silently goes back to 8 kHz, and it is not
/// `Send` (a raw pointer), so it is built on the thread that uses it.
pub struct WebRtcVad {
    inner: webrtc_vad::Vad,
    mode: u8,
    frame_len: usize,
}

impl WebRtcVad {
    /// `frame_ms` is 10, 20 or 30; `mode` 0 (most permissive) to 3.
    pub fn new(frame_ms: u32, mode: u8) -> Result<Self, VoiceError> {
        if !matches!(frame_ms, 10 | 20 | 30) {
            return Err(VoiceError::Vad(format!(
                "frame of {frame_ms} ms: webrtc-vad takes 10, 20 or 30 ms"
            )));
        }
        if mode > 3 {
            return Err(VoiceError::Vad(format!(
                "mode {mode}: webrtc-vad modes are 0 to 3"
            )));
        }
        Ok(Self {
            inner: Self::build(mode),
            mode,
            frame_len: (SAMPLE_RATE * frame_ms / 1000) as usize,
        })
    }

    fn build(mode: u8) -> webrtc_vad::Vad {
        let mode = match mode {
            0 => webrtc_vad::VadMode::Quality,
            1 => webrtc_vad::VadMode::LowBitrate,
            2 => webrtc_vad::VadMode::Aggressive,
            _ => webrtc_vad::VadMode::VeryAggressive,
        };
        webrtc_vad::Vad::new_with_rate_and_mode(webrtc_vad::SampleRate::Rate16kHz, mode)
    }
}

impl Vad for WebRtcVad {
    fn frame_len(&self) -> usize {
        self.frame_len
    }

    fn is_speech(&mut self, frame: &[i16]) -> Result<bool, VoiceError> {
        if frame.len() != self.frame_len {
            return Err(VoiceError::Vad(format!(
                "frame of {} samples, expected {}",
                frame.len(),
                self.frame_len
            )));
        }
        self.inner
            .is_voice_segment(frame)
            .map_err(|()| VoiceError::Vad("webrtc-vad rejected the frame".into()))
    }

    fn reset(&mut self) {
        // A fresh instance instead of `reset()`, which would drop to 8 kHz.
        self.inner = Self::build(self.mode);
    }
}

/// Endpointing settings.
#[derive(Debug, Clone)]
pub struct EndpointConfig {
    pub frame_ms: u32,
    pub mode: u8,
    /// Consecutive speech needed to open an utterance.
    pub onset_ms: u32,
    /// Silence that closes it.
    pub hangover_ms: u32,
    /// Shorter bursts are dropped.
    pub min_speech_ms: u32,
}

impl Default for EndpointConfig {
    fn default() -> Self {
        Self {
            frame_ms: 30,
            mode: 3,
            onset_ms: 90,
            hangover_ms: 300,
            min_speech_ms: 200,
        }
    }
}

/// What the endpointer saw, in milliseconds from the start of the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VadEvent {
    SpeechStart { at_ms: u64 },
    SpeechEnd { start_ms: u64, end_ms: u64 },
}

/// Onset/hangover endpointing over any [`Vad`].
pub struct Endpointer<V: Vad> {
    vad: V,
    frame_ms: u64,
    onset: u32,
    hangover: u32,
    min_speech: u64,
    pending: Vec<i16>,
    frame: u64,
    speech_run: u32,
    silence_run: u32,
    run_start: u64,
    open: Option<u64>,
    last_speech_end: u64,
}

impl Endpointer<WebRtcVad> {
    pub fn webrtc(cfg: &EndpointConfig) -> Result<Self, VoiceError> {
        Ok(Self::new(WebRtcVad::new(cfg.frame_ms, cfg.mode)?, cfg))
    }
}

impl<V: Vad> Endpointer<V> {
    pub fn new(vad: V, cfg: &EndpointConfig) -> Self {
        let frame_ms = u64::from(cfg.frame_ms.max(1));
        let frames = |ms: u32| (u64::from(ms).div_ceil(frame_ms)).max(1) as u32;
        Self {
            vad,
            frame_ms,
            onset: frames(cfg.onset_ms),
            hangover: frames(cfg.hangover_ms),
            min_speech: u64::from(cfg.min_speech_ms),
            pending: Vec::new(),
            frame: 0,
            speech_run: 0,
            silence_run: 0,
            run_start: 0,
            open: None,
            last_speech_end: 0,
        }
    }

    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Position of the stream in milliseconds.
    pub fn position_ms(&self) -> u64 {
        self.frame * self.frame_ms
    }

    /// Feed 16 kHz samples; returns the events they completed.
    pub fn push(&mut self, samples: &[f32]) -> Result<Vec<VadEvent>, VoiceError> {
        self.pending.extend(samples.iter().map(|s| to_i16(*s)));
        let n = self.vad.frame_len();
        let mut events = Vec::new();
        let mut at = 0;
        while self.pending.len() - at >= n {
            let speech = self.vad.is_speech(&self.pending[at..at + n])?;
            at += n;
            self.step(speech, &mut events);
        }
        self.pending.drain(..at);
        Ok(events)
    }

    fn step(&mut self, speech: bool, events: &mut Vec<VadEvent>) {
        let idx = self.frame;
        self.frame += 1;
        if speech {
            if self.speech_run == 0 {
                self.run_start = idx;
            }
            self.speech_run += 1;
            self.silence_run = 0;
            self.last_speech_end = self.frame * self.frame_ms;
            if self.open.is_none() && self.speech_run >= self.onset {
                let at_ms = self.run_start * self.frame_ms;
                self.open = Some(at_ms);
                events.push(VadEvent::SpeechStart { at_ms });
            }
        } else {
            self.speech_run = 0;
            self.silence_run += 1;
            if self.open.is_some() && self.silence_run >= self.hangover {
                self.close(events);
            }
        }
    }

    fn close(&mut self, events: &mut Vec<VadEvent>) {
        if let Some(start_ms) = self.open.take() {
            let end_ms = self.last_speech_end;
            if end_ms.saturating_sub(start_ms) >= self.min_speech {
                events.push(VadEvent::SpeechEnd { start_ms, end_ms });
            }
        }
    }

    /// End of stream: close an open utterance at its last speech frame.
    pub fn finish(&mut self) -> Vec<VadEvent> {
        let mut events = Vec::new();
        self.close(&mut events);
        events
    }
}

/// A confirmed stretch of speech, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    pub start_ms: u64,
    pub end_ms: u64,
}

impl Segment {
    pub fn duration_ms(&self) -> u64 {
        self.end_ms.saturating_sub(self.start_ms)
    }

    pub fn slice<'a>(&self, samples: &'a [f32]) -> &'a [f32] {
        let at = |ms: u64| ((ms * u64::from(SAMPLE_RATE) / 1000) as usize).min(samples.len());
        &samples[at(self.start_ms)..at(self.end_ms)]
    }
}

/// Silero VAD v6 through whisper.cpp: slower than webrtc-vad but it tells
/// speech from noise, so it has the last word on whether a turn starts.
pub struct SileroVad {
    ctx: Mutex<whisper_rs::WhisperVadContext>,
    pub threshold: f32,
    pub min_speech_ms: i32,
}

impl SileroVad {
    pub fn load(path: &Path) -> Result<Self, VoiceError> {
        if !path.is_file() {
            return Err(VoiceError::ModelMissing {
                path: path.to_path_buf(),
                hint: "install it with `jarvis models install silero-vad` or set JARVIS_VAD_MODEL"
                    .into(),
            });
        }
        crate::stt::quiet_whisper_logs();
        let mut params = whisper_rs::WhisperVadContextParams::default();
        params.set_n_threads(1);
        params.set_use_gpu(false);
        let p = path.to_str().ok_or_else(|| VoiceError::ModelLoad {
            path: path.to_path_buf(),
            reason: "path is not UTF-8".into(),
        })?;
        let ctx =
            whisper_rs::WhisperVadContext::new(p, params).map_err(|e| VoiceError::ModelLoad {
                path: path.to_path_buf(),
                reason: e.to_string(),
            })?;
        Ok(Self {
            ctx: Mutex::new(ctx),
            threshold: 0.5,
            min_speech_ms: 200,
        })
    }

    /// Speech segments of a 16 kHz clip, in milliseconds.
    pub fn segments(&self, samples: &[f32]) -> Result<Vec<Segment>, VoiceError> {
        if samples.is_empty() {
            return Ok(Vec::new());
        }
        let mut params = whisper_rs::WhisperVadParams::new();
        params.set_threshold(self.threshold);
        params.set_min_speech_duration(self.min_speech_ms);
        params.set_min_silence_duration(100);
        params.set_speech_pad(0);
        let mut ctx = self
            .ctx
            .lock()
            .map_err(|_| VoiceError::Vad("Silero context poisoned".into()))?;
        let segs = ctx
            .segments_from_samples(params, samples)
            .map_err(|e| VoiceError::Vad(format!("Silero: {e}")))?;
        let total_ms = samples.len() as u64 * 1000 / u64::from(SAMPLE_RATE);
        // whisper.cpp reports centiseconds.
        Ok(segs
            .map(|s| Segment {
                start_ms: ((s.start.max(0.0) * 10.0) as u64).min(total_ms),
                end_ms: ((s.end.max(0.0) * 10.0) as u64).min(total_ms),
            })
            .filter(|s| s.end_ms > s.start_ms)
            .collect())
    }

    /// The speech inside `samples`, trimmed to Silero's bounds, or `None` when
    /// there is none (noise, silence, a cough).
    pub fn confirm(&self, samples: &[f32]) -> Result<Option<Segment>, VoiceError> {
        let segs = self.segments(samples)?;
        let (Some(first), Some(last)) = (segs.first(), segs.last()) else {
            return Ok(None);
        };
        Ok(Some(Segment {
            start_ms: first.start_ms,
            end_ms: last.end_ms,
        }))
    }
}

/// Whole-clip segmentation: webrtc-vad proposes, Silero confirms and trims.
pub fn find_utterances(
    samples: &[f32],
    cfg: &EndpointConfig,
    silero: &SileroVad,
) -> Result<Vec<Segment>, VoiceError> {
    let mut ep = Endpointer::webrtc(cfg)?;
    let mut events = ep.push(samples)?;
    events.extend(ep.finish());
    let mut out = Vec::new();
    for ev in events {
        if let VadEvent::SpeechEnd { start_ms, end_ms } = ev
            && let Some(seg) = confirm_candidate(silero, samples, Segment { start_ms, end_ms })?
        {
            out.push(seg);
        }
    }
    Ok(out)
}

/// Ask Silero about a webrtc-vad candidate inside `samples`; the speech is
/// where both agree (webrtc-vad runs long on noise tails, Silero on the edge
/// of its window). `None` when Silero hears no speech there.
pub fn confirm_candidate(
    silero: &SileroVad,
    samples: &[f32],
    candidate: Segment,
) -> Result<Option<Segment>, VoiceError> {
    let window = padded(candidate, samples.len());
    let Some(found) = silero.confirm(window.slice(samples))? else {
        return Ok(None);
    };
    let seg = Segment {
        start_ms: (window.start_ms + found.start_ms).max(candidate.start_ms),
        end_ms: (window.start_ms + found.end_ms).min(candidate.end_ms),
    };
    Ok((seg.end_ms > seg.start_ms).then_some(seg))
}

/// A candidate with context around it, so Silero sees the onset.
pub fn padded(seg: Segment, total_samples: usize) -> Segment {
    let total_ms = total_samples as u64 * 1000 / u64::from(SAMPLE_RATE);
    Segment {
        start_ms: seg.start_ms.saturating_sub(PAD_MS),
        end_ms: (seg.end_ms + PAD_MS).min(total_ms),
    }
}

const PAD_MS: u64 = 300;
