//! What the reliability tests share: a turn against the loopback mock provider.

use std::time::Duration;

use ponder_core::chat::Message;
use ponder_core::providers::http::{self, HttpConfig};
use ponder_core::reasoning::{Catalog, Choice, ModelInfo, Overrides, ReasoningSettings};
use ponder_core::run::{Outcome, RunEvent, TurnRequest, run_turn};
use tokio_util::sync::CancellationToken;

pub const THINKING_STREAM: &str = "anthropic/pydantic-sonnet4-thinking-stream.sse";
pub const FAKE_KEY: &str = "sk-ant-canary-not-real-4f1c2e";

pub fn config() -> HttpConfig {
    HttpConfig {
        connect_timeout: Duration::from_secs(2),
        idle_timeout: Duration::from_secs(2),
        max_retries: 1,
        initial_backoff: Duration::from_millis(20),
        max_backoff: Duration::from_secs(2),
    }
}

pub fn model(provider: &str, id: &str) -> ModelInfo {
    Catalog::builtin().resolve(Some(provider), id).unwrap()
}

/// One turn of `model` at `base_url` with the fake key; returns the outcome and how many
/// retries were announced.
pub async fn turn(model: &ModelInfo, base_url: &str) -> (Outcome, usize) {
    let history = [Message::user("How do I cross the street?")];
    let settings = ReasoningSettings::default();
    let overrides = Overrides::default();
    let request = TurnRequest {
        model,
        choice: Choice::MEDIUM,
        overrides: &overrides,
        settings: &settings,
        system: None,
        history: &history,
        base_url: Some(base_url),
        api: None,
        api_key: Some(FAKE_KEY),
        context_tokens: 0,
    };
    let config = config();
    let client = http::client(&config).unwrap();
    let mut retries = 0;
    let outcome = run_turn(
        &client,
        &config,
        request,
        CancellationToken::new(),
        |event| {
            if let RunEvent::Retry(_) = event {
                retries += 1;
            }
        },
    )
    .await;
    (outcome, retries)
}
