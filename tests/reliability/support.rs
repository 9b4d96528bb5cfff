//! What the reliability tests share: a turn against the loopback mock provider.

use std::time::Duration;

use ponder_core::catalog::{Catalog, ModelInfo};
use ponder_core::chat::Message;
use ponder_core::providers::http::{self, HttpConfig};
use ponder_core::reasoning::{Choice, Overrides, ReasoningSettings};
use ponder_core::run::{Outcome, RunEvent, TurnRequest, run_turn};
use ponder_core::store::{NewConversation, Store};
use ponder_mock_provider::Reply;
use tokio_util::sync::CancellationToken;

pub const THINKING_STREAM: &str = "anthropic/pydantic-sonnet4-thinking-stream.sse";
pub const FAKE_KEY: &str = "FAKE-key-not-real-4f1c2e";

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

/// The settings and overrides a test turn borrows: the defaults.
#[derive(Default)]
pub struct Defaults {
    pub settings: ReasoningSettings,
    pub overrides: Overrides,
}

/// A turn of `model` at medium against `base_url`, with the fake key.
pub fn request<'a>(
    model: &'a ModelInfo,
    defaults: &'a Defaults,
    history: &'a [Message],
    base_url: &'a str,
) -> TurnRequest<'a> {
    TurnRequest {
        model,
        choice: Choice::MEDIUM,
        overrides: &defaults.overrides,
        settings: &defaults.settings,
        system: None,
        history,
        base_url: Some(base_url),
        api: None,
        api_key: Some(FAKE_KEY),
        context_tokens: 0,
        tools: &[],
        renew_key: None,
    }
}

/// The thinking stream in pieces of `chunk` bytes, `every` apart.
pub fn slow_stream(chunk: usize, every: Duration) -> Reply {
    Reply::fixture(THINKING_STREAM)
        .unwrap()
        .chunk_size(chunk)
        .delay(every)
}

/// A new conversation with Sonnet 4.5; its id.
pub fn new_conversation(store: &Store) -> String {
    store
        .create_conversation(NewConversation {
            title: "Reliability".into(),
            provider: Some("anthropic".into()),
            model: Some("claude-sonnet-4-5".into()),
            settings: ReasoningSettings::default(),
        })
        .unwrap()
        .id
}

/// One turn of `model` at `base_url` with the fake key; returns the outcome and how many
/// retries were announced.
pub async fn turn(model: &ModelInfo, base_url: &str) -> (Outcome, usize) {
    let history = [Message::user("How do I cross the street?")];
    let defaults = Defaults::default();
    let request = request(model, &defaults, &history, base_url);
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

/// `ponder-cli chat` on the history `db`, asking Sonnet 4.5 at medium of `base_url` with the
/// fake key, its output discarded.
pub fn spawn_chat(db: &std::path::Path, base_url: &str) -> tokio::process::Child {
    tokio::process::Command::new(ponder_tests::workspace_bin("ponder-cli"))
        .arg("--db")
        .arg(db)
        .args([
            "chat",
            "--provider",
            "anthropic",
            "--model",
            "claude-sonnet-4-5/med",
        ])
        .args(["--base-url", base_url, "Cross?"])
        .env("PONDER_ANTHROPIC_API_KEY", FAKE_KEY)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}
