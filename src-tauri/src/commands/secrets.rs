//! API keys go in and never come back out: the UI learns only whether one is stored.

use ponder_core::catalog::Protocol;
use ponder_core::catalog::{Catalog, CustomProvider};
use tauri::{AppHandle, State};

use crate::error::{IpcError, IpcErrorCode};
use crate::ipc::ProviderView;
use crate::state::AppState;

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn list_providers(
    app: AppHandle,
    state: State<'_, AppState>,
) -> Result<Vec<ProviderView>, IpcError> {
    let settings = crate::settings::load(&app)?;
    Ok(settings
        .catalog()
        .providers
        .iter()
        .map(|p| provider_view(p, &settings, &state))
        .collect())
}

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
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
    let settings = crate::settings::load(&app)?;
    let catalog = settings.catalog();
    let entry = catalog.provider(&provider)?;
    if entry.sign_in.is_some() {
        return Err(IpcError::new(
            IpcErrorCode::InvalidInput,
            format!("{} takes no key: sign in instead.", entry.name),
        ));
    }
    ponder_core::secrets::set_api_key(&entry.id, key)?;
    state.note_key(&entry.id, true);
    Ok(provider_view(entry, &settings, &state))
}

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn clear_api_key(
    app: AppHandle,
    state: State<'_, AppState>,
    provider: String,
) -> Result<ProviderView, IpcError> {
    let settings = crate::settings::load(&app)?;
    let catalog = settings.catalog();
    let entry = catalog.provider(&provider)?;
    if entry.sign_in.is_some() {
        // Signing out of the address the settings give: its GitHub token goes, and the
        // Copilot token with it. Other addresses' sign-ins stay.
        let hosts = ponder_core::providers::copilot::hosts_for(settings.base_url(&entry.id))?;
        ponder_core::secrets::clear_github_token(&hosts)?;
        state.copilot.forget();
        let left = ponder_core::secrets::github_token(&hosts).is_ok_and(|t| t.is_some());
        state.note_key(&ponder_core::secrets::github_account(&hosts), left);
        return Ok(provider_view(entry, &settings, &state));
    }
    ponder_core::secrets::clear_api_key(&entry.id)?;
    // The environment may still hold one.
    state.note_key(&entry.id, ponder_core::secrets::api_key(&entry.id).is_ok());
    Ok(provider_view(entry, &settings, &state))
}

/// Adds a server of the user's own, which reasons the way `preset` does.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn add_custom_provider(
    app: AppHandle,
    state: State<'_, AppState>,
    name: String,
    base_url: String,
    protocol: Protocol,
    preset: String,
    needs_key: bool,
) -> Result<ProviderView, IpcError> {
    let settings = crate::settings::load(&app)?;
    let custom = CustomProvider {
        id: CustomProvider::id_for(&name),
        name: name.trim().to_owned(),
        base_url: base_url.trim().to_owned(),
        protocol,
        preset,
        needs_key,
    };
    custom.check(Catalog::builtin()).map_err(|e| {
        IpcError::new(
            IpcErrorCode::InvalidInput,
            format!("{}.", capitalised(&e.to_string())),
        )
    })?;
    if settings.catalog().provider(&custom.id).is_ok() {
        return Err(IpcError::new(
            IpcErrorCode::InvalidInput,
            format!("There is already a provider called {}.", custom.name),
        ));
    }
    let mut list = settings.custom_providers.clone();
    list.push(custom.clone());
    let settings = crate::settings::update(&app, &serde_json::json!({ "customProviders": list }))?;
    let catalog = settings.catalog();
    Ok(provider_view(
        catalog.provider(&custom.id)?,
        &settings,
        &state,
    ))
}

/// Removes a server the user added, and its key.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn remove_custom_provider(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
) -> Result<(), IpcError> {
    let settings = crate::settings::load(&app)?;
    if !settings.custom_providers.iter().any(|c| c.id == id) {
        return Err(IpcError::new(
            IpcErrorCode::NotFound,
            format!("No custom provider {id}."),
        ));
    }
    ponder_core::secrets::clear_api_key(&id)?;
    state.note_key(&id, false);
    let list: Vec<_> = settings
        .custom_providers
        .iter()
        .filter(|c| c.id != id)
        .cloned()
        .collect();
    crate::settings::update(&app, &serde_json::json!({ "customProviders": list }))?;
    Ok(())
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[derive(serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct KeyringStatus {
    available: bool,
    message: Option<String>,
}

/// Whether the system keyring answers, so the UI can offer the environment route if not.
#[tauri::command(async)]
#[tracing::instrument(skip_all)]
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
    p: &ponder_core::catalog::ProviderEntry,
    settings: &crate::settings::Settings,
    state: &AppState,
) -> ProviderView {
    ProviderView {
        id: p.id.clone(),
        name: p.name.clone(),
        protocol: p.protocol,
        enabled: settings.provider_enabled(&p.id),
        base_url: settings.base_url(&p.id).unwrap_or(&p.base_url).to_owned(),
        default_base_url: p.base_url.clone(),
        needs_key: p.api_key_env.is_some(),
        has_key: state.can_ask(p, settings.base_url(&p.id)),
        key_env: ponder_core::secrets::env_var(&p.id),
        custom: settings.custom_providers.iter().any(|c| c.id == p.id),
        sign_in: p.sign_in.map(|_| "github".to_owned()),
    }
}
