//! Tools from MCP servers, through the official Rust SDK (`rmcp`).
//!
//! The rules Ponder follows with servers:
//! - A server starts when a conversation first needs its tools, stays up while Ponder runs,
//!   is started again once if it dies, and is stopped (with everything it started) on quit,
//!   and as soon as a start fails or runs out of time.
//! - A program gets a short list of Ponder's environment variables (`PATH`, `HOME`, the
//!   locale, temporary and XDG folders, the display…) and the values the user gave it: never
//!   an API key or a token from Ponder's environment.
//! - An HTTP server's headers and a call's arguments go to its own origin only: a redirect
//!   elsewhere is refused, as for providers.
//! - A server that fails says why: the error, and the last lines it wrote to stderr (each
//!   line and their number capped as they are read).
//! - Every call has a deadline; a call that fails, hangs or returns too much becomes an
//!   error result the model can read and recover from, never a failed turn.
//! - Secret environment values and headers come from the OS keyring when the server starts
//!   and are never written anywhere else.

pub mod config;
pub mod connection;
pub mod hub;

pub use config::{ConfigError, ServerConfig, Transport};
pub use connection::{CallOutput, Connection, ServerTool, StderrTail};
pub use hub::{Hub, ServerState, ServerStatus};

use std::time::Duration;

/// What went wrong with a server or a call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum McpError {
    #[error("{command:?} could not be started: {reason}")]
    Spawn { command: String, reason: String },
    #[error("the server did not complete the MCP handshake: {0}")]
    Handshake(String),
    #[error("the server answered with something that is not MCP: {0}")]
    Protocol(String),
    #[error("the server was not ready within {} s", .0.as_secs())]
    StartTimeout(Duration),
    #[error("the server stopped: {0}")]
    Closed(String),
    #[error("the tool call failed: {0}")]
    Call(String),
    #[error("the tool did not answer within {} s", .0.as_secs())]
    CallTimeout(Duration),
    #[error(
        "the server sent a message over {} MiB while the tool ran (its answer, most likely); Ponder does not read messages that large",
        .0 / (1024 * 1024)
    )]
    TooLarge(usize),
    #[error(
        "the server redirected the request to another address (HTTP {0}); Ponder sends a server's headers and a call's arguments only to the address in its settings. If the server has moved, set its new URL in Settings → Tools"
    )]
    Redirected(u16),
    #[error("{0:?} is not a valid header")]
    BadHeader(String),
    #[error("the secret {name:?} could not be read from the keyring: {reason}")]
    Secret { name: String, reason: String },
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("no server {0:?}")]
    UnknownServer(String),
    #[error("{error}\nIts last words on stderr:\n{stderr}")]
    WithStderr {
        error: Box<McpError>,
        stderr: String,
    },
}

impl McpError {
    /// The error, with what the server wrote to stderr where it wrote anything.
    pub fn with_stderr(self, lines: Vec<String>) -> Self {
        if lines.is_empty() || matches!(self, Self::WithStderr { .. }) {
            return self;
        }
        Self::WithStderr {
            error: Box::new(self),
            stderr: lines.join("\n"),
        }
    }

    /// Whether the server itself is gone (so starting it again may help).
    pub fn server_gone(&self) -> bool {
        match self {
            Self::Closed(_) => true,
            Self::WithStderr { error, .. } => error.server_gone(),
            _ => false,
        }
    }
}
