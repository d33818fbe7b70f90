//! Files run by what they are, not by their name: a system file sourced
//! (read, when only root can change it), and modules a download or a
//! decoder wrote, loaded by an interpreter or a tool that imports.

use super::*;

/// The text of a small file under the system's own folders that neither
/// the file nor its folder lets anyone but root change.
pub(super) fn system_text(path: &str) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    const SYSTEM: &[&str] = &["/etc/", "/usr/lib/", "/usr/share/"];
    if !SYSTEM.iter().any(|p| path.starts_with(p)) || path.contains("/../") {
        return None;
    }
    let root_only = |m: &std::fs::Metadata| m.uid() == 0 && m.mode() & 0o022 == 0;
    // Where a link leads, which must itself be a system file.
    let p = std::fs::canonicalize(path).ok()?;
    if !SYSTEM.iter().any(|s| p.starts_with(s)) {
        return None;
    }
    let file = std::fs::metadata(&p).ok()?;
    let dir = std::fs::metadata(p.parent()?).ok()?;
    if !(file.is_file() && file.len() <= 16 * 1024 && root_only(&file) && root_only(&dir)) {
        return None;
    }
    std::fs::read_to_string(&p).ok()
}

impl Analyzer<'_> {
    /// An interpreter started after this line wrote a file of its language
    /// from a download or a decoder: an import, a module option, a start-up
    /// hook (`sitecustomize.py`, `-MHelper`, `require('./lib/x')`) may load
    /// it. Download and execute.
    pub(super) fn loads_written_module(&mut self, c: &Cmd<'_>) {
        let lb = c.lb.as_str();
        const PYTHON: &[&str] = &[".py", ".pth", ".pyc", ".so"];
        const NODE: &[&str] = &[
            ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx", ".node",
        ];
        let exts: &[&str] = if lb.starts_with("python") || lb.starts_with("pypy") {
            PYTHON
        } else {
            match lb {
                // Tools that import the project's code as they run.
                "ipython" | "pytest" | "py.test" | "tox" | "nox" | "pip" | "pip3" | "uv"
                | "poetry" | "pdm" | "hatch" => PYTHON,
                "node" | "nodejs" | "deno" | "bun" | "npm" | "npx" | "yarn" | "pnpm" | "jest"
                | "vitest" | "tsx" | "ts-node" | "mocha" => NODE,
                "perl" | "prove" => &[".pm", ".pl"],
                "ruby" | "irb" | "rake" | "bundle" | "rspec" => &[".rb"],
                "php" | "composer" => &[".php", ".inc", ".phar"],
                "lua" | "luajit" => &[".lua"],
                // Compiled and run in one step (`go run x.go`, `zig run x.zig`).
                "go" if c.args.first().is_some_and(|a| a == "run") => &[".go"],
                "zig" if c.args.first().is_some_and(|a| a == "run") => &[".zig"],
                "java" => &[".java"],
                _ => return,
            }
        };
        // A folder a download was unpacked into holds modules of any kind.
        // (What this command itself writes, `-o tests/x.spec.ts`, it does
        // not load.)
        let own: Vec<String> = super::writes::output_files(c.src);
        if let Some(t) = self
            .tainted
            .iter()
            .find(|t| (exts.iter().any(|e| t.ends_with(e)) || t.ends_with('/')) && !own.contains(t))
        {
            self.block(format!(
                "download and execute ({} may load {}, which this line wrote from a download or a decoder)",
                c.base,
                shown(t)
            ));
        }
        // `node --import data:…;base64,…`: a module that is encoded text.
        let data_module = c.args.windows(2).any(|w| {
            matches!(
                w[0].as_str(),
                "--import" | "--require" | "-r" | "--loader" | "--experimental-loader"
            ) && lower(&w[1]).starts_with("data:")
        }) || c.args.iter().any(|a| {
            [
                "--import=",
                "--require=",
                "--loader=",
                "--experimental-loader=",
            ]
            .iter()
            .any(|p| {
                lower(a)
                    .strip_prefix(p)
                    .is_some_and(|v| v.starts_with("data:"))
            })
        });
        if data_module {
            self.block(format!(
                "decodes and executes ({} loads a module from a data: URL)",
                c.base
            ));
        }
    }
}
