//! What the app says about itself: its version and where its data lives.

use serde::Serialize;

use crate::paths::DataPaths;

pub const APP_NAME: &str = "Ponder";

/// The version of the core, which is the version of the whole workspace.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct About {
    pub name: String,
    pub version: String,
    pub data_dir: String,
    pub database_path: String,
    /// The day the embedded model list (its prices among its facts) was copied.
    pub models_dated: String,
}

impl About {
    pub fn new(paths: &DataPaths) -> Self {
        Self {
            name: APP_NAME.to_owned(),
            version: VERSION.to_owned(),
            data_dir: paths.root().display().to_string(),
            database_path: paths.database().display().to_string(),
            models_dated: crate::catalog::model_list::ModelList::builtin()
                .refreshed
                .clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_serializes_in_camel_case_for_the_ui() {
        let about = About::new(&DataPaths::at("/data/ponder"));
        let json = serde_json::to_value(&about).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "name": "Ponder",
                "version": env!("CARGO_PKG_VERSION"),
                "dataDir": "/data/ponder",
                "databasePath": "/data/ponder/ponder.sqlite3",
                "modelsDated": crate::catalog::model_list::ModelList::builtin().refreshed,
            })
        );
    }
}
