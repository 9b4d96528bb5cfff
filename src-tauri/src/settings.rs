//! App settings, kept by tauri-plugin-store in the data directory.
//!
//! Each setting is its own key in the store so that a file written by an older or newer
//! Ponder loses only the keys it cannot read, never the whole file.
//!
//! The plugin reads the file and holds its keys; Ponder writes it. The plugin's own save
//! truncates the file before writing (a crash halfway empties the user's settings) and runs
//! for every store when the app exits — which would write an empty object over a settings
//! file that could not be read and is waiting for the user's choice. So the store is built
//! with a serializer that refuses, and `save` replaces the file whole with
//! `ponder_core::atomic_file`.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use ponder_core::catalog::{Catalog, CustomProvider};
use ponder_core::mcp::ServerConfig;
use ponder_core::reasoning::settings::Profiles;
use ponder_core::reasoning::{Choice, Overrides};
use ponder_core::sync::Locked;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_store::{Store, StoreExt};

use crate::error::IpcError;
use crate::state::AppState;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Theme {
    Light,
    Dark,
    #[default]
    System,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum ThoughtVisibility {
    /// Live while thinking, folded once the answer starts.
    #[default]
    Auto,
    Expanded,
    Collapsed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProviderSettings {
    /// On unless switched off: an entry written by hand for its address alone stays enabled.
    pub enabled: bool,
    /// Overrides the provider's base URL (a proxy, a local server, the mock provider).
    pub base_url: Option<String>,
    /// Model ids the user typed in the picker, offered from then on.
    pub models: Vec<String>,
}

impl Default for ProviderSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            base_url: None,
            models: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Settings {
    pub theme: Theme,
    pub default_provider: Option<String>,
    pub default_model: Option<String>,
    pub default_choice: Choice,
    pub thought_visibility: ThoughtVisibility,
    /// False: thoughts are shown while they stream but never written to disk.
    pub store_thoughts: bool,
    /// Delete stored thoughts older than this many days (checked at start-up).
    pub retention_days: Option<u32>,
    /// Seconds a provider may stay silent (before its answer starts, or in the middle of
    /// it) before the turn ends as a network error with what arrived kept.
    pub stall_timeout_secs: u32,
    pub providers: BTreeMap<String, ProviderSettings>,
    pub profiles: Profiles,
    /// The reasoning maps, per provider and per model, with the auto-stream level
    /// and Anthropic's caching toggle.
    pub reasoning_overrides: Overrides,
    /// Servers the user added, each following a built-in provider's way of reasoning.
    pub custom_providers: Vec<CustomProvider>,
    /// MCP servers whose tools conversations can offer the model.
    pub mcp_servers: Vec<ServerConfig>,
    /// Tools that run in every conversation without asking, as `server/tool`.
    pub always_allowed_tools: Vec<String>,
    /// Model steps in one turn with tools before Ponder stops the loop.
    pub tool_step_limit: u32,
    /// Seconds a tool call may take.
    pub tool_timeout_secs: u32,
    /// The user's own prices, over the listed ones.
    pub prices: Vec<ponder_core::prices::PriceOverride>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            theme: Theme::System,
            default_provider: None,
            default_model: None,
            default_choice: Choice::Default,
            thought_visibility: ThoughtVisibility::Auto,
            store_thoughts: true,
            retention_days: None,
            stall_timeout_secs: DEFAULT_STALL_SECS,
            providers: BTreeMap::new(),
            profiles: Profiles::default(),
            reasoning_overrides: Overrides::default(),
            custom_providers: Vec::new(),
            mcp_servers: Vec::new(),
            always_allowed_tools: Vec::new(),
            tool_step_limit: DEFAULT_TOOL_STEPS,
            tool_timeout_secs: DEFAULT_TOOL_TIMEOUT_SECS,
            prices: Vec::new(),
        }
    }
}

impl Settings {
    /// A provider is enabled unless the user switched it off.
    pub fn provider_enabled(&self, id: &str) -> bool {
        self.providers.get(id).is_none_or(|p| p.enabled)
    }

    /// The silence allowed from a provider, kept within what makes sense (5 s to an hour).
    pub fn stall_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(u64::from(self.stall_timeout_secs.clamp(5, 3600)))
    }

    /// The built-in catalog with the user's own servers in it.
    pub fn catalog(&self) -> Catalog {
        Catalog::builtin().with_custom(&self.custom_providers)
    }

    /// The model ids the user added for a provider.
    pub fn added_models(&self, id: &str) -> &[String] {
        self.providers.get(id).map_or(&[], |p| p.models.as_slice())
    }

    /// How far a tool loop and its calls may go, within sensible bounds.
    pub fn tool_limits(&self) -> ponder_core::tools::Limits {
        ponder_core::tools::Limits::with_user(
            Some(u64::from(self.tool_step_limit)),
            Some(u64::from(self.tool_timeout_secs)),
        )
    }

    pub fn base_url(&self, id: &str) -> Option<&str> {
        self.providers
            .get(id)
            .and_then(|p| p.base_url.as_deref())
            .filter(|u| !u.trim().is_empty())
    }
}

/// How long a silent provider is waited for, unless the user says otherwise.
pub const DEFAULT_STALL_SECS: u32 = 60;
pub const DEFAULT_TOOL_STEPS: u32 = 25;
pub const DEFAULT_TOOL_TIMEOUT_SECS: u32 = 60;

const KEYS: [&str; 17] = [
    "theme",
    "defaultProvider",
    "defaultModel",
    "defaultChoice",
    "thoughtVisibility",
    "storeThoughts",
    "retentionDays",
    "stallTimeoutSecs",
    "providers",
    "profiles",
    "reasoningOverrides",
    "customProviders",
    "mcpServers",
    "alwaysAllowedTools",
    "toolStepLimit",
    "toolTimeoutSecs",
    "prices",
];

pub fn load<R: Runtime>(app: &AppHandle<R>) -> Result<Settings, IpcError> {
    let store = store(app)?;
    Ok(from_stored(|key| store.get(key)))
}

/// The settings' store, the same one every time (the plugin keeps it once built).
fn store<R: Runtime>(app: &AppHandle<R>) -> Result<Arc<Store<R>>, IpcError> {
    Ok(app
        .store_builder(app.state::<AppState>().paths.settings())
        .serialize(never_by_the_plugin)
        .disable_auto_save()
        .build()?)
}

/// The plugin's save (on exit, or if anything asked it) fails here and writes nothing.
fn never_by_the_plugin(
    _: &HashMap<String, Value>,
) -> Result<Vec<u8>, Box<dyn std::error::Error + Send + Sync>> {
    Err("the settings file is written by Ponder, whole (settings::save)".into())
}

/// Settings from what the file holds under each key: each key is taken only if it reads as
/// that setting, and keeps its default otherwise, so one bad value never costs the others.
///
/// Written here rather than with `serde_with::DefaultOnError`: that falls back to the
/// field type's default (`storeThoughts` would turn false, the stall timeout 0 s) where a
/// bad key must keep the setting's own default, and it would make `Settings` lenient
/// everywhere, while `update` must refuse a bad value from the window.
fn from_stored(get: impl Fn(&str) -> Option<Value>) -> Settings {
    let mut object = serde_json::to_value(Settings::default()).unwrap_or_default();
    for key in KEYS {
        if let Some(value) = get(key) {
            let mut trial = object.clone();
            trial[key] = value;
            if serde_json::from_value::<Settings>(trial.clone()).is_ok() {
                object = trial;
            }
        }
    }
    serde_json::from_value(object).unwrap_or_default()
}

/// Applies a partial update (`{"theme": "dark"}`) and saves.
pub fn update<R: Runtime>(app: &AppHandle<R>, patch: &Value) -> Result<Settings, IpcError> {
    let settings = patched(&load(app)?, patch)?;
    let changed: Vec<&str> = patch
        .as_object()
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    save(app, &settings, &changed)?;
    if changed.contains(&"prices") {
        app.state::<AppState>().set_prices(&settings.prices);
    }
    Ok(settings)
}

/// `settings` with a partial update applied, checked, not saved.
pub fn patched(settings: &Settings, patch: &Value) -> Result<Settings, IpcError> {
    let mut object = serde_json::to_value(settings).unwrap_or_default();
    if let (Some(target), Some(patch)) = (object.as_object_mut(), patch.as_object()) {
        for (key, value) in patch {
            if !KEYS.contains(&key.as_str()) {
                return Err(IpcError::new(
                    crate::error::IpcErrorCode::InvalidInput,
                    format!("unknown setting {key:?}"),
                ));
            }
            target.insert(key.clone(), value.clone());
        }
    }
    serde_json::from_value(object).map_err(|e| {
        IpcError::new(
            crate::error::IpcErrorCode::InvalidInput,
            format!("invalid setting: {e}"),
        )
    })
}

/// Writes the given keys of `settings`; the others stay in the file as they are (a key
/// this version cannot read is not replaced by its default).
fn save<R: Runtime>(
    app: &AppHandle<R>,
    settings: &Settings,
    keys: &[&str],
) -> Result<(), IpcError> {
    if let Some(problem) = app.state::<AppState>().settings_problem().as_ref() {
        return Err(IpcError::new(
            crate::error::IpcErrorCode::Storage,
            format!(
                "{} Ponder will not write over {}; choose what to do with it first.",
                problem.message, problem.path
            ),
        ));
    }
    // One save at a time: the file written last holds the keys set last.
    static SAVING: Mutex<()> = Mutex::new(());
    let _saving = SAVING.locked();
    let store = store(app)?;
    let value = serde_json::to_value(settings).unwrap_or_default();
    for key in keys {
        store.set(*key, value[*key].clone());
    }
    // Sorted, so that the file reads the same from one save to the next.
    let entries: BTreeMap<String, Value> = store.entries().into_iter().collect();
    let bytes = serde_json::to_vec_pretty(&entries).unwrap_or_default();
    let path = app.state::<AppState>().paths.settings();
    let written = match path.parent() {
        Some(dir) => std::fs::create_dir_all(dir),
        None => Ok(()),
    };
    written
        .and_then(|()| ponder_core::atomic_file::write(&path, &bytes))
        .map_err(|e| {
            IpcError::new(
                crate::error::IpcErrorCode::Storage,
                format!(
                    "Your settings could not be saved to {}: {e}",
                    path.display()
                ),
            )
        })
}

/// After the settings file was fixed by hand or moved aside: read it afresh.
pub fn reload<R: Runtime>(app: &AppHandle<R>) -> Result<(), IpcError> {
    let store = store(app)?;
    // Not `clear()`: that saves, and would write an empty file over the user's.
    if app.state::<AppState>().paths.settings().exists() {
        store.reload_ignore_defaults()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::startup::settings_file_problem;

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

    /// Any JSON under any key, and any bytes as the file: reading never panics, a key that
    /// does not read as its setting keeps its default without costing the others, and a file
    /// that is not an object of settings is a problem with a message, never silently reset.
    #[test]
    fn the_settings_loader_takes_any_json_and_any_file() {
        use proptest::prelude::*;
        let value = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            ".{0,10}".prop_map(Value::String),
            Just(serde_json::json!("dark")),
            Just(
                serde_json::json!({"anthropic": {"enabled": false, "baseUrl": "http://127.0.0.1:1"}})
            ),
            Just(serde_json::json!([1, 2])),
            Just(serde_json::json!({"x": {}})),
        ];
        let entries = prop::collection::btree_map(prop::sample::select(KEYS.to_vec()), value, 0..9);
        let config = ProptestConfig {
            cases: 10_000,
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        proptest!(config, |(entries in entries, bytes in prop::collection::vec(any::<u8>(), 0..48))| {
            let settings = from_stored(|key| entries.get(key).cloned());
            let read = serde_json::to_value(&settings).unwrap();
            let defaults = serde_json::to_value(Settings::default()).unwrap();
            for key in KEYS {
                let alone = from_stored(|k| (k == key).then(|| entries.get(key).cloned()).flatten());
                let alone = serde_json::to_value(alone).unwrap();
                // A key reads the same with or without the others; one that does not read
                // keeps its default.
                prop_assert_eq!(&read[key], &alone[key]);
                if !entries.contains_key(key) {
                    prop_assert_eq!(&read[key], &defaults[key]);
                }
            }
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("settings.json");
            std::fs::write(&path, &bytes).unwrap();
            let is_object = matches!(serde_json::from_slice::<Value>(&bytes), Ok(Value::Object(_)));
            match settings_file_problem(&path) {
                None => prop_assert!(is_object),
                Some(problem) => {
                    prop_assert!(!is_object);
                    prop_assert!(problem.message.contains("could not be read"));
                    prop_assert_eq!(problem.path, path.display().to_string());
                }
            }
            prop_assert_eq!(std::fs::read(&path).unwrap(), bytes, "never changed");
        });
    }

    #[test]
    fn settings_read_what_they_understand_and_default_the_rest() {
        let s: Settings =
            serde_json::from_str(r#"{"theme":"dark","storeThoughts":false}"#).unwrap();
        assert_eq!(s.theme, Theme::Dark);
        assert!(!s.store_thoughts);
        assert_eq!(s.thought_visibility, ThoughtVisibility::Auto);
        assert!(
            s.provider_enabled("anthropic"),
            "providers are on unless switched off"
        );
        let by_hand: Settings = serde_json::from_str(
            r#"{"providers":{"openai":{"baseUrl":"http://127.0.0.1:9"},"xai":{"enabled":false}}}"#,
        )
        .unwrap();
        assert!(
            by_hand.provider_enabled("openai"),
            "an entry without \"enabled\" is enabled"
        );
        assert!(!by_hand.provider_enabled("xai"));
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["defaultChoice"], "default");
        assert!(json.get("storeThoughts").is_some());
    }
}
