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

/// Keeps glibc's thresholds where they start: a block over 128 KB is mapped on its own and
/// unmapped when freed, and an arena's free top over 128 KB goes back when a block is freed.
/// Left alone, glibc raises both after a large block is freed (up to 32 and 64 MB), so the
/// tens of megabytes a long read builds on a worker thread stayed at the top of that
/// thread's arena, where `malloc_trim` does not reach: measured on the 10,000-message thread,
/// +11 MB held after opening it and going back. Call first thing in `main`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn fix_thresholds() {
    const DEFAULT: libc::c_int = 128 * 1024;
    // SAFETY: mallopt only sets glibc's allocator parameters; it takes the main arena's lock
    // and has no other preconditions. A failed call (0) leaves glibc's own behaviour.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, DEFAULT);
        libc::mallopt(libc::M_TRIM_THRESHOLD, DEFAULT);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn fix_thresholds() {}

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
