//! Landlock for files, signals and abstract sockets; seccomp for sockets,
//! the kernel keyring, io_uring and signals on kernels without Landlock's
//! scopes.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, LandlockStatus, PathBeneath, PathFd,
    Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};

use super::{Confined, SIMULATE_NO_LANDLOCK, SandboxError, Spec};

/// Top-level system directories children may read and run from.
const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/proc", "/sys",
    "/boot", "/nix", "/snap", "/gnu", "/srv",
];

/// Devices a command may read and write.
const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
];

fn abi_of(n: u8) -> ABI {
    match n {
        1 => ABI::V1,
        2 => ABI::V2,
        3 => ABI::V3,
        4 => ABI::V4,
        5 => ABI::V5,
        _ => ABI::V6,
    }
}

fn err(e: impl std::fmt::Display) -> SandboxError {
    SandboxError::Setup(e.to_string())
}

/// World-readable entries below `dir` (down to `depth`), as rules: a whole
/// subtree when everything in it is readable by every user, else its parts.
/// `/etc/shadow`, host keys and the like are left out even for root.
fn world_readable(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) -> bool {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return false;
    };
    let mut parts = Vec::new();
    let mut all = true;
    for e in rd.flatten() {
        let p = e.path();
        let Ok(meta) = std::fs::metadata(&p) else {
            continue;
        };
        let mode = meta.permissions().mode();
        if meta.is_dir() {
            if mode & 0o005 != 0o005 {
                all = false;
            } else if depth == 0 {
                parts.push(p);
            } else if !world_readable(&p, depth - 1, &mut parts) {
                all = false;
            }
        } else if mode & 0o004 != 0 {
            parts.push(p);
        } else {
            all = false;
        }
    }
    if all {
        out.push(dir.to_path_buf());
    } else {
        out.extend(parts);
    }
    all
}

/// What every child may read: the system, the readable parts of `/etc` and
/// `/var`, and name resolution's files in `/run`.
fn system_read() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = SYSTEM.iter().map(PathBuf::from).collect();
    world_readable(Path::new("/etc"), 4, &mut v);
    if let Ok(rd) = std::fs::read_dir("/var") {
        for e in rd.flatten() {
            let p = e.path();
            let name = e.file_name();
            // Scratch and spool areas are other users' and other programs' files.
            if matches!(
                name.to_str(),
                Some("tmp" | "run" | "lock" | "spool" | "mail")
            ) {
                continue;
            }
            world_readable(&p, 2, &mut v);
        }
    }
    v.push(PathBuf::from("/run/systemd/resolve"));
    v
}

fn rule(p: &Path, access: landlock::BitFlags<AccessFs>, abi: ABI) -> Option<PathBeneath<PathFd>> {
    let fd = PathFd::new(p).ok()?;
    let is_dir = std::fs::metadata(p).map(|m| m.is_dir()).unwrap_or(false);
    let access = if is_dir {
        access
    } else {
        access & AccessFs::from_file(abi)
    };
    Some(PathBeneath::new(fd, access))
}

fn landlock(spec: &Spec) -> Result<(u8, Vec<String>), SandboxError> {
    let abi = abi_of(if spec.abi == 0 { 6 } else { spec.abi });
    let mut notes = Vec::new();
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(abi))
        .map_err(err)?;
    if !spec.network {
        ruleset = ruleset
            .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
            .map_err(err)?;
    }
    if abi >= ABI::V6 {
        ruleset = ruleset
            .scope(Scope::AbstractUnixSocket | Scope::Signal)
            .map_err(err)?;
    }
    let mut created = ruleset.create().map_err(err)?;
    let read = AccessFs::from_read(abi);
    let all = AccessFs::from_all(abi);
    for p in system_read().iter().chain(spec.read.iter()) {
        if let Some(r) = rule(p, read, abi) {
            created = created.add_rule(r).map_err(err)?;
        }
    }
    for p in &spec.write {
        if let Some(r) = rule(p, all, abi) {
            created = created.add_rule(r).map_err(err)?;
        }
    }
    let dev = AccessFs::from_file(abi) | AccessFs::ReadDir;
    for d in DEVICES {
        if let Some(r) = rule(Path::new(d), dev, abi) {
            created = created.add_rule(r).map_err(err)?;
        }
    }
    let status = created.restrict_self().map_err(err)?;
    let kernel = match status.landlock {
        LandlockStatus::Available { effective_abi, .. } => effective_abi as u8,
        _ => 0,
    };
    if status.ruleset == RulesetStatus::NotEnforced || kernel == 0 {
        return Err(SandboxError::Unavailable(
            "this kernel does not enforce Landlock, so files cannot be confined".into(),
        ));
    }
    let in_force = kernel.min(abi as u8);
    if in_force < 3 {
        notes.push(
            "Landlock below ABI 3 cannot refuse truncate(2): seccomp refuses it instead".into(),
        );
    }
    if in_force < 6 {
        notes.push("no Landlock scopes: signals to Jarvis are refused by seccomp instead".into());
    }
    Ok((in_force, notes))
}

/// Syscalls refused with EPERM.
fn seccomp(spec: &Spec, abi: u8) -> Result<(), SandboxError> {
    let cond = |arg: u8, op: SeccompCmpOp, v: u64| {
        SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, v).map_err(err)
    };
    let rule = |c: Vec<SeccompCondition>| SeccompRule::new(c).map_err(err);
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    let (inet, inet6, netlink) = (
        libc::AF_INET as u64,
        libc::AF_INET6 as u64,
        libc::AF_NETLINK as u64,
    );
    if spec.network {
        // IPv4/IPv6, and routing netlink for name resolution; never Unix sockets.
        rules.insert(
            libc::SYS_socket,
            vec![
                rule(vec![
                    cond(0, SeccompCmpOp::Ne, inet)?,
                    cond(0, SeccompCmpOp::Ne, inet6)?,
                    cond(0, SeccompCmpOp::Ne, netlink)?,
                ])?,
                rule(vec![
                    cond(0, SeccompCmpOp::Eq, netlink)?,
                    cond(2, SeccompCmpOp::Ne, 0)?,
                ])?,
            ],
        );
    } else {
        rules.insert(libc::SYS_socket, vec![]);
    }
    for nr in [
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_bpf,
    ] {
        rules.insert(nr, vec![]);
    }
    if abi < 3 {
        rules.insert(libc::SYS_truncate, vec![]);
    }
    // No signal or trace aimed at Jarvis, its parent or its group; no `kill -1`.
    let mut targets: Vec<u64> = vec![u64::from(u32::MAX)];
    for &p in &spec.protect {
        targets.push(u64::from(p as u32));
        targets.push(u64::from(p.wrapping_neg() as u32));
    }
    for nr in [
        libc::SYS_kill,
        libc::SYS_tkill,
        libc::SYS_tgkill,
        libc::SYS_pidfd_open,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_ptrace,
    ] {
        let arg = if nr == libc::SYS_ptrace { 1 } else { 0 };
        let mut chain = Vec::new();
        for &t in &targets {
            chain.push(rule(vec![cond(arg, SeccompCmpOp::Eq, t)?])?);
        }
        rules.insert(nr, chain);
    }
    let arch = std::env::consts::ARCH
        .try_into()
        .map_err(|e| err(format!("seccomp on {}: {e}", std::env::consts::ARCH)))?;
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(err)?;
    let prog: BpfProgram = filter.try_into().map_err(err)?;
    seccompiler::apply_filter(&prog).map_err(err)
}

pub(super) fn confine(spec: &Spec) -> Result<Confined, SandboxError> {
    let files = if std::env::var_os(SIMULATE_NO_LANDLOCK).is_some() {
        Err(SandboxError::Unavailable(
            "this kernel does not enforce Landlock, so files cannot be confined (simulated)".into(),
        ))
    } else {
        landlock(spec)
    };
    let (abi, mut notes, confined_files) = match files {
        Ok((abi, notes)) => (abi, notes, true),
        Err(SandboxError::Unavailable(why)) if spec.allow_unconfined => (
            0,
            vec![format!(
                "{why}: running unconfined (sandbox.allow_unconfined)"
            )],
            false,
        ),
        Err(e) => return Err(e),
    };
    // Seccomp holds on every kernel; without it nothing runs.
    seccomp(spec, abi)?;
    if !spec.network {
        notes.push("no network".into());
    }
    Ok(Confined {
        abi,
        files: confined_files,
        network: spec.network,
        notes,
    })
}

/// The newest ABI the kernel enforces, found by confining this process
/// (the helper's `--probe` exits right after).
pub(super) fn kernel_abi() -> u8 {
    let Ok(rs) = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::Execute)
    else {
        return 0;
    };
    match rs.create().and_then(|c| c.restrict_self()) {
        Ok(s) => match s.landlock {
            LandlockStatus::Available { effective_abi, .. } => effective_abi as u8,
            _ => 0,
        },
        Err(_) => 0,
    }
}
