//! A client's stored credentials sent to a server the line names: kubectl
//! and helm send the current context's token or client certificate to
//! whatever `--server` says, so a host off this machine receives the
//! cluster's credentials (over plain http, anyone on the way does too).

use super::remote_stores::{elsewhere, url_hosts};
use super::*;

impl Analyzer<'_> {
    pub(super) fn credentials_to_named_server(&mut self, c: &Cmd<'_>) {
        let flags: &[&str] = match c.lb.as_str() {
            "kubectl" | "oc" => &["--server", "-s"],
            "helm" => &["--kube-apiserver"],
            _ => return,
        };
        let servers = super::script_opts::values(c, flags);
        if servers.is_empty() {
            return;
        }
        if let Some(h) = servers
            .iter()
            .flat_map(|w| url_hosts(&w.text))
            .find(|h| elsewhere(h))
        {
            self.block(format!(
                "{} sends the cluster's stored credentials to {h}, a server the line names",
                c.base
            ));
        }
        self.ask(format!("{} talks to a server the line names", c.base));
    }
}
