//! `jarvis-sandbox [--read DIR]… [--write DIR]… [--network] [--abi N]
//! [--protect PID]… [--allow-unconfined] -- PROGRAM ARGS…`
//!
//! Confines itself (see `jarvis_core::sandbox`), then becomes PROGRAM.
//! `local_exec`, created tools and MCP servers all run through it. A
//! separate executable, as Codex does, because applying the sandbox between
//! fork and exec would need `unsafe` in the host. It refuses — exit 126 —
//! rather than run a command it cannot confine.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitCode};

use jarvis_core::sandbox::{self, REFUSED_EXIT, REFUSED_PREFIX, SandboxError, Spec};

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if args.first().is_some_and(|a| a == "--probe") {
        println!("abi {}", sandbox::kernel_abi());
        return ExitCode::SUCCESS;
    }
    let (spec, cmd) = match Spec::parse(&args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("jarvis-sandbox: {e}");
            return ExitCode::from(2);
        }
    };
    match sandbox::confine(&spec) {
        Ok(c) => {
            if std::env::var_os("JARVIS_SANDBOX_REPORT").is_some() || !c.files {
                eprintln!(
                    "jarvis-sandbox: {} (Landlock ABI {}){}",
                    if c.files { "confined" } else { "NOT confined" },
                    c.abi,
                    c.notes.iter().map(|n| format!("; {n}")).collect::<String>()
                );
            }
        }
        Err(SandboxError::Usage(e)) => {
            eprintln!("jarvis-sandbox: {e}");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("{REFUSED_PREFIX}: {e}");
            return ExitCode::from(REFUSED_EXIT as u8);
        }
    }
    let Some((program, rest)) = cmd.split_first() else {
        return ExitCode::from(2);
    };
    let err = Command::new(program).args(rest).exec();
    eprintln!(
        "jarvis-sandbox: cannot run {}: {err}",
        program.to_string_lossy()
    );
    ExitCode::from(127)
}
