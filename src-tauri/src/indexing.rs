//! Keeping the search index current, and the history tidy, away from what the user waits on.
//!
//! A finished answer joins the search index later (`Store::index_pending`): tokenizing a long
//! thought takes tens of milliseconds, which ending a turn should not wait for. The app does
//! it a moment after a turn ends and after start-up (answers the command line wrote), once
//! the window's own reads have gone first; a search before then does it itself.
//! Then what SQLite cached for the pass and the reads before it goes back to the system.
//!
//! What reads the whole history (thoughts past their time, files no message refers to any
//! more) runs after start-up and after a conversation is deleted, never after every answer:
//! on a history of millions of messages it is a pass through gigabytes, a part at a time.

use std::sync::Arc;
use std::time::Duration;

use ponder_core::store::Store;

/// Long enough for the reads that follow a turn's end (the finished message, the list) to
/// take the history first.
const AFTER: Duration = Duration::from_millis(1000);

/// After a turn, and at start-up: what is waiting joins the search index.
pub fn index_soon(store: Arc<Store>) {
    soon(store, |store| {
        // Nothing to tell anyone on failure: the next search tries again.
        let _ = store.index_pending();
    });
}

/// After start-up: the thoughts last changed before `purge_before` (the user's retention)
/// are dropped, and the files no message refers to are removed (those of a question never
/// sent, the window closed with them in the composer, once they are an hour old).
pub fn tidy_soon(store: Arc<Store>, purge_before: Option<i64>) {
    soon(store, move |store| {
        // Quietly: the next start tries again.
        if let Some(before) = purge_before {
            let _ = store.purge_thoughts(before);
        }
        let _ = store.collect_attachments(ponder_core::store::ATTACHMENT_GRACE);
    });
}

/// After a conversation is deleted: the files only its questions had (once past their grace).
pub fn collect_soon(store: Arc<Store>) {
    soon(store, |store| {
        let _ = store.collect_attachments(ponder_core::store::ATTACHMENT_GRACE);
    });
}

/// `work` on a blocking thread a moment from now, then what it cached given back.
fn soon(store: Arc<Store>, work: impl FnOnce(&Store) + Send + 'static) {
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(AFTER).await;
        let _ = tauri::async_runtime::spawn_blocking(move || {
            work(&store);
            // What the pass and the reads before it cached stays otherwise held while the
            // app idles, which is most of its life.
            let _ = store.release_memory();
            // Once, with the turn's own request freed (it asked already; this moves it later).
            crate::heap_trim::give_back_soon();
        })
        .await;
    });
}
