//! Ponder's core: everything that touches a provider, a secret's use or the disk,
//! with no dependency on Tauri so that the CLI and the tests share it with the app.

pub mod about;
pub mod atomic_file;
pub mod attachments;
pub mod catalog;
pub mod chat;
pub mod compare;
pub mod draft;
pub mod export;
pub mod import;
pub mod mcp;
pub mod paths;
pub mod prices;
pub mod providers;
pub mod reasoning;
pub mod remote_image;
pub mod run;
pub mod secrets;
pub mod store;
pub mod sync;
pub mod tools;

pub use about::About;
pub use paths::{DataDirError, DataPaths};
