//! Real MCP servers from the registries, installed by the project's scripts at pinned
//! versions (`tests/package.json`, `tests/mcp/requirements.txt`): the reference "everything"
//! server over stdio and Streamable HTTP, the filesystem server on a temporary folder, and
//! the Python time server. Plus servers that fail in every way a server can.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use ponder_core::chat::ToolContent;
use ponder_core::mcp::{Connection, Hub, McpError, ServerConfig, ServerState, Transport};
use ponder_tests::mcp::stdio;
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

// ---- Streamable HTTP: redirects ----

const SECRET: &str = "FAKE-secret-header-value-5b1e";
const ARGUMENT: &str = "FAKE-argument-canary-0c7d";

/// A minimal Streamable HTTP server on the mock: it completes the handshake and lists one
/// tool, but answers the request whose JSON-RPC method is `redirected` with `status`, sending
/// the client to `target`.
fn redirecting_server(
    mock: &ponder_mock_provider::MockProvider,
    redirected: &'static str,
    status: u16,
    target: String,
) {
    use ponder_mock_provider::Reply;
    mock.set_router(move |request| {
        if request.method != "POST" {
            return Some(Reply::body(405, "text/plain", ""));
        }
        let message = request.json();
        let method = message["method"].as_str().unwrap_or_default();
        let answer = |result: Value| {
            Reply::json(
                200,
                json!({ "jsonrpc": "2.0", "id": message["id"], "result": result }),
            )
        };
        Some(if method == redirected {
            Reply::body(status, "text/plain", "moved").header("location", &target)
        } else if method == "initialize" {
            answer(json!({
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": { "tools": {} },
                "serverInfo": { "name": "redirecting", "version": "1.0.0" },
            }))
        } else if method.starts_with("notifications/") {
            Reply::body(202, "application/json", "")
        } else if method == "tools/list" {
            answer(json!({ "tools": [{
                "name": "lookup",
                "description": "Looks a word up",
                "inputSchema": { "type": "object", "properties": { "word": { "type": "string" } } },
            }] }))
        } else {
            Reply::json(
                200,
                json!({ "jsonrpc": "2.0", "id": message["id"], "error": { "code": -32601, "message": "no such method" } }),
            )
        })
    });
}

fn http_server(url: String) -> (ServerConfig, BTreeMap<String, String>) {
    let config = ServerConfig {
        id: "web".into(),
        name: "Web".into(),
        enabled: true,
        transport: Transport::Http {
            url,
            headers: BTreeMap::from([
                ("X-Api-Key".into(), String::new()),
                ("X-Client".into(), "ponder-test".into()),
            ]),
            secret_headers: vec!["X-Api-Key".into()],
        },
    };
    let secrets = BTreeMap::from([("X-Api-Key".into(), SECRET.into())]);
    (config, secrets)
}

#[tokio::test]
async fn a_redirect_to_another_origin_carries_neither_the_headers_nor_the_arguments() {
    use ponder_mock_provider::MockProvider;
    for redirected in ["initialize", "tools/call"] {
        for status in [302, 307, 308] {
            let server = MockProvider::start().await.unwrap();
            // Another port of this machine: another origin.
            let elsewhere = MockProvider::start().await.unwrap();
            elsewhere.set_default(ponder_mock_provider::Reply::json(
                200,
                json!({ "jsonrpc": "2.0", "id": 0, "result": {} }),
            ));
            redirecting_server(
                &server,
                redirected,
                status,
                format!("{}/mcp", elsewhere.url()),
            );
            let (config, secrets) = http_server(format!("{}/mcp", server.url()));
            let case = format!("{status} on {redirected}");
            let outcome = match Connection::open(&config, &secrets, DEADLINE).await {
                Err(error) => Err(error),
                Ok(connection) => {
                    let called = connection
                        .call("lookup", args(json!({ "word": ARGUMENT })), DEADLINE)
                        .await;
                    connection.close().await;
                    called.map(|_| ())
                }
            };
            let first = server.requests();
            assert!(
                first.iter().any(|r| r.header("x-api-key") == Some(SECRET)),
                "{case}: the server itself gets its header"
            );
            for request in elsewhere.requests() {
                assert_ne!(
                    request.header("x-api-key"),
                    Some(SECRET),
                    "{case}: the secret header went to another origin"
                );
                assert!(
                    !request.body_text().contains(ARGUMENT),
                    "{case}: the call's arguments went to another origin"
                );
            }
            assert!(
                elsewhere.requests().is_empty(),
                "{case}: nothing follows a redirect to another origin"
            );
            let error = outcome.expect_err(&case);
            assert!(
                error.to_string().contains("redirect"),
                "{case}: the error says what happened: {error}"
            );
            server.shutdown().await;
            elsewhere.shutdown().await;
        }
    }
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

/// Whether a process is still there: a zombie (ended, not yet collected) is not.
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat.rsplit_once(") ")?.1.chars().next()?;
            Some(state != 'Z' && state != 'X')
        })
        .unwrap_or(false)
}

/// Waits (without yielding to the runtime: nothing Ponder left behind may do the work) until
/// none of `pids` is alive, or two seconds have passed; returns those still alive.
fn still_alive_after_a_moment(pids: &[u32]) -> Vec<u32> {
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    loop {
        let alive: Vec<u32> = pids.iter().copied().filter(|p| alive(*p)).collect();
        if alive.is_empty() || std::time::Instant::now() > deadline {
            return alive;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A program that starts a child of its own, writes both pids to `pids`, and never speaks.
fn mute_with_a_child(pids: &std::path::Path) -> ServerConfig {
    let script = format!(
        "const child = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {{}}, 1000)'], {{ stdio: 'ignore' }});\n\
         require('fs').writeFileSync({:?}, `${{process.pid}} ${{child.pid}}`);\n\
         setInterval(() => {{}}, 1000);",
        pids.display().to_string()
    );
    stdio("mute", "node", &["-e", &script], &[])
}

fn read_pids(path: &std::path::Path) -> Vec<u32> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("the server wrote its pids: {e}"))
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect()
}

#[tokio::test]
async fn a_server_that_never_answers_times_out_and_is_stopped_with_its_children() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let config = mute_with_a_child(&pids);
    let started = std::time::Instant::now();
    let error = Connection::open(&config, &BTreeMap::new(), Duration::from_secs(3))
        .await
        .unwrap_err();
    assert!(matches!(error, McpError::StartTimeout(_)), "{error:?}");
    assert!(started.elapsed() < Duration::from_secs(10));
    let pids = read_pids(&pids);
    assert_eq!(pids.len(), 2, "the server and its child");
    assert!(
        still_alive_after_a_moment(&pids).is_empty(),
        "nothing of a server that timed out is left running: {:?}",
        still_alive_after_a_moment(&pids)
    );
}

#[tokio::test]
async fn a_server_that_dies_at_start_leaves_no_child_behind() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let script = format!(
        "const child = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {{}}, 1000)'], {{ stdio: 'ignore' }});\n\
         require('fs').writeFileSync({:?}, `${{process.pid}} ${{child.pid}}`);\n\
         console.error('fatal: no configuration');\n\
         process.exit(3);",
        pids.display().to_string()
    );
    let config = stdio("broken", "node", &["-e", &script], &[]);
    let error = Connection::open(&config, &BTreeMap::new(), DEADLINE)
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("fatal: no configuration"),
        "{error}"
    );
    let pids = read_pids(&pids);
    assert!(
        still_alive_after_a_moment(&pids).is_empty(),
        "nothing of a server that could not start is left running: {:?}",
        still_alive_after_a_moment(&pids)
    );
}

/// The last lines a failed server wrote to stderr, as the error shows them.
fn last_words(error: &McpError) -> Vec<String> {
    match error {
        McpError::WithStderr { stderr, .. } => stderr.lines().map(str::to_owned).collect(),
        other => panic!("no stderr in {other:?}"),
    }
}

#[tokio::test]
async fn stderr_is_read_on_past_bytes_that_are_not_utf8_and_long_lines_are_cut() {
    // Ten lines of 100 KB: more than a pipe holds, so a reader that stopped would leave the
    // server's writes waiting. It exits once everything it wrote has been taken.
    let script = "process.stderr.write(Buffer.from([0xff, 0xfe, 0x0a]));\n\
        for (let i = 0; i < 10; i++) process.stderr.write('y'.repeat(100 * 1024) + '\\n');\n\
        process.stderr.write('fatal: after the noise\\n', () => process.exit(3));";
    let config = stdio("noisy", "node", &["-e", script], &[]);
    let error = Connection::open(&config, &BTreeMap::new(), Duration::from_secs(20))
        .await
        .unwrap_err();
    let lines = last_words(&error);
    assert_eq!(
        lines.first().map(String::as_str),
        Some("\u{fffd}\u{fffd}"),
        "bytes that are not UTF-8 are shown, not the end of reading: {error}"
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("fatal: after the noise")
    );
    let long: Vec<&String> = lines.iter().filter(|l| l.starts_with('y')).collect();
    assert_eq!(long.len(), 10);
    for line in long {
        assert!(
            line.ends_with('…') && line.chars().count() <= 401,
            "{line:.40}…"
        );
    }
}

/// The most this process has had in memory at once, since the last reset.
fn peak_memory() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kb: usize = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap();
    kb * 1024
}

#[tokio::test]
async fn a_stderr_line_without_end_is_cut_as_it_is_read_not_held_whole() {
    // Starts the peak over from what this process holds now (Linux 4.0 and later).
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let script = "const chunk = Buffer.alloc(1 << 20, 'x');\n\
        for (let i = 0; i < 1024; i++) process.stderr.write(chunk);\n\
        process.stderr.write('\\nfatal: the end\\n', () => process.exit(3));";
    let config = stdio("endless", "node", &["-e", script], &[]);
    let error = Connection::open(&config, &BTreeMap::new(), Duration::from_secs(60))
        .await
        .unwrap_err();
    let peak = peak_memory();
    assert!(
        peak < 512 << 20,
        "a 1 GiB line is never held whole: the peak was {} MiB",
        peak >> 20
    );
    let lines = last_words(&error);
    assert_eq!(lines.last().map(String::as_str), Some("fatal: the end"));
    let long = &lines[lines.len() - 2];
    assert!(long.starts_with("xxx") && long.ends_with('…') && long.chars().count() <= 401);
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
