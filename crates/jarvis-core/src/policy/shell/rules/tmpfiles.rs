//! systemd-tmpfiles applies the lines of its configuration files: `r`/`R`
//! remove (recursively), `D` empties a folder on `--remove`, `w`/`f`/`F`
//! write, `L`/`C` link and copy into place. A file this line wrote is read
//! for those paths; the user's own (`--user`) run is no different.

use super::*;

impl Analyzer<'_> {
    pub(super) fn tmpfiles(&mut self, c: &Cmd<'_>) {
        if c.lb != "systemd-tmpfiles" {
            return;
        }
        let remove = c.has("--remove");
        let create = c.has("--create");
        let clean = c.has("--clean");
        for f in c.words[1..].iter().filter(|w| !w.text.starts_with('-')) {
            let Some(text) = self.written_text(f, c.cwd()) else {
                continue;
            };
            for line in text.lines() {
                let mut parts = line.split_whitespace();
                let (Some(kind), Some(path)) = (parts.next(), parts.next()) else {
                    continue;
                };
                if kind.starts_with('#') {
                    continue;
                }
                // `%h` is the user's home; `%T`/`%V` the temporary folders.
                let path = path
                    .replace("%h", "~")
                    .replace("%T", "/tmp")
                    .replace("%V", "/var/tmp");
                let text = match path.strip_prefix('~') {
                    Some(rest) => format!("{HOME}{rest}"),
                    None => path,
                };
                let target = Word { text, ..f.clone() };
                let kind = kind.trim_end_matches(['!', '-', '=', '~', '^', '+']);
                match kind {
                    "r" | "R" if remove => {
                        self.delete_path(&target, kind == "R", c.cwd(), "systemd-tmpfiles")
                    }
                    "D" | "e" if remove || clean => {
                        self.delete_path(&target, true, c.cwd(), "systemd-tmpfiles")
                    }
                    "w" | "f" | "F" | "L" | "C" | "d" | "z" | "Z" | "x" | "a" | "A" | "h" | "H"
                        if create =>
                    {
                        self.write_path(&target, c.cwd(), "systemd-tmpfiles")
                    }
                    _ => {}
                }
            }
        }
        if remove || create || clean {
            self.ask("systemd-tmpfiles applies its configuration");
        }
    }
}
