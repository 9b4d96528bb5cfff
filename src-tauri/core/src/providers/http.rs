//! HTTP for provider calls: rustls, connect and idle timeouts, retry with backoff before the
//! first byte of a response only, and cancellation at any point.

use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use tokio_util::sync::CancellationToken;

use super::error::{ErrorKind, ProviderError, from_status, parse_retry_after};

#[derive(Debug, Clone)]
pub struct HttpConfig {
    pub connect_timeout: Duration,
    /// The longest silence allowed between two pieces of a response (and before the first):
    /// reasoning models can think for a while before they say anything.
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
            idle_timeout: Duration::from_secs(180),
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
    pub body: Vec<u8>,
}

/// Why an attempt is being repeated, for the caller to show ("retrying in 2 s…").
#[derive(Debug, Clone)]
pub struct RetryNotice {
    pub attempt: u32,
    pub wait: Duration,
    pub error: ProviderError,
}

pub fn client(config: &HttpConfig) -> Result<reqwest::Client, ProviderError> {
    reqwest::Client::builder()
        .connect_timeout(config.connect_timeout)
        .use_rustls_tls()
        .build()
        .map_err(|e| ProviderError::network("ponder", format!("cannot set up HTTPS: {e}")))
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
) -> Result<reqwest::Response, Attempt> {
    let mut attempt = 0;
    loop {
        let error = match attempt_once(client, provider, request, config, cancel).await {
            Ok(response) => return Ok(response),
            Err(Attempt::Cancelled) => return Err(Attempt::Cancelled),
            Err(Attempt::Failed(error)) => error,
        };
        let wait = backoff(config, attempt, error.retry_after);
        let too_long = error.retry_after.is_some_and(|r| r > config.max_backoff);
        if !error.retryable() || attempt >= config.max_retries || too_long {
            return Err(Attempt::Failed(error));
        }
        attempt += 1;
        on_retry(&RetryNotice {
            attempt,
            wait,
            error,
        });
        tokio::select! {
            () = cancel.cancelled() => return Err(Attempt::Cancelled),
            () = tokio::time::sleep(wait) => {}
        }
    }
}

#[derive(Debug, Clone)]
pub enum Attempt {
    Failed(ProviderError),
    Cancelled,
}

async fn attempt_once(
    client: &reqwest::Client,
    provider: &str,
    request: &HttpRequest,
    config: &HttpConfig,
    cancel: &CancellationToken,
) -> Result<reqwest::Response, Attempt> {
    let mut headers = HeaderMap::new();
    for (name, value) in &request.headers {
        let name = HeaderName::from_bytes(name.as_bytes()).map_err(|e| {
            Attempt::Failed(ProviderError::new(
                provider,
                ErrorKind::BadRequest,
                format!("bad header name {name}: {e}"),
            ))
        })?;
        let value = HeaderValue::from_str(value).map_err(|_| {
            Attempt::Failed(ProviderError::new(
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
        () = cancel.cancelled() => return Err(Attempt::Cancelled),
        result = tokio::time::timeout(config.idle_timeout, send) => match result {
            Err(_) => return Err(Attempt::Failed(ProviderError::network(
                provider,
                format!("no response within {} s", config.idle_timeout.as_secs()),
            ))),
            Ok(Err(err)) => return Err(Attempt::Failed(network_error(provider, &err))),
            Ok(Ok(response)) => response,
        },
    };
    let status = response.status().as_u16();
    if (200..300).contains(&status) {
        return Ok(response);
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
    let body = tokio::select! {
        () = cancel.cancelled() => return Err(Attempt::Cancelled),
        body = tokio::time::timeout(config.idle_timeout, response.bytes()) => match body {
            Ok(Ok(bytes)) => bytes.to_vec(),
            _ => Vec::new(),
        },
    };
    Err(Attempt::Failed(from_status(
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

/// Reads the next piece of a streaming body, or `None` at its end.
pub async fn next_chunk(
    response: &mut reqwest::Response,
    provider: &str,
    config: &HttpConfig,
    cancel: &CancellationToken,
) -> Result<Option<bytes::Bytes>, Attempt> {
    tokio::select! {
        () = cancel.cancelled() => Err(Attempt::Cancelled),
        result = tokio::time::timeout(config.idle_timeout, response.chunk()) => match result {
            Err(_) => Err(Attempt::Failed(ProviderError::network(
                provider,
                format!("the provider went silent for {} s in the middle of its answer", config.idle_timeout.as_secs()),
            ))),
            Ok(Err(err)) => Err(Attempt::Failed(network_error(provider, &err))),
            Ok(Ok(chunk)) => Ok(chunk),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
