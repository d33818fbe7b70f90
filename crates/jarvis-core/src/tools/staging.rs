//! The meta-tools build a new skill, tool or MCP server in a staging folder
//! beside its final place and rename it in only once it is whole and checked,
//! so a failed check or a crash mid-write never leaves a half-made one behind.

use std::path::{Path, PathBuf};

use tempfile::TempDir;

use super::ToolError;

pub(crate) struct Staged {
    // Held so the staging folder (and anything left in it) goes on drop.
    _tmp: TempDir,
    /// Where the files are written; named like the target so checks that
    /// read the folder name (SKILL.md's `name`) see the final name.
    pub dir: PathBuf,
    target: PathBuf,
    name: String,
    /// "a skill", "a tool", "an MCP server": how errors name what is made.
    what: &'static str,
    /// "the skill", "the project": how write errors name it.
    noun: &'static str,
}

impl Staged {
    /// Refuses a name already taken, then makes `root/.new-<prefix>-*/<name>`.
    pub fn new(
        root: &Path,
        name: &str,
        prefix: &str,
        what: &'static str,
        noun: &'static str,
    ) -> Result<Self, ToolError> {
        let target = root.join(name);
        if target.exists() {
            return Err(taken(what, name));
        }
        let io = write_error(noun);
        std::fs::create_dir_all(root).map_err(io)?;
        let tmp = tempfile::Builder::new()
            .prefix(&format!(".new-{prefix}-"))
            .tempdir_in(root)
            .map_err(io)?;
        let dir = tmp.path().join(name);
        std::fs::create_dir_all(&dir).map_err(io)?;
        Ok(Staged {
            _tmp: tmp,
            dir,
            target,
            name: name.to_string(),
            what,
            noun,
        })
    }

    pub fn io(&self) -> impl Fn(std::io::Error) -> ToolError + use<> {
        write_error(self.noun)
    }

    /// Writes one file inside the staged folder.
    pub fn write(&self, file: impl AsRef<Path>, text: impl AsRef<[u8]>) -> Result<(), ToolError> {
        std::fs::write(self.dir.join(file), text).map_err(self.io())
    }

    /// Renames the finished folder into place; a name taken meanwhile is
    /// reported as taken, not as a bare I/O error.
    pub fn place(self) -> Result<PathBuf, ToolError> {
        std::fs::rename(&self.dir, &self.target).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists | std::io::ErrorKind::DirectoryNotEmpty => {
                taken(self.what, &self.name)
            }
            _ => write_error(self.noun)(e),
        })?;
        Ok(self.target)
    }
}

fn taken(what: &str, name: &str) -> ToolError {
    ToolError::Failed(format!(
        "{what} named {name} already exists; choose another name"
    ))
}

fn write_error(noun: &'static str) -> impl Fn(std::io::Error) -> ToolError + Copy {
    move |e| ToolError::Failed(format!("cannot write {noun}: {e}"))
}
