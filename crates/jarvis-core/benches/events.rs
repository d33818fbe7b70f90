//! The event stream under a model streaming as fast as it can: the brain's
//! per-subscriber queues against the broadcast ring they replaced, in one
//! run. Two hosts subscribe: one keeps up, one is slow (a webview busy for
//! a moment every 500 events). Printed: time per event sent, what each host
//! received, and lifecycle events lost.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use jarvis_core::events::{EventSink, Subscription};
use jarvis_protocol::{Event, EventEnvelope};
use tokio::sync::broadcast;

const DELTAS: usize = 200_000;
/// A lifecycle event (a tool call finishing, say) every this many deltas.
const EVERY: usize = 100;

fn event(i: usize) -> Event {
    if i.is_multiple_of(EVERY) {
        Event::Notice {
            message: i.to_string(),
        }
    } else {
        Event::ContentDelta { text: "x".into() }
    }
}

#[derive(Default, Debug)]
struct Got {
    deltas: usize,
    lifecycle: usize,
}

fn count(got: &mut Got, e: &Event) {
    if matches!(e, Event::ContentDelta { .. }) {
        got.deltas += 1;
    } else {
        got.lifecycle += 1;
    }
}

/// A host's end of a stream: the next event, `None` once it closed.
trait Source: Send + 'static {
    fn next(&mut self) -> impl std::future::Future<Output = Option<Event>> + Send;
}

impl Source for Subscription {
    async fn next(&mut self) -> Option<Event> {
        Subscription::next(self).await.map(|env| env.event)
    }
}

impl Source for broadcast::Receiver<EventEnvelope> {
    async fn next(&mut self) -> Option<Event> {
        loop {
            match self.recv().await {
                Ok(env) => return Some(env.event),
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }
}

/// Reads until the stream closes; a slow host naps 1 ms every 500 events.
fn host(mut s: impl Source, slow: bool) -> tokio::task::JoinHandle<Got> {
    tokio::spawn(async move {
        let mut g = Got::default();
        while let Some(e) = s.next().await {
            count(&mut g, &e);
            if slow && (g.deltas + g.lifecycle).is_multiple_of(500) {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        }
        g
    })
}

/// Sends every event through `send`, yielding now and then as a stream would.
async fn pump(mut send: impl FnMut(Event)) -> Duration {
    let t0 = Instant::now();
    for i in 0..DELTAS {
        send(event(i));
        if i.is_multiple_of(1000) {
            tokio::task::yield_now().await;
        }
    }
    t0.elapsed()
}

async fn queues() -> (Duration, Got, Got) {
    let sink = EventSink::new();
    let (f, s) = (host(sink.subscribe(), false), host(sink.subscribe(), true));
    let took = pump(|e| {
        sink.emit(Some("s"), e);
    })
    .await;
    drop(sink);
    (took, f.await.unwrap(), s.await.unwrap())
}

async fn ring() -> (Duration, Got, Got) {
    let (tx, _) = broadcast::channel::<EventEnvelope>(4096);
    let (f, s) = (host(tx.subscribe(), false), host(tx.subscribe(), true));
    let took = pump(|event| {
        let _ = tx.send(EventEnvelope {
            seq: None,
            session_id: Some("s".into()),
            event,
        });
    })
    .await;
    drop(tx);
    (took, f.await.unwrap(), s.await.unwrap())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let lifecycle = DELTAS / EVERY;
    let deltas = DELTAS - lifecycle;
    println!(
        "\n{DELTAS} events sent as fast as possible ({deltas} deltas, {lifecycle} lifecycle), two hosts\n"
    );
    println!(
        "| stream | per event sent | fast host: deltas / lifecycle | slow host: deltas / lifecycle |"
    );
    println!("|---|---|---|---|");
    for (name, (took, f, s)) in [
        ("per-subscriber queues (now)", queues().await),
        ("broadcast ring, 4 Ki (before)", ring().await),
    ] {
        println!(
            "| {name} | {:.0} ns | {}/{deltas} / {}/{lifecycle} | {}/{deltas} / {}/{lifecycle} |",
            took.as_nanos() as f64 / DELTAS as f64,
            f.deltas,
            f.lifecycle,
            s.deltas,
            s.lifecycle
        );
    }
}
