//! `ponder-cli chat --provider copilot` and `ponder-cli login copilot` against the loopback
//! GitHub and Copilot API, as a user runs them.

use ponder_mock_provider::MockProvider;
use ponder_mock_provider::copilot::{GITHUB_TOKEN, Script};
use serde_json::Value;

use super::ponder_cli;

async fn chat(
    model: &str,
    script: Script,
    github_token: Option<&str>,
) -> (std::process::Output, MockProvider) {
    let mock = MockProvider::start().await.unwrap();
    mock.serve_copilot(script);
    let data = tempfile::tempdir().unwrap();
    let mut cmd = tokio::process::Command::from(ponder_cli());
    cmd.env("XDG_DATA_HOME", data.path())
        .env("XDG_CONFIG_HOME", data.path())
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
        .env_remove("PONDER_COPILOT_API_KEY")
        .args(["chat", "--provider", "copilot", "--model", model, "--json"])
        .args(["--base-url", &mock.url(), "--system", "Answer briefly."]);
    if let Some(token) = github_token {
        cmd.env("PONDER_COPILOT_API_KEY", token);
    }
    cmd.arg("What is 17 × 23?");
    let out = cmd.output().await.unwrap();
    (out, mock)
}

#[tokio::test(flavor = "multi_thread")]
async fn gpt5_at_high_streams_its_thoughts_through_responses() {
    let (out, mock) = chat("gpt-5.4/high", Script::default(), Some(GITHUB_TOKEN)).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["provider"], "copilot");
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts[0]["type"], "thinking", "{parts:?}");
    assert!(parts.iter().any(|p| p["type"] == "text"));
    let sent = mock
        .requests()
        .into_iter()
        .find(|r| r.path == "/responses")
        .expect("the turn went to Responses");
    assert_eq!(sent.json()["reasoning"]["effort"], "high");
    assert_eq!(sent.json()["reasoning"]["summary"], "auto");
    assert!(
        sent.header("authorization")
            .unwrap()
            .starts_with("Bearer tid=FAKE-copilot-token")
    );
    assert!(
        !stderr.contains(GITHUB_TOKEN)
            && !String::from_utf8_lossy(&out.stdout).contains("FAKE-copilot-token")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn claude_answers_through_chat_completions_and_says_no_thoughts_come_back() {
    let (out, mock) = chat(
        "claude-sonnet-4.6/max",
        Script::default(),
        Some(GITHUB_TOKEN),
    )
    .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let sent = mock
        .requests()
        .into_iter()
        .find(|r| r.path == "/chat/completions")
        .expect("the turn went to Chat Completions");
    assert_eq!(
        sent.json()["reasoning_effort"],
        "high",
        "max is clamped to high"
    );
    assert!(
        stderr.contains("GitHub Copilot takes at most high: max is sent as high"),
        "{stderr}"
    );
    assert!(
        stderr.contains("does not return Claude's thoughts"),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn without_a_sign_in_or_with_a_revoked_one_it_says_what_to_do() {
    let (out, _) = chat("gpt-5.4/high", Script::default(), None).await;
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("ponder-cli login copilot"), "{stderr}");

    let revoked = Script {
        revoked: true,
        ..Script::default()
    };
    let (out, _) = chat("gpt-5.4/high", revoked, Some(GITHUB_TOKEN)).await;
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("sign in to GitHub Copilot again"),
        "{stderr}"
    );
}
