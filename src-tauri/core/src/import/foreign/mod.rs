//! Histories from other apps: a ChatGPT data export and a Claude data export (each a
//! `conversations.json`), read into Ponder's conversations with their branches as versions,
//! their thoughts as thinking blocks, their times, titles and models.
//!
//! What is imported is marked: answers come from the provider `chatgpt` or `claude.ai`, which
//! no request ever goes to, so their thoughts are never sent back as if they were signed by a
//! model. Content Ponder has no place for is kept as text with a note, never dropped.

mod chatgpt;
mod claude;

use serde_json::Value;

use super::error::ImportError;
use crate::chat::{Message, Origin, Part, Role, Usage};
use crate::reasoning::settings::ReasoningSettings;
use crate::store::{Conversation, ConversationRecord, MessageStatus, StoredMessage};

/// Which app wrote a list of conversations, known from the shape of its first one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum App {
    ChatGpt,
    Claude,
}

impl App {
    pub(super) fn of(first: &Value) -> Result<Self, ImportError> {
        if first.get("mapping").is_some() {
            Ok(Self::ChatGpt)
        } else if first.get("chat_messages").is_some() {
            Ok(Self::Claude)
        } else {
            Err(ImportError::NotPonder(
                "it is a list, but neither a ChatGPT export (conversations with a \"mapping\") nor a Claude export (conversations with \"chat_messages\")".to_owned(),
            ))
        }
    }

    /// The conversation `item`, the list's `index`th, as Ponder keeps it, with the files it
    /// refers to that `assets` holds.
    pub(super) fn record(
        self,
        item: &Value,
        index: usize,
        assets: &mut dyn super::assets::Assets,
    ) -> Result<ConversationRecord, ImportError> {
        let path = format!("[{index}]");
        match self {
            Self::ChatGpt => chatgpt::conversation(item, &path, assets),
            Self::Claude => claude::conversation(item, &path, assets),
        }
        .map(Built::record)
    }
}

/// A Ponder id (32 hex digits) that is the same each time one source id is imported, so a
/// second import of the same file is refused as already there.
fn id_for(app: &str, conversation: &str, item: &str) -> String {
    // Two FNV-1a passes with different offsets: stable across versions, as ids must be.
    let mut out = String::with_capacity(32);
    for offset in [0xcbf2_9ce4_8422_2325_u64, 0x8422_2325_cbf2_9ce4] {
        let mut hash = offset;
        for byte in app
            .bytes()
            .chain([0])
            .chain(conversation.bytes())
            .chain([0])
            .chain(item.bytes())
        {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        out.push_str(&format!("{hash:016x}"));
    }
    out
}

/// A required text field, or an error naming its place in the file.
fn text<'a>(value: &'a Value, key: &str, path: &str) -> Result<&'a str, ImportError> {
    value
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| ImportError::Invalid(format!("{path}.{key} is missing or not text")))
}

/// One message being built: its source id, its parent's source id, and its Ponder form.
struct Draft {
    key: String,
    parent: Option<String>,
    role: Role,
    parts: Vec<Part>,
    model: Option<String>,
    created_at: i64,
    updated_at: i64,
    thinking_ms: Option<u64>,
    notes: Vec<String>,
    /// The notes already there, so that adding one is not a walk through all of them.
    noted: std::collections::HashSet<String>,
}

impl Draft {
    fn push_text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if let Some(Part::Text { text: last }) = self.parts.last_mut() {
            last.push_str("\n\n");
            last.push_str(text);
        } else {
            self.parts.push(Part::Text {
                text: text.to_owned(),
            });
        }
    }

    fn note(&mut self, note: String) {
        if self.noted.insert(note.clone()) {
            self.notes.push(note);
        }
    }
}

/// The conversation and its messages, parents before children (the order they are written).
struct Built {
    app: &'static str,
    source_id: String,
    title: String,
    created_at: i64,
    updated_at: i64,
    archived: bool,
    drafts: Vec<Draft>,
    /// The source id of the message the conversation showed last.
    leaf: Option<String>,
    /// The name of the project the source kept it in.
    project: Option<String>,
}

impl Built {
    fn record(self) -> ConversationRecord {
        let app = self.app;
        let conversation_id = id_for(app, &self.source_id, "");
        let ids: std::collections::HashMap<&str, String> = self
            .drafts
            .iter()
            .map(|d| (d.key.as_str(), id_for(app, &self.source_id, &d.key)))
            .collect();
        let messages: Vec<StoredMessage> = self
            .drafts
            .iter()
            .enumerate()
            .map(|(seq, d)| StoredMessage {
                id: ids[d.key.as_str()].clone(),
                conversation_id: conversation_id.clone(),
                seq: i64::try_from(seq).unwrap_or(i64::MAX),
                parent_id: d.parent.as_deref().and_then(|p| ids.get(p)).cloned(),
                status: MessageStatus::Complete,
                message: Message {
                    role: d.role,
                    parts: d.parts.clone(),
                    origin: (d.role == Role::Assistant).then(|| Origin {
                        provider: app.to_owned(),
                        model: d.model.clone().unwrap_or_else(|| app.to_owned()),
                    }),
                    replay: None,
                },
                choice: None,
                usage: Usage::default(),
                thinking_ms: d.thinking_ms,
                first_token_ms: None,
                stop: None,
                error_code: None,
                error_message: None,
                notes: d.notes.clone(),
                created_at: d.created_at,
                updated_at: d.updated_at,
            })
            .collect();
        let leaf_id = self.leaf.as_deref().and_then(|l| ids.get(l)).cloned();
        ConversationRecord {
            conversation: Conversation {
                id: conversation_id,
                title: if self.title.trim().is_empty() {
                    crate::store::UNTITLED.to_owned()
                } else {
                    self.title
                },
                created_at: self.created_at,
                updated_at: self.updated_at,
                provider: None,
                model: None,
                settings: ReasoningSettings::default(),
                pinned: false,
                archived: self.archived,
                leaf_id,
                project: self.project,
            },
            messages,
        }
    }
}

#[cfg(test)]
mod tests;
