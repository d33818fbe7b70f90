//! Folders outside the system a child may read: toolchains installed in
//! home (a user's `cargo`, `pyenv`, `nvm`), and granted roots — always
//! without the credential stores and Jarvis's state that may sit inside them.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::policy::shell::paths;

/// Toolchains that live in home, the variable that names each, and where
/// it is by default.
const HOMES: &[(&str, &str)] = &[
    ("CARGO_HOME", ".cargo"),
    ("RUSTUP_HOME", ".rustup"),
    ("PYENV_ROOT", ".pyenv"),
    ("NVM_DIR", ".nvm"),
    ("GOPATH", "go"),
    ("VOLTA_HOME", ".volta"),
    ("BUN_INSTALL", ".bun"),
    ("SDKMAN_DIR", ".sdkman"),
    ("ASDF_DATA_DIR", ".asdf"),
    ("DENO_INSTALL", ".deno"),
];

/// `p` as the policy sees it: home as `~`.
fn lexical(p: &Path, home: &Path) -> String {
    match p.strip_prefix(home) {
        Ok(rest) if rest.as_os_str().is_empty() => "~".into(),
        Ok(rest) => format!("~/{}", rest.display()),
        Err(_) => paths::normalize(&p.display().to_string(), None),
    }
}

fn secret(p: &Path, home: &Path, protected: &[PathBuf]) -> bool {
    let l = lexical(p, home);
    paths::credential_normalized(&l, &l).is_some()
        || protected
            .iter()
            .any(|s| p.starts_with(s) || s.starts_with(p) && p != Path::new("/"))
}

/// A root the child may read, as Landlock rules: the root itself when
/// nothing secret is inside, else its parts minus credential stores,
/// Jarvis's state and what only its owner may read (three levels deep).
pub fn filtered_root(root: &Path, home: &Path, protected: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(root, home, protected, 3, &mut out);
    out
}

fn walk(p: &Path, home: &Path, protected: &[PathBuf], depth: usize, out: &mut Vec<PathBuf>) {
    if secret(p, home, protected) && !protected.iter().any(|s| s.starts_with(p) && s != p) {
        return;
    }
    let l = lexical(p, home);
    let holds_secrets = paths::contains_credentials(&l)
        || protected.iter().any(|s| s.starts_with(p) && s != p)
        || p == home;
    if !holds_secrets {
        out.push(p.to_path_buf());
        return;
    }
    if depth == 0 {
        return;
    }
    let Ok(rd) = std::fs::read_dir(p) else { return };
    for e in rd.flatten() {
        let child = e.path();
        let Ok(meta) = std::fs::symlink_metadata(&child) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            // A link may lead anywhere; only where it leads is judged.
            if let Ok(real) = std::fs::canonicalize(&child)
                && !secret(&real, home, protected)
                && !paths::contains_credentials(&lexical(&real, home))
            {
                out.push(child);
            }
            continue;
        }
        // What only its owner may read is nobody else's business here either.
        if meta.permissions().mode() & 0o004 == 0 && !meta.is_dir() {
            continue;
        }
        walk(&child, home, protected, depth - 1, out);
    }
}

/// Toolchains in home a command may need: each `PATH` entry under home
/// (its install prefix when it is a `bin` or `shims` folder), the known
/// toolchain homes that exist, and the variables that point tools at them
/// (the child's `HOME` is its own).
pub fn toolchains(home: &Path, path_var: &str) -> (Vec<PathBuf>, Vec<(String, String)>) {
    let mut roots = Vec::new();
    let mut env = Vec::new();
    for (var, rel) in HOMES {
        let from_env = std::env::var_os(var).map(PathBuf::from);
        let dir = from_env.clone().unwrap_or_else(|| home.join(rel));
        if dir.is_dir() {
            roots.push(dir.clone());
            if from_env.is_none() {
                env.push((var.to_string(), dir.display().to_string()));
            }
        }
    }
    for entry in std::env::split_paths(path_var) {
        if !entry.starts_with(home) || entry == home || !entry.is_dir() {
            continue;
        }
        let prefix = match entry.file_name().and_then(|n| n.to_str()) {
            Some("bin" | "shims") => entry
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or(entry.clone()),
            _ => entry.clone(),
        };
        // `~/.local/bin`'s prefix holds keyrings and Jarvis's data: the folder alone.
        let root = if prefix == home || paths::contains_credentials(&lexical(&prefix, home)) {
            entry
        } else {
            prefix
        };
        if !roots.iter().any(|r: &PathBuf| root.starts_with(r)) {
            roots.push(root);
        }
    }
    (roots, env)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toolchains_come_without_the_secrets_beside_them() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        for d in [
            ".cargo/bin",
            ".local/bin",
            ".local/share/keyrings",
            ".pyenv/shims",
            ".ssh",
        ] {
            std::fs::create_dir_all(home.join(d)).unwrap();
        }
        std::fs::write(home.join(".cargo/credentials.toml"), "token").unwrap();
        std::fs::set_permissions(
            home.join(".cargo/credentials.toml"),
            std::fs::Permissions::from_mode(0o600),
        )
        .unwrap();
        let path = std::env::join_paths([
            home.join(".local/bin"),
            home.join(".pyenv/shims"),
            PathBuf::from("/usr/bin"),
        ])
        .unwrap();
        let (roots, _) = toolchains(&home, path.to_str().unwrap());
        assert!(roots.contains(&home.join(".local/bin")), "{roots:?}");
        assert!(!roots.contains(&home.join(".local")), "{roots:?}");
        assert!(roots.iter().any(|r| r.ends_with(".pyenv")), "{roots:?}");
        let cargo = filtered_root(&home.join(".cargo"), &home, &[]);
        assert!(cargo.contains(&home.join(".cargo/bin")), "{cargo:?}");
        assert!(
            !cargo.iter().any(|p| p.ends_with("credentials.toml")),
            "{cargo:?}"
        );
        let whole = filtered_root(&home, &home, &[home.join(".jarvis")]);
        assert!(
            !whole.iter().any(|p| p.starts_with(home.join(".ssh"))),
            "{whole:?}"
        );
        assert!(
            !whole
                .iter()
                .any(|p| p.starts_with(home.join(".local/share/keyrings"))),
            "{whole:?}"
        );
    }
}
