//! `jarvis listen`, `say` and `models` as a user runs them: the real binary,
//! real models, a scripted LLM on loopback, and for the microphone and the
//! speakers ALSA's `file` plugin, which feeds a WAV to cpal's default input
//! device and records what rodio plays.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use jarvis_testkit::{FileServer, MockServer, Reply};
use jarvis_voice::accuracy::word_accuracy;
use jarvis_voice::audio::{Pcm, read_wav, read_wav_16k};

fn shared() -> PathBuf {
    jarvis_testkit::shared_dir()
}

/// A JARVIS_HOME with the shared models in place, as `jarvis models install`
/// leaves them.
fn home_with_models() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let m = home.path().join("models");
    std::fs::create_dir_all(m.join("piper")).unwrap();
    for f in [
        "ggml-tiny.en.bin",
        "silero-v6.2.0-ggml.bin",
        "piper/en_US-joe-medium.onnx",
        "piper/en_US-joe-medium.onnx.json",
    ] {
        std::os::unix::fs::symlink(shared().join("models").join(f), m.join(f)).unwrap();
    }
    home
}

fn jarvis(home: &Path, base_url: Option<&str>, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_jarvis"));
    cmd.args(args)
        .env("JARVIS_HOME", home)
        .env("JARVIS_MODEL", "test-model")
        .env_remove("JARVIS_AGENT_EXEC");
    if let Some(u) = base_url {
        cmd.env("JARVIS_BASE_URL", u);
    }
    cmd
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn transcript(n: usize) -> String {
    std::fs::read_to_string(shared().join("audio/transcripts.txt"))
        .unwrap()
        .lines()
        .nth(n - 1)
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn say_with_piper_then_listen_round_trips() {
    let home = home_with_models();
    let dir = tempfile::tempdir().unwrap();
    let mut pairs = Vec::new();
    for n in 1..=4 {
        let wav = dir.path().join(format!("said_{n}.wav"));
        let said = transcript(n);
        let o = jarvis(
            home.path(),
            None,
            &[
                "say",
                &said,
                "--engine",
                "piper",
                "--out",
                wav.to_str().unwrap(),
            ],
        )
        .output()
        .unwrap();
        let (_, err) = text(&o);
        assert!(o.status.success(), "{err}");
        assert!(err.contains("piper engine"), "{err}");
        let ours = read_wav(&wav).unwrap();
        let reference = read_wav(&shared().join(format!("audio/piper_{n}.wav"))).unwrap();
        let ratio = ours.duration_ms() as f64 / reference.duration_ms() as f64;
        assert!(
            (0.85..=1.15).contains(&ratio),
            "{n}: {} vs {} ms",
            ours.duration_ms(),
            reference.duration_ms()
        );
        let o = jarvis(
            home.path(),
            None,
            &[
                "listen",
                "--wav",
                wav.to_str().unwrap(),
                "--transcribe-only",
            ],
        )
        .output()
        .unwrap();
        let (out, err) = text(&o);
        assert!(o.status.success(), "{err}");
        pairs.push((said, out.trim().to_string()));
    }
    // Over the whole set, as the fixtures' wer.py counts it.
    let acc = word_accuracy(pairs.iter().map(|(a, b)| (a.as_str(), b.as_str())));
    assert!(acc >= 95.0, "{acc:.1} %: {pairs:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listen_wav_json_reports_every_stage_and_writes_the_reply() {
    let server = MockServer::scripted(vec![Reply::text(
        "Your recent tasks all finished. Nothing failed.",
    )])
    .await
    .unwrap();
    let home = home_with_models();
    let out_wav = home.path().join("reply.wav");
    let wav = shared().join("audio/piper_2.wav");
    let o = jarvis(
        home.path(),
        Some(&server.base_url()),
        &[
            "listen",
            "--wav",
            wav.to_str().unwrap(),
            "--json",
            "--engine",
            "system",
            "--out",
            out_wav.to_str().unwrap(),
        ],
    )
    .output()
    .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let events: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    for k in [
        "voice_state",
        "voice_transcript",
        "turn_started",
        "content_delta",
        "turn_finished",
        "voice_timings",
    ] {
        assert!(kinds.contains(&k), "{k} missing: {kinds:?}");
    }
    let heard = events
        .iter()
        .find(|e| e["type"] == "voice_transcript")
        .unwrap()["text"]
        .as_str()
        .unwrap();
    assert_eq!(
        word_accuracy([(transcript(2).as_str(), heard)]),
        100.0,
        "{heard}"
    );
    let t = &events
        .iter()
        .find(|e| e["type"] == "voice_timings")
        .unwrap()["timings"];
    assert!(
        t["stt_ms"].as_u64().unwrap() > 0 && t["release_to_audio_ms"].is_u64(),
        "{t}"
    );
    let reply = read_wav(&out_wav).unwrap();
    assert!(reply.duration_ms() > 1500, "{} ms", reply.duration_ms());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn models_install_verify_remove_from_a_mirror() {
    let src = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        shared().join("models/silero-v6.2.0-ggml.bin"),
        src.path().join("silero-v6.2.0-ggml.bin"),
    )
    .unwrap();
    let server = FileServer::start(src.path().to_path_buf(), Some(300_000))
        .await
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let (h, url) = (home.path().to_path_buf(), server.base_url());
    let run = move |args: &[&str]| {
        jarvis(&h, None, args)
            .env("JARVIS_MODELS_MIRROR", &url)
            .output()
            .unwrap()
    };
    let o = run(&["models", "install", "silero-vad"]);
    assert!(!o.status.success(), "the first attempt is cut short");
    assert!(
        text(&o).1.contains("run install again to resume"),
        "{}",
        text(&o).1
    );
    let o = run(&["models", "install", "silero-vad"]);
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(
        server
            .requests()
            .iter()
            .any(|r| r.header("range").is_some()),
        "resumed with a Range request"
    );
    let o = run(&["models", "verify", "silero-vad"]);
    assert!(
        o.status.success() && text(&o).1.contains("match"),
        "{}",
        text(&o).1
    );
    let o = run(&["models", "list", "--json"]);
    let list: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        list.as_array()
            .unwrap()
            .iter()
            .filter(|m| m["installed"] == true)
            .count(),
        1
    );
    let o = run(&["models", "remove", "silero-vad"]);
    assert!(o.status.success());
    assert!(!home.path().join("models/silero-v6.2.0-ggml.bin").exists());
    // An agent-run jarvis may not install models.
    let o = run(&["models", "install", "silero-vad"]);
    assert!(o.status.success());
    let o = jarvis(home.path(), None, &["models", "remove", "silero-vad"])
        .env("JARVIS_AGENT_EXEC", "1")
        .output()
        .unwrap();
    assert!(
        !o.status.success() && text(&o).1.contains("refused"),
        "{}",
        text(&o).1
    );
}

/// `~/.asoundrc` whose default device captures from `input` (raw 16-bit
/// 16 kHz mono) and plays into `output` (raw 16-bit 22.05 kHz mono).
fn alsa_home(input: &Pcm, output: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("mic.raw");
    let bytes: Vec<u8> = input
        .samples
        .iter()
        .flat_map(|s| jarvis_voice::audio::to_i16(*s).to_le_bytes())
        .collect();
    std::fs::write(&raw, bytes).unwrap();
    let conf = format!(
        r#"pcm.filemic {{ type file; slave.pcm "null"; file "/dev/null"; infile "{mic}"; format "raw" }}
pcm.filespk {{ type file; slave.pcm "null"; file "{spk}"; format "raw" }}
pcm.!default {{
  type asym
  capture.pcm {{ type plug; slave {{ pcm "filemic"; format S16_LE; rate 16000; channels 1 }} }}
  playback.pcm {{ type plug; slave {{ pcm "filespk"; format S16_LE; rate 22050; channels 1 }} }}
}}
"#,
        mic = raw.display(),
        spk = output.display()
    );
    std::fs::write(dir.path().join(".asoundrc"), conf).unwrap();
    dir
}

fn read_raw(path: &Path, rate: u32) -> Pcm {
    let bytes = std::fs::read(path).unwrap_or_default();
    Pcm::new(
        bytes
            .chunks_exact(2)
            .map(|b| f32::from(i16::from_le_bytes([b[0], b[1]])) / 32768.0)
            .collect(),
        rate,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listen_through_the_default_alsa_devices() {
    let server = MockServer::scripted(vec![Reply::text("Opening the runs page.")])
        .await
        .unwrap();
    let home = home_with_models();
    let spk = home.path().join("speaker.raw");
    let alsa = alsa_home(
        &read_wav_16k(&shared().join("audio/espeak_padded_1.wav")).unwrap(),
        &spk,
    );
    let o = jarvis(
        home.path(),
        Some(&server.base_url()),
        &["listen", "--engine", "piper"],
    )
    .env("HOME", alsa.path())
    .output()
    .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let doctor = jarvis(home.path(), Some(&server.base_url()), &["doctor", "--json"])
        .env("HOME", alsa.path())
        .output()
        .unwrap();
    let checks: serde_json::Value = serde_json::from_slice(&doctor.stdout).unwrap();
    let by = |name: &str| {
        checks
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["check"] == name)
            .cloned()
            .unwrap()
    };
    for name in ["stt model", "vad model", "microphone"] {
        assert_eq!(by(name)["ok"], true, "{name}: {}", by(name));
    }
    assert!(
        by("voice")["detail"].as_str().unwrap().contains("engine"),
        "{}",
        by("voice")
    );
    let heard = err
        .lines()
        .find_map(|l| l.strip_prefix("🎤 "))
        .unwrap_or_default();
    assert!(
        word_accuracy([(transcript(1).as_str(), heard)]) >= 80.0,
        "heard {heard:?}\n{err}"
    );
    assert!(out.contains("Opening the runs page."), "{out}");
    // What rodio played reached the speaker file: the reply, spoken. ALSA's
    // null device takes samples as fast as they come, so the stream's idle
    // silence surrounds it; the speech is where the signal is.
    let played = read_raw(&spk, 22_050);
    let first = played
        .samples
        .iter()
        .position(|s| s.abs() > 0.02)
        .expect("nothing audible was played");
    let last = played.samples.iter().rposition(|s| s.abs() > 0.02).unwrap();
    let speech = Pcm::new(
        played.samples[first.saturating_sub(2_000)..(last + 2_000).min(played.samples.len())]
            .to_vec(),
        22_050,
    );
    assert!(
        speech.duration_ms() > 800 && speech.duration_ms() < 5_000,
        "{} ms of speech",
        speech.duration_ms()
    );
    let heard_back = {
        use jarvis_voice::stt::Transcriber;
        let t = jarvis_voice::stt::WhisperTranscriber::new(jarvis_voice::stt::SttConfig::new(
            shared().join("models/ggml-tiny.en.bin"),
        ))
        .unwrap();
        t.transcribe(&speech.resampled(16_000).unwrap().samples)
            .unwrap()
            .text
    };
    assert!(
        word_accuracy([("Opening the runs page.", heard_back.as_str())]) >= 75.0,
        "speaker heard {heard_back:?}"
    );
}
