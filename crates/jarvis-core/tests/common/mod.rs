#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use jarvis_core::policy::Approver;
use jarvis_core::secrets::{MemorySecretStore, SecretStore};
use jarvis_core::tools::ToolRegistry;
use jarvis_core::{Brain, BrainOptions, Overrides};
use jarvis_protocol::{Event, Op};

pub struct Env {
    pub home: tempfile::TempDir,
    pub work: tempfile::TempDir,
    pub brain: Brain,
    pub events: jarvis_core::events::Subscription,
}

pub struct Setup<'a> {
    pub base_url: String,
    pub approver: Arc<dyn Approver>,
    pub config: &'a [(&'a str, &'a str)],
    pub secrets: Arc<dyn SecretStore>,
    pub registry: Option<ToolRegistry>,
    pub resolver: Option<Arc<dyn jarvis_core::tools::net::Resolver>>,
}

impl<'a> Setup<'a> {
    pub fn new(base_url: String, approver: Arc<dyn Approver>) -> Self {
        Setup {
            base_url,
            approver,
            config: &[],
            secrets: Arc::new(MemorySecretStore::default()),
            registry: None,
            resolver: None,
        }
    }
}

pub fn env(setup: Setup<'_>) -> Env {
    env_at(tempfile::tempdir().unwrap(), setup)
}

/// As [`env`], in a home that already exists (a second start).
pub fn env_at(home: tempfile::TempDir, setup: Setup<'_>) -> Env {
    let work = tempfile::tempdir().unwrap();
    let store = jarvis_core::config::ConfigStore::new(home.path());
    store
        .update(|c| {
            c.set("llm.base_url", &setup.base_url)?;
            c.set("llm.model", "test-model")?;
            c.set("llm.idle_timeout_sec", "5")?;
            c.set("llm.max_retries", "0")?;
            // The hands are offered (a test about a toggle turns it off);
            // each write, command and data-carrying request still asks.
            for t in ["read", "write", "exec", "network"] {
                c.set(&format!("tools.{t}"), "true")?;
            }
            for (k, v) in setup.config {
                c.set(k, v)?;
            }
            Ok(())
        })
        .unwrap();
    let brain = Brain::open(BrainOptions {
        home: home.path().to_path_buf(),
        secrets: setup.secrets,
        approver: setup.approver,
        overrides: Overrides {
            workdir: Some(work.path().to_path_buf()),
            ..Default::default()
        },
        registry: setup.registry,
        resolver: setup.resolver,
        sandbox_helper: Some(env!("CARGO_BIN_EXE_jarvis-sandbox").into()),
    })
    .unwrap();
    let events = brain.subscribe();
    Env {
        home,
        work,
        brain,
        events,
    }
}

impl Env {
    pub fn wd(&self) -> PathBuf {
        std::fs::canonicalize(self.work.path()).unwrap()
    }

    pub fn ask(&self, session: &str, text: &str) {
        self.brain
            .submit(Op::UserInput {
                session_id: session.into(),
                text: text.into(),
            })
            .unwrap();
    }

    /// Collects this session's events until its turn finishes.
    pub async fn until_finished(&mut self, session: &str) -> Vec<Event> {
        self.until_finished_within(session, Duration::from_secs(30))
            .await
    }

    /// As `until_finished`, for turns that build something real (a venv).
    pub async fn until_finished_within(&mut self, session: &str, limit: Duration) -> Vec<Event> {
        let mut out = Vec::new();
        loop {
            let ev = tokio::time::timeout(limit, self.events.recv())
                .await
                .expect("turn did not finish in time")
                .expect("event stream closed");
            if ev.session_id.as_deref() != Some(session) {
                continue;
            }
            let done = matches!(ev.event, Event::TurnFinished { .. });
            out.push(ev.event);
            if done {
                return out;
            }
        }
    }

    /// Waits for the first event matching `f`.
    pub async fn wait_for(&mut self, f: impl Fn(&Event) -> bool) -> Event {
        loop {
            let ev = tokio::time::timeout(Duration::from_secs(30), self.events.recv())
                .await
                .expect("event did not come in 30 s")
                .expect("event stream closed");
            if f(&ev.event) {
                return ev.event;
            }
        }
    }
}

pub fn text_of(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::ContentDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

pub fn stop_of(events: &[Event]) -> jarvis_protocol::StopReason {
    events
        .iter()
        .find_map(|e| match e {
            Event::TurnFinished { stop, .. } => Some(*stop),
            _ => None,
        })
        .expect("no TurnFinished")
}

/// The messages of a recorded chat request.
pub fn messages(req: &jarvis_testkit::Recorded) -> Vec<serde_json::Value> {
    req.json()["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Tool-message ids in a request, in order.
pub fn tool_ids(req: &jarvis_testkit::Recorded) -> Vec<String> {
    messages(req)
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["tool_call_id"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// A reply calling these tools: (call id, tool, JSON arguments).
pub fn calls(c: &[(String, String, String)]) -> jarvis_testkit::Reply {
    let v: Vec<(&str, &str, &str)> = c
        .iter()
        .map(|(a, b, d)| (a.as_str(), b.as_str(), d.as_str()))
        .collect();
    jarvis_testkit::Reply::tool_calls(&v)
}
