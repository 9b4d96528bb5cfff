//! Tauri commands, one file per group. Each is thin: it reads state, calls the core, and
//! turns errors into `IpcError`s.

pub mod app;
pub mod attachments;
pub mod chat;
pub mod conversations;
pub mod copilot;
pub mod export;
pub mod import;
pub mod mcp;
pub mod models;
pub mod secrets;
pub mod settings;
