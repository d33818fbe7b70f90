//! Code a program loads from a folder this line filled from the network:
//! a plugin or module path set to it (`ANSIBLE_CALLBACK_PLUGINS=/tmp/cb`,
//! `PYTHONPATH=./vendor` after a download into it), or a playbook run out
//! of a role just fetched. As a downloaded script run is, it blocks.

use super::*;

/// Variables that name folders a program loads code from.
fn load_path(name: &str) -> bool {
    let up = name.to_ascii_uppercase();
    up.starts_with("ANSIBLE_")
        && (up.ends_with("_PLUGINS")
            || up.ends_with("_PATH")
            || up.ends_with("_PATHS")
            || up == "ANSIBLE_LIBRARY")
        || matches!(
            up.as_str(),
            "PYTHONPATH"
                | "NODE_PATH"
                | "PERL5LIB"
                | "PERLLIB"
                | "RUBYLIB"
                | "LD_LIBRARY_PATH"
                | "GEM_PATH"
                | "LUA_PATH"
                | "R_LIBS"
        )
}

impl Analyzer<'_> {
    /// A folder holds something this line downloaded, decoded or cloned.
    fn holds_fetched(&self, dir: &str, cwd: Option<&str>) -> bool {
        let d = self.norm(&Word::lit(dir), cwd);
        let d = d.trim_end_matches('/');
        let under = format!("{d}/");
        self.tainted
            .iter()
            .chain(self.cloned.iter())
            .any(|t| t.starts_with(&under) || under.starts_with(t.as_str()))
    }

    pub(super) fn runs_fetched_code(&mut self, c: &Cmd<'_>) {
        for (name, value) in c.assigns.iter() {
            if !load_path(name) || value.dynamic {
                continue;
            }
            if value
                .text
                .split([':', ','])
                .any(|d| !d.is_empty() && self.holds_fetched(d, c.cwd()))
            {
                self.block(format!(
                    "download and execute ({name} makes {} load code this line downloaded)",
                    c.base
                ));
            }
        }
        if c.lb == "ansible-playbook" {
            for w in c.operand_words() {
                if !w.dynamic && self.is_tainted(&w, c.cwd()) {
                    self.block(format!(
                        "download and execute (ansible-playbook runs {}, which this line downloaded)",
                        shown(&w.text)
                    ));
                }
            }
        }
    }
}
