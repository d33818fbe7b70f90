//! The model manager against a real HTTP server on loopback: resume after a
//! dropped connection, checksums, pinning, removal.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use jarvis_testkit::FileServer;
use jarvis_voice::models::{self, Progress};

/// A mirror laid out like the models directory, holding the shared files.
fn mirror(dir: &Path) {
    let shared = jarvis_testkit::shared_dir().join("models");
    std::fs::create_dir_all(dir.join("piper")).unwrap();
    for f in [
        "ggml-tiny.en.bin",
        "silero-v6.2.0-ggml.bin",
        "piper/en_US-joe-medium.onnx",
        "piper/en_US-joe-medium.onnx.json",
    ] {
        std::os::unix::fs::symlink(shared.join(f), dir.join(f)).unwrap();
    }
}

#[tokio::test]
async fn an_interrupted_download_resumes_and_is_verified() {
    let src = tempfile::tempdir().unwrap();
    mirror(src.path());
    let server = FileServer::start(src.path().to_path_buf(), Some(1_000_000))
        .await
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let mut seen: Vec<Progress> = Vec::new();
    let err = models::install(home.path(), "piper-joe", Some(&server.base_url()), |p| {
        seen.push(p.clone())
    })
    .await
    .unwrap_err()
    .to_string();
    assert!(err.contains("run install again to resume"), "{err}");
    let onnx = home.path().join("models/piper/en_US-joe-medium.onnx");
    let part = home.path().join("models/piper/en_US-joe-medium.onnx.part");
    assert!(!onnx.exists(), "a partial file must not be installed");
    // What arrived before the cut is kept (the client may not see every
    // byte the server wrote before closing).
    let kept = std::fs::metadata(&part).unwrap().len();
    assert!(kept > 0 && kept <= 1_000_000, "{kept}");
    assert_eq!(seen.last().unwrap().total, Some(63_201_294));

    seen.clear();
    let files = models::install(home.path(), "piper-joe", Some(&server.base_url()), |p| {
        seen.push(p.clone())
    })
    .await
    .unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(seen[0].resumed_from, kept, "{:?}", seen[0]);
    assert_eq!(
        seen.iter()
            .rfind(|p| p.file.ends_with(".onnx"))
            .unwrap()
            .done,
        63_201_294
    );
    let ranges: Vec<String> = server
        .requests()
        .iter()
        .filter_map(|r| r.header("range").map(str::to_string))
        .collect();
    assert_eq!(ranges, [format!("bytes={kept}-")]);
    assert!(!part.exists());
    assert_eq!(
        std::fs::read(&onnx).unwrap(),
        std::fs::read(jarvis_testkit::shared_dir().join("models/piper/en_US-joe-medium.onnx"))
            .unwrap()
    );
    models::verify(home.path(), "piper-joe").unwrap();

    // The digest was pinned at install: a changed byte is caught.
    let mut bytes = std::fs::read(&onnx).unwrap();
    bytes[1000] ^= 0xff;
    std::fs::write(&onnx, bytes).unwrap();
    let err = models::verify(home.path(), "piper-joe")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("checksum mismatch") && err.contains("pinned"),
        "{err}"
    );

    let removed = models::remove(home.path(), "piper-joe").unwrap();
    assert_eq!(removed.len(), 2);
    assert!(
        models::verify(home.path(), "piper-joe")
            .unwrap_err()
            .to_string()
            .contains("jarvis models install piper-joe")
    );
}

#[tokio::test]
async fn a_file_that_does_not_match_its_checksum_is_not_installed() {
    let src = tempfile::tempdir().unwrap();
    std::fs::write(
        src.path().join("silero-v6.2.0-ggml.bin"),
        b"not the model at all",
    )
    .unwrap();
    let server = FileServer::start(src.path().to_path_buf(), None)
        .await
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let err = models::install(home.path(), "silero-vad", Some(&server.base_url()), |_| {})
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("checksum mismatch") && err.contains("2aa269b7"),
        "{err}"
    );
    let dir = home.path().join("models");
    assert!(!dir.join("silero-v6.2.0-ggml.bin").exists());
    assert!(
        !dir.join("silero-v6.2.0-ggml.bin.part").exists(),
        "a bad download is not kept for resuming"
    );
}

/// The shared files served whole from loopback, and an empty home.
async fn served() -> (tempfile::TempDir, FileServer, tempfile::TempDir) {
    let src = tempfile::tempdir().unwrap();
    mirror(src.path());
    let server = FileServer::start(src.path().to_path_buf(), None)
        .await
        .unwrap();
    (src, server, tempfile::tempdir().unwrap())
}

#[tokio::test]
async fn published_checksums_pass_and_list_reports_state() {
    let (_src, server, home) = served().await;
    assert!(models::list(home.path()).iter().all(|m| !m.installed));
    for name in ["silero-vad", "whisper-tiny.en"] {
        models::install(home.path(), name, Some(&server.base_url()), |_| {})
            .await
            .unwrap();
        models::verify(home.path(), name).unwrap();
    }
    let list = models::list(home.path());
    let state: Vec<(&str, bool)> = list
        .iter()
        .filter(|m| m.kind == models::ModelKind::Voice)
        .map(|m| (m.name.as_str(), m.installed))
        .collect();
    assert_eq!(
        state,
        [
            ("whisper-tiny.en", true),
            ("silero-vad", true),
            ("piper-joe", false)
        ]
    );
    // Installing again is a no-op: nothing is downloaded.
    let before = server.requests().len();
    models::install(home.path(), "silero-vad", Some(&server.base_url()), |_| {})
        .await
        .unwrap();
    assert_eq!(server.requests().len(), before);
    assert!(
        models::install(home.path(), "nope", None, |_| {})
            .await
            .unwrap_err()
            .to_string()
            .contains("known: whisper-tiny.en")
    );
}

#[tokio::test]
async fn two_installs_of_one_model_at_once_download_it_once() {
    // The app's Settings and `jarvis models install` at the same moment.
    let (_src, server, home) = served().await;
    let base = server.base_url();
    let (a, b) = tokio::join!(
        models::install(home.path(), "silero-vad", Some(&base), |_| {}),
        models::install(home.path(), "silero-vad", Some(&base), |_| {}),
    );
    assert_eq!(a.unwrap(), b.unwrap());
    models::verify(home.path(), "silero-vad").unwrap();
    let gets = server
        .requests()
        .iter()
        .filter(|r| r.path.contains("silero"))
        .count();
    assert_eq!(gets, 1, "the second waited and found it installed");
    assert!(
        !home
            .path()
            .join("models/silero-v6.2.0-ggml.bin.part")
            .exists()
    );
}
