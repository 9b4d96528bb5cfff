//! The `ponder-mock-provider` binary, run as scripts and end-to-end tests will run it.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{get, parse, post};
use ponder_mock_provider::fixtures_dir;

const BIN: &str = env!("CARGO_BIN_EXE_ponder-mock-provider");

/// The running binary; killed when dropped, so a failing test leaves nothing behind.
struct Running {
    child: Child,
    url: String,
    port: u16,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(args: &[&str]) -> Running {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn the mock binary");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("read the first line");
    let url = line
        .strip_suffix('\n')
        .and_then(|l| l.strip_prefix("listening on "))
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    let port = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected url {url:?}"));
    Running { child, url, port }
}

fn exchange(port: u16, request: &[u8]) -> Vec<u8> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).unwrap();
    bytes
}

fn read_record(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each record line is JSON"))
        .collect()
}

#[test]
fn prints_the_listening_line_serves_and_records() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("requests.jsonl");
    let fixture = fixtures_dir().join("deepseek/pydantic-deepseek-reasoner-stream.sse");
    let mock = start(&[
        "--port",
        "0",
        "--fixture",
        fixture.to_str().unwrap(),
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(mock.port > 0);
    assert_eq!(mock.url, format!("http://127.0.0.1:{}", mock.port));

    let raw = exchange(
        mock.port,
        &post(
            "/v1/chat/completions?api-version=1",
            r#"{"model":"deepseek-reasoner"}"#,
        ),
    );
    let response = parse(&raw);
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    assert!(response.complete);
    assert_eq!(response.body, std::fs::read(&fixture).unwrap());

    // The same reply again, for every request.
    let again = parse(&exchange(mock.port, &get("/health")));
    assert_eq!(again.body, response.body);

    let lines = read_record(&record);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["method"], "POST");
    assert_eq!(lines[0]["path"], "/v1/chat/completions");
    assert_eq!(lines[0]["query"], "api-version=1");
    assert_eq!(lines[0]["headers"]["content-type"], "application/json");
    assert_eq!(lines[0]["body"]["model"], "deepseek-reasoner");
    assert_eq!(lines[1]["method"], "GET");
    assert_eq!(lines[1]["path"], "/health");
    assert_eq!(lines[1]["body"], "");
}

#[test]
fn applies_status_headers_chunking_and_cuts() {
    let mock = start(&[
        "--fixture",
        "anthropic/pydantic-sonnet4-thinking-stream.sse",
        "--status",
        "503",
        "--header",
        "retry-after: 2",
        "--chunk-size",
        "7",
        "--delay-ms",
        "1",
        "--cut-after",
        "20",
    ]);
    let response = parse(&exchange(mock.port, &post("/v1/messages", "{}")));
    assert_eq!(response.status, 503);
    assert_eq!(response.header("retry-after"), Some("2"));
    assert_eq!(response.chunk_sizes(), vec![7, 7, 6]);
    assert!(!response.complete);
    let fixture =
        std::fs::read(fixtures_dir().join("anthropic/pydantic-sonnet4-thinking-stream.sse"))
            .unwrap();
    assert_eq!(response.body, &fixture[..20]);
}

#[test]
fn jsonl_with_done_and_malformed_line() {
    let mock = start(&[
        "--fixture",
        "xai/vercel-grok3-mini-reasoning-content-stream.jsonl",
        "--malformed-after",
        "1",
        "--done",
    ]);
    let text = parse(&exchange(mock.port, &post("/v1/chat/completions", "{}"))).text();
    let events: Vec<&str> = text.split("\n\n").filter(|e| !e.is_empty()).collect();
    assert!(events[0].starts_with("data: {"));
    assert_eq!(events[1], "data: {not json");
    assert_eq!(events.last(), Some(&"data: [DONE]"));
}

#[test]
fn refuses_to_start_on_a_bad_fixture() {
    let output = Command::new(BIN)
        .args(["--fixture", "no/such/file.sse"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(output.stdout.is_empty(), "no listening line");
    assert!(String::from_utf8_lossy(&output.stderr).contains("file.sse"));
}
