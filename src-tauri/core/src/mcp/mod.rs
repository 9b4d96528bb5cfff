//! Tools from MCP servers, through the official Rust SDK (`rmcp`).
//!
//! The rules Ponder follows with servers:
//! - A server starts when a conversation first needs its tools, stays up while Ponder runs,
//!   is started again once if it dies, and is stopped (with everything it started) on quit.
//! - A server that fails says why: the error, and the last lines it wrote to stderr.
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
