//! `jarvis policy check` and `jarvis grants`: the policy, inspectable.

use std::io::BufRead;

use anyhow::{Context, Result};
use jarvis_core::agent::protected_paths;
use jarvis_core::policy::Verdict;
use jarvis_core::policy::shell::{ShellEnv, analyze};
use serde_json::{Value, json};

use crate::home;

fn verdict_name(v: Verdict) -> &'static str {
    v.as_str()
}

/// One command from the arguments, or `{"id","command"}` lines on stdin.
pub fn check(
    command: Vec<String>,
    json: bool,
    jsonl: bool,
    cwd: Option<&std::path::Path>,
) -> Result<i32> {
    let mut env = ShellEnv::with_protected(&protected_paths(&home()?));
    if let Some(dir) = cwd {
        let user_home = std::env::var_os("HOME").map(std::path::PathBuf::from);
        env = env.at(dir, user_home.as_deref());
    }
    if jsonl {
        for line in std::io::stdin().lock().lines() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let v: Value =
                serde_json::from_str(&line).with_context(|| format!("not a JSON line: {line}"))?;
            let cmd = v["command"]
                .as_str()
                .context("a line without \"command\"")?;
            let a = analyze(cmd, &env);
            println!(
                "{}",
                json!({"id": v["id"], "verdict": verdict_name(a.verdict), "reason": a.reason})
            );
        }
        return Ok(0);
    }
    let cmd = command.join(" ");
    if cmd.trim().is_empty() {
        anyhow::bail!("give a command after --, e.g. jarvis policy check -- rm -rf build");
    }
    let a = analyze(&cmd, &env);
    if json {
        println!(
            "{}",
            json!({"command": cmd, "verdict": verdict_name(a.verdict), "reason": a.reason, "base_commands": a.bases})
        );
    } else {
        println!("{}: {}", verdict_name(a.verdict), a.reason);
    }
    Ok(0)
}
