//! The Copilot token: exchanged for the GitHub token, kept in memory only (never written
//! anywhere), used until shortly before it expires, and fetched again once when the API
//! says it is no longer good.

use std::hash::{Hash, Hasher};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio_util::sync::CancellationToken;

use super::error::{CopilotError, PROVIDER};
use super::hosts::Hosts;
use super::wire::{CopilotTokenResponse, GithubError};
use crate::providers::error::{ProviderError, from_status};
use crate::providers::http::HttpConfig;
use crate::sync::Locked;

/// How long before it expires a token is replaced, when the exchange does not say.
const EARLY: Duration = Duration::from_secs(5 * 60);

/// The longest a Copilot token is taken to be good for, whatever the exchange says (GitHub's
/// last half an hour): a later time is asked again at this age, and one past what a clock
/// can hold is no panic.
const LONGEST: Duration = Duration::from_secs(60 * 60);

/// What a Copilot API request needs: the short-lived token and where to send it.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    pub token: String,
    /// The Copilot API for this account (`https://api.individual.githubcopilot.com`).
    pub api_base: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("token", &"…")
            .field("api_base", &self.api_base)
            .finish()
    }
}

/// One exchange's answer.
#[derive(Clone)]
pub struct Exchanged {
    pub credentials: Credentials,
    /// When to fetch a new one (before it expires).
    pub renew_at: SystemTime,
    pub expires_at: SystemTime,
}

/// Exchanges the GitHub token for a Copilot token, within `config`'s idle timeout for each
/// silence, stopped at once by `cancel`.
pub async fn exchange(
    client: &reqwest::Client,
    hosts: &Hosts,
    github_token: &str,
    config: &HttpConfig,
    cancel: &CancellationToken,
) -> Result<Exchanged, CopilotError> {
    let request = client
        .get(hosts.copilot_token_url())
        .header("authorization", format!("token {github_token}"))
        .header("accept", "application/json")
        .header("user-agent", super::USER_AGENT)
        .header("editor-version", super::EDITOR_VERSION)
        .header("editor-plugin-version", super::EDITOR_PLUGIN_VERSION);
    let answer = super::Answer {
        what: "GitHub's answer to the Copilot token exchange",
        max: super::MAX_ANSWER,
    };
    let (status, body) = super::fetch(request, answer, config, cancel).await?;
    read_exchange(status, &body, hosts, SystemTime::now())
}

/// The exchange's answer read: the token with its times, or what the user must do.
pub fn read_exchange(
    status: u16,
    body: &[u8],
    hosts: &Hosts,
    now: SystemTime,
) -> Result<Exchanged, CopilotError> {
    match status {
        200..=299 => {}
        401 => return Err(CopilotError::SignInRevoked),
        403 | 404 => {
            let error: GithubError = serde_json::from_slice(body).unwrap_or_default();
            let details = error.error_details.unwrap_or_default();
            let mut why = details
                .message
                .or(error.message)
                .unwrap_or_else(|| "GitHub says it has no Copilot subscription".to_owned());
            if let Some(url) = details.url {
                why = format!("{why} ({url})");
            }
            return Err(CopilotError::NoCopilot(why));
        }
        _ => return Err(from_status(PROVIDER, status, None, body).into()),
    }
    let answer: CopilotTokenResponse = serde_json::from_slice(body)
        .map_err(|e| ProviderError::unreadable_response(PROVIDER, &e))?;
    if answer.token.trim().is_empty() {
        return Err(
            ProviderError::decode(PROVIDER, "GitHub's answer held no Copilot token").into(),
        );
    }
    let (renew_at, expires_at) = times(answer.expires_at, answer.refresh_in, now);
    let api_base = match answer
        .endpoints
        .and_then(|e| e.api)
        .filter(|api| !api.trim().is_empty())
    {
        Some(named) => hosts.copilot_api(&named)?,
        None => hosts.default_api(),
    };
    Ok(Exchanged {
        credentials: Credentials {
            token: answer.token,
            api_base,
        },
        renew_at,
        expires_at,
    })
}

/// When to renew a token and when it expires, from the exchange's Unix time and seconds,
/// neither later than [`LONGEST`] from `now`.
fn times(expires_at: u64, refresh_in: Option<u64>, now: SystemTime) -> (SystemTime, SystemTime) {
    let latest = now + LONGEST;
    let expires_at = UNIX_EPOCH
        .checked_add(Duration::from_secs(expires_at))
        .map_or(latest, |at| at.min(latest));
    let renew_at = match refresh_in {
        Some(secs) => now
            .checked_add(Duration::from_secs(secs))
            .map_or(expires_at, |at| at.min(expires_at)),
        None => expires_at.checked_sub(EARLY).unwrap_or(expires_at),
    };
    (renew_at, expires_at)
}

/// The Copilot token of the signed-in account, in memory. One exchange runs at a time;
/// everyone else waits for its answer rather than starting another.
#[derive(Default)]
pub struct TokenCache {
    slot: std::sync::Mutex<Option<Cached>>,
    /// Held while exchanging, so that one exchange runs at a time.
    exchanging: tokio::sync::Mutex<()>,
}

struct Cached {
    /// Which GitHub host and token it was exchanged for (a hash: the GitHub token itself is
    /// read from the keyring each time, not kept here).
    source: u64,
    exchanged: Exchanged,
}

impl std::fmt::Debug for TokenCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenCache").finish_non_exhaustive()
    }
}

impl TokenCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// A Copilot token good for a while yet: the one held, else a new exchange.
    pub async fn credentials(
        &self,
        client: &reqwest::Client,
        hosts: &Hosts,
        github_token: &str,
        config: &HttpConfig,
        cancel: &CancellationToken,
    ) -> Result<Credentials, CopilotError> {
        let wanted = Wanted {
            hosts,
            github_token,
            refused: None,
        };
        self.get(client, wanted, config, cancel).await
    }

    /// A token other than `refused`, which the API would not take: the one held if it is
    /// newer (another turn renewed it meanwhile), else a new exchange.
    pub async fn renewed(
        &self,
        client: &reqwest::Client,
        hosts: &Hosts,
        github_token: &str,
        refused: Option<&str>,
        config: &HttpConfig,
        cancel: &CancellationToken,
    ) -> Result<Credentials, CopilotError> {
        let wanted = Wanted {
            hosts,
            github_token,
            refused: Some(refused.unwrap_or_default()),
        };
        self.get(client, wanted, config, cancel).await
    }

    /// Drops the token held (signing out).
    pub fn forget(&self) {
        *self.held() = None;
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Option<Cached>> {
        self.slot.locked()
    }

    fn usable(&self, source: u64, refused: Option<&str>) -> Option<Credentials> {
        self.held()
            .as_ref()
            .filter(|cached| {
                cached.source == source
                    && SystemTime::now() < cached.exchanged.renew_at
                    && refused.is_none_or(|r| r != cached.exchanged.credentials.token)
            })
            .map(|cached| cached.exchanged.credentials.clone())
    }

    async fn get(
        &self,
        client: &reqwest::Client,
        wanted: Wanted<'_>,
        config: &HttpConfig,
        cancel: &CancellationToken,
    ) -> Result<Credentials, CopilotError> {
        let source = source_of(wanted.hosts, wanted.github_token);
        if let Some(credentials) = self.usable(source, wanted.refused) {
            return Ok(credentials);
        }
        // Waiting for another caller's exchange is stopped as the exchange itself is.
        let _exchanging = tokio::select! {
            () = cancel.cancelled() => return Err(CopilotError::Cancelled),
            held = self.exchanging.lock() => held,
        };
        // Another caller may have exchanged while this one waited.
        if let Some(credentials) = self.usable(source, wanted.refused) {
            return Ok(credentials);
        }
        let exchanged = exchange(client, wanted.hosts, wanted.github_token, config, cancel).await?;
        let credentials = exchanged.credentials.clone();
        *self.held() = Some(Cached { source, exchanged });
        Ok(credentials)
    }
}

/// The token a caller wants: for which account, and not the one the API refused.
#[derive(Clone, Copy)]
struct Wanted<'a> {
    hosts: &'a Hosts,
    github_token: &'a str,
    refused: Option<&'a str>,
}

fn source_of(hosts: &Hosts, github_token: &str) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    hosts.web().hash(&mut hasher);
    github_token.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(1_764_000_000)
    }

    #[test]
    fn the_token_its_api_and_when_to_renew_it_are_read() {
        let body = br#"{"annotations_enabled":true,"chat_enabled":true,"endpoints":{"api":"https://api.individual.githubcopilot.com/","origin-tracker":"https://origin-tracker.individual.githubcopilot.com","proxy":"https://proxy.individual.githubcopilot.com","telemetry":"https://telemetry.individual.githubcopilot.com"},"expires_at":1764001800,"refresh_in":1500,"sku":"copilot_for_individuals_subscriber","token":"tid=FAKE-not-real;exp=1764001800;sku=free_limited_copilot:FAKE"}"#;
        let got = read_exchange(200, body, &Hosts::github(), now()).unwrap();
        assert_eq!(
            got.credentials.api_base,
            "https://api.individual.githubcopilot.com"
        );
        assert!(got.credentials.token.starts_with("tid=FAKE-not-real"));
        assert_eq!(got.renew_at, now() + Duration::from_secs(1500));
        assert_eq!(got.expires_at, now() + Duration::from_secs(1800));
        assert!(
            !format!("{:?}", got.credentials).contains("FAKE"),
            "Debug hides the token"
        );
    }

    #[test]
    fn without_refresh_in_or_endpoints_the_defaults_apply() {
        let body = br#"{"token":"FAKE-copilot-not-real","expires_at":1764001800}"#;
        let got = read_exchange(200, body, &Hosts::github(), now()).unwrap();
        assert_eq!(got.credentials.api_base, "https://api.githubcopilot.com");
        assert_eq!(got.renew_at, now() + Duration::from_secs(1500));
    }

    #[test]
    fn absurd_times_from_the_exchange_are_clamped_not_a_panic() {
        let body = br#"{"token":"FAKE-copilot-not-real","expires_at":18446744073709551615,"refresh_in":18446744073709551615}"#;
        let got = read_exchange(200, body, &Hosts::github(), now()).unwrap();
        assert!(got.expires_at <= now() + LONGEST, "{:?}", got.expires_at);
        assert!(got.renew_at <= got.expires_at);
        assert!(got.renew_at > now());

        let body = br#"{"token":"FAKE-copilot-not-real","expires_at":18446744073709551615}"#;
        let got = read_exchange(200, body, &Hosts::github(), now()).unwrap();
        assert!(got.renew_at < got.expires_at && got.expires_at <= now() + LONGEST);

        // Long gone already: used for this once, exchanged again next time.
        let body = br#"{"token":"FAKE-copilot-not-real","expires_at":0,"refresh_in":0}"#;
        let got = read_exchange(200, body, &Hosts::github(), now()).unwrap();
        assert!(got.renew_at <= now());
    }

    #[test]
    fn an_exchange_naming_an_api_that_is_not_copilots_is_refused() {
        for api in [
            "https://evil.example",
            "http://api.githubcopilot.com",
            "https://api.githubcopilot.com.evil.example",
            "http://127.0.0.1:4010",
        ] {
            let body = format!(
                r#"{{"token":"FAKE-copilot-not-real","expires_at":1764001800,"endpoints":{{"api":"{api}"}}}}"#
            );
            let err = read_exchange(200, body.as_bytes(), &Hosts::github(), now())
                .err()
                .unwrap_or_else(|| panic!("{api} was taken as Copilot's API"));
            assert!(err.to_string().contains("not a Copilot address"), "{err}");
        }
    }

    #[test]
    fn each_refusal_says_what_to_do() {
        let hosts = Hosts::github();
        let revoked = read_exchange(
            401,
            br#"{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}"#,
            &hosts,
            now(),
        );
        assert_eq!(revoked.err(), Some(CopilotError::SignInRevoked));
        let none = read_exchange(
            403,
            br#"{"error_details":{"url":"https://github.com/features/copilot?utm_source=editor","message":"No access to GitHub Copilot found. You are currently logged in as octocat.","title":"Get access to GitHub Copilot","notification_id":"no_copilot_access"},"message":"Resource not accessible by integration"}"#,
            &hosts,
            now(),
        )
        .err()
        .unwrap();
        let text = none.to_string();
        assert!(text.contains("No access to GitHub Copilot found"), "{text}");
        assert!(
            text.contains("https://github.com/features/copilot"),
            "{text}"
        );
        let plain = read_exchange(404, b"Not Found", &hosts, now())
            .err()
            .unwrap();
        assert!(matches!(plain, CopilotError::NoCopilot(_)), "{plain:?}");
        let server = read_exchange(502, b"<html><title>Unicorn!</title></html>", &hosts, now())
            .err()
            .unwrap()
            .into_provider_error();
        assert_eq!(server.status, Some(502));
        let garbled = read_exchange(200, b"{\"token\":", &hosts, now())
            .err()
            .unwrap();
        assert!(garbled.to_string().contains("unreadable"), "{garbled}");
    }
}
