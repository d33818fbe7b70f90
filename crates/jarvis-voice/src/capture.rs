//! Audio in: the microphone through cpal, or a WAV file. Both deliver 16 kHz
//! mono chunks on a channel until closed.

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

use crate::VoiceError;
use crate::audio::{Pcm, SAMPLE_RATE, StreamResampler};

/// A source of 16 kHz mono audio.
pub trait AudioSource: Send {
    fn name(&self) -> String;
    /// Start delivering chunks. The channel closes when the source ends (a
    /// file ran out) or [`AudioSource::close`] is called.
    fn open(&mut self) -> Result<Receiver<Vec<f32>>, VoiceError>;
    fn close(&mut self);
    /// Whether the device is capturing right now (the mic-in-use light).
    fn is_capturing(&self) -> bool;
}

/// A WAV file as a microphone, paced at real time or as fast as possible.
pub struct WavSource {
    pcm: Pcm,
    label: String,
    paced: bool,
    chunk_ms: u32,
    stop: Option<Sender<()>>,
}

impl WavSource {
    pub fn new(pcm16k: Pcm, label: impl Into<String>, paced: bool) -> Self {
        Self {
            pcm: pcm16k,
            label: label.into(),
            paced,
            chunk_ms: 20,
            stop: None,
        }
    }

    pub fn from_file(path: &std::path::Path, paced: bool) -> Result<Self, VoiceError> {
        Ok(Self::new(
            crate::audio::read_wav_16k(path)?,
            path.display().to_string(),
            paced,
        ))
    }
}

impl AudioSource for WavSource {
    fn name(&self) -> String {
        format!("file {}", self.label)
    }

    fn open(&mut self) -> Result<Receiver<Vec<f32>>, VoiceError> {
        let (tx, rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = std::sync::mpsc::channel::<()>();
        self.stop = Some(stop_tx);
        let samples = self.pcm.samples.clone();
        let chunk = (SAMPLE_RATE * self.chunk_ms / 1000) as usize;
        let pace = self
            .paced
            .then(|| Duration::from_millis(u64::from(self.chunk_ms)));
        std::thread::Builder::new()
            .name("wav-source".into())
            .spawn(move || {
                let start = std::time::Instant::now();
                for (i, c) in samples.chunks(chunk).enumerate() {
                    if let Some(step) = pace {
                        // Sleep to the chunk's due time so pacing does not drift.
                        let due = step * (i as u32 + 1);
                        if let Some(wait) = due.checked_sub(start.elapsed())
                            && stop_rx.recv_timeout(wait).is_ok()
                        {
                            return;
                        }
                    } else if stop_rx.try_recv().is_ok() {
                        return;
                    }
                    if tx.send(c.to_vec()).is_err() {
                        return;
                    }
                }
            })?;
        Ok(rx)
    }

    fn close(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }

    fn is_capturing(&self) -> bool {
        self.stop.is_some()
    }
}

/// Microphone settings.
#[derive(Debug, Clone)]
pub struct MicConfig {
    /// A device name, or `None` for the system default.
    pub device: Option<String>,
    /// Keep the device open between presses (saves the ~0.4 s a first open
    /// costs, and gives a pre-roll), at the price of a mic that is always on.
    pub keep_warm: bool,
    /// Audio kept from before the press when warm.
    pub preroll_ms: u32,
}

impl Default for MicConfig {
    fn default() -> Self {
        Self {
            device: None,
            keep_warm: false,
            preroll_ms: 300,
        }
    }
}

struct Shared {
    preroll: VecDeque<f32>,
    preroll_cap: usize,
    listener: Option<Sender<Vec<f32>>>,
}

/// The microphone through cpal, resampled to 16 kHz mono.
pub struct MicSource {
    cfg: MicConfig,
    shared: Arc<Mutex<Shared>>,
    device_stop: Option<SyncSender<()>>,
    device_name: String,
}

/// Input devices cpal can see, by name.
pub fn input_devices() -> Vec<String> {
    let host = cpal::default_host();
    host.input_devices()
        .map(|devs| {
            devs.filter_map(|d| d.description().ok().map(|x| x.name().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

impl MicSource {
    pub fn new(cfg: MicConfig) -> Self {
        let cap = (SAMPLE_RATE * cfg.preroll_ms / 1000) as usize;
        Self {
            cfg,
            shared: Arc::new(Mutex::new(Shared {
                preroll: VecDeque::with_capacity(cap),
                preroll_cap: cap,
                listener: None,
            })),
            device_stop: None,
            device_name: String::new(),
        }
    }

    fn start_device(&mut self) -> Result<(), VoiceError> {
        if self.device_stop.is_some() {
            return Ok(());
        }
        let (ready_tx, ready_rx) = std::sync::mpsc::sync_channel::<Result<String, VoiceError>>(1);
        let (stop_tx, stop_rx) = std::sync::mpsc::sync_channel::<()>(1);
        let shared = self.shared.clone();
        let wanted = self.cfg.device.clone();
        std::thread::Builder::new()
            .name("mic".into())
            .spawn(move || match build_stream(wanted.as_deref(), shared) {
                Ok((stream, name)) => {
                    if let Err(e) = stream.play() {
                        let _ = ready_tx.send(Err(VoiceError::Device(format!(
                            "cannot start capture: {e}"
                        ))));
                        return;
                    }
                    let _ = ready_tx.send(Ok(name));
                    let _ = stop_rx.recv();
                    drop(stream);
                }
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                }
            })?;
        match ready_rx.recv() {
            Ok(Ok(name)) => {
                self.device_name = name;
                self.device_stop = Some(stop_tx);
                Ok(())
            }
            Ok(Err(e)) => Err(e),
            Err(_) => Err(VoiceError::Device("capture thread ended".into())),
        }
    }

    fn stop_device(&mut self) {
        if let Some(s) = self.device_stop.take() {
            let _ = s.send(());
        }
        if let Ok(mut sh) = self.shared.lock() {
            sh.preroll.clear();
        }
    }
}

impl Drop for MicSource {
    fn drop(&mut self) {
        self.stop_device();
    }
}

impl AudioSource for MicSource {
    fn name(&self) -> String {
        if self.device_name.is_empty() {
            "microphone".into()
        } else {
            format!("microphone {}", self.device_name)
        }
    }

    fn open(&mut self) -> Result<Receiver<Vec<f32>>, VoiceError> {
        let (tx, rx) = std::sync::mpsc::channel();
        {
            // The listener goes in before a cold device starts: audio that
            // arrived in between would land in the pre-roll ring and all but
            // its last 300 ms would be lost.
            let mut sh = self
                .shared
                .lock()
                .map_err(|_| VoiceError::Device("mic state poisoned".into()))?;
            if !sh.preroll.is_empty() {
                let pre: Vec<f32> = sh.preroll.drain(..).collect();
                let _ = tx.send(pre);
            }
            sh.listener = Some(tx);
        }
        if let Err(e) = self.start_device() {
            if let Ok(mut sh) = self.shared.lock() {
                sh.listener = None;
            }
            return Err(e);
        }
        Ok(rx)
    }

    fn close(&mut self) {
        if let Ok(mut sh) = self.shared.lock() {
            sh.listener = None;
        }
        if !self.cfg.keep_warm {
            self.stop_device();
        }
    }

    fn is_capturing(&self) -> bool {
        self.device_stop.is_some()
    }
}

fn build_stream(
    wanted: Option<&str>,
    shared: Arc<Mutex<Shared>>,
) -> Result<(cpal::Stream, String), VoiceError> {
    let host = cpal::default_host();
    let device = match wanted {
        None => host
            .default_input_device()
            .ok_or_else(|| VoiceError::NoInput("no default input device".into()))?,
        Some(name) => host
            .input_devices()
            .map_err(|e| VoiceError::Device(e.to_string()))?
            .find(|d| d.description().is_ok_and(|x| x.name() == name))
            .ok_or_else(|| VoiceError::NoInput(format!("no input device named {name:?}")))?,
    };
    let name = device
        .description()
        .map(|d| d.name().to_string())
        .unwrap_or_else(|_| "default".into());
    // A device that can deliver 16 kHz mono directly spares a resampling
    // (and, behind ALSA's plug, a conversion of its own); otherwise take its
    // default and resample.
    let native = device.supported_input_configs().ok().and_then(|configs| {
        configs
            .filter(|c| {
                c.channels() == 1
                    && matches!(
                        c.sample_format(),
                        cpal::SampleFormat::F32 | cpal::SampleFormat::I16
                    )
            })
            .find_map(|c| c.try_with_sample_rate(SAMPLE_RATE))
    });
    let supported = match native {
        Some(c) => c,
        None => device
            .default_input_config()
            .map_err(|e| VoiceError::NoInput(format!("{name}: {e}")))?,
    };
    let format = supported.sample_format();
    let config = supported.config();
    let channels = usize::from(config.channels.max(1));
    tracing::debug!(
        "microphone {name}: {format:?}, {} Hz, {channels} channel(s)",
        config.sample_rate
    );
    let mut resampler = StreamResampler::new(config.sample_rate, SAMPLE_RATE)?;
    let mut deliver = move |mono: &[f32]| {
        let Ok(out) = resampler.push(mono) else {
            return;
        };
        if out.is_empty() {
            return;
        }
        let Ok(mut sh) = shared.lock() else { return };
        match &sh.listener {
            Some(l) => {
                if l.send(out).is_err() {
                    sh.listener = None;
                }
            }
            None => {
                let cap = sh.preroll_cap;
                sh.preroll.extend(out);
                let excess = sh.preroll.len().saturating_sub(cap);
                sh.preroll.drain(..excess);
            }
        }
    };
    let err_fn = |e: cpal::Error| tracing::warn!("microphone: {e}");
    macro_rules! build {
        ($t:ty, $conv:expr) => {
            device.build_input_stream::<$t, _, _>(
                config,
                move |data: &[$t], _| {
                    let mono: Vec<f32> = data
                        .chunks(channels)
                        .map(|f| f.iter().map(|s| $conv(*s)).sum::<f32>() / channels as f32)
                        .collect();
                    deliver(&mono);
                },
                err_fn,
                None,
            )
        };
    }
    let stream = match format {
        cpal::SampleFormat::F32 => build!(f32, |s: f32| s),
        cpal::SampleFormat::I16 => build!(i16, |s: i16| f32::from(s) / 32768.0),
        cpal::SampleFormat::I32 => build!(i32, |s: i32| s as f32 / 2_147_483_648.0),
        cpal::SampleFormat::U16 => build!(u16, |s: u16| (f32::from(s) - 32768.0) / 32768.0),
        other => {
            return Err(VoiceError::Device(format!(
                "{name}: unsupported sample format {other:?}"
            )));
        }
    }
    .map_err(|e| VoiceError::Device(format!("{name}: {e}")))?;
    Ok((stream, name))
}
