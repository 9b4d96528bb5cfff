//! Provider failures as one typed error: from an HTTP status and body, or from an error that
//! arrives inside a stream (including inside a 200 response).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ErrorKind {
    /// Missing, wrong or unauthorised key (401, 403).
    Auth,
    /// Too many requests (429); may carry a retry-after.
    RateLimited,
    /// The account is out of credit or quota; retrying does not help.
    Quota,
    /// The provider is overloaded (503, 529, Anthropic `overloaded_error`).
    Overloaded,
    /// The conversation does not fit the model's context window (or 413).
    ContextTooLong,
    /// The provider rejected the request (400, 404, 422…) with its own message.
    BadRequest,
    /// No connection, a reset, a timeout, or a stream that stopped.
    Network,
    /// The response could not be read (not JSON, a malformed line, an HTML page on 200).
    Decode,
    /// The provider failed (500, 502, 504, other 5xx).
    Server,
    /// Ponder itself failed while running the turn (a bug); what arrived is kept.
    Internal,
}

impl ErrorKind {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("{provider}: {message}")]
pub struct ProviderError {
    pub provider: String,
    pub kind: ErrorKind,
    pub status: Option<u16>,
    /// The provider's own words where it gave any.
    pub message: String,
    #[serde(with = "millis", skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<Duration>,
}

impl ProviderError {
    pub fn new(provider: &str, kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            provider: provider.to_owned(),
            kind,
            status: None,
            message: message.into(),
            retry_after: None,
        }
    }

    pub fn network(provider: &str, message: impl Into<String>) -> Self {
        Self::new(provider, ErrorKind::Network, message)
    }

    pub fn decode(provider: &str, message: impl Into<String>) -> Self {
        Self::new(provider, ErrorKind::Decode, message)
    }

    /// A piece of a stream that is not the JSON its protocol promises.
    pub fn unreadable(provider: &str, err: &serde_json::Error, data: &str) -> Self {
        Self::decode(
            provider,
            format!(
                "unreadable data from the provider ({err}): {}",
                preview(data)
            ),
        )
    }

    /// A whole response that is not the JSON its protocol promises.
    pub fn unreadable_response(provider: &str, err: &serde_json::Error) -> Self {
        Self::decode(provider, format!("unreadable response ({err})"))
    }

    /// Whether trying again, before any byte of a response arrived, may succeed:
    /// 408, 429, 5xx, 529 and connection failures, but never a spent quota.
    pub fn retryable(&self) -> bool {
        match self.kind {
            ErrorKind::RateLimited | ErrorKind::Overloaded | ErrorKind::Server => true,
            ErrorKind::Network => true,
            ErrorKind::Quota
            | ErrorKind::Auth
            | ErrorKind::ContextTooLong
            | ErrorKind::BadRequest
            | ErrorKind::Decode
            | ErrorKind::Internal => self.status == Some(408),
        }
    }
}

/// Turns an HTTP error status and its body into a typed error.
pub fn from_status(
    provider: &str,
    status: u16,
    retry_after: Option<Duration>,
    body: &[u8],
) -> ProviderError {
    let text = String::from_utf8_lossy(body);
    let parsed: Option<Value> = serde_json::from_slice(body).ok();
    let details = parsed.as_ref().map(envelope);
    let provider_message = details
        .as_ref()
        .and_then(|d| d.message.clone())
        .or_else(|| {
            html_title(&text).map(|t| format!("the provider answered with an HTML page: {t}"))
        })
        .or_else(|| {
            let trimmed = text.trim();
            (!trimmed.is_empty() && trimmed.len() <= 300 && !trimmed.starts_with('<'))
                .then(|| trimmed.to_owned())
        });
    let code = details
        .as_ref()
        .and_then(|d| d.code.clone())
        .unwrap_or_default();
    let lower =
        format!("{code} {}", provider_message.as_deref().unwrap_or("")).to_ascii_lowercase();
    let kind = if is_quota(&lower) {
        ErrorKind::Quota
    } else if is_context_too_long(&lower) || status == 413 {
        ErrorKind::ContextTooLong
    } else {
        match status {
            401 | 403 => ErrorKind::Auth,
            402 => ErrorKind::Quota,
            408 => ErrorKind::Network,
            429 => ErrorKind::RateLimited,
            503 | 529 => ErrorKind::Overloaded,
            500..=599 => ErrorKind::Server,
            _ if lower.contains("overloaded") => ErrorKind::Overloaded,
            _ => ErrorKind::BadRequest,
        }
    };
    let retry_after = retry_after.or_else(|| details.as_ref().and_then(|d| d.retry_delay));
    let message = match provider_message {
        Some(message) => message,
        None => format!("HTTP {status} {}", reason(status)),
    };
    ProviderError {
        provider: provider.to_owned(),
        kind,
        status: Some(status),
        message,
        retry_after,
    }
}

/// Turns an error object that arrived inside a stream into a typed error: Anthropic
/// `{"type":"error","error":{…}}`, OpenAI Responses `error` / `response.failed`, OpenRouter
/// `{"error":{…}}` inside a chunk.
pub fn from_stream_error(provider: &str, value: &Value) -> ProviderError {
    let details = envelope(value);
    let message = details
        .message
        .clone()
        .unwrap_or_else(|| "the provider reported an error in the middle of its answer".to_owned());
    let code = details.code.clone().unwrap_or_default();
    let lower = format!("{code} {message}").to_ascii_lowercase();
    let numeric = details.status;
    let kind = if is_quota(&lower) {
        ErrorKind::Quota
    } else if is_context_too_long(&lower) {
        ErrorKind::ContextTooLong
    } else if lower.contains("overloaded") || numeric == Some(529) || numeric == Some(503) {
        ErrorKind::Overloaded
    } else if lower.contains("rate_limit") || lower.contains("rate limit") || numeric == Some(429) {
        ErrorKind::RateLimited
    } else if lower.contains("authentication")
        || lower.contains("permission")
        || matches!(numeric, Some(401 | 403))
    {
        ErrorKind::Auth
    } else if lower.contains("invalid_request") || matches!(numeric, Some(400..=499)) {
        ErrorKind::BadRequest
    } else {
        ErrorKind::Server
    };
    ProviderError {
        provider: provider.to_owned(),
        kind,
        status: numeric,
        message,
        retry_after: details.retry_delay,
    }
}

struct Envelope {
    message: Option<String>,
    code: Option<String>,
    status: Option<u16>,
    retry_delay: Option<Duration>,
}

/// Reads the common error envelopes: `{"error": {"message", "type"|"code"|"status"}}`,
/// `{"message"}`, `{"detail"}`, OpenRouter's `metadata.raw`, Gemini's `RetryInfo`.
fn envelope(value: &Value) -> Envelope {
    let error = match value.get("error") {
        Some(inner) if inner.is_object() => inner,
        Some(Value::String(message)) => {
            return Envelope {
                message: Some(message.trim().to_owned()).filter(|m| !m.is_empty()),
                code: None,
                status: None,
                retry_delay: None,
            };
        }
        _ => value
            .get("response")
            .and_then(|r| r.get("error"))
            .filter(|e| e.is_object())
            .unwrap_or(value),
    };
    let text = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
    };
    let mut message = text(error.get("message"))
        .or_else(|| text(error.get("detail")))
        .or_else(|| text(value.get("message")));
    if let Some(raw) = text(error.get("metadata").and_then(|m| m.get("raw"))) {
        message = Some(match message {
            Some(m) if m != raw => format!("{m}: {raw}"),
            _ => raw,
        });
    }
    let code = text(error.get("type"))
        .into_iter()
        .chain(text(error.get("code")))
        .chain(text(error.get("status")))
        .collect::<Vec<_>>()
        .join(" ");
    let status = error
        .get("code")
        .and_then(Value::as_u64)
        .and_then(|c| u16::try_from(c).ok());
    let retry_delay = error
        .get("details")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|d| d.get("retryDelay").and_then(Value::as_str))
        .find_map(parse_seconds_suffix);
    Envelope {
        message,
        code: (!code.is_empty()).then_some(code),
        status,
        retry_delay,
    }
}

/// The start of a piece of data, for an error message.
pub fn preview(data: &str) -> String {
    let mut end = data.len().min(120);
    while !data.is_char_boundary(end) {
        end -= 1;
    }
    if end < data.len() {
        format!("{}…", &data[..end])
    } else {
        data.to_owned()
    }
}

fn is_quota(lower: &str) -> bool {
    lower.contains("insufficient_quota")
        || lower.contains("exceeded your current quota")
        || lower.contains("credit balance is too low")
        // GitHub Copilot's monthly allowance of premium requests.
        || lower.contains("quota_exceeded")
        || lower.contains("premium request")
}

fn is_context_too_long(lower: &str) -> bool {
    [
        "context_length_exceeded",
        "context length",
        "context window",
        "prompt is too long",
        "maximum context",
        "too many tokens",
        "input is too long",
        "request_too_large",
    ]
    .iter()
    .any(|needle| lower.contains(needle))
}

fn html_title(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    if !(lower.contains("<html") || lower.contains("<!doctype html")) {
        return None;
    }
    let start = lower.find("<title>")? + "<title>".len();
    let end = start + lower[start..].find("</title>")?;
    let title = text[start..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    Some(if title.is_empty() {
        "(untitled)".to_owned()
    } else {
        title
    })
}

/// The longest wait a provider's hint is taken at: past a day it says "not today", and a
/// number from the wire must never overflow a `Duration`.
pub const MAX_RETRY_HINT: Duration = Duration::from_secs(24 * 60 * 60);

/// A wait in seconds from the wire, clamped to [`MAX_RETRY_HINT`]; `None` when it is not a
/// number of seconds at all (negative, NaN).
fn hinted_wait(seconds: f64) -> Option<Duration> {
    if seconds.is_nan() || seconds < 0.0 {
        return None;
    }
    Some(Duration::try_from_secs_f64(seconds).map_or(MAX_RETRY_HINT, |d| d.min(MAX_RETRY_HINT)))
}

/// `"30s"` or `"1.5s"` (Gemini's RetryInfo).
fn parse_seconds_suffix(text: &str) -> Option<Duration> {
    hinted_wait(text.strip_suffix('s')?.parse().ok()?)
}

/// Reads `retry-after` (seconds or an HTTP date, relative to `now`) or `retry-after-ms`.
pub fn parse_retry_after(
    retry_after: Option<&str>,
    retry_after_ms: Option<&str>,
    now: std::time::SystemTime,
) -> Option<Duration> {
    if let Some(wait) = retry_after_ms
        .and_then(|v| v.trim().parse::<f64>().ok())
        .and_then(|ms| hinted_wait(ms / 1000.0))
    {
        return Some(wait);
    }
    let value = retry_after?.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return hinted_wait(seconds);
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(
        when.duration_since(now)
            .unwrap_or_default()
            .min(MAX_RETRY_HINT),
    )
}

fn reason(status: u16) -> &'static str {
    match status {
        // Anthropic's own: the service is overloaded.
        529 => "Overloaded",
        _ => reqwest::StatusCode::from_u16(status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or(""),
    }
}

mod millis {
    use std::time::Duration;

    use serde::Serializer;

    pub fn serialize<S: Serializer>(value: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(d) => s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            None => s.serialize_none(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use serde_json::json;

    use super::*;

    #[test]
    fn absurd_retry_hints_are_clamped_instead_of_panicking() {
        let now = SystemTime::now();
        let table = [
            (Some("1e20"), None, Some(MAX_RETRY_HINT)),
            (None, Some("1e25"), Some(MAX_RETRY_HINT)),
            (Some("inf"), None, Some(MAX_RETRY_HINT)),
            (Some("NaN"), None, None),
            (Some("-3"), None, None),
            (Some("2.5"), None, Some(Duration::from_millis(2500))),
            (None, Some("1500"), Some(Duration::from_millis(1500))),
            (Some("Sun, 06 Nov 99999999999999 08:49:37 GMT"), None, None),
            (
                Some("Sun, 9223372036854775807 Nov 1994 08:49:37 GMT"),
                None,
                None,
            ),
            (Some("Sun, 06 Nov 1994 99:49:37 GMT"), None, None),
        ];
        for (retry_after, retry_after_ms, expected) in table {
            assert_eq!(
                parse_retry_after(retry_after, retry_after_ms, now),
                expected,
                "{retry_after:?} {retry_after_ms:?}"
            );
        }
        let far = parse_retry_after(Some("Fri, 31 Dec 9999 23:59:59 GMT"), None, now);
        assert_eq!(far, Some(MAX_RETRY_HINT));
    }

    #[test]
    fn gemini_retry_delays_are_clamped_too() {
        for (delay, expected) in [
            ("1e20s", Some(MAX_RETRY_HINT)),
            ("1e400s", Some(MAX_RETRY_HINT)),
            ("30s", Some(Duration::from_secs(30))),
            ("-1s", None),
        ] {
            let body = json!({"error": {"code": 429, "message": "slow down", "status": "RESOURCE_EXHAUSTED",
                "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay}]}});
            let error = from_status("google", 429, None, body.to_string().as_bytes());
            assert_eq!(error.retry_after, expected, "{delay}");
            assert_eq!(from_stream_error("google", &body).retry_after, expected);
        }
    }
}
