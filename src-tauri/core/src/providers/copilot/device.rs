//! GitHub's OAuth device flow: ask for a code, show it, poll until the user has entered it
//! on GitHub (or declined, or let it expire), at the pace GitHub sets.

use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use super::error::{CopilotError, PROVIDER};
use super::hosts::{CLIENT_ID, Hosts};
use super::wire::{AccessTokenResponse, DeviceCodeResponse};
use crate::providers::error::{ProviderError, from_status};
use crate::providers::http::HttpConfig;

/// Failed polls in a row that end the wait.
const MAX_FAILURES: u32 = 3;

/// The scope the Copilot token exchange needs.
const SCOPE: &str = "read:user";

/// The longest wait GitHub's numbers are taken for, for the code (GitHub: 15 minutes) and
/// between two polls (5 s, more after a slow-down): beyond it they are nonsense, and one
/// past what a clock can hold is no panic.
const LONGEST_WAIT: Duration = Duration::from_secs(60 * 60);

/// How long GitHub may stay silent while asked for a code or polled.
const SILENCE: Duration = Duration::from_secs(60);

/// A code to show the user, and what polling for it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceCode {
    pub user_code: String,
    /// Where the user enters it (`https://github.com/login/device`).
    pub verification_uri: String,
    pub expires_in: Duration,
    pub interval: Duration,
    device_code: String,
}

/// One poll's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Poll {
    /// The user entered the code: the GitHub token.
    Approved(String),
    /// Not yet (`authorization_pending`).
    Pending,
    /// Polled too fast (`slow_down`): keep this interval from now on.
    SlowDown(Duration),
}

/// Asks GitHub for a device code.
pub async fn request_code(
    client: &reqwest::Client,
    hosts: &Hosts,
) -> Result<DeviceCode, CopilotError> {
    let body = post_form(
        client,
        &hosts.device_code_url(),
        &[("client_id", CLIENT_ID), ("scope", SCOPE)],
    )
    .await?;
    read_code(&body)
}

/// A device code answer, or why it is not one.
pub fn read_code(body: &[u8]) -> Result<DeviceCode, CopilotError> {
    if let Ok(refused) = serde_json::from_slice::<AccessTokenResponse>(body)
        && let Some(code) = refused.error
    {
        return Err(refusal(&code, refused.error_description));
    }
    let code: DeviceCodeResponse = serde_json::from_slice(body)
        .map_err(|e| ProviderError::unreadable_response(PROVIDER, &e))?;
    Ok(DeviceCode {
        user_code: code.user_code,
        verification_uri: code.verification_uri,
        expires_in: wait(code.expires_in),
        interval: wait(code.interval),
        device_code: code.device_code,
    })
}

/// Asks once whether the user has entered the code.
pub async fn poll(
    client: &reqwest::Client,
    hosts: &Hosts,
    code: &DeviceCode,
) -> Result<Poll, CopilotError> {
    let body = post_form(
        client,
        &hosts.access_token_url(),
        &[
            ("client_id", CLIENT_ID),
            ("device_code", &code.device_code),
            ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
        ],
    )
    .await?;
    read_poll(&body, code.interval)
}

/// One poll's answer read: a token, a reason to wait, or why the sign-in is over.
pub fn read_poll(body: &[u8], interval: Duration) -> Result<Poll, CopilotError> {
    let answer: AccessTokenResponse = serde_json::from_slice(body)
        .map_err(|e| ProviderError::unreadable_response(PROVIDER, &e))?;
    if let Some(token) = answer.access_token.filter(|t| !t.trim().is_empty()) {
        return Ok(Poll::Approved(token));
    }
    match answer.error.as_deref() {
        Some("authorization_pending") => Ok(Poll::Pending),
        // GitHub adds five seconds and says the new interval; keep to it.
        Some("slow_down") => Ok(Poll::SlowDown(answer.interval.map_or_else(
            || {
                interval
                    .saturating_add(Duration::from_secs(5))
                    .min(LONGEST_WAIT)
            },
            wait,
        ))),
        Some(code) => Err(refusal(code, answer.error_description)),
        None => Err(ProviderError::decode(
            PROVIDER,
            "GitHub answered with neither a token nor an error",
        )
        .into()),
    }
}

/// GitHub's seconds, at most [`LONGEST_WAIT`].
fn wait(secs: u64) -> Duration {
    Duration::from_secs(secs).min(LONGEST_WAIT)
}

fn refusal(code: &str, description: Option<String>) -> CopilotError {
    match code {
        "expired_token" => CopilotError::CodeExpired,
        "access_denied" => CopilotError::Denied,
        "device_flow_disabled" => CopilotError::DeviceFlowDisabled,
        _ => CopilotError::Refused {
            code: code.to_owned(),
            description: description.unwrap_or_else(|| "no reason given".to_owned()),
        },
    }
}

/// What the waiting user is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// About to ask again, this long from now.
    Polling { next_in: Duration },
    /// GitHub asked to poll less often.
    SlowedDown { interval: Duration },
}

/// Polls until the code is entered, declined or expired, waiting the interval GitHub set
/// before each poll. Stops at once on `cancel`.
pub async fn wait_for_token(
    client: &reqwest::Client,
    hosts: &Hosts,
    code: &DeviceCode,
    cancel: &CancellationToken,
    mut on_wait: impl FnMut(Waiting),
) -> Result<String, CopilotError> {
    let deadline = Instant::now() + code.expires_in.min(LONGEST_WAIT);
    let mut interval = code.interval;
    // A GitHub that fails for a moment (a 5xx, a dropped connection) is asked again at the
    // next interval; only several failures in a row end the wait.
    let mut failures = 0;
    loop {
        on_wait(Waiting::Polling { next_in: interval });
        tokio::select! {
            () = cancel.cancelled() => return Err(CopilotError::Cancelled),
            () = tokio::time::sleep(interval) => {}
        }
        if Instant::now() >= deadline {
            return Err(CopilotError::CodeExpired);
        }
        let answer = tokio::select! {
            () = cancel.cancelled() => return Err(CopilotError::Cancelled),
            answer = poll(client, hosts, code) => answer,
        };
        let answer = match answer {
            Err(CopilotError::Http(error)) if error.retryable() && failures < MAX_FAILURES => {
                failures += 1;
                continue;
            }
            answer => answer?,
        };
        failures = 0;
        match answer {
            Poll::Approved(token) => return Ok(token),
            Poll::Pending => {}
            Poll::SlowDown(slower) => {
                interval = slower.max(interval);
                on_wait(Waiting::SlowedDown { interval });
            }
        }
    }
}

/// GitHub's OAuth endpoints take a form and, asked for JSON, answer with JSON.
async fn post_form(
    client: &reqwest::Client,
    url: &str,
    form: &[(&str, &str)],
) -> Result<Vec<u8>, CopilotError> {
    let request = client
        .post(url)
        .header("accept", "application/json")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("user-agent", super::USER_AGENT)
        .body(form_encoded(form));
    let answer = super::Answer {
        what: "GitHub's answer to the sign-in",
        max: super::MAX_ANSWER,
    };
    // Each wait in `wait_for_token` is stopped by its own cancel; a sign-in's request is
    // bounded by GitHub's silence only.
    let config = HttpConfig {
        idle_timeout: SILENCE,
        ..HttpConfig::default()
    };
    let (status, body) = super::fetch(request, answer, &config, &CancellationToken::new()).await?;
    // An OAuth error comes as a 200 (GitHub) or a 400 (the RFC); both carry `error`.
    if status >= 400 && !(status == 400 && body.windows(8).any(|w| w == b"\"error\":")) {
        return Err(from_status(PROVIDER, status, None, &body).into());
    }
    Ok(body)
}

/// `a=1&b=2`, each part percent-encoded as a form is.
fn form_encoded(form: &[(&str, &str)]) -> String {
    let mut url = reqwest::Url::parse("http://form.invalid/").expect("a valid URL");
    url.query_pairs_mut().extend_pairs(form);
    url.query().unwrap_or_default().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIVE: Duration = Duration::from_secs(5);

    #[test]
    fn each_answer_of_the_poll_is_read() {
        let cases: [(&str, Result<Poll, CopilotError>); 7] = [
            (
                r#"{"access_token":"FAKE-gho-not-real","token_type":"bearer","scope":"read:user"}"#,
                Ok(Poll::Approved("FAKE-gho-not-real".into())),
            ),
            (
                r#"{"error":"authorization_pending","error_description":"The authorization request is still pending.","error_uri":"https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow"}"#,
                Ok(Poll::Pending),
            ),
            (
                r#"{"error":"slow_down","error_description":"Too many requests have been made in the same timeframe.","interval":10}"#,
                Ok(Poll::SlowDown(Duration::from_secs(10))),
            ),
            (
                r#"{"error":"slow_down"}"#,
                Ok(Poll::SlowDown(Duration::from_secs(10))),
            ),
            (
                r#"{"error":"expired_token","error_description":"The device_code has expired."}"#,
                Err(CopilotError::CodeExpired),
            ),
            (
                r#"{"error":"access_denied","error_description":"The authorization request was denied."}"#,
                Err(CopilotError::Denied),
            ),
            (
                r#"{"error":"incorrect_device_code","error_description":"The device_code provided is not valid."}"#,
                Err(CopilotError::Refused {
                    code: "incorrect_device_code".into(),
                    description: "The device_code provided is not valid.".into(),
                }),
            ),
        ];
        for (body, expected) in cases {
            assert_eq!(read_poll(body.as_bytes(), FIVE), expected, "{body}");
        }
    }

    #[test]
    fn the_form_is_encoded() {
        assert_eq!(
            form_encoded(&[
                ("client_id", CLIENT_ID),
                ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                ("scope", "read:user a&b"),
            ]),
            "client_id=Iv1.b507a08c87ecfe98&grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&scope=read%3Auser+a%26b"
        );
    }

    #[test]
    fn absurd_waits_from_github_are_clamped_not_a_panic() {
        let code = read_code(
            br#"{"device_code":"FAKE","user_code":"WDJB-MJHT","verification_uri":"https://github.com/login/device","expires_in":18446744073709551615,"interval":18446744073709551615}"#,
        )
        .unwrap();
        assert!(code.expires_in <= LONGEST_WAIT && code.interval <= LONGEST_WAIT);
        let slowed = read_poll(
            br#"{"error":"slow_down","interval":18446744073709551615}"#,
            code.interval,
        )
        .unwrap();
        assert!(
            matches!(slowed, Poll::SlowDown(i) if i <= LONGEST_WAIT),
            "{slowed:?}"
        );
        let slowed = read_poll(br#"{"error":"slow_down"}"#, Duration::MAX).unwrap();
        assert!(
            matches!(slowed, Poll::SlowDown(i) if i <= LONGEST_WAIT),
            "{slowed:?}"
        );
    }

    #[test]
    fn a_poll_answer_that_is_not_json_is_a_clear_error() {
        let err = read_poll(b"<html>Service unavailable</html>", FIVE).unwrap_err();
        assert!(err.to_string().contains("unreadable"), "{err}");
    }

    #[test]
    fn a_device_code_is_read_and_a_refusal_is_not_taken_for_one() {
        let code = read_code(
            br#"{"device_code":"3584d83530557fdd1f46af8289938c8ef79f9dc5","user_code":"WDJB-MJHT","verification_uri":"https://github.com/login/device","expires_in":900,"interval":5}"#,
        )
        .unwrap();
        assert_eq!(code.user_code, "WDJB-MJHT");
        assert_eq!(code.verification_uri, "https://github.com/login/device");
        assert_eq!(code.expires_in, Duration::from_secs(900));
        assert_eq!(code.interval, FIVE);
        assert_eq!(
            read_code(br#"{"error":"device_flow_disabled","error_description":"Device Flow must be explicitly enabled for this App"}"#),
            Err(CopilotError::DeviceFlowDisabled)
        );
    }
}
