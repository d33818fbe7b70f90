//! The downloader: resume from a `.part` file, verify, then rename in.

use std::path::{Path, PathBuf};

use futures_util::StreamExt;
use tokio::io::AsyncWriteExt;

use super::{
    ModelError, ModelFile, Progress, check, models_dir, read_manifest, spec, write_manifest,
};

pub(super) fn part_path(path: &Path) -> PathBuf {
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
) -> Result<Vec<PathBuf>, ModelError> {
    let s = spec(home, name)?;
    let dir = models_dir(home);
    let client = reqwest::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(20))
        .build()
        .map_err(|e| ModelError::Download(e.to_string()))?;
    let mut installed = Vec::new();
    for f in s.files.iter() {
        let path = dir.join(f.path.as_ref());
        if let Some(parent) = path.parent() {
            tokio::fs::create_dir_all(parent).await?;
        }
        // One download of a file at a time across processes (the app and
        // `jarvis models install` share the `.part`): a second waits, then
        // finds the file installed.
        let _held = lock(&path).await?;
        let mut manifest = read_manifest(&dir);
        let pinned = manifest.files.get(f.path.as_ref()).cloned();
        if path.is_file() && verify(f, &path, pinned.clone()).await.is_ok() {
            installed.push(path);
            continue;
        }
        let part = part_path(&path);
        fetch(
            &client,
            &source_url(f, mirror),
            &part,
            name,
            &f.path,
            &mut progress,
        )
        .await?;
        let sha256 = match verify(f, &part, pinned).await {
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

/// The file's checksum, read off the async runtime (a model is a gigabyte).
async fn verify(f: &ModelFile, path: &Path, pinned: Option<String>) -> Result<String, ModelError> {
    let (f, path) = (f.clone(), path.to_path_buf());
    tokio::task::spawn_blocking(move || check(&f, &path, pinned.as_deref()))
        .await
        .map_err(|e| ModelError::Download(format!("checksum: {e}")))?
}

/// Holds `{file}.lock` exclusively until dropped (waiting for another
/// process's download of the same file to end).
async fn lock(path: &Path) -> Result<std::fs::File, ModelError> {
    let mut name = path.as_os_str().to_os_string();
    name.push(".lock");
    let lock_path = PathBuf::from(name);
    tokio::task::spawn_blocking(move || {
        let f = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)?;
        f.lock()?;
        Ok::<_, std::io::Error>(f)
    })
    .await
    .map_err(|e| ModelError::Download(format!("lock: {e}")))?
    .map_err(ModelError::from)
}

async fn fetch(
    client: &reqwest::Client,
    url: &str,
    part: &Path,
    model: &str,
    file: &str,
    progress: &mut impl FnMut(&Progress),
) -> Result<(), ModelError> {
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
        .map_err(|e| ModelError::Download(format!("{url}: {e}")))?;
    let status = resp.status();
    let (mut done, append) = match status.as_u16() {
        206 => (have, true),
        200 => (0, false),
        // The part is already whole.
        416 if have > 0 => return Ok(()),
        code => return Err(ModelError::Download(format!("{url}: HTTP {code}"))),
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
        return Err(ModelError::Download(format!(
            "{url}: connection lost after {done} bytes ({e}); run install again to resume"
        )));
    }
    if let Some(t) = total
        && done < t
    {
        return Err(ModelError::Download(format!(
            "{url}: got {done} of {t} bytes; run install again to resume"
        )));
    }
    Ok(())
}
