//! PCM plumbing: file reading at any rate and the live-stream resampler a
//! microphone at 44.1/48 kHz goes through.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use jarvis_voice::audio::{
    Pcm, StreamResampler, parse_streamed_wav, read_wav_16k, resample, wav_bytes,
};

fn correlation_at_best_lag(a: &[f32], b: &[f32]) -> f64 {
    let energy: f64 = a.iter().map(|x| f64::from(x * x)).sum();
    (-200i64..200)
        .map(|lag| {
            a.iter()
                .enumerate()
                .filter_map(|(i, x)| {
                    let j = i as i64 + lag;
                    (j >= 0 && (j as usize) < b.len()).then(|| f64::from(x * b[j as usize]))
                })
                .sum::<f64>()
                / energy
        })
        .fold(f64::MIN, f64::max)
}

#[test]
fn a_48k_stream_in_odd_chunks_comes_back_as_the_same_16k_audio() {
    let clip =
        read_wav_16k(&jarvis_testkit::shared_dir().join("audio/espeak_padded_1.wav")).unwrap();
    let up = resample(&clip.samples, 16_000, 48_000).unwrap();
    assert_eq!(up.len(), clip.samples.len() * 3);
    let mut stream = StreamResampler::new(48_000, 16_000).unwrap();
    let mut back = Vec::new();
    for chunk in up.chunks(1103) {
        back.extend(stream.push(chunk).unwrap());
    }
    // Within one 10 ms chunk of the input length, and the same signal.
    assert!(
        clip.samples.len() - back.len() <= 160,
        "{} vs {}",
        back.len(),
        clip.samples.len()
    );
    let c = correlation_at_best_lag(&clip.samples, &back);
    assert!(c > 0.98, "correlation {c}");
}

#[test]
fn streamed_wav_headers_with_placeholder_lengths_parse() {
    let pcm = Pcm::new(vec![0.0, 0.5, -0.5, 0.25], 22_050);
    let mut bytes = wav_bytes(&pcm);
    // What espeak-ng --stdout writes: lengths it cannot know yet.
    bytes[4..8].copy_from_slice(&0x7fff_f000u32.to_le_bytes());
    bytes[40..44].copy_from_slice(&0x7fff_f000u32.to_le_bytes());
    let back = parse_streamed_wav(&bytes).unwrap();
    assert_eq!(back.rate, 22_050);
    assert_eq!(back.samples.len(), 4);
    assert!((back.samples[1] - 0.5).abs() < 1e-3);
    assert!(parse_streamed_wav(b"RIFF\\0\\0\\0\\0WAVE").is_err());
    assert!(
        parse_streamed_wav(b"not a wav")
            .unwrap_err()
            .to_string()
            .contains("RIFF")
    );
}

#[test]
fn a_broken_wav_file_is_named_in_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("broken.wav");
    std::fs::write(&p, b"RIFF....WAVEfmt garbage").unwrap();
    let err = read_wav_16k(&p).unwrap_err().to_string();
    assert!(err.contains("broken.wav"), "{err}");
}
