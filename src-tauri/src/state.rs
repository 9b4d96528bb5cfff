//! What the app holds while it runs.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, RwLock};

use ponder_core::DataPaths;
use ponder_core::catalog::Catalog;
use ponder_core::providers::http::{self, HttpConfig};
use ponder_core::providers::models::LiveModel;
use ponder_core::store::{OpenRemedy, Store};
use ponder_core::sync::{Locked, Shared};
use tauri::{AppHandle, Manager};
use tokio_util::sync::CancellationToken;

use crate::error::{IpcError, IpcErrorCode};
use crate::startup::{ProblemFile, Remedy, StartupProblem};

pub struct AppState {
    pub paths: DataPaths,
    /// The history, or why it could not be opened (the window says so and offers a way on).
    history: RwLock<Result<Arc<Store>, StartupProblem>>,
    /// Why the settings file could not be read; while set, it is never written.
    settings_problem: Mutex<Option<StartupProblem>>,
    pub client: reqwest::Client,
    pub http: HttpConfig,
    /// Running turns by run id, to cancel them.
    pub runs: Mutex<HashMap<String, CancellationToken>>,
    /// The models each provider listed the last time it was asked.
    pub live_models: Mutex<HashMap<String, Vec<LiveModel>>>,
    /// Which providers have a key, looked up once (all at once) and kept up to date by the
    /// key commands: a locked keyring must not stall every model list.
    keys: Mutex<Option<HashMap<String, bool>>>,
    /// Set once quitting has begun: running turns are being cancelled and stored.
    pub quitting: AtomicBool,
    /// The MCP servers of this process: started when a conversation needs them, stopped
    /// on quit.
    pub hub: Arc<ponder_core::mcp::Hub>,
    /// Tool calls waiting for the user's answer, by run id and call id.
    pub approvals: Mutex<
        HashMap<(String, String), tokio::sync::oneshot::Sender<ponder_core::tools::Decision>>,
    >,
    /// What tokens cost: the listed prices with the user's from Settings over them, kept
    /// here so every view of a message can say its cost without reading the settings.
    prices: RwLock<Arc<ponder_core::prices::Prices>>,
    /// The Copilot token of the signed-in GitHub account, in memory only.
    pub copilot: Arc<ponder_core::providers::copilot::TokenCache>,
    /// The GitHub sign-in waiting for its code to be entered, to stop it.
    pub sign_in: Mutex<Option<CancellationToken>>,
    /// The import under way, to cancel it; one at a time.
    pub importing: Mutex<Option<Arc<AtomicBool>>>,
}

/// Which built-in providers have a key, looked up all at once.
fn builtin_keys() -> HashMap<String, bool> {
    let ids = Catalog::builtin().providers.iter().map(|p| p.id.as_str());
    ponder_core::secrets::api_keys(ids)
        .into_iter()
        .map(|(id, key)| (id, key.is_ok()))
        .collect()
}

impl AppState {
    /// The catalog a turn plans with: `catalog` (the built-in one and the user's own
    /// servers, from the settings) with what the providers' own lists said this run (the API
    /// each model answers on, its efforts).
    pub fn with_live(&self, catalog: Catalog) -> Catalog {
        catalog.with_live(&self.live_models.locked())
    }

    /// Resolves and creates the data directory and opens the history. Tauri's own resolver
    /// is used so that the settings store, WebKit's storage and our files share one place.
    /// A history or settings file that cannot be used is recorded as a problem, never
    /// replaced: the window asks what to do.
    pub fn open(app: &AppHandle) -> anyhow::Result<Self> {
        let paths =
            DataPaths::at(app.path().app_data_dir()?).with_config(app.path().app_config_dir()?);
        paths.ensure()?;
        // Not being able to move an old settings file is no reason not to start: it is
        // still there for the user, and Ponder starts with its defaults.
        if let Err(err) = paths.adopt_old_settings() {
            tracing::warn!(%err, "Ponder could not move its old settings file");
        }
        let history = open_history(&paths);
        let settings_problem = crate::startup::settings_file_problem(&paths.settings());
        let http = HttpConfig::default();
        let client = http::client(&http)?;
        Ok(Self {
            paths,
            history: RwLock::new(history),
            settings_problem: Mutex::new(settings_problem),
            client,
            http,
            runs: Mutex::new(HashMap::new()),
            live_models: Mutex::new(HashMap::new()),
            keys: Mutex::new(None),
            quitting: AtomicBool::new(false),
            hub: Arc::new(ponder_core::mcp::Hub::new(
                Arc::new(ponder_core::mcp::config::keyring_secrets),
                ponder_core::mcp::hub::START_DEADLINE,
            )),
            approvals: Mutex::new(HashMap::new()),
            prices: RwLock::new(Arc::default()),
            copilot: Arc::default(),
            sign_in: Mutex::new(None),
            importing: Mutex::new(None),
        })
    }

    pub fn prices(&self) -> Arc<ponder_core::prices::Prices> {
        self.prices.reading().clone()
    }

    /// Takes the user's prices from the settings (at start-up, and when they change).
    pub fn set_prices(&self, own: &[ponder_core::prices::PriceOverride]) {
        *self.prices.writing() = Arc::new(ponder_core::prices::Prices::new(own));
    }

    /// The history, or an error saying it is not open.
    pub fn store(&self) -> Result<Arc<Store>, IpcError> {
        match &*self.history.reading() {
            Ok(store) => Ok(store.clone()),
            Err(problem) => Err(IpcError::new(
                IpcErrorCode::Storage,
                format!(
                    "Your history is not open: {} ({})",
                    problem.message, problem.path
                ),
            )),
        }
    }

    /// Whether `provider` has a key (stored, or in the environment).
    pub fn has_key(&self, provider: &str) -> bool {
        let mut keys = self.keys.locked();
        let keys = keys.get_or_insert_with(builtin_keys);
        // A provider the user added since the lookup: ask for it alone.
        *keys
            .entry(provider.to_owned())
            .or_insert_with(|| ponder_core::secrets::api_key(provider).is_ok())
    }

    /// Whether someone is signed in to GitHub at `hosts` (or a token is in the environment),
    /// kept under the address's keyring account (see `note_key`).
    pub fn signed_in(&self, hosts: &ponder_core::providers::copilot::Hosts) -> bool {
        let mut keys = self.keys.locked();
        let keys = keys.get_or_insert_with(builtin_keys);
        *keys
            .entry(ponder_core::secrets::github_account(hosts))
            .or_insert_with(|| ponder_core::secrets::github_token(hosts).is_ok_and(|t| t.is_some()))
    }

    /// Whether a provider can be asked: it has a key, or, for one signed in to, someone is
    /// signed in at the address the settings give it (another address's sign-in does not
    /// count: its token is never sent here).
    pub fn can_ask(
        &self,
        provider: &ponder_core::catalog::ProviderEntry,
        address: Option<&str>,
    ) -> bool {
        match provider.sign_in {
            Some(_) => ponder_core::providers::copilot::hosts_for(address)
                .is_ok_and(|hosts| self.signed_in(&hosts)),
            None => self.has_key(&provider.id),
        }
    }

    /// Records that a key (by provider) or a GitHub sign-in (by its keyring account) was
    /// stored or cleared.
    pub fn note_key(&self, provider: &str, present: bool) {
        if let Some(keys) = self.keys.locked().as_mut() {
            keys.insert(provider.to_owned(), present);
        }
    }

    pub fn problems(&self) -> Vec<StartupProblem> {
        let history = self.history.reading().as_ref().err().cloned();
        let settings = self.settings_problem().clone();
        history.into_iter().chain(settings).collect()
    }

    pub fn settings_problem(&self) -> std::sync::MutexGuard<'_, Option<StartupProblem>> {
        self.settings_problem.locked()
    }

    /// Moves the history file aside (when asked to) and opens the history again.
    pub fn reopen_history(&self, move_aside: bool) -> Result<(), IpcError> {
        let mut history = self.history.writing();
        if history.is_ok() {
            return Ok(());
        }
        if move_aside {
            keep_aside(&self.paths.database())?;
        }
        *history = open_history(&self.paths);
        Ok(())
    }
}

/// Renames a file Ponder cannot use so that it starts afresh without it (never deletes it).
pub fn keep_aside(path: &std::path::Path) -> Result<(), IpcError> {
    if !path.exists() {
        return Ok(());
    }
    ponder_core::paths::move_aside(path)
        .map(|_| ())
        .map_err(|e| {
            IpcError::new(
                IpcErrorCode::Storage,
                format!("Cannot rename {}: {e}", path.display()),
            )
        })
}

fn open_history(paths: &DataPaths) -> Result<Arc<Store>, StartupProblem> {
    let database = paths.database();
    Store::open(&database).map(Arc::new).map_err(|err| {
        let remedy = match err.remedy() {
            OpenRemedy::MoveAside => Remedy::MoveAside,
            OpenRemedy::Retry => Remedy::Retry,
        };
        StartupProblem {
            file: ProblemFile::History,
            path: database.display().to_string(),
            message: err.to_string(),
            remedy,
        }
    })
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
