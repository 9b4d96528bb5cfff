//! Writing whole conversations back from an export: original ids, seqs, timestamps and every
//! stored field, all in one transaction, so an imported conversation reads back exactly as it
//! was exported and can be continued with the same provider.

use rusqlite::{OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};

use super::{Conversation, MessageStatus, StoreError, StoredMessage};

/// A conversation with all its messages, in seq order: one entry of a backup.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConversationRecord {
    pub conversation: Conversation,
    pub messages: Vec<StoredMessage>,
}

/// Why [`Store::insert_records`](super::Store::insert_records) wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum InsertError {
    #[error("the conversation {title:?} is already in your history (id {id})")]
    ConversationExists { id: String, title: String },
    #[error("message {id} of the conversation {title:?} is already in your history")]
    MessageExists { id: String, title: String },
    #[error(
        "message {id} of the conversation {title:?} follows {parent}, which is not before it in the file"
    )]
    MissingParent {
        id: String,
        parent: String,
        title: String,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for InsertError {
    fn from(e: rusqlite::Error) -> Self {
        Self::Store(e.into())
    }
}

impl From<serde_json::Error> for InsertError {
    fn from(e: serde_json::Error) -> Self {
        Self::Store(e.into())
    }
}

impl super::Store {
    /// Inserts conversations and their messages exactly as given, all or nothing. Nothing is
    /// written if any conversation or message id is already in the history. A message still
    /// marked `streaming` is stored as `interrupted`: nothing will ever finish it.
    pub fn insert_records(&self, records: &[ConversationRecord]) -> Result<(), InsertError> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        staging::begin(&tx)?;
        for record in records {
            insert_record_tx(&tx, record)?;
        }
        staging::finish(&tx)?;
        tx.commit()?;
        Ok(())
    }
}

/// While an import writes, the history keeps more of itself in memory and its search index
/// gathers a whole batch before writing it; the page cache is as it was once this is dropped.
/// Each batch indexes tens of megabytes of text: with FTS5's default of 1 MB gathered, the
/// index was written as many small pieces and merging them was most of the import's time, and
/// the message indexes, written all over by new ids, were read back from the disk page by page.
pub struct BulkWrite<'a> {
    store: &'a super::Store,
    cache_size: i64,
}

/// What FTS5 may gather before it writes (a setting kept with the index; a statement that
/// writes less never gathers more), and the page cache while an import writes.
const BULK_HASH_BYTES: i64 = 64 * 1024 * 1024;
const BULK_CACHE_KIB: i64 = 64 * 1024;

impl super::Store {
    pub fn bulk_write(&self) -> Result<BulkWrite<'_>, StoreError> {
        let conn = self.lock();
        let cache_size: i64 = conn.query_row("PRAGMA cache_size", [], |r| r.get(0))?;
        conn.execute(
            "INSERT INTO message_search (message_search, rank) VALUES ('hashsize', ?1)",
            [BULK_HASH_BYTES],
        )?;
        conn.pragma_update(None, "cache_size", -BULK_CACHE_KIB)?;
        Ok(BulkWrite {
            store: self,
            cache_size,
        })
    }
}

impl Drop for BulkWrite<'_> {
    fn drop(&mut self) {
        let conn = self.store.lock();
        let _ = conn.pragma_update(None, "cache_size", self.cache_size);
        let _ = conn.release_memory();
    }
}

/// What merging an export into the history did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Merged {
    /// Conversations the history did not have, and their messages.
    pub new: usize,
    pub new_messages: usize,
    /// Conversations already there that had messages the history did not.
    pub updated: usize,
    pub added_messages: usize,
    /// Conversations already there whole.
    pub unchanged: usize,
}

impl super::Store {
    /// Merges another app's export into the history, all or nothing: a conversation it does
    /// not have is added whole; one it has (the same source ids make the same ids) gets only
    /// the messages it lacks, each under its parent, so a branch that grew in the source
    /// grows here as a new version. Importing the same export again adds nothing.
    pub fn merge_records(&self, records: &[ConversationRecord]) -> Result<Merged, InsertError> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        staging::begin(&tx)?;
        let mut merged = Merged::default();
        for record in records {
            let exists: bool = tx.query_row(
                "SELECT EXISTS (SELECT 1 FROM conversations WHERE id = ?1)",
                [&record.conversation.id],
                |r| r.get(0),
            )?;
            if !exists {
                insert_record_tx(&tx, record)?;
                merged.new += 1;
                merged.new_messages += record.messages.len();
                continue;
            }
            // A newer export may have put it in a project since.
            if let Some(project) = &record.conversation.project {
                tx.prepare_cached(
                    "UPDATE conversations SET project = ?2 WHERE id = ?1 AND project IS NOT ?2",
                )?
                .execute(params![record.conversation.id, project])?;
            }
            match add_missing_tx(&tx, record)? {
                0 => merged.unchanged += 1,
                added => {
                    merged.updated += 1;
                    merged.added_messages += added;
                }
            }
        }
        staging::finish(&tx)?;
        tx.commit()?;
        Ok(merged)
    }
}

/// Adds the messages of `record` that its conversation lacks; how many. A message id the
/// history has in another conversation is refused, as is one whose parent is nowhere.
fn add_missing_tx(tx: &Transaction<'_>, record: &ConversationRecord) -> Result<usize, InsertError> {
    let c = &record.conversation;
    let mut added = 0;
    // Those added here are staged, not yet in `messages`: a parent among them is known here.
    let mut staged = std::collections::HashSet::new();
    // The new messages come after those the history has, whatever place they had in the file.
    let mut next_seq: i64 = tx.query_row(
        "SELECT COALESCE(MAX(seq), -1) + 1 FROM messages WHERE conversation_id = ?1",
        [&c.id],
        |r| r.get(0),
    )?;
    for m in &record.messages {
        let home: Option<String> = tx
            .query_row(
                "SELECT conversation_id FROM messages WHERE id = ?1",
                [&m.id],
                |r| r.get(0),
            )
            .optional()?;
        match home {
            Some(home) if home == c.id => continue,
            Some(_) => {
                return Err(InsertError::MessageExists {
                    id: m.id.clone(),
                    title: c.title.clone(),
                });
            }
            None => {}
        }
        if let Some(parent) = m.parent_id.as_deref().filter(|p| !staged.contains(p)) {
            let known: bool = tx.query_row(
                "SELECT EXISTS (SELECT 1 FROM messages WHERE id = ?1 AND conversation_id = ?2)",
                params![parent, c.id],
                |r| r.get(0),
            )?;
            if !known {
                return Err(InsertError::MissingParent {
                    id: m.id.clone(),
                    parent: parent.to_owned(),
                    title: c.title.clone(),
                });
            }
        }
        staged.insert(m.id.as_str());
        let m = StoredMessage {
            seq: next_seq,
            ..m.clone()
        };
        insert_message_tx(tx, &c.id, &m, m.parent_id.as_deref())?;
        next_seq += 1;
        added += 1;
    }
    if added > 0
        && let Some(leaf) = c.leaf_id.as_deref()
    {
        // The source went on there: show where it is now.
        super::tree::set_leaf(tx, &c.id, Some(leaf))?;
    }
    Ok(added)
}

fn insert_record_tx(tx: &Transaction<'_>, record: &ConversationRecord) -> Result<(), InsertError> {
    let c = &record.conversation;
    let exists: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM conversations WHERE id = ?1)",
        [&c.id],
        |r| r.get(0),
    )?;
    if exists {
        return Err(InsertError::ConversationExists {
            id: c.id.clone(),
            title: c.title.clone(),
        });
    }
    tx.execute(
        "INSERT INTO conversations (id, title, created_at, updated_at, provider, model, settings, pinned, archived, project)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            c.id,
            c.title,
            c.created_at,
            c.updated_at,
            c.provider,
            c.model,
            serde_json::to_string(&c.settings)?,
            c.pinned,
            c.archived,
            c.project
        ],
    )?;
    // A file written before messages formed a tree names no parents: its messages are one
    // branch, each following the one before it.
    let tree = record.messages.iter().any(|m| m.parent_id.is_some());
    let mut seen = std::collections::HashSet::new();
    let mut previous: Option<&str> = None;
    for m in &record.messages {
        let parent = if tree {
            m.parent_id.as_deref()
        } else {
            previous
        };
        if let Some(parent) = parent.filter(|p| !seen.contains(p)) {
            return Err(InsertError::MissingParent {
                id: m.id.clone(),
                parent: parent.to_owned(),
                title: c.title.clone(),
            });
        }
        let exists: bool = tx.query_row(
            "SELECT EXISTS (SELECT 1 FROM messages WHERE id = ?1)",
            [&m.id],
            |r| r.get(0),
        )?;
        if exists {
            return Err(InsertError::MessageExists {
                id: m.id.clone(),
                title: c.title.clone(),
            });
        }
        insert_message_tx(tx, &c.id, m, parent)?;
        seen.insert(m.id.as_str());
        previous = Some(&m.id);
    }
    // The path the file showed, or its newest message.
    let leaf = c
        .leaf_id
        .as_deref()
        .filter(|l| seen.contains(l))
        .or_else(|| {
            record
                .messages
                .iter()
                .max_by_key(|m| m.seq)
                .map(|m| m.id.as_str())
        });
    super::tree::set_leaf(tx, &c.id, leaf)?;
    Ok(())
}

fn insert_message_tx(
    tx: &Transaction<'_>,
    conversation_id: &str,
    m: &StoredMessage,
    parent: Option<&str>,
) -> Result<(), InsertError> {
    let columns = super::parts_codec::encode(&m.message.parts)?;
    let role = m.message.role.as_str();
    let status = match m.status {
        MessageStatus::Streaming => MessageStatus::Interrupted,
        other => other,
    };
    let origin = m.message.origin.as_ref();
    let replay = m
        .message
        .replay
        .as_ref()
        .map(|r| super::replay_codec::encode(r, &m.message.parts))
        .transpose()?;
    let stop = m.stop.as_ref().map(serde_json::to_string).transpose()?;
    let thinking_ms = m
        .thinking_ms
        .map(|ms| i64::try_from(ms).unwrap_or(i64::MAX));
    tx.prepare_cached(staging::INSERT)?.execute(params![
        m.id,
        conversation_id,
        m.seq,
        role,
        status.as_str(),
        columns.text,
        columns.thoughts,
        columns.parts,
        replay,
        origin.map(|o| o.provider.as_str()),
        origin.map(|o| o.model.as_str()),
        m.choice.map(|c| c.to_string()),
        m.usage.input,
        m.usage.output,
        m.usage.reasoning,
        m.usage.cached,
        thinking_ms,
        stop,
        m.error_code,
        m.error_message,
        serde_json::to_string(&m.notes)?,
        m.created_at,
        m.updated_at,
        parent,
        m.first_token_ms
            .map(|ms| i64::try_from(ms).unwrap_or(i64::MAX))
    ])?;
    Ok(())
}

/// An import's messages are written to a table of this connection first and moved into
/// `messages` by one statement at the end of the transaction. The search index is written by a
/// trigger on `messages`, and FTS5 writes what it holds to disk at the end of every statement:
/// a statement a message made a segment of the index for each message and merging them took
/// three times as long as everything else the import does. One statement makes one segment.
mod staging {
    use rusqlite::Transaction;

    /// The columns a message is staged and moved with, in the order `INSERT` binds them.
    macro_rules! columns {
        () => {
            "id, conversation_id, seq, role, status, text, thoughts, parts, replay, provider, \
             model, choice, input_tokens, output_tokens, reasoning_tokens, cached_tokens, \
             thinking_ms, stop_reason, error_code, error_message, notes, created_at, updated_at, \
             parent_id, first_token_ms"
        };
    }
    const COLUMNS: &str = columns!();

    pub const INSERT: &str = concat!(
        "INSERT INTO temp.import_messages (",
        columns!(),
        ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, \
         ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)"
    );

    /// An empty staging table. Its ids are unique too, so two messages with one id are
    /// refused before they meet in `messages`.
    pub fn begin(tx: &Transaction<'_>) -> rusqlite::Result<()> {
        tx.execute_batch(&format!(
            "CREATE TEMP TABLE IF NOT EXISTS import_messages ({}, UNIQUE (id));
             DELETE FROM temp.import_messages;",
            COLUMNS
        ))
    }

    /// Moves what was staged into `messages`, in the order it was staged (parents first).
    pub fn finish(tx: &Transaction<'_>) -> rusqlite::Result<()> {
        tx.execute(
            &format!(
                "INSERT INTO main.messages ({COLUMNS}) SELECT {COLUMNS} FROM temp.import_messages ORDER BY rowid"
            ),
            [],
        )?;
        tx.execute("DELETE FROM temp.import_messages", [])?;
        Ok(())
    }
}
