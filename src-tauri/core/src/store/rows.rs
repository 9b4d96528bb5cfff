//! A message as stored, and reading one back from its row: the columns every query selects
//! and the decoding of the parts, replay and notes they hold.

use rusqlite::Row;
use serde::{Deserialize, Serialize};

use super::Result;
use crate::chat::{Message, Origin, Role, StopReason, Usage};
use crate::reasoning::choice::Choice;

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[strum(serialize_all = "lowercase")]
pub enum MessageStatus {
    Streaming,
    Complete,
    Cancelled,
    Error,
    Interrupted,
}

impl MessageStatus {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// A status an older or newer Ponder wrote that this one does not know reads as
    /// interrupted: the answer is kept, and nothing claims it finished.
    fn parse(text: &str) -> Self {
        text.parse().unwrap_or(Self::Interrupted)
    }
}

/// A message as stored, with what the turn cost and how it ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredMessage {
    pub id: String,
    pub conversation_id: String,
    pub seq: i64,
    /// The message this one answers or follows; none for the first message of a
    /// conversation (or of a file written before messages formed a tree).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<String>,
    pub status: MessageStatus,
    pub message: Message,
    /// The thinking choice used for this turn.
    pub choice: Option<Choice>,
    pub usage: Usage,
    pub thinking_ms: Option<u64>,
    /// From the request to the first thought, text or call that came back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_token_ms: Option<u64>,
    pub stop: Option<StopReason>,
    pub error_code: Option<String>,
    pub error_message: Option<String>,
    /// What Ponder told the user about the turn when it was sent (assistant messages).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

pub(super) const COLUMNS: &str = "id, conversation_id, seq, parent_id, role, status, parts, text, thoughts, replay, provider, model, choice, input_tokens, \
     output_tokens, reasoning_tokens, cached_tokens, thinking_ms, first_token_ms, stop_reason, error_code, error_message, notes, created_at, updated_at";

pub(super) struct Raw {
    stored: StoredMessage,
    parts: String,
    text: String,
    thoughts: String,
    replay: Option<String>,
    stop: Option<String>,
    notes: String,
}

pub(super) fn from_row(row: &Row<'_>) -> rusqlite::Result<Raw> {
    let role = row
        .get::<_, String>("role")?
        .parse()
        .unwrap_or(Role::Assistant);
    let provider: Option<String> = row.get("provider")?;
    let model: Option<String> = row.get("model")?;
    let origin = match (provider, model) {
        (Some(provider), Some(model)) if role == Role::Assistant => {
            Some(Origin { provider, model })
        }
        _ => None,
    };
    let choice: Option<String> = row.get("choice")?;
    let number = |name: &str| -> rusqlite::Result<Option<u32>> {
        Ok(row
            .get::<_, Option<i64>>(name)?
            .and_then(|n| u32::try_from(n).ok()))
    };
    Ok(Raw {
        stored: StoredMessage {
            id: row.get("id")?,
            conversation_id: row.get("conversation_id")?,
            seq: row.get("seq")?,
            parent_id: row.get("parent_id")?,
            status: MessageStatus::parse(&row.get::<_, String>("status")?),
            message: Message {
                role,
                parts: Vec::new(),
                origin,
                replay: None,
            },
            choice: choice.and_then(|c| c.parse().ok()),
            usage: Usage {
                input: number("input_tokens")?,
                output: number("output_tokens")?,
                reasoning: number("reasoning_tokens")?,
                cached: number("cached_tokens")?,
            },
            thinking_ms: row
                .get::<_, Option<i64>>("thinking_ms")?
                .and_then(|n| u64::try_from(n).ok()),
            first_token_ms: row
                .get::<_, Option<i64>>("first_token_ms")?
                .and_then(|n| u64::try_from(n).ok()),
            stop: None,
            error_code: row.get("error_code")?,
            error_message: row.get("error_message")?,
            notes: Vec::new(),
            created_at: row.get("created_at")?,
            updated_at: row.get("updated_at")?,
        },
        parts: row.get("parts")?,
        text: row.get("text")?,
        thoughts: row.get("thoughts")?,
        replay: row.get("replay")?,
        stop: row.get("stop_reason")?,
        notes: row.get("notes")?,
    })
}

pub(super) fn decode(raw: Raw) -> Result<StoredMessage> {
    let mut stored = raw.stored;
    stored.message.parts = super::parts_codec::decode(&raw.parts, &raw.text, &raw.thoughts)?;
    stored.message.replay = match raw.replay.as_deref() {
        Some(json) => super::replay_codec::decode(json, &stored.message.parts)?,
        None => None,
    };
    stored.stop = raw.stop.as_deref().map(serde_json::from_str).transpose()?;
    // Notes are a courtesy: lines that do not read are not worth losing the message over.
    stored.notes = serde_json::from_str(&raw.notes).unwrap_or_default();
    Ok(stored)
}
