//! A certificate made a trusted authority: NSS `certutil -A -t C,,`
//! (browsers' stores), p11-kit `trust anchor`, macOS `security
//! add-trusted-cert`, Windows `certutil -addstore root`, a JDK's
//! `keytool -importcert -trustcacerts`. Every TLS connection it signs is
//! then trusted; one this line downloaded installs a man in the middle.

use super::*;

impl Analyzer<'_> {
    pub(super) fn trust_roots(&mut self, c: &Cmd<'_>) {
        let ops = || operands(c);
        let cert: Option<Word> = match c.lb.as_str() {
            "certutil"
                if c.has("-A")
                    && super::script_opts::values(c, &["-t"])
                        .iter()
                        .any(|t| t.text.contains('C')) =>
            {
                super::script_opts::first_value(c, &["-i"])
            }
            "certutil" if c.args.iter().any(|a| a.eq_ignore_ascii_case("-addstore")) => {
                ops().last().map(|w| (*w).clone())
            }
            "trust" if c.args.first().is_some_and(|a| a == "anchor") => {
                ops().last().map(|w| (*w).clone())
            }
            "security" if c.args.iter().any(|a| a == "add-trusted-cert") => {
                ops().last().map(|w| (*w).clone())
            }
            "keytool"
                if c.args.iter().any(|a| a == "-importcert" || a == "-import")
                    && c.has("-trustcacerts") =>
            {
                super::script_opts::first_value(c, &["-file"])
            }
            _ => None,
        };
        let Some(w) = cert else { return };
        let fetched = w.text.contains("://") || self.is_tainted(&w, c.cwd());
        if fetched {
            self.block(format!(
                "a certificate this line downloaded ({}) is made a trusted authority: a man in the middle for every TLS connection",
                shown(&w.text)
            ));
        }
        self.ask(format!(
            "{} makes {} a trusted certificate authority",
            c.base,
            shown(&w.text)
        ));
    }
}
