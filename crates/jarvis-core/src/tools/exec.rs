//! `local_exec`: a shell command in the working directory, in its own process
//! group so a timeout or cancel kills everything it started.

use std::process::Stdio;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt};

use super::confined::{self, Reach};
use super::{Capability, Tool, ToolContext, ToolError, ToolOutput, arg_opt_u64, arg_str};

/// Set in every process the agent starts: the `jarvis` CLI refuses to change
/// state when it sees it.
pub const AGENT_EXEC_ENV: &str = "JARVIS_AGENT_EXEC";

pub struct ExecTool {
    pub default_timeout: Duration,
    pub max_timeout: Duration,
    pub output_cap: usize,
}

impl Default for ExecTool {
    fn default() -> Self {
        ExecTool {
            default_timeout: Duration::from_secs(60),
            max_timeout: Duration::from_secs(600),
            output_cap: 64 * 1024,
        }
    }
}

impl ExecTool {
    fn timeout_for(&self, args: &Value) -> Duration {
        match arg_opt_u64(args, "timeout_sec") {
            Ok(Some(s)) if s > 0 => Duration::from_secs(s).min(self.max_timeout),
            _ => self.default_timeout,
        }
    }
}

/// Kills the whole process group when dropped, unless disarmed: a timeout,
/// a cancel or a dropped future never leaves children behind.
struct GroupGuard(Option<i32>);

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if let Some(pid) = self.0.take() {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
}

async fn read_capped(mut r: impl AsyncRead + Unpin, cap: usize) -> (Vec<u8>, usize) {
    let mut kept = Vec::new();
    let mut total = 0usize;
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                total += n;
                let room = cap.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
    (kept, total)
}

fn render(name: &str, bytes: &[u8], total: usize) -> String {
    let mut s = String::from_utf8_lossy(bytes).to_string();
    if total > bytes.len() {
        s.push_str(&format!(
            "\n[… {name} cut: {} of {total} bytes shown]",
            bytes.len()
        ));
    }
    s
}

#[async_trait]
impl Tool for ExecTool {
    fn name(&self) -> &str {
        "local_exec"
    }
    fn description(&self) -> &str {
        "Run a shell command (sh -c) in the working directory. Returns exit code, stdout and stderr (each cut at 64 KiB). timeout_sec defaults to 60, at most 600."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {
            "command": {"type": "string"},
            "timeout_sec": {"type": "integer", "minimum": 1, "maximum": 600}},
            "required": ["command"], "additionalProperties": false})
    }
    fn capabilities(&self, args: &Value, ctx: &ToolContext) -> Result<Vec<Capability>, ToolError> {
        let command = arg_str(args, "command")?;
        if command.trim().is_empty() {
            return Err(ToolError::InvalidArgs("the command is empty".into()));
        }
        Ok(vec![Capability::Exec {
            command: command.to_string(),
            cwd: ctx.workdir.clone(),
        }])
    }
    fn timeout(&self, args: &Value) -> Duration {
        // The gate's outer limit; the tool's own, below, fires first and reports output.
        self.timeout_for(args) + Duration::from_secs(5)
    }
    async fn execute(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let command = arg_str(&args, "command")?;
        let limit = self.timeout_for(&args);
        let argv = ["/bin/sh".to_string(), "-c".to_string(), command.to_string()];
        // What the command does to the working directory, for undo: a
        // bounded scan before and after (only where a brain records it).
        let scanning = ctx.brain.is_some();
        let root = ctx.workdir.clone();
        let before = if scanning {
            tokio::task::spawn_blocking(move || crate::undo::scan::before(&root))
                .await
                .ok()
        } else {
            None
        };
        let ran = run_confined(
            ctx,
            &argv,
            None,
            limit,
            self.output_cap,
            Reach::workdir(ctx),
        )
        .await;
        // Timed out, cancelled or stopped: what it did so far is recorded too.
        let changed = match before {
            Some(b) => {
                let root = ctx.workdir.clone();
                tokio::task::spawn_blocking(move || crate::undo::scan::after(&root, b))
                    .await
                    .unwrap_or_default()
            }
            None => Vec::new(),
        };
        let changes = crate::undo::record_scan(ctx, self.name(), &changed);
        let f = ran?;
        let code_text = f
            .code
            .map_or_else(|| "killed by a signal".to_string(), |c| c.to_string());
        let mut content = format!(
            "exit code: {code_text}\n--- stdout ---\n{}\n--- stderr ---\n{}{}",
            render("stdout", &f.out, f.out_total),
            render("stderr", &f.err, f.err_total),
            f.note
        );
        let mut summary = format!(
            "exit {code_text} in {:.1} s, {} bytes out",
            f.elapsed.as_secs_f64(),
            f.out_total
        );
        if let Some(line) = changes {
            content.push_str(&format!("\n--- {line}"));
            summary.push_str(&format!("; {line}"));
        }
        Ok(ToolOutput { content, summary })
    }
}

/// How a confined process ended.
pub(crate) struct Finished {
    pub code: Option<i32>,
    pub out: Vec<u8>,
    pub out_total: usize,
    pub err: Vec<u8>,
    pub err_total: usize,
    /// Said to the model when the sandbox could not be applied.
    pub note: String,
    pub elapsed: Duration,
}

/// Runs `argv` in the working directory, in its own process group, under
/// the OS sandbox, with an allow-listed environment, a private home and
/// temp dir, capped output, and `stdin` fed if given. Timeout and cancel
/// kill the whole group. Refused when it cannot be confined (unless the
/// user allowed running unconfined).
pub(crate) async fn run_confined(
    ctx: &ToolContext,
    argv: &[String],
    stdin: Option<Vec<u8>>,
    limit: Duration,
    cap: usize,
    reach: Reach,
) -> Result<Finished, ToolError> {
    use tokio::io::AsyncWriteExt;
    let Some((program, rest)) = argv.split_first() else {
        return Err(ToolError::InvalidArgs("nothing to run".into()));
    };
    let scratch = confined::Scratch::new()?;
    let place = confined::Place {
        sandbox: &ctx.exec_sandbox,
        jarvis_home: &ctx.jarvis_home,
        roots: &ctx.roots,
    };
    let (mut cmd, mut note) = confined::command(&place, &reach, &scratch, program)?;
    cmd.args(rest)
        .current_dir(&ctx.workdir)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let started = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| ToolError::Failed(format!("cannot start {program}: {e}")))?;
    let guard = GroupGuard(child.id().map(|p| p as i32));
    if let (Some(mut pipe), Some(bytes)) = (child.stdin.take(), stdin) {
        tokio::spawn(async move {
            let _ = pipe.write_all(&bytes).await;
        });
    }
    let out = child.stdout.take();
    let err = child.stderr.take();
    let out_task = tokio::spawn(async move {
        match out {
            Some(o) => read_capped(o, cap).await,
            None => (vec![], 0),
        }
    });
    let err_task = tokio::spawn(async move {
        match err {
            Some(e) => read_capped(e, cap).await,
            None => (vec![], 0),
        }
    });
    let status = tokio::select! {
        s = child.wait() => s.map_err(|e| ToolError::Failed(e.to_string()))?,
        _ = tokio::time::sleep(limit) => {
            drop(guard);
            let _ = child.wait().await;
            return Err(ToolError::Timeout(limit.as_secs()));
        }
        _ = ctx.cancel.cancelled() => {
            drop(guard);
            let _ = child.wait().await;
            return Err(ToolError::Cancelled);
        }
    };
    // The program is gone; anything it left in the background goes too.
    drop(guard);
    let (out, out_total) = out_task.await.unwrap_or_default();
    let (err, err_total) = err_task.await.unwrap_or_default();
    let err_text = String::from_utf8_lossy(&err);
    if let Some(refused) = confined::refusal(status.code(), &err_text) {
        return Err(refused);
    }
    if err_text.contains("jarvis-sandbox: NOT confined") {
        note.push_str("\n[not sandboxed: this system cannot confine commands; sandbox.allow_unconfined is on]");
    }
    Ok(Finished {
        code: status.code(),
        out,
        out_total,
        err,
        err_total,
        note,
        elapsed: started.elapsed(),
    })
}

/// What the exec sandbox enforces on this machine, in words, for `doctor`.
pub fn sandbox_report(sb: &super::ExecSandbox) -> (bool, String) {
    let Some(helper) = &sb.helper else {
        return (
            false,
            if sb.allow_unconfined {
                "the jarvis-sandbox helper was not found: commands run UNCONFINED (sandbox.allow_unconfined is on)".into()
            } else {
                "the jarvis-sandbox helper was not found beside jarvis: commands are refused".into()
            },
        );
    };
    let kernel = std::process::Command::new(helper)
        .arg("--probe")
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .trim()
                .strip_prefix("abi ")
                .and_then(|n| n.parse::<u8>().ok())
        })
        .unwrap_or(0);
    let unconfined = if sb.allow_unconfined {
        "; sandbox.allow_unconfined is ON: where confinement fails, commands run unconfined"
    } else {
        ""
    };
    if kernel == 0 {
        return (
            false,
            if sb.allow_unconfined {
                "this kernel does not enforce Landlock: commands run UNCONFINED (sandbox.allow_unconfined is on)".into()
            } else {
                "this kernel does not enforce Landlock: commands are refused (a kernel ≥ 5.13 with Landlock enabled confines them)".into()
            },
        );
    }
    let abi = if sb.abi > 0 {
        sb.abi.min(kernel)
    } else {
        kernel.min(6)
    };
    let network = if sb.network {
        "allowed for every command (sandbox.network = true)"
    } else {
        "none unless a call is approved with network"
    };
    (
        true,
        format!(
            "Landlock ABI {abi}{}: reads the system, the working directory and granted roots (not the rest of home); writes only the working directory and a private temp dir; no Unix sockets (session bus, agents), kernel keyring or signals to Jarvis; network: {network}{}{unconfined}",
            if sb.abi > 0 {
                format!(" (forced; kernel has {kernel})")
            } else {
                String::new()
            },
            if abi < 3 {
                "; truncate(2) refused by seccomp (no ABI-3 right)"
            } else {
                ""
            },
        ),
    )
}
