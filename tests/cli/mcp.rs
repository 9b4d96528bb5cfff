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
