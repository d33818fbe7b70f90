//! Programs that create, copy, move, delete, archive or re-permission files.

use super::*;

impl Analyzer<'_> {
    /// `None` when `c` is not a file program.
    pub(super) fn file_program(&mut self, c: &Cmd<'_>) -> Option<bool> {
        let lb = c.lb.as_str();
        let cwd = c.cwd();
        match lb {
            "rm" | "rmdir" | "unlink" | "shred" | "srm" | "wipe" | "trash" | "trash-put"
            | "gio" | "del" | "erase" | "rd" | "remove-item" | "ri" | "rimraf" => {
                if lb == "gio" && c.args.first().is_none_or(|a| a != "trash" && a != "remove") {
                    return None;
                }
                self.remove(c);
                Some(false)
            }
            "cp" | "mv" | "install" | "ln" | "rsync" | "ditto" | "copy" | "move" | "xcopy"
            | "robocopy" | "copy-item" | "move-item" | "cpi" | "mi" | "link" | "symlink" => {
                if let Some(paths) = rsync_dry_run(c) {
                    let mut read_only = true;
                    for p in &paths {
                        read_only &= self.read_tree(p, cwd, "rsync");
                    }
                    return Some(read_only);
                }
                self.copy(c);
                Some(false)
            }
            "tee" => {
                let files: Vec<Word> = c.operand_words();
                for f in &files {
                    self.write_path(f, cwd, "tee");
                }
                Some(files.iter().all(|f| f.text == "/dev/null"))
            }
            "touch" | "mkdir" | "truncate" | "mkfifo" | "mknod" | "new-item" | "ni"
            | "set-content" | "add-content" | "out-file" | "md" => {
                let ps = lb.contains('-') || matches!(lb, "ni" | "md");
                for (i, w) in c.words.iter().enumerate().skip(1) {
                    let prev = c.args.get(i.wrapping_sub(2)).map(|p| lower(p));
                    let is_path = if ps {
                        prev.as_deref()
                            .is_some_and(|p| matches!(p, "-path" | "-literalpath" | "-filepath"))
                            || (i == 1 && !w.text.starts_with('-'))
                    } else {
                        !w.text.starts_with('-')
                            && !prev.as_deref().is_some_and(|p| {
                                matches!(
                                    p,
                                    "-s" | "--size"
                                        | "-m"
                                        | "--mode"
                                        | "-r"
                                        | "--reference"
                                        | "-d"
                                        | "-t"
                                )
                            })
                    };
                    if is_path {
                        self.write_path(w, cwd, lb);
                    }
                }
                self.ask(format!("{} changes files", c.base));
                Some(false)
            }
            "chmod" | "chown" | "chgrp" | "chattr" | "setfacl" | "takeown" | "icacls" | "cacls"
            | "set-acl" | "chflags" => {
                self.perms(c);
                Some(false)
            }
            "fallocate" | "mkfile" => {
                // A size read off the free space (`$(df --output=avail …)`)
                // is all of it.
                if c.words.iter().skip(1).any(|w| {
                    w.subs
                        .iter()
                        .filter_map(|&k| c.script.commands.get(k))
                        .any(|k| {
                            k.argv.first().is_some_and(|p| {
                                matches!(program_name(&p.text).as_str(), "df" | "findmnt")
                            })
                        })
                }) {
                    self.block(format!(
                        "fills the disk ({lb} reserves the free space it measured)"
                    ));
                }
                let mut skip = false;
                for (i, w) in c.words.iter().enumerate().skip(1) {
                    let x = w.text.as_str();
                    if skip {
                        skip = false;
                        continue;
                    }
                    let size = match x {
                        "-l" | "--length" | "-o" | "--offset" => {
                            skip = true;
                            c.words.get(i + 1).and_then(|v| byte_size(&v.text))
                        }
                        _ if x.starts_with("--length=") => byte_size(&x[9..]),
                        _ if x.starts_with("-l") && x.len() > 2 => byte_size(&x[2..]),
                        // `mkfile [-nv] SIZE FILE…`: the first operand is the size.
                        _ if lb == "mkfile"
                            && !x.starts_with('-')
                            && c.words[1..i].iter().all(|w| w.text.starts_with('-')) =>
                        {
                            byte_size(x)
                        }
                        _ if x.starts_with('-') => None,
                        _ => {
                            self.write_path(w, cwd, lb);
                            None
                        }
                    };
                    if size.is_some_and(|n| n >= DISK_FILL) {
                        self.block(format!("fills the disk ({lb} reserves {x} and more)"));
                    }
                }
                self.ask(format!("{} reserves disk space", c.base));
                Some(false)
            }
            "dd" => {
                for a in &c.args {
                    if let Some(of) = a.strip_prefix("of=") {
                        let w = Word {
                            text: of.to_string(),
                            ..c.words[1].clone()
                        };
                        let w = Word {
                            dynamic: c.words.iter().any(|x| x.text == *a && x.dynamic),
                            ..w
                        };
                        if w.dynamic {
                            // Raw writes to a target chosen at run time: a disk, as likely as not.
                            self.block(format!(
                                "dd writes raw data to a target known only at run time ({})",
                                shown(of)
                            ));
                        }
                        self.write_path(&w, cwd, "dd");
                    }
                    if let Some(i) = a.strip_prefix("if=") {
                        self.read_path(&Word::lit(i), cwd);
                    }
                }
                // The last of a repeated operand is the one dd uses; `count=`
                // counts input blocks (`ibs=`, or `bs=`).
                let last = |k: &str| c.args.iter().rev().find_map(|a| a.strip_prefix(k));
                let of = last("of=");
                let to_file = match of {
                    Some(o) => o != "/dev/null",
                    None => c.src.redirects.iter().any(Redirect::stdout_to_file),
                };
                let endless = last("if=").map_or_else(
                    || {
                        c.src.redirects.iter().any(|r| {
                            r.op == "<" && super::streams::endless_device(&lower(&r.target.text))
                        })
                    },
                    |i| super::streams::endless_device(&lower(i)),
                );
                if endless && to_file && last("count=").is_none() {
                    self.block("fills the disk or memory (dd copies an endless source into a file with no count=)");
                }
                let block = last("bs=").or(last("ibs=")).map_or(Some(512), byte_size);
                let total = block
                    .zip(last("count=").and_then(byte_size))
                    .map(|(b, n)| b.saturating_mul(n));
                if to_file && total.is_some_and(|t| t >= DISK_FILL) {
                    self.block("fills the disk (dd writes bs × count, tens of gigabytes or more)");
                }
                self.ask("dd writes raw data");
                Some(false)
            }
            "tar" | "bsdtar" | "gtar" => Some(self.tar(c)),
            "zip" | "7z" | "7za" | "rar" | "jar" => {
                // `zip OUT.zip FILES…`, `7z a OUT FILES`, `7z x ARCHIVE -oDIR`.
                let ops: Vec<&Word> = c.words[1..]
                    .iter()
                    .filter(|w| !w.text.starts_with('-'))
                    .collect();
                let listing = c.args.first().is_some_and(|a| a == "l" || a == "t");
                if listing {
                    return Some(self.reads_all(ops.iter().skip(1).copied(), cwd));
                }
                // `7z x -spf`: the members' absolute paths kept, as tar -P.
                if lb.starts_with("7z")
                    && c.args.first().is_some_and(|a| a == "x" || a == "e")
                    && c.args.iter().any(|a| a.starts_with("-spf"))
                {
                    self.block(format!(
                        "{lb} -spf extracts to the absolute paths the archive names (anywhere on the machine)"
                    ));
                }
                // `7z x ARCHIVE -oDIR`: the archive read, its members
                // written below DIR (here without `-o`), as `unzip -d`.
                if lb.starts_with("7z") && c.args.first().is_some_and(|a| a == "x" || a == "e") {
                    let dest = c.words[1..]
                        .iter()
                        .find_map(|w| {
                            let d = w.text.strip_prefix("-o").filter(|d| !d.is_empty())?;
                            Some(Word {
                                text: d.to_string(),
                                ..w.clone()
                            })
                        })
                        .unwrap_or_else(|| Word::lit("."));
                    self.extract_into_from(&dest, ops.get(1).copied(), cwd, lb);
                    self.ask(format!("{} extracts an archive", c.base));
                    return Some(false);
                }
                let (out_i, src_from) = if matches!(lb, "7z" | "7za" | "rar") {
                    (1, 2)
                } else {
                    (0, 1)
                };
                if let Some(out) = ops.get(out_i) {
                    self.write_path(out, cwd, lb);
                }
                for s in ops.iter().skip(src_from) {
                    self.read_tree(s, cwd, lb);
                }
                for a in &c.args {
                    if let Some(d) = a.strip_prefix("-o").filter(|d| !d.is_empty()) {
                        self.write_path(&Word::lit(d), cwd, lb);
                    }
                    if a == "-TT" || a == "--unzip-command" {
                        self.ask("zip runs a test command");
                    }
                }
                if c.short('T')
                    && c.args.iter().any(|a| a == "-TT")
                    && let Some(cmd) = c.value("-TT").cloned()
                {
                    self.shell_code(&cmd, &[], c.script, c.depth);
                }
                self.ask(format!("{} writes an archive", c.base));
                Some(false)
            }
            "cpio"
                if c.args.iter().any(|a| {
                    a == "-o"
                        || a == "-p"
                        || a == "--create"
                        || a == "--pass-through"
                        || short_flags(a).is_some_and(|b| b.contains(['o', 'p']))
                }) =>
            {
                self.names_on_stdin(c);
                self.ask("cpio archives the files named on its input");
                Some(false)
            }
            "unzip" | "cpio" | "unrar" | "gunzip" | "gzip" | "bzip2" | "bunzip2" | "xz"
            | "unxz" | "zstd" | "unzstd" | "lz4" | "split" | "csplit" | "patch"
            | "expand-archive" => {
                // `patch --dry-run`: says what it would change, writes nothing.
                if lb == "patch"
                    && c.has("--dry-run")
                    && !c
                        .args
                        .iter()
                        .any(|a| a.starts_with("-o") || a.starts_with("--output"))
                {
                    let mut read_only = true;
                    for w in c.operand_words() {
                        read_only &= self.read_path(&w, cwd);
                    }
                    return Some(read_only);
                }
                // `cpio -t`: the archive on its input (or `-F FILE`) listed.
                if lb == "cpio"
                    && (c.short('t') || c.has("--list"))
                    && !c
                        .args
                        .iter()
                        .any(|a| a.starts_with("--to") || a.starts_with("--rsh"))
                {
                    let archive = c.value("-F").or_else(|| c.value("--file")).cloned();
                    // `-F host:file` is read over the network.
                    let remote = archive.as_ref().is_some_and(|f| {
                        f.text
                            .split_once(':')
                            .is_some_and(|(h, _)| !h.is_empty() && !h.contains('/'))
                    });
                    if remote {
                        self.ask("cpio reads an archive from another host");
                        return Some(false);
                    }
                    return Some(archive.is_none_or(|f| self.read_path(&f, cwd)));
                }
                if lb == "cpio"
                    && c.args.iter().any(|a| a.starts_with("--absolute-filenames"))
                    && (c.short('i') || c.has("--extract"))
                {
                    self.block(
                        "cpio --absolute-filenames extracts to the absolute paths the archive names (anywhere on the machine)",
                    );
                }
                // Listing, testing, or `-p`/`-c` printing members.
                if lb == "unzip"
                    && c.args.iter().any(|a| {
                        matches!(
                            a.as_str(),
                            "-l" | "-t" | "-v" | "-Z" | "-p" | "-c" | "-pq" | "-qp"
                        ) || a.starts_with("-Z")
                    })
                    && !c.args.iter().any(|a| a == "-d")
                {
                    let files: Vec<&Word> = c.words[1..]
                        .iter()
                        .filter(|w| !w.text.starts_with('-'))
                        .collect();
                    return Some(self.reads_all(files.iter().copied(), cwd));
                }
                // A listing or a test of the archive, bundled or not (`xz -lvv`).
                if matches!(lb, "gzip" | "xz" | "bzip2" | "zstd")
                    && c.args.iter().any(|a| {
                        a == "--list"
                            || a == "--test"
                            || short_flags(a).is_some_and(|f| {
                                f.contains(['l', 't']) && f.chars().all(|ch| "ltvq".contains(ch))
                            })
                    })
                    && c.args.iter().filter(|a| a.starts_with('-')).all(|a| {
                        matches!(a.as_str(), "--list" | "--test" | "--verbose" | "--quiet")
                            || short_flags(a)
                                .is_some_and(|f| f.chars().all(|ch| "ltvq".contains(ch)))
                    })
                {
                    return Some(true);
                }
                // `gzip -dc F`: decompressed to stdout, nothing written.
                if matches!(
                    lb,
                    "gzip" | "xz" | "bzip2" | "zstd" | "gunzip" | "unxz" | "bunzip2" | "zcat"
                ) && (c.short('c') || c.has("--stdout") || c.has("--to-stdout") || lb == "zcat")
                    && c.args.iter().all(|a| {
                        !a.starts_with('-')
                            || (!a.starts_with("--")
                                && a[1..].chars().all(|ch| "cdkqvf".contains(ch)))
                            || matches!(
                                a.as_str(),
                                "--stdout" | "--to-stdout" | "--decompress" | "--keep"
                            )
                    })
                    && !c.src.redirects.iter().any(Redirect::writes_file)
                {
                    return Some(self.reads_all(&c.operand_words(), cwd));
                }
                let dest = match lb {
                    "unzip" => c.value("-d").cloned(),
                    "cpio" => c.value("-D").or_else(|| c.value("--directory")).cloned(),
                    "expand-archive" => c.value("-DestinationPath").cloned(),
                    _ => None,
                };
                let archive = c.operand_words().into_iter().next();
                let lb = if lb == "unzip" && c.args.iter().any(|a| a == "-:") {
                    "unzip -:"
                } else {
                    lb
                };
                // As tar -P: members' `../` and absolute paths kept, they
                // land wherever the archive says (`unzip -:`, `7z x -spf`).
                // GNU cpio keeps members' absolute names unless told not
                // to: an archive from a download lands anywhere it says.
                if lb == "cpio"
                    && (c.short('i') || c.has("--extract"))
                    && !c.has("--no-absolute-filenames")
                {
                    let piped = c
                        .src
                        .stdin_from
                        .is_some_and(|p| self.passes_on(p, c.script) != Producer::Other);
                    let from_download = c
                        .src
                        .redirects
                        .iter()
                        .any(|r| r.op == "<" && self.is_tainted(&r.target, cwd));
                    if piped || from_download {
                        self.block(
                            "cpio extracts a download to the absolute paths it names (anywhere on the machine)",
                        );
                    }
                }
                if lb == "unzip -:" {
                    self.block(format!(
                        "{lb} extracts to the paths the archive names, `../` and absolute ones too (anywhere on the machine)"
                    ));
                }
                match dest {
                    Some(d) => self.extract_into_from(&d, archive.as_ref(), cwd, lb),
                    None if matches!(lb, "unzip" | "7z" | "cpio") => {
                        self.extract_into_from(&Word::lit("."), archive.as_ref(), cwd, lb)
                    }
                    None => {}
                }
                let files: Vec<Word> = c.operand_words();
                for f in &files {
                    // Compressing in place replaces the file.
                    if matches!(
                        lb,
                        "gzip" | "gunzip" | "bzip2" | "bunzip2" | "xz" | "unxz" | "zstd" | "unzstd"
                    ) && !c.short('c')
                        && !c.has("--stdout")
                    {
                        self.write_path(f, cwd, lb);
                    } else {
                        self.read_path(f, cwd);
                    }
                }
                self.ask(format!("{} writes files", c.base));
                Some(false)
            }
            "sort"
                if c.args
                    .iter()
                    .any(|x| spells(x, "-o") || spells(x, "--output")) =>
            {
                // (`-o F`, `-oF`, `--output=F`, `--out F`.)
                let out = super::script_opts::first_value(c, &["-o", "--output"]);
                if let Some(o) = &out {
                    self.write_path(o, cwd, "sort -o");
                }
                // What it sorts is read, wherever the result goes.
                for w in c.words[1..].iter().filter(|w| !w.text.starts_with('-')) {
                    if out
                        .as_ref()
                        .is_none_or(|o| !std::ptr::eq(o, w) && o.text != w.text)
                    {
                        self.read_path(w, cwd);
                    }
                }
                Some(false)
            }
            "uniq" => {
                let ops: Vec<&Word> = c.words[1..]
                    .iter()
                    .filter(|w| !w.text.starts_with('-'))
                    .collect();
                if let Some(out) = ops.get(1) {
                    self.read_path(ops[0], cwd);
                    self.write_path(out, cwd, "uniq");
                    return Some(false);
                }
                None
            }
            "sed" | "perl" | "ruby"
                if c.args.iter().any(|x| {
                    x == "-i"
                        || x.starts_with("-i")
                        || x.starts_with("--in-place")
                        || short_has(x, 'i')
                }) =>
            {
                // What the edit puts into the files, judged as planted there.
                let mut inserted = Vec::new();
                if lb == "sed" {
                    // Every `-e`/`--expression`, else the first operand.
                    let mut scripts: Vec<String> =
                        super::script_opts::values(c, &["-e", "--expression"])
                            .into_iter()
                            .map(|w| w.text)
                            .collect();
                    if scripts.is_empty() {
                        scripts.extend(
                            c.words[1..]
                                .iter()
                                .find(|w| !w.text.starts_with('-'))
                                .map(|w| w.text.clone()),
                        );
                    }
                    for s in &scripts {
                        self.sed_script(s, c);
                        inserted.extend(super::awk_sed::sed_inserts(s));
                    }
                } else if let Some(code) = c.words[1..]
                    .windows(2)
                    .find(|w| w[0].text.starts_with('-') && w[0].text.contains('e'))
                    .map(|w| w[1].text.clone())
                {
                    self.inline_code(lb, &code, c.depth);
                    if super::code_fold::substitutions_only(&code) {
                        inserted = super::awk_sed::sed_inserts(&code);
                    }
                }
                // The files edited: operands after the script.
                let mut ops: Vec<&Word> = c.words[1..]
                    .iter()
                    .filter(|w| !w.text.starts_with('-'))
                    .collect();
                if !c.args.iter().any(|a| {
                    a == "-e" || a == "-f" || a.ends_with('e') || a.starts_with("--expression")
                }) || lb == "sed"
                    && c.value("-e").is_none()
                    && !c.args.iter().any(|a| a.starts_with("--expression"))
                {
                    if !ops.is_empty() {
                        ops.remove(0);
                    }
                } else if lb != "sed" && !ops.is_empty() {
                    ops.remove(0);
                }
                for f in &ops {
                    self.write_path(f, cwd, &format!("{} -i", c.base));
                }
                self.plant_edits(&ops, &inserted, cwd, c.depth);
                self.ask(format!("{} edits files in place", c.base));
                Some(false)
            }
            _ => None,
        }
    }

    /// `rm`-like deletion.
    fn remove(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        let mut recursive = matches!(lb, "remove-item" | "ri" | "del" | "erase" | "rd" | "rimraf");
        let mut ended = false;
        let mut targets: Vec<Word> = Vec::new();
        let mut skip_next = false;
        for w in c.words.iter().skip(1) {
            let x = &w.text;
            let l = lower(x);
            if skip_next {
                skip_next = false;
                if lb.contains('-') || lb == "ri" {
                    targets.push(w.clone());
                }
                continue;
            }
            if !ended && x == "--" {
                ended = true;
            } else if !ended && x.starts_with("--") {
                recursive |= l == "--recursive" || l == "--no-preserve-root" || l == "--dir";
            } else if !ended && (lb == "remove-item" || lb == "ri") && x.starts_with('-') {
                recursive |= l.starts_with("-r");
                skip_next = matches!(l.as_str(), "-path" | "-literalpath");
                if l.starts_with("-erroraction")
                    || l == "-include"
                    || l == "-exclude"
                    || l == "-filter"
                {
                    skip_next = false;
                }
            } else if !ended && x.starts_with('-') && x.len() > 1 && lb != "del" {
                recursive |= l.contains('r') || (lb == "shred" && l.contains('u'));
                if lb == "shred" && (x == "-n" || x == "-s") {
                    skip_next = true;
                }
            } else if !ended
                && x.starts_with('/')
                && x.len() == 2
                && !matches!(lb, "rm" | "rmdir" | "unlink" | "shred")
            {
                // Windows switches: /s /q /f
                recursive |= matches!(l.as_str(), "/s" | "/q" | "/f");
            } else {
                targets.push(w.clone());
            }
        }
        if lb == "rmdir" && !recursive {
            // rmdir removes only empty directories; /s makes it recursive.
            recursive = c.args.iter().any(|a| lower(a) == "/s" || a == "-p");
        }
        for t in &targets {
            // `C:\ -Recurse` can arrive as one word (an escaped space in bash).
            let mut t = t.clone();
            if let Some((first, _)) = t.text.split_once(' ')
                && !t.dynamic
            {
                t.text = first.to_string();
            }
            self.delete_path(&t, recursive, c.cwd(), format!("{} ", c.base).trim_end());
        }
        if targets.is_empty() && !c.args.iter().any(|a| a == "--help" || a == "--version") {
            self.ask(format!("{} with nothing named to delete", c.base));
        }
    }
}

impl Analyzer<'_> {
    /// Text an in-place edit puts into files (`sed -i '1i …'`, `perl -pi
    /// -e 's/^/…/'`), judged as text planted there for a tool to run.
    pub(super) fn plant_edits(
        &mut self,
        files: &[&Word],
        inserted: &[String],
        cwd: Option<&str>,
        depth: usize,
    ) {
        let text = inserted.join("\n");
        if text.trim().is_empty() {
            return;
        }
        for f in files.iter().filter(|f| !f.dynamic) {
            let path = self.norm(f, cwd);
            self.planted_text(&path, &text, depth);
        }
    }
}

/// A file this large is an attempt to fill the disk, not a disk image.
pub(super) const DISK_FILL: u64 = 64 << 30;

/// `800G`, `4MiB`, `1k`, `512`: a size as coreutils and util-linux spell it.
pub(super) fn byte_size(s: &str) -> Option<u64> {
    let digits = s
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b'.')
        .count();
    let n: f64 = s[..digits].parse().ok()?;
    let unit = s[digits..]
        .trim_end_matches(['B', 'b'])
        .trim_end_matches('i');
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        "P" => 50,
        "E" => 60,
        _ => return None,
    };
    // `as` saturates: a size beyond u64 is u64::MAX.
    Some((n * (1u64 << shift) as f64) as u64)
}

/// `rsync -avn --delete ./src/ ./build/src/`: a dry run between folders of
/// this machine lists what it would do and changes nothing. (Options that
/// write a log or a batch, or start a program, are not this.)
fn rsync_dry_run(c: &Cmd<'_>) -> Option<Vec<Word>> {
    if c.lb != "rsync" {
        return None;
    }
    let mut dry = false;
    let mut paths = Vec::new();
    for w in &c.words[1..] {
        let t = w.text.as_str();
        match t {
            "--dry-run" | "--delete" | "--delete-after" | "--delete-before"
            | "--itemize-changes" | "--checksum" | "--stats" | "--human-readable" | "--archive"
            | "--recursive" | "--verbose" | "--progress" => {}
            _ if t.starts_with("--exclude=") || t.starts_with("--include=") => {}
            _ if t.starts_with("--") => return None,
            _ if t.starts_with('-') => {
                if !t[1..].chars().all(|f| "avnrlptgoDhciPzq".contains(f)) {
                    return None;
                }
                dry |= t.contains('n');
            }
            // Another machine's folder is reached over a connection.
            _ if w.dynamic || t.contains(':') => return None,
            _ => paths.push(w.clone()),
        }
        dry |= t == "--dry-run";
    }
    (dry && paths.len() >= 2).then_some(paths)
}
