//! The voice coordinator driving a real brain (scripted OpenAI server on
//! loopback), real whisper and VAD models, real TTS engines; only the
//! microphone (a person speaking) and the speakers (a real-time null sink)
//! are stand-ins.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use jarvis_protocol::{Event, StopReason, VoiceState};
use jarvis_testkit::{Piece, Reply, chunk};
use jarvis_voice::accuracy::word_accuracy;
use jarvis_voice::sink::NullSink;
use jarvis_voice::tts::{PiperVoice, Speaker, SystemVoice};

fn espeak() -> Arc<dyn Speaker> {
    Arc::new(SystemVoice::for_language("en").unwrap())
}

fn last_user_message(rig: &Rig) -> String {
    let req = rig.server.chat_requests().last().unwrap().json();
    let msgs = req["messages"].as_array().unwrap();
    msgs.iter().rev().find(|m| m["role"] == "user").unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_to_talk_turn_is_heard_answered_and_spoken_sentence_by_sentence() {
    let piper: Arc<dyn Speaker> = Arc::new(
        PiperVoice::load(&shared().join("models/piper/en_US-joe-medium.onnx"), &[]).unwrap(),
    );
    let mic = ScriptedMic::new(vec![(clip("piper_1.wav"), false)]);
    let reply = "Opening the runs page now. It lists what I did today.";
    let mut rig = rig(
        vec![Reply::text(reply)],
        mic,
        piper,
        NullSink::with_speed(4.0),
        |_| {},
    )
    .await;
    rig.voice.press();
    let seen = rig
        .until(60, |e| matches!(e, Event::VoiceTimings { .. }))
        .await;
    let more = rig.until_state(10, VoiceState::Idle).await;
    let all: Vec<Event> = seen.into_iter().chain(more).collect();
    assert_eq!(
        states(&all),
        [
            VoiceState::Listening,
            VoiceState::Transcribing,
            VoiceState::Thinking,
            VoiceState::Speaking,
            VoiceState::Idle
        ]
    );
    let heard = transcripts_in(&all).remove(0);
    let said = &transcripts()[0];
    assert_eq!(
        word_accuracy([(said.as_str(), heard.as_str())]),
        100.0,
        "{heard}"
    );
    assert_eq!(
        last_user_message(&rig),
        heard,
        "the transcript is what the model got"
    );
    // Two sentences, two clips, one after the other.
    let played = rig.sink.played();
    assert_eq!(played.len(), 2, "{played:?}");
    assert!(played[1].started >= played[0].ended);
    let timings = timings_in(&all);
    assert!(timings.stt_ms > 0 && timings.audio_ms > 1000, "{timings:?}");
    let release = timings.release_to_audio_ms.unwrap();
    let speech_end = timings.speech_end_to_audio_ms.unwrap();
    assert!(
        speech_end >= release,
        "the last speech frame comes before the release: {timings:?}"
    );
    assert!(
        timings.tts_first_ms.is_some() && timings.first_sentence_ms.is_some(),
        "{timings:?}"
    );
    // The mic was on only while listening.
    let mic: Vec<bool> = all
        .iter()
        .filter_map(|e| match e {
            Event::VoiceMic { capturing } => Some(*capturing),
            _ => None,
        })
        .collect();
    assert_eq!(mic, [true, false]);
    // The HUD's meter saw the voice.
    let loudest = all
        .iter()
        .filter_map(|e| match e {
            Event::VoiceLevel { level } => Some(*level),
            _ => None,
        })
        .fold(0.0f32, f32::max);
    assert!(loudest > 0.0, "no VoiceLevel with sound in it");
}

/// A reply long enough to talk over.
fn long_reply() -> Reply {
    Reply::text(
        "Here is a long answer. It has many sentences. Each one takes a while to say. \
         You will want to interrupt me. Please do so now. I will keep talking otherwise.",
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn barge_in_stops_speech_within_200_ms_and_listens() {
    let mic = ScriptedMic::new(vec![(clip("piper_2.wav"), false)]);
    let mut rig = rig(vec![long_reply()], mic, espeak(), NullSink::new(), |_| {}).await;
    rig.voice.press();
    rig.until_state(60, VoiceState::Speaking).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let pressed = Instant::now();
    rig.voice.press();
    rig.until_state(5, VoiceState::Listening).await;
    // The clip that was playing was cut short, soon after the press.
    eventually(2, "speech to be cut", || {
        rig.sink.played().iter().any(|p| !p.completed)
    })
    .await;
    let cut = rig
        .sink
        .played()
        .into_iter()
        .find(|p| !p.completed)
        .unwrap();
    let latency = cut.ended.saturating_duration_since(pressed);
    assert!(
        latency <= Duration::from_millis(200),
        "barge-in took {latency:?}"
    );
    // Nothing of the old reply plays after the cut.
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(
        rig.sink.played().iter().all(|p| p.started <= cut.ended),
        "{:?}",
        rig.sink.played()
    );
    rig.voice.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saying_stop_cancels_the_running_turn() {
    let voice = espeak();
    let stop = voice
        .synthesize("Stop.")
        .unwrap()
        .resampled(16_000)
        .unwrap();
    let mic = ScriptedMic::new(vec![(clip("piper_2.wav"), false), (stop, false)]);
    // The model says one sentence, then hangs (a slow model).
    let slow = Reply::Stream {
        pieces: vec![
            Piece::Bytes(
                format!("data: {}\n\n", chunk(serde_json::json!({"role": "assistant", "content": "Let me check your tasks. "}), None))
                    .into_bytes(),
            ),
            Piece::StallForever,
        ],
    };
    let mut rig = rig(vec![slow], mic, voice, NullSink::new(), |_| {}).await;
    rig.voice.press();
    let seen = rig.until_state(60, VoiceState::Speaking).await;
    assert!(rig.brain.is_running(&rig.session), "{seen:#?}");
    rig.voice.press();
    let seen = rig
        .until(30, |e| {
            matches!(
                e,
                Event::TurnFinished {
                    stop: StopReason::Cancelled,
                    ..
                }
            )
        })
        .await;
    assert!(
        seen.iter().any(|e| matches!(e, Event::VoiceTranscript { text, .. } if text.to_lowercase().contains("stop"))),
        "{seen:#?}"
    );
    if !states(&seen).ends_with(&[VoiceState::Idle]) {
        rig.until_state(5, VoiceState::Idle).await;
    }
    // The turn's slot is freed just after its last event.
    eventually(2, "the turn to end", || !rig.brain.is_running(&rig.session)).await;
    assert_eq!(
        rig.server.chat_requests().len(),
        1,
        "'stop' is not sent to the model"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn announcements_wait_for_idle_and_never_overlap_speech() {
    let mic = ScriptedMic::new(vec![
        (clip("silence_3s.wav"), true),
        (clip("piper_3.wav"), false),
    ]);
    let mut rig = rig(
        vec![Reply::text(
            "Timer set for ten minutes. I will remind you about the oven.",
        )],
        mic,
        espeak(),
        NullSink::with_speed(2.0),
        |_| {},
    )
    .await;
    // While the mic is open nothing plays.
    rig.voice.press();
    rig.until_state(5, VoiceState::Listening).await;
    rig.voice.announce("Your build has finished.");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(
        rig.sink.played().is_empty(),
        "played over an open microphone"
    );
    let released = Instant::now();
    rig.voice.release();
    let seen = rig.until_state(20, VoiceState::Idle).await;
    assert!(
        seen.iter().any(
            |e| matches!(e, Event::VoiceNotice { message } if message.contains("didn't catch"))
        ),
        "{seen:#?}"
    );
    eventually(10, "the announcement", || !rig.sink.played().is_empty()).await;
    assert!(rig.sink.played()[0].started >= released);
    // During a reply it waits for the reply to end.
    rig.voice.press();
    rig.until_state(60, VoiceState::Speaking).await;
    rig.voice.announce("Reminder: the oven.");
    rig.until_state(30, VoiceState::Idle).await;
    eventually(10, "two replies and two announcements", || {
        rig.sink.played().len() >= 4
    })
    .await;
    let played = rig.sink.played();
    for pair in played.windows(2) {
        assert!(pair[1].started >= pair[0].ended, "overlap: {played:?}");
    }
    let announcement = &played[3];
    assert!(played[1].ended <= announcement.started && played[2].ended <= announcement.started);
}

/// The hub's case: three tasks finish while Jarvis is answering. Each
/// announcement is spoken once, after the reply, in the order the tasks
/// finished, never over anything, each with the chime first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_announcements_during_a_reply_follow_it_in_order_each_with_a_chime() {
    let mic = ScriptedMic::new(vec![(clip("piper_3.wav"), false)]);
    let reply = "Here is the long answer you asked for. It has two sentences.";
    let mut rig = rig(
        vec![Reply::text(reply)],
        mic,
        espeak(),
        NullSink::with_speed(2.0),
        |_| {},
    )
    .await;
    let texts = [
        "Your inbox summary is ready.",
        "The nightly build failed: two tests.",
        "Report on solar panels is ready, three pages long.",
    ];
    rig.voice.press();
    rig.until_state(60, VoiceState::Speaking).await;
    for t in texts {
        rig.voice.announce(t);
    }
    rig.until_state(30, VoiceState::Idle).await;
    eventually(20, "the three announcements", || {
        rig.sink.played().len() >= 5
    })
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let played = rig.sink.played();
    assert_eq!(
        played.len(),
        5,
        "two reply sentences and three announcements, each once: {played:?}"
    );
    for pair in played.windows(2) {
        assert!(pair[1].started >= pair[0].ended, "overlap: {played:?}");
    }
    // Which clip is which: the same voice speaks each text alone.
    let voice = espeak();
    for (i, t) in texts.iter().enumerate() {
        let alone = voice.synthesize(t).unwrap();
        let expected = jarvis_voice::coordinator::chime_lead(alone.rate) + alone.samples.len();
        assert_eq!(
            played[2 + i].samples,
            expected,
            "announcement {i} ({t}) is clip {}, chime first: {played:?}",
            2 + i
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conversation_mode_answers_each_utterance_and_noise_starts_nothing() {
    let mic = ScriptedMic::new(vec![
        (clip("white_noise.wav"), true),
        (clip("espeak_padded_1.wav"), true),
        (clip("silence_3s.wav"), true),
    ]);
    let mut rig = rig(
        vec![Reply::text("The runs page is open.")],
        mic,
        espeak(),
        NullSink::with_speed(4.0),
        |c| c.silence_timeout = Duration::from_secs(2),
    )
    .await;
    // Noise alone: listening ends at the silence timeout with no turn.
    rig.voice.converse();
    let noise = rig.until_state(30, VoiceState::Idle).await;
    assert_eq!(
        states(&noise),
        [VoiceState::Listening, VoiceState::Idle],
        "{noise:#?}"
    );
    assert!(
        !noise
            .iter()
            .any(|e| matches!(e, Event::VoiceTranscript { .. }))
    );
    // Speech: one turn, then it listens again, hears silence and goes idle.
    rig.voice.converse();
    let seen = rig
        .until(60, |e| matches!(e, Event::VoiceTimings { .. }))
        .await;
    let transcripts = transcripts_in(&seen);
    assert_eq!(transcripts.len(), 1, "noise became a turn: {transcripts:?}");
    assert!(
        word_accuracy([(transcripts[0].as_str(), "Jarvis, open the runs page.")]) >= 80.0,
        "{transcripts:?}"
    );
    let timings = timings_in(&seen);
    assert!(
        timings.speech_end_to_audio_ms.is_some() && timings.release_to_audio_ms.is_none(),
        "{timings:?}"
    );
    let after = rig.until_state(30, VoiceState::Idle).await;
    assert!(
        states(&after).contains(&VoiceState::Listening),
        "{after:#?}"
    );
    assert_eq!(rig.server.chat_requests().len(), 1);
}
