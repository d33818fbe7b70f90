//! The terminal as an approver: one question at a time on stderr, the answer
//! from stdin. Without a terminal nobody can answer, which is a denial.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use async_trait::async_trait;
use jarvis_core::policy::Approver;
use jarvis_protocol::{ApprovalDecision, ApprovalRequest};
use tokio::sync::{Mutex, mpsc};

/// Set while a question is on screen, so the spinner leaves it alone.
static PROMPTING: AtomicBool = AtomicBool::new(false);

pub fn prompting() -> bool {
    PROMPTING.load(Ordering::Relaxed)
}

/// Lines from stdin, shared by the chat prompt and the approval prompt
/// (only one of them reads at a time: approvals come only during a turn).
#[derive(Clone)]
pub struct Input {
    rx: Arc<Mutex<mpsc::UnboundedReceiver<String>>>,
}

impl Input {
    pub fn spawn() -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            for line in stdin.lock().lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Input {
            rx: Arc::new(Mutex::new(rx)),
        }
    }

    pub fn spawn_if(cond: bool) -> Option<Self> {
        cond.then(Self::spawn)
    }

    /// The next line, or `None` at end of input.
    pub async fn line(&self) -> Option<String> {
        self.rx.lock().await.recv().await
    }
}

pub struct Terminal {
    input: Option<Input>,
}

impl Terminal {
    pub fn new(input: Option<Input>) -> Self {
        Terminal { input }
    }
    pub fn none() -> Self {
        Terminal { input: None }
    }
}

fn show(r: &ApprovalRequest) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "\n┌ approve {}?", r.tool);
    let _ = writeln!(err, "│ {}", r.subject);
    if let Some(d) = &r.details {
        for line in d.lines().take(45) {
            let _ = writeln!(err, "│   {line}");
        }
    }
    let _ = writeln!(err, "│ working directory: {}", r.workdir);
    let _ = writeln!(err, "│ why I ask: {}", r.reason);
    let mut choices = "[y] allow once".to_string();
    if r.offer_network {
        choices.push_str("   [w] allow with network");
    }
    if r.allow_always {
        choices.push_str(&format!("   [a] {}", r.grant_scope));
    }
    let _ = writeln!(
        err,
        "│ {choices}   [n <reason>] deny   (Enter or {} s without an answer: deny)",
        r.timeout_sec
    );
    let _ = write!(err, "└ > ");
    let _ = err.flush();
}

pub fn parse_answer(line: &str) -> ApprovalDecision {
    let t = line.trim();
    let (word, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
    match word.to_ascii_lowercase().as_str() {
        "y" | "yes" => ApprovalDecision::AllowOnce,
        "w" | "network" => ApprovalDecision::AllowWithNetwork,
        "a" | "always" => ApprovalDecision::AlwaysAllow,
        _ => ApprovalDecision::Deny {
            reason: (!rest.trim().is_empty()).then(|| rest.trim().to_string()),
        },
    }
}

#[async_trait]
impl Approver for Terminal {
    async fn decide(&self, r: &ApprovalRequest) -> Option<ApprovalDecision> {
        let Some(input) = &self.input else {
            return Some(ApprovalDecision::Deny {
                reason: Some(
                    "nobody could be asked (no terminal): run jarvis interactively, pass --yes, or choose \"don't ask\" for this kind (approvals.auto)".into(),
                ),
            });
        };
        PROMPTING.store(true, Ordering::Relaxed);
        show(r);
        let line = input.line().await.unwrap_or_default();
        PROMPTING.store(false, Ordering::Relaxed);
        // An answer that was not offered is taken as its nearest offered one.
        Some(match parse_answer(&line) {
            ApprovalDecision::AllowWithNetwork if !r.offer_network => ApprovalDecision::AllowOnce,
            ApprovalDecision::AlwaysAllow if !r.allow_always => ApprovalDecision::AllowOnce,
            d => d,
        })
    }
    fn name(&self) -> &str {
        "terminal"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_explicit_yes_allows() {
        assert_eq!(parse_answer("y"), ApprovalDecision::AllowOnce);
        assert_eq!(parse_answer(" Always "), ApprovalDecision::AlwaysAllow);
        assert_eq!(parse_answer(""), ApprovalDecision::Deny { reason: None });
        assert_eq!(
            parse_answer("sure"),
            ApprovalDecision::Deny { reason: None }
        );
        assert_eq!(
            parse_answer("n not in my home dir"),
            ApprovalDecision::Deny {
                reason: Some("not in my home dir".into())
            }
        );
    }
}
