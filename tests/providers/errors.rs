//! The error matrix: every way a provider can fail, against the loopback mock provider
//! through the real HTTP client and `run_turn` — the right kind and message, retries only
//! where allowed, and the partial answer kept.

use std::time::{Duration, Instant};

use ponder_core::catalog::Catalog;
use ponder_core::chat::{Message, StopReason};
use ponder_core::providers::error::ErrorKind;
use ponder_core::providers::http::{self, HttpConfig};
use ponder_core::reasoning::{Choice, Overrides, ReasoningSettings};
use ponder_core::run::{Outcome, RunEvent, TurnRequest, run_turn};
use ponder_mock_provider::{MockProvider, Reply};
use serde_json::json;
use tokio_util::sync::CancellationToken;

const THINKING_STREAM: &str = "anthropic/pydantic-sonnet4-thinking-stream.sse";

fn config() -> HttpConfig {
    HttpConfig {
        connect_timeout: Duration::from_secs(2),
        idle_timeout: Duration::from_millis(800),
        max_retries: 2,
        initial_backoff: Duration::from_millis(20),
        max_backoff: Duration::from_secs(3),
    }
}

struct Run {
    outcome: Outcome,
    retries: usize,
}

async fn run_against(url: &str, config: &HttpConfig, cancel: CancellationToken) -> Run {
    let model = Catalog::builtin()
        .resolve(Some("anthropic"), "claude-sonnet-4-5")
        .unwrap();
    let history = [Message::user("How do I cross the street?")];
    let settings = ReasoningSettings::default();
    let overrides = Overrides::default();
    let request = TurnRequest {
        model: &model,
        choice: Choice::MEDIUM,
        overrides: &overrides,
        settings: &settings,
        system: None,
        history: &history,
        base_url: Some(url),
        api: None,
        api_key: Some("test-key-not-real"),
        context_tokens: 0,
        tools: &[],
        renew_key: None,
    };
    let client = http::client(config).unwrap();
    let mut retries = 0;
    let outcome = run_turn(&client, config, request, cancel, |event| {
        if let RunEvent::Retry(_) = event {
            retries += 1;
        }
    })
    .await;
    Run { outcome, retries }
}

/// The settings for tests of how much is read, not of how long is waited: a machine busy
/// with other tests can leave a many-megabyte body's reader unscheduled past the short idle
/// timeout above, and that would be a different error from the one under test.
fn patient() -> HttpConfig {
    HttpConfig {
        idle_timeout: Duration::from_secs(60),
        connect_timeout: Duration::from_secs(30),
        ..config()
    }
}

async fn one(replies: Vec<Reply>) -> (Run, usize) {
    one_with(&config(), replies).await
}

async fn one_with(config: &HttpConfig, replies: Vec<Reply>) -> (Run, usize) {
    let mock = MockProvider::start().await.unwrap();
    for reply in replies {
        mock.push(reply);
    }
    let run = run_against(&mock.url(), config, CancellationToken::new()).await;
    let requests = mock.requests().len();
    mock.shutdown().await;
    (run, requests)
}

fn ok_stream() -> Reply {
    Reply::fixture(THINKING_STREAM).unwrap()
}

fn anthropic_error(status: u16, kind: &str, message: &str) -> Reply {
    Reply::json(
        status,
        json!({"type": "error", "error": {"type": kind, "message": message}}),
    )
}

fn failed(run: &Run) -> &ponder_core::providers::error::ProviderError {
    match &run.outcome {
        Outcome::Failed(turn) => turn
            .error
            .as_ref()
            .expect("a failed turn carries its error"),
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[tokio::test]
async fn client_errors_fail_at_once_with_the_providers_message() {
    let table = [
        (
            anthropic_error(401, "authentication_error", "invalid x-api-key"),
            ErrorKind::Auth,
            "invalid x-api-key",
        ),
        (
            anthropic_error(403, "permission_error", "Your key cannot use this model"),
            ErrorKind::Auth,
            "cannot use this model",
        ),
        (
            anthropic_error(404, "not_found_error", "model: claude-sonnet-9"),
            ErrorKind::BadRequest,
            "claude-sonnet-9",
        ),
        (
            anthropic_error(
                400,
                "invalid_request_error",
                "prompt is too long: 210000 tokens > 200000 maximum",
            ),
            ErrorKind::ContextTooLong,
            "prompt is too long",
        ),
        (
            Reply::body(413, "text/plain", "request entity too large"),
            ErrorKind::ContextTooLong,
            "too large",
        ),
        (
            Reply::fixture("errors/anthropic-400-effort-xhigh-unsupported.json")
                .unwrap()
                .status(400),
            ErrorKind::BadRequest,
            "does not support effort level 'xhigh'",
        ),
        (
            Reply::fixture("errors/openai-insufficient-quota-429.json")
                .unwrap()
                .status(429),
            ErrorKind::Quota,
            "exceeded your current quota",
        ),
    ];
    for (reply, kind, words) in table {
        let status = reply.status_code();
        let (run, requests) = one(vec![reply, ok_stream()]).await;
        let error = failed(&run);
        assert_eq!(error.kind, kind, "HTTP {status}");
        assert_eq!(error.status, Some(status));
        assert!(
            error.message.contains(words),
            "HTTP {status}: {}",
            error.message
        );
        assert_eq!(requests, 1, "HTTP {status} is not retried");
        assert_eq!(run.retries, 0);
    }
}

#[tokio::test]
async fn transient_errors_are_retried_then_succeed() {
    let table = [
        (
            Reply::body(408, "text/plain", "timeout"),
            ErrorKind::Network,
        ),
        (
            anthropic_error(500, "api_error", "Internal server error"),
            ErrorKind::Server,
        ),
        (
            Reply::body(
                502,
                "text/html",
                "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>",
            ),
            ErrorKind::Server,
        ),
        (
            anthropic_error(503, "api_error", "Service unavailable"),
            ErrorKind::Overloaded,
        ),
        (
            anthropic_error(529, "overloaded_error", "Overloaded"),
            ErrorKind::Overloaded,
        ),
        (Reply::refuse(), ErrorKind::Network),
    ];
    for (reply, _) in table {
        let (run, requests) = one(vec![reply, ok_stream()]).await;
        assert!(matches!(run.outcome, Outcome::Done(_)), "{:?}", run.outcome);
        assert_eq!(requests, 2);
        assert_eq!(run.retries, 1);
    }
    // And each is the right kind when the retries run out.
    let table = [
        (
            anthropic_error(500, "api_error", "Internal server error"),
            ErrorKind::Server,
            "Internal server error",
        ),
        (
            Reply::body(
                502,
                "text/html",
                "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>",
            ),
            ErrorKind::Server,
            "HTML page: 502 Bad Gateway",
        ),
        (
            anthropic_error(529, "overloaded_error", "Overloaded"),
            ErrorKind::Overloaded,
            "Overloaded",
        ),
    ];
    for (reply, kind, words) in table {
        let (run, requests) = one(vec![reply.clone(), reply.clone(), reply]).await;
        let error = failed(&run);
        assert_eq!(error.kind, kind);
        assert!(error.message.contains(words), "{}", error.message);
        assert_eq!(requests, 3, "one try and two retries");
    }
}

#[tokio::test]
async fn rate_limits_wait_for_retry_after() {
    let limited = anthropic_error(
        429,
        "rate_limit_error",
        "Number of request tokens has exceeded your per-minute rate limit",
    )
    .header("retry-after", "1");
    let started = Instant::now();
    let (run, requests) = one(vec![limited.clone(), ok_stream()]).await;
    assert!(matches!(run.outcome, Outcome::Done(_)));
    assert_eq!(requests, 2);
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "waited {:?}",
        started.elapsed()
    );
    let (run, _) = one(vec![limited.clone(), limited.clone(), limited]).await;
    let error = failed(&run);
    assert_eq!(error.kind, ErrorKind::RateLimited);
    assert_eq!(error.retry_after, Some(Duration::from_secs(1)));
    // A wait longer than the client will sit through is reported, not slept on.
    let (run, requests) = one(vec![
        anthropic_error(429, "rate_limit_error", "slow down").header("retry-after", "120"),
    ])
    .await;
    assert_eq!(failed(&run).retry_after, Some(Duration::from_secs(120)));
    assert_eq!(requests, 1);
}

#[tokio::test]
async fn broken_streams_keep_the_partial_answer_and_are_not_retried() {
    let body_len = ok_stream().served_body().len();
    let table = [
        (
            "malformed",
            ok_stream().malformed_line_after(12),
            ErrorKind::Decode,
        ),
        (
            "cut",
            ok_stream().cut_after(body_len * 2 / 3),
            ErrorKind::Network,
        ),
        (
            "stall",
            ok_stream().stall_after(body_len / 2),
            ErrorKind::Network,
        ),
    ];
    for (what, reply, kind) in table {
        let (run, requests) = one(vec![reply, ok_stream()]).await;
        let error = failed(&run);
        assert_eq!(error.kind, kind, "{what}: {}", error.message);
        assert_eq!(
            requests, 1,
            "{what}: a stream that started is never retried"
        );
        let turn = run.outcome.turn();
        assert!(
            turn.message.thinking().next().is_some(),
            "{what}: thoughts kept"
        );
        if what != "malformed" {
            assert!(
                !turn.message.text().is_empty(),
                "{what}: partial answer kept"
            );
        }
        if what == "stall" {
            assert!(error.message.contains("went silent"), "{}", error.message);
        }
    }
}

#[tokio::test]
async fn an_error_inside_a_200_stream_keeps_what_came_before() {
    // Anthropic's own in-stream error event.
    let stream = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"claude-sonnet-4-5\",\"usage\":{\"input_tokens\":5}}}\n\n\
                  event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n\
                  event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Half an ans\"}}\n\n\
                  event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    let (run, requests) = one(vec![Reply::sse(stream)]).await;
    let error = failed(&run);
    assert_eq!(error.kind, ErrorKind::Overloaded);
    assert_eq!(requests, 1);
    assert_eq!(run.outcome.turn().message.text(), "Half an ans");
}

#[tokio::test]
async fn a_refused_connection_and_an_html_page_on_200() {
    // Nothing listens on this port once the mock is gone.
    let mock = MockProvider::start().await.unwrap();
    let url = mock.url();
    mock.shutdown().await;
    let run = run_against(&url, &config(), CancellationToken::new()).await;
    let error = failed(&run);
    assert_eq!(error.kind, ErrorKind::Network);
    assert!(
        error.message.contains("could not connect"),
        "{}",
        error.message
    );
    assert_eq!(run.retries, 2, "connection failures are retried");

    let (run, _) = one(vec![Reply::body(
        200,
        "text/html",
        "<html><title>Captive portal</title></html>",
    )])
    .await;
    let error = failed(&run);
    assert_eq!(error.kind, ErrorKind::Decode);
    assert!(error.message.contains("web page"), "{}", error.message);
}

#[tokio::test]
async fn cancelling_mid_stream_keeps_what_arrived() {
    let mock = MockProvider::start().await.unwrap();
    mock.push(ok_stream().chunk_size(200).delay(Duration::from_millis(20)));
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(600)).await;
        stop.cancel();
    });
    let run = run_against(&mock.url(), &config(), cancel).await;
    mock.shutdown().await;
    let Outcome::Cancelled(turn) = &run.outcome else {
        panic!("{:?}", run.outcome)
    };
    assert_eq!(turn.stop, Some(StopReason::Cancelled));
    assert!(
        turn.message.thinking().next().is_some(),
        "the thoughts that arrived are kept"
    );
}

/// A stream whose one event never ends (a broken proxy, or a hostile server) is read up to
/// 16 MiB, then the turn ends with a clear error and what came before it kept: memory stays
/// bounded whatever the server sends.
#[tokio::test]
async fn an_event_that_never_ends_stops_the_turn_at_sixteen_mib() {
    let start = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"claude-sonnet-4-5\",\"usage\":{\"input_tokens\":5}}}\n\n\
                 event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n\
                 event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Before the flood\"}}\n\n\
                 event: content_block_delta\ndata: ";
    let mut body = start.as_bytes().to_vec();
    body.resize(body.len() + 20 * 1024 * 1024, b'x');
    let (run, requests) = one_with(
        &patient(),
        vec![Reply::body(200, "text/event-stream", body).chunk_size(256 * 1024)],
    )
    .await;
    let error = failed(&run);
    assert_eq!(error.kind, ErrorKind::Decode);
    assert!(error.message.contains("16 MiB"), "{}", error.message);
    assert_eq!(requests, 1);
    assert_eq!(run.outcome.turn().message.text(), "Before the flood");
}

/// An error page is read as far as its first MiB: enough for any message, and a server that
/// sends gigabytes with its 500 cannot fill memory with them.
#[tokio::test]
async fn an_error_body_is_read_to_one_mib_at_most() {
    let mock = MockProvider::start().await.unwrap();
    let mut page = b"{\"error\":{\"type\":\"api_error\",\"message\":\"Internal\"}}".to_vec();
    page.resize(5 * 1024 * 1024, b' ');
    mock.push(Reply::body(500, "application/json", page.clone()).chunk_size(64 * 1024));
    let client = http::client(&patient()).unwrap();
    let mut response = client.post(mock.url()).send().await.unwrap();
    let body = http::read_body(
        &mut response,
        "anthropic",
        http::MAX_ERROR_BODY,
        &patient(),
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    assert!(body.cut);
    assert_eq!(body.bytes, page[..http::MAX_ERROR_BODY]);
    mock.shutdown().await;

    // Through a turn, the message still reads from what was kept.
    let (run, _) = one_with(
        &patient(),
        vec![Reply::body(400, "application/json", page).chunk_size(64 * 1024)],
    )
    .await;
    let error = failed(&run);
    assert_eq!(error.kind, ErrorKind::BadRequest);
    assert!(error.message.contains("Internal"), "{}", error.message);
}
