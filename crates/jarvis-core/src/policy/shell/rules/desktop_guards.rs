//! The desktop's own safeguards (X access control, the screen lock,
//! Flatpak's sandbox) and programs started under another name.

use super::*;

impl Analyzer<'_> {
    /// The desktop's own safeguards: X access control, the screen lock,
    /// Flatpak's sandbox.
    pub(super) fn desktop_safety(&mut self, c: &Cmd<'_>) {
        let j = lower(&c.args.join(" "));
        match c.lb.as_str() {
            "xhost" if c.args.iter().any(|x| x.starts_with('+')) => {
                self.block("disables security (xhost + lets other users and hosts read and drive the display)");
            }
            "gsettings" | "dconf"
                if (j.starts_with("set") || j.starts_with("write"))
                    && (j.contains("lock-enabled false")
                        || j.contains("lock-enabled' false")
                        || j.contains("disable-lock-screen true")
                        || j.contains("lockdown")
                        || j.contains("ubuntu-lock-on-suspend false")) =>
            {
                self.block(format!(
                    "disables security ({} turns the screen lock off)",
                    c.base
                ));
            }
            "flatpak" if c.args.first().is_some_and(|x| x == "override") => {
                let widens = c.args.iter().any(|x| {
                    let l = lower(x);
                    l.starts_with("--filesystem=home")
                        || l.starts_with("--filesystem=host")
                        || l.starts_with("--filesystem=/")
                        || l.starts_with("--filesystem=~")
                        || l.contains("org.freedesktop.secrets")
                        || l.contains("org.freedesktop.flatpak")
                        || l.starts_with("--device=all")
                        || l.starts_with("--socket=system-bus")
                        || l.starts_with("--socket=session-bus")
                });
                if widens {
                    self.block("disables security (flatpak override opens an app's sandbox to your files, secrets or the bus)");
                }
            }
            "flatpak-spawn" if c.args.iter().any(|x| x == "--host") => {
                self.block(
                    "sandbox escape (flatpak-spawn --host runs the command outside the sandbox)",
                );
            }
            _ => {}
        }
    }
}

impl Analyzer<'_> {
    /// `exec -a kworker sh …`: a program started under another name, so
    /// `ps` shows something else: it hides what runs.
    pub(super) fn masquerade(&mut self, c: &Command) {
        let words: Vec<&str> = c.argv.iter().map(|w| w.text.as_str()).collect();
        if let ["exec", flags @ ..] = words.as_slice() {
            let mut i = 0;
            while i < flags.len() && flags[i].starts_with('-') {
                if flags[i] == "-a"
                    && let (Some(alias), Some(prog)) = (flags.get(i + 1), flags.get(i + 2))
                    && base_name(alias) != base_name(prog)
                {
                    self.block(format!(
                        "obfuscation (exec -a runs {} under the name {alias})",
                        base_name(prog)
                    ));
                }
                i += if flags[i] == "-a" { 2 } else { 1 };
            }
        }
    }
}
