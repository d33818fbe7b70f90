//! Resolving a path the model gave into the real path it names, following
//! symlinks component by component the way the kernel would, so the policy
//! judges where a call really lands.

use std::path::{Component, Path, PathBuf};

use super::ToolError;

pub fn resolve(workdir: &Path, raw: &str) -> Result<PathBuf, ToolError> {
    if raw.is_empty() {
        return Err(ToolError::InvalidArgs("the path is empty".into()));
    }
    if raw.contains('\0') {
        return Err(ToolError::InvalidArgs(
            "the path contains a NUL byte".into(),
        ));
    }
    if raw.starts_with('~') {
        return Err(ToolError::InvalidArgs(
            "`~` is not expanded: give a path relative to the working directory".into(),
        ));
    }
    if raw.contains('\\') {
        return Err(ToolError::InvalidArgs(
            "backslashes are not allowed in paths".into(),
        ));
    }
    let given = Path::new(raw);
    let mut out = if given.is_absolute() {
        PathBuf::from("/")
    } else {
        workdir.to_path_buf()
    };
    let mut hops = 0;
    for comp in given.components() {
        match comp {
            Component::RootDir | Component::Prefix(_) => out = PathBuf::from("/"),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(c) => {
                out.push(c);
                if let Ok(meta) = std::fs::symlink_metadata(&out)
                    && meta.file_type().is_symlink()
                {
                    hops += 1;
                    if hops > 40 {
                        return Err(ToolError::InvalidArgs(
                            "too many levels of symbolic links".into(),
                        ));
                    }
                    out = std::fs::canonicalize(&out).map_err(|e| {
                        ToolError::Failed(format!("{raw}: broken symbolic link ({e})"))
                    })?;
                }
            }
        }
    }
    Ok(out)
}

/// True when `path` is `root` or lies beneath it (by whole components).
pub fn is_within(path: &Path, root: &Path) -> bool {
    path.starts_with(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_symlinks_and_dotdot_like_the_kernel() {
        let d = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(d.path()).unwrap();
        let wd = root.join("wd");
        std::fs::create_dir_all(wd.join("sub")).unwrap();
        std::os::unix::fs::symlink("/etc", wd.join("out")).unwrap();
        assert_eq!(resolve(&wd, "sub/../a.txt").unwrap(), wd.join("a.txt"));
        assert_eq!(
            resolve(&wd, "out/passwd").unwrap(),
            PathBuf::from("/etc/passwd")
        );
        assert!(!is_within(&resolve(&wd, "../x").unwrap(), &wd));
        assert!(!is_within(&resolve(&wd, "/etc/hosts").unwrap(), &wd));
        assert!(resolve(&wd, "~/x").is_err());
        assert!(resolve(&wd, "a\0b").is_err());
        assert!(!is_within(Path::new("/tmp/wd-evil"), Path::new("/tmp/wd")));
    }
}
