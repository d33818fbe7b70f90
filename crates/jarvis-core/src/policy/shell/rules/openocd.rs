//! OpenOCD's commands (`-c`, and a script `-f` names that this line wrote)
//! are Jim Tcl: `exec` and `open "|…"` run programs, `file delete`
//! deletes, `open PATH` reads or writes PATH, `dump_image` and `flash
//! read_bank` write their file; `-l FILE` is its log.

use super::*;

impl Analyzer<'_> {
    pub(super) fn openocd(&mut self, c: &Cmd<'_>) {
        if c.lb != "openocd" {
            return;
        }
        for w in super::script_opts::values(c, &["-l", "--log_output"]) {
            self.write_path(&w, c.cwd(), "openocd -l");
        }
        let mut texts = super::script_opts::values(c, &["-c", "--command"]);
        for f in super::script_opts::values(c, &["-f", "--file"]) {
            if let Some(text) = self.written_text(&f, c.cwd()) {
                texts.push(Word { text, ..f.clone() });
            }
        }
        for t in &texts {
            self.openocd_tcl(t, c);
        }
    }

    /// One Tcl text: each command, nested ones (`[…]`, `{…}`) included.
    fn openocd_tcl(&mut self, t: &Word, c: &Cmd<'_>) {
        let path = |p: &str| Word {
            text: super::script_opts::expanded(p.trim_matches('"')).text,
            ..t.clone()
        };
        let mut understood = true;
        for cmd in t.text.split([';', '\n', '[', ']', '{', '}']) {
            let words: Vec<&str> = cmd.split_whitespace().collect();
            match words.as_slice() {
                ["exec", rest @ ..] => {
                    let line = rest
                        .iter()
                        .skip_while(|w| w.starts_with('-'))
                        .copied()
                        .collect::<Vec<_>>()
                        .join(" ");
                    self.block_only(|a| a.script(&line, &[], c.depth + 1));
                    self.ask("openocd runs a program (Tcl exec)");
                }
                ["open", target, rest @ ..] if target.trim_start_matches('"').starts_with('|') => {
                    let first = target.trim_start_matches('"').trim_start_matches('|');
                    let line = std::iter::once(first)
                        .chain(rest.iter().copied())
                        .collect::<Vec<_>>()
                        .join(" ");
                    let line = line.trim_end_matches('"');
                    self.block_only(|a| a.script(line, &[], c.depth + 1));
                    self.ask("openocd runs a program (Tcl open of a pipe)");
                }
                ["open", target, mode @ ..] => {
                    let w = path(target);
                    if mode.first().is_some_and(|m| m.contains(['w', 'a', '+'])) {
                        self.write_path(&w, c.cwd(), "openocd's Tcl open");
                    } else {
                        self.read_path(&w, c.cwd());
                    }
                    self.ask("openocd's Tcl opens a file");
                }
                ["file", "delete", rest @ ..] => {
                    let targets: Vec<String> = rest
                        .iter()
                        .filter(|w| !w.starts_with('-'))
                        .map(|w| crate::policy::shell::quote(&path(w).text))
                        .collect();
                    let line = format!("rm -rf -- {}", targets.join(" "));
                    self.block_only(|a| a.script(&line, &[], c.depth + 1));
                    self.ask("openocd's Tcl deletes files");
                }
                ["dump_image", f, ..] | ["flash", "read_bank", _, f, ..] => {
                    self.write_path(&path(f), c.cwd(), "openocd");
                }
                [first, ..] if matches!(*first, "eval" | "uplevel" | "source" | "file") => {
                    understood = false;
                }
                _ => {}
            }
        }
        if !understood || t.text.contains('|') {
            self.ask("openocd runs Tcl the guard does not follow");
        }
    }
}
