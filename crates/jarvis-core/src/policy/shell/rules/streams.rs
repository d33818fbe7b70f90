//! Endless streams: a device that never runs dry (`/dev/zero`), `yes` or
//! `seq inf`, passed along by programs that copy all they read, ending in
//! a file. Nothing in between stops it, so the disk fills.

use super::*;

impl Analyzer<'_> {
    pub(super) fn endless_into_files(&mut self, script: &Script) {
        for c in &script.commands {
            let argv = peeled(&c.argv);
            let Some(first) = argv.first() else { continue };
            let b = program_name(&first.text);
            let args = &argv[1..];
            let ops: Vec<&Word> = args.iter().filter(|w| !w.text.starts_with('-')).collect();
            let file = |w: &Word| w.text != "/dev/null" && !endless_word(w, script, 0);
            let streams = endless_out(c, script, 0);
            let endless_in = streams || endless_input(c, script);
            // Where the stream goes, besides standard output.
            let option_file = |names: &[&str]| {
                args.iter().enumerate().any(|(k, w)| {
                    names.contains(&w.text.as_str()) && args.get(k + 1).is_some_and(file)
                })
            };
            let writes = match b.as_str() {
                // `cp /dev/zero ./x`, `cp -t dir /dev/zero`: the copy of a
                // device is its content.
                "cp" | "install" => {
                    let to_dir = args
                        .iter()
                        .any(|w| w.text == "-t" || w.text.starts_with("--target-directory"));
                    let sources = if to_dir {
                        &ops[..]
                    } else {
                        ops.split_last().map_or(&[][..], |(_, s)| s)
                    };
                    (to_dir || ops.len() >= 2) && sources.iter().any(|w| endless_word(w, script, 0))
                }
                "tee" => endless_in && ops.iter().any(|w| file(w)),
                "dd" => {
                    let last = |k: &str| args.iter().rev().find_map(|w| w.text.strip_prefix(k));
                    let from =
                        last("if=").map_or(endless_in, |i| endless_word(&Word::lit(i), script, 0));
                    from && last("of=").is_some_and(|o| o != "/dev/null")
                        && last("count=").is_none()
                }
                "split" | "csplit" | "sponge" => endless_in,
                "zstd" | "lz4" | "xz" | "gzip" | "bzip2" => endless_in && option_file(&["-o"]),
                "openssl" => endless_in && option_file(&["-out"]),
                _ => false,
            };
            let into_file = streams && c.redirects.iter().any(Redirect::stdout_to_file);
            if writes || into_file {
                self.block(format!(
                    "fills the disk ({} copies an endless stream into a file with nothing to stop it)",
                    shown(&base_name(&c.argv[0].text))
                ));
            }
        }
    }
}

/// The command writes without end: `yes`, `seq inf`, or a copier whose
/// input never runs dry.
pub(super) fn endless_out(c: &Command, script: &Script, depth: usize) -> bool {
    let argv = peeled(&c.argv);
    let Some(first) = argv.first() else {
        return false;
    };
    let b = program_name(&first.text);
    // `yes`, or `pv /dev/zero` (pv is peeled as a wrapper, leaving its file).
    if b == "yes" || endless_word(first, script, depth) {
        return true;
    }
    if b == "seq"
        && argv
            .last()
            .is_some_and(|w| matches!(lower(&w.text).as_str(), "inf" | "infinity" | "+inf"))
    {
        return true;
    }
    depth <= 16 && copies_all(&b, &argv[1..]) && endless_input(c, script)
}

/// What the command reads never runs dry: an operand, `< DEVICE`, or the
/// pipe from an endless command.
fn endless_input(c: &Command, script: &Script) -> bool {
    let argv = peeled(&c.argv);
    argv.iter().skip(1).any(|w| endless_word(w, script, 1))
        || c.redirects
            .iter()
            .any(|r| r.op == "<" && endless_word(&r.target, script, 1))
        || c.stdin_from
            .and_then(|i| script.commands.get(i))
            .is_some_and(|src| endless_out(src, script, 1))
}

/// A word naming an endless source: the device however spelled
/// (`/dev/./zero`, `/dev/zer?`), or `<(yes)`.
fn endless_word(w: &Word, script: &Script, depth: usize) -> bool {
    if w.procsub {
        return depth < 16
            && w.subs
                .iter()
                .filter_map(|&s| script.commands.get(s))
                .any(|s| endless_out(s, script, depth + 1));
    }
    if w.dynamic {
        return false;
    }
    let p = lower(&paths::normalize(&w.text, None));
    if w.glob {
        return ["/dev/zero", "/dev/urandom", "/dev/random", "/dev/full"]
            .iter()
            .any(|d| paths::glob_match(&p, d));
    }
    endless_device(&p)
}

/// Programs that write out everything they read, as it comes (a count
/// option makes them stop: `xxd -l 32`, `od -N 16`, `hexdump -vn16`).
fn copies_all(b: &str, args: &[Word]) -> bool {
    let counted = |long: &[&str], short: char| {
        args.iter()
            .any(|w| long.iter().any(|f| w.text.starts_with(f)) || short_has(&w.text, short))
    };
    let script_has = |k: &str| {
        args.iter()
            .any(|w| !w.text.starts_with('-') && w.text.contains(k))
    };
    match b {
        "cat" | "tee" | "pv" | "base64" | "base32" | "basenc" | "tr" | "fold" | "gzip"
        | "bzip2" | "xz" | "zstd" | "lz4" | "strings" | "nl" | "rev" | "paste" | "iconv"
        | "cut" => true,
        "grep" | "egrep" | "fgrep" => {
            !counted(&["--max-count", "--count", "--quiet", "--files-with"], 'm')
                && !args.iter().any(|w| {
                    short_has(&w.text, 'c') || short_has(&w.text, 'q') || short_has(&w.text, 'l')
                })
        }
        "sed" => !script_has("q"),
        "awk" | "gawk" | "mawk" => !script_has("exit"),
        "xxd" => !counted(&["-len", "-l"], 'l'),
        "od" => !counted(&["--read-bytes"], 'N'),
        "hexdump" | "hd" => !counted(&["--length"], 'n'),
        "openssl" => args
            .first()
            .is_some_and(|a| matches!(a.text.as_str(), "enc" | "base64")),
        _ => false,
    }
}

/// A device that never runs dry.
pub(super) fn endless_device(p: &str) -> bool {
    matches!(
        p,
        "/dev/zero" | "/dev/urandom" | "/dev/random" | "/dev/full"
    )
}
