//! Programs that open a file with whatever the desktop associates with it:
//! a `.desktop` entry's `Exec=` line, a script, an installer. A file this
//! line downloaded or decoded, opened so, is download and execute.

use super::*;

/// (program, subcommand it opens with, when it has subcommands).
const OPENERS: &[(&str, Option<&str>)] = &[
    ("xdg-open", None),
    ("gio", Some("open")),
    ("gio", Some("launch")),
    ("gnome-open", None),
    ("kde-open", None),
    ("kde-open5", None),
    ("kde-open6", None),
    ("kioclient", Some("exec")),
    ("kioclient5", Some("exec")),
    ("exo-open", None),
    ("mimeopen", None),
    ("see", None),
    ("run-mailcap", None),
    ("dex", None),
    ("handlr", Some("open")),
    ("wslview", None),
    ("open", None),
    ("gtk-launch", None),
    ("handlr", Some("launch")),
];

impl Analyzer<'_> {
    pub(super) fn opens_download(&mut self, c: &Cmd<'_>) {
        let sub = c
            .args
            .iter()
            .find(|a| !a.starts_with('-'))
            .map(String::as_str);
        let opener = OPENERS
            .iter()
            .any(|(p, s)| *p == c.lb && (s.is_none() || *s == sub));
        if !opener {
            return;
        }
        for w in c.operand_words() {
            // `file://$PWD/x.desktop` is the file; `*.desktop` any it matches.
            let w = match w.text.strip_prefix("file://") {
                Some(p) => Word {
                    text: p.to_string(),
                    ..w.clone()
                },
                None => w,
            };
            let matches_download = w.glob && {
                let p = self.norm(&w, c.cwd());
                self.tainted.iter().any(|t| paths::glob_match(&p, t))
            };
            if self.is_tainted(&w, c.cwd()) || matches_download {
                self.block(format!(
                    "download and execute ({} opens {}, which this line downloaded or decoded, with the program the desktop runs it with)",
                    c.base,
                    shown(&w.text)
                ));
            }
        }
    }
}
