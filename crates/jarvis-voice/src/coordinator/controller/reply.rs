//! The reply half of a spoken turn: the brain's streamed text becomes
//! sentences, sentences become speech, and the turn ends when the last one
//! has played.

use std::time::Instant;

use jarvis_protocol::{Event, HostEvent, StopReason};

use super::{Controller, Turn, ms_between};
use crate::coordinator::playback::{Kind, SynthJob};

impl Controller {
    pub(super) fn on_brain(&mut self, event: Event) {
        let Some(turn) = self.turn.as_mut() else {
            return;
        };
        // Events of a turn we talked over can still arrive; ours begin
        // with its TurnStarted.
        if let Event::TurnStarted { turn_id } = &event {
            if turn.turn_id.is_none() {
                turn.turn_id = Some(turn_id.clone());
            }
            return;
        }
        if turn.turn_id.is_none() {
            return;
        }
        match event {
            Event::TurnFinished { turn_id, .. }
                if turn.turn_id.as_deref() != Some(turn_id.as_str()) => {}
            Event::ContentDelta { text } => {
                let now = Instant::now();
                if turn.timings.llm_first_text_ms.is_none() {
                    turn.timings.llm_first_text_ms = turn.submitted.map(|s| ms_between(s, now));
                }
                for sentence in turn.splitter.push(&text) {
                    if turn.timings.first_sentence_ms.is_none() {
                        turn.timings.first_sentence_ms = turn.submitted.map(|s| ms_between(s, now));
                    }
                    turn.sent += 1;
                    let _ = self.w.synth.send(SynthJob {
                        kind: Kind::Reply {
                            generation: turn.generation,
                        },
                        text: sentence,
                    });
                }
            }
            Event::TurnFinished { stop, .. } => {
                if let Some(last) = turn.splitter.finish() {
                    if turn.timings.first_sentence_ms.is_none() {
                        turn.timings.first_sentence_ms =
                            turn.submitted.map(|s| ms_between(s, Instant::now()));
                    }
                    turn.sent += 1;
                    let _ = self.w.synth.send(SynthJob {
                        kind: Kind::Reply {
                            generation: turn.generation,
                        },
                        text: last,
                    });
                }
                turn.llm_done = true;
                if stop == StopReason::Failed && turn.sent == 0 {
                    self.notice("the brain could not answer");
                }
                self.check_turn_done();
            }
            _ => {}
        }
    }

    pub(super) fn on_synthesized(&mut self, generation: u64, ms: u64, error: Option<String>) {
        let Some(t) = self.turn.as_mut().filter(|t| t.generation == generation) else {
            return;
        };
        if t.timings.tts_first_ms.is_none() {
            t.timings.tts_first_ms = Some(ms);
        }
        if let Some(e) = error {
            // Never plays: count it as done so the turn can end.
            t.played += 1;
            if e != "nothing to say" {
                self.notice(format!("speech failed: {e}"));
            }
            self.check_turn_done();
        }
    }

    pub(super) fn check_turn_done(&mut self) {
        let done = self
            .turn
            .as_ref()
            .is_some_and(|t| t.llm_done && t.played >= t.sent);
        if !done {
            return;
        }
        if let Some(t) = self.turn.take() {
            self.emit_timings(&t);
        }
        self.after_turn();
    }

    pub(super) fn emit_timings(&self, t: &Turn) {
        let mut timings = t.timings.clone();
        let end_of_speech = t.speech_end_at.or(t.release_at);
        let last = t.last_audio.unwrap_or_else(Instant::now);
        timings.total_ms = end_of_speech.map(|e| ms_between(e, last)).unwrap_or(0);
        self.emit(HostEvent::VoiceTimings { timings });
    }
}
