//! API keys go in and never come back out: the UI learns only whether one is stored.

use ponder_core::reasoning::Catalog;
use tauri::{AppHandle, State};

use crate::error::{IpcError, IpcErrorCode};
use crate::ipc::ProviderView;
use crate::state::AppState;

#[tauri::command(async)]
pub fn list_providers(
    app: AppHandle,
    state: State<'_, AppState>,
) -> Result<Vec<ProviderView>, IpcError> {
    let settings = crate::settings::load(&app)?;
    Ok(Catalog::builtin()
        .providers
        .iter()
        .map(|p| provider_view(p, &settings, &state))
        .collect())
}

#[tauri::command(async)]
pub fn set_api_key(
    app: AppHandle,
    state: State<'_, AppState>,
    provider: String,
    key: String,
) -> Result<ProviderView, IpcError> {
    let key = key.trim();
    if key.is_empty() {
        return Err(IpcError::new(
            IpcErrorCode::InvalidInput,
            "The key is empty.",
        ));
    }
    let entry = Catalog::builtin().provider(&provider)?;
    ponder_core::secrets::set_api_key(&entry.id, key)?;
    state.note_key(&entry.id, true);
    Ok(provider_view(entry, &crate::settings::load(&app)?, &state))
}

/// Whether a key is stored (or set in the environment); the key itself never crosses IPC.
#[tauri::command(async)]
pub fn has_api_key(state: State<'_, AppState>, provider: String) -> Result<bool, IpcError> {
    let entry = Catalog::builtin().provider(&provider)?;
    Ok(state.has_key(&entry.id))
}

#[tauri::command(async)]
pub fn clear_api_key(
    app: AppHandle,
    state: State<'_, AppState>,
    provider: String,
) -> Result<ProviderView, IpcError> {
    let entry = Catalog::builtin().provider(&provider)?;
    ponder_core::secrets::clear_api_key(&entry.id)?;
    // The environment may still hold one.
    state.note_key(&entry.id, ponder_core::secrets::api_key(&entry.id).is_ok());
    Ok(provider_view(entry, &crate::settings::load(&app)?, &state))
}

#[derive(serde::Serialize)]
pub struct KeyringStatus {
    available: bool,
    message: Option<String>,
}

/// Whether the system keyring answers, so the UI can offer the environment route if not.
#[tauri::command(async)]
pub fn keyring_status() -> KeyringStatus {
    match ponder_core::secrets::probe() {
        Ok(()) => KeyringStatus {
            available: true,
            message: None,
        },
        Err(err) => KeyringStatus {
            available: false,
            message: Some(err.to_string()),
        },
    }
}

pub fn provider_view(
    p: &ponder_core::reasoning::catalog::ProviderEntry,
    settings: &crate::settings::Settings,
    state: &AppState,
) -> ProviderView {
    ProviderView {
        id: p.id.clone(),
        name: p.name.clone(),
        enabled: settings.provider_enabled(&p.id),
        base_url: settings.base_url(&p.id).unwrap_or(&p.base_url).to_owned(),
        default_base_url: p.base_url.clone(),
        needs_key: p.api_key_env.is_some(),
        has_key: state.has_key(&p.id),
        key_env: ponder_core::secrets::env_var(&p.id),
    }
}
