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
use tokio_util::sync::CancellationToken;

use crate::providers::error::{ProviderError, from_status};
use crate::providers::http::{AttemptError, HttpConfig, network_error, read_whole_body};

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

/// The most of an answer from GitHub's sign-in or token exchange that is read: GitHub's are
/// a few hundred bytes.
pub const MAX_ANSWER: usize = 1 << 20;

/// The most of a model list that is read: Copilot's is ~10 KiB for a few dozen models.
pub const MAX_MODEL_LIST: usize = 16 << 20;

/// The models the account may use right now. `config`'s idle timeout bounds each silence of
/// the Copilot API; `cancel` stops the wait at once.
pub async fn fetch_models(
    client: &reqwest::Client,
    credentials: &Credentials,
    config: &HttpConfig,
    cancel: &CancellationToken,
) -> Result<Vec<models::CopilotModel>, CopilotError> {
    let url = format!("{}/models", credentials.api_base);
    let mut request = client
        .get(url)
        .header("authorization", format!("Bearer {}", credentials.token))
        .header("accept", "application/json");
    for (name, value) in api_headers() {
        request = request.header(name, value);
    }
    let what = Answer {
        what: "Copilot's model list",
        max: MAX_MODEL_LIST,
    };
    let (status, body) = fetch(request, what, config, cancel).await?;
    if status >= 400 {
        return Err(from_status(error::PROVIDER, status, None, &body).into());
    }
    models::parse(&body).map_err(|e| ProviderError::unreadable_response(error::PROVIDER, &e).into())
}

/// What an answer is, for the error that says it was too long, and how long it may be.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Answer {
    pub what: &'static str,
    pub max: usize,
}

/// Sends a request to GitHub or Copilot and reads the whole answer: its status and body. No
/// silence (before the answer or within it) may last longer than `config`'s idle timeout, the
/// body no longer than `answer.max`, and `cancel` stops it all at once.
pub(crate) async fn fetch(
    request: reqwest::RequestBuilder,
    answer: Answer,
    config: &HttpConfig,
    cancel: &CancellationToken,
) -> Result<(u16, Vec<u8>), CopilotError> {
    let mut response = tokio::select! {
        () = cancel.cancelled() => return Err(CopilotError::Cancelled),
        sent = tokio::time::timeout(config.idle_timeout, request.send()) => match sent {
            Err(_) => return Err(ProviderError::network(
                error::PROVIDER,
                format!("{} did not come within {} s", answer.what, config.idle_timeout.as_secs()),
            ).into()),
            Ok(Err(err)) => return Err(network_error(error::PROVIDER, &err).into()),
            Ok(Ok(response)) => response,
        },
    };
    let status = response.status().as_u16();
    let read = read_whole_body(
        &mut response,
        error::PROVIDER,
        answer.what,
        answer.max,
        config,
        cancel,
    )
    .await;
    match read {
        Ok(body) => Ok((status, body)),
        Err(AttemptError::Cancelled) => Err(CopilotError::Cancelled),
        Err(AttemptError::Failed(error)) => Err(error.into()),
    }
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
    /// Exchanges (or reuses) the Copilot token for the GitHub token signed in at `hosts`.
    /// `config`'s idle timeout bounds each silence of GitHub; `cancel` (a turn's Stop) ends
    /// the wait at once, also a wait for another caller's exchange.
    pub async fn start(
        cache: &TokenCache,
        client: &reqwest::Client,
        hosts: Hosts,
        github_token: &str,
        config: &HttpConfig,
        cancel: &CancellationToken,
    ) -> Result<Self, CopilotError> {
        if github_token.trim().is_empty() {
            return Err(CopilotError::NotSignedIn);
        }
        let credentials = cache
            .credentials(client, &hosts, github_token, config, cancel)
            .await?;
        Ok(Self {
            hosts,
            github_token: github_token.to_owned(),
            credentials,
        })
    }

    /// What renews the token when a turn's is refused, bounded and stopped as `start` is.
    pub fn renewer<'a>(
        &'a self,
        cache: &'a TokenCache,
        client: &'a reqwest::Client,
        config: &'a HttpConfig,
        cancel: &CancellationToken,
    ) -> Renewer<'a> {
        Renewer {
            cache,
            client,
            hosts: &self.hosts,
            github_token: &self.github_token,
            config,
            cancel: cancel.clone(),
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
    pub config: &'a HttpConfig,
    pub cancel: CancellationToken,
}

impl std::fmt::Debug for Renewer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renewer")
            .field("hosts", self.hosts)
            .finish_non_exhaustive()
    }
}

impl crate::providers::auth::RenewKey for Renewer<'_> {
    fn renew<'a>(
        &'a self,
        refused: Option<&'a str>,
    ) -> BoxFuture<'a, Result<String, ProviderError>> {
        Box::pin(async move {
            self.cache
                .renewed(
                    self.client,
                    self.hosts,
                    self.github_token,
                    refused,
                    self.config,
                    &self.cancel,
                )
                .await
                .map(|c| c.token)
                .map_err(CopilotError::into_provider_error)
        })
    }
}
