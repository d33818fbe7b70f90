//! Native approval dialogs. The gate asks the approver and, at the same
//! time, waits for the HUD's answer and its own deadline; whichever comes
//! first wins and drops the other. Dropping our future closes the dialog.

use async_trait::async_trait;
use jarvis_core::policy::Approver;
use jarvis_protocol::{ApprovalDecision, ApprovalRequest};
use tauri::AppHandle;
use tokio::sync::oneshot;

pub struct DesktopApprover {
    app: AppHandle,
}

impl DesktopApprover {
    pub fn new(app: AppHandle) -> Self {
        DesktopApprover { app }
    }
}

/// Closes the dialog when the wait ends for any reason (answered in the
/// HUD, timed out, turn cancelled).
struct CloseOnDrop {
    app: AppHandle,
    id: String,
}

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        let id = self.id.clone();
        let _ = self.app.run_on_main_thread(move || dialog::close(&id));
    }
}

#[async_trait]
impl Approver for DesktopApprover {
    async fn decide(&self, request: &ApprovalRequest) -> Option<ApprovalDecision> {
        let (tx, rx) = oneshot::channel();
        let req = request.clone();
        if let Err(e) = self.app.run_on_main_thread(move || dialog::open(req, tx)) {
            tracing::warn!("approval dialog not shown: {e}");
            return None;
        }
        let _close = CloseOnDrop {
            app: self.app.clone(),
            id: request.request_id.clone(),
        };
        // No dialog (no toolkit): the HUD or the deadline answers.
        rx.await.ok().flatten()
    }
    fn name(&self) -> &str {
        "dialog"
    }
}

/// The words of the dialog, kept apart from the toolkit so they are tested.
pub fn dialog_text(req: &ApprovalRequest) -> (String, Vec<(&'static str, String)>) {
    let title = format!("Jarvis — approve {}", req.tool);
    let mut rows = vec![
        ("Tool", req.tool.clone()),
        ("Exactly", req.subject.clone()),
        ("In", req.workdir.clone()),
    ];
    if let Some(d) = &req.details {
        let mut d = d.clone();
        if d.chars().count() > 4000 {
            d = d.chars().take(4000).collect::<String>() + "\n…";
        }
        rows.push(("Will do", d));
    }
    rows.push(("Why asked", req.reason.clone()));
    if req.offer_network {
        rows.push((
            "Network",
            "none: it runs offline unless you choose “Allow with network” for this one call".into(),
        ));
    }
    if req.allow_always {
        rows.push(("Always allow covers", req.grant_scope.clone()));
    }
    (title, rows)
}

/// The dialog's buttons, left to right: only what this request offers.
/// Deny is first and the default; allowing always takes a click.
pub fn dialog_buttons(req: &ApprovalRequest) -> Vec<(&'static str, ApprovalDecision)> {
    let mut b = vec![(
        "_Deny",
        ApprovalDecision::Deny {
            reason: Some("denied in the dialog".into()),
        },
    )];
    if req.allow_always {
        b.push(("Al_ways allow", ApprovalDecision::AlwaysAllow));
    }
    if req.offer_network {
        b.push(("Allow with _network", ApprovalDecision::AllowWithNetwork));
    }
    b.push(("_Allow once", ApprovalDecision::AllowOnce));
    b
}

/// A blocking error message for failures before the HUD exists (a broken
/// config.json, an unreadable database).
pub fn show_fatal(message: &str) {
    tracing::error!("{message}");
    #[cfg(target_os = "linux")]
    {
        use gtk::prelude::*;
        let d = gtk::MessageDialog::new(
            None::<&gtk::Window>,
            gtk::DialogFlags::MODAL,
            gtk::MessageType::Error,
            gtk::ButtonsType::Close,
            message,
        );
        d.set_title("Jarvis");
        d.run();
        d.close();
    }
}

#[cfg(target_os = "linux")]
mod dialog {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::rc::Rc;
    use std::time::Duration;

    use gtk::prelude::*;
    use jarvis_protocol::{ApprovalDecision, ApprovalRequest};
    use tokio::sync::oneshot;

    thread_local! {
        static OPEN: RefCell<HashMap<String, gtk::Dialog>> = RefCell::new(HashMap::new());
    }

    type Reply = Rc<RefCell<Option<oneshot::Sender<Option<ApprovalDecision>>>>>;

    fn answer(reply: &Reply, d: ApprovalDecision) {
        if let Some(tx) = reply.borrow_mut().take() {
            let _ = tx.send(Some(d));
        }
    }

    pub fn open(req: ApprovalRequest, tx: oneshot::Sender<Option<ApprovalDecision>>) {
        let (title, rows) = super::dialog_text(&req);
        let dialog = gtk::Dialog::new();
        dialog.set_title(&title);
        dialog.set_keep_above(true);
        dialog.set_urgency_hint(true);
        dialog.set_position(gtk::WindowPosition::Center);
        dialog.set_default_size(560, -1);
        let area = dialog.content_area();
        area.set_spacing(8);
        area.set_border_width(14);
        let head = gtk::Label::new(None);
        head.set_markup(&format!(
            "<b>Jarvis wants to use {}</b>",
            glib::markup_escape_text(&req.tool)
        ));
        head.set_xalign(0.0);
        area.pack_start(&head, false, false, 0);
        let grid = gtk::Grid::new();
        grid.set_row_spacing(6);
        grid.set_column_spacing(12);
        for (i, (k, v)) in rows.iter().enumerate() {
            let key = gtk::Label::new(Some(k));
            key.set_xalign(1.0);
            key.set_yalign(0.0);
            key.style_context().add_class("dim-label");
            let val = gtk::Label::new(Some(v));
            val.set_xalign(0.0);
            val.set_line_wrap(true);
            val.set_line_wrap_mode(gtk::pango::WrapMode::WordChar);
            val.set_selectable(true);
            val.set_max_width_chars(70);
            if matches!(*k, "Exactly" | "Will do") {
                val.set_markup(&format!("<tt>{}</tt>", glib::markup_escape_text(v)));
            }
            grid.attach(&key, 0, i as i32, 1, 1);
            grid.attach(&val, 1, i as i32, 1, 1);
        }
        area.pack_start(&grid, true, true, 0);
        let countdown = gtk::Label::new(Some(&format!(
            "No answer in {} s means deny.",
            req.timeout_sec
        )));
        countdown.set_xalign(0.0);
        area.pack_start(&countdown, false, false, 0);
        let buttons = super::dialog_buttons(&req);
        for (i, (label, _)) in buttons.iter().enumerate() {
            let b = dialog.add_button(label, gtk::ResponseType::Other(i as u16));
            if i == 0 {
                b.grab_focus();
            }
        }
        // Enter and Esc both deny: only a deliberate click (or mnemonic) allows.
        dialog.set_default_response(gtk::ResponseType::Other(0));

        let reply: Reply = Rc::new(RefCell::new(Some(tx)));
        let id = req.request_id.clone();
        {
            let reply = reply.clone();
            let id = id.clone();
            dialog.connect_response(move |_, resp| {
                let d = match resp {
                    gtk::ResponseType::Other(i) if usize::from(i) < buttons.len() => {
                        buttons[usize::from(i)].1.clone()
                    }
                    _ => ApprovalDecision::Deny {
                        reason: Some("denied in the dialog".into()),
                    },
                };
                answer(&reply, d);
                close(&id);
            });
        }
        let secs = req.timeout_sec.max(1);
        {
            let reply = reply.clone();
            let id = id.clone();
            glib::timeout_add_local_once(Duration::from_secs(secs), move || {
                answer(
                    &reply,
                    ApprovalDecision::Deny {
                        reason: Some(format!("no answer within {secs} s")),
                    },
                );
                close(&id);
            });
        }
        {
            let id = id.clone();
            let mut left = secs;
            glib::timeout_add_local(Duration::from_secs(1), move || {
                left = left.saturating_sub(1);
                if !OPEN.with(|o| o.borrow().contains_key(&id)) || left == 0 {
                    return glib::ControlFlow::Break;
                }
                countdown.set_text(&format!("No answer in {left} s means deny."));
                glib::ControlFlow::Continue
            });
        }
        dialog.show_all();
        dialog.present();
        OPEN.with(|o| o.borrow_mut().insert(id, dialog));
    }

    pub fn close(id: &str) {
        if let Some(d) = OPEN.with(|o| o.borrow_mut().remove(id)) {
            // SAFETY: the map held the only handle we use; nothing touches the
            // dialog after this, and GTK drops its own references on destroy.
            #[allow(unsafe_code)]
            unsafe {
                d.destroy();
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod dialog {
    use jarvis_protocol::{ApprovalDecision, ApprovalRequest};
    use tokio::sync::oneshot;

    // Elsewhere the HUD's panel is the dialog (an always-on-top window is
    // the next step); `None` leaves the answer to it and the deadline.
    pub fn open(_req: ApprovalRequest, tx: oneshot::Sender<Option<ApprovalDecision>>) {
        let _ = tx.send(None);
    }
    pub fn close(_id: &str) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dialog_shows_the_exact_call_and_caps_long_details() {
        let req = ApprovalRequest {
            request_id: "r".into(),
            call_id: "c".into(),
            session_id: None,
            tool: "local_exec".into(),
            subject: "rm -rf build".into(),
            workdir: "/home/u/p".into(),
            details: Some("x".repeat(10_000)),
            reason: "exec needs approval".into(),
            grant_scope: "always allow local_exec for: rm".into(),
            allow_always: true,
            offer_network: true,
            timeout_sec: 60,
            origin: jarvis_protocol::Origin::Chat,
            run_id: "t".into(),
            expires_at: 0,
        };
        let (title, rows) = dialog_text(&req);
        assert_eq!(title, "Jarvis — approve local_exec");
        let get = |k: &str| {
            rows.iter()
                .find(|(key, _)| *key == k)
                .map(|(_, v)| v.clone())
        };
        assert_eq!(get("Exactly").as_deref(), Some("rm -rf build"));
        assert_eq!(get("In").as_deref(), Some("/home/u/p"));
        assert!(get("Will do").unwrap().chars().count() < 4010);
        assert_eq!(get("Why asked").as_deref(), Some("exec needs approval"));
        assert!(get("Network").unwrap().contains("offline"));
        let labels = |r: &ApprovalRequest| -> Vec<&str> {
            dialog_buttons(r).into_iter().map(|(l, _)| l).collect()
        };
        assert_eq!(
            labels(&req),
            [
                "_Deny",
                "Al_ways allow",
                "Allow with _network",
                "_Allow once"
            ]
        );
        assert_eq!(
            dialog_buttons(&req)[2].1,
            ApprovalDecision::AllowWithNetwork
        );
        // What creates extensions offers no grant, and a file write no network.
        let write = ApprovalRequest {
            tool: "create_mcp".into(),
            allow_always: false,
            offer_network: false,
            ..req
        };
        assert_eq!(labels(&write), ["_Deny", "_Allow once"]);
        let (_, rows) = dialog_text(&write);
        assert!(
            rows.iter()
                .all(|(k, _)| *k != "Always allow covers" && *k != "Network")
        );
    }
}
