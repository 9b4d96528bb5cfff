//! A message as the window shows it: its parts, thoughts cut to what the view needs, its
//! figures and how it ended. Signatures, provider data and replays stay in the core.

use serde::Serialize;

use ponder_core::attachments::Kind;
use ponder_core::chat::{Part, StopReason, ThoughtSource, ToolContent, Usage};
use ponder_core::prices::Prices;
use ponder_core::reasoning::Choice;
use ponder_core::run::Outcome;
use ponder_core::store::{MessageStatus, StoredMessage};

use crate::error::IpcError;

/// A part of a message as the UI shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum PartView {
    Text {
        text: String,
    },
    Thinking {
        text: String,
        source: Option<ThoughtSource>,
        /// A summary written by another model (OpenAI, Gemini, Claude 4), labelled as such.
        summary: bool,
        /// Encrypted thoughts with no readable text.
        redacted: bool,
        hidden: bool,
        #[cfg_attr(test, ts(type = "number | null"))]
        duration_ms: Option<u64>,
        token_estimate: Option<u32>,
        /// `text` is only the start of a long thought (enough for the folded preview); the
        /// `thought_text` command gives the whole when the pane opens. A long thread then
        /// opens without carrying every thought across.
        partial: bool,
    },
    ToolCall {
        id: String,
        name: String,
        arguments: String,
    },
    /// What a tool returned (text, or images it made), or why it returned nothing.
    ToolResult {
        call_id: String,
        name: String,
        content: Vec<ToolContent>,
        is_error: bool,
        #[cfg_attr(test, ts(type = "number | null"))]
        duration_ms: Option<u64>,
    },
    /// A file given with the user's words: what the chip shows (the bytes stay in the store).
    Attachment {
        sha256: String,
        kind: Kind,
        name: String,
        #[cfg_attr(test, ts(type = "number"))]
        bytes: u64,
        /// A PDF's page count, where it could be read.
        pages: Option<u32>,
    },
}

impl From<&Part> for PartView {
    fn from(part: &Part) -> Self {
        Self::of(part, false, Thoughts::Whole)
    }
}

/// How much of each thought a view carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thoughts {
    Whole,
    /// Long thoughts cut to their start (`PartView::Thinking::partial`).
    Previewed,
}

/// The start of a long thought a view carries: the folded pane's eight preview lines and
/// more, about one screen.
pub const THOUGHT_PREVIEW_BYTES: usize = 1_500;

/// The start of `text`, cut at a line end (or a character boundary) near `max` bytes.
fn thought_start(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let start = &text[..end];
    match start.rfind('\n') {
        Some(line) if line > max / 2 => &start[..line],
        _ => start,
    }
}

impl PartView {
    /// `summarized`: the model that wrote it returns summaries in its thinking blocks (Claude
    /// 4 and later), which the source field alone does not say.
    pub fn of(part: &Part, summarized: bool, thoughts: Thoughts) -> Self {
        match part {
            Part::Thinking(block) => {
                let partial =
                    thoughts == Thoughts::Previewed && block.text.len() > THOUGHT_PREVIEW_BYTES;
                let text = if partial {
                    thought_start(&block.text, THOUGHT_PREVIEW_BYTES)
                } else {
                    &block.text
                };
                Self::Thinking {
                    text: text.to_owned(),
                    source: block.source,
                    summary: summarized || block.source.is_some_and(ThoughtSource::is_summary),
                    redacted: block.is_redacted(),
                    hidden: block.hidden,
                    duration_ms: block.duration_ms,
                    // The window's own estimate (four characters a token) of the whole, which
                    // it no longer has.
                    token_estimate: block.token_estimate.or_else(|| {
                        partial.then(|| {
                            u32::try_from(block.text.chars().count().div_ceil(4))
                                .unwrap_or(u32::MAX)
                        })
                    }),
                    partial,
                }
            }
            Part::Text { text } => Self::Text { text: text.clone() },
            Part::ToolCall(call) => Self::ToolCall {
                id: call.id.clone(),
                name: call.name.clone(),
                arguments: call.arguments.clone(),
            },
            Part::ToolResult(result) => Self::ToolResult {
                call_id: result.call_id.clone(),
                name: result.name.clone(),
                content: result.content.clone(),
                is_error: result.is_error,
                duration_ms: result.duration_ms,
            },
            Part::Attachment(file) => Self::Attachment {
                sha256: file.sha256.clone(),
                kind: file.kind,
                name: file.name.clone(),
                bytes: file.bytes,
                pages: file.pages,
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MessageView {
    pub id: String,
    #[cfg_attr(test, ts(type = r#""user" | "assistant" | "tool""#))]
    pub role: &'static str,
    pub status: MessageStatus,
    pub parts: Vec<PartView>,
    pub provider: Option<String>,
    pub model: Option<String>,
    pub choice: Option<Choice>,
    pub usage: Usage,
    #[cfg_attr(test, ts(type = "number | null"))]
    pub thinking_ms: Option<u64>,
    pub stop: Option<StopReason>,
    pub error: Option<IpcError>,
    /// What Ponder told the user about the turn when it was sent: how the level was read,
    /// warnings, how the history went (a quiet line under the answer).
    pub notes: Vec<String>,
    #[cfg_attr(test, ts(type = "number"))]
    pub created_at: i64,
    /// The ids of every version of this message (its siblings and itself, oldest first);
    /// empty when there is only this one.
    pub versions: Vec<String>,
    /// US dollars, where the model's prices are listed.
    pub cost: Option<f64>,
}

impl MessageView {
    /// A stored message as the window shows it, with what it cost at `prices`; long
    /// thoughts carry only their start.
    pub fn new(m: &StoredMessage, prices: &Prices) -> Self {
        Self::with(m, prices, Thoughts::Previewed)
    }

    /// Messages of a shown path, each naming its versions (from the conversation's `versions`).
    pub fn with_versions(
        messages: &[StoredMessage],
        versions: &std::collections::HashMap<String, Vec<String>>,
        prices: &Prices,
    ) -> Vec<Self> {
        messages
            .iter()
            .map(|m| Self {
                versions: versions.get(&m.id).cloned().unwrap_or_default(),
                ..Self::new(m, prices)
            })
            .collect()
    }

    /// As `new`, with every thought whole (the compare view shows them side by side).
    pub fn whole(m: &StoredMessage, prices: &Prices) -> Self {
        Self::with(m, prices, Thoughts::Whole)
    }

    fn with(m: &StoredMessage, prices: &Prices, thoughts: Thoughts) -> Self {
        let summarized = summarizes(m.message.origin.as_ref());
        Self {
            id: m.id.clone(),
            role: m.message.role.as_str(),
            status: m.status,
            parts: m
                .message
                .parts
                .iter()
                .map(|p| PartView::of(p, summarized, thoughts))
                .collect(),
            provider: m.message.origin.as_ref().map(|o| o.provider.clone()),
            model: m.message.origin.as_ref().map(|o| o.model.clone()),
            choice: m.choice,
            usage: m.usage,
            thinking_ms: m.thinking_ms,
            stop: m.stop.clone(),
            error: m
                .error_code
                .as_ref()
                .map(|code| IpcError::provider(code, m.error_message.clone().unwrap_or_default())),
            notes: m.notes.clone(),
            created_at: m.created_at,
            versions: Vec::new(),
            cost: prices.message_cost(m),
        }
    }
}

/// Whether the model behind an answer returns summarized thinking (its rule says so).
pub(super) fn summarizes(origin: Option<&ponder_core::chat::Origin>) -> bool {
    origin
        .and_then(|o| {
            ponder_core::catalog::Catalog::builtin()
                .resolve(Some(&o.provider), &o.model)
                .ok()
        })
        .is_some_and(|model| model.shows == ponder_core::catalog::Shows::Summary)
}

impl MessageView {
    /// An answer that ran but could not be written, from what is in memory.
    pub fn unsaved(id: &str, outcome: &Outcome, choice: Choice, notes: Vec<String>) -> Self {
        let turn = outcome.turn();
        let status = match outcome {
            Outcome::Done(_) => MessageStatus::Complete,
            Outcome::Failed(_) => MessageStatus::Error,
            Outcome::Cancelled(_) => MessageStatus::Cancelled,
        };
        let thinking_ms: u64 = turn.message.thinking().filter_map(|b| b.duration_ms).sum();
        Self {
            id: id.to_owned(),
            role: "assistant",
            status,
            parts: turn
                .message
                .parts
                .iter()
                .map(|p| {
                    // Not stored, so nothing to fetch the rest of a thought from later.
                    PartView::of(p, summarizes(turn.message.origin.as_ref()), Thoughts::Whole)
                })
                .collect(),
            provider: turn.message.origin.as_ref().map(|o| o.provider.clone()),
            model: turn.message.origin.as_ref().map(|o| o.model.clone()),
            choice: Some(choice),
            usage: turn.usage,
            thinking_ms: (thinking_ms > 0).then_some(thinking_ms),
            stop: turn.stop.clone(),
            error: turn.error.as_ref().map(IpcError::from),
            notes,
            created_at: crate::commands::settings::now_ms(),
            versions: Vec::new(),
            cost: None,
        }
    }
}
