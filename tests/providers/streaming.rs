//! Streaming switched off: each protocol asks for the whole answer and reads it as the events
//! its stream would have given, against real whole recordings served by the loopback mock
//! provider; and OpenAI's refusal to stream to an unverified organisation is answered once
//! more, whole, with a note.

use std::time::Duration;

use ponder_core::catalog::Catalog;
use ponder_core::chat::{Message, Part};
use ponder_core::providers::http::{self, HttpConfig};
use ponder_core::reasoning::{Choice, Overrides, ReasoningSettings};
use ponder_core::run::{Outcome, RunEvent, TurnRequest, run_turn};
use ponder_mock_provider::{MockProvider, Reply};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

fn config() -> HttpConfig {
    HttpConfig {
        connect_timeout: Duration::from_secs(2),
        idle_timeout: Duration::from_secs(5),
        max_retries: 0,
        ..HttpConfig::default()
    }
}

/// Streaming off for `provider`, as Settings → Reasoning overrides saves it.
fn streaming_off(provider: &str) -> Overrides {
    Overrides::from_json(&json!({"providers": {provider: {"stream": false}}}).to_string()).unwrap()
}

struct Ran {
    outcome: Outcome,
    notices: Vec<String>,
    requests: Vec<ponder_mock_provider::RecordedRequest>,
}

async fn run(provider: &str, model: &str, overrides: &Overrides, replies: Vec<Reply>) -> Ran {
    run_at(provider, model, Choice::MEDIUM, overrides, replies).await
}

async fn run_at(
    provider: &str,
    model: &str,
    choice: Choice,
    overrides: &Overrides,
    replies: Vec<Reply>,
) -> Ran {
    let mock = MockProvider::start().await.unwrap();
    for reply in replies {
        mock.push(reply);
    }
    let model = Catalog::builtin().resolve(Some(provider), model).unwrap();
    let history = [Message::user("What is 925 divided by 5?")];
    let settings = ReasoningSettings::default();
    let url = mock.url();
    let request = TurnRequest {
        model: &model,
        choice,
        overrides,
        settings: &settings,
        system: None,
        history: &history,
        base_url: Some(&url),
        api: None,
        api_key: Some("FAKE-key-not-real"),
        context_tokens: 0,
        tools: &[],
        renew_key: None,
    };
    let config = config();
    let client = http::client(&config).unwrap();
    let mut notices = Vec::new();
    let outcome = run_turn(
        &client,
        &config,
        request,
        CancellationToken::new(),
        |event| {
            if let RunEvent::Notice(notice) = event {
                notices.push(notice);
            }
        },
    )
    .await;
    let requests = mock.requests();
    mock.shutdown().await;
    Ran {
        outcome,
        notices,
        requests,
    }
}

fn done(ran: &Ran) -> &ponder_core::draft::Turn {
    match &ran.outcome {
        Outcome::Done(turn) => turn,
        other => panic!("not done: {other:?}"),
    }
}

fn body(request: &ponder_mock_provider::RecordedRequest) -> Value {
    serde_json::from_slice(&request.body).unwrap()
}

fn thought_and_text(turn: &ponder_core::draft::Turn) -> (String, String) {
    let mut thought = String::new();
    let mut text = String::new();
    for part in &turn.message.parts {
        match part {
            Part::Thinking(block) => thought.push_str(&block.text),
            Part::Text { text: t } => text.push_str(t),
            _ => {}
        }
    }
    (thought, text)
}

#[tokio::test]
async fn anthropic_with_streaming_off_asks_for_the_whole_answer_and_keeps_its_signed_thinking() {
    // At minimal the answer's cap stays under what Anthropic requires to be streamed.
    let ran = run_at(
        "anthropic",
        "claude-sonnet-4-5",
        Choice::MINIMAL,
        &streaming_off("anthropic"),
        vec![Reply::fixture("anthropic/vercel-sonnet45-thinking.json").unwrap()],
    )
    .await;
    let turn = done(&ran);
    let sent = body(&ran.requests[0]);
    assert_eq!(sent["stream"], false);
    assert_eq!(sent["thinking"]["type"], "enabled");
    assert!(sent["max_tokens"].as_u64().unwrap() <= 21_333);
    let (thought, text) = thought_and_text(turn);
    assert_eq!(thought, "925 divided by 5 = 185");
    assert_eq!(text, "925 ÷ 5 = 185");
    let signed = turn.message.parts.iter().any(|p| {
        matches!(p, Part::Thinking(b) if b.signature.as_deref().is_some_and(|s| s.starts_with("Er4B")))
    });
    assert!(signed, "the signature is kept for the next turn");
}

#[tokio::test]
async fn gemini_with_streaming_off_uses_generate_content() {
    let ran = run(
        "google",
        "gemini-3-pro-preview",
        &streaming_off("google"),
        vec![Reply::fixture("google/pydantic-gemini3-pro-thought-parts.json").unwrap()],
    )
    .await;
    let turn = done(&ran);
    let request = &ran.requests[0];
    assert!(
        request.path.ends_with(":generateContent"),
        "{}",
        request.path
    );
    assert_eq!(request.query, "", "no ?alt=sse");
    let (thought, text) = thought_and_text(turn);
    assert!(
        thought.starts_with("**A Safe Street-Crossing Guide"),
        "{thought}"
    );
    assert!(!text.is_empty());
}

#[tokio::test]
async fn deepseek_with_streaming_off_reads_reasoning_content_from_the_whole_message() {
    let ran = run(
        "deepseek",
        "deepseek-reasoner",
        &streaming_off("deepseek"),
        vec![Reply::fixture("deepseek/vercel-deepseek-reasoner.json").unwrap()],
    )
    .await;
    let turn = done(&ran);
    let sent = body(&ran.requests[0]);
    assert_eq!(sent["stream"], false);
    assert!(sent.get("stream_options").is_none());
    let (thought, text) = thought_and_text(turn);
    assert!(!thought.is_empty() && !text.is_empty());
}

/// OpenAI's answer to a stream of a model the organisation may not stream (its wording as
/// users report it: continuedev/continue#8209, BeehiveInnovations/pal-mcp-server#134).
fn not_verified() -> Reply {
    Reply::json(
        400,
        json!({"error": {
            "message": "Your organization must be verified to stream this model. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization. If you just verified, it can take up to 15 minutes for access to propagate.",
            "type": "invalid_request_error",
            "param": "stream",
            "code": "unsupported_value"
        }}),
    )
}

#[tokio::test]
async fn an_unverified_organisation_gets_one_whole_request_with_a_note() {
    let ran = run(
        "openai",
        "o3",
        &Overrides::default(),
        vec![
            not_verified(),
            Reply::fixture("openai/pydantic-responses-gpt52-reasoning-summary-auto.json").unwrap(),
        ],
    )
    .await;
    let turn = done(&ran);
    assert_eq!(
        ran.requests.len(),
        2,
        "the refused stream, then one whole request"
    );
    assert_eq!(body(&ran.requests[0])["stream"], true);
    assert_eq!(body(&ran.requests[1])["stream"], false);
    assert!(
        ran.notices
            .iter()
            .any(|n| n.contains("would not stream") && n.contains("verify")),
        "{:?}",
        ran.notices
    );
    let (_, text) = thought_and_text(turn);
    assert!(!text.is_empty());

    // Streaming off from the start: one request, and no refusal to fall back from.
    let ran = run(
        "openai",
        "o3",
        &streaming_off("openai"),
        vec![
            Reply::fixture("openai/pydantic-responses-gpt52-reasoning-summary-auto.json").unwrap(),
        ],
    )
    .await;
    done(&ran);
    assert_eq!(ran.requests.len(), 1);
    assert_eq!(body(&ran.requests[0])["stream"], false);
}

#[tokio::test]
async fn another_400_is_not_taken_for_a_refusal_to_stream() {
    let ran = run(
        "openai",
        "o3",
        &Overrides::default(),
        vec![Reply::json(
            400,
            json!({"error": {"message": "Unsupported parameter: 'temperature'", "type": "invalid_request_error"}}),
        )],
    )
    .await;
    assert!(matches!(ran.outcome, Outcome::Failed(_)));
    assert_eq!(ran.requests.len(), 1);
}

#[tokio::test]
async fn a_request_that_must_stream_streams_whatever_the_setting() {
    // Medium on Sonnet 4.5 asks for more than ten minutes' worth of tokens: streamed.
    let ran = run(
        "anthropic",
        "claude-sonnet-4-5",
        &streaming_off("anthropic"),
        vec![Reply::fixture("anthropic/pydantic-sonnet4-thinking-stream.sse").unwrap()],
    )
    .await;
    done(&ran);
    assert_eq!(body(&ran.requests[0])["stream"], true);
}
