//! The one event stream every host subscribes to.
//!
//! Each subscriber has its own queue. Lifecycle events (a turn started or
//! finished, a tool call finished, approvals, notices, errors) carry a
//! sequence number and are never dropped; text deltas and voice levels are
//! the only events a subscriber that falls far behind loses, so a host that
//! stalls costs bounded memory, and one that keeps up gets everything (a
//! broadcast ring would drop the oldest events of any kind instead).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, Weak};

use jarvis_protocol::{Event, EventEnvelope};
use tokio::sync::Notify;

/// Bytes of text deltas a subscriber may have waiting before new ones are
/// dropped for it: seconds of the fastest model, far more than a live host
/// ever holds.
const DELTA_BACKLOG_BYTES: usize = 8 * 1024 * 1024;
/// Deltas waiting for one subscriber before new ones are dropped for it.
const MAX_DELTAS: usize = 100_000;
/// Events of any kind waiting for one subscriber: a host that stopped
/// reading altogether must not grow without bound. Only a host that let
/// this many lifecycle events pile up loses any (and is told, `Lagged`, to
/// take a snapshot).
const MAX_BACKLOG: usize = 200_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RecvError {
    /// This many events were dropped for this subscriber (deltas only,
    /// unless it stopped reading for `MAX_BACKLOG` events).
    #[error("missed {0} events")]
    Lagged(u64),
    #[error("the brain is gone")]
    Closed,
}

/// Events that may be dropped for a subscriber that falls far behind.
pub fn is_lossy(event: &Event) -> bool {
    matches!(
        event,
        Event::ContentDelta { .. }
            | Event::ReasoningDelta { .. }
            | Event::ToolCallArgumentsDelta { .. }
            | Event::VoiceLevel { .. }
    )
}

fn delta_bytes(event: &Event) -> usize {
    match event {
        Event::ContentDelta { text } | Event::ReasoningDelta { text } => text.len(),
        Event::ToolCallArgumentsDelta { delta, .. } => delta.len(),
        _ => 16,
    }
}

#[derive(Default)]
struct Backlog {
    items: VecDeque<EventEnvelope>,
    deltas: usize,
    delta_bytes: usize,
    missed: u64,
    closed: bool,
}

#[derive(Default)]
struct Queue {
    backlog: Mutex<Backlog>,
    ready: Notify,
}

impl Queue {
    fn push(&self, env: &EventEnvelope) {
        let Ok(mut b) = self.backlog.lock() else {
            return;
        };
        let lossy = is_lossy(&env.event);
        if lossy && (b.delta_bytes > DELTA_BACKLOG_BYTES || b.deltas >= MAX_DELTAS) {
            b.missed += 1;
            return;
        }
        if b.items.len() >= MAX_BACKLOG {
            // The oldest delta goes first; a lifecycle event only for
            // another lifecycle event, when nothing else is left to give.
            let oldest_delta = b.items.iter().position(|e| is_lossy(&e.event));
            if lossy && oldest_delta.is_none() {
                b.missed += 1;
                return;
            }
            let at = oldest_delta.unwrap_or(0);
            if let Some(old) = b.items.remove(at)
                && is_lossy(&old.event)
            {
                b.deltas -= 1;
                b.delta_bytes = b.delta_bytes.saturating_sub(delta_bytes(&old.event));
            }
            b.missed += 1;
        }
        if lossy {
            b.deltas += 1;
            b.delta_bytes += delta_bytes(&env.event);
        }
        b.items.push_back(env.clone());
        drop(b);
        self.ready.notify_one();
    }

    fn close(&self) {
        if let Ok(mut b) = self.backlog.lock() {
            b.closed = true;
        }
        self.ready.notify_one();
    }
}

struct Hub {
    /// Under one lock, so every subscriber sees one order and the numbers
    /// rise in it.
    state: Mutex<HubState>,
}

#[derive(Default)]
struct HubState {
    subscribers: Vec<Weak<Queue>>,
    last_seq: u64,
}

impl Drop for Hub {
    fn drop(&mut self) {
        if let Ok(s) = self.state.lock() {
            for q in s.subscribers.iter().filter_map(Weak::upgrade) {
                q.close();
            }
        }
    }
}

#[derive(Clone)]
pub struct EventSink {
    hub: Arc<Hub>,
}

impl EventSink {
    pub fn new() -> Self {
        EventSink {
            hub: Arc::new(Hub {
                state: Mutex::new(HubState::default()),
            }),
        }
    }

    /// Sends an event to every subscriber; returns its sequence number when
    /// it is a lifecycle event.
    pub fn emit(&self, session_id: Option<&str>, event: Event) -> Option<u64> {
        let mut s = self.lock();
        Self::send(&mut s, session_id, event)
    }

    fn send(s: &mut HubState, session_id: Option<&str>, event: Event) -> Option<u64> {
        let seq = if is_lossy(&event) {
            None
        } else {
            s.last_seq += 1;
            Some(s.last_seq)
        };
        let env = EventEnvelope {
            seq,
            session_id: session_id.map(str::to_string),
            event,
        };
        s.subscribers.retain(|w| match w.upgrade() {
            Some(q) => {
                q.push(&env);
                true
            }
            None => false,
        });
        seq
    }

    /// A panic elsewhere must not silence the stream (nor leave a run's
    /// session taken, since starting a run goes through here).
    fn lock(&self) -> std::sync::MutexGuard<'_, HubState> {
        self.hub
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn subscribe(&self) -> Subscription {
        let q = Arc::new(Queue::default());
        self.lock().subscribers.push(Arc::downgrade(&q));
        Subscription { q }
    }

    /// The number of the last lifecycle event sent (0: none yet). Read with
    /// a snapshot, it says which events the snapshot already includes.
    pub fn last_seq(&self) -> u64 {
        self.lock().last_seq
    }

    /// Changes state and sends the event that tells of it as one step: `f`
    /// runs while no other event can be sent and returns the event (or
    /// `None`: nothing to tell). A snapshot taken with [`Self::quiesced`]
    /// then sees the change exactly when its number is included.
    pub fn emit_with(
        &self,
        session_id: Option<&str>,
        f: impl FnOnce() -> Option<Event>,
    ) -> Option<u64> {
        let mut s = self.lock();
        let event = f()?;
        Self::send(&mut s, session_id, event)
    }

    /// Runs `f` while no event can be sent, and returns the last sequence
    /// number with its result: a snapshot taken this way is exact.
    pub fn quiesced<T>(&self, f: impl FnOnce() -> T) -> (u64, T) {
        let s = self.lock();
        (s.last_seq, f())
    }
}

impl Default for EventSink {
    fn default() -> Self {
        Self::new()
    }
}

/// One host's view of the stream, from the moment it subscribed.
pub struct Subscription {
    q: Arc<Queue>,
}

impl Subscription {
    /// The next event; `Lagged` once after events were dropped for this
    /// subscriber, `Closed` when the brain is gone and everything was read.
    pub async fn recv(&mut self) -> Result<EventEnvelope, RecvError> {
        loop {
            match self.try_recv() {
                Err(RecvError::Lagged(0)) => self.q.ready.notified().await,
                other => return other,
            }
        }
    }

    /// The next event, skipping over dropped text (only deltas are ever
    /// dropped for a host that keeps reading); `None` when the brain is
    /// gone. Safe to use in `select!`.
    pub async fn next(&mut self) -> Option<EventEnvelope> {
        loop {
            match self.recv().await {
                Ok(env) => return Some(env),
                Err(RecvError::Lagged(n)) => tracing::debug!("{n} events were skipped"),
                Err(RecvError::Closed) => return None,
            }
        }
    }

    /// Like `recv` without waiting; `Lagged(0)` means nothing is waiting.
    pub fn try_recv(&mut self) -> Result<EventEnvelope, RecvError> {
        let Ok(mut b) = self.q.backlog.lock() else {
            return Err(RecvError::Closed);
        };
        if b.missed > 0 {
            return Err(RecvError::Lagged(std::mem::take(&mut b.missed)));
        }
        match b.items.pop_front() {
            Some(env) => {
                if is_lossy(&env.event) {
                    b.deltas -= 1;
                    b.delta_bytes = b.delta_bytes.saturating_sub(delta_bytes(&env.event));
                }
                Ok(env)
            }
            None if b.closed => Err(RecvError::Closed),
            None => Err(RecvError::Lagged(0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delta(n: usize) -> Event {
        Event::ContentDelta {
            text: "x".repeat(n),
        }
    }

    #[tokio::test]
    async fn a_subscriber_that_keeps_up_gets_every_event_in_order() {
        let sink = EventSink::new();
        let mut sub = sink.subscribe();
        for i in 0..20_000 {
            sink.emit(Some("s"), delta(1));
            if i % 1000 == 0 {
                sink.emit(
                    None,
                    Event::Notice {
                        message: i.to_string(),
                    },
                );
            }
        }
        let mut deltas = 0;
        let mut last = 0;
        while let Ok(env) = sub.try_recv() {
            match env.seq {
                Some(s) => {
                    assert!(s > last, "sequence numbers rise");
                    last = s;
                }
                None => deltas += 1,
            }
        }
        assert_eq!(deltas, 20_000);
        assert_eq!(last, 20);
    }

    #[tokio::test]
    async fn a_stalled_subscriber_loses_deltas_but_no_lifecycle_event() {
        let sink = EventSink::new();
        let mut sub = sink.subscribe();
        for i in 0..40 {
            sink.emit(None, delta(1024 * 1024));
            sink.emit(
                None,
                Event::Notice {
                    message: i.to_string(),
                },
            );
        }
        let mut notices = vec![];
        let mut lagged = 0;
        loop {
            match sub.try_recv() {
                Ok(env) => {
                    if let Event::Notice { message } = env.event {
                        notices.push(message);
                    }
                }
                Err(RecvError::Lagged(0)) => break,
                Err(RecvError::Lagged(n)) => lagged += n,
                Err(RecvError::Closed) => break,
            }
        }
        assert_eq!(notices.len(), 40);
        assert!(
            lagged > 20,
            "the deltas over the backlog were dropped: {lagged}"
        );
    }

    #[tokio::test]
    async fn a_host_that_stops_reading_keeps_every_lifecycle_event_under_a_flood_of_tiny_deltas() {
        let sink = EventSink::new();
        let mut sub = sink.subscribe();
        for i in 0..300_000 {
            sink.emit(None, delta(1));
            if i % 1000 == 0 {
                sink.emit(
                    None,
                    Event::Notice {
                        message: i.to_string(),
                    },
                );
            }
        }
        let (mut notices, mut deltas, mut lagged) = (0, 0, 0);
        loop {
            match sub.try_recv() {
                Ok(env) if env.seq.is_some() => notices += 1,
                Ok(_) => deltas += 1,
                Err(RecvError::Lagged(0)) | Err(RecvError::Closed) => break,
                Err(RecvError::Lagged(n)) => lagged += n,
            }
        }
        assert_eq!(notices, 300);
        assert_eq!(deltas, MAX_DELTAS);
        assert_eq!(lagged as usize, 300_000 - MAX_DELTAS);
    }

    #[tokio::test]
    async fn subscribers_see_the_stream_close_after_reading_everything() {
        let sink = EventSink::new();
        let mut sub = sink.subscribe();
        sink.emit(
            None,
            Event::Notice {
                message: "last".into(),
            },
        );
        drop(sink);
        assert!(sub.recv().await.is_ok());
        assert_eq!(sub.recv().await, Err(RecvError::Closed));
    }
}
