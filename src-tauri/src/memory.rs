//! Handing freed heap back to the system once a burst of work is over.
//!
//! Start-up (opening the store, loading skills and tools, building the
//! HUD's first state) and every turn (streamed text, tool output) allocate
//! megabytes that are freed soon after, but glibc keeps freed memory in its
//! arenas: an idle app would go on holding its busiest moment. So trim after
//! such moments, on a thread of its own, never on a hot path.

use std::time::Duration;

/// How long after the HUD's first paint to trim, so that start-up work
/// still winding down (the keyring read, the HUD's first requests) is over.
pub const AFTER_START: Duration = Duration::from_secs(3);

/// Returns freed heap to the system, on a background thread, after `delay`.
pub fn trim_later(delay: Duration) {
    let spawned = std::thread::Builder::new()
        .name("heap-trim".into())
        .spawn(move || {
            std::thread::sleep(delay);
            trim();
        });
    if let Err(e) = spawned {
        tracing::debug!("heap trim not scheduled: {e}");
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim() {
    // SAFETY: malloc_trim only walks glibc's own arenas under their locks; it
    // takes no pointers from us and is safe to call from any thread.
    #[allow(unsafe_code)]
    let released = unsafe { libc::malloc_trim(0) };
    tracing::debug!("heap trimmed (memory released: {})", released == 1);
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() {}
