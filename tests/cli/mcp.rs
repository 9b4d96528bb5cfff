//! `ponder-cli mcp` and `ponder-cli chat --tools` with the real everything server from the
//! desktop app's settings, and the mock provider replaying a recorded tool call.

use ponder_mock_provider::{MockProvider, Reply};
use ponder_tests::framed::{chat_stream, deepseek_calling};
use serde_json::{Value, json};

use super::ponder_cli;

/// A config directory whose settings hold the everything server (and one that is off).
fn settings_dir() -> tempfile::TempDir {
    let js = ponder_tests::workspace_root()
        .join("tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        js.exists(),
        "`./.ci/test` installs the MCP servers the tests use"
    );
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("dev.ponder.desktop");
    std::fs::create_dir_all(&app).unwrap();
    let settings = json!({
        "mcpServers": [
            { "id": "everything", "name": "Everything",
              "transport": { "type": "stdio", "command": "node", "args": [js, "stdio"] } },
            { "id": "weather", "name": "Weather", "enabled": false,
              "transport": { "type": "http", "url": "http://127.0.0.1:9/mcp" } }
        ]
    });
    std::fs::write(app.join("settings.json"), settings.to_string()).unwrap();
    dir
}

fn cli(dir: &tempfile::TempDir) -> std::process::Command {
    let mut cmd = ponder_cli();
    cmd.env("XDG_DATA_HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent");
    cmd
}

fn stdout_json(out: &std::process::Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn mcp_list_tools_and_call_use_the_servers_in_the_settings() {
    let dir = settings_dir();
    let list = stdout_json(&cli(&dir).args(["mcp", "list", "--json"]).output().unwrap());
    assert_eq!(list[0]["id"], "everything");
    assert_eq!(list[1]["enabled"], false);
    assert!(list[0]["runs"].as_str().unwrap().starts_with("node "));

    let tools = stdout_json(
        &cli(&dir)
            .args(["mcp", "tools", "everything", "--json"])
            .output()
            .unwrap(),
    );
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"echo") && names.contains(&"get-sum"),
        "{names:?}"
    );

    let out = cli(&dir)
        .args([
            "mcp",
            "call",
            "everything",
            "echo",
            "--args",
            r#"{"message":"hi"}"#,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "Echo: hi");

    let unknown = cli(&dir).args(["mcp", "tools", "nope"]).output().unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("there are: everything, weather"));

    let bad = cli(&dir)
        .args(["mcp", "call", "everything", "echo", "--args", "[1]"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// A Chat Completions answer that calls `echo` (DeepSeek's recorded tool call, renamed to a
/// tool the server has), then the recorded final answer.
fn tool_call_reply() -> Reply {
    chat_stream(&deepseek_calling(
        "echo",
        &json!({ "message": "from the model" }),
    ))
}

#[tokio::test]
async fn chat_with_tools_runs_the_call_with_yes_and_sends_the_result_back() {
    let dir = settings_dir();
    let mock = MockProvider::start().await.unwrap();
    mock.push(tool_call_reply());
    mock.push(Reply::fixture("deepseek/pydantic-deepseek-reasoner-stream.sse").unwrap());
    let out = tokio::process::Command::from(cli(&dir))
        .env("PONDER_DEEPSEEK_API_KEY", "test-key-not-real")
        .args([
            "chat",
            "--provider",
            "deepseek",
            "--model",
            "deepseek-v4-flash/high",
            "--api",
            "chat",
            "--base-url",
            &mock.url(),
            "--tools",
            "everything",
            "--yes",
            "--json",
            "Echo something.",
        ])
        .output()
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("tool: echo (everything)"), "{stderr}");
    assert!(stderr.contains("result: Echo: from the model"), "{stderr}");
    let requests = mock.requests();
    assert_eq!(requests.len(), 2);
    let first = requests[0].json();
    assert!(
        first["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["function"]["name"] == "echo"),
        "the server's tools are offered"
    );
    let second = requests[1].json();
    let tool = second["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap();
    assert_eq!(tool["content"], "Echo: from the model");
    mock.shutdown().await;
}

#[tokio::test]
async fn without_yes_and_without_a_terminal_calls_are_denied_and_the_model_is_told() {
    let dir = settings_dir();
    let mock = MockProvider::start().await.unwrap();
    mock.push(tool_call_reply());
    mock.push(Reply::fixture("deepseek/pydantic-deepseek-reasoner-stream.sse").unwrap());
    let out = tokio::process::Command::from(cli(&dir))
        .env("PONDER_DEEPSEEK_API_KEY", "test-key-not-real")
        .args([
            "chat",
            "--provider",
            "deepseek",
            "--model",
            "deepseek-v4-flash",
            "--api",
            "chat",
            "--base-url",
            &mock.url(),
            "--tools",
            "everything",
            "Echo something.",
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("use --yes"), "{stderr}");
    let second = mock.requests()[1].json();
    let tool = second["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap();
    assert!(
        tool["content"].as_str().unwrap().contains("denied"),
        "{tool}"
    );
    mock.shutdown().await;
}

/// A config directory whose settings hold these servers.
fn settings_with(servers: Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("dev.ponder.desktop");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::write(
        app.join("settings.json"),
        json!({ "mcpServers": servers }).to_string(),
    )
    .unwrap();
    dir
}

#[test]
fn a_stdio_server_gets_its_own_values_and_no_key_from_ponders_environment() {
    let js = ponder_tests::workspace_root()
        .join("tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let dir = settings_with(json!([
        { "id": "everything", "name": "Everything",
          "transport": { "type": "stdio", "command": "node", "args": [js, "stdio"],
                         "env": { "GREETING_STYLE": "formal" } } }
    ]));
    let out = cli(&dir)
        .env("PONDER_ANTHROPIC_API_KEY", "FAKE-canary-anthropic-3f9a")
        .env("PONDER_COPILOT_API_KEY", "FAKE-canary-github-77c1")
        .env("SOME_SERVICE_TOKEN", "FAKE-canary-token-a0b2")
        .env("LC_TIME", "C")
        .args(["mcp", "call", "everything", "get-env", "--json"])
        .output()
        .unwrap();
    let answer = stdout_json(&out);
    let env: Value = serde_json::from_str(answer["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(env["GREETING_STYLE"], "formal", "the user's value is there");
    assert!(env["PATH"].is_string() && env["HOME"].is_string(), "{env}");
    assert_eq!(env["LC_TIME"], "C", "the locale is kept");
    let text = env.to_string();
    assert!(
        !text.contains("FAKE-canary"),
        "no key reaches a server: {env}"
    );
    let names: Vec<&String> = env.as_object().unwrap().keys().collect();
    assert!(!names.iter().any(|n| n.starts_with("PONDER_")), "{names:?}");
}

#[test]
fn secret_headers_over_plain_http_to_another_machine_are_warned_about() {
    let dir = settings_with(json!([
        { "id": "remote", "name": "Remote",
          "transport": { "type": "http", "url": "http://mcp.example.com/mcp",
                         "headers": { "X-Api-Key": "" }, "secretHeaders": ["X-Api-Key"] } },
        { "id": "local", "name": "Local",
          "transport": { "type": "http", "url": "http://127.0.0.1:9/mcp",
                         "headers": { "X-Api-Key": "" }, "secretHeaders": ["X-Api-Key"] } },
        { "id": "public", "name": "Public",
          "transport": { "type": "http", "url": "http://mcp.example.com/open",
                         "headers": { "X-Client": "ponder" } } },
        { "id": "tls", "name": "TLS",
          "transport": { "type": "http", "url": "https://mcp.example.com/mcp",
                         "headers": { "X-Api-Key": "" }, "secretHeaders": ["X-Api-Key"] } }
    ]));
    let out = cli(&dir).args(["mcp", "list"]).output().unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warned: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("unencrypted"))
        .collect();
    assert_eq!(warned.len(), 1, "{stderr}");
    assert!(
        warned[0].contains("remote") && warned[0].contains("http://mcp.example.com/mcp"),
        "{stderr}"
    );
    let list = stdout_json(&cli(&dir).args(["mcp", "list", "--json"]).output().unwrap());
    let in_clear: Vec<bool> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["secretsInClear"] == true)
        .collect();
    assert_eq!(in_clear, [true, false, false, false]);
}
