//! GitHub Copilot: signing in with GitHub (the device flow), the short-lived Copilot token,
//! and the Copilot API's model list. Requests themselves speak the OpenAI protocols
//! (`openai_chat`, `openai_responses`); the catalog routes each family to its API.

pub mod device;
pub mod error;
pub mod hosts;
pub mod models;
pub mod token;
pub mod usage;
pub mod wire;

pub use error::CopilotError;
pub use hosts::Hosts;
pub use token::{Credentials, TokenCache};

use futures::future::BoxFuture;

use crate::providers::error::{ProviderError, from_status};
use crate::providers::http::network_error;

/// Who is asking, in the form GitHub's Copilot endpoints expect of an editor.
pub const USER_AGENT: &str = concat!("Ponder/", env!("CARGO_PKG_VERSION"));
pub const EDITOR_VERSION: &str = concat!("Ponder/", env!("CARGO_PKG_VERSION"));
pub const EDITOR_PLUGIN_VERSION: &str = concat!("ponder/", env!("CARGO_PKG_VERSION"));

/// The headers every Copilot API request carries: who the client is (the API refuses a
/// request without an integration id and an editor version) and what the request is for.
pub fn api_headers() -> Vec<(String, String)> {
    [
        ("copilot-integration-id", "vscode-chat"),
        ("editor-version", EDITOR_VERSION),
        ("editor-plugin-version", EDITOR_PLUGIN_VERSION),
        ("user-agent", USER_AGENT),
        ("openai-intent", "conversation-panel"),
        ("x-github-api-version", "2025-05-01"),
        // A question the user asked, not a step an agent took on its own: Copilot counts
        // premium requests by it.
        ("x-initiator", "user"),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), value.to_owned()))
    .collect()
}

/// The models the account may use right now.
pub async fn fetch_models(
    client: &reqwest::Client,
    credentials: &Credentials,
) -> Result<Vec<models::CopilotModel>, ProviderError> {
    let url = format!("{}/models", credentials.api_base);
    let mut request = client
        .get(url)
        .header("authorization", format!("Bearer {}", credentials.token))
        .header("accept", "application/json");
    for (name, value) in api_headers() {
        request = request.header(name, value);
    }
    let (status, body) = fetch(request).await?;
    if status >= 400 {
        return Err(from_status(error::PROVIDER, status, None, &body));
    }
    models::parse(&body).map_err(|e| ProviderError::unreadable_response(error::PROVIDER, &e))
}

/// Sends a request to GitHub or Copilot and reads the whole answer: its status and body.
pub(crate) async fn fetch(
    request: reqwest::RequestBuilder,
) -> Result<(u16, bytes::Bytes), ProviderError> {
    let response = request
        .send()
        .await
        .map_err(|e| network_error(error::PROVIDER, &e))?;
    let status = response.status().as_u16();
    let body = response
        .bytes()
        .await
        .map_err(|e| network_error(error::PROVIDER, &e))?;
    Ok((status, body))
}

/// The GitHub address to sign in at: the user's own (GitHub Enterprise), else github.com.
pub fn hosts_for(address: Option<&str>) -> Result<Hosts, CopilotError> {
    match address.map(str::trim).filter(|a| !a.is_empty()) {
        Some(address) => Hosts::new(address).map_err(CopilotError::BadHost),
        None => Ok(Hosts::github()),
    }
}

/// A signed-in account with a Copilot token good for a while yet: what a turn or a model
/// list needs.
pub struct Session {
    pub hosts: Hosts,
    github_token: String,
    pub credentials: Credentials,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("hosts", &self.hosts)
            .field("credentials", &self.credentials)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Exchanges (or reuses) the Copilot token for the GitHub token kept in the keyring.
    pub async fn start(
        cache: &TokenCache,
        client: &reqwest::Client,
        address: Option<&str>,
        github_token: &str,
    ) -> Result<Self, CopilotError> {
        if github_token.trim().is_empty() {
            return Err(CopilotError::NotSignedIn);
        }
        let hosts = hosts_for(address)?;
        let credentials = cache.credentials(client, &hosts, github_token).await?;
        Ok(Self {
            hosts,
            github_token: github_token.to_owned(),
            credentials,
        })
    }

    /// What renews the token when a turn's is refused.
    pub fn renewer<'a>(
        &'a self,
        cache: &'a TokenCache,
        client: &'a reqwest::Client,
    ) -> Renewer<'a> {
        Renewer {
            cache,
            client,
            hosts: &self.hosts,
            github_token: &self.github_token,
        }
    }
}

/// Renews the Copilot token of one signed-in account when the API refuses the one a turn
/// sent (it expired while the conversation went on).
pub struct Renewer<'a> {
    pub cache: &'a TokenCache,
    pub client: &'a reqwest::Client,
    pub hosts: &'a Hosts,
    pub github_token: &'a str,
}

impl std::fmt::Debug for Renewer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renewer")
            .field("hosts", self.hosts)
            .finish_non_exhaustive()
    }
}

impl crate::run::RenewKey for Renewer<'_> {
    fn renew<'a>(
        &'a self,
        refused: Option<&'a str>,
    ) -> BoxFuture<'a, Result<String, ProviderError>> {
        Box::pin(async move {
            self.cache
                .renewed(self.client, self.hosts, self.github_token, refused)
                .await
                .map(|c| c.token)
                .map_err(CopilotError::into_provider_error)
        })
    }
}
