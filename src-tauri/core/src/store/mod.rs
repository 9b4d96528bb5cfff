//! The conversation history in SQLite: synchronous rusqlite behind a mutex, WAL, foreign
//! keys, append-only migrations. Public methods open a transaction and compose private
//! `*_tx` helpers; a dropped transaction rolls back.

mod conversations;
mod import;
mod messages;
mod migrations;
mod owner;
mod parts_codec;
mod purge;
mod replay_codec;
mod rows;
mod search;
mod tree;
mod usage;

use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::sync::Locked;
use rusqlite::Connection;

pub use conversations::{Conversation, ConversationSummary, NewConversation, UNTITLED, title_from};
pub use import::{BulkWrite, ConversationRecord, InsertError, Merged};
pub use messages::TurnRecord;
pub use migrations::{LATEST_VERSION, migrations};
pub use rows::{MessageStatus, StoredMessage};
pub use search::{SearchHit, SearchScope};
pub use usage::{ConversationTotals, UsageRow};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the history database failed: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the history database could not be upgraded: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error("cannot create the folder for the history database {path}: {source}")]
    Folder {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("no {what} with id {id}")]
    NotFound { what: &'static str, id: String },
    #[error(
        "the messages above {message} form a loop, so the conversation cannot be read in order; `ponder-cli check` finds such loops, and Ponder opens one when it shows the conversation"
    )]
    TreeLoop { message: String },
    #[error("stored data could not be read: {0}")]
    Corrupt(#[from] serde_json::Error),
    #[error(
        "the history database was written by a newer Ponder (schema version {found}; this one knows up to {known})"
    )]
    NewerSchema { found: i64, known: i64 },
    #[error("cannot keep a copy of the history before upgrading it ({path}): {source}")]
    Backup {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
    #[error("cannot mark this process's streams in the history folder {path}: {source}")]
    Owner {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// What can be done about a history file that would not open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenRemedy {
    /// The file cannot be read as a history (damaged, not a database, from a newer Ponder):
    /// move it aside and start afresh.
    MoveAside,
    /// Something outside the file is in the way (permissions, a lock, a full disk): fix
    /// that and try again.
    Retry,
}

impl StoreError {
    pub fn remedy(&self) -> OpenRemedy {
        use rusqlite::ErrorCode;
        match self {
            Self::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => match e.code {
                ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase => OpenRemedy::MoveAside,
                _ => OpenRemedy::Retry,
            },
            Self::Migration(_) | Self::NewerSchema { .. } | Self::Corrupt(_) => {
                OpenRemedy::MoveAside
            }
            _ => OpenRemedy::Retry,
        }
    }
}

pub struct Store {
    conn: Mutex<Connection>,
    owner: owner::RunOwner,
    /// The files messages refer to, beside the database (none for a history in memory).
    attachments: Option<crate::attachments::AttachmentStore>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").finish_non_exhaustive()
    }
}

/// Messages a pass through the whole history reads under one hold of its lock: what the
/// user does meanwhile (open a conversation, search) waits for one part of a pass over
/// millions of messages, never for all of it.
const PASS_ROWS: i64 = 2_000;

/// The folder of attached files, beside the database.
pub const ATTACHMENTS_DIR: &str = "attachments";

/// How long a stored file no message refers to is kept: long enough for the question it was
/// stored for to be written, by this process or another.
pub const ATTACHMENT_GRACE: std::time::Duration = std::time::Duration::from_secs(3600);

/// How long a statement waits for another process's lock on the history before it fails.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// The page size of a new history. A long answer is one row of megabytes (its thoughts), read
/// and written as a chain of pages: at 16 KB a page instead of SQLite's 4 KB it is a quarter as
/// many pages and writes, and a 50 MB stream stored through the command line takes 5–6 ms
/// less; 64 KB pages were no faster and make every small change a larger write.
const NEW_PAGE_SIZE: i64 = 16_384;

impl Store {
    /// Opens (creating if needed) the database at `path`, upgrades its schema, and marks
    /// messages left `streaming` by a crash as `interrupted`, keeping their text and thoughts.
    pub fn open(path: &Path) -> Result<Self> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Folder {
                path: dir.display().to_string(),
                source,
            })?;
        }
        let owner = owner::RunOwner::claim(path).map_err(|source| StoreError::Owner {
            path: owner::owners_dir(path).display().to_string(),
            source,
        })?;
        Self::setup(Connection::open(path)?, owner, Some(path))
    }

    pub fn open_in_memory() -> Result<Self> {
        Self::setup(
            Connection::open_in_memory()?,
            owner::RunOwner::in_memory(),
            None,
        )
    }

    fn setup(mut conn: Connection, owner: owner::RunOwner, path: Option<&Path>) -> Result<Self> {
        // Processes opening one file at once set it up one after another: switching a new
        // file to WAL and upgrading its schema are not safe to race (SQLite answers
        // "locked", or both try to create the tables).
        let _upgrading = path
            .map(owner::upgrade_lock)
            .transpose()
            .map_err(|source| StoreError::Owner {
                path: path
                    .map(owner::owners_dir)
                    .unwrap_or_default()
                    .display()
                    .to_string(),
                source,
            })?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // Only a file with nothing in it yet takes it; an existing history keeps its own.
        conn.pragma_update(None, "page_size", NEW_PAGE_SIZE)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "foreign_keys", true)?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > LATEST_VERSION {
            return Err(StoreError::NewerSchema {
                found: version,
                known: LATEST_VERSION,
            });
        }
        if let Some(path) = path
            && version > 0
            && version < LATEST_VERSION
        {
            backup_before_upgrade(&conn, path, version)?;
        }
        migrations().to_latest(&mut conn)?;
        let store = Self {
            conn: Mutex::new(conn),
            owner,
            attachments: path
                .and_then(Path::parent)
                .map(|dir| crate::attachments::AttachmentStore::at(dir.join(ATTACHMENTS_DIR))),
        };
        store.recover_interrupted()?;
        store.purge_deleted()?;
        Ok(store)
    }

    /// The files messages refer to, kept beside the database.
    pub fn attachments(&self) -> Option<&crate::attachments::AttachmentStore> {
        self.attachments.as_ref()
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent (transactions roll back).
        self.conn.locked()
    }

    /// Runs `f` in one transaction.
    fn write<T>(&self, f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T>) -> Result<T> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// Ranges of rowids of `PASS_ROWS` messages each, covering the messages as they are now:
    /// a pass through the whole history (a purge, the files still referred to) reads one
    /// range under each hold of the history's lock.
    fn pass_ranges(&self) -> Result<impl Iterator<Item = std::ops::Range<i64>> + use<>> {
        let last: i64 = self.read(|c| {
            Ok(
                c.query_row("SELECT coalesce(max(rowid), 0) FROM messages", [], |r| {
                    r.get(0)
                })?,
            )
        })?;
        Ok((0..=last / PASS_ROWS).map(|i| i * PASS_ROWS..(i + 1) * PASS_ROWS))
    }

    fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let conn = self.lock();
        f(&conn)
    }

    /// Gives the heap back what the page cache holds but nothing is using. The cache
    /// fills while the app starts (the list, the index pass) and stays full while it
    /// idles (~2 MB). The next read after this takes its pages from the system's file cache.
    pub fn release_memory(&self) -> Result<()> {
        Ok(self.lock().release_memory()?)
    }

    /// Copies what the write-ahead log holds into the history file and empties the log: what
    /// closing the last connection does, done now by a caller with other work to do beside
    /// it (after a long answer, a copy of megabytes and two syncs). The close that follows
    /// finds nothing left to copy.
    ///
    /// It never waits: another process reading or writing the history (the app, another
    /// command) leaves the log as it is, as it would at the close. Returns whether the whole
    /// log was folded in.
    pub fn checkpoint(&self) -> Result<bool> {
        self.read(|c| {
            // A truncating checkpoint waits out other readers through the busy handler; this
            // one is a courtesy and must not hold the caller for seconds.
            c.busy_timeout(std::time::Duration::ZERO)?;
            let folded = c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| {
                row.get::<_, i64>(0)
            });
            c.busy_timeout(BUSY_TIMEOUT)?;
            Ok(folded? == 0)
        })
    }

    /// `PRAGMA integrity_check`, for tests and the CLI.
    pub fn integrity_check(&self) -> Result<String> {
        self.read(|c| Ok(c.query_row("PRAGMA integrity_check", [], |r| r.get(0))?))
    }

    pub fn schema_version(&self) -> Result<i64> {
        self.read(|c| Ok(c.query_row("PRAGMA user_version", [], |r| r.get(0))?))
    }
}

/// Keeps a consistent copy of the history as it was (`ponder.sqlite3.v1.bak`) before a
/// migration changes it; an existing copy of that version is left as it is.
fn backup_before_upgrade(conn: &Connection, path: &Path, version: i64) -> Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".v{version}.bak"));
    let copy = path.with_file_name(name);
    if copy.exists() {
        return Ok(());
    }
    conn.execute("VACUUM INTO ?1", [copy.to_string_lossy()])
        .map(|_| ())
        .map_err(|source| StoreError::Backup {
            path: copy.display().to_string(),
            source,
        })
}

pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A new identifier, as 32 hex digits: a UUIDv7, so ids sort by when they were made, with
/// 74 random bits from the OS.
pub fn new_id() -> String {
    uuid::Uuid::now_v7().simple().to_string()
}

#[cfg(test)]
mod tests;
