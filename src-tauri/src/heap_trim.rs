//! Giving memory back after a long read.
//!
//! Reading a long thread builds tens of megabytes of rows, parts and JSON on a worker thread
//! and frees them once the window has them. glibc keeps what a thread's arena freed for
//! later, so the app stayed ~30 MB larger after opening a 2,000-message thread, for as long
//! as it ran. `malloc_trim` hands the free pages of every arena back; it is asked once the
//! reads have settled, not on the read's own path.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How long after the last large read the pages are given back.
const SETTLE: Duration = Duration::from_millis(1500);

/// Gives free memory back to the system a moment after the last call.
pub fn give_back_soon() {
    static LATEST: AtomicU64 = AtomicU64::new(0);
    let mine = LATEST.fetch_add(1, Ordering::Relaxed) + 1;
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(SETTLE).await;
        if LATEST.load(Ordering::Relaxed) == mine {
            let _ = tauri::async_runtime::spawn_blocking(give_back).await;
        }
    });
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn give_back() {
    // SAFETY: malloc_trim only walks and releases free chunks of glibc's own arenas; it is
    // thread-safe (it takes each arena's lock) and has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn give_back() {}
