//! The desktop app's settings as the command line reads them: reasoning overrides, servers of
//! the user's own, tool servers and limits, prices and provider addresses. `chat`,
//! `translate`, `models` and the rest plan with what the app would.

use std::path::Path;

use ponder_core::catalog::Catalog;
use ponder_core::reasoning::Overrides;
use ponder_core::tools::Limits;

use crate::Usage;

/// What `ponder-cli chat` takes from the desktop app's settings: its reasoning overrides and
/// the servers the user added. A file that is not there is no settings at all.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct AppSettings {
    reasoning_overrides: Overrides,
    custom_providers: Vec<ponder_core::catalog::CustomProvider>,
    pub(crate) mcp_servers: Vec<ponder_core::mcp::ServerConfig>,
    tool_step_limit: Option<u64>,
    tool_timeout_secs: Option<u64>,
    pub(crate) prices: Vec<ponder_core::prices::PriceOverride>,
    providers: std::collections::BTreeMap<String, ProviderAddress>,
}

/// A provider's address from the app's settings (GitHub Enterprise, for Copilot).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct ProviderAddress {
    base_url: Option<String>,
}

impl AppSettings {
    /// The catalog the app plans with: the built-in one and the user's own servers. The
    /// picker, `chat`, `translate` and `models` all read models through it.
    pub(crate) fn catalog(&self) -> Catalog {
        Catalog::builtin().with_custom(&self.custom_providers)
    }

    /// The reasoning overrides the app saved, or those of a file given instead.
    pub(crate) fn overrides(&self, file: Option<&Path>) -> Result<Overrides, Usage> {
        match file {
            Some(path) => read_overrides(path),
            None => Ok(self.reasoning_overrides.clone()),
        }
    }

    /// How far a tool loop and its calls may go, as the app's settings say.
    pub(crate) fn tool_limits(&self) -> Limits {
        Limits::with_user(self.tool_step_limit, self.tool_timeout_secs)
    }

    /// The address the app's settings give a provider, if any.
    pub(crate) fn base_url(&self, provider: &str) -> Option<&str> {
        self.providers
            .get(provider)
            .and_then(|p| p.base_url.as_deref())
            .filter(|url| !url.trim().is_empty())
    }
}

impl AppSettings {
    pub(crate) fn read(settings_file: &Path) -> Result<Self, Usage> {
        let text = match std::fs::read_to_string(settings_file) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(e) => {
                return Err(Usage(format!(
                    "cannot read the settings in {}: {e}",
                    settings_file.display()
                )));
            }
        };
        serde_json::from_str(&text).map_err(|e| {
            Usage(format!(
                "the settings in {} do not read: {e}",
                settings_file.display()
            ))
        })
    }
}

/// An overrides file: `{"providers": {NAME: {"reasoning": …, "models": {ID: …}}}}`.
pub fn read_overrides(path: &std::path::Path) -> Result<Overrides, Usage> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Usage(format!(
            "cannot read overrides file {}: {e}",
            path.display()
        ))
    })?;
    Overrides::from_json(&text).map_err(|e| {
        Usage(format!(
            "overrides file {} is not valid: {e}",
            path.display()
        ))
    })
}
