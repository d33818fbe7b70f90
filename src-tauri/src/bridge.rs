//! The one event stream, forwarded to the HUD: every brain event goes to the
//! webview as `jarvis:event`. Agent actions are checked against the
//! whitelist here, so a rejected one never reaches the page.

use jarvis_core::Brain;
use jarvis_protocol::{Event, EventEnvelope};
use tauri::{AppHandle, Emitter, Manager};
use tokio::sync::broadcast::error::RecvError;

use crate::Shell;

pub const EVENT: &str = "jarvis:event";

pub fn spawn(app: AppHandle, brain: Brain) {
    let mut rx = brain.subscribe();
    tauri::async_runtime::spawn(async move {
        loop {
            let env = match rx.recv().await {
                Ok(env) => env,
                Err(RecvError::Lagged(n)) => {
                    tracing::warn!("the HUD missed {n} events");
                    EventEnvelope {
                        session_id: None,
                        event: Event::Notice {
                            message: format!("{n} events were dropped; reload the view"),
                        },
                    }
                }
                Err(RecvError::Closed) => return,
            };
            let Some(env) = screen(env) else { continue };
            side_effects(&app, &env);
            if let Err(e) = app.emit(EVENT, &env) {
                tracing::warn!("event not delivered to the HUD: {e}");
            }
        }
    });
}

/// Drops actions outside the whitelist (logged, and told to the user).
fn screen(env: EventEnvelope) -> Option<EventEnvelope> {
    if let Event::Action { action } = &env.event
        && let Err(reason) = action.check()
    {
        tracing::warn!("rejected HUD action {action:?}: {reason}");
        return Some(EventEnvelope {
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
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jarvis_protocol::UiAction;

    fn action(a: UiAction) -> EventEnvelope {
        EventEnvelope {
            session_id: Some("s".into()),
            event: Event::Action { action: a },
        }
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
