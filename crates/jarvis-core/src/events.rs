//! The one event stream every host subscribes to.

use jarvis_protocol::{Event, EventEnvelope};
use tokio::sync::broadcast;

const CAPACITY: usize = 4 * 1024;

#[derive(Clone)]
pub struct EventSink {
    tx: broadcast::Sender<EventEnvelope>,
}

impl EventSink {
    pub fn new() -> Self {
        // Four seconds of a model streaming 1,000 deltas/s before a stalled
        // host lags. Every slot is allocated up front and keeps its last
        // event alive until overwritten, so more is resident memory for
        // nothing: 16 Ki slots held 4.5 MB from the first second on.
        let (tx, _) = broadcast::channel(CAPACITY);
        EventSink { tx }
    }

    pub fn emit(&self, session_id: Option<&str>, event: Event) {
        let _ = self.tx.send(EventEnvelope {
            session_id: session_id.map(str::to_string),
            event,
        });
    }

    pub fn subscribe(&self) -> broadcast::Receiver<EventEnvelope> {
        self.tx.subscribe()
    }
}

impl Default for EventSink {
    fn default() -> Self {
        Self::new()
    }
}
