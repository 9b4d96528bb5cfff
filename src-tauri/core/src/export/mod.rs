//! Exporting conversations — a readable Markdown transcript, a standalone offline HTML page,
//! lossless versioned JSON (which `crate::import` reads back).
//!
//! Markdown and HTML are for reading: they show the thoughts as the user asks ([`Thoughts`]),
//! label summaries and redacted thinking, skip empty and hidden thoughts, and note how a turn
//! ended. JSON keeps everything (signatures, provider data, replay, usage, settings, ids,
//! timestamps), so an imported conversation can be continued with the same provider.

mod branches;
pub mod files;
mod html;
mod json;
mod markdown;

use serde::{Deserialize, Serialize};

use crate::attachments::AttachmentStore;
use crate::chat::{
    Attachment, Message, Part, Role, StopReason, ThinkingBlock, ToolCall, ToolResult,
};
use crate::reasoning::choice::Choice;
use crate::reasoning::plan::thousands;
use crate::store::{
    Conversation, ConversationRecord, MessageStatus, Store, StoreError, StoredMessage,
};

pub use branches::{Branch, branches};
pub use files::FileLinks;
pub use json::{BACKUP_FORMAT, CONVERSATION_FORMAT, FORMAT_VERSION};

/// How Markdown and HTML exports show a model's thoughts.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::Display,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Thoughts {
    /// Folded under a "Thoughts (12 s)" summary the reader opens.
    #[default]
    Details,
    /// Always visible, as a quoted "Thinking" section before the answer.
    Section,
    /// Left out.
    Omit,
}

impl Thoughts {
    pub const ALL: [Thoughts; 3] = [Thoughts::Details, Thoughts::Section, Thoughts::Omit];

    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A readable Markdown transcript of the path the conversation shows.
pub fn markdown(conv: &Conversation, messages: &[StoredMessage], thoughts: Thoughts) -> String {
    markdown_branches(conv, &Branch::shown(messages.to_vec()), thoughts)
}

/// A Markdown transcript of `branches` ([`branches`]): the path shown, then each other
/// version under its label.
pub fn markdown_branches(conv: &Conversation, branches: &[Branch], thoughts: Thoughts) -> String {
    markdown::render(conv, branches, thoughts, &FileLinks::default())
}

/// One standalone HTML page: no scripts, inline CSS, everything from users and models escaped.
pub fn html(conv: &Conversation, messages: &[StoredMessage], thoughts: Thoughts) -> String {
    html_branches(conv, &Branch::shown(messages.to_vec()), thoughts)
}

/// The HTML page of `branches`: the path shown, then each other version in its own section.
pub fn html_branches(conv: &Conversation, branches: &[Branch], thoughts: Thoughts) -> String {
    html::render(conv, branches, thoughts, &FileLinks::default())
}

/// Markdown or HTML.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transcript {
    Markdown,
    Html,
}

/// What a transcript holds besides the answers.
#[derive(Debug, Clone, Copy)]
pub struct TranscriptOptions {
    pub thoughts: Thoughts,
    /// Tool calls and their results.
    pub tools: bool,
    /// Every version, after the path shown; else the path shown only.
    pub every_version: bool,
}

/// A stored conversation as a Markdown or HTML transcript.
pub fn transcript(
    store: &Store,
    conversation_id: &str,
    kind: Transcript,
    options: TranscriptOptions,
) -> Result<String, StoreError> {
    Ok(transcript_with_files(store, conversation_id, kind, options, None)?.0)
}

/// A transcript with its files: an HTML page shows images inline, and with `folder` (the
/// name of a folder beside the transcript) each file is linked to its copy there. The
/// links say which files to copy there ([`FileLinks::write_beside`]).
pub fn transcript_with_files(
    store: &Store,
    conversation_id: &str,
    kind: Transcript,
    options: TranscriptOptions,
    folder: Option<&str>,
) -> Result<(String, FileLinks), StoreError> {
    let conversation = store.conversation(conversation_id)?;
    let shown = store.messages(conversation_id)?;
    let mut parts = if options.every_version {
        branches(&store.all_messages(conversation_id)?, &shown)
    } else {
        Branch::shown(shown)
    };
    if !options.tools {
        for branch in &mut parts {
            branch.messages = without_tools(&branch.messages);
        }
        // A version that was only tool steps has nothing left to show.
        parts.retain(|b| b.label.is_none() || !b.messages.is_empty());
    }
    let attached = || {
        parts
            .iter()
            .flat_map(|b| b.messages.iter())
            .flat_map(|m| m.message.attachments())
    };
    let mut links = match folder {
        Some(folder) => FileLinks::beside(folder, attached()),
        None => FileLinks::default(),
    };
    if let (Transcript::Html, Some(files)) = (kind, store.attachments()) {
        links = links.with_images_inline(files, attached());
    }
    let text = match kind {
        Transcript::Markdown => markdown::render(&conversation, &parts, options.thoughts, &links),
        Transcript::Html => html::render(&conversation, &parts, options.thoughts, &links),
    };
    Ok((text, links))
}

/// The lossless, versioned JSON of one conversation (format `ponder-conversation`), without
/// the attached files' bytes.
pub fn json(conv: &Conversation, messages: &[StoredMessage]) -> String {
    json::conversation(conv, messages, &json::Files::new())
}

/// The same, with the files its messages refer to (those still in `files`).
pub fn json_with_files(
    conv: &Conversation,
    messages: &[StoredMessage],
    files: Option<&AttachmentStore>,
) -> String {
    json::conversation(conv, messages, &files_of(messages, files))
}

/// The attached files `messages` refer to, in base64 by their hash.
fn files_of<'m>(
    messages: impl IntoIterator<Item = &'m StoredMessage>,
    store: Option<&AttachmentStore>,
) -> json::Files {
    use base64::Engine;
    let Some(store) = store else {
        return json::Files::new();
    };
    let mut files = json::Files::new();
    for file in messages.into_iter().flat_map(|m| m.message.attachments()) {
        if files.contains_key(&file.sha256) {
            continue;
        }
        if let Ok(bytes) = store.read(&file.sha256) {
            files.insert(
                file.sha256.clone(),
                base64::engine::general_purpose::STANDARD.encode(bytes),
            );
        }
    }
    files
}

/// Every conversation, archived ones included, as one lossless JSON file (`ponder-backup`),
/// oldest first.
pub fn backup_json(store: &Store) -> Result<String, StoreError> {
    let records = backup_records(store)?;
    let files = files_of(
        records.iter().flat_map(|r| &r.messages),
        store.attachments(),
    );
    Ok(json::backup(&records, &files))
}

/// The whole history as a `.zip`: `backup.json` (the backup without its files' bytes) and
/// each attached file as itself under `files/<sha256>`, so a history of many images is not
/// made a third larger by base64. Import reads it back to the same history.
pub fn backup_zip<W: std::io::Write + std::io::Seek>(
    store: &Store,
    out: W,
) -> Result<(), BackupError> {
    use std::io::Write;
    let records = backup_records(store)?;
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let mut zip = zip::ZipWriter::new(out);
    zip.start_file("backup.json", options)?;
    zip.write_all(json::backup(&records, &json::Files::new()).as_bytes())?;
    let mut written = std::collections::HashSet::new();
    if let Some(files) = store.attachments() {
        for file in records
            .iter()
            .flat_map(|r| &r.messages)
            .flat_map(|m| m.message.attachments())
        {
            if !written.insert(file.sha256.clone()) {
                continue;
            }
            if let Ok(bytes) = files.read(&file.sha256) {
                zip.start_file(format!("files/{}", file.sha256), options)?;
                zip.write_all(&bytes)?;
            }
        }
    }
    zip.finish()?;
    Ok(())
}

/// Why a `.zip` backup could not be written.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the backup could not be written: {0}")]
    Zip(#[from] zip::result::ZipError),
    #[error("the backup could not be written: {0}")]
    Io(#[from] std::io::Error),
}

/// Every conversation with every version, oldest first.
fn backup_records(store: &Store) -> Result<Vec<ConversationRecord>, StoreError> {
    let mut records = Vec::new();
    for summary in store.list_conversations(true)? {
        // A conversation deleted while the backup runs is simply not in it.
        let record = store.conversation(&summary.id).and_then(|conversation| {
            Ok(ConversationRecord {
                // Every version: the file keeps the whole tree.
                messages: store.all_messages(&conversation.id)?,
                conversation,
            })
        });
        match record {
            Ok(record) => records.push(record),
            Err(StoreError::NotFound { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    records.sort_by(|a, b| {
        (a.conversation.created_at, &a.conversation.id)
            .cmp(&(b.conversation.created_at, &b.conversation.id))
    });
    Ok(records)
}

/// The messages with the tool calls and their results left out (Markdown and HTML, when the
/// reader wants the conversation without them): results' messages are dropped, calls are
/// taken out of the steps that made them, and a step left with nothing is dropped too.
pub fn without_tools(messages: &[StoredMessage]) -> Vec<StoredMessage> {
    messages
        .iter()
        .filter(|m| m.message.role != Role::Tool)
        .filter_map(|m| {
            let mut m = m.clone();
            let had = m.message.parts.len();
            m.message
                .parts
                .retain(|p| !matches!(p, Part::ToolCall(_) | Part::ToolResult(_)));
            let emptied =
                had > 0 && m.message.parts.is_empty() && m.message.role == Role::Assistant;
            (!emptied).then_some(m)
        })
        .collect()
}

// ---- What Markdown and HTML share -------------------------------------------------------

/// A message cut into what a transcript shows, in order.
enum Piece<'a> {
    Text(String),
    Thought(&'a ThinkingBlock),
    Tool(&'a ToolCall),
    ToolResult(&'a ToolResult),
    Attachment(&'a Attachment),
}

/// The pieces of a message to show: consecutive text joined, empty text dropped, thoughts
/// dropped when omitted, hidden, or empty (a redacted block is never empty).
fn pieces(message: &Message, thoughts: Thoughts) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut text = String::new();
    let flush = |text: &mut String, out: &mut Vec<Piece<'_>>| {
        if !text.trim().is_empty() {
            out.push(Piece::Text(std::mem::take(text)));
        }
        text.clear();
    };
    for part in &message.parts {
        match part {
            Part::Text { text: t } => text.push_str(t),
            Part::Thinking(block) => {
                if thoughts != Thoughts::Omit && shows(block) {
                    flush(&mut text, &mut out);
                    out.push(Piece::Thought(block));
                }
            }
            Part::ToolCall(call) => {
                flush(&mut text, &mut out);
                out.push(Piece::Tool(call));
            }
            Part::ToolResult(result) => {
                flush(&mut text, &mut out);
                out.push(Piece::ToolResult(result));
            }
            Part::Attachment(file) => {
                flush(&mut text, &mut out);
                out.push(Piece::Attachment(file));
            }
        }
    }
    flush(&mut text, &mut out);
    out
}

/// How an attachment is named in a transcript: its name, kind and size.
fn attachment_label(file: &Attachment) -> String {
    let kind = match file.kind {
        crate::attachments::Kind::Pdf => "PDF",
        crate::attachments::Kind::Text => "text",
        _ => "image",
    };
    let kib = file.bytes as f64 / 1024.0;
    match file.pages {
        Some(1) => format!("{} ({kind}, 1 page, {kib:.1} KiB)", file.name),
        Some(pages) => format!("{} ({kind}, {pages} pages, {kib:.1} KiB)", file.name),
        None => format!("{} ({kind}, {kib:.1} KiB)", file.name),
    }
}

fn shows(block: &ThinkingBlock) -> bool {
    !block.hidden && (block.is_redacted() || !block.text.trim().is_empty())
}

fn speaker(message: &Message) -> &'static str {
    match message.role {
        Role::User => "You",
        Role::Assistant => "Assistant",
        Role::Tool => "Tools",
    }
}

/// "claude-sonnet-4-5 (anthropic) · thinking: high" for an assistant message.
fn model_line(stored: &StoredMessage) -> Option<String> {
    if stored.message.role != Role::Assistant {
        return None;
    }
    let mut bits = Vec::new();
    if let Some(origin) = &stored.message.origin {
        bits.push(format!("{} ({})", origin.model, origin.provider));
    }
    match stored.choice {
        Some(Choice::Budget(tokens)) => bits.push(format!(
            "thinking budget: {} tokens",
            thousands(u64::from(tokens))
        )),
        Some(Choice::Off) => bits.push("thinking: off".to_owned()),
        Some(choice) => bits.push(format!("thinking: {choice}")),
        None => {}
    }
    (!bits.is_empty()).then(|| bits.join(" · "))
}

/// "Result of get_time (error · 1.2 s)".
fn tool_result_label(result: &ToolResult) -> String {
    let mut bits = Vec::new();
    if result.is_error {
        bits.push("error".to_owned());
    }
    if let Some(ms) = result.duration_ms {
        bits.push(format!("{:.1} s", ms as f64 / 1000.0));
    }
    let mut label = format!("Result of {}", result.name);
    if !bits.is_empty() {
        label.push_str(&format!(" ({})", bits.join(" · ")));
    }
    label
}

/// "Thoughts (12 s · 3,204 tokens)", "Thought summary (4 s)", "Redacted thinking".
fn thought_label(block: &ThinkingBlock, thoughts: Thoughts) -> String {
    if block.is_redacted() {
        return "Redacted thinking".to_owned();
    }
    let base = if block.source.is_some_and(|s| s.is_summary()) {
        "Thought summary"
    } else if thoughts == Thoughts::Section {
        "Thinking"
    } else {
        "Thoughts"
    };
    let mut details = Vec::new();
    if let Some(ms) = block.duration_ms {
        details.push(duration(ms));
    }
    if let Some(tokens) = block.token_estimate {
        let unit = if tokens == 1 { "token" } else { "tokens" };
        details.push(format!("{} {unit}", thousands(u64::from(tokens))));
    }
    if details.is_empty() {
        base.to_owned()
    } else {
        format!("{base} ({})", details.join(" · "))
    }
}

const REDACTED_NOTE: &str = "The provider encrypted this thinking; it cannot be shown.";

/// What a reader should know about how a turn ended.
fn notes(stored: &StoredMessage) -> Vec<(bool, String)> {
    let mut notes = Vec::new();
    match stored.status {
        MessageStatus::Complete => {}
        MessageStatus::Error => {
            let mut note = "Error".to_owned();
            if let Some(code) = &stored.error_code {
                note.push_str(&format!(" ({code})"));
            }
            if let Some(message) = &stored.error_message {
                note.push_str(&format!(": {message}"));
            }
            notes.push((true, note));
        }
        MessageStatus::Cancelled => {
            notes.push((false, "Stopped before the answer was finished.".to_owned()))
        }
        MessageStatus::Interrupted => notes.push((
            false,
            "Interrupted: Ponder closed before the answer was finished.".to_owned(),
        )),
        MessageStatus::Streaming => notes.push((
            false,
            "Still being written when this was exported.".to_owned(),
        )),
    }
    let stop = match &stored.stop {
        Some(StopReason::MaxTokens {
            while_thinking: true,
        }) => Some("The output limit was reached while the model was still thinking.".to_owned()),
        Some(StopReason::MaxTokens {
            while_thinking: false,
        }) => Some("The answer was cut off at the output limit.".to_owned()),
        Some(StopReason::Refusal) => Some("The model declined to answer.".to_owned()),
        Some(StopReason::ContentFilter) => {
            Some("The provider's content filter stopped the answer.".to_owned())
        }
        Some(StopReason::Other { reason }) => {
            Some(format!("The provider stopped the answer ({reason})."))
        }
        Some(StopReason::End | StopReason::ToolUse | StopReason::Cancelled) | None => None,
    };
    notes.extend(stop.map(|s| (false, s)));
    notes
}

fn title(conv: &Conversation) -> String {
    let title = conv.title.split_whitespace().collect::<Vec<_>>().join(" ");
    if title.is_empty() {
        "Untitled conversation".to_owned()
    } else {
        title
    }
}

/// "Started 2025-01-02 03:04 UTC · 6 messages", and " · 2 other versions" when they are in.
fn header(conv: &Conversation, branches: &[Branch]) -> String {
    let count = branches.first().map_or(0, |b| b.messages.len());
    let unit = if count == 1 { "message" } else { "messages" };
    let mut line = format!("Started {} · {count} {unit}", utc(conv.created_at));
    match branches.len() {
        0 | 1 => {}
        2 => line.push_str(" · 1 other version"),
        n => line.push_str(&format!(" · {} other versions", n - 1)),
    }
    line
}

fn duration(ms: u64) -> String {
    if ms < 1000 {
        return "under 1 s".to_owned();
    }
    let s = (ms + 500) / 1000;
    match s {
        0..60 => format!("{s} s"),
        60..3600 if s.is_multiple_of(60) => format!("{} min", s / 60),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

/// Milliseconds since the epoch as "2025-01-02 03:04 UTC".
fn utc(ms: i64) -> String {
    let Ok(at) = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000) else {
        return format!("{ms} ms after 1970");
    };
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02} UTC",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute()
    )
}

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod tests;
