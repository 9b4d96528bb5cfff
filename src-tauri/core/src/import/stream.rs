//! Another app's export imported as it is read: one conversation at a time is parsed, and what
//! was read is written a few megabytes at a time, so a history of any size imports in bounded
//! memory. Each conversation is written whole or not at all; a cancel or a failure keeps the
//! conversations read before it, and says how many.

use std::collections::HashMap;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::assets::{Assets, NoAssets};
use super::foreign::App;
use super::items::{Items, Place};
use super::{ImportError, ImportReport};
use crate::store::{ConversationRecord, Store};

/// How much of the file is read before what it held is written, in one transaction and one
/// piece of the search index: the larger, the less the index is merged (a 1 GB export took
/// 64 s in batches of 8 MiB, 41 s in 32 and 35 s in 64), and the more memory it takes
/// (255 MB at most in 64).
const BATCH_BYTES: usize = 64 * 1024 * 1024;

/// How often progress is told, at most.
const TELL_EVERY: Duration = Duration::from_millis(100);

/// How far an import has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Progress {
    /// Bytes of the conversations file read, of how many (its size, or what the archive
    /// says it unpacks to).
    pub read: u64,
    pub total: u64,
    /// Conversations read so far.
    pub conversations: usize,
}

/// Who is told how an import goes, and may stop it.
#[derive(Default)]
pub struct Watch<'a> {
    tell: Option<&'a mut dyn FnMut(Progress)>,
    cancel: Option<&'a AtomicBool>,
    last: Option<Instant>,
}

impl<'a> Watch<'a> {
    /// Progress goes to `tell` (a few times a second); the import stops between two
    /// conversations once `cancel` is set.
    pub fn new(tell: &'a mut dyn FnMut(Progress), cancel: &'a AtomicBool) -> Self {
        Self {
            tell: Some(tell),
            cancel: Some(cancel),
            last: None,
        }
    }

    fn tell(&mut self, progress: Progress, now: bool) {
        let Some(tell) = self.tell.as_mut() else {
            return;
        };
        if now || self.last.is_none_or(|at| at.elapsed() >= TELL_EVERY) {
            self.last = Some(Instant::now());
            tell(progress);
        }
    }
}

/// An import that stopped before the end of its file, and what it had done by then.
#[derive(Debug, thiserror::Error)]
pub struct Interrupted {
    #[source]
    pub error: Box<ImportError>,
    /// What was imported before it stopped, which stays.
    pub done: ImportReport,
}

impl From<ImportError> for Interrupted {
    fn from(error: ImportError) -> Self {
        Self {
            error: Box::new(error),
            done: ImportReport::default(),
        }
    }
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.error)?;
        let kept = self.done.conversations + self.done.updated;
        if kept > 0 {
            write!(
                f,
                ". The {kept} conversation(s) read before that were imported and stay; importing the file again adds only what they lack"
            )?;
        }
        Ok(())
    }
}

/// Reads the list `reader` holds one conversation at a time, giving each to `take` with the
/// size of its JSON and how many bytes of the file were read by then.
fn each_conversation<R: BufRead>(
    reader: R,
    assets: &mut dyn Assets,
    cancel: &dyn Fn() -> bool,
    mut take: impl FnMut(ConversationRecord, usize, u64) -> Result<(), ImportError>,
) -> Result<(), ImportError> {
    let mut items = Items::new(reader);
    let mut item = Vec::new();
    let mut app = None;
    // Each conversation's id, and where it was, to name both places of one given twice.
    let mut seen: HashMap<String, usize> = HashMap::new();
    while !cancel() {
        let index = items.count;
        let Some(place) = items.next_into(&mut item)? else {
            if index == 0 {
                return Err(ImportError::NotPonder(
                    "it is an empty list: no conversations to import".to_owned(),
                ));
            }
            return Ok(());
        };
        let value: Value = serde_json::from_slice(&item).map_err(|e| damaged(&e, place, index))?;
        let app = match app {
            Some(app) => app,
            None => *app.insert(App::of(&value)?),
        };
        let record = app.record(&value, index, assets)?;
        drop(value);
        if let Some(first) = seen.insert(record.conversation.id.clone(), index) {
            return Err(ImportError::Invalid(format!(
                "the conversations [{first}] and [{index}] are the same one (the same id); an export lists each once"
            )));
        }
        super::check(std::slice::from_ref(&record))?;
        take(record, item.len(), items.offset())?;
        // One huge conversation must not keep its buffer for all that follow.
        if item.capacity() > BATCH_BYTES {
            item = Vec::new();
        }
    }
    Err(ImportError::Cancelled)
}

fn damaged(e: &serde_json::Error, start: Place, index: usize) -> ImportError {
    let at = start.within(e.line(), e.column());
    match e.classify() {
        serde_json::error::Category::Eof => ImportError::Truncated {
            line: usize::try_from(at.line).unwrap_or(usize::MAX),
        },
        _ => ImportError::Invalid(format!("conversation [{index}], at {at}: {e}")),
    }
}

/// Every conversation of the list `bytes` holds, read in memory (for checking a file).
pub(super) fn parse(bytes: &[u8]) -> Result<Vec<ConversationRecord>, ImportError> {
    let mut records = Vec::new();
    each_conversation(bytes, &mut NoAssets, &|| false, |record, _, _| {
        records.push(record);
        Ok(())
    })?;
    Ok(records)
}

/// Imports the list `reader` holds (`total` bytes), merging each conversation into
/// the history as [`Store::merge_records`] does.
pub(super) fn import<R: BufRead>(
    store: &Store,
    reader: R,
    total: u64,
    assets: &mut dyn Assets,
    watch: &mut Watch<'_>,
) -> Result<ImportReport, Interrupted> {
    let bulk = store.bulk_write().map_err(ImportError::from)?;
    let mut done = ImportReport::default();
    let mut batch: Vec<ConversationRecord> = Vec::new();
    let mut batch_bytes = 0;
    let cancel = watch.cancel;
    let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let read = each_conversation(reader, assets, &cancelled, |record, bytes, read| {
        batch.push(record);
        batch_bytes += bytes;
        if batch_bytes >= BATCH_BYTES {
            write(store, &mut batch, &mut done)?;
            batch_bytes = 0;
        }
        let conversations = done.conversations + done.updated + done.unchanged + batch.len();
        watch.tell(
            Progress {
                read,
                total,
                conversations,
            },
            false,
        );
        Ok(())
    });
    // Whatever stopped the reading, the conversations read whole before it are kept.
    let wrote = write(store, &mut batch, &mut done);
    drop(bulk);
    match read.and(wrote) {
        Ok(()) => {
            let conversations = done.conversations + done.updated + done.unchanged;
            watch.tell(
                Progress {
                    read: total,
                    total,
                    conversations,
                },
                true,
            );
            Ok(done)
        }
        Err(error) => Err(Interrupted {
            error: Box::new(error),
            done,
        }),
    }
}

fn write(
    store: &Store,
    batch: &mut Vec<ConversationRecord>,
    done: &mut ImportReport,
) -> Result<(), ImportError> {
    if batch.is_empty() {
        return Ok(());
    }
    // Taken whether it is written or refused: a batch is tried once, not again at the end.
    let records = std::mem::take(batch);
    let merged = store.merge_records(&records)?;
    done.conversations += merged.new;
    done.messages += merged.new_messages + merged.added_messages;
    done.updated += merged.updated;
    done.unchanged += merged.unchanged;
    Ok(())
}

#[cfg(test)]
mod tests;
