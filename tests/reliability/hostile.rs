//! Hostile bytes from a provider end the turn with a coded error, never a panic, a hang or
//! an allocation the input does not justify.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use ponder_core::chat::{ChatEvent, Part};
use ponder_core::providers::error::{ErrorKind, MAX_RETRY_HINT};
use ponder_core::providers::http;
use ponder_core::reasoning::ReasoningSettings;
use ponder_core::run::{
    Outcome, Question, RecordOptions, RecordedEvent, RunEvent, Runner, run_recorded,
};
use ponder_core::store::{MessageStatus, NewConversation, Store};
use ponder_mock_provider::{MockProvider, Reply};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::support::{Defaults, config, model, new_conversation, request, slow_stream, turn};

#[tokio::test]
async fn absurd_retry_hints_end_the_turn_with_a_rate_limit_error() {
    let anthropic = model("anthropic", "claude-sonnet-4-5");
    let limited = |name: &str, value: &str| {
        Reply::json(
            429,
            json!({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}),
        )
        .header(name, value)
    };
    for (name, value) in [
        ("retry-after", "1e20"),
        ("retry-after-ms", "1e25"),
        ("retry-after", "inf"),
    ] {
        let mock = MockProvider::start().await.unwrap();
        mock.push(limited(name, value));
        let started = Instant::now();
        let (outcome, retries) = turn(&anthropic, &mock.url()).await;
        let Outcome::Failed(turn) = outcome else {
            panic!("{name}: {value}: {outcome:?}");
        };
        let error = turn.error.unwrap();
        assert_eq!(error.kind, ErrorKind::RateLimited, "{name}");
        assert_eq!(error.retry_after, Some(MAX_RETRY_HINT), "{name}");
        assert_eq!(retries, 0, "a wait that long is reported, not slept on");
        assert!(started.elapsed() < Duration::from_secs(5));
        mock.shutdown().await;
    }
    let gemini = model("google", "gemini-2.5-flash");
    let mock = MockProvider::start().await.unwrap();
    mock.push(Reply::json(
        429,
        json!({"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "message": "Quota exceeded for requests per minute",
            "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1e20s"}]}}),
    ));
    let (outcome, _) = turn(&gemini, &mock.url()).await;
    let error = outcome.turn().error.clone().unwrap();
    assert_eq!(error.kind, ErrorKind::RateLimited);
    assert_eq!(error.retry_after, Some(MAX_RETRY_HINT));
    mock.shutdown().await;
}

#[tokio::test]
async fn a_tool_call_index_of_a_billion_is_one_call_not_a_billion() {
    let chunk = |delta: serde_json::Value, finish: Option<&str>| {
        format!(
            "data: {}\n\n",
            json!({"id": "c", "object": "chat.completion.chunk", "model": "gpt-4.1",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        )
    };
    let body = [
        chunk(json!({"role": "assistant", "content": ""}), None),
        chunk(
            json!({"tool_calls": [{"index": 1_000_000_000u64, "id": "call_1", "type": "function",
                "function": {"name": "lookup", "arguments": "{}"}}]}),
            None,
        ),
        chunk(json!({}), Some("tool_calls")),
        "data: [DONE]\n\n".to_owned(),
    ]
    .concat();
    let mock = MockProvider::start().await.unwrap();
    mock.push(Reply::sse(body));
    let started = Instant::now();
    let (outcome, _) = turn(&model("openai", "gpt-4.1"), &mock.url()).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
    let calls: Vec<_> = outcome
        .turn()
        .message
        .parts
        .iter()
        .filter(|p| matches!(p, Part::ToolCall(_)))
        .collect();
    assert_eq!(calls.len(), 1, "{outcome:?}");
    mock.shutdown().await;
}

/// A bug anywhere in a turn (here: in the caller's own callback) still ends it in exactly
/// one outcome, stored before it is reported, with what had arrived.
#[tokio::test]
async fn a_panic_inside_a_turn_still_ends_it_once_and_stores_it() {
    let mock = MockProvider::start().await.unwrap();
    mock.push(slow_stream(64, Duration::from_millis(2)));
    let store = Store::open_in_memory().unwrap();
    let conversation = new_conversation(&store);
    let anthropic = model("anthropic", "claude-sonnet-4-5");
    let defaults = Defaults::default();
    let url = mock.url();
    let request = request(&anthropic, &defaults, &[], &url);
    let config = config();
    let client = http::client(&config).unwrap();
    let deltas = Mutex::new(0);
    let finished = Mutex::new(0);
    let (id, outcome) = run_recorded(
        Runner {
            client: &client,
            http: &config,
            store: &store,
        },
        &conversation,
        Question::new("Cross?"),
        request,
        RecordOptions {
            flush_every: Duration::from_millis(5),
            ..RecordOptions::default()
        },
        CancellationToken::new(),
        |event| match event {
            RecordedEvent::Run(RunEvent::Chat(ChatEvent::ThinkingDelta { .. })) => {
                let mut seen = deltas.lock().unwrap();
                *seen += 1;
                if *seen == 5 {
                    panic!("a bug in the caller");
                }
            }
            RecordedEvent::Finished { .. } => *finished.lock().unwrap() += 1,
            _ => {}
        },
    )
    .await
    .unwrap();
    assert_eq!(*finished.lock().unwrap(), 1, "exactly one terminal event");
    let Outcome::Failed(turn) = &outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!(turn.error.as_ref().unwrap().kind, ErrorKind::Internal);
    let stored = store.message(&id).unwrap();
    assert_eq!(stored.status, MessageStatus::Error);
    let thought: String = stored
        .message
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Thinking(block) => Some(block.text.as_str()),
            _ => None,
        })
        .collect();
    assert!(!thought.is_empty(), "what had arrived is kept");
    mock.shutdown().await;
}

#[test]
fn a_question_that_replaces_another_removes_nothing_when_it_cannot_be_stored() {
    let store = Store::open_in_memory().unwrap();
    let new = |title: &str| {
        store
            .create_conversation(NewConversation {
                title: title.into(),
                provider: None,
                model: None,
                settings: ReasoningSettings::default(),
            })
            .unwrap()
    };
    let (a, b) = (new("a"), new("b"));
    let first = store.append_user(&a.id, "first").unwrap();
    store.append_user(&a.id, "second").unwrap();
    let other = store.append_user(&b.id, "elsewhere").unwrap();
    // A message of another conversation: refused, and nothing of either is touched.
    assert!(store.ask(&a.id, "edited", Some(&other.id)).is_err());
    assert!(store.ask(&a.id, "edited", Some("no-such-message")).is_err());
    assert_eq!(store.messages(&a.id).unwrap().len(), 2);
    assert_eq!(store.messages(&b.id).unwrap().len(), 1);
    // Replacing the first question removes it and what follows, in the same step.
    store.ask(&a.id, "edited", Some(&first.id)).unwrap();
    let texts: Vec<_> = store
        .messages(&a.id)
        .unwrap()
        .iter()
        .map(|m| m.message.text())
        .collect();
    assert_eq!(texts, ["edited"]);
}

/// A provider that takes the connection and never answers ends the turn as a network error
/// once the silence allowed has passed (each retry waits as long), never hangs.
#[tokio::test]
async fn a_provider_that_accepts_and_never_answers_ends_the_turn() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            open.push(socket);
        }
    });
    let started = Instant::now();
    let (outcome, retries) = turn(&model("anthropic", "claude-sonnet-4-5"), &url).await;
    let elapsed = started.elapsed();
    let Outcome::Failed(turn) = outcome else {
        panic!("{outcome:?}");
    };
    let error = turn.error.unwrap();
    assert_eq!(error.kind, ErrorKind::Network);
    assert!(
        error.message.contains("no response within"),
        "{}",
        error.message
    );
    // One try and one retry, each given the idle allowance of the test config (2 s).
    assert_eq!(retries, 1);
    assert!(
        elapsed >= Duration::from_secs(4) && elapsed < Duration::from_secs(10),
        "{elapsed:?}"
    );
    held.abort();
}
