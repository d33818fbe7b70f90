//! Starting a program under the OS sandbox: commands, created tools and MCP
//! servers all come through here, so they are confined the same way.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{ExecSandbox, ToolContext, ToolError};
use crate::sandbox::{self, Spec};

/// What a confined run may touch beyond the system: where it writes, what
/// else it reads, whether it has the network.
pub(crate) struct Reach {
    pub write: Vec<PathBuf>,
    pub read: Vec<PathBuf>,
    pub network: bool,
}

impl Reach {
    /// A command in the working directory: writes there, network when the
    /// setting or this call's approval gives it.
    pub fn workdir(ctx: &ToolContext) -> Self {
        Reach {
            write: vec![ctx.workdir.clone()],
            read: vec![],
            network: ctx.exec_sandbox.network || ctx.network_approved,
        }
    }
}

/// Where the run happens: the sandbox settings, Jarvis's home (whose state
/// stays out of reach) and the roots it may read.
pub(crate) struct Place<'a> {
    pub sandbox: &'a ExecSandbox,
    pub jarvis_home: &'a Path,
    pub roots: &'a [PathBuf],
}

/// A private temp dir with a home inside, writable in the sandbox and
/// removed when dropped.
pub(crate) struct Scratch {
    pub dir: tempfile::TempDir,
    pub home: PathBuf,
}

impl Scratch {
    pub fn new() -> Result<Self, ToolError> {
        let dir = tempfile::Builder::new()
            .prefix("jarvis-exec-")
            .tempdir()
            .map_err(|e| ToolError::Failed(format!("cannot create a private temp dir: {e}")))?;
        let home = dir.path().join("home");
        std::fs::create_dir_all(&home)
            .map_err(|e| ToolError::Failed(format!("cannot create a private home: {e}")))?;
        Ok(Scratch { dir, home })
    }
}

/// The helper's spec and the child's environment for one run.
fn plan(place: &Place<'_>, reach: &Reach, scratch: &Scratch) -> (Spec, BTreeMap<String, String>) {
    let sb = place.sandbox;
    let real_home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default();
    let protected = crate::agent::protected_paths(place.jarvis_home);
    let path_var = std::env::var("PATH").unwrap_or_default();
    let (tools, tool_env) = sandbox::toolchains(&real_home, &path_var);
    let mut read = Vec::new();
    for r in place.roots.iter().chain(&sb.read).chain(&tools) {
        read.extend(sandbox::filtered_root(r, &real_home, &protected));
    }
    // What the host itself names (a created tool's own folder) is not filtered.
    read.extend(reach.read.iter().cloned());
    let mut write = reach.write.clone();
    write.push(scratch.dir.path().to_path_buf());
    let mut protect = vec![
        std::process::id() as i32,
        nix::unistd::getppid().as_raw(),
        nix::unistd::getpgrp().as_raw(),
    ];
    protect.retain(|p| *p > 1);
    let spec = Spec {
        read,
        write,
        network: reach.network,
        abi: sb.abi,
        protect,
        allow_unconfined: sb.allow_unconfined,
    };
    let mut extra = tool_env;
    extra.extend(sandbox::git_identity(&real_home));
    let mut env = sandbox::child_env(
        std::env::vars(),
        &scratch.home,
        scratch.dir.path(),
        &extra,
        &sb.env,
    );
    if let Some(v) = std::env::var_os(sandbox::SIMULATE_NO_LANDLOCK) {
        env.insert(
            sandbox::SIMULATE_NO_LANDLOCK.into(),
            v.to_string_lossy().into(),
        );
    }
    (spec, env)
}

/// The command that runs `program` confined (the caller adds its
/// arguments, directory and stdio), and the note for the model when it
/// runs unconfined. Refused when it cannot be confined and the user did not
/// allow running unconfined.
pub(crate) fn command(
    place: &Place<'_>,
    reach: &Reach,
    scratch: &Scratch,
    program: &str,
) -> Result<(tokio::process::Command, String), ToolError> {
    let (spec, env) = plan(place, reach, scratch);
    let mut note = String::new();
    let mut cmd = match &place.sandbox.helper {
        Some(helper) => {
            let mut c = tokio::process::Command::new(helper);
            c.args(spec.args()).arg("--").arg(program);
            c
        }
        None if place.sandbox.allow_unconfined => {
            note = "\n[not sandboxed: the jarvis-sandbox helper was not found (sandbox.allow_unconfined is on)]".into();
            tokio::process::Command::new(program)
        }
        None => {
            return Err(ToolError::Refused(
                "this cannot be confined here: the jarvis-sandbox helper was not found beside jarvis (install it, or set sandbox.allow_unconfined = true to run unconfined)".into(),
            ));
        }
    };
    cmd.env_clear().envs(&env);
    Ok((cmd, note))
}

/// A sandbox refusal in a finished run's stderr, as the error to report.
pub(crate) fn refusal(code: Option<i32>, stderr: &str) -> Option<ToolError> {
    if code != Some(sandbox::REFUSED_EXIT) {
        return None;
    }
    stderr
        .lines()
        .find(|l| l.starts_with(sandbox::REFUSED_PREFIX))
        .map(|why| {
            ToolError::Refused(format!(
                "{why} (set sandbox.allow_unconfined = true to run commands unconfined)"
            ))
        })
}
