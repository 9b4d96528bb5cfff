//! Reading an exported conversation or a backup back into the history, or another app's whole
//! history. Ponder's own files are checked whole before anything is written, in one
//! transaction: a bad file changes nothing. Another app's export (any size) is read and written
//! a conversation at a time, each whole or not at all (see [`stream`]).

use std::collections::HashSet;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

mod archive;
mod assets;
mod entries;
mod error;
mod files;
mod foreign;
mod items;
mod stream;

pub use error::ImportError;
pub use stream::{Interrupted, Progress, Watch};

use crate::export::{BACKUP_FORMAT, CONVERSATION_FORMAT, FORMAT_VERSION};
use crate::store::{Conversation, ConversationRecord, Store, StoredMessage};

/// The largest Ponder file import reads: 256 MiB. Another app's export is read as a stream and
/// has no such limit, only one on each conversation in it.
pub const MAX_IMPORT_BYTES: usize = 256 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ImportReport {
    /// Conversations the history did not have, and the messages added (to those and to the
    /// conversations already there).
    pub conversations: usize,
    pub messages: usize,
    /// Of another app's export imported before: conversations that had new messages, and
    /// those already here whole.
    pub updated: usize,
    pub unchanged: usize,
}

/// A Ponder backup as read from a `.zip`: its JSON, and the attached files kept beside it (by
/// their hashes).
#[derive(Debug, Default)]
struct Export {
    pub json: Vec<u8>,
    pub files: std::collections::HashMap<String, Vec<u8>>,
}

/// Imports the file at `path`: a `.zip` (a ChatGPT or Claude data export as delivered, or
/// Ponder's own backup) known by its first bytes whatever its name, another app's
/// `conversations.json` read as a stream, or a Ponder file, refused over [`MAX_IMPORT_BYTES`]
/// before it is read.
pub fn import_file(
    store: &Store,
    path: &std::path::Path,
    watch: &mut Watch<'_>,
) -> Result<ImportReport, Interrupted> {
    use std::io::{BufRead, Read};
    let cannot = |e: std::io::Error| ImportError::Unreadable {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    let file = std::fs::File::open(path).map_err(cannot)?;
    let size = file.metadata().map_err(cannot)?.len();
    let mut reader = std::io::BufReader::with_capacity(256 * 1024, file);
    let head = reader.fill_buf().map_err(cannot)?;
    if archive::is_zip(head) {
        drop(reader);
        let open = || std::fs::File::open(path).map(std::io::BufReader::new);
        return archive::import(store, open, watch);
    }
    match first_byte(head) {
        Some(b'[') => {
            return stream::import(store, reader, size, &mut assets::NoAssets, watch);
        }
        Some(b'{') => {}
        // Not JSON at all: said before the size, which would not be the problem.
        Some(byte) if size > MAX_IMPORT_BYTES as u64 => {
            return Err(ImportError::NotJson(format!(
                "it begins with the byte 0x{byte:02x}, where a list or an object should be"
            ))
            .into());
        }
        _ => {}
    }
    if size > MAX_IMPORT_BYTES as u64 {
        return Err(ImportError::TooLarge {
            size: usize::try_from(size).unwrap_or(usize::MAX),
        }
        .into());
    }
    let mut json = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    reader
        .take(MAX_IMPORT_BYTES as u64 + 1)
        .read_to_end(&mut json)
        .map_err(cannot)?;
    import(store, &json)
}

/// Imports a `ponder-conversation` or `ponder-backup` file (all or nothing), or a ChatGPT or
/// Claude data export (`conversations.json`, a conversation at a time).
pub fn import(store: &Store, bytes: &[u8]) -> Result<ImportReport, Interrupted> {
    if is_foreign(bytes) {
        return stream::import(
            store,
            bytes,
            bytes.len() as u64,
            &mut assets::NoAssets,
            &mut Watch::default(),
        );
    }
    Ok(import_with(
        store,
        bytes,
        &std::collections::HashMap::new(),
    )?)
}

fn import_with(
    store: &Store,
    bytes: &[u8],
    beside: &std::collections::HashMap<String, Vec<u8>>,
) -> Result<ImportReport, ImportError> {
    let (records, files) = parse_with_files(bytes, beside)?;
    // The files first: a message is never in the history without its file. Should the
    // records then be refused, the files are unreferenced and collected later.
    if !files.is_empty() {
        let store_files = store
            .attachments()
            .ok_or_else(|| ImportError::Invalid("this history keeps no files".to_owned()))?;
        let refused = |e: crate::attachments::AttachmentError| ImportError::Invalid(e.to_string());
        for (name, bytes) in &files {
            crate::attachments::check(bytes, name).map_err(refused)?;
        }
        for (name, bytes) in &files {
            store_files.put(bytes, name).map_err(refused)?;
        }
    }
    // Ponder's own files are refused when any of their conversations is here: they are a
    // copy, not a later state of a source.
    store.insert_records(&records)?;
    Ok(ImportReport {
        conversations: records.len(),
        messages: records.iter().map(|r| r.messages.len()).sum(),
        updated: 0,
        unchanged: 0,
    })
}

/// Whether `bytes` (a file's start) are another app's export: a list of conversations.
fn is_foreign(bytes: &[u8]) -> bool {
    first_byte(bytes) == Some(b'[')
}

/// The first byte of a file's start that is not a byte-order mark or white space.
fn first_byte(bytes: &[u8]) -> Option<u8> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes.iter().find(|b| !b.is_ascii_whitespace()).copied()
}

/// Reads and checks an export file without touching any history. What the file says is the
/// conversation's content, never a permission: see [`as_untrusted`].
pub fn parse(bytes: &[u8]) -> Result<Vec<ConversationRecord>, ImportError> {
    if is_foreign(bytes) {
        return stream::parse(bytes);
    }
    parse_with_files(bytes, &std::collections::HashMap::new()).map(|(records, _)| records)
}

/// The records, and the attached files they refer to (the file's name for the messages, and
/// its bytes), each checked against its hash and as a file Ponder sends.
fn parse_with_files(
    bytes: &[u8],
    beside: &std::collections::HashMap<String, Vec<u8>>,
) -> Result<(Vec<ConversationRecord>, Vec<files::Carried>), ImportError> {
    let (mut records, files) = parse_records(bytes)?;
    for record in &mut records {
        as_untrusted(&mut record.conversation.settings);
    }
    let files = files::referenced(&records, files, beside)?;
    Ok((records, files))
}

/// A conversation's settings as a file may bring them: whoever wrote the file may not be the
/// user. Tools it allowed to run unasked are asked about again, and its system prompt waits
/// to be read and accepted before it is sent.
fn as_untrusted(settings: &mut crate::reasoning::settings::ReasoningSettings) {
    settings.tools.allowed.clear();
    let prompt = settings
        .system_prompt
        .take()
        .filter(|p| !p.trim().is_empty());
    if prompt.is_some() {
        settings.imported_system_prompt = prompt;
    }
}

fn parse_records(bytes: &[u8]) -> Result<(Vec<ConversationRecord>, Option<Value>), ImportError> {
    if bytes.len() > MAX_IMPORT_BYTES {
        return Err(ImportError::TooLarge { size: bytes.len() });
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ImportError::Empty);
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|e| match e.classify() {
        serde_json::error::Category::Eof => ImportError::Truncated { line: e.line() },
        _ => ImportError::NotJson(e.to_string()),
    })?;
    let Value::Object(mut top) = value else {
        return Err(ImportError::NotPonder(format!(
            "it holds {}, not an object with a \"format\"",
            kind(&value)
        )));
    };
    let format = match top.get("format") {
        Some(Value::String(s)) if s == CONVERSATION_FORMAT => CONVERSATION_FORMAT,
        Some(Value::String(s)) if s == BACKUP_FORMAT => BACKUP_FORMAT,
        Some(Value::String(s)) => {
            return Err(ImportError::NotPonder(format!(
                "its format is {s:?}; Ponder imports {CONVERSATION_FORMAT:?} and {BACKUP_FORMAT:?} files"
            )));
        }
        Some(other) => {
            return Err(ImportError::NotPonder(format!(
                "its \"format\" is {}, not {CONVERSATION_FORMAT:?} or {BACKUP_FORMAT:?}",
                kind(other)
            )));
        }
        None => {
            return Err(ImportError::NotPonder(format!(
                "it has no \"format\"; Ponder imports {CONVERSATION_FORMAT:?} and {BACKUP_FORMAT:?} files"
            )));
        }
    };
    match top.get("version") {
        Some(Value::Number(n)) if n.as_u64() == Some(FORMAT_VERSION) => {}
        Some(other) => {
            return Err(ImportError::UnsupportedVersion {
                format,
                found: other.to_string(),
            });
        }
        None => return Err(ImportError::Invalid("it has no \"version\"".to_owned())),
    }
    let source = Source {
        bytes,
        backup: format == BACKUP_FORMAT,
    };
    let files = top.remove("files");
    let records = if format == CONVERSATION_FORMAT {
        let conversation = typed(take(&mut top, "conversation", "")?, "conversation", source)?;
        let messages = messages(take(&mut top, "messages", "")?, "messages", source)?;
        vec![ConversationRecord {
            conversation,
            messages,
        }]
    } else {
        let Value::Array(items) = take(&mut top, "conversations", "")? else {
            return Err(ImportError::Invalid(
                "\"conversations\" is not a list".to_owned(),
            ));
        };
        let mut records = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            let path = format!("conversations[{i}]");
            let Value::Object(mut item) = item else {
                return Err(ImportError::Invalid(format!("{path} is not an object")));
            };
            let conversation = typed(
                take(&mut item, "conversation", &path)?,
                &format!("{path}.conversation"),
                source,
            )?;
            let messages = messages(
                take(&mut item, "messages", &path)?,
                &format!("{path}.messages"),
                source,
            )?;
            records.push(ConversationRecord {
                conversation,
                messages,
            });
        }
        records
    };
    check(&records)?;
    Ok((records, files))
}

/// The file being read, to locate a problem in it.
#[derive(Clone, Copy)]
struct Source<'a> {
    bytes: &'a [u8],
    backup: bool,
}

/// Ids present and unique, messages in their conversation, seqs unique within it.
fn check(records: &[ConversationRecord]) -> Result<(), ImportError> {
    let mut conversation_ids = HashSet::new();
    let mut message_ids = HashSet::new();
    for record in records {
        let c = &record.conversation;
        if c.id.trim().is_empty() {
            return Err(ImportError::Invalid(format!(
                "the conversation {:?} has no id",
                c.title
            )));
        }
        if !conversation_ids.insert(c.id.as_str()) {
            return Err(ImportError::Invalid(format!(
                "the conversation {} appears twice",
                c.id
            )));
        }
        let mut seqs = HashSet::new();
        for m in &record.messages {
            if m.id.trim().is_empty() {
                return Err(ImportError::Invalid(format!(
                    "a message of the conversation {:?} has no id",
                    c.title
                )));
            }
            if m.conversation_id != c.id {
                return Err(ImportError::Invalid(format!(
                    "message {} says it belongs to conversation {:?}, but it is listed under {}",
                    m.id, m.conversation_id, c.id
                )));
            }
            if !message_ids.insert(m.id.as_str()) {
                return Err(ImportError::Invalid(format!(
                    "message {} appears twice",
                    m.id
                )));
            }
            if !seqs.insert(m.seq) {
                return Err(ImportError::DuplicateSeq {
                    title: c.title.clone(),
                    seq: m.seq,
                });
            }
        }
    }
    Ok(())
}

fn take(object: &mut Map<String, Value>, key: &str, path: &str) -> Result<Value, ImportError> {
    object.remove(key).ok_or_else(|| {
        ImportError::Invalid(if path.is_empty() {
            format!("it has no {key:?}")
        } else {
            format!("{path} has no {key:?}")
        })
    })
}

fn messages(
    value: Value,
    path: &str,
    source: Source<'_>,
) -> Result<Vec<StoredMessage>, ImportError> {
    let Value::Array(items) = value else {
        return Err(ImportError::Invalid(format!(
            "{path} is {}, not a list",
            kind(&value)
        )));
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| typed(item, &format!("{path}[{i}]"), source))
        .collect()
}

/// Deserializes one part of the file; a failure names the field inside that part and, found
/// by reading the whole file again as typed data, the line and column of the problem.
fn typed<T: DeserializeOwned>(
    value: Value,
    path: &str,
    source: Source<'_>,
) -> Result<T, ImportError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let inner = e.path().to_string();
        let path = if inner == "." {
            path.to_owned()
        } else {
            format!("{path}.{inner}")
        };
        let at = location(source).map(|(line, column)| format!(" (line {line}, column {column})"));
        ImportError::Invalid(format!("{path}: {}{}", e.inner(), at.unwrap_or_default()))
    })
}

fn location(source: Source<'_>) -> Option<(usize, usize)> {
    #[derive(Deserialize)]
    struct ConversationFile {
        #[serde(rename = "conversation")]
        _conversation: Conversation,
        #[serde(rename = "messages")]
        _messages: Vec<StoredMessage>,
    }
    #[derive(Deserialize)]
    struct BackupFile {
        #[serde(rename = "conversations")]
        _conversations: Vec<ConversationRecord>,
    }
    let error = if source.backup {
        serde_json::from_slice::<BackupFile>(source.bytes).err()
    } else {
        serde_json::from_slice::<ConversationFile>(source.bytes).err()
    }?;
    Some((error.line(), error.column()))
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a true/false value",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
