//! `jarvis-sandbox --write DIR … [--abi N] [--no-network] -- PROGRAM ARGS…`
//!
//! Confines itself with Landlock (read and execute everywhere, write only
//! beneath the `--write` directories, optionally no TCP), then becomes
//! PROGRAM. `local_exec` runs every command through it. A separate
//! executable, as Codex does, because applying a ruleset between fork and
//! exec would need `unsafe` in the host.

use std::os::unix::process::CommandExt;
use std::process::{Command, ExitCode};

#[cfg(target_os = "linux")]
fn confine(writes: &[String], abi: u8, no_network: bool) -> Result<String, String> {
    use landlock::{
        ABI, Access, AccessFs, AccessNet, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus,
        path_beneath_rules,
    };
    let abi = match abi {
        1 => ABI::V1,
        2 => ABI::V2,
        3 => ABI::V3,
        4 => ABI::V4,
        5 => ABI::V5,
        _ => ABI::V6,
    };
    let e = |x: landlock::RulesetError| x.to_string();
    let mut ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .map_err(e)?;
    if no_network {
        ruleset = ruleset
            .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
            .map_err(e)?;
    }
    let devices = [
        "/dev/null",
        "/dev/zero",
        "/dev/tty",
        "/dev/full",
        "/dev/random",
        "/dev/urandom",
    ];
    let status = ruleset
        .create()
        .map_err(e)?
        .add_rules(path_beneath_rules(["/"], AccessFs::from_read(abi)))
        .map_err(e)?
        .add_rules(path_beneath_rules(writes, AccessFs::from_all(abi)))
        .map_err(e)?
        .add_rules(path_beneath_rules(devices, AccessFs::from_file(abi)))
        .map_err(e)?
        .restrict_self()
        .map_err(e)?;
    Ok(match status.ruleset {
        RulesetStatus::FullyEnforced => "fully enforced".into(),
        RulesetStatus::PartiallyEnforced => "partially enforced".into(),
        RulesetStatus::NotEnforced => "not enforced".into(),
    })
}

#[cfg(not(target_os = "linux"))]
fn confine(_: &[String], _: u8, _: bool) -> Result<String, String> {
    Ok("not available on this system".into())
}

/// The newest Landlock ABI this kernel fully enforces (0: none), found by
/// confining a child at each ABI in turn.
fn probe() -> u8 {
    let Ok(me) = std::env::current_exe() else {
        return 0;
    };
    for abi in (1..=6u8).rev() {
        let out = Command::new(&me)
            .args(["--abi", &abi.to_string(), "--write", "/", "--", "/bin/true"])
            .env("JARVIS_SANDBOX_REPORT", "1")
            .output();
        if let Ok(o) = out
            && String::from_utf8_lossy(&o.stderr).contains("landlock fully enforced")
        {
            return abi;
        }
    }
    0
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--probe") {
        println!("abi {}", probe());
        return ExitCode::SUCCESS;
    }
    let Some(sep) = args.iter().position(|a| a == "--") else {
        eprintln!("usage: jarvis-sandbox --write DIR … [--abi N] [--no-network] -- PROGRAM ARGS…");
        return ExitCode::from(2);
    };
    let (opts, cmd) = (&args[..sep], &args[sep + 1..]);
    let mut writes = Vec::new();
    let mut abi = 6u8;
    let mut no_network = false;
    let mut i = 0;
    while i < opts.len() {
        match opts[i].as_str() {
            "--write" if i + 1 < opts.len() => {
                writes.push(opts[i + 1].clone());
                i += 1;
            }
            "--abi" if i + 1 < opts.len() => {
                abi = opts[i + 1].parse().unwrap_or(6);
                i += 1;
            }
            "--no-network" => no_network = true,
            other => {
                eprintln!("jarvis-sandbox: unknown option {other}");
                return ExitCode::from(2);
            }
        }
        i += 1;
    }
    let Some((program, rest)) = cmd.split_first() else {
        eprintln!("jarvis-sandbox: no program to run");
        return ExitCode::from(2);
    };
    match confine(&writes, abi, no_network) {
        Ok(status) => {
            if std::env::var_os("JARVIS_SANDBOX_REPORT").is_some() {
                eprintln!("jarvis-sandbox: landlock {status}");
            }
        }
        Err(e) => {
            // Refuse to run unconfined when confinement was asked for.
            eprintln!("jarvis-sandbox: cannot confine the command: {e}");
            return ExitCode::from(126);
        }
    }
    let err = Command::new(program).args(rest).exec();
    eprintln!("jarvis-sandbox: cannot run {program}: {err}");
    ExitCode::from(127)
}
