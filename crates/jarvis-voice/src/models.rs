//! The model manager: which model files Jarvis knows, where they live, and
//! a downloader with resume and checksum verification. Every write lands in
//! a `.part` file and is renamed in only after its digest matches.

use std::path::{Path, PathBuf};

use futures_util::StreamExt;
use sha1::Sha1;
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;

use crate::VoiceError;

/// What a published checksum looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checksum {
    Sha256(&'static str),
    /// whisper.cpp publishes SHA-1 for its ggml models.
    Sha1(&'static str),
    /// Nothing published: the digest is pinned on first download and
    /// `verify` checks against that.
    PinOnInstall,
}

#[derive(Debug, Clone, Copy)]
pub struct ModelFile {
    /// Path under the models directory.
    pub path: &'static str,
    pub url: &'static str,
    /// Any one of these matching is enough (an upstream file and a
    /// documented rebuild of it, say).
    pub checksums: &'static [Checksum],
    pub approx_bytes: u64,
}

#[derive(Debug, Clone, Copy)]
pub struct ModelSpec {
    pub name: &'static str,
    pub what: &'static str,
    /// Environment variable that points at a file to use instead.
    pub env: &'static str,
    pub files: &'static [ModelFile],
}

/// The models Jarvis can install.
pub const CATALOG: &[ModelSpec] = &[
    ModelSpec {
        name: "whisper-tiny.en",
        what: "speech to text, English (whisper.cpp tiny.en, 75 MB)",
        env: "JARVIS_STT_MODEL",
        files: &[ModelFile {
            path: "ggml-tiny.en.bin",
            url: "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-tiny.en.bin",
            // Upstream's published SHA-1, and the sha256 of the rebuild from
            // PyPI packages described in the README (for offline machines).
            checksums: &[
                Checksum::Sha1("c78c86eb1a8faa21b369bcd33207cc90d64ae9df"),
                Checksum::Sha256(
                    "d16050124c5e21c45f264653a08c69fed83ea0885975d3471d6a5614c3266035",
                ),
            ],
            approx_bytes: 77_704_715,
        }],
    },
    ModelSpec {
        name: "silero-vad",
        what: "voice activity detection (Silero v6.2.0, 0.9 MB)",
        env: "JARVIS_VAD_MODEL",
        files: &[ModelFile {
            path: "silero-v6.2.0-ggml.bin",
            url: "https://github.com/ggml-org/whisper.cpp/raw/master/models/for-tests-silero-v6.2.0-ggml.bin",
            checksums: &[Checksum::Sha256(
                "2aa269b785eeb53a82983a20501ddf7c1d9c48e33ab63a41391ac6c9f7fb6987",
            )],
            approx_bytes: 885_098,
        }],
    },
    ModelSpec {
        name: "piper-joe",
        what: "neural voice, US English male (Piper joe medium, 63 MB)",
        env: "JARVIS_TTS_VOICE",
        files: &[
            ModelFile {
                path: "piper/en_US-joe-medium.onnx",
                url: "https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0/en/en_US/joe/medium/en_US-joe-medium.onnx",
                checksums: &[Checksum::PinOnInstall],
                approx_bytes: 63_201_294,
            },
            ModelFile {
                path: "piper/en_US-joe-medium.onnx.json",
                url: "https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0/en/en_US/joe/medium/en_US-joe-medium.onnx.json",
                checksums: &[Checksum::PinOnInstall],
                approx_bytes: 4_794,
            },
        ],
    },
];

pub fn spec(name: &str) -> Result<&'static ModelSpec, VoiceError> {
    CATALOG.iter().find(|m| m.name == name).ok_or_else(|| {
        let names: Vec<&str> = CATALOG.iter().map(|m| m.name).collect();
        VoiceError::Download(format!(
            "unknown model {name:?}; known: {}",
            names.join(", ")
        ))
    })
}

/// `$JARVIS_HOME/models`.
pub fn models_dir(home: &Path) -> PathBuf {
    home.join("models")
}

/// Where the first file of a model is used from: its env override, else the
/// models directory.
pub fn model_path(home: &Path, name: &str) -> Result<PathBuf, VoiceError> {
    let s = spec(name)?;
    if let Some(p) = std::env::var_os(s.env).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    Ok(models_dir(home).join(s.files[0].path))
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

fn write_manifest(dir: &Path, m: &Manifest) -> Result<(), VoiceError> {
    let text = serde_json::to_string_pretty(m).map_err(|e| VoiceError::Download(e.to_string()))?;
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
    pub path: PathBuf,
    pub installed: bool,
    pub bytes: u64,
    /// Set by the env override.
    pub overridden: bool,
}

pub fn list(home: &Path) -> Vec<ModelStatus> {
    CATALOG
        .iter()
        .map(|s| {
            let overridden = std::env::var_os(s.env).is_some_and(|p| !p.is_empty());
            let path = model_path(home, s.name).unwrap_or_default();
            let files: Vec<PathBuf> = if overridden {
                vec![path.clone()]
            } else {
                s.files
                    .iter()
                    .map(|f| models_dir(home).join(f.path))
                    .collect()
            };
            let installed = files.iter().all(|f| f.is_file());
            let bytes = files
                .iter()
                .filter_map(|f| std::fs::metadata(f).ok())
                .map(|m| m.len())
                .sum();
            ModelStatus {
                name: s.name.into(),
                what: s.what.into(),
                path,
                installed,
                bytes,
                overridden,
            }
        })
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// sha256 and sha1 of a file, streaming.
fn digests(path: &Path) -> Result<(String, String), VoiceError> {
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
    Ok((hex(&s256.finalize()), hex(&s1.finalize())))
}

/// Check a file against its published checksums, or the pinned one.
fn check(file: &ModelFile, path: &Path, pinned: Option<&str>) -> Result<String, VoiceError> {
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
    Err(VoiceError::Checksum {
        name: file.path.into(),
        expected: expected.join(" or "),
        actual: format!("sha256 {sha256}, sha1 {sha1}"),
    })
}

/// Verify every installed file of a model. Returns the files checked.
pub fn verify(home: &Path, name: &str) -> Result<Vec<PathBuf>, VoiceError> {
    let s = spec(name)?;
    let dir = models_dir(home);
    let manifest = read_manifest(&dir);
    let mut out = Vec::new();
    for f in s.files {
        let path = dir.join(f.path);
        if !path.is_file() {
            return Err(VoiceError::ModelMissing {
                path,
                hint: format!("run `jarvis models install {name}`"),
            });
        }
        check(f, &path, manifest.files.get(f.path).map(String::as_str))?;
        out.push(path);
    }
    Ok(out)
}

pub fn remove(home: &Path, name: &str) -> Result<Vec<PathBuf>, VoiceError> {
    let s = spec(name)?;
    let dir = models_dir(home);
    let mut manifest = read_manifest(&dir);
    let mut removed = Vec::new();
    for f in s.files {
        let path = dir.join(f.path);
        for p in [path.clone(), part_path(&path)] {
            if p.is_file() {
                std::fs::remove_file(&p)?;
                removed.push(p);
            }
        }
        manifest.files.remove(f.path);
    }
    if dir.is_dir() {
        write_manifest(&dir, &manifest)?;
    }
    Ok(removed)
}

fn part_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(".part");
    PathBuf::from(s)
}

/// Where to download from: the catalog URL, or `mirror` + the file's path
/// (an offline mirror, or a loopback server in tests).
fn source_url(file: &ModelFile, mirror: Option<&str>) -> String {
    match mirror {
        Some(m) => format!("{}/{}", m.trim_end_matches('/'), file.path),
        None => file.url.to_string(),
    }
}

/// Download and verify a model. An interrupted download resumes from its
/// `.part` file; a bad checksum leaves nothing behind.
pub async fn install(
    home: &Path,
    name: &str,
    mirror: Option<&str>,
    mut progress: impl FnMut(&Progress),
) -> Result<Vec<PathBuf>, VoiceError> {
    let s = spec(name)?;
    let dir = models_dir(home);
    let client = reqwest::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(20))
        .build()
        .map_err(|e| VoiceError::Download(e.to_string()))?;
    let mut installed = Vec::new();
    for f in s.files {
        let path = dir.join(f.path);
        if let Some(parent) = path.parent() {
            tokio::fs::create_dir_all(parent).await?;
        }
        let mut manifest = read_manifest(&dir);
        if path.is_file() && check(f, &path, manifest.files.get(f.path).map(String::as_str)).is_ok()
        {
            installed.push(path);
            continue;
        }
        let part = part_path(&path);
        fetch(
            &client,
            &source_url(f, mirror),
            &part,
            name,
            f.path,
            &mut progress,
        )
        .await?;
        let sha256 = match check(f, &part, manifest.files.get(f.path).map(String::as_str)) {
            Ok(d) => d,
            Err(e) => {
                // A corrupt download must not be resumed next time.
                let _ = tokio::fs::remove_file(&part).await;
                return Err(e);
            }
        };
        tokio::fs::rename(&part, &path).await?;
        manifest.files.insert(f.path.to_string(), sha256);
        write_manifest(&dir, &manifest)?;
        installed.push(path);
    }
    Ok(installed)
}

async fn fetch(
    client: &reqwest::Client,
    url: &str,
    part: &Path,
    model: &str,
    file: &str,
    progress: &mut impl FnMut(&Progress),
) -> Result<(), VoiceError> {
    let have = tokio::fs::metadata(part)
        .await
        .map(|m| m.len())
        .unwrap_or(0);
    let mut req = client.get(url);
    if have > 0 {
        req = req.header(reqwest::header::RANGE, format!("bytes={have}-"));
    }
    let resp = req
        .send()
        .await
        .map_err(|e| VoiceError::Download(format!("{url}: {e}")))?;
    let status = resp.status();
    let (mut done, append) = match status.as_u16() {
        206 => (have, true),
        200 => (0, false),
        // The part is already whole.
        416 if have > 0 => return Ok(()),
        code => return Err(VoiceError::Download(format!("{url}: HTTP {code}"))),
    };
    let total = resp.content_length().map(|n| n + done);
    let mut out = tokio::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(part)
        .await?;
    let mut p = Progress {
        model: model.into(),
        file: file.into(),
        done,
        total,
        resumed_from: if append { have } else { 0 },
    };
    progress(&p);
    let mut body = resp.bytes_stream();
    let mut lost = None;
    while let Some(chunk) = body.next().await {
        let chunk = match chunk {
            Ok(c) => c,
            Err(e) => {
                lost = Some(e);
                break;
            }
        };
        out.write_all(&chunk).await?;
        done += chunk.len() as u64;
        p.done = done;
        progress(&p);
    }
    // tokio writes in the background: what arrived must be on disk before
    // we return, or a resume would start from the wrong offset.
    out.flush().await?;
    out.sync_all().await?;
    if let Some(e) = lost {
        return Err(VoiceError::Download(format!(
            "{url}: connection lost after {done} bytes ({e}); run install again to resume"
        )));
    }
    if let Some(t) = total
        && done < t
    {
        return Err(VoiceError::Download(format!(
            "{url}: got {done} of {t} bytes; run install again to resume"
        )));
    }
    Ok(())
}
