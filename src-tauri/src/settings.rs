//! App settings, kept by tauri-plugin-store in the data directory.
//!
//! Each setting is its own key in the store so that a file written by an older or
//! newer Ponder loses only the keys it cannot read, never the whole file.

use serde::{Deserialize, Serialize};
use tauri::{AppHandle, Runtime};
use tauri_plugin_store::StoreExt;

use crate::error::IpcError;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
    #[default]
    System,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    pub theme: Theme,
}

const THEME: &str = "theme";

pub fn load<R: Runtime>(app: &AppHandle<R>) -> Result<Settings, IpcError> {
    let store = app.store(ponder_core::paths::SETTINGS_FILE)?;
    let mut settings = Settings::default();
    if let Some(theme) = store
        .get(THEME)
        .and_then(|v| serde_json::from_value(v).ok())
    {
        settings.theme = theme;
    }
    Ok(settings)
}

pub fn update<R: Runtime>(
    app: &AppHandle<R>,
    change: impl FnOnce(&mut Settings),
) -> Result<Settings, IpcError> {
    let mut settings = load(app)?;
    change(&mut settings);
    let store = app.store(ponder_core::paths::SETTINGS_FILE)?;
    store.set(
        THEME,
        serde_json::to_value(settings.theme).unwrap_or_default(),
    );
    store.save()?;
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn theme_spellings_are_lowercase() {
        for (theme, text) in [
            (Theme::Light, "\"light\""),
            (Theme::Dark, "\"dark\""),
            (Theme::System, "\"system\""),
        ] {
            assert_eq!(serde_json::to_string(&theme).unwrap(), text);
            assert_eq!(serde_json::from_str::<Theme>(text).unwrap(), theme);
        }
        assert!(serde_json::from_str::<Theme>("\"sepia\"").is_err());
    }
}
