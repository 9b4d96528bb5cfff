//! Real MCP servers from the registries, installed by the project's scripts at pinned
//! versions (`tests/package.json`, `tests/mcp/requirements.txt`): the reference "everything"
//! server over stdio and Streamable HTTP, the filesystem server on a temporary folder, and
//! the Python time server. Plus servers that fail in every way a server can.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use ponder_core::chat::ToolContent;
use ponder_core::mcp::{Connection, Hub, McpError, ServerConfig, ServerState, Transport};
use serde_json::{Map, Value, json};

const DEADLINE: Duration = Duration::from_secs(30);

fn installed(path: &str) -> PathBuf {
    let path = ponder_tests::workspace_root().join(path);
    assert!(
        path.exists(),
        "{} is missing: `./.ci/test` installs the MCP servers the tests use",
        path.display()
    );
    path
}

fn everything_js() -> PathBuf {
    installed("tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
}

fn stdio(id: &str, command: &str, args: &[&str], env: &[(&str, &str)]) -> ServerConfig {
    ServerConfig {
        id: id.into(),
        name: id.into(),
        enabled: true,
        transport: Transport::Stdio {
            command: command.into(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: env
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            secret_env: Vec::new(),
            cwd: None,
        },
    }
}

fn everything() -> ServerConfig {
    stdio(
        "everything",
        "node",
        &[everything_js().to_str().unwrap(), "stdio"],
        &[],
    )
}

fn args(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("arguments are objects"),
    }
}

fn text_of(content: &[ToolContent]) -> String {
    content
        .iter()
        .filter_map(|c| match c {
            ToolContent::Text { text } => Some(text.as_str()),
            ToolContent::Image { .. } => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

async fn open(config: &ServerConfig) -> Connection {
    Connection::open(config, &BTreeMap::new(), DEADLINE)
        .await
        .unwrap_or_else(|e| panic!("{}: {e}", config.id))
}

#[tokio::test]
async fn the_everything_server_over_stdio_lists_and_runs_its_tools() {
    let server = open(&everything()).await;
    let names: Vec<&str> = server.tools().iter().map(|t| t.name.as_str()).collect();
    for expected in ["echo", "get-sum", "get-tiny-image"] {
        assert!(names.contains(&expected), "{expected} in {names:?}");
    }
    let echo = server.tools().iter().find(|t| t.name == "echo").unwrap();
    assert_eq!(echo.input_schema["type"], "object");
    assert!(echo.input_schema["properties"]["message"].is_object());

    let out = server
        .call(
            "echo",
            args(json!({ "message": "hello from Ponder" })),
            DEADLINE,
        )
        .await
        .unwrap();
    assert!(!out.is_error);
    assert_eq!(text_of(&out.content), "Echo: hello from Ponder");

    let sum = server
        .call("get-sum", args(json!({ "a": 2, "b": 3 })), DEADLINE)
        .await
        .unwrap();
    assert!(text_of(&sum.content).contains('5'), "{:?}", sum.content);

    let image = server
        .call("get-tiny-image", Map::new(), DEADLINE)
        .await
        .unwrap();
    assert!(
        image.content.iter().any(
            |c| matches!(c, ToolContent::Image { mime_type, data } if mime_type == "image/png" && !data.is_empty())
        ),
        "{:?}",
        image.content
    );
    server.close().await;
}

#[tokio::test]
async fn the_everything_server_over_streamable_http() {
    let port = free_port();
    let mut process = tokio::process::Command::new("node")
        .arg(everything_js())
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    wait_for_port(port).await;
    let config = ServerConfig {
        id: "everything-http".into(),
        name: "Everything (HTTP)".into(),
        enabled: true,
        transport: Transport::Http {
            url: format!("http://127.0.0.1:{port}/mcp"),
            headers: BTreeMap::from([("X-Ponder-Test".into(), "1".into())]),
            secret_headers: Vec::new(),
        },
    };
    let server = open(&config).await;
    assert!(server.tools().iter().any(|t| t.name == "echo"));
    let out = server
        .call("echo", args(json!({ "message": "over HTTP" })), DEADLINE)
        .await
        .unwrap();
    assert_eq!(text_of(&out.content), "Echo: over HTTP");
    server.close().await;
    let _ = process.kill().await;
}

#[tokio::test]
async fn the_filesystem_server_reads_and_writes_only_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "Bridges sway in the wind.\n").unwrap();
    let bin = installed("tests/node_modules/.bin/mcp-server-filesystem");
    let config = stdio(
        "files",
        bin.to_str().unwrap(),
        &[dir.path().to_str().unwrap()],
        &[],
    );
    let server = open(&config).await;
    let names: Vec<&str> = server.tools().iter().map(|t| t.name.as_str()).collect();
    let read = ["read_text_file", "read_file"]
        .into_iter()
        .find(|n| names.contains(n))
        .unwrap_or_else(|| panic!("a read tool in {names:?}"));
    let path = dir.path().join("notes.txt");
    let out = server
        .call(read, args(json!({ "path": path })), DEADLINE)
        .await
        .unwrap();
    assert_eq!(text_of(&out.content).trim(), "Bridges sway in the wind.");

    let outside = server
        .call(read, args(json!({ "path": "/etc/hostname" })), DEADLINE)
        .await;
    match outside {
        Ok(out) => assert!(
            out.is_error,
            "outside the folder is refused: {:?}",
            out.content
        ),
        Err(McpError::Call(_)) => {}
        Err(other) => panic!("{other}"),
    }
    server.close().await;
}

#[tokio::test]
async fn the_python_time_server_answers_in_a_time_zone() {
    let bin = installed("tests/mcp/.venv/bin/mcp-server-time");
    let config = stdio(
        "time",
        bin.to_str().unwrap(),
        &["--local-timezone", "Europe/Paris"],
        &[],
    );
    let server = open(&config).await;
    assert!(server.tools().iter().any(|t| t.name == "get_current_time"));
    let out = server
        .call(
            "get_current_time",
            args(json!({ "timezone": "Asia/Tokyo" })),
            DEADLINE,
        )
        .await
        .unwrap();
    let text = text_of(&out.content);
    assert!(!out.is_error, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer["timezone"], "Asia/Tokyo");
    server.close().await;
}

// ---- servers that fail ----

#[tokio::test]
async fn a_program_that_does_not_exist_says_so() {
    let config = stdio("ghost", "/nonexistent/mcp-server", &[], &[]);
    let error = Connection::open(&config, &BTreeMap::new(), DEADLINE)
        .await
        .unwrap_err();
    assert!(matches!(error, McpError::Spawn { .. }), "{error:?}");
    assert!(
        error.to_string().contains("/nonexistent/mcp-server"),
        "{error}"
    );
}

#[tokio::test]
async fn a_server_that_dies_at_start_shows_its_last_words() {
    let config = stdio(
        "broken",
        "node",
        &[
            "-e",
            "console.error('starting up'); console.error('fatal: MCP_TOKEN is not set'); process.exit(3)",
        ],
        &[],
    );
    let error = Connection::open(&config, &BTreeMap::new(), DEADLINE)
        .await
        .unwrap_err();
    let text = error.to_string();
    assert!(text.contains("fatal: MCP_TOKEN is not set"), "{text}");
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let config = stdio("mute", "node", &["-e", "setInterval(() => {}, 1000)"], &[]);
    let started = std::time::Instant::now();
    let error = Connection::open(&config, &BTreeMap::new(), Duration::from_secs(2))
        .await
        .unwrap_err();
    assert!(matches!(error, McpError::StartTimeout(_)), "{error:?}");
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn a_server_that_speaks_something_else_is_refused() {
    let config = stdio(
        "chatty",
        "node",
        &[
            "-e",
            "process.stdin.on('data', () => process.stdout.write('this is not JSON-RPC\\n'))",
        ],
        &[],
    );
    let error = Connection::open(&config, &BTreeMap::new(), Duration::from_secs(5))
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            McpError::Handshake(_) | McpError::StartTimeout(_) | McpError::WithStderr { .. }
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_call_past_its_deadline_times_out_and_the_server_stays_usable() {
    let server = open(&everything()).await;
    let slow = server
        .call(
            "trigger-long-running-operation",
            args(json!({ "duration": 10, "steps": 2 })),
            Duration::from_millis(800),
        )
        .await;
    assert!(matches!(slow, Err(McpError::CallTimeout(_))), "{slow:?}");
    let out = server
        .call("echo", args(json!({ "message": "still here" })), DEADLINE)
        .await
        .unwrap();
    assert_eq!(text_of(&out.content), "Echo: still here");
    server.close().await;
}

#[tokio::test]
async fn a_call_with_bad_arguments_comes_back_as_an_error_not_a_crash() {
    let server = open(&everything()).await;
    let out = server
        .call("get-sum", args(json!({ "a": "two" })), DEADLINE)
        .await;
    match out {
        Ok(out) => assert!(out.is_error, "{:?}", out.content),
        Err(McpError::Call(text)) => assert!(!text.is_empty()),
        Err(other) => panic!("{other}"),
    }
    server.close().await;
}

// ---- the hub: started on use, restarted once, stopped with everything it started ----

/// Processes whose environment carries `marker`.
fn processes_with(marker: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Ok(environ) = std::fs::read(entry.path().join("environ"))
            && environ
                .split(|b| *b == 0)
                .any(|var| var == marker.as_bytes())
        {
            found.push(pid);
        }
    }
    found
}

fn hub() -> Hub {
    Hub::new(std::sync::Arc::new(|_| Ok(BTreeMap::new())), DEADLINE)
}

#[tokio::test]
async fn the_hub_starts_on_first_use_restarts_once_and_stops_everything() {
    let marker = format!("PONDER_TEST_RUN={}", std::process::id());
    let (key, value) = marker.split_once('=').unwrap();
    // `sh` starts node as its child (`; true` keeps sh from handing over to it): stopping
    // the server must stop both.
    let script = format!("node {} stdio; true", everything_js().display());
    let config = stdio("everything", "sh", &["-c", &script], &[(key, value)]);
    let hub = hub();
    hub.configure(std::slice::from_ref(&config)).await;
    assert_eq!(
        hub.status()[0].state,
        ServerState::Stopped,
        "nothing starts until needed"
    );
    assert!(processes_with(&marker).is_empty());

    let out = hub
        .call(
            "everything",
            "echo",
            args(json!({ "message": "one" })),
            DEADLINE,
        )
        .await
        .unwrap();
    assert_eq!(text_of(&out.content), "Echo: one");
    match &hub.status()[0].state {
        ServerState::Connected { tools } => assert!(tools.contains(&"echo".to_owned())),
        other => panic!("{other:?}"),
    }
    let running = processes_with(&marker);
    assert_eq!(running.len(), 2, "sh and node: {running:?}");

    // The server dies: the next use starts it again, once.
    for pid in &running {
        let _ = std::process::Command::new("kill")
            .arg("-9")
            .arg(pid.to_string())
            .status();
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let again = hub
        .call(
            "everything",
            "echo",
            args(json!({ "message": "two" })),
            DEADLINE,
        )
        .await
        .unwrap();
    assert_eq!(text_of(&again.content), "Echo: two");

    hub.stop_all().await;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !processes_with(&marker).is_empty() && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        processes_with(&marker).is_empty(),
        "no process outlives the hub: {:?}",
        processes_with(&marker)
    );
}

#[tokio::test]
async fn a_server_that_cannot_start_is_failed_with_its_reason_until_restarted() {
    let hub = hub();
    let config = stdio(
        "broken",
        "node",
        &[
            "-e",
            "console.error('no database at /nowhere'); process.exit(1)",
        ],
        &[],
    );
    hub.configure(std::slice::from_ref(&config)).await;
    let error = hub
        .call("broken", "anything", Map::new(), DEADLINE)
        .await
        .unwrap_err();
    assert!(error.to_string().contains("no database"), "{error}");
    match &hub.status()[0].state {
        ServerState::Failed { stderr, .. } => {
            assert!(
                stderr.iter().any(|l| l.contains("no database")),
                "{stderr:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(hub.call("nope", "x", Map::new(), DEADLINE).await.is_err());
    hub.stop_all().await;
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn wait_for_port(port: u16) {
    let deadline = std::time::Instant::now() + DEADLINE;
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the server never listened"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
