//! Providers and models as the picker and Settings show them, and what a turn will send.

use serde::Serialize;

use ponder_core::catalog::ModelSource;
use ponder_core::reasoning::levels::LevelOption;

/// One model in the picker.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ModelView {
    pub provider: String,
    pub provider_name: String,
    pub id: String,
    pub name: String,
    pub context_window: u32,
    pub max_output: u32,
    /// budget, adaptive, effort, level, toggle, always or none.
    pub thinking: &'static str,
    pub can_disable: bool,
    /// Chat Completions and Responses can both serve it (the conversation may choose).
    pub api_choice: bool,
    /// full, summary or none.
    pub shows: String,
    /// The provider needs a key and none is stored.
    pub needs_key: bool,
    /// False when no source knows the id (no hand rule, nothing in the model list or the
    /// provider's live list): it gets the provider's generic rule and the picker says
    /// "thinking support unknown".
    pub known: bool,
    /// Where its thinking rule comes from: a hand rule, derived from the model list, or none.
    pub rule: ponder_core::catalog::RuleSource,
    /// Where the id comes from.
    pub source: ModelSource,
    /// The day its newest snapshot came out (YYYY-MM-DD), where known.
    pub released: Option<String>,
    /// The day the provider retired it (YYYY-MM-DD), once that day has come: the picker no
    /// longer offers it, and a conversation that used it shows it with a warning.
    #[cfg_attr(test, ts(optional = nullable))]
    pub retired: Option<String>,
    /// Only the choices this model supports, each with its meaning.
    pub levels: Vec<LevelOption>,
    /// Its prices in the embedded model list, where listed (dollars per million tokens).
    pub listed_price: Option<ponder_core::prices::PriceFigures>,
}

/// What the next turn will send (`translate_preview`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TranslatePreview {
    /// The feedback lines for the choice: a headline, then one indented line per detail.
    pub feedback: String,
    pub warnings: Vec<String>,
    pub meaning: ponder_core::reasoning::Meaning,
    /// Where the next turn goes.
    pub url: String,
    /// The whole body of the next turn's request, as `run_turn` will send it.
    #[cfg_attr(test, ts(type = "Record<string, unknown>"))]
    pub request: serde_json::Value,
    /// Its headers, the key replaced by a placeholder.
    pub headers: std::collections::BTreeMap<String, String>,
    pub stream: bool,
    pub api: ponder_core::reasoning::plan::Endpoint,
    /// The cap on the answer (thinking included) the request sends, if any.
    pub output_cap: Option<u32>,
    /// The thinking budget it sends, where the model takes one.
    pub thinking_budget: Option<u32>,
    /// What the conversation costs in context once stripped (none for a new chat).
    pub context_tokens: Option<ponder_core::providers::tokens::TokenCount>,
}

/// How many models each provider listed, and why the others could not be asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RefreshReport {
    pub listed: std::collections::BTreeMap<String, usize>,
    pub failed: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProviderView {
    pub id: String,
    pub name: String,
    /// The wire protocol it speaks: settings that exist for one protocol (Anthropic's prompt
    /// caching) show for every provider speaking it, custom ones included.
    pub protocol: ponder_core::catalog::Protocol,
    pub enabled: bool,
    pub base_url: String,
    pub default_base_url: String,
    pub needs_key: bool,
    pub has_key: bool,
    /// The environment variable that can hold the key instead of the keyring.
    pub key_env: String,
    /// A server the user added (it can be removed).
    pub custom: bool,
    /// Signed in to instead of given a key: `github` (Copilot's device flow).
    #[cfg_attr(test, ts(optional = nullable))]
    pub sign_in: Option<String>,
}
