//! Self-hosting admin tools: WordPress's `wp` runs PHP (`eval`,
//! `eval-file`, `shell`), admin CLIs that print or mint secrets (`wp config
//! get`, Nextcloud's `occ config:system:get dbpassword`, Proxmox's `pveum
//! … token add`), and the commands that stop every machine at once (a UPS's
//! forced shutdown, Proxmox's `stopall`, every VM destroyed from a list).

use super::*;

impl Analyzer<'_> {
    pub(super) fn self_hosting(&mut self, c: &Cmd<'_>) {
        let ops: Vec<&str> = c
            .args
            .iter()
            .map(String::as_str)
            .filter(|a| !a.starts_with('-'))
            .collect();
        let depth = c.depth + 1;
        if c.lb == "wp" {
            self.wp_globals(c, depth);
        }
        match (c.lb.as_str(), ops.as_slice()) {
            // `wp eval CODE`, `wp shell <<< CODE`, `wp eval-file F|-`.
            ("wp", ["eval", code, ..]) => {
                let code = (*code).to_string();
                self.inline_code("php", &code, depth);
            }
            ("wp", ["shell", ..]) => {
                for body in c.src.redirects.iter().filter_map(|r| r.body.as_ref()) {
                    let code = body.text.clone();
                    self.inline_code("php", &code, depth);
                    if let Some(why) = self.code_source(body, c.script) {
                        self.block(format!("{why} (wp shell runs it as PHP)"));
                    }
                }
                if self.fed_code(c) {
                    self.block("download and execute (wp shell runs the PHP it is fed)");
                }
            }
            // (`-` is left out of `ops` with the options.)
            ("wp", ["eval-file", rest @ ..]) => {
                let file = rest.first().copied().unwrap_or("-");
                let w = c
                    .words
                    .iter()
                    .skip_while(|w| w.text != "eval-file")
                    .nth(1)
                    .cloned()
                    .unwrap_or_else(|| Word::lit(file));
                let from_input =
                    matches!(file, "-" | "/dev/stdin" | "/proc/self/fd/0" | "/dev/fd/0");
                if from_input && self.fed_code(c) || self.is_tainted(&w, c.cwd()) {
                    self.block("download and execute (wp eval-file runs PHP from a download)");
                }
                if w.procsub {
                    self.sourced(&w, c);
                }
            }
            // `wp config get DB_PASSWORD` (or a key or salt); `list` with
            // the values, all of them.
            ("wp", ["config", "get", key, ..]) if secret_setting(key) => {
                self.secret_printed(c, "a WordPress secret (its database password, keys, salts)");
            }
            ("wp", ["config", "list", ..])
                if !c
                    .args
                    .iter()
                    .any(|a| a.starts_with("--fields") && !a.contains("value")) =>
            {
                self.secret_printed(c, "WordPress's settings (database password, keys, salts)");
            }
            ("occ", ["config:system:get", key, ..])
            | ("php", [_, "config:system:get", key, ..])
                if secret_setting(key) =>
            {
                self.secret_printed(c, "a Nextcloud secret");
            }
            ("pveum", _) if ops.windows(2).any(|w| w == ["token", "add"]) => {
                self.secret_printed(c, "a new Proxmox API token");
            }
            // Every machine the UPS powers shut down now, or its load cut.
            ("upsmon", _)
                if c.args.windows(2).any(|w| w[0] == "-c" && w[1] == "fsd")
                    || c.args.iter().any(|a| a == "-cfsd") =>
            {
                self.block("system disruption (upsmon -c fsd shuts down every machine on the UPS)");
            }
            ("upscmd", _) => {
                if let Some(cmd) = ops
                    .iter()
                    .find(|o| o.starts_with("load.off") || o.starts_with("shutdown."))
                {
                    self.block(format!(
                        "system disruption (upscmd {cmd} cuts the UPS's power)"
                    ));
                }
            }
            // The driver told to have the UPS cut its power.
            ("upsdrvctl", ["shutdown", ..]) => {
                self.block("system disruption (upsdrvctl shutdown cuts the UPS's power)");
            }
            ("pvenode", ["stopall", ..]) => {
                self.block("system disruption (pvenode stopall stops every guest)");
            }
            ("pvesh", ["create" | "post", path, ..]) => {
                // (`access/users/…`, `//access//users/…`: the same path.)
                let path = paths::squeezed(&format!("/{}", path.trim_matches('/')));
                let path = path.as_str();
                if path.ends_with("/status")
                    && c.args
                        .iter()
                        .any(|a| matches!(a.as_str(), "--command=shutdown" | "--command=reboot"))
                    || c.args.windows(2).any(|w| {
                        w[0] == "--command" && matches!(w[1].as_str(), "shutdown" | "reboot")
                    })
                {
                    self.block("system disruption (pvesh shuts the node down)");
                }
                if ["/stopall", "/shutdown", "/suspendall"]
                    .iter()
                    .any(|e| path.ends_with(e))
                {
                    self.block("system disruption (pvesh stops every guest or the node)");
                }
                // `/access/users/U/token/NAME`: the new token's secret is printed.
                if path.starts_with("/access/users/") && path.contains("/token/") {
                    self.secret_printed(c, "a new Proxmox API token");
                }
            }
            // `qm destroy $id` for ids from a listing: every guest.
            ("qm" | "pct", ["destroy", ..]) if c.words[1..].iter().any(|w| w.dynamic) => {
                self.block(format!(
                    "destroys virtual machines ({} destroy of ids found at run time)",
                    c.base
                ));
            }
            _ => {}
        }
    }

    /// wp's global `--exec=PHP` (run before WordPress loads) and
    /// `--require=FILE` (loaded first), whatever the command.
    fn wp_globals(&mut self, c: &Cmd<'_>, depth: usize) {
        for (i, a) in c.args.iter().enumerate() {
            let value = |flag: &str| {
                a.strip_prefix(&format!("{flag}="))
                    .map(str::to_string)
                    .or_else(|| (a == flag).then(|| c.args.get(i + 1).cloned()).flatten())
            };
            // A value made at run time from a download: code nobody saw.
            let word = c.arg_word(i).filter(|w| w.dynamic || w.procsub);
            if (a.starts_with("--exec") || a.starts_with("--require"))
                && let Some(w) = word.or_else(|| c.arg_word(i + 1).filter(|_| !a.contains('=')))
                && let Some(why) = self.code_source(w, c.script)
            {
                self.block(format!("{why} (wp runs it as PHP)"));
            }
            if let Some(code) = value("--exec") {
                self.inline_code("php", &code, depth);
                self.ask("wp runs the PHP given in --exec");
            }
            if let Some(file) = value("--require") {
                let w = Word::lit(file);
                if self.is_tainted(&w, c.cwd()) {
                    self.block("download and execute (wp --require loads PHP from a download)");
                }
                if let Some(text) = self.written_text(&w, c.cwd()) {
                    self.inline_code("php", &text, depth);
                }
                self.ask("wp loads the PHP file given in --require");
            }
        }
    }

    /// Standard input from a download or a decoder: code nobody saw.
    fn fed_code(&self, c: &Cmd<'_>) -> bool {
        c.src
            .stdin_from
            .is_some_and(|i| self.passes_on(i, c.script) != Producer::Other)
            || c.src.redirects.iter().any(|r| {
                r.op == "<"
                    && r.target.procsub
                    && r.target
                        .subs
                        .iter()
                        .filter_map(|&k| c.script.commands.get(k))
                        .any(|x| self.producer(x) != Producer::Other)
            })
    }

    /// A secret printed: blocks unless it goes straight into a sign-in or
    /// a secret store.
    pub(super) fn secret_printed(&mut self, c: &Cmd<'_>, what: &str) {
        if !super::handoffs::handed_on(c, None) {
            self.block(format!("reveals {what}"));
        }
    }
}

/// A setting named for a secret's value (`DB_PASSWORD`, `AUTH_KEY`,
/// `NONCE_SALT`, `dbpassword`, `secret`), not one about it
/// (`lost_password_link`, `WP_DEBUG`).
fn secret_setting(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    ["password", "secret", "_key", "salt", "token"]
        .iter()
        .any(|s| k.ends_with(s))
}
