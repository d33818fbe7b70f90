//! The one event stream every host subscribes to.

use jarvis_protocol::{Event, EventEnvelope};
use tokio::sync::broadcast;

#[derive(Clone)]
pub struct EventSink {
    tx: broadcast::Sender<EventEnvelope>,
}

impl EventSink {
    pub fn new() -> Self {
        // Large enough that a host reading at human speed never lags a turn.
        let (tx, _) = broadcast::channel(16 * 1024);
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
