//! Exports of an app's user accounts: every user's sign-in (password
//! hashes and their salts, phone numbers, provider tokens) written out.

use super::*;

impl Analyzer<'_> {
    pub(super) fn user_exports(&mut self, c: &Cmd<'_>) {
        if c.lb == "firebase" && c.args.iter().any(|a| a == "auth:export") {
            self.block(
                "exports every user's account with their password hashes (firebase auth:export)",
            );
        }
    }
}
