//! The one audio queue. Replies, announcements and chimes all go through it,
//! so nothing ever plays over anything else: an announcement waits until
//! the coordinator is idle, and nothing plays while the microphone is open.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedSender;

use super::Msg;
use crate::audio::Pcm;
use crate::sink::{AudioSink, StopFlag};
use crate::tts::Speaker;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Part of the reply to turn generation `gen`.
    Reply {
        generation: u64,
    },
    Announcement,
    Chime,
}

struct Item {
    kind: Kind,
    pcm: Pcm,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Item>,
    /// Replies of older generations are dropped (barge-in).
    generation: u64,
    mic_open: bool,
    idle: bool,
    playing: Option<Kind>,
    shutdown: bool,
}

/// Shared between the coordinator and the player thread.
#[derive(Clone)]
pub struct Queue {
    state: Arc<(Mutex<State>, Condvar)>,
    pub stop: StopFlag,
}

impl Queue {
    pub fn new() -> Self {
        Self {
            state: Arc::new((
                Mutex::new(State {
                    idle: true,
                    ..State::default()
                }),
                Condvar::new(),
            )),
            stop: StopFlag::new(),
        }
    }

    fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> Option<R> {
        let (lock, cv) = &*self.state;
        let r = lock.lock().ok().map(|mut s| f(&mut s));
        cv.notify_all();
        r
    }

    pub fn push(&self, kind: Kind, pcm: Pcm) {
        self.with(|s| {
            if let Kind::Reply { generation } = kind
                && generation != s.generation
            {
                return;
            }
            s.queue.push_back(Item { kind, pcm });
        });
    }

    pub fn set_gate(&self, mic_open: bool, idle: bool) {
        self.with(|s| {
            s.mic_open = mic_open;
            s.idle = idle;
        });
    }

    /// Barge-in: cut what plays now and forget queued replies.
    pub fn interrupt(&self, new_generation: u64) {
        // Under the lock, so it cannot fall between `next` picking an item
        // and clearing the flag.
        self.with(|s| {
            s.generation = new_generation;
            s.queue.retain(|i| !matches!(i.kind, Kind::Reply { .. }));
            self.stop.raise();
        });
    }

    pub fn generation(&self) -> u64 {
        self.with(|s| s.generation).unwrap_or(0)
    }

    pub fn is_playing(&self) -> bool {
        self.with(|s| s.playing.is_some()).unwrap_or(false)
    }

    pub fn shutdown(&self) {
        self.stop.raise();
        self.with(|s| s.shutdown = true);
    }

    /// The next item the gate lets through, waiting for one.
    fn next(&self) -> Option<Item> {
        let (lock, cv) = &*self.state;
        let mut s = lock.lock().ok()?;
        loop {
            if s.shutdown {
                return None;
            }
            if !s.mic_open {
                let generation = s.generation;
                let replies_pending = s.queue.iter().any(|i| matches!(i.kind, Kind::Reply { .. }));
                let idle = s.idle;
                let pick = s.queue.iter().position(|i| match i.kind {
                    Kind::Reply { generation: g } => g == generation,
                    Kind::Chime => true,
                    Kind::Announcement => idle && !replies_pending,
                });
                if let Some(at) = pick {
                    let item = s.queue.remove(at)?;
                    s.playing = Some(item.kind);
                    // Cleared under the lock, after the generation check, so a
                    // barge-in raised from here on cuts this item.
                    self.stop.clear();
                    return Some(item);
                }
            }
            s = cv.wait_timeout(s, Duration::from_millis(50)).ok()?.0;
        }
    }

    fn done_playing(&self) {
        self.with(|s| s.playing = None);
    }
}

/// The player thread: plays what the queue lets through and tells the
/// coordinator when a reply clip starts and ends.
pub fn spawn_player(
    queue: Queue,
    sink: Arc<dyn AudioSink>,
    tx: UnboundedSender<Msg>,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("voice-player".into())
        .spawn(move || {
            while let Some(item) = queue.next() {
                let started = Instant::now();
                if let Kind::Reply { generation } = item.kind {
                    let _ = tx.send(Msg::AudioStarted {
                        generation,
                        at: started,
                    });
                }
                let result = sink.play(&item.pcm, &queue.stop);
                queue.done_playing();
                if let Err(e) = &result {
                    tracing::warn!("playback failed: {e}");
                }
                if let Kind::Reply { generation } = item.kind {
                    let _ = tx.send(Msg::AudioFinished {
                        generation,
                        at: Instant::now(),
                        error: result.err().map(|e| e.to_string()),
                    });
                }
            }
        })?;
    Ok(())
}

/// A sentence (or announcement) to synthesize.
pub struct SynthJob {
    pub kind: Kind,
    pub text: String,
}

/// The synthesis thread: speaks jobs in order into the queue, so sentence
/// N+1 is synthesized while sentence N plays.
pub fn spawn_synth(
    queue: Queue,
    speaker: Arc<dyn Speaker>,
    jobs: std::sync::mpsc::Receiver<SynthJob>,
    tx: UnboundedSender<Msg>,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("voice-tts".into())
        .spawn(move || {
            for job in jobs {
                if let Kind::Reply { generation } = job.kind
                    && generation != queue.generation()
                {
                    let _ = tx.send(Msg::Synthesized {
                        generation,
                        ms: 0,
                        error: Some("interrupted".into()),
                    });
                    continue;
                }
                let started = Instant::now();
                let result = speaker.synthesize(&job.text);
                let ms = started.elapsed().as_millis() as u64;
                let error = match result {
                    Ok(pcm) if pcm.samples.is_empty() => Some("nothing to say".to_string()),
                    Ok(pcm) => {
                        let pcm = if job.kind == Kind::Announcement {
                            with_chime(pcm)
                        } else {
                            pcm
                        };
                        queue.push(job.kind, pcm);
                        None
                    }
                    Err(e) => Some(e.to_string()),
                };
                if let Kind::Reply { generation } = job.kind {
                    let _ = tx.send(Msg::Synthesized {
                        generation,
                        ms,
                        error,
                    });
                } else if let Some(e) = error {
                    tracing::warn!("announcement not spoken: {e}");
                }
            }
        })?;
    Ok(())
}

/// An announcement starts with the chime and a breath of silence, in one
/// clip, so nothing can be queued between them and the chime never plays
/// while the gate holds the words back.
pub fn with_chime(speech: Pcm) -> Pcm {
    let rate = speech.rate;
    let mut samples = chime_at(rate).samples;
    samples.extend(std::iter::repeat_n(0.0, (rate / 8) as usize));
    samples.extend(speech.samples);
    Pcm::new(samples, rate)
}

/// The chime's length, in samples, before an announcement at `rate`.
pub fn chime_lead(rate: u32) -> usize {
    chime_at(rate).samples.len() + (rate / 8) as usize
}

/// A short two-tone chime.
pub fn chime() -> Pcm {
    chime_at(22_050)
}

fn chime_at(rate: u32) -> Pcm {
    let mut samples = Vec::new();
    for (freq, ms) in [(660.0f32, 70u32), (880.0, 90)] {
        let n = (rate * ms / 1000) as usize;
        for i in 0..n {
            let t = i as f32 / rate as f32;
            let envelope = (1.0 - i as f32 / n as f32).min(i as f32 / 200.0).min(1.0);
            samples.push(0.3 * envelope * (2.0 * std::f32::consts::PI * freq * t).sin());
        }
    }
    Pcm::new(samples, rate)
}
