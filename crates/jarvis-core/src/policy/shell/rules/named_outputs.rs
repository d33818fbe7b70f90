//! Any program's output option aimed at a startup file, a system folder or
//! Jarvis's own files (`tool --output ~/.profile`, `gen -o ~/.bashrc`):
//! whatever the program is, an option named for its output writes there,
//! and what lands in a login script runs later. Only what would block as a
//! write counts; the rest is the program's own rules' to judge.

use super::*;

/// Options that name where a program writes (getopt's abbreviations of the
/// long ones count too, as `script_opts::values` reads them).
const OUTPUT_OPTIONS: &[&str] = &[
    "-o",
    "--output",
    "--output-document",
    "--output-file",
    "--output-dir",
    "--output-directory",
    "--out-dir",
    "--outdir",
    "--outfile",
    "--out-file",
    "--out",
    "--dump",
    "--save",
    "--save-to",
    "--log-file",
    "--logfile",
];

impl Analyzer<'_> {
    pub(super) fn named_outputs(&mut self, c: &Cmd<'_>) {
        // Readers' options are judged by their own tables (`od -o` is a
        // format, not an output).
        if super::tables::read_only(&c.lb).is_some() || c.words.len() < 2 {
            return;
        }
        for w in super::script_opts::values(c, OUTPUT_OPTIONS) {
            if w.text.starts_with('-') {
                continue;
            }
            self.block_only(|a| a.write_path(&w, c.cwd(), &c.base));
        }
    }
}
