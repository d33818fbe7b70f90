//! The real device paths, cpal capture and rodio playback, through ALSA's
//! `file` plugin: the default capture device reads a WAV's samples, the
//! default playback device writes what it is given to a file. ALSA reads
//! `~/.asoundrc` once per process, so each check runs in a child process
//! (this test binary again) with its own HOME.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::{Duration, Instant};

use jarvis_voice::audio::{Pcm, read_wav_16k, to_i16};
use jarvis_voice::capture::{AudioSource, MicConfig, MicSource};
use jarvis_voice::sink::{AudioSink, RodioSink, StopFlag};

const CHILD: &str = "JARVIS_ALSA_CHILD";

/// ALSA's null clock runs at CPU speed: two of these children at once
/// starve each other's capture and lose samples, so they take turns.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Run `test` in a child process with ALSA pointed at the file devices.
fn in_child(test: &str, mic: &Pcm, speaker: &Path) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let raw: Vec<u8> = mic
        .samples
        .iter()
        .flat_map(|s| to_i16(*s).to_le_bytes())
        .collect();
    let home = jarvis_testkit::alsa_file_devices(&raw, speaker).unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--nocapture", "--test-threads", "1"])
        .env(CHILD, "1")
        .env("HOME", home.path())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success() && text.contains("1 passed"), "{text}");
    for line in text.lines().filter(|l| l.starts_with("measured:")) {
        println!("{line}");
    }
}

fn shared() -> std::path::PathBuf {
    jarvis_testkit::shared_dir()
}

#[test]
fn microphone_capture_through_the_default_device() {
    if std::env::var_os(CHILD).is_none() {
        let speaker = tempfile::NamedTempFile::new().unwrap();
        in_child(
            "microphone_capture_through_the_default_device",
            &read_wav_16k(&shared().join("audio/espeak_padded_2.wav")).unwrap(),
            speaker.path(),
        );
        return;
    }
    let mut mic = MicSource::new(MicConfig::default());
    assert!(!mic.is_capturing());
    let rx = mic.open().unwrap();
    assert!(
        mic.is_capturing(),
        "the mic-in-use state is on while capturing"
    );
    let mut got = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while got.len() < 16_000 * 5 && Instant::now() < deadline {
        if let Ok(chunk) = rx.recv_timeout(Duration::from_millis(500)) {
            got.extend(chunk);
        }
    }
    mic.close();
    assert!(!mic.is_capturing(), "closed unless kept warm");
    assert!(got.len() >= 16_000 * 4, "captured {} samples", got.len());
    let stt = jarvis_voice::stt::WhisperTranscriber::new(jarvis_voice::stt::SttConfig::new(
        shared().join("models/ggml-tiny.en.bin"),
    ))
    .unwrap();
    let heard = jarvis_voice::stt::Transcriber::transcribe(&stt, &got)
        .unwrap()
        .text;
    let said = std::fs::read_to_string(shared().join("audio/transcripts.txt"))
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(
        jarvis_voice::accuracy::word_accuracy([(said.as_str(), heard.as_str())]) >= 80.0,
        "{heard}"
    );
}

#[test]
fn barge_in_cuts_rodio_playback_within_200_ms() {
    let speaker = tempfile::NamedTempFile::new().unwrap();
    if std::env::var_os(CHILD).is_none() {
        let silence = Pcm::new(vec![0.0; 1600], 16_000);
        in_child(
            "barge_in_cuts_rodio_playback_within_200_ms",
            &silence,
            speaker.path(),
        );
        // Some of the tone reached the device file, not all five minutes.
        // (The stream keeps writing silence while idle, so count the tone.)
        let bytes = std::fs::read(speaker.path()).unwrap();
        let tone = bytes
            .chunks_exact(2)
            .filter(|b| i16::from_le_bytes([b[0], b[1]]).unsigned_abs() > 100)
            .count();
        assert!(
            tone > 0 && tone < 22_050 * 300 / 2,
            "{tone} samples of tone played"
        );
        return;
    }
    let sink = RodioSink::open_default().unwrap();
    // Five minutes of tone: far longer than the test lets it play.
    let rate = 22_050;
    let tone = Pcm::new(
        (0..rate * 300)
            .map(|i| 0.3 * (i as f32 * 0.05).sin())
            .collect(),
        rate as u32,
    );
    let stop = StopFlag::new();
    let raiser = stop.clone();
    let timer = std::thread::spawn(move || {
        // Long enough for the device to start and the tone to flow.
        std::thread::sleep(Duration::from_millis(300));
        raiser.raise();
        Instant::now()
    });
    let completed = sink.play(&tone, &stop).unwrap();
    let returned = Instant::now();
    let raised = timer.join().unwrap();
    assert!(!completed, "playback ran to the end");
    let latency = returned.saturating_duration_since(raised);
    assert!(
        latency <= Duration::from_millis(200),
        "stop took {latency:?}"
    );
    println!("measured: barge-in through rodio/ALSA {latency:?}");
}

#[test]
fn a_warm_microphone_stays_open_and_hands_over_its_pre_roll() {
    if std::env::var_os(CHILD).is_none() {
        let speaker = tempfile::NamedTempFile::new().unwrap();
        in_child(
            "a_warm_microphone_stays_open_and_hands_over_its_pre_roll",
            &read_wav_16k(&shared().join("audio/espeak_padded_1.wav")).unwrap(),
            speaker.path(),
        );
        return;
    }
    let mut mic = MicSource::new(MicConfig {
        keep_warm: true,
        preroll_ms: 300,
        ..MicConfig::default()
    });
    let rx = mic.open().unwrap();
    rx.recv_timeout(Duration::from_secs(5)).unwrap();
    mic.close();
    assert!(mic.is_capturing(), "a warm mic stays open (and says so)");
    std::thread::sleep(Duration::from_millis(500));
    let rx = mic.open().unwrap();
    let first = rx.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(first.len(), 16_000 * 300 / 1000, "the pre-roll comes first");
}
