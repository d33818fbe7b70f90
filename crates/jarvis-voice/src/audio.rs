//! PCM helpers: every stage past the source works on 16 kHz mono `f32`.

use std::io::Write;
use std::path::Path;

use audioadapter_buffers::direct::InterleavedSlice;
use rubato::{Fft, FixedSync, Resampler};

use crate::VoiceError;

/// The rate whisper, webrtc-vad and Silero want.
pub const SAMPLE_RATE: u32 = 16_000;

/// Mono samples with their rate.
#[derive(Debug, Clone, PartialEq)]
pub struct Pcm {
    pub samples: Vec<f32>,
    pub rate: u32,
}

impl Pcm {
    pub fn new(samples: Vec<f32>, rate: u32) -> Self {
        Self { samples, rate }
    }

    pub fn duration_ms(&self) -> u64 {
        if self.rate == 0 {
            return 0;
        }
        self.samples.len() as u64 * 1000 / u64::from(self.rate)
    }

    /// The same audio at `rate`.
    pub fn resampled(&self, rate: u32) -> Result<Pcm, VoiceError> {
        Ok(Pcm::new(resample(&self.samples, self.rate, rate)?, rate))
    }
}

/// Read a WAV file (any rate, any channel count, int or float) as mono.
pub fn read_wav(path: &Path) -> Result<Pcm, VoiceError> {
    let bad = |reason: String| VoiceError::BadAudio {
        path: path.to_path_buf(),
        reason,
    };
    let reader = hound::WavReader::open(path).map_err(|e| bad(e.to_string()))?;
    let spec = reader.spec();
    let channels = usize::from(spec.channels.max(1));
    let interleaved: Vec<f32> = match (spec.sample_format, spec.bits_per_sample) {
        (hound::SampleFormat::Float, 32) => reader
            .into_samples::<f32>()
            .collect::<Result<_, _>>()
            .map_err(|e| bad(e.to_string()))?,
        (hound::SampleFormat::Int, bits @ 1..=32) => {
            let scale = 1.0 / (1u64 << (bits - 1)) as f32;
            reader
                .into_samples::<i32>()
                .map(|s| s.map(|v| v as f32 * scale))
                .collect::<Result<_, _>>()
                .map_err(|e| bad(e.to_string()))?
        }
        (fmt, bits) => return Err(bad(format!("unsupported sample format {fmt:?} {bits}-bit"))),
    };
    Ok(Pcm::new(downmix(&interleaved, channels), spec.sample_rate))
}

/// Read a WAV file and bring it to 16 kHz mono.
pub fn read_wav_16k(path: &Path) -> Result<Pcm, VoiceError> {
    read_wav(path)?.resampled(SAMPLE_RATE)
}

/// Parse a WAV stream whose header may carry a placeholder length (espeak-ng
/// `--stdout` writes 0x7ffff000 because it does not know the length yet).
pub fn parse_streamed_wav(bytes: &[u8]) -> Result<Pcm, VoiceError> {
    let bad = |reason: &str| VoiceError::Tts(format!("bad WAV from synthesizer: {reason}"));
    if bytes.len() < 12 || &bytes[0..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err(bad("no RIFF/WAVE header"));
    }
    let mut pos = 12;
    let mut rate = 0u32;
    let mut channels = 1usize;
    let mut bits = 0u16;
    while pos + 8 <= bytes.len() {
        let id = &bytes[pos..pos + 4];
        let len = u32::from_le_bytes([
            bytes[pos + 4],
            bytes[pos + 5],
            bytes[pos + 6],
            bytes[pos + 7],
        ]) as usize;
        let body = pos + 8;
        if id == b"fmt " {
            if body + 16 > bytes.len() {
                return Err(bad("short fmt chunk"));
            }
            channels = usize::from(u16::from_le_bytes([bytes[body + 2], bytes[body + 3]]).max(1));
            rate = u32::from_le_bytes([
                bytes[body + 4],
                bytes[body + 5],
                bytes[body + 6],
                bytes[body + 7],
            ]);
            bits = u16::from_le_bytes([bytes[body + 14], bytes[body + 15]]);
        } else if id == b"data" {
            if bits != 16 || rate == 0 {
                return Err(bad("expected 16-bit PCM"));
            }
            let end = body.saturating_add(len).min(bytes.len());
            let data = &bytes[body..end];
            let samples: Vec<f32> = data
                .chunks_exact(2)
                .map(|b| f32::from(i16::from_le_bytes([b[0], b[1]])) / 32768.0)
                .collect();
            return Ok(Pcm::new(downmix(&samples, channels), rate));
        }
        pos = body.saturating_add(len + (len & 1));
    }
    Err(bad("no data chunk"))
}

fn downmix(interleaved: &[f32], channels: usize) -> Vec<f32> {
    if channels <= 1 {
        return interleaved.to_vec();
    }
    interleaved
        .chunks_exact(channels)
        .map(|f| f.iter().sum::<f32>() / channels as f32)
        .collect()
}

/// Write 16-bit mono WAV atomically (temp file + rename), so a reader never
/// sees half a file.
pub fn write_wav(path: &Path, pcm: &Pcm) -> Result<(), VoiceError> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(&wav_bytes(pcm))?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// A 16-bit mono WAV image of `pcm`.
pub fn wav_bytes(pcm: &Pcm) -> Vec<u8> {
    let data_len = (pcm.samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&pcm.rate.to_le_bytes());
    out.extend_from_slice(&(pcm.rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in &pcm.samples {
        out.extend_from_slice(&to_i16(*s).to_le_bytes());
    }
    out
}

pub fn to_i16(s: f32) -> i16 {
    (s.clamp(-1.0, 1.0) * 32767.0).round() as i16
}

/// Resample a whole clip (band-limited FFT resampler, delay trimmed).
pub fn resample(samples: &[f32], from: u32, to: u32) -> Result<Vec<f32>, VoiceError> {
    if from == to || samples.is_empty() {
        return Ok(samples.to_vec());
    }
    let err = |reason: String| VoiceError::Resample { from, to, reason };
    let mut rs = Fft::<f32>::new(from as usize, to as usize, 1024, 1, FixedSync::Input)
        .map_err(|e| err(e.to_string()))?;
    let input = InterleavedSlice::new(samples, 1, samples.len()).map_err(|e| err(e.to_string()))?;
    let out = rs
        .process_all(&input, samples.len(), None)
        .map_err(|e| err(e.to_string()))?;
    Ok(out.take_data())
}

/// Resampler for a live stream: feed any number of samples, get what is ready.
pub struct StreamResampler {
    from: u32,
    to: u32,
    inner: Option<Fft<f32>>,
    pending: Vec<f32>,
}

impl StreamResampler {
    pub fn new(from: u32, to: u32) -> Result<Self, VoiceError> {
        let inner = if from == to {
            None
        } else {
            // 10 ms chunks keep the added latency small.
            let chunk = (from as usize / 100).max(16);
            Some(
                Fft::<f32>::new(from as usize, to as usize, chunk, 1, FixedSync::Input).map_err(
                    |e| VoiceError::Resample {
                        from,
                        to,
                        reason: e.to_string(),
                    },
                )?,
            )
        };
        Ok(Self {
            from,
            to,
            inner,
            pending: Vec::new(),
        })
    }

    pub fn push(&mut self, samples: &[f32]) -> Result<Vec<f32>, VoiceError> {
        let Some(rs) = self.inner.as_mut() else {
            return Ok(samples.to_vec());
        };
        self.pending.extend_from_slice(samples);
        let mut out = Vec::new();
        let (from, to) = (self.from, self.to);
        let err = |reason: String| VoiceError::Resample { from, to, reason };
        loop {
            let need = rs.input_frames_next();
            if self.pending.len() < need {
                break;
            }
            let produced = rs.output_frames_next();
            let mut buf = vec![0.0f32; produced];
            let input = InterleavedSlice::new(&self.pending[..need], 1, need)
                .map_err(|e| err(e.to_string()))?;
            let mut output =
                InterleavedSlice::new_mut(&mut buf, 1, produced).map_err(|e| err(e.to_string()))?;
            let (used, made) = rs
                .process_into_buffer(&input, &mut output, None)
                .map_err(|e| err(e.to_string()))?;
            out.extend_from_slice(&buf[..made]);
            self.pending.drain(..used);
        }
        Ok(out)
    }
}

/// Root mean square level of a block, 0..1.
pub fn rms(samples: &[f32]) -> f32 {
    if samples.is_empty() {
        return 0.0;
    }
    (samples.iter().map(|s| s * s).sum::<f32>() / samples.len() as f32).sqrt()
}
