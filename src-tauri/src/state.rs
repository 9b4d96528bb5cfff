//! What the app holds while it runs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ponder_core::DataPaths;
use ponder_core::providers::http::{self, HttpConfig};
use ponder_core::store::Store;
use tauri::{AppHandle, Manager};
use tokio_util::sync::CancellationToken;

pub struct AppState {
    pub paths: DataPaths,
    pub store: Arc<Store>,
    pub client: reqwest::Client,
    pub http: HttpConfig,
    /// Running turns by run id, to cancel them.
    pub runs: Mutex<HashMap<String, CancellationToken>>,
    /// Model ids each provider listed the last time it was asked.
    pub live_models: Mutex<HashMap<String, Vec<String>>>,
}

impl AppState {
    /// Resolves and creates the data directory and opens the history. Tauri's own resolver
    /// is used so that the settings store, WebKit's storage and our files share one place.
    pub fn open(app: &AppHandle) -> anyhow::Result<Self> {
        let root = app.path().app_data_dir()?;
        let paths = DataPaths::at(root);
        paths.ensure()?;
        let store = Arc::new(Store::open(&paths.database())?);
        let http = HttpConfig::default();
        let client = http::client(&http)?;
        Ok(Self {
            paths,
            store,
            client,
            http,
            runs: Mutex::new(HashMap::new()),
            live_models: Mutex::new(HashMap::new()),
        })
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
