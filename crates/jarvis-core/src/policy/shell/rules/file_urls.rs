//! `file://` URLs inside another program's text (a SQL query's
//! ``text.`file:///…` ``, a config value, a JSON body): the path is read by
//! whatever takes the URL, as if named on the command line.

use super::*;

impl Analyzer<'_> {
    pub(super) fn embedded_file_urls(&mut self, c: &Cmd<'_>) {
        // (A pattern searched for is text, not a read.)
        if tables::TEXT_SEARCHERS.contains(&c.lb.as_str()) {
            return;
        }
        for w in &c.words[1..] {
            if !w.text.contains("://") {
                continue;
            }
            let l = lower(&w.text);
            for (i, _) in l.match_indices("file://") {
                let rest = super::sqlite::percent_decoded(&w.text[i + 7..]);
                let path: String = rest
                    .chars()
                    .take_while(|ch| !ch.is_whitespace() && !"`'\",;)]}|<>?#".contains(*ch))
                    .collect();
                // `file://localhost/p` is `/p`; another host is not this machine.
                let path = path.strip_prefix("localhost").unwrap_or(&path);
                if !path.starts_with('/') {
                    continue;
                }
                let p = self.norm_text(path, c.cwd());
                if let Some(why) = paths::credential_normalized(&p, path) {
                    self.block(format!("reads a secret through a file:// URL: {why}"));
                } else if self.app_state(&p) {
                    self.block(format!(
                        "reads Jarvis's own state through a file:// URL ({})",
                        shown(path)
                    ));
                }
            }
        }
    }
}
