//! HTTP for provider calls: rustls, connect and idle timeouts, retry with backoff before the
//! first byte of a response only, and cancellation at any point.
//!
//! The retry loop is ours rather than a retry middleware's: it honours the provider's own
//! hints (`retry-after`, `retry-after-ms`, Gemini's `retryDelay`, clamped), tells the user
//! about each wait, stops at once on cancel, and never repeats a request once it has streamed.

use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use tokio_util::sync::CancellationToken;

use super::error::{ErrorKind, ProviderError, from_status, parse_retry_after, preview};

/// The HTTP client every request goes through, for the faces that hold one.
pub use reqwest::Client;

#[derive(Debug, Clone)]
pub struct HttpConfig {
    pub connect_timeout: Duration,
    /// The longest silence allowed between two pieces of a response (and before the first).
    /// Providers stream reasoning, or send keep-alives, while a model thinks; a minute of
    /// nothing means the stream is stuck.
    pub idle_timeout: Duration,
    /// Retries after the first attempt, for 408/429/5xx/529 and connection failures.
    pub max_retries: u32,
    pub initial_backoff: Duration,
    pub max_backoff: Duration,
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_retries: 3,
            initial_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(30),
        }
    }
}

/// One request, ready to send.
#[derive(Debug, Clone)]
pub struct HttpRequest {
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// Shared, not copied, by each attempt: a body can hold megabytes of files.
    pub body: bytes::Bytes,
}

/// Why an attempt is being repeated, for the caller to show ("retrying in 2 s…").
#[derive(Debug, Clone)]
pub struct RetryNotice {
    pub attempt: u32,
    pub wait: Duration,
    pub error: ProviderError,
}

pub fn client(config: &HttpConfig) -> Result<reqwest::Client, ProviderError> {
    builder(config)
        .build()
        .map_err(|e| ProviderError::network("ponder", format!("cannot set up HTTPS: {e}")))
}

/// A client for one provider at `base_url`. For plain `http://` (a local server) it trusts no
/// certificate authority: reading the system's takes milliseconds, and such a client never
/// needs them, since redirects never leave the origin (an `https://` one is another origin).
pub fn client_for(config: &HttpConfig, base_url: &str) -> Result<reqwest::Client, ProviderError> {
    let plain = reqwest::Url::parse(base_url).is_ok_and(|u| u.scheme() == "http");
    if !plain {
        return client(config);
    }
    builder(config)
        .tls_certs_only([])
        .build()
        .map_err(|e| ProviderError::network("ponder", format!("cannot set up HTTP: {e}")))
}

fn builder(config: &HttpConfig) -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .connect_timeout(config.connect_timeout)
        .redirect(redirect_policy())
        .use_rustls_tls()
}

/// Redirects are followed only within the origin the request went to: a key travels in
/// headers (`x-api-key`, `x-goog-api-key`, `authorization`) that reqwest would carry to any
/// host a server names, and a provider has no reason to send it elsewhere.
fn redirect_policy() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let same_origin = attempt
            .previous()
            .first()
            .is_some_and(|first| first.origin() == attempt.url().origin());
        if attempt.previous().len() > 5 {
            attempt.error("too many redirects")
        } else if same_origin {
            attempt.follow()
        } else {
            attempt.stop()
        }
    })
}

/// Whether a key sent to `url` would cross the network unencrypted: plain `http://` to
/// anything but this machine.
pub fn key_travels_in_clear(url: &str) -> bool {
    let Ok(url) = reqwest::Url::parse(url.trim()) else {
        return false;
    };
    if url.scheme() != "http" {
        return false;
    }
    let Some(host) = url.host_str() else {
        return true;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = host.parse::<std::net::IpAddr>() {
        return !ip.is_loopback();
    }
    let name = host.trim_end_matches('.').to_ascii_lowercase();
    name != "localhost" && !name.ends_with(".localhost")
}

/// Sends the request and returns the response once its status is a success. Errors that may
/// pass are retried with exponential backoff (or the provider's `retry-after`), but only
/// while no byte of a successful response has been read.
pub async fn send(
    client: &reqwest::Client,
    provider: &str,
    request: &HttpRequest,
    config: &HttpConfig,
    cancel: &CancellationToken,
    mut on_retry: impl FnMut(&RetryNotice),
) -> Result<reqwest::Response, AttemptError> {
    let mut attempt = 0;
    loop {
        let error = match attempt_once(client, provider, request, config, cancel).await {
            Ok(response) => return Ok(response),
            Err(AttemptError::Cancelled) => return Err(AttemptError::Cancelled),
            Err(AttemptError::Failed(error)) => error,
        };
        let wait = backoff(config, attempt, error.retry_after);
        let too_long = error.retry_after.is_some_and(|r| r > config.max_backoff);
        if !error.retryable() || attempt >= config.max_retries || too_long {
            return Err(AttemptError::Failed(error));
        }
        attempt += 1;
        on_retry(&RetryNotice {
            attempt,
            wait,
            error,
        });
        tokio::select! {
            () = cancel.cancelled() => return Err(AttemptError::Cancelled),
            () = tokio::time::sleep(wait) => {}
        }
    }
}

/// Why an HTTP exchange ended without a response (or a chunk): it failed, or it was cancelled.
#[derive(Debug, Clone)]
pub enum AttemptError {
    Failed(ProviderError),
    Cancelled,
}

async fn attempt_once(
    client: &reqwest::Client,
    provider: &str,
    request: &HttpRequest,
    config: &HttpConfig,
    cancel: &CancellationToken,
) -> Result<reqwest::Response, AttemptError> {
    let mut headers = HeaderMap::new();
    for (name, value) in &request.headers {
        let name = HeaderName::from_bytes(name.as_bytes()).map_err(|e| {
            AttemptError::Failed(ProviderError::new(
                provider,
                ErrorKind::BadRequest,
                format!("bad header name {name}: {e}"),
            ))
        })?;
        let value = HeaderValue::from_str(value).map_err(|_| {
            AttemptError::Failed(ProviderError::new(
                provider,
                ErrorKind::Auth,
                format!("the value of header {name} is not valid (does the API key contain a line break?)"),
            ))
        })?;
        headers.insert(name, value);
    }
    let send = client
        .post(&request.url)
        .headers(headers)
        .body(request.body.clone())
        .send();
    let response = tokio::select! {
        () = cancel.cancelled() => return Err(AttemptError::Cancelled),
        result = tokio::time::timeout(config.idle_timeout, send) => match result {
            Err(_) => return Err(AttemptError::Failed(ProviderError::network(
                provider,
                format!("no response within {} s", config.idle_timeout.as_secs()),
            ))),
            Ok(Err(err)) => return Err(AttemptError::Failed(network_error(provider, &err))),
            Ok(Ok(response)) => response,
        },
    };
    let status = response.status().as_u16();
    if (200..300).contains(&status) {
        return Ok(response);
    }
    if (300..400).contains(&status) {
        let target = response
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .map_or_else(|| "another address".to_owned(), preview);
        return Err(AttemptError::Failed(ProviderError {
            status: Some(status),
            ..ProviderError::new(
                provider,
                ErrorKind::BadRequest,
                format!(
                    "the provider redirected the request to {target}; Ponder does not send your key to another address. If the API has moved, set that address as the base URL in Settings"
                ),
            )
        }));
    }
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let retry_after = parse_retry_after(
        header("retry-after").as_deref(),
        header("retry-after-ms").as_deref(),
        SystemTime::now(),
    );
    let mut response = response;
    // What a refusal says is read only as far as a person would: a server that answers with
    // an endless error body is cut at the cap, and the error shown is what came before it.
    let body = match read_body(&mut response, provider, MAX_ERROR_BODY, config, cancel).await {
        Ok(body) => body.bytes,
        Err(AttemptError::Cancelled) => return Err(AttemptError::Cancelled),
        Err(AttemptError::Failed(_)) => Vec::new(),
    };
    Err(AttemptError::Failed(from_status(
        provider,
        status,
        retry_after,
        &body,
    )))
}

/// The wait before retry number `attempt + 1`: the provider's `retry-after` when it gave one,
/// else 0.5 s, 1 s, 2 s… capped.
pub fn backoff(config: &HttpConfig, attempt: u32, retry_after: Option<Duration>) -> Duration {
    if let Some(wait) = retry_after {
        return wait.min(config.max_backoff);
    }
    let factor = 2u32.saturating_pow(attempt.min(16));
    config
        .initial_backoff
        .saturating_mul(factor)
        .min(config.max_backoff)
}

pub fn network_error(provider: &str, err: &reqwest::Error) -> ProviderError {
    let what = if err.is_connect() {
        "could not connect"
    } else if err.is_timeout() {
        "timed out"
    } else if err.is_body() || err.is_decode() {
        "the connection broke while reading the answer"
    } else {
        "network error"
    };
    // reqwest's own text names the URL and the cause chain; keep the innermost cause.
    let mut cause = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(inner) = source {
        cause = inner.to_string();
        source = inner.source();
    }
    ProviderError::network(provider, format!("{what}: {cause}"))
}

/// The most of an error response that is read: its message is in the first lines.
pub const MAX_ERROR_BODY: usize = 1024 * 1024;

/// The most of a whole (not streamed) response that is read, such as a model list.
pub const MAX_WHOLE_BODY: usize = 16 * 1024 * 1024;

/// A body read up to a cap: its bytes, and whether more was left unread.
#[derive(Debug, Default)]
pub struct CappedBody {
    pub bytes: Vec<u8>,
    pub cut: bool,
}

/// Reads a response's body to its end or to `limit` bytes, whichever comes first, each
/// piece within the idle timeout and stopping at once on cancel. `reqwest`'s own
/// `bytes()` would hold any size a server sends, for as long as it takes to send it.
pub async fn read_body(
    response: &mut reqwest::Response,
    provider: &str,
    limit: usize,
    config: &HttpConfig,
    cancel: &CancellationToken,
) -> Result<CappedBody, AttemptError> {
    let mut body = CappedBody::default();
    while let Some(chunk) = next_chunk(response, provider, config, cancel).await? {
        let room = limit - body.bytes.len();
        if chunk.len() > room {
            body.bytes.extend_from_slice(&chunk[..room]);
            body.cut = true;
            break;
        }
        body.bytes.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// [`read_body`] for a body that must be whole to be read at all: one over `limit` is an
/// error that names `what` was read ("the Copilot token exchange was over 1 MiB").
pub async fn read_whole_body(
    response: &mut reqwest::Response,
    provider: &str,
    what: &str,
    limit: usize,
    config: &HttpConfig,
    cancel: &CancellationToken,
) -> Result<Vec<u8>, AttemptError> {
    let body = read_body(response, provider, limit, config, cancel).await?;
    if body.cut {
        return Err(AttemptError::Failed(ProviderError::decode(
            provider,
            format!(
                "{what} was over {}; Ponder stops reading at that size",
                size(limit)
            ),
        )));
    }
    Ok(body.bytes)
}

/// `1 MiB`, `64 KiB`.
fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

/// Reads the next piece of a streaming body, or `None` at its end.
pub async fn next_chunk(
    response: &mut reqwest::Response,
    provider: &str,
    config: &HttpConfig,
    cancel: &CancellationToken,
) -> Result<Option<bytes::Bytes>, AttemptError> {
    tokio::select! {
        () = cancel.cancelled() => Err(AttemptError::Cancelled),
        result = tokio::time::timeout(config.idle_timeout, response.chunk()) => match result {
            Err(_) => Err(AttemptError::Failed(ProviderError::network(
                provider,
                format!("the provider went silent for {} s in the middle of its answer", config.idle_timeout.as_secs()),
            ))),
            Ok(Err(err)) => Err(AttemptError::Failed(network_error(provider, &err))),
            Ok(Ok(chunk)) => Ok(chunk),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_in_clear_are_plain_http_beyond_this_machine() {
        for (url, clear) in [
            ("https://api.anthropic.com", false),
            ("http://127.0.0.1:8080/v1", false),
            ("http://127.9.9.9", false),
            ("http://[::1]:11434", false),
            ("http://localhost:11434", false),
            ("http://LOCALHOST.:1234", false),
            ("http://ollama.localhost", false),
            ("http://192.168.1.20:11434", true),
            ("http://example.com/v1", true),
            ("http://localhost.example.com", true),
            ("not a url", false),
        ] {
            assert_eq!(key_travels_in_clear(url), clear, "{url}");
        }
    }

    #[test]
    fn backoff_doubles_and_honours_retry_after() {
        let config = HttpConfig::default();
        assert_eq!(backoff(&config, 0, None), Duration::from_millis(500));
        assert_eq!(backoff(&config, 1, None), Duration::from_secs(1));
        assert_eq!(backoff(&config, 2, None), Duration::from_secs(2));
        assert_eq!(backoff(&config, 30, None), config.max_backoff);
        assert_eq!(
            backoff(&config, 0, Some(Duration::from_secs(7))),
            Duration::from_secs(7)
        );
    }
}
