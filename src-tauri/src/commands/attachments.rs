//! Giving a model files from the window. The files are chosen in the system's own file dialog,
//! which this process opens: the page never names a path, so a script in it cannot read a file
//! the user did not choose. Each file is stored by its content at once and the window gets
//! what its chip shows; a question then refers to the files by their hashes.

use ponder_core::attachments::Kind;
use serde::Serialize;
use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt;

use crate::error::{IpcError, IpcErrorCode};
use crate::ipc::FileRef;
use crate::state::AppState;

/// A stored file, as its chip shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AttachedFile {
    pub sha256: String,
    pub kind: Kind,
    pub name: String,
    #[cfg_attr(test, ts(type = "number"))]
    pub bytes: u64,
    /// A PDF's page count, where it could be read.
    pub pages: Option<u32>,
}

/// What picking files gave: those stored, and a line for each that could not be.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Picked {
    pub files: Vec<AttachedFile>,
    pub refused: Vec<String>,
}

/// Opens the file dialog and stores the files chosen (none when it is cancelled).
#[tauri::command]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn pick_attachments(
    app: AppHandle,
    state: State<'_, AppState>,
) -> Result<Picked, IpcError> {
    let store = state.store()?;
    let files = store
        .attachments()
        .ok_or_else(|| IpcError::new(IpcErrorCode::Storage, "This history keeps no files."))?
        .clone();
    let chosen = app
        .dialog()
        .file()
        .add_filter(
            "Images, PDFs and text",
            &[
                "png", "jpg", "jpeg", "gif", "webp", "pdf", "txt", "md", "csv", "json",
            ],
        )
        .blocking_pick_files()
        .unwrap_or_default();
    let mut picked = Picked {
        files: Vec::new(),
        refused: Vec::new(),
    };
    for path in chosen {
        let Ok(path) = path.into_path() else {
            picked
                .refused
                .push("A chosen file is not on this computer.".to_owned());
            continue;
        };
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        // Reading and hashing a large file is kept off the runtime's threads.
        let store_files = files.clone();
        let stored = tauri::async_runtime::spawn_blocking({
            let name = name.clone();
            move || store_files.put_file(&path, &name)
        })
        .await
        .map_err(|e| IpcError::new(IpcErrorCode::Internal, e.to_string()))?;
        match stored {
            Ok(stored) => picked.files.push(AttachedFile {
                sha256: stored.sha256,
                kind: stored.kind,
                name,
                bytes: stored.bytes,
                pages: stored.pages,
            }),
            Err(e) => picked.refused.push(format!("{e}.")),
        }
    }
    Ok(picked)
}

/// The files a question refers to, as stored: a hash the store does not have, or whose file
/// is not one Ponder sends, is refused (the page only names hashes it was given). Reading and
/// hashing them is kept off the runtime's threads.
pub async fn resolve(
    state: &AppState,
    refs: Vec<FileRef>,
) -> Result<Vec<ponder_core::chat::Attachment>, IpcError> {
    if refs.is_empty() {
        return Ok(Vec::new());
    }
    let store = state.store()?;
    let files = store
        .attachments()
        .ok_or_else(|| IpcError::new(IpcErrorCode::Storage, "This history keeps no files."))?
        .clone();
    tauri::async_runtime::spawn_blocking(move || {
        refs.iter()
            .map(|r| {
                files
                    .stored(&r.sha256, &r.name)
                    .map(|stored| stored.attachment(&r.name))
                    .map_err(|e| IpcError::new(IpcErrorCode::InvalidInput, format!("{e}.")))
            })
            .collect()
    })
    .await
    .map_err(|e| IpcError::new(IpcErrorCode::Internal, e.to_string()))?
}
