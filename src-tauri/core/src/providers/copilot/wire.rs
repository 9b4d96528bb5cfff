//! What GitHub's device flow, its Copilot token exchange and the Copilot API's model list
//! send, as far as Ponder reads them. Every field a client may do without is optional: the
//! answers are GitHub's own and gain fields over time.

use serde::Deserialize;

/// `POST /login/device/code`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct DeviceCodeResponse {
    pub device_code: String,
    pub user_code: String,
    pub verification_uri: String,
    /// Seconds the code may be entered in (GitHub: 900).
    pub expires_in: u64,
    /// The fewest seconds between two polls (GitHub: 5).
    #[serde(default = "default_interval")]
    pub interval: u64,
}

fn default_interval() -> u64 {
    5
}

/// `POST /login/oauth/access_token` while polling: a token, or an `error` (GitHub answers
/// both with HTTP 200).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct AccessTokenResponse {
    #[serde(default)]
    pub access_token: Option<String>,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub error_description: Option<String>,
    /// With `slow_down`: the interval to keep from now on.
    #[serde(default)]
    pub interval: Option<u64>,
}

/// `GET /copilot_internal/v2/token`.
#[derive(Deserialize)]
pub struct CopilotTokenResponse {
    pub token: String,
    /// Unix seconds.
    pub expires_at: u64,
    /// Seconds after which the editors fetch a new token (before it expires).
    #[serde(default)]
    pub refresh_in: Option<u64>,
    #[serde(default)]
    pub endpoints: Option<Endpoints>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Endpoints {
    /// The Copilot API for this account's plan (`https://api.individual.githubcopilot.com`).
    #[serde(default)]
    pub api: Option<String>,
}

/// A GitHub API error: `{"message": …, "documentation_url": …}`; the token exchange adds
/// `error_details` when the account has no Copilot.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct GithubError {
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub error_details: Option<ErrorDetails>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct ErrorDetails {
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
}

/// `GET {api}/models`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ModelsResponse {
    #[serde(default)]
    pub data: Vec<WireModel>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct WireModel {
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub vendor: Option<String>,
    #[serde(default)]
    pub preview: bool,
    /// Whether the editors offer it in their model picker (the rest are internal or old).
    #[serde(default)]
    pub model_picker_enabled: bool,
    #[serde(default)]
    pub capabilities: Capabilities,
    /// The API paths the model answers on (`/chat/completions`, `/responses`); older
    /// answers leave it out, and then the model speaks Chat Completions.
    #[serde(default)]
    pub supported_endpoints: Option<Vec<String>>,
    /// `{"state": "enabled" | "disabled" | "unconfigured"}`: a model the organisation's
    /// policy has not enabled answers with an error.
    #[serde(default)]
    pub policy: Option<Policy>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Capabilities {
    #[serde(default)]
    pub family: Option<String>,
    /// `chat`, `embeddings`, `completion`.
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    #[serde(default)]
    pub limits: Limits,
    #[serde(default)]
    pub supports: Supports,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Limits {
    #[serde(default)]
    pub max_context_window_tokens: Option<u32>,
    #[serde(default)]
    pub max_output_tokens: Option<u32>,
    #[serde(default)]
    pub max_prompt_tokens: Option<u32>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Supports {
    #[serde(default)]
    pub tool_calls: Option<bool>,
    #[serde(default)]
    pub streaming: Option<bool>,
    /// The efforts the model takes, where the list says (newer answers).
    #[serde(default)]
    pub reasoning_effort: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Policy {
    #[serde(default)]
    pub state: Option<String>,
}
