//! Piper neural voices: espeak-ng (a subprocess, so nothing GPL is linked)
//! turns text into IPA phonemes, the voice's ONNX model (ONNX Runtime loaded
//! at run time through `ort`) turns phoneme ids into audio.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use ort::session::Session;
use ort::value::Tensor;
use unicode_normalization::UnicodeNormalization;

use super::{Speaker, voice_json};
use crate::VoiceError;
use crate::audio::Pcm;

const BOS: &str = "^";
const EOS: &str = "$";
const PAD: &str = "_";

#[derive(Debug, serde::Deserialize)]
struct VoiceConfig {
    audio: AudioCfg,
    espeak: EspeakCfg,
    #[serde(default)]
    inference: InferenceCfg,
    phoneme_id_map: HashMap<String, Vec<i64>>,
    #[serde(default)]
    num_speakers: u32,
}

#[derive(Debug, serde::Deserialize)]
struct AudioCfg {
    sample_rate: u32,
}

#[derive(Debug, serde::Deserialize)]
struct EspeakCfg {
    voice: String,
}

#[derive(Debug, serde::Deserialize)]
struct InferenceCfg {
    noise_scale: f32,
    length_scale: f32,
    noise_w: f32,
}

impl Default for InferenceCfg {
    fn default() -> Self {
        Self {
            noise_scale: 0.667,
            length_scale: 1.0,
            noise_w: 0.8,
        }
    }
}

pub struct PiperVoice {
    cfg: VoiceConfig,
    session: Mutex<Session>,
}

/// Where libonnxruntime may be: ORT_DYLIB_PATH, then the given dirs, then the
/// system's library path.
pub fn onnx_runtime_candidates(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let name = if cfg!(windows) {
        "onnxruntime.dll"
    } else if cfg!(target_os = "macos") {
        "libonnxruntime.dylib"
    } else {
        "libonnxruntime.so"
    };
    let mut out = Vec::new();
    if let Some(p) = std::env::var_os("ORT_DYLIB_PATH") {
        out.push(PathBuf::from(p));
    }
    for d in dirs {
        out.push(d.join(name));
        // Wheels ship a versioned file only.
        if let Ok(rd) = std::fs::read_dir(d) {
            let mut versioned: Vec<PathBuf> = rd
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with(name) && n != name)
                })
                .collect();
            versioned.sort();
            out.extend(versioned.into_iter().rev());
        }
    }
    out.push(PathBuf::from(name));
    out
}

static ORT_ENV: OnceLock<Result<ort::environment::Environment, String>> = OnceLock::new();

/// Load ONNX Runtime once per process.
pub fn load_onnx_runtime(
    dirs: &[PathBuf],
) -> Result<&'static ort::environment::Environment, VoiceError> {
    let env = ORT_ENV.get_or_init(|| {
        let mut why = Vec::new();
        for cand in onnx_runtime_candidates(dirs) {
            let is_bare_name = cand.components().count() == 1;
            if !is_bare_name && !cand.is_file() {
                continue;
            }
            match ort::init_from(&cand) {
                Ok(builder) => {
                    return builder
                        .with_name("jarvis")
                        .build()
                        .map_err(|e| e.to_string());
                }
                Err(e) => why.push(format!("{}: {e}", cand.display())),
            }
        }
        Err(format!(
            "ONNX Runtime not found ({}); set ORT_DYLIB_PATH",
            why.join("; ")
        ))
    });
    env.as_ref().map_err(|e| VoiceError::EngineUnavailable {
        engine: "piper".into(),
        reason: e.clone(),
    })
}

impl PiperVoice {
    pub fn load(onnx: &Path, runtime_dirs: &[PathBuf]) -> Result<Self, VoiceError> {
        if !onnx.is_file() {
            return Err(VoiceError::ModelMissing {
                path: onnx.to_path_buf(),
                hint: "install it with `jarvis models install piper-joe` or set JARVIS_TTS_VOICE"
                    .into(),
            });
        }
        let json_path = voice_json(onnx);
        let text = std::fs::read_to_string(&json_path).map_err(|e| VoiceError::ModelLoad {
            path: json_path.clone(),
            reason: format!("the voice's .onnx.json: {e}"),
        })?;
        let cfg: VoiceConfig = serde_json::from_str(&text).map_err(|e| VoiceError::ModelLoad {
            path: json_path.clone(),
            reason: e.to_string(),
        })?;
        for key in [BOS, EOS, PAD] {
            if !cfg.phoneme_id_map.contains_key(key) {
                return Err(VoiceError::ModelLoad {
                    path: json_path,
                    reason: format!("phoneme_id_map lacks {key:?}"),
                });
            }
        }
        espeak_available()?;
        let env = load_onnx_runtime(runtime_dirs)?;
        let load_err = |e: ort::Error| VoiceError::ModelLoad {
            path: onnx.to_path_buf(),
            reason: e.to_string(),
        };
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .min(4);
        let session = Session::builder(env)
            .map_err(load_err)?
            .with_intra_threads(threads)
            .map_err(|e| load_err(e.into()))?
            .commit_from_file(onnx)
            .map_err(load_err)?;
        Ok(Self {
            cfg,
            session: Mutex::new(session),
        })
    }

    pub fn sample_rate(&self) -> u32 {
        self.cfg.audio.sample_rate
    }

    /// IPA phonemes per clause, with the clause's punctuation, as Piper was
    /// trained on.
    pub fn phonemize(&self, text: &str) -> Result<String, VoiceError> {
        let out = super::espeak::run(
            &["-q", "--ipa", "-v", &self.cfg.espeak.voice],
            text,
            "piper",
        )?;
        let ipa = String::from_utf8_lossy(&out);
        let clauses: Vec<&str> = ipa
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let puncts: Vec<char> = text
            .chars()
            .filter(|c| matches!(c, ',' | '.' | '!' | '?' | ';' | ':'))
            .collect();
        let mut joined = String::new();
        for (i, clause) in clauses.iter().enumerate() {
            if i > 0 {
                joined.push(' ');
            }
            joined.push_str(clause);
            // espeak puts one clause per line; give each back its mark when
            // the counts line up, else only the sentence end.
            if puncts.len() == clauses.len() {
                joined.push(puncts[i]);
            } else if i + 1 == clauses.len() {
                joined.push(puncts.last().copied().unwrap_or('.'));
            }
        }
        Ok(joined)
    }

    /// Phoneme ids: BOS, then each phoneme followed by a pad, then EOS.
    pub fn phoneme_ids(&self, phonemes: &str) -> Vec<i64> {
        let map = &self.cfg.phoneme_id_map;
        let get = |k: &str| map.get(k).cloned().unwrap_or_default();
        let mut ids = get(BOS);
        ids.extend(get(PAD));
        let mut buf = [0u8; 4];
        for c in phonemes.nfd() {
            if let Some(id) = map.get(c.encode_utf8(&mut buf) as &str) {
                ids.extend(id);
                ids.extend(get(PAD));
            }
        }
        ids.extend(get(EOS));
        ids
    }
}

fn espeak_available() -> Result<(), VoiceError> {
    if super::espeak::available() {
        Ok(())
    } else {
        Err(VoiceError::EngineUnavailable {
            engine: "piper".into(),
            reason: "espeak-ng (for phonemes) is not installed".into(),
        })
    }
}

impl Speaker for PiperVoice {
    fn engine(&self) -> &'static str {
        "piper"
    }

    fn synthesize(&self, text: &str) -> Result<Pcm, VoiceError> {
        let phonemes = self.phonemize(text)?;
        let ids = self.phoneme_ids(&phonemes);
        if ids.len() <= 3 {
            return Ok(Pcm::new(Vec::new(), self.sample_rate()));
        }
        let err = |e: ort::Error| VoiceError::Tts(format!("Piper: {e}"));
        let n = ids.len();
        let inf = &self.cfg.inference;
        let input = Tensor::from_array(([1usize, n], ids)).map_err(err)?;
        let lengths = Tensor::from_array(([1usize], vec![n as i64])).map_err(err)?;
        let scales = Tensor::from_array((
            [3usize],
            vec![inf.noise_scale, inf.length_scale, inf.noise_w],
        ))
        .map_err(err)?;
        let mut session = self
            .session
            .lock()
            .map_err(|_| VoiceError::Tts("Piper session poisoned".into()))?;
        let outputs = if self.cfg.num_speakers > 1 {
            let sid = Tensor::from_array(([1usize], vec![0i64])).map_err(err)?;
            session.run(ort::inputs!["input" => input, "input_lengths" => lengths, "scales" => scales, "sid" => sid])
        } else {
            session.run(ort::inputs!["input" => input, "input_lengths" => lengths, "scales" => scales])
        }
        .map_err(err)?;
        let (_, audio) = outputs[0].try_extract_tensor::<f32>().map_err(err)?;
        // Piper's own players scale each utterance to full range.
        let peak = audio.iter().fold(0.0f32, |m, s| m.max(s.abs())).max(0.01);
        let gain = 0.9 / peak;
        let rate = self.sample_rate();
        Ok(Pcm::new(
            trim_silence(audio, peak * 0.01, rate)
                .iter()
                .map(|s| s * gain)
                .collect(),
            rate,
        ))
    }
}

/// The stochastic duration predictor sometimes opens with a few hundred ms
/// of near-silence; that is latency before the first word, so cut it (keeping
/// a short lead-in and tail so words are not clipped).
fn trim_silence(audio: &[f32], threshold: f32, rate: u32) -> &[f32] {
    let lead = rate as usize * 40 / 1000;
    let tail = rate as usize * 100 / 1000;
    let Some(first) = audio.iter().position(|s| s.abs() > threshold) else {
        return &[];
    };
    let last = audio
        .iter()
        .rposition(|s| s.abs() > threshold)
        .unwrap_or(first);
    &audio[first.saturating_sub(lead)..(last + tail).min(audio.len())]
}
