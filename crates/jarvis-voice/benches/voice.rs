//! `cargo bench -p jarvis-voice --bench voice`: the voice figures.
//!
//! 1. Speech to text: the whole `Transcriber` path beside a bare
//!    `whisper_full` call through whisper-rs on the same model, samples,
//!    threads and parameters; and the real-time factor.
//! 2. Time to first audio per TTS engine: synthesis of a reply's first
//!    sentence (replies are spoken sentence by sentence).
//! 3. End of speech to first reply audio through the coordinator with a
//!    scripted instant LLM on loopback: from the push-to-talk release and
//!    from the last speech frame (the clip is fed in real time, and the key
//!    is released 300 ms after the last word).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use jarvis_core::policy::NoApprover;
use jarvis_core::secrets::MemorySecretStore;
use jarvis_core::{Brain, BrainOptions, Overrides};
use jarvis_protocol::Event;
use jarvis_testkit::{MockServer, Reply};
use jarvis_voice::audio::read_wav_16k;
use jarvis_voice::capture::WavSource;
use jarvis_voice::coordinator::{VoiceConfig, VoiceCoordinator, VoiceParts};
use jarvis_voice::sink::NullSink;
use jarvis_voice::stt::{SttConfig, Transcriber, WhisperTranscriber, default_threads, full_params};
use jarvis_voice::tts::{PiperVoice, Speaker, SystemVoice};
use jarvis_voice::vad::SileroVad;

const RUNS: usize = 5;

fn shared() -> std::path::PathBuf {
    jarvis_testkit::shared_dir()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// One side of the STT comparison in this process: per clip, the median
/// wall time of RUNS transcriptions, printed as `clip ms` lines.
fn stt_side(side: &str) {
    let model = shared().join("models/ggml-tiny.en.bin");
    let threads = default_threads();
    let clips: Vec<Vec<f32>> = (1..=4)
        .map(|n| {
            read_wav_16k(&shared().join(format!("audio/piper_{n}.wav")))
                .unwrap()
                .samples
        })
        .collect();
    type Timed = Box<dyn FnMut(&[f32]) -> f64>;
    let mut timed: Timed = if side == "ours" {
        let t = WhisperTranscriber::new(SttConfig::new(model)).unwrap();
        t.preload().unwrap();
        Box::new(move |pcm| {
            let start = Instant::now();
            t.transcribe(pcm).unwrap();
            ms(start.elapsed())
        })
    } else {
        let mut p = whisper_rs::WhisperContextParameters::default();
        p.use_gpu(false);
        let ctx = whisper_rs::WhisperContext::new_with_params(model.to_str().unwrap(), p).unwrap();
        let mut state = ctx.create_state().unwrap();
        Box::new(move |pcm| {
            let start = Instant::now();
            state
                .full(full_params("en", threads, pcm.len()), pcm)
                .unwrap();
            ms(start.elapsed())
        })
    };
    for (n, pcm) in clips.iter().enumerate() {
        timed(pcm); // warm
        let v: Vec<f64> = (0..RUNS).map(|_| timed(pcm)).collect();
        println!("clip{} {:.1}", n + 1, median(v));
    }
}

/// Each side runs in its own process (a model loaded beside another one
/// changes both one's cache and memory placement: whichever loaded second
/// ran up to 20 % faster), alternating, three processes each.
fn stt_bench() {
    let threads = default_threads();
    let exe = std::env::current_exe().unwrap();
    let mut times: std::collections::BTreeMap<(&str, usize), Vec<f64>> = Default::default();
    for round in 0..6 {
        let side = if round % 2 == 0 { "ours" } else { "bare" };
        let out = std::process::Command::new(&exe)
            .env("JARVIS_BENCH_STT_SIDE", side)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            if let Some((clip, v)) = line.split_once(' ')
                && let Some(n) = clip.strip_prefix("clip")
            {
                times
                    .entry((side, n.parse().unwrap()))
                    .or_default()
                    .push(v.parse().unwrap());
            }
        }
    }
    println!("\n### Speech to text (whisper tiny.en, {threads} thread(s), greedy)\n");
    println!("| clip | audio | Transcriber | bare whisper_full | ratio | RTF |");
    println!("|---|---|---|---|---|---|");
    let (mut sum_ours, mut sum_bare, mut sum_audio) = (0.0, 0.0, 0.0);
    for n in 1..=4 {
        let audio = read_wav_16k(&shared().join(format!("audio/piper_{n}.wav")))
            .unwrap()
            .duration_ms() as f64;
        let o = median(times[&("ours", n)].clone());
        let b = median(times[&("bare", n)].clone());
        sum_ours += o;
        sum_bare += b;
        sum_audio += audio;
        println!(
            "| piper_{n} | {audio:.0} ms | {o:.0} ms | {b:.0} ms | {:.3}x | {:.3} |",
            o / b,
            o / audio
        );
    }
    println!(
        "| all | {sum_audio:.0} ms | {sum_ours:.0} ms | {sum_bare:.0} ms | **{:.3}x** | **{:.3}** |",
        sum_ours / sum_bare,
        sum_ours / sum_audio
    );
    println!("\n(median over 3 processes per side, each the median of {RUNS} runs per clip)");
}

fn tts_bench() {
    let first = "Opening the runs page now.";
    println!("\n### Time to first audio (synthesis of a reply's first sentence: {first:?})\n");
    println!("| engine | first call | median of 10 | worst of 10 |");
    println!("|---|---|---|---|");
    let engines: Vec<Arc<dyn Speaker>> = vec![
        Arc::new(SystemVoice::for_language("en").unwrap()),
        Arc::new(
            PiperVoice::load(&shared().join("models/piper/en_US-joe-medium.onnx"), &[]).unwrap(),
        ),
    ];
    for e in engines {
        let t = Instant::now();
        e.synthesize(first).unwrap();
        let cold = ms(t.elapsed());
        let mut v = Vec::new();
        for _ in 0..10 {
            let t = Instant::now();
            e.synthesize(first).unwrap();
            v.push(ms(t.elapsed()));
        }
        let worst = v.iter().cloned().fold(0.0, f64::max);
        println!(
            "| {} | {cold:.0} ms | **{:.0} ms** | {worst:.0} ms |",
            e.engine(),
            median(v)
        );
    }
}

async fn turn_bench() {
    println!("\n### End of speech to first reply audio (scripted instant LLM on loopback)\n");
    println!(
        "| engine | from PTT release (median of {RUNS}) | worst | from last speech frame | VAD trim | STT | TTS first |"
    );
    println!("|---|---|---|---|---|---|---|");
    let silero =
        Arc::new(SileroVad::load(&shared().join("models/silero-v6.2.0-ggml.bin")).unwrap());
    let stt = Arc::new(
        WhisperTranscriber::new(SttConfig::new(shared().join("models/ggml-tiny.en.bin"))).unwrap(),
    );
    stt.preload().unwrap();
    let engines: Vec<Arc<dyn Speaker>> = vec![
        Arc::new(SystemVoice::for_language("en").unwrap()),
        Arc::new(
            PiperVoice::load(&shared().join("models/piper/en_US-joe-medium.onnx"), &[]).unwrap(),
        ),
    ];
    for speaker in engines {
        speaker.synthesize("Warm up.").unwrap();
        let script = (0..RUNS)
            .map(|_| Reply::text("Opening the runs page now. Anything else?"))
            .collect();
        let server = MockServer::scripted(script).await.unwrap();
        let home = tempfile::tempdir().unwrap();
        let store = jarvis_core::config::ConfigStore::new(home.path());
        store
            .update(|c| {
                c.set("llm.base_url", &server.base_url())?;
                c.set("llm.model", "test-model")?;
                Ok(())
            })
            .unwrap();
        let brain = Brain::open(BrainOptions {
            home: home.path().to_path_buf(),
            secrets: Arc::new(MemorySecretStore::default()),
            approver: Arc::new(NoApprover),
            overrides: Overrides::default(),
            registry: None,
            resolver: None,
            sandbox_helper: None,
        })
        .unwrap();
        let mut events = brain.subscribe();
        // The user lets go of the key 300 ms after the last word.
        let mut said = read_wav_16k(&shared().join("audio/piper_1.wav")).unwrap();
        said.samples
            .extend(std::iter::repeat_n(0.0, 16_000 * 3 / 10));
        let source = WavSource::new(said, "piper_1 + 300 ms", true);
        let parts = VoiceParts {
            source: Box::new(source),
            stt: stt.clone(),
            speaker: speaker.clone(),
            sink: Arc::new(NullSink::with_speed(20.0)),
            silero: silero.clone(),
        };
        let voice =
            VoiceCoordinator::start(Arc::new(brain.clone()), parts, VoiceConfig::new("bench"))
                .unwrap();
        let (mut release, mut speech, mut vad_ms, mut stt_ms, mut tts_ms) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for _ in 0..RUNS {
            voice.press();
            loop {
                let ev = events.recv().await.unwrap();
                if let Event::VoiceTimings { timings } = ev.event {
                    release.push(timings.release_to_audio_ms.unwrap() as f64);
                    speech.push(timings.speech_end_to_audio_ms.unwrap() as f64);
                    vad_ms.push(timings.vad_ms as f64);
                    stt_ms.push(timings.stt_ms as f64);
                    tts_ms.push(timings.tts_first_ms.unwrap_or(0) as f64);
                    break;
                }
            }
            while voice.state() != jarvis_protocol::VoiceState::Idle {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
        let worst = release.iter().cloned().fold(0.0, f64::max);
        println!(
            "| {} | **{:.0} ms** | {worst:.0} ms | {:.0} ms | {:.0} ms | {:.0} ms | {:.0} ms |",
            speaker.engine(),
            median(release),
            median(speech),
            median(vad_ms),
            median(stt_ms),
            median(tts_ms)
        );
        voice.shutdown();
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if let Ok(side) = std::env::var("JARVIS_BENCH_STT_SIDE") {
        stt_side(&side);
        return;
    }
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!("# jarvis-voice benchmarks ({cores} cores)");
    stt_bench();
    if std::env::var_os("JARVIS_BENCH_STT_ONLY").is_none() {
        tts_bench();
        turn_bench().await;
    }
}
