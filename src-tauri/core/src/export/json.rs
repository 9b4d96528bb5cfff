//! The lossless JSON formats. Both are versioned and deterministic: the same history gives
//! the same bytes (no export time inside), so export → import → export is byte-identical.
//!
//! ```text
//! {"format": "ponder-conversation", "version": 1, "exportedBy": "Ponder 0.1.0",
//!  "conversation": Conversation, "messages": [StoredMessage, …], "files": {sha256: base64}}
//! {"format": "ponder-backup", "version": 1, "exportedBy": "Ponder 0.1.0",
//!  "conversations": [{"conversation": Conversation, "messages": [StoredMessage, …]}, …],
//!  "files": {sha256: base64}}
//! ```
//!
//! `files` holds the attached files the messages refer to, by their hash; it is left out when
//! there are none, so files without attachments are as they always were.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::about::{APP_NAME, VERSION};
use crate::store::{Conversation, ConversationRecord, StoredMessage};

pub const CONVERSATION_FORMAT: &str = "ponder-conversation";
pub const BACKUP_FORMAT: &str = "ponder-backup";
/// The version these functions write, and the only one import reads so far.
pub const FORMAT_VERSION: u64 = 1;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ConversationFile<'a> {
    format: &'static str,
    version: u64,
    exported_by: String,
    conversation: &'a Conversation,
    messages: &'a [StoredMessage],
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    files: &'a Files,
}

/// Attached files by their hash, in base64.
pub(super) type Files = BTreeMap<String, String>;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BackupFile<'a> {
    format: &'static str,
    version: u64,
    exported_by: String,
    conversations: &'a [ConversationRecord],
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    files: &'a Files,
}

fn exported_by() -> String {
    format!("{APP_NAME} {VERSION}")
}

pub(super) fn conversation(
    conversation: &Conversation,
    messages: &[StoredMessage],
    files: &Files,
) -> String {
    pretty(&ConversationFile {
        format: CONVERSATION_FORMAT,
        version: FORMAT_VERSION,
        exported_by: exported_by(),
        conversation,
        messages,
        files,
    })
}

pub(super) fn backup(conversations: &[ConversationRecord], files: &Files) -> String {
    pretty(&BackupFile {
        format: BACKUP_FORMAT,
        version: FORMAT_VERSION,
        exported_by: exported_by(),
        conversations,
        files,
    })
}

fn pretty(value: &impl Serialize) -> String {
    // These types hold only strings, numbers, maps with string keys and JSON values, which
    // always serialize.
    let mut text =
        serde_json::to_string_pretty(value).unwrap_or_else(|e| unreachable!("export JSON: {e}"));
    text.push('\n');
    text
}
