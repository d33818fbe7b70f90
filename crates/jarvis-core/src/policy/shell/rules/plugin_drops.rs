//! Code dropped where a program loads it by itself (a server's `plugins/`,
//! a game's `mods/`, Home Assistant's `custom_components/`, a `.so` or
//! `.jar` beside it), then a program started later in the same line: the
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
    "custom_nodes",
    "bepinex",
    "oxide",
    "autorun",
];

/// Files a program loads as code wherever they are put.
const LOADED_FILES: &[&str] = &[
    ".jar", ".dll", ".so", ".dylib", ".node", ".pyd", ".asi", ".class",
];

/// Files that are code or bundles of it, in a loaded folder.
const CODE_FILES: &[&str] = &[
    ".py", ".lua", ".js", ".mjs", ".cs", ".smx", ".amxx", ".zip", ".rb", ".pl", ".sh", ".luac",
];

/// Programs that only fetch, move, check or show files, and the package,
/// build-check and lint tools that load their own code, not a folder's:
/// none of them starts what was dropped.
const NOT_STARTERS: &[&str] = &[
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
    "jar",
    "unzip",
    "zipinfo",
    "npm",
    "npx",
    "yarn",
    "pnpm",
    "pip",
    "pip3",
    "mkdocs",
    "eslint",
    "prettier",
    "tsc",
];

/// A drop a program may load: a loadable file anywhere, or code, a bundle
/// or a whole folder (a clone, an unpacked tree) in a loaded folder.
fn loaded_place(p: &str) -> bool {
    let l = p.to_ascii_lowercase();
    let t = l.trim_end_matches('/');
    let name = t.rsplit('/').next().unwrap_or(t);
    let in_folder = t
        .split('/')
        .rev()
        .skip(1)
        .any(|d| LOADED_FOLDERS.contains(&d));
    let folder = l.ends_with('/') || !name.contains('.');
    LOADED_FILES.iter().any(|e| name.ends_with(e))
        || in_folder && (folder || CODE_FILES.iter().any(|e| name.ends_with(e)))
        || l.ends_with('/') && LOADED_FOLDERS.contains(&name)
}

impl Analyzer<'_> {
    /// Wireshark's `-X lua_script:F`: a dissector is Lua code, run on every
    /// packet; one this line downloaded is a download run.
    pub(super) fn loads_downloaded_script(&mut self, c: &Cmd<'_>) {
        if !matches!(c.lb.as_str(), "tshark" | "wireshark" | "tcpdump") {
            return;
        }
        for v in super::script_opts::values(c, &["-X"]) {
            if let Some(f) = v.text.strip_prefix("lua_script:") {
                let w = Word {
                    text: f.to_string(),
                    ..v.clone()
                };
                if self.is_tainted(&w, c.cwd()) {
                    self.block(format!(
                        "download and execute ({} runs the Lua script {}, which this line downloaded)",
                        c.base,
                        shown(f)
                    ));
                }
                self.ask(format!("{} runs the Lua script {}", c.base, shown(f)));
            }
        }
    }

    /// A download or a clone into a loaded place, and a program started
    /// after it in the line.
    pub(super) fn dropped_code_started(&mut self, script: &Script) {
        let mut drops: Vec<String> = Vec::new();
        for (i, full) in script.commands.iter().enumerate() {
            let c = Command {
                argv: peeled(&full.argv).to_vec(),
                ..full.clone()
            };
            let Some(first) = c.argv.first() else {
                continue;
            };
            let b = program_name(&first.text);
            let fetched = self.passes_on(i, script) != Producer::Other;
            if let Some(d) = drops.iter().find(|d| loads_kind(d, &b, &first.text))
                && !fetched
                && !b.is_empty()
                && !NOT_STARTERS.contains(&b.as_str())
            {
                self.block(format!(
                    "download and execute ({} is downloaded where a program loads code by itself, and {b} starts after it)",
                    shown(d)
                ));
                return;
            }
            let mut places: Vec<String> = Vec::new();
            if fetched {
                places.extend(super::writes::output_files(&c));
                let name = super::script::url_name(&c);
                places.extend(
                    super::script::download_dirs(&c)
                        .iter()
                        .map(|d| format!("{}/{name}", self.norm(d, c.cwd.as_deref()))),
                );
            }
            // A downloaded archive unpacked into a folder (`unzip x.zip -d mods/`).
            // (Or from the pipe: `curl … | tar xz -C DIR`.) A tree unpacked
            // anywhere counts when a file this line wrote names it
            // (`sdk.dir=/tmp/.sdk` in a build's settings).
            let from_pipe = full
                .stdin_from
                .is_some_and(|k| self.passes_on(k, script) != Producer::Other);
            if matches!(b.as_str(), "unzip" | "tar" | "bsdtar" | "7z")
                && (from_pipe
                    || c.argv[1..]
                        .iter()
                        .any(|w| self.is_tainted(w, c.cwd.as_deref())))
            {
                for w in c.argv.windows(2) {
                    if matches!(w[0].text.as_str(), "-d" | "-C" | "--directory") {
                        let dir = self.norm(&w[1], c.cwd.as_deref());
                        let dir = dir.trim_end_matches('/');
                        // (Hidden or scratch: `/opt/android-sdk` is where a
                        // toolchain is meant to be unpacked.)
                        let out_of_sight = paths::scratch(dir)
                            || dir.split('/').any(|p| p.len() > 1 && p.starts_with('.'));
                        let named = dir.len() > 4
                            && out_of_sight
                            && self
                                .written
                                .iter()
                                .any(|(_, t)| t.contains(dir) || t.contains(&w[1].text));
                        if named {
                            drops.push(format!("{dir}/"));
                        }
                        places.push(format!("{dir}/"));
                    }
                }
            }
            if let Some(dir) = super::script::cloned_into(&c.argv) {
                places.push(format!(
                    "{}/",
                    self.norm(&dir, c.cwd.as_deref()).trim_end_matches('/')
                ));
            }
            drops.extend(places.into_iter().filter(|p| loaded_place(p)));
        }
    }
}

/// Whether `starter` may load what was dropped: a Java archive is loaded
/// by a JVM, a build or a launcher script; a library, a script, a folder or
/// a bundle by anything that starts.
fn loads_kind(drop: &str, starter: &str, word: &str) -> bool {
    let l = drop.to_ascii_lowercase();
    let launcher = word.contains('/')
        || matches!(
            starter,
            "sh" | "bash"
                | "docker"
                | "podman"
                | "systemctl"
                | "screen"
                | "tmux"
                | "nohup"
                | "supervisorctl"
        );
    if l.ends_with(".jar") || l.ends_with(".class") {
        launcher
            || matches!(
                starter,
                "java" | "javaw" | "gradle" | "gradlew" | "mvn" | "mvnw"
            )
    } else {
        true
    }
}
