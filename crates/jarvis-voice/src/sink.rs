//! Where speech goes: the speakers (rodio), nowhere in real time (tests and
//! timing), or a WAV file.

use std::num::NonZero;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::VoiceError;
use crate::audio::{Pcm, write_wav};

/// Raised to cut playback short (barge-in, "stop").
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn raise(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    pub fn clear(&self) {
        self.0.store(false, Ordering::SeqCst);
    }
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// How often a playing sink looks at its stop flag: well inside the 200 ms
/// barge-in budget.
pub const STOP_POLL: Duration = Duration::from_millis(10);

/// Plays clips one at a time.
pub trait AudioSink: Send + Sync {
    fn name(&self) -> String;
    /// Play `pcm` to the end (blocking). Returns `false` when `stop` cut it short.
    fn play(&self, pcm: &Pcm, stop: &StopFlag) -> Result<bool, VoiceError>;
}

/// The default output device through rodio. The device stream lives on its
/// own thread (a cpal stream is not `Send` everywhere); clips go to its mixer.
pub struct RodioSink {
    mixer: rodio::mixer::Mixer,
    name: String,
    _keepalive: std::sync::mpsc::Sender<()>,
}

impl RodioSink {
    pub fn open_default() -> Result<Self, VoiceError> {
        let (tx, rx) = std::sync::mpsc::channel::<Result<(rodio::mixer::Mixer, String), String>>();
        let (keep_tx, keep_rx) = std::sync::mpsc::channel::<()>();
        std::thread::Builder::new().name("audio-out".into()).spawn(
            move || match open_speech_sink() {
                Ok(mut sink) => {
                    sink.log_on_drop(false);
                    let name = format!("{:?}", sink.config());
                    let _ = tx.send(Ok((sink.mixer().clone(), name)));
                    // Hold the device until the RodioSink is dropped.
                    let _ = keep_rx.recv();
                }
                Err(e) => {
                    let _ = tx.send(Err(e.to_string()));
                }
            },
        )?;
        match rx.recv() {
            Ok(Ok((mixer, name))) => Ok(Self {
                mixer,
                name,
                _keepalive: keep_tx,
            }),
            Ok(Err(e)) => Err(VoiceError::Device(format!("no audio output: {e}"))),
            Err(_) => Err(VoiceError::Device("audio output thread ended".into())),
        }
    }
}

impl AudioSink for RodioSink {
    fn name(&self) -> String {
        format!("speakers ({})", self.name)
    }

    fn play(&self, pcm: &Pcm, stop: &StopFlag) -> Result<bool, VoiceError> {
        if pcm.samples.is_empty() {
            return Ok(true);
        }
        let rate = NonZero::new(pcm.rate).ok_or(VoiceError::EmptyAudio)?;
        let player = rodio::Player::connect_new(&self.mixer);
        player.append(rodio::buffer::SamplesBuffer::new(
            NonZero::<u16>::MIN,
            rate,
            pcm.samples.clone(),
        ));
        // A device that stops pulling samples (unplugged, suspended) would
        // leave the player full forever and the coordinator speaking.
        let length = Duration::from_secs_f64(pcm.samples.len() as f64 / f64::from(pcm.rate));
        let deadline = Instant::now() + length + Duration::from_secs(3);
        while !player.empty() {
            if stop.is_raised() {
                player.stop();
                return Ok(false);
            }
            if Instant::now() > deadline {
                player.stop();
                return Err(VoiceError::Device(
                    "playback stalled: the output device stopped taking audio".into(),
                ));
            }
            std::thread::sleep(STOP_POLL);
        }
        Ok(true)
    }
}

/// Speech is mono at 22.05 kHz (Piper, espeak-ng): ask the device for that
/// first, so nothing converts it twice; fall back to the device's default.
fn open_speech_sink() -> Result<rodio::MixerDeviceSink, rodio::DeviceSinkError> {
    let rate = NonZero::<u32>::new(22_050).unwrap_or(NonZero::<u32>::MIN);
    let speech = rodio::DeviceSinkBuilder::from_default_device().and_then(|b| {
        b.with_sample_rate(rate)
            .with_channels(NonZero::<u16>::MIN)
            .with_sample_format(rodio::cpal::SampleFormat::I16)
            .open_stream()
    });
    match speech {
        Ok(sink) => Ok(sink),
        Err(e) => {
            tracing::debug!("output at 22.05 kHz mono refused ({e}); using the device default");
            rodio::DeviceSinkBuilder::open_default_sink()
        }
    }
}

/// One played (or cut) clip, for tests and timing.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    pub started: Instant,
    pub ended: Instant,
    pub samples: usize,
    pub completed: bool,
}

/// Plays into nothing at real-time speed and remembers when each clip ran.
#[derive(Default)]
pub struct NullSink {
    log: Mutex<Vec<Played>>,
    /// 1.0 is real time; tests may speed it up.
    pub speed: f32,
}

impl NullSink {
    pub fn new() -> Self {
        Self {
            log: Mutex::new(Vec::new()),
            speed: 1.0,
        }
    }
    pub fn with_speed(speed: f32) -> Self {
        Self {
            log: Mutex::new(Vec::new()),
            speed,
        }
    }
    pub fn played(&self) -> Vec<Played> {
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }
}

impl AudioSink for NullSink {
    fn name(&self) -> String {
        "null".into()
    }

    fn play(&self, pcm: &Pcm, stop: &StopFlag) -> Result<bool, VoiceError> {
        let started = Instant::now();
        let speed = if self.speed > 0.0 { self.speed } else { 1.0 };
        let length = Duration::from_secs_f64(
            pcm.samples.len() as f64 / f64::from(pcm.rate.max(1)) / f64::from(speed),
        );
        let mut completed = true;
        while started.elapsed() < length {
            if stop.is_raised() {
                completed = false;
                break;
            }
            std::thread::sleep(STOP_POLL.min(length.saturating_sub(started.elapsed())));
        }
        if let Ok(mut log) = self.log.lock() {
            log.push(Played {
                started,
                ended: Instant::now(),
                samples: pcm.samples.len(),
                completed,
            });
        }
        Ok(completed)
    }
}

/// Collects everything into one WAV file, written on [`WavSink::finish`].
pub struct WavSink {
    path: PathBuf,
    buf: Mutex<Option<Pcm>>,
}

impl WavSink {
    pub fn new(path: PathBuf) -> Self {
        Self {
            path,
            buf: Mutex::new(None),
        }
    }

    pub fn finish(&self) -> Result<Pcm, VoiceError> {
        let pcm = self
            .buf
            .lock()
            .ok()
            .and_then(|mut b| b.take())
            .ok_or(VoiceError::EmptyAudio)?;
        write_wav(&self.path, &pcm)?;
        Ok(pcm)
    }
}

impl AudioSink for WavSink {
    fn name(&self) -> String {
        format!("file {}", self.path.display())
    }

    fn play(&self, pcm: &Pcm, _stop: &StopFlag) -> Result<bool, VoiceError> {
        let mut guard = self
            .buf
            .lock()
            .map_err(|_| VoiceError::Device("WAV sink poisoned".into()))?;
        match guard.as_mut() {
            None => *guard = Some(pcm.clone()),
            Some(acc) if acc.rate == pcm.rate => acc.samples.extend_from_slice(&pcm.samples),
            Some(acc) => {
                let converted = pcm.resampled(acc.rate)?;
                acc.samples.extend_from_slice(&converted.samples);
            }
        }
        Ok(true)
    }
}
