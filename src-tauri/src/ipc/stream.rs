//! What the user sends, and everything a running turn tells the window, in order.

use serde::{Deserialize, Serialize};

use ponder_core::chat::{ThoughtSource, Usage};
use ponder_core::reasoning::{Choice, Meaning};

use super::{MessageView, PartView};
use crate::error::IpcError;

/// Everything a running turn tells the UI, in order. Exactly one of `done`, `error` or
/// `cancelled` ends it, sent after the history has it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum StreamEvent {
    Started {
        run_id: String,
        /// The stored question, which the UI shows under a local id until now.
        user_message_id: String,
        message_id: String,
    },
    Plan {
        feedback: String,
        warnings: Vec<String>,
        meaning: Meaning,
        /// The turn's note line: how the level was read, warnings and notes.
        notes: Vec<String>,
    },
    Notice {
        text: String,
    },
    Retry {
        attempt: u32,
        #[cfg_attr(test, ts(type = "number"))]
        wait_ms: u64,
        message: String,
    },
    ThinkingStart {
        source: ThoughtSource,
    },
    ThinkingDelta {
        text: String,
        /// When the first of these words reached Ponder, in ms since the Unix epoch: what
        /// the time from a token's arrival to its paint is counted from.
        at: f64,
    },
    ThinkingEnd,
    ThinkingRedacted,
    TextDelta {
        text: String,
        /// As for `ThinkingDelta`.
        at: f64,
    },
    ToolCall {
        name: String,
    },
    Usage {
        usage: Usage,
    },
    /// A step of a tool loop is stored; its calls run next.
    StepFinished {
        message_id: String,
    },
    /// A call starts (it may first wait for the user's approval).
    ToolStarted {
        call_id: String,
        name: String,
        server: Option<String>,
        arguments: String,
    },
    ToolFinished {
        result: PartView,
    },
    /// A call waits for the user: the approval card (answered with `answer_tool_call`).
    ApprovalNeeded {
        call_id: String,
        server: String,
        tool: String,
        /// The arguments, pretty-printed JSON.
        arguments: String,
    },
    /// The results are stored as their own message; the next step streams into `message_id`.
    NextStep {
        tool_message_id: String,
        message_id: String,
    },
    Done {
        message: MessageView,
    },
    Error {
        error: IpcError,
        message: Option<MessageView>,
    },
    Cancelled {
        message: MessageView,
    },
}

/// What the user sends.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SendRequest {
    pub conversation_id: Option<String>,
    pub text: String,
    pub provider: String,
    pub model: String,
    /// The conversation's choice; saved on it.
    pub choice: Choice,
    /// A choice for this message only (the one-message override); not saved.
    #[serde(default)]
    pub once: Option<Choice>,
    /// Files given with the question, stored already (`pick_attachments`).
    #[serde(default)]
    pub files: Vec<FileRef>,
    /// The user agreed that a PDF goes as its text to a model that reads no PDFs.
    #[serde(default)]
    pub pdf_as_text: bool,
}

/// A file given with a question: which stored file, and the name it goes by.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct FileRef {
    pub sha256: String,
    pub name: String,
}

/// Another answer to a stored question with another model and level ("Rerun with…"), to
/// compare: another version beside the others. The conversation keeps its own model and level.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RerunRequest {
    /// The answer (or question) to answer again.
    pub message_id: String,
    pub provider: String,
    pub model: String,
    pub choice: Choice,
    pub shows: RerunShows,
}

/// Which answer the conversation shows once the rerun has started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum RerunShows {
    /// The new one.
    New,
    /// The one shown now; the new one is kept beside it (the question asked at several
    /// levels at once).
    Current,
}
