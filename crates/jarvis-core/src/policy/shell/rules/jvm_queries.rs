//! The JDK's inspectors asked only to print: `jps -l`, `jfr summary F`,
//! `jcmd PID GC.heap_info`, `jdeps --summary F`, `keytool -list`. Their
//! other spellings write files, load agents, open ports or print a
//! process's arguments and environment (where passwords are passed): those
//! ask as any program does.

use super::*;

/// jcmd's diagnostic commands that print the JVM's state without its
/// command line, properties or environment, and change nothing.
const JCMD_PRINTS: &[&str] = &[
    "help",
    "GC.heap_info",
    "GC.class_histogram",
    "Thread.print",
    "VM.version",
    "VM.uptime",
    "VM.flags",
    "VM.native_memory",
    "VM.classloader_stats",
    "VM.metaspace",
    "Compiler.codecache",
    "Compiler.queue",
];

/// Options that only choose what is printed, and those that take a value
/// (a value that is a path is read).
struct Shows {
    flags: &'static [&'static str],
    valued: &'static [&'static str],
    paths: &'static [&'static str],
}

const JFR: Shows = Shows {
    flags: &["--json", "--xml", "--verbose"],
    valued: &[
        "--events",
        "--categories",
        "--stack-depth",
        "--width",
        "--cell-height",
        "--truncate",
    ],
    paths: &[],
};

const JDEPS: Shows = Shows {
    flags: &[
        "-s",
        "--summary",
        "-v",
        "-verbose",
        "-verbose:package",
        "-verbose:class",
        "-R",
        "--recursive",
        "-q",
        "-quiet",
        "--jdk-internals",
        "-jdkinternals",
        "--print-module-deps",
        "--list-deps",
        "--list-reduced-deps",
        "--ignore-missing-deps",
        "-apionly",
        "--api-only",
        "-filter:package",
        "-filter:archive",
        "-filter:module",
        "-filter:none",
    ],
    valued: &[
        "--multi-release",
        "-p",
        "-package",
        "--package",
        "-e",
        "-regex",
        "--regex",
    ],
    paths: &["-cp", "-classpath", "--class-path", "--module-path"],
};

const KEYTOOL: Shows = Shows {
    flags: &["-list", "-printcert", "-v", "-rfc", "-cacerts"],
    valued: &["-alias", "-storetype", "-storepass"],
    paths: &["-keystore", "-file", "-jarfile"],
};

impl Analyzer<'_> {
    /// The JDK's inspectors, asked only to print: `Some(true)`; `None`
    /// for anything else.
    pub(super) fn jvm_inspects(&mut self, c: &Cmd<'_>) -> Option<bool> {
        if c.words[0].text.contains('/') || !c.src.assigns.is_empty() {
            return None;
        }
        let a: Vec<&str> = c.args.iter().map(String::as_str).collect();
        match (c.lb.as_str(), a.as_slice()) {
            // (`-v` and `-m` print the arguments, passwords among them.)
            ("jps", rest) if rest.iter().all(|x| matches!(*x, "-l" | "-q")) => Some(true),
            ("jcmd", []) | ("jcmd", ["-l"]) => Some(true),
            ("jcmd", [_target, command]) if JCMD_PRINTS.contains(command) => Some(true),
            ("jfr", ["summary" | "print" | "metadata", ..]) => self.shows(c, 1, &JFR),
            ("jdeps", _) => self.shows(c, 0, &JDEPS),
            ("keytool", [first, ..]) if matches!(*first, "-list" | "-printcert") => {
                self.shows(c, 0, &KEYTOOL)
            }
            _ => None,
        }
    }

    /// Every option after `from` one that only chooses what is printed,
    /// and every file named readable.
    fn shows(&mut self, c: &Cmd<'_>, from: usize, shows: &Shows) -> Option<bool> {
        let mut harmless = true;
        let mut i = from;
        while i < c.args.len() {
            let x = c.args[i].as_str();
            let flag = x.split_once('=').map_or(x, |(f, _)| f);
            if shows.flags.contains(&x) {
            } else if shows.valued.contains(&flag) {
                i += usize::from(!x.contains('='));
            } else if shows.paths.contains(&x) {
                let w = c.arg_word(i + 1)?.clone();
                harmless &= self.read_path(&w, c.cwd());
                i += 1;
            } else if x.starts_with('-') {
                return None;
            } else {
                let w = c.arg_word(i)?.clone();
                harmless &= self.read_path(&w, c.cwd());
            }
            i += 1;
        }
        Some(harmless)
    }
}
