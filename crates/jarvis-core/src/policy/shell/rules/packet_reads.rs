//! Saved packet captures read back: what tshark prints from one.

use super::*;

/// tshark reading a saved capture: the file after `-r`, when every other
/// option only chooses what is printed.
pub(super) fn tshark_reads(c: &Cmd<'_>) -> Option<Vec<Word>> {
    const VALUED: &[&str] = &[
        "-r", "-Y", "-R", "-T", "-e", "-E", "-c", "-z", "-O", "-d", "-J", "-j",
    ];
    const BARE: &[&str] = &["-q", "-n", "-V", "-x", "-2", "-P", "-l"];
    let mut files = Vec::new();
    let mut i = 1;
    while let Some(w) = c.words.get(i) {
        let t = w.text.as_str();
        if VALUED.contains(&t) {
            let v = c.words.get(i + 1)?;
            if t == "-r" {
                files.push(v.clone());
            }
            i += 2;
            continue;
        }
        if !BARE.contains(&t) {
            return None;
        }
        i += 1;
    }
    Some(files)
}
