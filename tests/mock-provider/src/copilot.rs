//! GitHub and the Copilot API at one loopback address: the OAuth device flow, the Copilot
//! token exchange, the model list, and Chat Completions and Responses served from recorded
//! streams. Each answer is shaped like GitHub's own (see `tests/fixtures/copilot/SOURCES.md`);
//! what it must not accept (a missing header, an expired or unknown token) it refuses the
//! way the real service does, so a client that gets it wrong fails its test.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::json;

use crate::{RecordedRequest, Reply};

/// What the GitHub token poll answers once the user is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignIn {
    /// The token, after `pending_polls` answers of `authorization_pending`.
    Approve,
    /// `access_denied`.
    Deny,
    /// `expired_token`.
    Expire,
}

/// How the mock behaves.
#[derive(Debug, Clone)]
pub struct Script {
    /// Polls answered `authorization_pending` before the final answer.
    pub pending_polls: usize,
    /// Answer the first poll with `slow_down` (and the interval raised by this much).
    pub slow_down: Option<u64>,
    /// Polls answered with a 502 page first (GitHub failing for a moment).
    pub failing_polls: usize,
    pub sign_in: SignIn,
    /// The device code's `interval` (GitHub: 5).
    pub interval: u64,
    /// How long each Copilot token is good for (GitHub: 30 minutes).
    pub token_lifetime: Duration,
    /// The exchange refuses the GitHub token with 401 (revoked).
    pub revoked: bool,
    /// The exchange answers 403: the account has no Copilot.
    pub no_copilot: bool,
    /// Chat and Responses calls that answer 401 as if the token had expired, before any
    /// succeeds (a token that ran out mid-conversation).
    pub expire_api_calls: usize,
    /// The stream `/chat/completions` serves (a `.jsonl` gets `data: [DONE]`).
    pub chat: PathBuf,
    /// The stream `/responses` serves.
    pub responses: PathBuf,
    /// Served with the streams, the way Copilot reports its quota.
    pub quota_headers: Vec<(String, String)>,
    /// Every chat or responses call answers 429 with Copilot's quota error.
    pub quota_exceeded: bool,
    /// The streams in pieces of this many bytes, this long apart.
    pub chunk_size: Option<usize>,
    pub delay: Duration,
    /// The token exchange sends its headers, then nothing (a GitHub that hangs).
    pub silent_exchange: bool,
    /// The model list sends its headers, then nothing.
    pub silent_models: bool,
    /// Every time and wait GitHub gives is 2^64 - 1 seconds: the device code's
    /// `expires_in`, the exchange's `expires_at` and `refresh_in`.
    pub huge_numbers: bool,
    /// The Copilot API the exchange names, instead of the mock's own address.
    pub api_endpoint: Option<String>,
    /// The exchange's answer carries this many bytes more (a field no client reads).
    pub exchange_padding: usize,
}

impl Default for Script {
    fn default() -> Self {
        Self {
            pending_polls: 2,
            slow_down: None,
            failing_polls: 0,
            sign_in: SignIn::Approve,
            interval: 1,
            token_lifetime: Duration::from_secs(30 * 60),
            revoked: false,
            no_copilot: false,
            expire_api_calls: 0,
            chat: PathBuf::from("openai/vercel-azure-chat-gpt5-nano-reasoning-tokens-stream.jsonl"),
            responses: PathBuf::from(
                "openai/genai-responses-gpt54-mini-reasoning-summary-stream.sse",
            ),
            quota_headers: vec![(
                "x-quota-snapshot-premium_interactions".to_owned(),
                "ent=300&ov=0.0&ovPerm=false&rem=83.5&rst=2026-12-01T00%3A00%3A00Z".to_owned(),
            )],
            quota_exceeded: false,
            chunk_size: None,
            delay: Duration::ZERO,
            silent_exchange: false,
            silent_models: false,
            huge_numbers: false,
            api_endpoint: None,
            exchange_padding: 0,
        }
    }
}

/// The GitHub token the mock hands out and accepts.
pub const GITHUB_TOKEN: &str = "gho_FAKE-github-token-not-real";
pub const DEVICE_CODE: &str = "FAKE-device-code-not-real";
pub const USER_CODE: &str = "WDJB-MJHT";

/// The headers Copilot's API requires of a client.
pub const REQUIRED_HEADERS: [&str; 2] = ["copilot-integration-id", "editor-version"];

#[derive(Debug, Default)]
struct State {
    polls: usize,
    exchanges: usize,
    /// Tokens issued, with when each expires.
    tokens: Vec<(String, SystemTime)>,
    api_calls: usize,
}

/// The routes; `route` answers a request or leaves it to the queue.
#[derive(Debug, Clone)]
pub struct CopilotMock {
    script: Arc<Script>,
    state: Arc<Mutex<State>>,
    base: Arc<Mutex<String>>,
}

impl CopilotMock {
    pub fn new(script: Script) -> Self {
        Self {
            script: Arc::new(script),
            state: Arc::default(),
            base: Arc::default(),
        }
    }

    /// The address it is served at (the exchange names it as the Copilot API).
    pub fn set_base(&self, base: &str) {
        *self.base.lock().unwrap_or_else(PoisonError::into_inner) = base.to_owned();
    }

    /// How many times the token was polled for and exchanged.
    pub fn polls(&self) -> usize {
        self.state().polls
    }

    pub fn exchanges(&self) -> usize {
        self.state().exchanges
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn route(&self, request: &RecordedRequest) -> Option<Reply> {
        let path = request.path.as_str();
        Some(match (request.method.as_str(), path) {
            ("POST", "/login/device/code") => self.device_code(request),
            ("POST", "/login/oauth/access_token") => self.poll(request),
            ("GET", "/copilot_internal/v2/token") => self.exchange(request),
            ("GET", "/models") => self.api(request, false).unwrap_or_else(|| {
                let list = Reply::fixture(fixtures().join("../copilot/models.json"))
                    .unwrap_or_else(|e| missing(&e));
                if self.script.silent_models {
                    list.stall_after(0)
                } else {
                    list
                }
            }),
            ("POST", "/chat/completions") => self.api(request, true).unwrap_or_else(|| {
                let reply = Reply::fixture(&self.script.chat).unwrap_or_else(|e| missing(&e));
                let reply = if self.script.chat.extension().is_some_and(|e| e == "jsonl") {
                    reply.with_done()
                } else {
                    reply
                };
                self.with_quota(reply)
            }),
            ("POST", "/responses") => self.api(request, true).unwrap_or_else(|| {
                self.with_quota(
                    Reply::fixture(&self.script.responses).unwrap_or_else(|e| missing(&e)),
                )
            }),
            _ => return None,
        })
    }

    fn device_code(&self, request: &RecordedRequest) -> Reply {
        let form = form(request);
        if form_value(&form, "client_id").is_none_or(str::is_empty) {
            return Reply::json(
                200,
                json!({"error": "unauthorized_client", "error_description": "client_id is missing"}),
            );
        }
        let base = self
            .base
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        Reply::json(
            200,
            json!({
                "device_code": DEVICE_CODE,
                "user_code": USER_CODE,
                "verification_uri": format!("{base}/login/device"),
                "expires_in": if self.script.huge_numbers { u64::MAX } else { 900 },
                "interval": self.script.interval,
            }),
        )
    }

    fn poll(&self, request: &RecordedRequest) -> Reply {
        let form = form(request);
        if form_value(&form, "device_code") != Some(DEVICE_CODE)
            || form_value(&form, "grant_type")
                != Some("urn:ietf:params:oauth:grant-type:device_code")
        {
            return Reply::json(
                200,
                json!({"error": "incorrect_device_code", "error_description": "The device_code provided is not valid."}),
            );
        }
        let polls = {
            let mut state = self.state();
            state.polls += 1;
            state.polls
        };
        if polls <= self.script.failing_polls {
            return Reply::body(
                502,
                "text/html",
                "<html><head><title>502 Bad Gateway</title></head><body>Unicorn!</body></html>",
            );
        }
        let polls = polls - self.script.failing_polls;
        if polls == 1
            && let Some(more) = self.script.slow_down
        {
            return Reply::json(
                200,
                json!({
                    "error": "slow_down",
                    "error_description": "Too many requests have been made in the same timeframe.",
                    "error_uri": "https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow",
                    "interval": self.script.interval + more,
                }),
            );
        }
        let slowed = usize::from(self.script.slow_down.is_some());
        if polls <= self.script.pending_polls + slowed {
            return Reply::json(
                200,
                json!({
                    "error": "authorization_pending",
                    "error_description": "The authorization request is still pending.",
                    "error_uri": "https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow",
                }),
            );
        }
        match self.script.sign_in {
            SignIn::Approve => Reply::json(
                200,
                json!({"access_token": GITHUB_TOKEN, "token_type": "bearer", "scope": "read:user"}),
            ),
            SignIn::Deny => Reply::json(
                200,
                json!({
                    "error": "access_denied",
                    "error_description": "The authorization request was denied.",
                    "error_uri": "https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow",
                }),
            ),
            SignIn::Expire => Reply::json(
                200,
                json!({
                    "error": "expired_token",
                    "error_description": "The device_code has expired.",
                    "error_uri": "https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow",
                }),
            ),
        }
    }

    fn exchange(&self, request: &RecordedRequest) -> Reply {
        let authorised = request.header("authorization") == Some(&format!("token {GITHUB_TOKEN}"));
        if self.script.revoked || !authorised {
            return Reply::json(
                401,
                json!({"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest", "status": "401"}),
            );
        }
        if self.script.no_copilot {
            return Reply::json(
                403,
                json!({
                    "error_details": {
                        "url": "https://github.com/features/copilot?utm_source=editor&utm_medium=editor&utm_campaign=cli",
                        "message": "No access to GitHub Copilot found. You are currently logged in as octocat.",
                        "title": "Get access to GitHub Copilot",
                        "notification_id": "no_copilot_access",
                    },
                    "message": "Resource not accessible by integration",
                    "documentation_url": "https://docs.github.com/rest",
                }),
            );
        }
        let base = self
            .base
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let now = SystemTime::now();
        let expires = now + self.script.token_lifetime;
        let expires_at = expires
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        let token = {
            let mut state = self.state();
            state.exchanges += 1;
            let token = format!(
                "tid=FAKE-copilot-token-{}-not-real;exp={expires_at};sku=copilot_for_individuals_subscriber;chat=1:FAKE",
                state.exchanges
            );
            state.tokens.push((token.clone(), expires));
            token
        };
        let lifetime = self.script.token_lifetime.as_secs();
        let refresh_in = lifetime.saturating_sub(300).max(1).min(lifetime);
        let (expires_at, refresh_in) = if self.script.huge_numbers {
            (u64::MAX, u64::MAX)
        } else {
            (expires_at, refresh_in)
        };
        let api = self
            .script
            .api_endpoint
            .clone()
            .unwrap_or_else(|| base.clone());
        let mut answer = json!({
                "annotations_enabled": true,
                "chat_enabled": true,
                "chat_jetbrains_enabled": true,
                "code_quote_enabled": true,
                "copilot_ide_agent_chat_gpt4_small_prompt": false,
                "copilotignore_enabled": false,
                "endpoints": {
                    "api": api,
                    "origin-tracker": format!("{base}/origin-tracker"),
                    "proxy": format!("{base}/proxy"),
                    "telemetry": format!("{base}/telemetry"),
                },
                "expires_at": expires_at,
                "individual": true,
                "prompt_8k": true,
                "public_suggestions": "disabled",
                "refresh_in": refresh_in,
                "sku": "copilot_for_individuals_subscriber",
                "snippy_load_test_enabled": false,
                "telemetry": "disabled",
                "token": token,
                "tracking_id": "FAKE-tracking-id",
                "vsc_electron_fetcher_v2": false,
        });
        if self.script.exchange_padding > 0 {
            answer["padding"] = json!("x".repeat(self.script.exchange_padding));
        }
        let reply = Reply::json(200, answer);
        if self.script.silent_exchange {
            reply.stall_after(0)
        } else {
            reply
        }
    }

    /// A refusal for a call to the Copilot API, or `None` when it may be answered.
    fn api(&self, request: &RecordedRequest, counted: bool) -> Option<Reply> {
        let bearer = request
            .header("authorization")
            .and_then(|v| v.strip_prefix("Bearer "));
        let now = SystemTime::now();
        let valid = bearer.is_some_and(|token| {
            self.state()
                .tokens
                .iter()
                .any(|(issued, expires)| issued == token && *expires > now)
        });
        if !valid {
            return Some(unauthorized());
        }
        if let Some(missing) = REQUIRED_HEADERS
            .iter()
            .find(|name| request.header(name).is_none_or(str::is_empty))
        {
            return Some(Reply::json(
                400,
                json!({"error": {"message": format!("missing required header: {missing}"), "code": "bad_request"}}),
            ));
        }
        if counted {
            let calls = {
                let mut state = self.state();
                state.api_calls += 1;
                state.api_calls
            };
            if calls <= self.script.expire_api_calls {
                return Some(unauthorized());
            }
            if self.script.quota_exceeded {
                // 402 with `quota_exceeded` (the VS Code extension's handling of it); the
                // message is the extension's own wording, the server's was not recorded.
                return Some(Reply::json(
                    402,
                    json!({"error": {"message": "You have exceeded your premium request allowance. Enable additional paid premium requests or wait for your allowance to renew.", "code": "quota_exceeded"}}),
                ));
            }
            if request
                .json()
                .get("model")
                .and_then(|m| m.as_str())
                .is_none()
            {
                return Some(Reply::json(
                    400,
                    json!({"error": {"message": "model is required", "code": "invalid_request_body"}}),
                ));
            }
        }
        None
    }

    fn with_quota(&self, mut reply: Reply) -> Reply {
        if let Some(size) = self.script.chunk_size {
            reply = reply.chunk_size(size);
        }
        if !self.script.delay.is_zero() {
            reply = reply.delay(self.script.delay);
        }
        for (name, value) in &self.script.quota_headers {
            reply = reply.header(name, value);
        }
        reply
    }
}

/// Copilot's answer to an expired token: plain text, not JSON.
fn unauthorized() -> Reply {
    Reply::body(
        401,
        "text/plain; charset=utf-8",
        "unauthorized: token expired",
    )
}

fn fixtures() -> PathBuf {
    crate::fixtures_dir()
}

fn missing(err: &std::io::Error) -> Reply {
    Reply::json(
        500,
        json!({"error": {"message": format!("the mock's fixture is missing: {err}")}}),
    )
}

fn form(request: &RecordedRequest) -> Vec<(String, String)> {
    let text = request.body_text();
    text.split('&')
        .filter_map(|pair| {
            let (name, value) = pair.split_once('=')?;
            Some((decode(name), decode(value)))
        })
        .collect()
}

fn form_value<'a>(form: &'a [(String, String)], name: &str) -> Option<&'a str> {
    form.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// `application/x-www-form-urlencoded` decoding: `+` is a space, `%XX` a byte.
fn decode(text: &str) -> String {
    let hex = |b: u8| (b as char).to_digit(16);
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (
            bytes[i],
            bytes.get(i + 1).copied(),
            bytes.get(i + 2).copied(),
        ) {
            (b'+', _, _) => out.push(b' '),
            (b'%', Some(hi), Some(lo)) if hex(hi).is_some() && hex(lo).is_some() => {
                out.push(((hex(hi).unwrap_or(0) << 4) | hex(lo).unwrap_or(0)) as u8);
                i += 2;
            }
            (other, _, _) => out.push(other),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
