use tauri::AppHandle;

use crate::error::IpcError;
use crate::settings::{Settings, Theme};

#[tauri::command(async)]
pub fn get_settings(app: AppHandle) -> Result<Settings, IpcError> {
    crate::settings::load(&app)
}

#[tauri::command(async)]
pub fn set_theme(app: AppHandle, theme: Theme) -> Result<Settings, IpcError> {
    crate::settings::update(&app, |settings| settings.theme = theme)
}
