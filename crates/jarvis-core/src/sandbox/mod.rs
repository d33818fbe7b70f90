//! The OS sandbox every command, created tool and MCP server runs under:
//! the guarantee when the command analysis is fooled. The `jarvis-sandbox`
//! helper applies it to itself and then becomes the program; the host
//! describes what to allow with a [`Spec`] and gives the child an
//! allow-listed environment with a private home.
//!
//! What holds, and by what (Linux): reads of the system, the working
//! directory, granted and skill roots, toolchains and a private tmp only
//! (Landlock; `/etc` and `/var` only what every user may read); writes only
//! in the working directory, the private tmp and `/dev/null`-like devices
//! (Landlock; `truncate(2)` refused by seccomp below ABI 3); no sockets at
//! all without network, and never `AF_UNIX` (seccomp: no session bus, agent
//! or keyring socket, wherever it is, abstract ones included); no kernel
//! keyring, `io_uring` or BPF (seccomp); no signal to Jarvis or its parent
//! (Landlock's signal scope where the kernel has it, seccomp everywhere).
//! When file confinement cannot be had the command is refused, unless the
//! user allowed running unconfined.

mod env;
#[cfg(target_os = "linux")]
mod linux;
mod roots;

use std::ffi::OsString;
use std::path::PathBuf;

use thiserror::Error;

pub use env::{child_env, git_identity};
pub use roots::{filtered_root, toolchains};

/// Exit code of the helper when it refuses to run a command unconfined.
pub const REFUSED_EXIT: i32 = 126;
/// What the helper's refusal starts with on stderr.
pub const REFUSED_PREFIX: &str = "jarvis-sandbox: cannot confine the command";
/// Set by tests to make the helper behave as on a kernel without Landlock.
pub const SIMULATE_NO_LANDLOCK: &str = "JARVIS_SANDBOX_SIMULATE_NO_LANDLOCK";

/// What a confined process may touch, beyond the system's own files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spec {
    /// Read and execute below these.
    pub read: Vec<PathBuf>,
    /// Everything below these.
    pub write: Vec<PathBuf>,
    /// TCP and UDP over IPv4/IPv6 (never Unix sockets).
    pub network: bool,
    /// Force an older Landlock ABI (0: the newest the kernel has).
    pub abi: u8,
    /// Processes the command may not signal or trace (Jarvis, its parent).
    pub protect: Vec<i32>,
    /// Run anyway when the files cannot be confined (the user's choice).
    pub allow_unconfined: bool,
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SandboxError {
    /// The kernel cannot confine files (no Landlock): refused unless allowed.
    #[error("{0}")]
    Unavailable(String),
    /// Setting the sandbox up failed.
    #[error("{0}")]
    Setup(String),
    #[error("{0}")]
    Usage(String),
}

/// How a process was confined, for `doctor` and the notes told to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confined {
    /// The Landlock ABI in force (0: none).
    pub abi: u8,
    /// Files confined (false only when the user allowed running unconfined).
    pub files: bool,
    pub network: bool,
    /// Why something is weaker than it could be, in words.
    pub notes: Vec<String>,
}

impl Spec {
    /// The helper's arguments for this spec, before `--` and the program.
    pub fn args(&self) -> Vec<OsString> {
        let mut a = Vec::new();
        for r in &self.read {
            a.push(OsString::from("--read"));
            a.push(r.clone().into_os_string());
        }
        for w in &self.write {
            a.push(OsString::from("--write"));
            a.push(w.clone().into_os_string());
        }
        if self.network {
            a.push("--network".into());
        }
        if self.abi > 0 {
            a.push("--abi".into());
            a.push(self.abi.to_string().into());
        }
        for p in &self.protect {
            a.push("--protect".into());
            a.push(p.to_string().into());
        }
        if self.allow_unconfined {
            a.push("--allow-unconfined".into());
        }
        a
    }

    /// Parses the helper's arguments: the spec and the command after `--`.
    pub fn parse(args: &[OsString]) -> Result<(Spec, Vec<OsString>), SandboxError> {
        let sep = args
            .iter()
            .position(|a| a == "--")
            .ok_or_else(|| SandboxError::Usage(usage()))?;
        let (opts, cmd) = (&args[..sep], &args[sep + 1..]);
        let mut spec = Spec::default();
        let mut i = 0;
        let value = |i: usize| {
            opts.get(i + 1).cloned().ok_or_else(|| {
                SandboxError::Usage(format!("{} needs a value", opts[i].to_string_lossy()))
            })
        };
        while i < opts.len() {
            match opts[i].to_str().unwrap_or("") {
                "--read" => {
                    spec.read.push(value(i)?.into());
                    i += 1;
                }
                "--write" => {
                    spec.write.push(value(i)?.into());
                    i += 1;
                }
                "--abi" => {
                    spec.abi = value(i)?
                        .to_str()
                        .and_then(|s| s.parse().ok())
                        .ok_or_else(|| SandboxError::Usage("--abi takes a number".into()))?;
                    i += 1;
                }
                "--protect" => {
                    if let Some(p) = value(i)?.to_str().and_then(|s| s.parse().ok()) {
                        spec.protect.push(p);
                    }
                    i += 1;
                }
                "--network" => spec.network = true,
                "--allow-unconfined" => spec.allow_unconfined = true,
                other => {
                    return Err(SandboxError::Usage(format!(
                        "unknown option {other}\n{}",
                        usage()
                    )));
                }
            }
            i += 1;
        }
        if cmd.is_empty() {
            return Err(SandboxError::Usage("no program to run".into()));
        }
        Ok((spec, cmd.to_vec()))
    }
}

fn usage() -> String {
    "usage: jarvis-sandbox [--read DIR]… [--write DIR]… [--network] [--abi N] [--protect PID]… [--allow-unconfined] -- PROGRAM ARGS…".into()
}

/// Confines the calling process as `spec` says; it then `exec`s the program.
pub fn confine(spec: &Spec) -> Result<Confined, SandboxError> {
    #[cfg(target_os = "linux")]
    {
        linux::confine(spec)
    }
    #[cfg(not(target_os = "linux"))]
    {
        if spec.allow_unconfined {
            Ok(Confined {
                abi: 0,
                files: false,
                network: true,
                notes: vec!["this system has no sandbox Jarvis can apply".into()],
            })
        } else {
            Err(SandboxError::Unavailable(
                "this system has no sandbox Jarvis can apply (set sandbox.allow_unconfined = true to run commands anyway)".into(),
            ))
        }
    }
}

/// The newest Landlock ABI the kernel enforces (0: none), as the helper's
/// `--probe` reports it.
pub fn kernel_abi() -> u8 {
    #[cfg(target_os = "linux")]
    {
        linux::kernel_abi()
    }
    #[cfg(not(target_os = "linux"))]
    {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_survives_the_command_line() {
        let spec = Spec {
            read: vec!["/r".into()],
            write: vec!["/w".into(), "/t".into()],
            network: true,
            abi: 2,
            protect: vec![42],
            allow_unconfined: false,
        };
        let mut args = spec.args();
        args.push("--".into());
        args.push("/bin/true".into());
        let (back, cmd) = Spec::parse(&args).unwrap();
        assert_eq!(back, spec);
        assert_eq!(cmd, vec![OsString::from("/bin/true")]);
        assert!(Spec::parse(&["--bogus".into(), "--".into(), "x".into()]).is_err());
        assert!(Spec::parse(&["--".into()]).is_err());
    }
}
