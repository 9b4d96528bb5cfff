//! What the app holds while it runs.

use ponder_core::DataPaths;
use tauri::{AppHandle, Manager};

pub struct AppState {
    pub paths: DataPaths,
}

impl AppState {
    /// Resolves and creates the data directory. Tauri's own resolver is used so that
    /// the settings store, WebKit's storage and our files share one place.
    pub fn open(app: &AppHandle) -> anyhow::Result<Self> {
        let root = app.path().app_data_dir()?;
        let paths = DataPaths::at(root);
        paths.ensure()?;
        Ok(Self { paths })
    }
}

#[cfg(test)]
mod tests {
    /// Tauri names the data directory after the configured identifier, the CLI after
    /// the core's constant: they must be the same for both to find the same files.
    #[test]
    fn tauri_config_identifier_matches_the_core() {
        let conf: serde_json::Value =
            serde_json::from_str(include_str!("../tauri.conf.json")).unwrap();
        assert_eq!(conf["identifier"], ponder_core::paths::APP_IDENTIFIER);
    }
}
