//! Hotkey daemons started on a bindings file (`sxhkd -c FILE`,
//! `xbindkeys -f FILE`): each binding's command runs at its key press,
//! later and unasked, so the commands of a file this line wrote are
//! judged now.

use super::*;

impl Analyzer<'_> {
    pub(super) fn hotkey_bindings(&mut self, c: &Cmd<'_>) {
        let flags: &[&str] = match c.lb.as_str() {
            "sxhkd" => &["-c"],
            "xbindkeys" => &["-f", "--file"],
            _ => return,
        };
        for f in super::script_opts::values(c, flags) {
            let Some(text) = self.written_text(&f, c.cwd()) else {
                continue;
            };
            let depth = c.depth + 1;
            // sxhkd: commands are the indented lines; xbindkeys: the quoted
            // ones. Either way a key line judged as a command names no
            // program that exists, and only what blocks counts.
            for line in text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
            {
                let cmd = line.trim_matches('"').to_string();
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
