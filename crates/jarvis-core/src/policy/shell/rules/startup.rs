//! Files programs run or source when they start, and scripts staged where
//! nobody looks.

use super::*;

/// File names programs run or source at start, wherever they are.
pub(super) fn startup_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    matches!(
        n.as_str(),
        "usercustomize.py"
            | "sitecustomize.py"
            | ".bashrc"
            | ".bash_profile"
            | ".profile"
            | ".zshrc"
            | ".zprofile"
            | ".zshenv"
            | "config.fish"
            | "authorized_keys"
            | ".npmrc"
            | ".pythonrc"
    ) || n.ends_with(".pth")
}

impl Analyzer<'_> {
    /// A script kept in a temporary folder or under a hidden name, run from
    /// inside another program (an option, a pager, a hook): code nobody
    /// can see, started where nobody looks. At the top it asks.
    pub(super) fn staged_from_inside(&mut self, w: &Word, c: &Cmd<'_>) {
        if c.depth == 0 || w.dynamic {
            return;
        }
        let p = self.norm(w, c.cwd());
        let name = p.rsplit('/').next().unwrap_or("");
        let temp = ["/tmp/", "/var/tmp/", "/dev/shm/"]
            .iter()
            .any(|d| p.starts_with(d));
        let hidden =
            name.starts_with('.') && name.len() > 1 && (p.starts_with('/') || p.starts_with('~'));
        if (temp || hidden) && !self.inside(&p) {
            self.block(format!(
                "{} runs {} from inside another program: a script staged in a temporary or hidden place",
                c.base,
                shown(&w.text)
            ));
        }
    }
}
