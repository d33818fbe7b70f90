//! `config.json`: the user's settings. This module is its only writer; writes
//! are atomic (temp file + rename) under a lock file, so the CLI and the app can
//! both run, and a broken file is reported with its line, never overwritten.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use thiserror::Error;

#[derive(Debug, Error)]
pub enum ConfigError {
    #[error(
        "{path}: line {line}, column {column}: {message} (fix or remove the file; it was not changed)"
    )]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Setting(#[from] SettingError),
}

pub use jarvis_protocol::settings::*;

/// `$JARVIS_HOME`, else `~/.jarvis`: where every host keeps its state.
pub fn default_home() -> Option<PathBuf> {
    if let Some(h) = std::env::var_os("JARVIS_HOME").filter(|h| !h.is_empty()) {
        return Some(PathBuf::from(h));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".jarvis"))
}

/// The config file of one Jarvis home.
#[derive(Debug, Clone)]
pub struct ConfigStore {
    path: PathBuf,
}

impl ConfigStore {
    pub fn new(home: &Path) -> Self {
        ConfigStore {
            path: home.join("config.json"),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The settings; defaults when the file does not exist yet.
    pub fn load(&self) -> Result<Config, ConfigError> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Config::default()),
            Err(e) => return Err(self.io(e)),
        };
        serde_json::from_str(&text).map_err(|e| ConfigError::Parse {
            path: self.path.clone(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })
    }

    /// Read, change and write back under the lock, so two processes never
    /// lose each other's changes.
    pub fn update(
        &self,
        f: impl FnOnce(&mut Config) -> Result<(), ConfigError>,
    ) -> Result<Config, ConfigError> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| self.io(e))?;
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join("config.json.lock"))
            .map_err(|e| self.io(e))?;
        lock.lock().map_err(|e| self.io(e))?;
        let mut cfg = self.load()?;
        f(&mut cfg)?;
        let text = serde_json::to_string_pretty(&cfg).map_err(|e| {
            ConfigError::Setting(SettingError::InvalidValue {
                key: String::new(),
                message: e.to_string(),
            })
        })?;
        atomic_write(&self.path, text.as_bytes()).map_err(|e| self.io(e))?;
        drop(lock);
        Ok(cfg)
    }

    fn io(&self, source: std::io::Error) -> ConfigError {
        ConfigError::Io {
            path: self.path.clone(),
            source,
        }
    }
}

/// Writes a file so that readers see the old or the new content, never a part.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    if let Ok(meta) = std::fs::metadata(path) {
        // Keep the permissions of the file being replaced.
        let _ = tmp.as_file().set_permissions(meta.permissions());
    }
    tmp.persist(path).map_err(|e| e.error)?;
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_file_is_reported_with_its_line_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let store = ConfigStore::new(dir.path());
        let broken = "{\n  \"llm\": {\n    \"model\": \"x\",\n  }\n";
        std::fs::write(store.path(), broken).unwrap();
        let err = store.load().unwrap_err();
        assert!(matches!(err, ConfigError::Parse { line: 4, .. }), "{err}");
        assert!(store.update(|c| Ok(c.set("tools.read", "true")?)).is_err());
        assert_eq!(std::fs::read_to_string(store.path()).unwrap(), broken);
    }

    #[test]
    fn update_is_atomic_and_keeps_other_settings() {
        let dir = tempfile::tempdir().unwrap();
        let store = ConfigStore::new(dir.path());
        store.update(|c| Ok(c.set("llm.model", "a")?)).unwrap();
        store.update(|c| Ok(c.set("tools.write", "true")?)).unwrap();
        let c = store.load().unwrap();
        assert_eq!(c.llm.model, "a");
        assert!(c.tools.write);
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "no temp files left: {names:?}");
    }
}
