//! Importing a history through the system's open dialog: the import runs off the async
//! runtime, tells its progress over a channel, and can be cancelled between two conversations.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ponder_core::import::{ImportError, Progress, Watch};
use ponder_core::sync::Locked;
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt;

use crate::error::{IpcError, IpcErrorCode};
use crate::state::AppState;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Imported {
    conversations: usize,
    messages: usize,
    /// Of an export imported before: conversations with new messages, and those unchanged.
    updated: usize,
    unchanged: usize,
    /// Stopped by the user: what is above was imported and stays.
    cancelled: bool,
}

/// How far the import has come: bytes of the conversations file and conversations read.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ImportProgress {
    #[cfg_attr(test, ts(type = "number"))]
    read: u64,
    #[cfg_attr(test, ts(type = "number"))]
    total: u64,
    conversations: usize,
}

/// Asks for a file and imports it, telling `on_event` how it goes. `None` when no file
/// was chosen.
#[tauri::command]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn import_file(
    app: AppHandle,
    state: State<'_, AppState>,
    on_event: Channel<ImportProgress>,
) -> Result<Option<Imported>, IpcError> {
    let Some(path) = app
        .dialog()
        .file()
        .set_title("Import conversations")
        .add_filter("Ponder, ChatGPT or Claude export", &["zip", "json"])
        .blocking_pick_file()
    else {
        return Ok(None);
    };
    let path = path.into_path().map_err(|e| {
        IpcError::new(
            IpcErrorCode::InvalidInput,
            format!("cannot open that file: {e}"),
        )
    })?;
    let store = state.store()?;
    let cancel = Arc::new(AtomicBool::new(false));
    {
        let mut importing = state.importing.locked();
        if importing.is_some() {
            return Err(IpcError::new(
                IpcErrorCode::InvalidInput,
                "an import is already running; wait for it or cancel it first",
            ));
        }
        *importing = Some(Arc::clone(&cancel));
    }
    let flag = Arc::clone(&cancel);
    let file = path.clone();
    let result = tauri::async_runtime::spawn_blocking(move || {
        let mut tell = |p: Progress| {
            let _ = on_event.send(ImportProgress {
                read: p.read,
                total: p.total,
                conversations: p.conversations,
            });
        };
        ponder_core::import::import_file(&store, &file, &mut Watch::new(&mut tell, &flag))
    })
    .await;
    state.importing.locked().take();
    let result = result
        .map_err(|e| IpcError::new(IpcErrorCode::Internal, format!("the import stopped: {e}")))?;
    let (report, cancelled) = match result {
        Ok(report) => (report, false),
        Err(stopped) if matches!(*stopped.error, ImportError::Cancelled) => (stopped.done, true),
        Err(stopped) => {
            let code = match *stopped.error {
                ImportError::Unreadable { .. } | ImportError::Store(_) => IpcErrorCode::Storage,
                _ => IpcErrorCode::InvalidInput,
            };
            return Err(IpcError::new(
                code,
                format!("{}: {stopped}", path.display()),
            ));
        }
    };
    Ok(Some(Imported {
        conversations: report.conversations,
        messages: report.messages,
        updated: report.updated,
        unchanged: report.unchanged,
        cancelled,
    }))
}

/// Stops the import under way after the conversation it is reading; those already read stay.
#[tauri::command]
#[tracing::instrument(skip_all)]
pub fn cancel_import(state: State<'_, AppState>) {
    if let Some(cancel) = state.importing.locked().as_ref() {
        cancel.store(true, Ordering::Relaxed);
    }
}
