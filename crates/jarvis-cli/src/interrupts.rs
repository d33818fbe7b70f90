//! Ctrl-C as a stream that misses nothing.
//!
//! `tokio::signal::ctrl_c()` made afresh in each turn of a `select!` loop
//! only sees signals that arrive after it is made, and is dropped whenever
//! another branch wins: a Ctrl-C that lands while the loop renders an event
//! or ticks the spinner is lost, and the turn the user wanted to stop runs
//! on (seen in CI). One listener, made once and kept for the whole command,
//! queues every press.

use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

pub struct Interrupts(UnboundedReceiver<()>);

impl Interrupts {
    /// Starts listening now; presses from here on are kept until read.
    pub fn listen() -> std::io::Result<Self> {
        let (tx, rx) = unbounded_channel();
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let mut sig = signal(SignalKind::interrupt())?;
            tokio::spawn(async move {
                while sig.recv().await.is_some() {
                    if tx.send(()).is_err() {
                        return;
                    }
                }
            });
        }
        #[cfg(not(unix))]
        tokio::spawn(async move {
            while tokio::signal::ctrl_c().await.is_ok() {
                if tx.send(()).is_err() {
                    return;
                }
            }
        });
        Ok(Self(rx))
    }

    /// The next Ctrl-C (never resolves if listening stopped).
    pub async fn next(&mut self) {
        if self.0.recv().await.is_none() {
            std::future::pending::<()>().await;
        }
    }
}
