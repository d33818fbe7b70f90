//! The working directory: the one folder Jarvis's hands work in. Never the
//! home folder, the whole filesystem, a system folder, or one that holds
//! Jarvis's own state or programs — writes there would reach what the
//! sandbox exists to protect.

use std::path::{Path, PathBuf};

use super::{Brain, BrainError};

/// Why `dir` (canonical) cannot be the working directory, in words a user
/// can act on; `Ok` when it can.
pub fn check(dir: &Path, home: Option<&Path>, protected: &[PathBuf]) -> Result<(), String> {
    let fix = "choose a project folder (`--cwd DIR`, `jarvis config set workdir DIR`, or Settings)";
    if dir == Path::new("/") {
        return Err(format!(
            "the working directory cannot be / (the whole filesystem): {fix}"
        ));
    }
    if let Some(h) = home
        && dir == h
    {
        return Err(format!(
            "the working directory cannot be your home folder {}: commands there could change your startup files and keys; {fix}",
            dir.display()
        ));
    }
    if let Some(p) = protected
        .iter()
        .find(|p| p.starts_with(dir) || dir.starts_with(p))
    {
        return Err(format!(
            "the working directory {} holds Jarvis's own state or programs ({}): {fix}",
            dir.display(),
            p.display()
        ));
    }
    let shown = dir.display().to_string();
    if crate::policy::shell::paths::system(&shown, None)
        && !shown.starts_with("/tmp/")
        && !shown.starts_with("/var/tmp/")
    {
        return Err(format!(
            "the working directory cannot be the system folder {shown}: {fix}"
        ));
    }
    if let Some(h) = home
        && h.starts_with(dir)
    {
        return Err(format!(
            "the working directory {} contains your home folder: {fix}",
            dir.display()
        ));
    }
    Ok(())
}

/// The folder offered on first run: `~/Jarvis`.
pub fn suggested(home: &Path) -> PathBuf {
    home.join("Jarvis")
}

/// `$HOME`, canonical when it exists.
pub(super) fn user_home() -> Option<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from)?;
    Some(std::fs::canonicalize(&home).unwrap_or(home))
}

/// `path` as a working directory: canonical, a directory, and allowed by
/// [`check`].
pub(super) fn validate(path: &Path, protected: &[PathBuf]) -> Result<PathBuf, BrainError> {
    let refused = |reason: String| BrainError::Workdir {
        path: path.display().to_string(),
        reason,
    };
    let wd = std::fs::canonicalize(path).map_err(|e| refused(e.to_string()))?;
    if !wd.is_dir() {
        return Err(refused("not a directory".into()));
    }
    check(&wd, user_home().as_deref(), protected).map_err(refused)?;
    Ok(wd)
}

impl Brain {
    /// The user chose `path` to work in (first run, Settings, `jarvis
    /// chat`): created when missing, judged, saved as `workdir` in
    /// config.json and used from the next call on.
    pub fn choose_workdir(&self, path: &Path) -> Result<PathBuf, BrainError> {
        let refused = |reason: String| BrainError::Workdir {
            path: path.display().to_string(),
            reason,
        };
        if !path.is_absolute() {
            return Err(refused("give the full path of a folder".into()));
        }
        // Judged before anything is created, then again once it exists
        // (a symlink may lead elsewhere).
        if !path.exists() {
            check(path, user_home().as_deref(), &self.inner.protected).map_err(refused)?;
            std::fs::create_dir_all(path).map_err(|e| refused(format!("cannot create it: {e}")))?;
        }
        let wd = validate(path, &self.inner.protected)?;
        let shown = wd.display().to_string();
        self.inner
            .config_store
            .update(|c| Ok(c.set("workdir", &shown)?))?;
        self.submit(jarvis_protocol::Op::SetWorkdir { path: shown })?;
        Ok(wd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_root_system_and_state_are_refused() {
        let home = Path::new("/home/u");
        let protected = vec![
            PathBuf::from("/home/u/.jarvis"),
            PathBuf::from("/opt/jarvis/bin/jarvis"),
        ];
        let ok = |d: &str| check(Path::new(d), Some(home), &protected);
        assert!(ok("/home/u/proj").is_ok());
        assert!(ok("/tmp/t1").is_ok());
        for bad in [
            "/",
            "/home/u",
            "/home",
            "/etc",
            "/usr/local",
            "/home/u/.jarvis",
            "/home/u/.jarvis/skills",
            "/opt/jarvis",
        ] {
            assert!(ok(bad).is_err(), "{bad} accepted");
        }
        assert!(ok("/home/u").unwrap_err().contains("home folder"));
    }
}
