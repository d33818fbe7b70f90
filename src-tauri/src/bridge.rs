//! The one event stream, forwarded to the HUD: every brain event goes to the
//! webview as `jarvis:event`. Agent actions are checked against the
//! whitelist here, so a rejected one never reaches the page.

use std::time::Duration;

use jarvis_core::Brain;
use jarvis_core::events::RecvError;
use jarvis_protocol::{Event, EventEnvelope};
use tauri::{AppHandle, Emitter, Manager};

use crate::Shell;

pub const EVENT: &str = "jarvis:event";

/// How long text deltas may wait to be sent together: one frame. A model
/// streaming hundreds of tiny deltas a second would otherwise cost the
/// webview one script evaluation each and fall behind.
const COALESCE: Duration = Duration::from_millis(16);

pub fn spawn(app: AppHandle, brain: Brain) {
    let mut rx = brain.subscribe();
    tauri::async_runtime::spawn(async move {
        let mut pending: Option<EventEnvelope> = None;
        // When the pending text must go out, counted from its first delta
        // (a steady stream would otherwise hold it until the stream ends).
        let mut due = tokio::time::Instant::now();
        loop {
            let next = if pending.is_some() {
                tokio::select! {
                    r = rx.recv() => Some(r),
                    _ = tokio::time::sleep_until(due) => None,
                }
            } else {
                Some(rx.recv().await)
            };
            let env = match next {
                // The frame is over: send what has gathered.
                None => {
                    if let Some(p) = pending.take() {
                        deliver(&app, p);
                    }
                    continue;
                }
                Some(Ok(env)) => env,
                Some(Err(RecvError::Lagged(n))) => {
                    // Only streamed text is ever dropped; the turn's end and
                    // its stored messages are complete.
                    tracing::warn!("the HUD missed {n} text deltas");
                    EventEnvelope {
                        seq: None,
                        session_id: None,
                        event: Event::Notice {
                            message: format!(
                                "{n} pieces of streamed text were skipped; the conversation itself is complete"
                            ),
                        },
                    }
                }
                Some(Err(RecvError::Closed)) => return,
            };
            let Some(env) = screen(env) else { continue };
            let was_empty = pending.is_none();
            for ready in merge(&mut pending, env) {
                deliver(&app, ready);
            }
            if was_empty {
                due = tokio::time::Instant::now() + COALESCE;
            }
        }
    });
}

/// A HUD action from the shell itself (a notification click), through the
/// same whitelist as the agent's.
pub fn deliver_action(app: &AppHandle, action: jarvis_protocol::UiAction) {
    let env = EventEnvelope {
        seq: None,
        session_id: None,
        event: Event::Action { action },
    };
    if let Some(env) = screen(env) {
        deliver(app, env);
    }
}

fn deliver(app: &AppHandle, env: EventEnvelope) {
    side_effects(app, &env);
    if let Err(e) = app.emit(EVENT, &env) {
        tracing::warn!("event not delivered to the HUD: {e}");
    }
}

/// Joins consecutive text deltas of one session (and one tool call) into
/// the pending event; returns what must go out now, in order. Any other
/// event flushes the pending one before itself.
fn merge(pending: &mut Option<EventEnvelope>, env: EventEnvelope) -> Vec<EventEnvelope> {
    if let Some(p) = pending.as_mut()
        && append(p, &env)
    {
        return vec![];
    }
    let mut out: Vec<EventEnvelope> = pending.take().into_iter().collect();
    if is_delta(&env.event) {
        *pending = Some(env);
    } else {
        out.push(env);
    }
    out
}

fn is_delta(e: &Event) -> bool {
    matches!(
        e,
        Event::ContentDelta { .. }
            | Event::ReasoningDelta { .. }
            | Event::ToolCallArgumentsDelta { .. }
    )
}

fn append(p: &mut EventEnvelope, env: &EventEnvelope) -> bool {
    if p.session_id != env.session_id {
        return false;
    }
    match (&mut p.event, &env.event) {
        (Event::ContentDelta { text }, Event::ContentDelta { text: more })
        | (Event::ReasoningDelta { text }, Event::ReasoningDelta { text: more }) => {
            text.push_str(more);
            true
        }
        (
            Event::ToolCallArgumentsDelta { call_id, delta },
            Event::ToolCallArgumentsDelta {
                call_id: same,
                delta: more,
            },
        ) if call_id == same => {
            delta.push_str(more);
            true
        }
        _ => false,
    }
}

/// Drops actions outside the whitelist (logged, and told to the user).
fn screen(env: EventEnvelope) -> Option<EventEnvelope> {
    if let Event::Action { action } = &env.event
        && let Err(reason) = action.check()
    {
        tracing::warn!("rejected HUD action {action:?}: {reason}");
        return Some(EventEnvelope {
            seq: env.seq,
            session_id: env.session_id,
            event: Event::Notice {
                message: format!("the agent asked the HUD for something it does not do: {reason}"),
            },
        });
    }
    Some(env)
}

/// What the shell itself does with an event: the tray's state, and a
/// notification when an approval waits while the window is out of sight.
fn side_effects(app: &AppHandle, env: &EventEnvelope) {
    match &env.event {
        Event::VoiceState { state } => {
            if let Some(shell) = app.try_state::<Shell>() {
                shell.voice.observe(*state);
            }
            crate::tray::show_state(app, *state);
        }
        Event::TaskChanged { task } => crate::tray::task_changed(app, task),
        Event::ApprovalRequested { request } => {
            let visible = app
                .get_webview_window("main")
                .and_then(|w| w.is_focused().ok())
                .unwrap_or(false);
            if !visible && let Some(shell) = app.try_state::<Shell>() {
                let _ = shell.notifier.notify(
                    "Jarvis asks for approval",
                    &format!("{}: {}", request.tool, request.subject),
                );
            }
        }
        // Spoken when Jarvis is idle, never over the user (the coordinator
        // queues it); the notification is the announcer's own.
        Event::Announcement {
            text, loud: true, ..
        } => {
            if let Some(shell) = app.try_state::<Shell>() {
                shell.voice.announce(text.clone());
            }
        }
        // Stopped here or in another process (`jarvis stop`): speech too.
        Event::Stopped { .. } => {
            if let Some(shell) = app.try_state::<Shell>() {
                shell.voice.stop();
            }
        }
        // The turn's buffers are freed by now; the app may sit idle for hours.
        Event::TurnFinished { .. } => crate::memory::trim_later(Duration::ZERO),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jarvis_protocol::UiAction;

    fn action(a: UiAction) -> EventEnvelope {
        EventEnvelope {
            seq: None,
            session_id: Some("s".into()),
            event: Event::Action { action: a },
        }
    }

    fn env(session: &str, event: Event) -> EventEnvelope {
        EventEnvelope {
            seq: None,
            session_id: Some(session.into()),
            event,
        }
    }
    fn text(t: &str) -> Event {
        Event::ContentDelta { text: t.into() }
    }

    #[test]
    fn deltas_coalesce_in_order_and_other_events_flush_them() {
        let mut pending = None;
        assert!(merge(&mut pending, env("a", text("Hel"))).is_empty());
        assert!(merge(&mut pending, env("a", text("lo"))).is_empty());
        // Another session's delta sends the first session's text.
        let out = merge(&mut pending, env("b", text("x")));
        assert_eq!(out, vec![env("a", text("Hello"))]);
        // A non-delta goes out right after the pending text, in order.
        let started = Event::ToolCallStarted {
            call_id: "c".into(),
            name: "t".into(),
        };
        let out = merge(&mut pending, env("b", started.clone()));
        assert_eq!(out, vec![env("b", text("x")), env("b", started)]);
        assert!(pending.is_none());
        let args = |d: &str| Event::ToolCallArgumentsDelta {
            call_id: "c".into(),
            delta: d.into(),
        };
        assert!(merge(&mut pending, env("b", args("{\"a\""))).is_empty());
        assert!(merge(&mut pending, env("b", args(":1}"))).is_empty());
        assert_eq!(pending, Some(env("b", args("{\"a\":1}"))));
    }

    #[test]
    fn whitelisted_actions_pass_and_others_become_notices() {
        let ok = action(UiAction::Navigate {
            view: "audit".into(),
            params: serde_json::Value::Null,
        });
        assert_eq!(screen(ok.clone()), Some(ok));
        let bad = screen(action(UiAction::Navigate {
            view: "javascript:alert(1)".into(),
            params: serde_json::Value::Null,
        }))
        .unwrap();
        match bad.event {
            Event::Notice { message } => assert!(message.contains("unknown view"), "{message}"),
            other => panic!("expected a notice, got {other:?}"),
        }
    }
}
