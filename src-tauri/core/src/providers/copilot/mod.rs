//! GitHub Copilot: signing in with GitHub (the device flow), the short-lived Copilot token,
//! and the Copilot API's model list. Requests themselves speak the OpenAI protocols
//! (`openai_chat`, `openai_responses`); the catalog routes each family to its API.

pub mod device;
pub mod error;
pub mod hosts;
pub mod models;
pub mod token;
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

/// The models the account may use right now.
pub async fn fetch_models(
    client: &reqwest::Client,
    credentials: &Credentials,
    headers: &std::collections::BTreeMap<String, String>,
) -> Result<Vec<models::CopilotModel>, ProviderError> {
    let url = format!("{}/models", credentials.api_base);
    let mut request = client
        .get(url)
        .header("authorization", format!("Bearer {}", credentials.token))
        .header("accept", "application/json");
    for (name, value) in headers {
        request = request.header(name, value);
    }
    let response = request
        .send()
        .await
        .map_err(|e| network_error(error::PROVIDER, &e))?;
    let status = response.status().as_u16();
    let body = response
        .bytes()
        .await
        .map_err(|e| network_error(error::PROVIDER, &e))?;
    if status >= 400 {
        return Err(from_status(error::PROVIDER, status, None, &body));
    }
    models::parse(&body).map_err(|e| ProviderError::unreadable_response(error::PROVIDER, &e))
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
