//! Where text comes from: downloads, decoders, files this line wrote, and
//! which stage of a pipeline passes which on.

use super::*;

impl Analyzer<'_> {
    /// The value's commands download something.
    pub(super) fn fetched(&self, w: &Word, script: &Script) -> bool {
        w.subs.iter().any(|&s| {
            script
                .commands
                .get(s)
                .is_some_and(|x| self.producer(x) == Producer::Net)
        })
    }

    /// Where code built at run time may come from: `Some(why)` when a
    /// download or a decoder feeds it.
    pub(super) fn code_source(&self, w: &Word, script: &Script) -> Option<&'static str> {
        if let Some(why) = self.fed_by(w, script) {
            return Some(why);
        }
        // Code built at run time in a line that downloads: it may be the download
        // (`curl … | while read l; do eval "$l"; done`).
        if w.dynamic && self.fetches {
            return Some("download and execute");
        }
        None
    }

    /// As [`Self::code_source`], from the value's own substitutions only: a
    /// line that fetches something else (`npm ci`) does not make every
    /// value built at run time a download.
    pub(super) fn fed_by(&self, w: &Word, script: &Script) -> Option<&'static str> {
        let mut found = None;
        for &s in &w.subs {
            match script.commands.get(s).map(|x| self.producer(x)) {
                Some(Producer::Net) => return Some("download and execute"),
                Some(Producer::Decode) => found = Some("decodes and executes"),
                _ => {}
            }
        }
        found
    }

    /// What reaches a command's output: its own kind, or what it passes on
    /// from its pipe (`curl … | tee x.sh`).
    pub(super) fn passes_on(&self, i: usize, script: &Script) -> Producer {
        let mut k = Some(i);
        let mut hops = 0;
        while let Some(j) = k {
            let c = &script.commands[j];
            let own = self.producer(c);
            if own != Producer::Other {
                return own;
            }
            let b = c
                .argv
                .first()
                .map(|w| program_name(&w.text))
                .unwrap_or_default();
            if !matches!(
                b.as_str(),
                "tee"
                    | "cat"
                    | "head"
                    | "tail"
                    | "sed"
                    | "awk"
                    | "grep"
                    | "cut"
                    | "sort"
                    | "uniq"
                    | "dd"
                    | "install"
                    | "cp"
                    | "pv"
                    | "buffer"
                    | "stdbuf"
            ) || hops > 8
            {
                return Producer::Other;
            }
            k = c.stdin_from;
            hops += 1;
        }
        Producer::Other
    }

    /// The text this line wrote to `w` earlier, if it did.
    pub(super) fn written_text(&self, w: &Word, cwd: Option<&str>) -> Option<String> {
        if w.dynamic {
            return None;
        }
        let p = self.project_relative(self.norm(w, cwd));
        self.written
            .iter()
            .rev()
            .find(|(f, _)| self.project_relative(f.clone()) == p)
            .map(|(_, t)| t.clone())
    }

    /// A normalised path inside the project spelled from the project
    /// (`/home/u/work/e.sh` and `~/work/e.sh` are `e.sh`).
    pub(super) fn project_relative(&self, p: String) -> String {
        let Some(wd) = self
            .env
            .workdir
            .as_deref()
            .map(|wd| self.norm_text(wd, None))
        else {
            return p;
        };
        let wd = wd.trim_end_matches('/');
        match p.strip_prefix(wd).and_then(|r| r.strip_prefix('/')) {
            Some(rest) => rest.trim_start_matches("./").to_string(),
            None => p.trim_start_matches("./").to_string(),
        }
    }

    /// What a command's output is: from the network, decoded, or plain.
    pub(super) fn producer(&self, c: &Command) -> Producer {
        let Some(first) = c.argv.first() else {
            return Producer::Other;
        };
        let b = program_name(&first.text);
        // Through wrappers: `timeout 5 curl …`.
        // `PATH=/usr/bin` is an assignment before it is a path ending in `bin`.
        let real = c
            .argv
            .iter()
            .filter(|w| !w.text.contains('='))
            .map(|w| program_name(&w.text))
            .find(|x| {
                tables::wrapper(x).is_none()
                    && x != "env"
                    && !x.starts_with('-')
                    && !x.chars().all(|ch| ch.is_ascii_digit())
            })
            .unwrap_or(b);
        let args: Vec<&str> = c.argv.iter().skip(1).map(|w| w.text.as_str()).collect();
        let url = args.iter().any(|a| {
            let l = a.to_ascii_lowercase();
            l.starts_with("http://") || l.starts_with("https://") || l.starts_with("ftp://")
        });
        // `gh` talks to the network only through `gh api` in a way that prints a payload.
        if tables::FETCHERS.contains(&real.as_str()) && (real != "gh" || args.contains(&"api")) {
            return Producer::Net;
        }
        if url
            && !matches!(
                real.as_str(),
                "echo" | "printf" | "git" | "pip" | "pip3" | "npm" | "docker"
            )
        {
            return Producer::Net;
        }
        if let Some(flags) = tables::interpreter(&real) {
            let text = lower(&args.join(" "));
            if code::mentions_network(&text) {
                return Producer::Net;
            }
            // Inline code computes its output; a script file's output is its own.
            if args.iter().any(|a| {
                flags.contains(&lower(a).as_str())
                    || (real == "perl" && a.starts_with('-') && a.ends_with('e'))
            }) {
                return Producer::Decode;
            }
            return Producer::Other;
        }
        if tables::DECODERS.contains(&real.as_str()) {
            let decoding = match real.as_str() {
                "base64" | "base32" | "basenc" => args
                    .iter()
                    .any(|a| matches!(*a, "-d" | "-D" | "--decode") || (short_has(a, 'd'))),
                "xxd" => args.iter().any(|a| a.starts_with('-') && a.contains('r')),
                "gzip" | "bzip2" | "xz" | "zstd" | "lz4" | "brotli" => args
                    .iter()
                    .any(|a| short_has(a, 'd') || *a == "--decompress" || *a == "--stdout"),
                // Layout escapes (`\n`, `\t`) show what they print; octal,
                // hex and unicode ones spell characters the text hides.
                "printf" => {
                    args.first().is_some_and(|f| hides_chars(f))
                        || args.first().is_some_and(|f| f.contains("%b"))
                            && args.iter().skip(1).any(|a| hides_chars(a))
                }
                "unzip" => args.contains(&"-p"),
                "7z" => args.contains(&"e") || args.contains(&"x"),
                "dd" | "xargs" | "jq" | "tac" => false,
                // Lines cut out of the project's own file (`sed -n
                // 's/^# setup: //p' README.md`) hide nothing the file does
                // not: running them is running the project's text, which
                // asks. Text the line itself feeds in stays decoded.
                "sed" | "awk" | "gawk" | "mawk" => {
                    let files: Vec<&Word> = c
                        .argv
                        .iter()
                        .skip(2)
                        .filter(|w| !w.text.starts_with('-'))
                        .collect();
                    // Only a program that selects what the file says (sed
                    // `-n` with addresses, `p`, `d` and deleting `s///`;
                    // awk with no text of its own) keeps to the file.
                    let selects = if real == "sed" {
                        args.first().is_some_and(|f| *f == "-n")
                            && args.get(1).is_some_and(|p| sed_selects(p))
                    } else {
                        args.first().is_some_and(|p| {
                            !p.contains(['"', '\'', '|', '>'])
                                && !["system", "printf", "getline"]
                                    .iter()
                                    .any(|k| p.contains(k))
                        })
                    };
                    !selects
                        || files.is_empty()
                        || c.stdin_from.is_some()
                        || !files
                            .iter()
                            .all(|w| !w.dynamic && self.inside(&self.norm(w, c.cwd.as_deref())))
                }
                _ => true,
            };
            if decoding {
                return Producer::Decode;
            }
        }
        if real == "echo"
            && args.iter().any(|a| a.starts_with("-e"))
            && args.iter().any(|a| hides_chars(a))
        {
            return Producer::Decode;
        }
        Producer::Other
    }
}

/// Escapes that spell characters instead of showing them: octal (`\101`,
/// `\0101`), hex (`\x41`) and unicode (`\u0041`).
pub(super) fn hides_chars(s: &str) -> bool {
    let b = s.as_bytes();
    b.windows(2).enumerate().any(|(i, w)| {
        w[0] == b'\\'
            && (matches!(w[1], b'x' | b'u' | b'U')
                && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
                || (b'0'..=b'7').contains(&w[1]))
            && !(i > 0 && b[i - 1] == b'\\')
    })
}

/// Programs that run code they find in files: interpreters, build tools
/// and package managers run build scripts, hooks and entry points.
const RUNS_FILES: &[&str] = &[
    "cargo", "go", "make", "gmake", "cmake", "ninja", "meson", "npm", "npx", "pnpm", "yarn", "bun",
    "deno", "pip", "pip3", "pipx", "uv", "poetry", "pytest", "tox", "nox", "mvn", "gradle",
    "dotnet", "rake", "bundle", "composer", "java", "tsx", "ts-node",
];

impl Analyzer<'_> {
    /// Code this line wrote with known text, then something that runs code
    /// found in files: judged as that code wherever it was written (a
    /// `build.rs` before `cargo build`, a `__main__.py` packed into a
    /// zipapp), since which file the runner picks up cannot be followed.
    pub(super) fn written_code(&mut self, c: &Cmd<'_>) {
        let runs = is_shell(&c.lb)
            || tables::interpreter(&c.lb).is_some()
            || RUNS_FILES.contains(&c.lb.as_str())
            || c.words[0].text.contains('/');
        if self.written.is_empty() || !runs {
            return;
        }
        for (file, text) in self.written.clone() {
            // Documentation and data are read, not imported: a test's list
            // of dangerous commands is a fixture, not code.
            if super::planted_text::data_file(&file) {
                continue;
            }
            let name = program_name(&file);
            let lang = match name.rsplit('.').next().unwrap_or("") {
                "py" | "pyz" => "python3",
                "js" | "mjs" | "cjs" | "ts" => "node",
                "rb" => "ruby",
                "pl" | "pm" => "perl",
                "php" => "php",
                "lua" => "lua",
                _ => "code",
            };
            self.block_only(|a| a.inline_code(lang, &text, c.depth + 1));
            // A manifest's scripts are shell commands (`package.json`).
            if name == "package.json" {
                for s in super::code::string_literals(&text) {
                    self.block_only(|a| a.script(&s, &[], c.depth + 1));
                }
            }
        }
    }
}

/// A sed script that only selects and deletes: addresses with `p` or `d`,
/// and substitutions whose replacement is empty (`s/^# setup: //p`).
fn sed_selects(script: &str) -> bool {
    script.split(';').all(|cmd| {
        let cmd = cmd.trim();
        if let Some(rest) = cmd.strip_prefix('s') {
            let Some(d) = rest.chars().next() else {
                return false;
            };
            let parts: Vec<&str> = rest[d.len_utf8()..].splitn(3, d).collect();
            return parts.len() == 3
                && parts[1].is_empty()
                && parts[2].chars().all(|f| matches!(f, 'p' | 'g' | 'i' | 'I'));
        }
        // An address (`10,20`, `$`, `/re/`, `/a/,/b/`) then `p` or `d`.
        let Some(address) = cmd.strip_suffix('p').or_else(|| cmd.strip_suffix('d')) else {
            return false;
        };
        address
            .chars()
            .all(|ch| ch.is_ascii_digit() || matches!(ch, ',' | '$'))
            || address.starts_with('/')
                && address.ends_with('/')
                && address
                    .split(',')
                    .all(|a| a.starts_with('/') && a.ends_with('/'))
    })
}
