//! Keeping the search index current away from what the user waits on.
//!
//! A finished answer joins the search index later (`Store::index_pending`): tokenizing a long
//! thought takes tens of milliseconds, which ending a turn should not wait for. The app does
//! it a moment after a turn ends and after start-up (answers the command line wrote), once
//! the window's own reads have gone first; a search before then does it itself.
//! Then what SQLite cached for the pass and the reads before it goes back to the system.

use std::sync::Arc;
use std::time::Duration;

use ponder_core::store::Store;

/// Long enough for the reads that follow a turn's end (the finished message, the list) to
/// take the history first.
const AFTER: Duration = Duration::from_millis(1000);

pub fn index_soon(store: Arc<Store>) {
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(AFTER).await;
        // Nothing to tell anyone on failure: the next search tries again.
        let _ = tauri::async_runtime::spawn_blocking(move || {
            let _ = store.index_pending();
            // Files stored for a question that was never sent (the window closed with them in
            // the composer) go once they are an hour old.
            let _ = store.collect_attachments(ponder_core::store::ATTACHMENT_GRACE);
            // What the pass and the reads before it cached stays otherwise held while the
            // app idles, which is most of its life.
            let _ = store.release_memory();
            // Once, with the turn's own request freed (it asked already; this moves it later).
            crate::heap_trim::give_back_soon();
        })
        .await;
    });
}
