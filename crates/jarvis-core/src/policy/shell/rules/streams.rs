//! Endless streams: a device that never runs dry (`/dev/zero`) or `yes`,
//! passed along by programs that copy all they read, ending in a file.
//! Nothing in between stops it, so the disk fills.

use super::spawners::endless_device;
use super::*;

impl Analyzer<'_> {
    pub(super) fn endless_into_files(&mut self, script: &Script) {
        for c in &script.commands {
            let argv = peeled(&c.argv);
            let Some(first) = argv.first() else { continue };
            let b = lower(&base_name(&first.text));
            let ops: Vec<&Word> = argv[1..]
                .iter()
                .filter(|w| !w.text.starts_with('-'))
                .collect();
            let file = |w: &&Word| w.text != "/dev/null" && !endless_device(&lower(&w.text));
            // `cp /dev/zero ./x`: the copy of a device is its content.
            let copied = matches!(b.as_str(), "cp" | "install")
                && ops.len() >= 2
                && ops[..ops.len() - 1]
                    .iter()
                    .any(|w| !w.dynamic && endless_device(&lower(&w.text)))
                && ops.last().is_some_and(file);
            let streams = endless_out(c, script, 0);
            let into_file = c.redirects.iter().any(Redirect::stdout_to_file)
                || b == "tee" && ops.iter().any(file);
            if copied || streams && into_file {
                self.block(format!(
                    "fills the disk ({} copies an endless stream into a file with nothing to stop it)",
                    shown(&base_name(&c.argv[0].text))
                ));
            }
        }
    }
}

/// The command writes without end: `yes`, or a copier whose input never
/// runs dry.
fn endless_out(c: &Command, script: &Script, depth: usize) -> bool {
    let argv = peeled(&c.argv);
    let Some(first) = argv.first() else {
        return false;
    };
    let b = lower(&base_name(&first.text));
    // `yes`, or `pv /dev/zero` (pv is peeled as a wrapper, leaving its file).
    if b == "yes" || !first.dynamic && endless_device(&lower(&first.text)) {
        return true;
    }
    if depth > 16 || !copies_all(&b, &argv[1..]) {
        return false;
    }
    let operand = argv[1..]
        .iter()
        .any(|w| !w.dynamic && endless_device(&lower(&w.text)));
    let redirected = c
        .redirects
        .iter()
        .any(|r| r.op == "<" && endless_device(&lower(&r.target.text)));
    let piped = c
        .stdin_from
        .and_then(|i| script.commands.get(i))
        .is_some_and(|src| endless_out(src, script, depth + 1));
    operand || redirected || piped
}

/// Programs that write out everything they read, as it comes (a count
/// option makes them stop: `xxd -l 32`, `od -N 16`).
fn copies_all(b: &str, args: &[Word]) -> bool {
    let counted = |flags: &[&str]| {
        args.iter()
            .any(|w| flags.iter().any(|f| w.text.starts_with(f)))
    };
    match b {
        "cat" | "tee" | "pv" | "base64" | "base32" | "basenc" | "tr" | "fold" | "gzip"
        | "bzip2" | "xz" | "zstd" | "lz4" | "strings" => true,
        "xxd" => !counted(&["-l", "-len"]),
        "od" => !counted(&["-N", "--read-bytes"]),
        "hexdump" | "hd" => !counted(&["-n", "--length"]),
        "openssl" => args
            .first()
            .is_some_and(|a| matches!(a.text.as_str(), "enc" | "base64")),
        _ => false,
    }
}
