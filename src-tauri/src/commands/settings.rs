use serde_json::Value;
use tauri::{AppHandle, State};

use crate::error::IpcError;
use crate::settings::{Settings, Theme};
use crate::state::AppState;

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn get_settings(app: AppHandle) -> Result<Settings, IpcError> {
    crate::settings::load(&app)
}

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn update_settings(app: AppHandle, patch: Value) -> Result<Settings, IpcError> {
    // Servers are checked before anything is written: a bad one is refused with why.
    if let Some(servers) = patch.get("mcpServers") {
        crate::commands::mcp::check_servers(servers)?;
    }
    // What the change would run, or where it would send a secret, the user agrees to in a
    // dialog the page cannot draw or answer.
    let before = crate::settings::load(&app)?;
    let after = crate::settings::patched(&before, &patch)?;
    let consents = crate::consent::needed(&before, &after, |id| {
        ponder_core::secrets::api_key(id).is_ok_and(|key| !key.is_empty())
    });
    if !crate::consent::ask(&app, &consents) {
        return Err(IpcError::new(
            crate::error::IpcErrorCode::Declined,
            "Not changed: you did not allow it.",
        ));
    }
    let settings = crate::settings::update(&app, &patch)?;
    if patch.get("mcpServers").is_some() {
        crate::commands::mcp::configure(&app, &settings.mcp_servers);
    }
    Ok(settings)
}

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn set_theme(app: AppHandle, theme: Theme) -> Result<Settings, IpcError> {
    crate::settings::update(&app, &serde_json::json!({ "theme": theme }))
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PurgeReport {
    messages: usize,
    #[cfg_attr(test, ts(type = "number"))]
    bytes_freed: u64,
}

/// Drops stored thoughts (and their signatures) older than N days.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn purge_thoughts(
    state: State<'_, AppState>,
    older_than_days: u32,
) -> Result<PurgeReport, IpcError> {
    let before = now_ms() - i64::from(older_than_days.max(1)) * 86_400_000;
    let (messages, bytes_freed) = state.store()?.purge_thoughts(before)?;
    Ok(PurgeReport {
        messages,
        bytes_freed,
    })
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
