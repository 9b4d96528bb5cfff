//! What a recorded turn runs with, what its caller hears while it runs, and how it can fail
//! to be kept.

use super::{Outcome, RunEvent};
use crate::chat::{ToolCall, ToolResult};
use crate::providers::http::HttpConfig;

/// What every turn runs with: the HTTP client and its settings, and the history.
#[derive(Debug, Clone, Copy)]
pub struct Runner<'a> {
    pub client: &'a reqwest::Client,
    pub http: &'a HttpConfig,
    pub store: &'a crate::store::Store,
}

/// How a recorded turn keeps its thoughts and how often it saves.
#[derive(Debug, Clone, Copy)]
pub struct RecordOptions {
    /// False: thoughts are shown while they stream but never written to disk.
    pub keep_thoughts: bool,
    /// The longest a streamed piece waits before it is on disk.
    pub flush_every: std::time::Duration,
    /// Model steps in one turn with tools before the loop is stopped.
    pub max_steps: usize,
}

impl Default for RecordOptions {
    fn default() -> Self {
        Self {
            keep_thoughts: true,
            flush_every: std::time::Duration::from_millis(500),
            max_steps: crate::tools::LIMITS.max_steps,
        }
    }
}

/// What the caller of a recorded turn hears.
#[derive(Debug, Clone)]
pub enum RecordedEvent<'a> {
    /// The question and the assistant's row are stored; their ids.
    Started {
        user_message_id: &'a str,
        message_id: &'a str,
    },
    /// Anything `run_turn` says, except the terminal stop or error.
    Run(RunEvent<'a>),
    /// A step of a tool loop is on disk; the tools it called run next.
    StepFinished { message_id: &'a str },
    /// A call is about to run (it may wait for the user's approval first).
    ToolStarted {
        call: &'a ToolCall,
        server: Option<&'a str>,
    },
    /// A call's result (or why it has none).
    ToolFinished { result: &'a ToolResult },
    /// The results are stored as their own message, and the next step starts in a new row.
    NextStep {
        tool_message_id: &'a str,
        message_id: &'a str,
    },
    /// The one terminal event, sent only once the outcome is on disk.
    Finished {
        message_id: &'a str,
        outcome: &'a Outcome,
    },
}

/// Why a recorded turn could not be kept.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The turn could not start (the question or the answer's row could not be written).
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// The turn ran, but its outcome could not be written even after retries; the answer
    /// is here, in memory, for the caller to show.
    #[error("the answer could not be saved: {source}")]
    Unsaved {
        message_id: String,
        outcome: Box<Outcome>,
        #[source]
        source: crate::store::StoreError,
    },
}
