//! Waking the services leader when a task is queued in another process:
//! the leader listens on `$JARVIS_HOME/hub.sock`; a queueing process
//! connects and writes one byte. No wake-ups while idle, unlike polling.

use std::path::{Path, PathBuf};

pub fn socket_path(home: &Path) -> PathBuf {
    home.join("hub.sock")
}

/// Tells the leader to look at the queue; false when nobody listens.
pub fn poke(home: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::io::Write;
        match std::os::unix::net::UnixStream::connect(socket_path(home)) {
            Ok(mut s) => s.write_all(b"w").is_ok(),
            Err(_) => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = home;
        false
    }
}

/// The leader's end: each connection is a wake-up.
#[cfg(unix)]
pub struct Listener {
    inner: tokio::net::UnixListener,
    path: PathBuf,
    /// The socket file this listener made: a later leader's is not removed.
    inode: u64,
}

#[cfg(unix)]
impl Listener {
    /// Binds the socket, replacing one an earlier leader left behind.
    pub fn bind(home: &Path) -> std::io::Result<Self> {
        use std::os::unix::fs::MetadataExt;
        let path = socket_path(home);
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        let inner = tokio::net::UnixListener::bind(&path)?;
        let inode = std::fs::metadata(&path)?.ino();
        Ok(Listener { inner, path, inode })
    }

    /// The next wake-up (a connection), or why none can come.
    pub async fn next(&self) -> std::io::Result<()> {
        let (mut s, _) = self.inner.accept().await?;
        use tokio::io::AsyncReadExt;
        let mut b = [0u8; 1];
        let _ = tokio::time::timeout(std::time::Duration::from_millis(200), s.read(&mut b)).await;
        Ok(())
    }
}

#[cfg(unix)]
impl Drop for Listener {
    fn drop(&mut self) {
        use std::os::unix::fs::MetadataExt;
        if std::fs::metadata(&self.path).is_ok_and(|m| m.ino() == self.inode) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
