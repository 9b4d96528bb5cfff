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
