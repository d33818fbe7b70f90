//! The user's own chat models: `$JARVIS_HOME/models/catalog.json`, for a
//! GGUF the built-in catalog does not carry (an organisation's mirror, a
//! fine-tune). Every entry pins its sha256: a download that does not match
//! is refused as the built-in models' are. One entry may be the default,
//! the model a first run offers and an empty `llm.local_model` uses.
//!
//! ```json
//! {"models": [{"name": "smollm2-135m", "what": "a tiny test model",
//!   "license": "Apache-2.0", "file": "SmolLM2-135M.gguf",
//!   "url": "https://example.org/SmolLM2-135M.gguf",
//!   "sha256": "…64 hex…", "bytes": 100000000, "default": true}]}
//! ```

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{CATALOG, Checksum, ModelError, ModelFile, ModelKind, ModelSpec, models_dir};

/// One entry of the file, as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserModel {
    pub name: String,
    #[serde(default)]
    pub what: String,
    pub license: String,
    /// The file's name in `models/llm/` (no folders).
    pub file: String,
    pub url: String,
    pub sha256: String,
    pub bytes: u64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub default: bool,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    models: Vec<UserModel>,
}

/// `$JARVIS_HOME/models/catalog.json`.
pub fn path(home: &Path) -> PathBuf {
    models_dir(home).join("catalog.json")
}

fn bad(home: &Path, why: impl Into<String>) -> ModelError {
    ModelError::Catalog {
        path: path(home),
        why: why.into(),
    }
}

/// The user's models, checked; no file is an empty list. A broken file is
/// an error that says where, and is never rewritten.
pub fn load(home: &Path) -> Result<Vec<ModelSpec>, ModelError> {
    Ok(read(home)?.iter().map(spec_of).collect())
}

fn read(home: &Path) -> Result<Vec<UserModel>, ModelError> {
    let text = match std::fs::read_to_string(path(home)) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let file: File = serde_json::from_str(&text).map_err(|e| {
        bad(
            home,
            format!("line {}, column {}: {e}", e.line(), e.column()),
        )
    })?;
    let mut seen = std::collections::HashSet::new();
    for m in &file.models {
        check(m).map_err(|why| bad(home, format!("model {:?}: {why}", m.name)))?;
        if !seen.insert(m.name.as_str()) {
            return Err(bad(home, format!("model {:?} is listed twice", m.name)));
        }
    }
    if file.models.iter().filter(|m| m.default).count() > 1 {
        return Err(bad(home, "more than one model is the default"));
    }
    Ok(file.models)
}

/// What makes an entry unusable, said for a person.
fn check(m: &UserModel) -> Result<(), String> {
    let name_ok = !m.name.is_empty()
        && m.name.len() <= 64
        && m.name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
        && m.name.starts_with(|c: char| c.is_ascii_alphanumeric());
    if !name_ok {
        return Err("a name is lower-case letters, digits, '.', '_' and '-' (at most 64)".into());
    }
    if CATALOG.iter().any(|b| b.name == m.name) {
        return Err("the name is a built-in model's".into());
    }
    let file_ok = m.file.ends_with(".gguf")
        && !m.file.contains(['/', '\\'])
        && !m.file.starts_with('.')
        && m.file.len() <= 200;
    if !file_ok {
        return Err("`file` is a file name ending in .gguf, with no folders".into());
    }
    match url::Url::parse(&m.url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => {}
        _ => return Err(format!("`url` is not an http(s) address: {}", m.url)),
    }
    if m.sha256.len() != 64 || !m.sha256.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err("`sha256` is the file's digest, 64 hex digits".into());
    }
    if m.bytes == 0 {
        return Err("`bytes` is the file's size".into());
    }
    if m.license.trim().is_empty() {
        return Err("`license` names the licence the file is published under".into());
    }
    Ok(())
}

fn spec_of(m: &UserModel) -> ModelSpec {
    let what = if m.what.trim().is_empty() {
        format!("chat, added by you ({})", super::human_size(m.bytes))
    } else {
        m.what.clone()
    };
    ModelSpec {
        name: Cow::Owned(m.name.clone()),
        what: Cow::Owned(what),
        kind: ModelKind::Language,
        license: Cow::Owned(m.license.clone()),
        env: "",
        files: Cow::Owned(vec![ModelFile {
            path: Cow::Owned(format!("llm/{}", m.file)),
            url: Cow::Owned(m.url.clone()),
            checksums: Cow::Owned(vec![Checksum::Sha256(Cow::Owned(
                m.sha256.to_ascii_lowercase(),
            ))]),
            approx_bytes: m.bytes,
        }]),
        user: true,
        default: m.default,
    }
}

/// Adds (or replaces, by name) one entry, atomically and under a lock so
/// two processes do not lose each other's. A default entry takes the
/// default from any other.
pub fn add(home: &Path, model: UserModel) -> Result<(), ModelError> {
    check(&model).map_err(|why| bad(home, format!("model {:?}: {why}", model.name)))?;
    let dir = models_dir(home);
    std::fs::create_dir_all(&dir)?;
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join("catalog.json.lock"))?;
    lock.lock()?;
    let mut models = read(home)?;
    if model.default {
        for m in &mut models {
            m.default = false;
        }
    }
    match models.iter_mut().find(|m| m.name == model.name) {
        Some(m) => *m = model,
        None => models.push(model),
    }
    let text =
        serde_json::to_string_pretty(&File { models }).map_err(|e| bad(home, e.to_string()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(&dir)?;
    std::io::Write::write_all(&mut tmp, text.as_bytes())?;
    std::io::Write::write_all(&mut tmp, b"\n")?;
    tmp.as_file().sync_all()?;
    tmp.persist(path(home)).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str) -> UserModel {
        UserModel {
            name: name.into(),
            what: String::new(),
            license: "Apache-2.0".into(),
            file: format!("{name}.gguf"),
            url: format!("https://example.org/{name}.gguf"),
            sha256: "ab".repeat(32),
            bytes: 1_000,
            default: false,
        }
    }

    #[test]
    fn entries_are_added_replaced_and_one_is_the_default() {
        let home = tempfile::tempdir().unwrap();
        assert!(load(home.path()).unwrap().is_empty());
        add(home.path(), entry("a")).unwrap();
        add(
            home.path(),
            UserModel {
                default: true,
                ..entry("b")
            },
        )
        .unwrap();
        add(
            home.path(),
            UserModel {
                default: true,
                ..entry("a")
            },
        )
        .unwrap();
        let all = load(home.path()).unwrap();
        assert_eq!(all.len(), 2);
        assert!(all[0].default && !all[1].default, "{all:?}");
        assert_eq!(all[0].files[0].path, "llm/a.gguf");
        let cat = super::super::catalog(home.path());
        assert_eq!(cat.iter().filter(|m| m.default).count(), 1, "{cat:?}");
        assert_eq!(
            super::super::default_language_model(home.path()).map(|m| m.name),
            Some("a".into())
        );
    }

    #[test]
    fn bad_entries_and_broken_files_say_what_and_where() {
        let home = tempfile::tempdir().unwrap();
        for (m, says) in [
            (entry("qwen3-0.6b"), "built-in"),
            (entry("Bad Name"), "a name is"),
            (
                UserModel {
                    file: "../x.gguf".into(),
                    ..entry("c")
                },
                "no folders",
            ),
            (
                UserModel {
                    url: "file:///etc/passwd".into(),
                    ..entry("c")
                },
                "http(s)",
            ),
            (
                UserModel {
                    sha256: "00".into(),
                    ..entry("c")
                },
                "64 hex",
            ),
        ] {
            let e = add(home.path(), m).unwrap_err().to_string();
            assert!(e.contains(says), "{e}");
        }
        std::fs::create_dir_all(models_dir(home.path())).unwrap();
        std::fs::write(path(home.path()), "{\"models\": [\n  {\"name\": }\n]}").unwrap();
        let e = load(home.path()).unwrap_err().to_string();
        assert!(e.contains("catalog.json") && e.contains("line 2"), "{e}");
        // Broken, it is never rewritten: an add refuses and leaves it.
        assert!(add(home.path(), entry("d")).is_err());
        assert!(
            std::fs::read_to_string(path(home.path()))
                .unwrap()
                .contains("\"name\": }")
        );
        // The built-in models stay usable.
        assert!(super::super::spec(home.path(), "qwen3-0.6b").is_ok());
    }
}
