//! The library over real TCP: what each reply and fault looks like on the wire.

mod common;

use std::time::{Duration, Instant};

use common::{End, Received, get, is_reset, parse, post};
use ponder_mock_provider::{MockProvider, RecordedRequest, Reply, fixtures_dir};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Long enough never to fire on a healthy exchange, short enough to fail fast.
const PATIENCE: Duration = Duration::from_secs(10);

async fn connect(mock: &MockProvider) -> TcpStream {
    TcpStream::connect(mock.addr()).await.expect("connect")
}

/// Reads until the server closes, resets, or stays silent for `idle`.
async fn read_until_end(stream: &mut TcpStream, idle: Duration) -> Received {
    let mut received = Received {
        bytes: Vec::new(),
        arrivals: Vec::new(),
        end: End::Eof,
    };
    let mut buf = [0u8; 65536];
    loop {
        match tokio::time::timeout(idle, stream.read(&mut buf)).await {
            Err(_) => {
                received.end = End::TimedOut;
                break;
            }
            Ok(Ok(0)) => break,
            Ok(Ok(n)) => {
                received.bytes.extend_from_slice(&buf[..n]);
                received
                    .arrivals
                    .push((received.bytes.len(), Instant::now()));
            }
            Ok(Err(e)) if is_reset(&e) => {
                received.end = End::Reset;
                break;
            }
            Ok(Err(e)) => panic!("read failed: {e}"),
        }
    }
    received
}

async fn exchange(mock: &MockProvider, request: &[u8]) -> Received {
    let mut stream = connect(mock).await;
    stream.write_all(request).await.unwrap();
    read_until_end(&mut stream, PATIENCE).await
}

fn fixture_bytes(rel: &str) -> Vec<u8> {
    std::fs::read(fixtures_dir().join(rel)).unwrap()
}

#[tokio::test]
async fn sse_fixture_is_served_byte_identical() {
    let mock = MockProvider::start().await.unwrap();
    let rel = "anthropic/pydantic-sonnet4-thinking-stream.sse";
    mock.push(Reply::fixture(fixtures_dir().join(rel)).unwrap());
    let received = exchange(&mock, &post("/v1/messages", "{}")).await;
    assert_eq!(received.end, End::Eof);
    let response = parse(&received.bytes);
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    assert_eq!(response.header("transfer-encoding"), Some("chunked"));
    assert_eq!(response.header("connection"), Some("close"));
    assert!(response.complete);
    assert_eq!(
        response.chunks.len(),
        1,
        "whole body in one chunk by default"
    );
    assert_eq!(response.body, fixture_bytes(rel));
    mock.shutdown().await;
}

#[tokio::test]
async fn crlf_sse_ndjson_and_binary_fixtures_are_verbatim() {
    let mock = MockProvider::start().await.unwrap();
    let cases = [
        (
            "google/pydantic-gemini25-pro-thought-parts-stream.sse",
            "text/event-stream",
        ),
        (
            "ollama/attogram-ollama-generate-gpt-oss-120b-thinking-stream.ndjson",
            "application/x-ndjson",
        ),
        (
            "bedrock/pydantic-bedrock-claude-sonnet4-reasoning-stream.eventstream",
            "application/vnd.amazon.eventstream",
        ),
    ];
    for (rel, content_type) in cases {
        // Relative paths are found under tests/fixtures/real.
        mock.push(Reply::fixture(rel).unwrap().chunk_size(100));
        let response = parse(&exchange(&mock, &post("/x", "{}")).await.bytes);
        assert_eq!(response.header("content-type"), Some(content_type), "{rel}");
        assert!(response.complete, "{rel}");
        assert_eq!(response.body, fixture_bytes(rel), "{rel}");
        assert!(response.chunk_sizes().iter().all(|&s| s <= 100), "{rel}");
    }
    let gemini = String::from_utf8(fixture_bytes(cases[0].0)).unwrap();
    assert!(
        gemini.contains("\r\n\r\n"),
        "the Gemini fixture keeps its CRLFs"
    );
    mock.shutdown().await;
}

#[tokio::test]
async fn jsonl_fixture_is_wrapped_as_sse_and_done_only_on_request() {
    let mock = MockProvider::start().await.unwrap();
    let rel = "openai/vercel-azure-chat-gpt5-nano-reasoning-tokens-stream.jsonl";
    let source = String::from_utf8(fixture_bytes(rel)).unwrap();
    let expected: String = source
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("data: {l}\n\n"))
        .collect();
    mock.push(Reply::fixture(rel).unwrap());
    mock.push(Reply::fixture(rel).unwrap().with_done());

    let plain = parse(
        &exchange(&mock, &post("/v1/chat/completions", "{}"))
            .await
            .bytes,
    );
    assert_eq!(plain.header("content-type"), Some("text/event-stream"));
    assert_eq!(plain.text(), expected);
    assert!(!plain.text().contains("[DONE]"));

    let done = parse(
        &exchange(&mock, &post("/v1/chat/completions", "{}"))
            .await
            .bytes,
    );
    assert_eq!(done.text(), format!("{expected}data: [DONE]\n\n"));
    mock.shutdown().await;
}

#[tokio::test]
async fn json_replies_use_content_length_status_and_headers() {
    let mock = MockProvider::start().await.unwrap();
    let rel = "errors/anthropic-400-effort-xhigh-unsupported.json";
    mock.push(Reply::fixture(rel).unwrap().status(400));
    mock.push(
        Reply::json(429, json!({"error": {"type": "rate_limit_error"}})).header("retry-after", "7"),
    );
    mock.push(Reply::body(
        502,
        "text/html",
        "<html><body>Bad gateway</body></html>",
    ));

    let response = parse(&exchange(&mock, &post("/v1/messages", "{}")).await.bytes);
    assert_eq!(response.status, 400);
    assert_eq!(response.header("content-type"), Some("application/json"));
    assert_eq!(response.header("transfer-encoding"), None);
    assert_eq!(
        response.header("content-length"),
        Some(fixture_bytes(rel).len().to_string().as_str())
    );
    assert!(response.complete);
    assert_eq!(response.body, fixture_bytes(rel));

    let response = parse(&exchange(&mock, &post("/v1/messages", "{}")).await.bytes);
    assert_eq!(response.status, 429);
    assert_eq!(response.header("retry-after"), Some("7"));
    let body: serde_json::Value = serde_json::from_slice(&response.body).unwrap();
    assert_eq!(body["error"]["type"], "rate_limit_error");

    let received = exchange(&mock, &get("/")).await;
    assert!(received.bytes.starts_with(b"HTTP/1.1 502 Bad Gateway\r\n"));
    let response = parse(&received.bytes);
    assert_eq!(response.header("content-type"), Some("text/html"));
    assert_eq!(response.text(), "<html><body>Bad gateway</body></html>");
    mock.shutdown().await;
}

#[tokio::test]
async fn chunk_size_one_sends_one_byte_per_chunk() {
    let mock = MockProvider::start().await.unwrap();
    let text = "event: ping\ndata: {\"type\":\"ping\"}\n\n";
    mock.push(Reply::sse(text).chunk_size(1));
    let response = parse(&exchange(&mock, &post("/v1/messages", "{}")).await.bytes);
    assert!(response.complete);
    assert_eq!(response.chunks.len(), text.len());
    assert!(response.chunk_sizes().iter().all(|&s| s == 1));
    assert_eq!(response.text(), text);
    mock.shutdown().await;
}

#[tokio::test]
async fn a_burst_comes_first_then_the_chunks() {
    let mock = MockProvider::start().await.unwrap();
    let text = "data: a long start\n\ndata: 1\n\ndata: 2\n\n";
    mock.push(Reply::sse(text).burst(20).chunk_size(5));
    let response = parse(&exchange(&mock, &post("/v1/messages", "{}")).await.bytes);
    assert!(response.complete);
    assert_eq!(response.chunk_sizes(), vec![20, 5, 5, 5, 3]);
    assert_eq!(response.text(), text);
    mock.shutdown().await;
}

#[tokio::test]
async fn delay_spaces_the_chunks() {
    let mock = MockProvider::start().await.unwrap();
    let delay = Duration::from_millis(150);
    mock.push(
        Reply::sse("data: 1\n\ndata: 2\n\n")
            .chunk_size(5)
            .delay(delay),
    );
    let mut stream = connect(&mock).await;
    let started = Instant::now();
    stream.write_all(&post("/x", "{}")).await.unwrap();
    let received = read_until_end(&mut stream, PATIENCE).await;
    let response = parse(&received.bytes);
    assert_eq!(response.chunk_sizes(), vec![5, 5, 5, 3]);
    let times: Vec<Instant> = response
        .chunks
        .iter()
        .map(|&(_, end)| received.arrival_of(end))
        .collect();
    // Three delays must pass before the last chunk can arrive (a hard bound), and the
    // chunks arrive spread out, not in one burst (a loose bound, so a busy machine still passes).
    let total = *times.last().unwrap() - started;
    assert!(total >= delay * 3, "all chunks within {total:?}");
    for pair in times.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(gap >= delay / 2, "chunks only {gap:?} apart");
    }
    mock.shutdown().await;
}

#[tokio::test]
async fn cut_after_drops_the_connection_mid_body() {
    let mock = MockProvider::start().await.unwrap();
    let text = "data: {\"a\":1}\n\ndata: {\"b\":2}\n\n";
    mock.push(Reply::sse(text).chunk_size(4).cut_after(10));
    mock.push(Reply::json(200, json!({"long": "enough body"})).cut_after(5));

    let received = exchange(&mock, &post("/x", "{}")).await;
    assert_eq!(received.end, End::Eof, "closed, not stalled");
    let response = parse(&received.bytes);
    assert_eq!(response.status, 200);
    assert_eq!(response.chunk_sizes(), vec![4, 4, 2]);
    assert_eq!(response.body, &text.as_bytes()[..10]);
    assert!(!response.complete, "no terminating chunk");
    assert!(!received.bytes.ends_with(b"0\r\n\r\n"));

    let received = exchange(&mock, &post("/x", "{}")).await;
    let response = parse(&received.bytes);
    assert_eq!(response.body, b"{\"lon");
    assert!(!response.complete, "fewer bytes than Content-Length");
    mock.shutdown().await;
}

#[tokio::test]
async fn stall_after_goes_silent_until_shutdown() {
    let mock = MockProvider::start().await.unwrap();
    let text = "data: {\"a\":1}\n\ndata: {\"b\":2}\n\n";
    mock.push(Reply::sse(text).stall_after(15));
    let mut stream = connect(&mock).await;
    stream.write_all(&post("/x", "{}")).await.unwrap();

    let received = read_until_end(&mut stream, Duration::from_millis(400)).await;
    assert_eq!(received.end, End::TimedOut, "the socket stays open");
    let response = parse(&received.bytes);
    assert_eq!(response.body, &text.as_bytes()[..15]);
    assert!(!response.complete);

    let started = Instant::now();
    mock.shutdown().await;
    let after = read_until_end(&mut stream, PATIENCE).await;
    assert_ne!(
        after.end,
        End::TimedOut,
        "shutdown ends the stalled connection"
    );
    assert!(after.bytes.is_empty(), "nothing more was sent");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn stall_after_zero_sends_only_the_head_and_ends_when_the_client_leaves() {
    let mock = MockProvider::start().await.unwrap();
    mock.push(Reply::sse("data: 1\n\n").stall_after(0));
    let mut stream = connect(&mock).await;
    stream.write_all(&get("/")).await.unwrap();
    let received = read_until_end(&mut stream, Duration::from_millis(300)).await;
    assert_eq!(received.end, End::TimedOut);
    let response = parse(&received.bytes);
    assert_eq!(response.status, 200);
    assert!(response.body.is_empty());
    assert_eq!(mock.open_connections(), 1);
    // The client giving up ends the stall on the server side.
    drop(stream);
    let deadline = Instant::now() + PATIENCE;
    while mock.open_connections() > 0 {
        assert!(
            Instant::now() < deadline,
            "the stalled connection stayed open"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    mock.shutdown().await;
}

#[tokio::test]
async fn malformed_line_is_inserted_after_n_events() {
    let mock = MockProvider::start().await.unwrap();
    let rel = "deepseek/vercel-deepseek-reasoner-stream.jsonl";
    let source = String::from_utf8(fixture_bytes(rel)).unwrap();
    let lines: Vec<&str> = source.lines().filter(|l| !l.trim().is_empty()).collect();
    mock.push(
        Reply::fixture(rel)
            .unwrap()
            .malformed_line_after(2)
            .chunk_size(64),
    );
    mock.push(
        Reply::fixture("ollama/attogram-ollama-generate-gpt-oss-120b-thinking-stream.ndjson")
            .unwrap()
            .malformed_line_after(3),
    );

    let response = parse(&exchange(&mock, &post("/x", "{}")).await.bytes);
    let text = response.text();
    let mut expected = format!(
        "data: {}\n\ndata: {}\n\ndata: {{not json\n\n",
        lines[0], lines[1]
    );
    for line in &lines[2..] {
        expected.push_str(&format!("data: {line}\n\n"));
    }
    assert_eq!(text, expected);

    let response = parse(&exchange(&mock, &post("/api/generate", "{}")).await.bytes);
    let ndjson: Vec<String> = response.text().lines().map(str::to_owned).collect();
    assert_eq!(ndjson[3], "{not json");
    assert!(serde_json::from_str::<serde_json::Value>(&ndjson[2]).is_ok());
    assert!(serde_json::from_str::<serde_json::Value>(&ndjson[4]).is_ok());
    mock.shutdown().await;
}

#[tokio::test]
async fn refuse_closes_without_a_response() {
    let mock = MockProvider::start().await.unwrap();
    mock.push(Reply::refuse());
    mock.push(Reply::sse("data: ok\n\n"));

    let received = exchange(&mock, &post("/v1/responses", "{\"n\":1}")).await;
    assert!(received.bytes.is_empty(), "got {:?}", received.bytes);
    assert_ne!(received.end, End::TimedOut);

    // The retry gets the next reply, and both attempts were recorded.
    let response = parse(
        &exchange(&mock, &post("/v1/responses", "{\"n\":2}"))
            .await
            .bytes,
    );
    assert_eq!(response.text(), "data: ok\n\n");
    let requests = mock.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].json(), json!({"n": 1}));
    assert_eq!(requests[1].json(), json!({"n": 2}));
    mock.shutdown().await;
}

#[tokio::test]
async fn replies_are_served_in_order_then_the_default_then_404() {
    let mock = MockProvider::start().await.unwrap();
    let status_of = |received: Received| parse(&received.bytes).status;

    // Nothing queued and no default: a 404 that says so.
    let response = parse(&exchange(&mock, &post("/v1/messages", "{}")).await.bytes);
    assert_eq!(response.status, 404);
    let body: serde_json::Value = serde_json::from_slice(&response.body).unwrap();
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("no reply was queued"), "{message}");
    assert!(message.contains("POST /v1/messages"), "{message}");

    mock.push(Reply::json(200, json!({"n": 1})));
    mock.push(Reply::json(201, json!({"n": 2})));
    mock.set_default(Reply::json(503, json!({"n": "default"})));
    assert_eq!(mock.pending(), 2);
    assert_eq!(status_of(exchange(&mock, &get("/a")).await), 200);
    assert_eq!(status_of(exchange(&mock, &get("/b")).await), 201);
    assert_eq!(mock.pending(), 0);
    assert_eq!(status_of(exchange(&mock, &get("/c")).await), 503);
    assert_eq!(status_of(exchange(&mock, &get("/d")).await), 503);
    mock.push(Reply::json(202, json!({})));
    assert_eq!(status_of(exchange(&mock, &get("/e")).await), 202);

    let paths: Vec<String> = mock.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(paths, ["/v1/messages", "/a", "/b", "/c", "/d", "/e"]);
    mock.shutdown().await;
}

#[tokio::test]
async fn requests_are_recorded_with_method_path_query_headers_and_body() {
    let mock = MockProvider::start().await.unwrap();
    mock.set_default(Reply::sse("data: {}\n\n"));
    let body = r#"{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}"#;
    let request = format!(
        "POST /v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse HTTP/1.1\r\n\
         Host: 127.0.0.1\r\nX-Goog-Api-Key: secret\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    exchange(&mock, request.as_bytes()).await;

    // A chunked request body behind `Expect: 100-continue`, as some clients send.
    let mut stream = connect(&mock).await;
    stream
        .write_all(
            b"POST /api/chat HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\
              Expect: 100-continue\r\n\r\n",
        )
        .await
        .unwrap();
    let mut interim = [0u8; 25];
    tokio::time::timeout(PATIENCE, stream.read_exact(&mut interim))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(&interim, b"HTTP/1.1 100 Continue\r\n\r\n");
    stream
        .write_all(b"7\r\n{\"mode\"\r\n5\r\n:\"x\"}\r\n0\r\n\r\n")
        .await
        .unwrap();
    let response = parse(&read_until_end(&mut stream, PATIENCE).await.bytes);
    assert_eq!(response.status, 200);

    let requests = mock.requests();
    assert_eq!(requests.len(), 2);
    let first: &RecordedRequest = &requests[0];
    assert_eq!(first.method, "POST");
    assert_eq!(
        first.path,
        "/v1beta/models/gemini-2.5-pro:streamGenerateContent"
    );
    assert_eq!(first.query, "alt=sse");
    assert_eq!(first.header("x-goog-api-key"), Some("secret"));
    assert_eq!(first.header("Content-Type"), Some("application/json"));
    assert!(first.headers.iter().all(|(n, _)| *n == n.to_lowercase()));
    assert_eq!(first.body, body.as_bytes());
    assert_eq!(first.json()["contents"][0]["parts"][0]["text"], "hi");

    let second = &requests[1];
    assert_eq!(
        (second.path.as_str(), second.query.as_str()),
        ("/api/chat", "")
    );
    assert_eq!(second.json(), json!({"mode": "x"}));
    mock.shutdown().await;
}

#[tokio::test]
async fn malformed_requests_get_a_400() {
    let mock = MockProvider::start().await.unwrap();
    mock.set_default(Reply::sse("data: {}\n\n"));
    let response = parse(&exchange(&mock, b"nonsense\r\n\r\n").await.bytes);
    assert_eq!(response.status, 400);
    assert!(mock.requests().is_empty());
    mock.shutdown().await;
}

#[tokio::test]
async fn on_request_hook_sees_each_request_before_the_reply() {
    let mock = MockProvider::start().await.unwrap();
    mock.set_default(Reply::json(200, json!({})));
    let (tx, rx) = std::sync::mpsc::channel();
    mock.on_request(move |r| tx.send(r.path.clone()).unwrap());
    exchange(&mock, &get("/one")).await;
    exchange(&mock, &get("/two")).await;
    assert_eq!(rx.try_iter().collect::<Vec<_>>(), ["/one", "/two"]);
    mock.shutdown().await;
}

#[tokio::test]
async fn shutdown_stops_accepting() {
    let mock = MockProvider::start().await.unwrap();
    let addr = mock.addr();
    assert_eq!(mock.url(), format!("http://127.0.0.1:{}", addr.port()));
    mock.shutdown().await;
    assert!(TcpStream::connect(addr).await.is_err());
}

#[tokio::test]
async fn dropping_the_mock_ends_stalled_connections_too() {
    let mock = MockProvider::start().await.unwrap();
    mock.push(Reply::sse("data: 1\n\n").stall_after(0));
    let mut stream = connect(&mock).await;
    stream.write_all(&get("/")).await.unwrap();
    let head = read_until_end(&mut stream, Duration::from_millis(300)).await;
    assert_eq!(head.end, End::TimedOut);
    drop(mock);
    let after = read_until_end(&mut stream, PATIENCE).await;
    assert_ne!(after.end, End::TimedOut);
}

/// A real HTTP client (the one the provider clients use) sees the same things.
mod with_reqwest {
    use super::*;

    #[tokio::test]
    async fn streams_chunk_by_chunk() {
        let mock = MockProvider::start().await.unwrap();
        let rel = "openrouter/pydantic-openrouter-claude-sonnet45-reasoning-stream.sse";
        mock.push(
            Reply::fixture(rel)
                .unwrap()
                .chunk_size(512)
                .delay(Duration::from_millis(2)),
        );
        let client = reqwest::Client::new();
        let mut response = client
            .post(format!("{}/v1/chat/completions", mock.url()))
            .json(&json!({"model": "m", "stream": true}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        let mut pieces = 0;
        let mut body = Vec::new();
        while let Some(piece) = response.chunk().await.unwrap() {
            pieces += 1;
            body.extend_from_slice(&piece);
        }
        assert_eq!(body, fixture_bytes(rel));
        assert!(pieces > 5, "only {pieces} pieces");
        let request = &mock.requests()[0];
        assert_eq!(request.path, "/v1/chat/completions");
        assert_eq!(request.json()["stream"], true);
        mock.shutdown().await;
    }

    #[tokio::test]
    async fn sees_cuts_refusals_and_stalls_as_errors() {
        let mock = MockProvider::start().await.unwrap();
        mock.push(Reply::sse("data: {\"a\":1}\n\ndata: {\"b\":2}\n\n").cut_after(12));
        mock.push(Reply::refuse());
        mock.push(Reply::sse("data: {\"a\":1}\n\n").stall_after(5));
        let client = reqwest::Client::new();

        let mut cut = client.get(mock.url()).send().await.unwrap();
        assert_eq!(cut.chunk().await.unwrap().unwrap(), &b"data: {\"a\":1"[..]);
        assert!(cut.chunk().await.is_err(), "an unfinished body is an error");

        assert!(client.get(mock.url()).send().await.is_err());

        let mut stalled = client.get(mock.url()).send().await.unwrap();
        assert_eq!(stalled.chunk().await.unwrap().unwrap(), &b"data:"[..]);
        let waited = tokio::time::timeout(Duration::from_millis(300), stalled.chunk()).await;
        assert!(waited.is_err(), "the stall keeps the client waiting");
        mock.shutdown().await;
        assert!(stalled.chunk().await.is_err(), "shutdown ends the stall");
    }
}
