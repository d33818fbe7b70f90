//! `jarvis listen` through the default ALSA devices: ALSA's `file` plugin
//! feeds a recording to cpal's default input device and records what rodio
//! plays. In its own test binary, so no other test competes for the CPU
//! while ALSA's null clock runs flat out.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod voice_common;

use std::path::Path;

use jarvis_testkit::{MockServer, Reply};
use jarvis_voice::accuracy::word_accuracy;
use jarvis_voice::audio::{Pcm, read_wav_16k};
use voice_common::*;

/// ALSA's default devices as files: the microphone hears `input`.
fn alsa_home(input: &Pcm, output: &Path) -> tempfile::TempDir {
    let bytes: Vec<u8> = input
        .samples
        .iter()
        .flat_map(|s| jarvis_voice::audio::to_i16(*s).to_le_bytes())
        .collect();
    jarvis_testkit::alsa_file_devices(&bytes, output).unwrap()
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
    // The natural voice, with a second of silence either side.
    let said = read_wav_16k(&shared().join("audio/piper_1.wav")).unwrap();
    let silence = vec![0.0; 16_000];
    let padded = Pcm::new([silence.clone(), said.samples, silence].concat(), 16_000);
    let alsa = alsa_home(&padded, &spk);
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
    let by = |name: &str| jarvis_testkit::doctor_check(&checks, name);
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
    // Piper samples noise inside the model on every call, and whisper tiny
    // now and then hears its "runs page" as "run stage" (seen once in six
    // runs): half of the four words is the bar. Silence, noise or a wrong
    // sentence score far below it, and the duration above already shows
    // that the reply was played.
    assert!(
        word_accuracy([("Opening the runs page.", heard_back.as_str())]) >= 50.0,
        "speaker heard {heard_back:?}"
    );
}
