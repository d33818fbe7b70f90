//! The model manager: which model files Jarvis knows, where they live, and
//! a downloader with resume and checksum verification. Every write lands in
//! a `.part` file and is renamed in only after its digest matches.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use sha1::Sha1;
use sha2::{Digest, Sha256};

mod catalog;
mod download;
pub mod user;

pub use catalog::CATALOG;
pub use download::install;
use download::part_path;

/// What can go wrong finding, fetching or checking a model file.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("model not found at {path}: {hint}")]
    Missing { path: PathBuf, hint: String },
    #[error("model download failed: {0}")]
    Download(String),
    #[error("checksum mismatch for {name}: expected {expected}, got {actual}")]
    Checksum {
        name: String,
        expected: String,
        actual: String,
    },
    #[error("{path}: {why}")]
    Catalog { path: PathBuf, why: String },
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Text in the catalog: borrowed in the built-in table, owned when it
/// comes from the user's catalog file.
pub type Text = Cow<'static, str>;

/// What a published checksum looks like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checksum {
    Sha256(Text),
    /// whisper.cpp publishes SHA-1 for its ggml models.
    Sha1(Text),
    /// Nothing published: the digest is pinned on first download and
    /// `verify` checks against that.
    PinOnInstall,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelFile {
    /// Path under the models directory.
    pub path: Text,
    pub url: Text,
    /// Any one of these matching is enough (an upstream file and a
    /// documented rebuild of it, say).
    pub checksums: Cow<'static, [Checksum]>,
    pub approx_bytes: u64,
}

/// What a model is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelKind {
    /// Speech in or out, voice activity: installed as the voice set.
    Voice,
    /// A chat model for the embedded engine (`jarvis-llm`).
    Language,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelSpec {
    pub name: Text,
    pub what: Text,
    pub kind: ModelKind,
    /// The licence the files are published under, shown before download.
    pub license: Text,
    /// Environment variable that points at a file to use instead (empty:
    /// none).
    pub env: &'static str,
    pub files: Cow<'static, [ModelFile]>,
    /// Added by the user (`models/catalog.json`), not built in.
    pub user: bool,
    /// The chat model used when `llm.local_model` is empty.
    pub default: bool,
}

impl ModelSpec {
    /// What a download of every file fetches.
    pub fn approx_bytes(&self) -> u64 {
        self.files.iter().map(|f| f.approx_bytes).sum()
    }
}

/// Every model this home can install: the built-in catalog, then the
/// user's own chat models (a broken catalog file adds none; [`user::load`]
/// says why).
pub fn catalog(home: &Path) -> Vec<ModelSpec> {
    let mut all = CATALOG.to_vec();
    let users = user::load(home).unwrap_or_default();
    if users.iter().any(|m| m.default) {
        for m in &mut all {
            m.default = false;
        }
    }
    all.extend(users);
    all
}

pub fn spec(home: &Path, name: &str) -> Result<ModelSpec, ModelError> {
    let all = catalog(home);
    let names: Vec<String> = all.iter().map(|m| m.name.to_string()).collect();
    all.into_iter().find(|m| m.name == name).ok_or_else(|| {
        ModelError::Download(format!(
            "unknown model {name:?}; known: {}",
            names.join(", ")
        ))
    })
}

/// The built-in chat model used when none is named.
pub const DEFAULT_LANGUAGE_MODEL: &str = "qwen2.5-1.5b";

/// The chat model this home uses when `llm.local_model` is empty: the
/// user's catalog may name its own in place of the built-in one.
pub fn default_language_model(home: &Path) -> Option<ModelSpec> {
    catalog(home)
        .into_iter()
        .find(|m| m.default && m.kind == ModelKind::Language)
}

/// A catalog entry for the embedded engine, by id.
pub fn language_model(home: &Path, name: &str) -> Option<ModelSpec> {
    catalog(home)
        .into_iter()
        .find(|m| m.name == name && m.kind == ModelKind::Language)
}

/// How big a download is, for people: `1.1 GB`, `75 MB`.
pub fn human_size(bytes: u64) -> String {
    if bytes >= 1_000_000_000 {
        format!("{:.1} GB", bytes as f64 / 1e9)
    } else {
        format!("{} MB", bytes.div_ceil(1_000_000))
    }
}

/// `$JARVIS_HOME/models`.
pub fn models_dir(home: &Path) -> PathBuf {
    home.join("models")
}

/// Where the first file of a model is used from: its env override, else the
/// models directory.
pub fn model_path(home: &Path, name: &str) -> Result<PathBuf, ModelError> {
    let s = spec(home, name)?;
    Ok(path_of(home, &s))
}

fn env_override(s: &ModelSpec) -> Option<PathBuf> {
    if s.env.is_empty() {
        return None;
    }
    std::env::var_os(s.env)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
}

fn path_of(home: &Path, s: &ModelSpec) -> PathBuf {
    env_override(s).unwrap_or_else(|| {
        let first = s.files.first().map(|f| f.path.as_ref()).unwrap_or_default();
        models_dir(home).join(first)
    })
}

/// Download progress, for a progress bar or the HUD.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    pub model: String,
    pub file: String,
    pub done: u64,
    pub total: Option<u64>,
    /// Bytes that were already there from an interrupted download.
    pub resumed_from: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, Default)]
struct Manifest {
    /// Pinned sha256 per file path.
    files: std::collections::BTreeMap<String, String>,
}

fn manifest_path(dir: &Path) -> PathBuf {
    dir.join("manifest.json")
}

fn read_manifest(dir: &Path) -> Manifest {
    std::fs::read_to_string(manifest_path(dir))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

fn write_manifest(dir: &Path, m: &Manifest) -> Result<(), ModelError> {
    let text = serde_json::to_string_pretty(m).map_err(|e| ModelError::Download(e.to_string()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut tmp, text.as_bytes())?;
    tmp.persist(manifest_path(dir)).map_err(|e| e.error)?;
    Ok(())
}

/// Status of one model on disk.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ModelStatus {
    pub name: String,
    pub what: String,
    pub kind: ModelKind,
    pub license: String,
    /// What a download fetches.
    pub approx_bytes: u64,
    pub path: PathBuf,
    pub installed: bool,
    pub bytes: u64,
    /// Set by the env override.
    pub overridden: bool,
    /// From the user's catalog file.
    pub user: bool,
    /// The chat model used when `llm.local_model` is empty.
    pub default: bool,
}

pub fn list(home: &Path) -> Vec<ModelStatus> {
    catalog(home)
        .into_iter()
        .map(|s| {
            let overridden = env_override(&s).is_some();
            let path = path_of(home, &s);
            let files: Vec<PathBuf> = if overridden {
                vec![path.clone()]
            } else {
                s.files
                    .iter()
                    .map(|f| models_dir(home).join(f.path.as_ref()))
                    .collect()
            };
            let installed = files.iter().all(|f| f.is_file());
            let bytes = files
                .iter()
                .filter_map(|f| std::fs::metadata(f).ok())
                .map(|m| m.len())
                .sum();
            ModelStatus {
                approx_bytes: s.approx_bytes(),
                name: s.name.into(),
                what: s.what.into(),
                kind: s.kind,
                license: s.license.into(),
                path,
                installed,
                bytes,
                overridden,
                user: s.user,
                default: s.default,
            }
        })
        .collect()
}

/// sha256 and sha1 of a file, streaming.
fn digests(path: &Path) -> Result<(String, String), ModelError> {
    use std::io::Read;
    let mut f = std::fs::File::open(path)?;
    let mut s256 = Sha256::new();
    let mut s1 = Sha1::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        s256.update(&buf[..n]);
        s1.update(&buf[..n]);
    }
    Ok((
        crate::digest::hex(&s256.finalize()),
        crate::digest::hex(&s1.finalize()),
    ))
}

/// Check a file against its published checksums, or the pinned one.
fn check(file: &ModelFile, path: &Path, pinned: Option<&str>) -> Result<String, ModelError> {
    let (sha256, sha1) = digests(path)?;
    let matches = |c: &Checksum| match c {
        Checksum::Sha256(want) => *want == sha256,
        Checksum::Sha1(want) => *want == sha1,
        Checksum::PinOnInstall => pinned.is_none_or(|want| want == sha256),
    };
    if file.checksums.iter().any(matches) {
        return Ok(sha256);
    }
    let expected: Vec<String> = file
        .checksums
        .iter()
        .map(|c| match c {
            Checksum::Sha256(w) => format!("sha256 {w}"),
            Checksum::Sha1(w) => format!("sha1 {w}"),
            Checksum::PinOnInstall => {
                format!("sha256 {} (pinned at install)", pinned.unwrap_or("?"))
            }
        })
        .collect();
    Err(ModelError::Checksum {
        name: file.path.to_string(),
        expected: expected.join(" or "),
        actual: format!("sha256 {sha256}, sha1 {sha1}"),
    })
}

/// Verify every installed file of a model. Returns the files checked.
pub fn verify(home: &Path, name: &str) -> Result<Vec<PathBuf>, ModelError> {
    let s = spec(home, name)?;
    let dir = models_dir(home);
    let manifest = read_manifest(&dir);
    let mut out = Vec::new();
    for f in s.files.iter() {
        let path = dir.join(f.path.as_ref());
        if !path.is_file() {
            return Err(ModelError::Missing {
                path,
                hint: format!("run `jarvis models install {name}`"),
            });
        }
        check(
            f,
            &path,
            manifest.files.get(f.path.as_ref()).map(String::as_str),
        )?;
        out.push(path);
    }
    Ok(out)
}

pub fn remove(home: &Path, name: &str) -> Result<Vec<PathBuf>, ModelError> {
    let s = spec(home, name)?;
    let dir = models_dir(home);
    let mut manifest = read_manifest(&dir);
    let mut removed = Vec::new();
    for f in s.files.iter() {
        let path = dir.join(f.path.as_ref());
        for p in [path.clone(), part_path(&path)] {
            if p.is_file() {
                std::fs::remove_file(&p)?;
                removed.push(p);
            }
        }
        manifest.files.remove(f.path.as_ref());
    }
    if dir.is_dir() {
        write_manifest(&dir, &manifest)?;
    }
    Ok(removed)
}
