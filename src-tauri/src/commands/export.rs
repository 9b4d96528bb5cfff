//! Export through the system's save dialog.

use ponder_core::export::{self, Thoughts};
use serde::{Deserialize, Serialize};
use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt;

use crate::error::{IpcError, IpcErrorCode};
use crate::state::AppState;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Format {
    Md,
    Json,
    Html,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum ThoughtsMode {
    Details,
    Section,
    Omit,
}

#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Exported {
    path: Option<String>,
}

#[tauri::command]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn export_conversation(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
    format: Format,
    thoughts: ThoughtsMode,
    tools: bool,
    every_version: Option<bool>,
) -> Result<Exported, IpcError> {
    let store = state.store()?;
    let conversation = store.conversation(&id)?;
    let options = export::TranscriptOptions {
        thoughts: match thoughts {
            ThoughtsMode::Details => Thoughts::Details,
            ThoughtsMode::Section => Thoughts::Section,
            ThoughtsMode::Omit => Thoughts::Omit,
        },
        tools,
        every_version: every_version.unwrap_or(false),
    };
    let extension = match format {
        Format::Md => "md",
        Format::Html => "html",
        Format::Json => "json",
    };
    let name = format!("{}.{extension}", file_stem(&conversation.title));
    let Some(path) = app
        .dialog()
        .file()
        .set_file_name(&name)
        .add_filter(extension.to_uppercase(), &[extension])
        .blocking_save_file()
    else {
        return Ok(Exported { path: None });
    };
    let path = path.into_path().map_err(|e| {
        IpcError::new(
            IpcErrorCode::InvalidInput,
            format!("cannot save there: {e}"),
        )
    })?;
    let cannot_write = |what: &std::path::Path, e: std::io::Error| {
        IpcError::new(
            IpcErrorCode::Storage,
            format!("cannot write {}: {e}", what.display()),
        )
    };
    // JSON keeps everything, every version and every file included; a transcript shows the
    // path the conversation shows, or every version, and can leave the tool calls out, with
    // its files in a folder beside it.
    let transcript = |kind| {
        let folder = export::files::folder_for(&path);
        let folder_name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (text, links) =
            export::transcript_with_files(&store, &id, kind, options, Some(&folder_name))?;
        if let Some(files) = store.attachments() {
            links
                .write_beside(files, &folder)
                .map_err(|e| cannot_write(&folder, e))?;
        }
        Ok::<_, IpcError>(text)
    };
    let content = match format {
        Format::Md => transcript(export::Transcript::Markdown)?,
        Format::Html => transcript(export::Transcript::Html)?,
        Format::Json => export::json_with_files(
            &conversation,
            &store.all_messages(&id)?,
            store.attachments(),
        ),
    };
    // Whole or not at all: writing over an earlier export never leaves it cut.
    ponder_core::atomic_file::write(&path, content.as_bytes())
        .map_err(|e| cannot_write(&path, e))?;
    Ok(Exported {
        path: Some(path.display().to_string()),
    })
}

fn file_stem(title: &str) -> String {
    let stem: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect::<String>()
        .trim()
        .chars()
        .take(60)
        .collect();
    if stem.is_empty() {
        "conversation".to_owned()
    } else {
        stem
    }
}
