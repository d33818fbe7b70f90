//! Speech to text with whisper.cpp (whisper-rs): the model is loaded once,
//! kept with a reusable decoder state, and dropped after idle minutes.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, Once, Weak};
use std::time::{Duration, Instant};

use whisper_rs::{
    FullParams, SamplingStrategy, WhisperContext, WhisperContextParameters, WhisperState,
};

use crate::VoiceError;
use crate::audio::SAMPLE_RATE;

/// What was said, and how long it took to find out.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Transcript {
    pub text: String,
    pub language: String,
    pub audio_ms: u64,
    pub elapsed_ms: u64,
}

/// Turns 16 kHz mono speech into text.
pub trait Transcriber: Send + Sync {
    fn transcribe(&self, samples: &[f32]) -> Result<Transcript, VoiceError>;
}

#[derive(Debug, Clone)]
pub struct SttConfig {
    pub model: PathBuf,
    /// "auto", or a whisper language code ("en", "zh", ...).
    pub language: String,
    pub threads: usize,
    /// Unload the model after this long without use.
    pub idle_unload: Duration,
}

impl SttConfig {
    pub fn new(model: PathBuf) -> Self {
        Self {
            model,
            language: "auto".into(),
            threads: default_threads(),
            idle_unload: Duration::from_secs(300),
        }
    }
}

/// Cores - 1: on a 2-core machine two decoder threads spin-wait against the
/// rest of the app and ran up to 10x slower.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .saturating_sub(1)
        .max(1)
}

/// whisper.cpp's own log lines go to `tracing` instead of stderr.
pub(crate) fn quiet_whisper_logs() {
    static ONCE: Once = Once::new();
    ONCE.call_once(whisper_rs::install_logging_hooks);
}

/// The encoder window for `n` samples, in 20 ms frames. tiny.en repeats
/// itself when the window fits the clip tightly, so never below 512 (~10 s).
pub fn audio_ctx_for(n_samples: usize) -> i32 {
    let frames = (n_samples as u64 * 50).div_ceil(u64::from(SAMPLE_RATE)) + 64;
    frames.next_multiple_of(64).clamp(512, 1500) as i32
}

/// A cap on decoded tokens: generous for speech (~3 words/s), but a looping
/// decoder stops instead of running for seconds.
pub fn token_cap_for(n_samples: usize) -> i32 {
    let secs = n_samples as u64 / u64::from(SAMPLE_RATE) + 1;
    (32 + secs * 12).min(224) as i32
}

/// The decoding parameters the transcriber uses; public so the benchmark can
/// run a bare `whisper_full` with exactly the same ones.
pub fn full_params(language: &str, threads: usize, n_samples: usize) -> FullParams<'_, '_> {
    let mut p = FullParams::new(SamplingStrategy::Greedy { best_of: 1 });
    p.set_n_threads(threads as i32);
    p.set_language(Some(language));
    p.set_translate(false);
    p.set_no_context(true);
    p.set_single_segment(false);
    p.set_no_timestamps(true);
    p.set_print_special(false);
    p.set_print_progress(false);
    p.set_print_realtime(false);
    p.set_print_timestamps(false);
    p.set_suppress_blank(true);
    p.set_suppress_nst(true);
    p.set_temperature_inc(0.0);
    p.set_audio_ctx(audio_ctx_for(n_samples));
    p.set_max_tokens(token_cap_for(n_samples));
    p
}

struct Loaded {
    state: WhisperState,
    multilingual: bool,
    last_used: Instant,
}

/// [`Transcriber`] on a whisper ggml model.
pub struct WhisperTranscriber {
    cfg: SttConfig,
    loaded: Mutex<Option<Loaded>>,
}

impl WhisperTranscriber {
    /// Checks the model exists; it is loaded on first use (or [`Self::preload`]).
    pub fn new(cfg: SttConfig) -> Result<Self, VoiceError> {
        if !cfg.model.is_file() {
            return Err(VoiceError::ModelMissing {
                path: cfg.model.clone(),
                hint: "install it with `jarvis models install whisper-tiny.en` or set JARVIS_STT_MODEL".into(),
            });
        }
        Ok(Self {
            cfg,
            loaded: Mutex::new(None),
        })
    }

    pub fn is_loaded(&self) -> bool {
        self.loaded.lock().map(|g| g.is_some()).unwrap_or(false)
    }

    pub fn preload(&self) -> Result<(), VoiceError> {
        let mut guard = self.lock()?;
        if guard.is_none() {
            *guard = Some(self.load()?);
        }
        Ok(())
    }

    /// Frees the model when it has not been used for `idle_unload`.
    pub fn unload_if_idle(&self) -> bool {
        let Ok(mut guard) = self.loaded.lock() else {
            return false;
        };
        if guard
            .as_ref()
            .is_some_and(|l| l.last_used.elapsed() >= self.cfg.idle_unload)
        {
            *guard = None;
            tracing::info!("speech model unloaded after idle");
            return true;
        }
        false
    }

    /// A background thread that unloads the model when idle; it ends with the
    /// transcriber.
    pub fn spawn_idle_reaper(self: &Arc<Self>) {
        let weak: Weak<Self> = Arc::downgrade(self);
        let tick =
            (self.cfg.idle_unload / 4).clamp(Duration::from_millis(50), Duration::from_secs(15));
        let _ = std::thread::Builder::new()
            .name("stt-idle".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(tick);
                    match weak.upgrade() {
                        Some(t) => {
                            t.unload_if_idle();
                        }
                        None => return,
                    }
                }
            });
    }

    fn lock(&self) -> Result<std::sync::MutexGuard<'_, Option<Loaded>>, VoiceError> {
        self.loaded
            .lock()
            .map_err(|_| VoiceError::Stt("transcriber lock poisoned".into()))
    }

    fn load(&self) -> Result<Loaded, VoiceError> {
        quiet_whisper_logs();
        let path = &self.cfg.model;
        let err = |reason: String| VoiceError::ModelLoad {
            path: path.clone(),
            reason,
        };
        let p = path
            .to_str()
            .ok_or_else(|| err("path is not UTF-8".into()))?;
        let mut params = WhisperContextParameters::default();
        params.use_gpu(false);
        let ctx = WhisperContext::new_with_params(p, params).map_err(|e| err(e.to_string()))?;
        let multilingual = ctx.is_multilingual();
        let state = ctx.create_state().map_err(|e| err(e.to_string()))?;
        Ok(Loaded {
            state,
            multilingual,
            last_used: Instant::now(),
        })
    }
}

impl Transcriber for WhisperTranscriber {
    fn transcribe(&self, samples: &[f32]) -> Result<Transcript, VoiceError> {
        if samples.is_empty() {
            return Err(VoiceError::EmptyAudio);
        }
        let started = Instant::now();
        let mut guard = self.lock()?;
        if guard.is_none() {
            *guard = Some(self.load()?);
        }
        let loaded = guard
            .as_mut()
            .ok_or_else(|| VoiceError::Stt("model not loaded".into()))?;
        let language = if loaded.multilingual {
            self.cfg.language.as_str()
        } else {
            "en"
        };
        // whisper needs at least ~1 s; pad short clips with silence.
        let min = SAMPLE_RATE as usize + SAMPLE_RATE as usize / 10;
        let padded;
        let input = if samples.len() < min {
            padded = [samples, &vec![0.0; min - samples.len()]].concat();
            &padded[..]
        } else {
            samples
        };
        let params = full_params(language, self.cfg.threads, input.len());
        loaded
            .state
            .full(params, input)
            .map_err(|e| VoiceError::Stt(e.to_string()))?;
        let mut text = String::new();
        for seg in loaded.state.as_iter() {
            let part = seg
                .to_str_lossy()
                .map_err(|e| VoiceError::Stt(e.to_string()))?;
            text.push_str(&part);
        }
        let detected = if language == "auto" {
            whisper_rs::get_lang_str(loaded.state.full_lang_id_from_state())
                .unwrap_or("auto")
                .to_string()
        } else {
            language.to_string()
        };
        loaded.last_used = Instant::now();
        Ok(Transcript {
            text: clean(&text),
            language: detected,
            audio_ms: samples.len() as u64 * 1000 / u64::from(SAMPLE_RATE),
            elapsed_ms: started.elapsed().as_millis() as u64,
        })
    }
}

/// Drop whisper's non-speech markers ("[BLANK_AUDIO]", "(wind)") and
/// collapse whitespace.
pub fn clean(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut depth = 0usize;
    for c in raw.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_dropped_and_space_collapsed() {
        assert_eq!(clean(" [BLANK_AUDIO] "), "");
        assert_eq!(clean(" Hello  (wind blowing) world. "), "Hello world.");
    }

    #[test]
    fn window_has_the_floor_that_keeps_tiny_from_looping() {
        assert_eq!(audio_ctx_for(16_000), 512);
        assert_eq!(audio_ctx_for(16_000 * 30), 1500);
        assert!(audio_ctx_for(16_000 * 12) > 600);
    }
}
