//! Tauri commands, one file per group.

pub mod app;
pub mod settings;
