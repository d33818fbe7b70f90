//! Hotkey daemons and window managers started on a file this line wrote
//! (`sxhkd -c FILE`, `xbindkeys -f FILE`, `i3 -c FILE`): each binding's
//! command runs at its key press, later and unasked, so those commands are
//! judged now.

use super::*;

impl Analyzer<'_> {
    pub(super) fn hotkey_bindings(&mut self, c: &Cmd<'_>) {
        let flags: &[&str] = match c.lb.as_str() {
            "sxhkd" | "swhkd" | "skhd" => &["-c"],
            "xbindkeys" => &["-f", "--file"],
            "i3" | "sway" | "hyprland" => &["-c", "--config"],
            _ => return,
        };
        for f in super::script_opts::values(c, flags) {
            let Some(text) = self.written_text(&f, c.cwd()) else {
                continue;
            };
            let depth = c.depth + 1;
            for cmd in binding_commands(&c.lb, &text) {
                self.block_only(|a| a.script(&cmd, &[], depth));
            }
            self.ask(format!(
                "{} binds keys to the commands of {}",
                c.base,
                shown(&f.text)
            ));
        }
    }
}

/// The command lines of a bindings file: sxhkd's indented lines,
/// xbindkeys' quoted ones, what follows `exec` in i3's, sway's and
/// Hyprland's (`bindsym $mod+x exec …`, `exec-once = …`), skhd's after `:`.
fn binding_commands(lb: &str, text: &str) -> Vec<String> {
    let lines = text.lines().filter(|l| !l.trim_start().starts_with('#'));
    match lb {
        "sxhkd" | "swhkd" => lines
            .filter(|l| l.starts_with([' ', '\t']))
            .map(|l| l.trim().to_string())
            .collect(),
        "xbindkeys" => lines
            .map(str::trim)
            .filter(|l| l.starts_with('"'))
            .map(|l| l.trim_matches('"').to_string())
            .collect(),
        "skhd" => lines
            .filter_map(|l| l.split_once(':').map(|(_, cmd)| cmd.trim().to_string()))
            .collect(),
        _ => lines
            .filter_map(|l| {
                let at = l.find("exec")?;
                let rest = l[at..].trim_start_matches(|ch: char| {
                    ch.is_ascii_alphanumeric() || ch == '_' || ch == '-'
                });
                let rest = rest.trim_start().trim_start_matches('=').trim_start();
                let rest = rest.strip_prefix("--no-startup-id").unwrap_or(rest);
                Some(rest.trim().to_string())
            })
            .collect(),
    }
}
