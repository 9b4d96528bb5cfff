//! What can be wrong with a file to import, in words the user can act on.

use crate::export::FORMAT_VERSION;
use crate::store::{InsertError, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("the file is {size} bytes ({mib:.1} MiB); Ponder reads its own exports and backups of at most 256 MiB (a ChatGPT or Claude export may be any size)", mib = *.size as f64 / 1_048_576.0)]
    TooLarge { size: usize },
    #[error(
        "conversation [{index}] is over {max_mib} MiB, more than any real conversation; the file is damaged or not an export"
    )]
    ItemTooLarge { index: usize, max_mib: usize },
    #[error("the import was cancelled")]
    Cancelled,
    #[error("cannot read {path}: {reason}")]
    Unreadable { path: String, reason: String },
    #[error("the file is empty")]
    Empty,
    #[error("the .zip is damaged or cut short: {0}")]
    Archive(String),
    #[error("the .zip holds no conversations.json, so it is not a ChatGPT or Claude data export")]
    NoConversations,
    #[error(
        "{name} would grow {ratio} times as it is unpacked, which no real export does; nothing was read"
    )]
    Bomb { name: String, ratio: u64 },
    #[error(
        "the file is cut short (it ends inside the JSON, at line {line}); it was not saved completely"
    )]
    Truncated { line: usize },
    #[error("the file is not JSON, so neither a Ponder export nor a ChatGPT or Claude one: {0}")]
    NotJson(String),
    #[error("not a Ponder export: {0}")]
    NotPonder(String),
    #[error(
        "this file is version {found} of the {format:?} format, which this version of Ponder cannot read; it reads version {FORMAT_VERSION}"
    )]
    UnsupportedVersion { format: &'static str, found: String },
    #[error("the file is damaged: {0}")]
    Invalid(String),
    #[error("two messages of the conversation {title:?} have the same seq {seq}")]
    DuplicateSeq { title: String, seq: i64 },
    #[error("the conversation {title:?} is already in your history; nothing was imported")]
    ConversationExists { id: String, title: String },
    #[error(
        "a message of the conversation {title:?} ({id}) is already in your history; nothing was imported"
    )]
    MessageExists { id: String, title: String },
    #[error("the file is damaged: {0}")]
    BrokenTree(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<InsertError> for ImportError {
    fn from(e: InsertError) -> Self {
        match e {
            InsertError::ConversationExists { id, title } => Self::ConversationExists { id, title },
            InsertError::MessageExists { id, title } => Self::MessageExists { id, title },
            e @ InsertError::MissingParent { .. } => Self::BrokenTree(e.to_string()),
            InsertError::Store(e) => Self::Store(e),
        }
    }
}
