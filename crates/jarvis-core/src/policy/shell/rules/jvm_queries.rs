//! The JDK's inspectors asked only to print: `jps -l`, `jfr summary F`,
//! `jcmd PID GC.heap_info`, `jdeps --summary F`, `keytool -list`. Their
//! other spellings write files, load agents, open ports or print a
//! process's arguments and environment (where passwords are passed): those
//! ask as any program does.

use super::option_walk::{Options, Part, walk};
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

/// Options that only choose what is printed; the values of `paths` are
/// files read.
struct Shows {
    options: Options,
    paths: &'static [&'static str],
}

const JFR: Shows = Shows {
    options: Options {
        bare: &["--json", "--xml", "--verbose"],
        valued: &[
            "--events",
            "--categories",
            "--stack-depth",
            "--width",
            "--cell-height",
            "--truncate",
        ],
        glued_only: &[],
        glued_short: &[],
    },
    paths: &[],
};

const JDEPS: Shows = Shows {
    options: Options {
        bare: &[
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
            "-cp",
            "-classpath",
            "--class-path",
            "--module-path",
        ],
        glued_only: &[],
        glued_short: &[],
    },
    paths: &["-cp", "-classpath", "--class-path", "--module-path"],
};

const KEYTOOL: Shows = Shows {
    options: Options {
        bare: &["-list", "-printcert", "-v", "-rfc", "-cacerts"],
        valued: &[
            "-alias",
            "-storetype",
            "-storepass",
            "-keystore",
            "-file",
            "-jarfile",
        ],
        glued_only: &[],
        glued_short: &[],
    },
    paths: &["-keystore", "-file", "-jarfile"],
};

impl Analyzer<'_> {
    /// The JDK's inspectors, asked only to print: `Some(true)`; `None`
    /// for anything else.
    pub(super) fn jvm_inspects(&mut self, c: &Cmd<'_>) -> Option<bool> {
        if c.words[0].text.contains('/') || !c.assigns.is_empty() {
            return None;
        }
        let a: Vec<&str> = c.args.iter().map(String::as_str).collect();
        match (c.lb.as_str(), a.as_slice()) {
            // (`-v` and `-m` print the arguments, passwords among them.)
            ("jps", rest) if rest.iter().all(|x| matches!(*x, "-l" | "-q")) => Some(true),
            ("jcmd", []) | ("jcmd", ["-l"]) => Some(true),
            // (`-J…` is the launcher's JVM option: `-J-javaagent:F` runs F.)
            ("jcmd", [target, command])
                if !target.starts_with('-') && JCMD_PRINTS.contains(command) =>
            {
                Some(true)
            }
            ("jfr", ["summary" | "print" | "metadata", ..]) => self.shows(c, 2, &JFR),
            ("jdeps", _) => self.shows(c, 1, &JDEPS),
            ("keytool", [first, ..]) if matches!(*first, "-list" | "-printcert") => {
                self.shows(c, 1, &KEYTOOL)
            }
            _ => None,
        }
    }

    /// Every option from word `from` one that only chooses what is
    /// printed, and every file named readable.
    fn shows(&mut self, c: &Cmd<'_>, from: usize, shows: &Shows) -> Option<bool> {
        let mut harmless = true;
        for part in walk(c, from, &shows.options)? {
            match part {
                Part::Value(f, w) if shows.paths.contains(&f) => {
                    harmless &= self.read_path(&w, c.cwd());
                }
                Part::Value(..) => {}
                Part::Operand(w) => harmless &= self.read_path(&w, c.cwd()),
            }
        }
        Some(harmless)
    }
}
