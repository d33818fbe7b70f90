//! Moves captured chunks to the controller. In conversation mode it also
//! runs the endpointer: webrtc-vad proposes an utterance, Silero confirms it,
//! and only confirmed speech reaches the controller, so noise never starts a
//! turn. webrtc-vad is not `Send`, so it lives and dies on this thread.

use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedSender;

use super::Msg;
use crate::audio::SAMPLE_RATE;
use crate::vad::{EndpointConfig, Endpointer, Segment, SileroVad, VadEvent, confirm_candidate};

/// How often an open candidate is re-checked with Silero, and over how much
/// recent audio.
/// (Stream time, not wall time: a burst from a file or a fast device is
/// judged by what it contains.)
const RECHECK_SAMPLES: usize = SAMPLE_RATE as usize;
const RECHECK_WINDOW_MS: u64 = 1500;

pub struct Endpointing {
    pub cfg: EndpointConfig,
    pub silero: Arc<SileroVad>,
}

pub fn spawn(
    listen: u64,
    chunks: Receiver<Vec<f32>>,
    endpointing: Option<Endpointing>,
    tx: UnboundedSender<Msg>,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("voice-capture".into())
        .spawn(move || {
            let Some(ep_cfg) = endpointing else {
                for chunk in chunks {
                    if tx.send(Msg::Audio { listen, chunk }).is_err() {
                        return;
                    }
                }
                let _ = tx.send(Msg::AudioEnded { listen });
                return;
            };
            let mut ep = match Endpointer::webrtc(&ep_cfg.cfg) {
                Ok(ep) => ep,
                Err(e) => {
                    tracing::warn!("VAD unavailable: {e}");
                    let _ = tx.send(Msg::AudioEnded { listen });
                    return;
                }
            };
            let mut recorded: Vec<f32> = Vec::new();
            let mut last_check = 0usize;
            for chunk in chunks {
                recorded.extend_from_slice(&chunk);
                let events = ep.push(&chunk).unwrap_or_else(|e| {
                    tracing::warn!("VAD: {e}");
                    Vec::new()
                });
                let now = Instant::now();
                if tx.send(Msg::Audio { listen, chunk }).is_err() {
                    return;
                }
                for event in events {
                    if let VadEvent::SpeechStart { .. } = event {
                        // Maybe speech: hold the silence timeout off while
                        // Silero makes up its mind (rechecks below).
                        let _ = tx.send(Msg::SpeechActive {
                            listen,
                            at_sample: recorded.len(),
                        });
                        last_check = recorded.len().saturating_sub(RECHECK_SAMPLES / 2);
                    }
                    if let VadEvent::SpeechEnd { start_ms, end_ms } = event {
                        confirm(
                            &ep_cfg.silero,
                            &recorded,
                            (start_ms, end_ms),
                            ep.position_ms(),
                            now,
                            listen,
                            &tx,
                        );
                    }
                }
                if ep.is_open() && recorded.len() - last_check >= RECHECK_SAMPLES {
                    last_check = recorded.len();
                    let from = recorded.len().saturating_sub(
                        (RECHECK_WINDOW_MS * u64::from(SAMPLE_RATE) / 1000) as usize,
                    );
                    if let Ok(Some(_)) = ep_cfg.silero.confirm(&recorded[from..]) {
                        let _ = tx.send(Msg::SpeechActive {
                            listen,
                            at_sample: recorded.len(),
                        });
                    }
                }
            }
            // The source ran out mid-utterance: it ends here.
            for event in ep.finish() {
                if let VadEvent::SpeechEnd { start_ms, end_ms } = event {
                    confirm(
                        &ep_cfg.silero,
                        &recorded,
                        (start_ms, end_ms),
                        ep.position_ms(),
                        Instant::now(),
                        listen,
                        &tx,
                    );
                }
            }
            let _ = tx.send(Msg::AudioEnded { listen });
        })?;
    Ok(())
}

/// Ask Silero about a candidate; pass a confirmed utterance on, trimmed to
/// where both VADs agree.
fn confirm(
    silero: &SileroVad,
    recorded: &[f32],
    (start_ms, end_ms): (u64, u64),
    position_ms: u64,
    now: Instant,
    listen: u64,
    tx: &UnboundedSender<Msg>,
) {
    let started = Instant::now();
    match confirm_candidate(silero, recorded, Segment { start_ms, end_ms }) {
        Ok(Some(segment)) => {
            // The endpointer fired a hangover after the last speech frame;
            // date that frame in wall time.
            let behind = Duration::from_millis(position_ms.saturating_sub(segment.end_ms));
            let speech_end_at = now.checked_sub(behind).unwrap_or(now);
            let vad_ms = started.elapsed().as_millis() as u64;
            let _ = tx.send(Msg::Utterance {
                listen,
                segment,
                speech_end_at,
                vad_ms,
            });
        }
        Ok(None) => tracing::debug!("candidate {start_ms}..{end_ms} ms was not speech"),
        Err(e) => tracing::warn!("Silero: {e}"),
    }
}
