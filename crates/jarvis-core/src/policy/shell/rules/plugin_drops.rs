//! Code dropped where a program loads it by itself (a server's `plugins/`,
//! a game's `mods/`, Home Assistant's `custom_components/`, a `.so` or
//! `.jar` beside it), then that program started in the same line: the
//! download runs although its own name is never called.

use super::*;

/// Folders whose contents a program loads at start.
const LOADED_FOLDERS: &[&str] = &[
    "plugins",
    "plugin",
    "mods",
    "addons",
    "add-ons",
    "custom_components",
    "bepinex",
    "oxide",
    "autorun",
    "modules-load",
];

/// Files a program loads as code wherever they are put.
const LOADED_FILES: &[&str] = &[
    ".jar", ".dll", ".so", ".dylib", ".node", ".pyd", ".asi", ".class", ".wasm",
];

/// Programs that only fetch, move, check or show files: none loads them.
const FILE_TOOLS: &[&str] = &[
    "mkdir",
    "cp",
    "mv",
    "rm",
    "rmdir",
    "ln",
    "chmod",
    "chown",
    "touch",
    "cd",
    "pushd",
    "popd",
    "echo",
    "printf",
    "cat",
    "ls",
    "tree",
    "find",
    "stat",
    "file",
    "du",
    "df",
    "head",
    "tail",
    "wc",
    "sha256sum",
    "sha1sum",
    "sha512sum",
    "md5sum",
    "b2sum",
    "cksum",
    "unzip",
    "tar",
    "gzip",
    "gunzip",
    "xz",
    "unxz",
    "zstd",
    "7z",
    "bsdtar",
    "sleep",
    "true",
    "false",
    "test",
    "[",
    "sort",
    "uniq",
    "grep",
    "jq",
    "yq",
    "diff",
    "cmp",
    "tee",
    "realpath",
    "readlink",
    "basename",
    "dirname",
    "git",
    "gpg",
    "exit",
];

fn loaded_place(p: &str) -> bool {
    let l = p.to_ascii_lowercase();
    let t = l.trim_end_matches('/');
    LOADED_FILES.iter().any(|e| t.ends_with(e))
        || t.split('/')
            .rev()
            .skip(1)
            .any(|d| LOADED_FOLDERS.contains(&d))
        || l.ends_with('/')
            && t.rsplit('/')
                .next()
                .is_some_and(|d| LOADED_FOLDERS.contains(&d))
}

impl Analyzer<'_> {
    /// After this line's writes are known: a download or a clone into a
    /// loaded place, and a program started beside it.
    pub(super) fn dropped_code_started(&mut self, script: &Script) {
        let Some(drop) = self
            .tainted
            .iter()
            .chain(&self.cloned)
            .chain(&self.fetch_dirs)
            .find(|p| loaded_place(p))
            .cloned()
        else {
            return;
        };
        let started = script.commands.iter().find_map(|c| {
            let argv = peeled(&c.argv);
            let first = argv.first()?;
            let b = program_name(&first.text);
            let fetches = self.producer(c) != Producer::Other;
            (!fetches && !FILE_TOOLS.contains(&b.as_str()) && !b.is_empty()).then_some(b)
        });
        if let Some(b) = started {
            self.block(format!(
                "download and execute ({} is downloaded where a program loads code by itself, and {b} starts in the same line)",
                shown(&drop)
            ));
        }
    }
}
