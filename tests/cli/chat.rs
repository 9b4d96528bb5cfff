//! `ponder-cli chat` against the mock provider, one protocol at a time, as a user runs it.

use ponder_mock_provider::{MockProvider, Reply};
use serde_json::Value;

use super::ponder_cli;

struct Case {
    provider: &'static str,
    model: &'static str,
    extra: &'static [&'static str],
    fixture: &'static str,
    path: &'static str,
    key_env: Option<&'static str>,
}

async fn chat(
    case: &Case,
    json: bool,
) -> (
    std::process::Output,
    Vec<ponder_mock_provider::RecordedRequest>,
) {
    chat_with_env(case, json, &[]).await
}

async fn chat_with_env(
    case: &Case,
    json: bool,
    env: &[(&str, &str)],
) -> (
    std::process::Output,
    Vec<ponder_mock_provider::RecordedRequest>,
) {
    let mock = MockProvider::start().await.unwrap();
    mock.push(Reply::fixture(case.fixture).unwrap().chunk_size(97));
    let data = tempfile::tempdir().unwrap();
    let mut cmd = tokio::process::Command::from(ponder_cli());
    cmd.env("XDG_DATA_HOME", data.path())
        .env("XDG_CONFIG_HOME", data.path());
    cmd.args([
        "chat",
        "--provider",
        case.provider,
        "--model",
        case.model,
        "--base-url",
        &mock.url(),
    ])
    .args(case.extra)
    .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent");
    if json {
        cmd.arg("--json");
    }
    if let Some(env) = case.key_env {
        cmd.env(env, "test-key-not-real");
    }
    cmd.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    for (key, value) in env {
        cmd.env(key, value);
    }
    cmd.arg("What is 2+2?");
    let out = cmd.output().await.unwrap();
    let requests = mock.requests();
    mock.shutdown().await;
    (out, requests)
}

/// `ponder-cli` with its history and settings in `data`, no keyring, and a fake key in
/// `key_env`.
fn cli_in(data: &std::path::Path, key_env: &str) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::from(ponder_cli());
    cmd.env("XDG_DATA_HOME", data)
        .env("XDG_CONFIG_HOME", data)
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
        .env(key_env, "test-key-not-real");
    cmd
}

const CASES: &[Case] = &[
    Case {
        provider: "anthropic",
        model: "claude-sonnet-4-5/med",
        extra: &[],
        fixture: "anthropic/pydantic-sonnet4-thinking-stream.sse",
        path: "/v1/messages",
        key_env: Some("PONDER_ANTHROPIC_API_KEY"),
    },
    Case {
        provider: "openai",
        model: "o3-mini/high",
        extra: &[],
        fixture: "openai/pydantic-responses-o3-mini-reasoning-summary-stream.sse",
        path: "/responses",
        key_env: Some("PONDER_OPENAI_API_KEY"),
    },
    Case {
        provider: "deepseek",
        model: "deepseek-reasoner",
        extra: &["--api", "chat"],
        fixture: "deepseek/pydantic-deepseek-reasoner-stream.sse",
        path: "/chat/completions",
        key_env: Some("PONDER_DEEPSEEK_API_KEY"),
    },
    Case {
        provider: "google",
        model: "gemini-2.5-pro/high",
        extra: &[],
        fixture: "google/pydantic-gemini25-pro-thought-parts-stream.sse",
        path: "/models/gemini-2.5-pro:streamGenerateContent",
        key_env: Some("PONDER_GOOGLE_API_KEY"),
    },
    Case {
        provider: "ollama",
        model: "gpt-oss:120b/high",
        extra: &[],
        fixture: "ollama/attogram-ollama-generate-gpt-oss-120b-thinking-stream.ndjson",
        path: "/api/chat",
        key_env: None,
    },
];

#[tokio::test(flavor = "multi_thread")]
async fn chat_json_gives_thoughts_then_the_answer_for_every_protocol() {
    for case in CASES {
        let (out, requests) = chat(case, true).await;
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{}: {stderr}", case.provider);
        let v: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{}: {e}", case.provider));
        assert_eq!(v["provider"], case.provider);
        let parts = v["parts"].as_array().unwrap();
        let first_thought = parts.iter().position(|p| p["type"] == "thinking");
        let first_text = parts.iter().position(|p| p["type"] == "text");
        assert!(
            first_thought.is_some(),
            "{}: a thought: {parts:?}",
            case.provider
        );
        assert!(first_text.is_some(), "{}: an answer", case.provider);
        assert!(
            first_thought < first_text,
            "{}: thoughts come first",
            case.provider
        );
        assert!(
            v["usage"]["output"].as_u64().unwrap_or(0) > 0,
            "{}: usage",
            case.provider
        );
        assert_eq!(v["stopReason"]["kind"], "end", "{}", case.provider);
        assert!(
            stderr.contains("✓ Switched to"),
            "{}: feedback on stderr: {stderr}",
            case.provider
        );
        // What was sent.
        assert_eq!(requests.len(), 1);
        let request = &requests[0];
        assert_eq!(request.path, case.path, "{}", case.provider);
        if case.key_env.is_some() {
            let auth = ["x-api-key", "authorization", "x-goog-api-key"]
                .iter()
                .find_map(|h| request.header(h))
                .unwrap_or_default();
            assert!(
                auth.contains("test-key-not-real"),
                "{}: the key is sent in the provider's header",
                case.provider
            );
        }
        let body = request.json();
        let sent = body.to_string();
        assert!(sent.contains("What is 2+2?"), "{}: {sent}", case.provider);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_streams_text_to_the_terminal() {
    let (out, _) = chat(&CASES[0], false).await;
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let thinking = text
        .find("pedestrian safety")
        .expect("the thought is printed");
    let answer = text
        .find("crossing the street")
        .or_else(|| text.find("Here are"))
        .expect("the answer is printed");
    assert!(thinking < answer, "{text}");
}

/// Thoughts are dim and italic where colour is wanted (a terminal, or CLICOLOR_FORCE), and
/// plain under a "Thinking:" line where it is not (a pipe, or NO_COLOR).
#[tokio::test(flavor = "multi_thread")]
async fn thoughts_are_dimmed_only_where_colour_is_wanted() {
    let dim = "\x1b[2m\x1b[3m";
    let (piped, _) = chat(&CASES[0], false).await;
    let piped = String::from_utf8(piped.stdout).unwrap();
    assert!(
        piped.starts_with("Thinking:") && !piped.contains('\x1b'),
        "{piped:?}"
    );
    let (forced, _) = chat_with_env(&CASES[0], false, &[("CLICOLOR_FORCE", "1")]).await;
    let forced = String::from_utf8(forced.stdout).unwrap();
    assert!(forced.starts_with(dim), "{forced:?}");
    let (refused, _) = chat_with_env(
        &CASES[0],
        false,
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
    )
    .await;
    let refused = String::from_utf8(refused.stdout).unwrap();
    assert!(!refused.contains('\x1b'), "{refused:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missing_key_names_the_variable_and_the_keyring() {
    let case = Case {
        key_env: None,
        ..CASES[0]
    };
    let (out, requests) = chat(&case, true).await;
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("PONDER_ANTHROPIC_API_KEY") && err.contains("keyring"),
        "{err}"
    );
    assert!(requests.is_empty(), "nothing is sent without a key");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_provider_error_is_one_clear_line_and_exit_1() {
    let mock = MockProvider::start().await.unwrap();
    mock.push(Reply::json(401, serde_json::json!({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}})));
    let data = tempfile::tempdir().unwrap();
    let out = tokio::process::Command::from(ponder_cli())
        .env("XDG_DATA_HOME", data.path())
        .env("XDG_CONFIG_HOME", data.path())
        .args([
            "chat",
            "--provider",
            "anthropic",
            "--model",
            "claude-sonnet-4-5",
            "--base-url",
            &mock.url(),
            "hi",
        ])
        .env("PONDER_ANTHROPIC_API_KEY", "test-key-not-real")
        .output()
        .await
        .unwrap();
    mock.shutdown().await;
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Anthropic (auth): invalid x-api-key"), "{err}");
}

/// The reasoning flags: `--reasoning`, `--override KEY=VALUE`, `--caching`, and an overrides
/// file, each changing what is sent.
#[tokio::test]
async fn seed_002_flags_change_the_request() {
    let sent = |extra: &'static [&'static str]| async move {
        let case = Case {
            provider: "anthropic",
            model: "claude-opus-4-5",
            extra,
            fixture: "anthropic/pydantic-sonnet4-thinking-stream.sse",
            path: "/v1/messages",
            key_env: Some("PONDER_ANTHROPIC_API_KEY"),
        };
        let (out, requests) = chat(&case, true).await;
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        requests[0].json()
    };
    let cached = |body: &Value| body.to_string().contains("cache_control");

    let plain = sent(&[]).await;
    assert!(
        plain.get("thinking").is_none(),
        "no level: the provider's default"
    );
    assert!(cached(&plain), "caching is full unless asked otherwise");

    let high = sent(&["--reasoning", "high"]).await;
    assert_eq!(high["thinking"]["budget_tokens"], 60_000);
    let low = sent(&["--override", "reasoning=low"]).await;
    assert_eq!(low["thinking"]["budget_tokens"], 22_016);

    let uncached = sent(&["--reasoning", "low", "--caching", "none"]).await;
    assert!(!cached(&uncached), "{uncached}");
    let uncached = sent(&["--override", "caching=none"]).await;
    assert!(!cached(&uncached), "{uncached}");

    // An overrides file maps the levels.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("overrides.json");
    std::fs::write(
        &file,
        r#"{"providers": {"anthropic": {"reasoning": [1024, 8000, 16000, 32000]}}}"#,
    )
    .unwrap();
    let file: &'static str = Box::leak(file.display().to_string().into_boxed_str());
    let mapped = sent(Box::leak(Box::new([
        "--overrides",
        file,
        "--reasoning",
        "medium",
    ])))
    .await;
    assert_eq!(mapped["thinking"]["budget_tokens"], 16_000);
}

#[tokio::test]
async fn a_bad_override_is_a_usage_error() {
    for extra in [
        &["--override", "colour=blue"][..],
        &["--override", "caching=sometimes"][..],
        &["--override", "reasoning"][..],
        &["--reasoning", "loud"][..],
    ] {
        let case = Case {
            provider: "anthropic",
            model: "claude-opus-4-5",
            extra: Box::leak(extra.to_vec().into_boxed_slice()),
            fixture: "anthropic/pydantic-sonnet4-thinking-stream.sse",
            path: "/v1/messages",
            key_env: Some("PONDER_ANTHROPIC_API_KEY"),
        };
        let (out, requests) = chat(&case, true).await;
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(requests.is_empty(), "{extra:?}: nothing is sent");
    }
}

/// A server of the user's own (from the desktop app's settings) and the vLLM preset: the
/// chat-template switch goes to the address given, with the id as typed.
#[tokio::test]
async fn a_server_of_your_own_and_vllm_get_the_chat_template_switch() {
    for provider in ["custom-box", "vllm"] {
        let mock = MockProvider::start().await.unwrap();
        mock.push(
            Reply::fixture("qwen/vercel-qwen3-max-reasoning-content-stream.jsonl")
                .unwrap()
                .with_done(),
        );
        let data = tempfile::tempdir().unwrap();
        let app = data.path().join("dev.ponder.desktop");
        std::fs::create_dir_all(&app).unwrap();
        let settings = serde_json::json!({
            "customProviders": [{
                "id": "custom-box", "name": "Box", "baseUrl": format!("{}/v1", mock.url()),
                "protocol": "openai_chat", "preset": "vllm", "needsKey": false
            }]
        });
        std::fs::write(app.join("settings.json"), settings.to_string()).unwrap();
        // The settings where an earlier version kept them, beside the history: they move
        // to the config directory and are read from there.
        let config = tempfile::tempdir().unwrap();
        let mut cmd = tokio::process::Command::from(ponder_cli());
        cmd.env("XDG_DATA_HOME", data.path())
            .env("XDG_CONFIG_HOME", config.path())
            .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
            .args([
                "chat",
                "--provider",
                provider,
                "--model",
                "qwen3-32b/off",
                "--json",
            ]);
        if provider == "vllm" {
            cmd.args(["--base-url", &format!("{}/v1", mock.url())]);
        }
        let out = cmd.arg("What is 2+2?").output().await.unwrap();
        assert!(
            out.status.success(),
            "{provider}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            config
                .path()
                .join("dev.ponder.desktop/settings.json")
                .exists()
        );
        assert!(!app.join("settings.json").exists(), "moved, not copied");
        let requests = mock.requests();
        assert_eq!(requests[0].path, "/v1/chat/completions", "{provider}");
        let body = requests[0].json();
        assert_eq!(body["model"], "qwen3-32b", "{provider}");
        assert_eq!(
            body["chat_template_kwargs"],
            serde_json::json!({"enable_thinking": false}),
            "{provider}"
        );
        mock.shutdown().await;
    }
}

/// An answer and a thought that carry terminal sequences (the clipboard through OSC 52, the
/// window title, a link, clearing the screen) are printed as visible symbols: the only escape
/// sequences on stdout are Ponder's own styling of the thought.
#[tokio::test]
async fn escape_sequences_from_the_model_reach_the_terminal_inert() {
    let delta = |kind: &str, field: &str, text: &str| {
        let event = serde_json::json!({"type": "content_block_delta", "index": 0, "delta": {"type": kind, field: text}});
        format!("event: content_block_delta\ndata: {event}\n\n")
    };
    let start = |index: u32, block: Value| {
        let event = serde_json::json!({"type": "content_block_start", "index": index, "content_block": block});
        format!("event: content_block_start\ndata: {event}\n\n")
    };
    let stream = [
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"claude-sonnet-4-5\",\"usage\":{\"input_tokens\":5}}}\n\n".to_owned(),
        start(0, serde_json::json!({"type": "thinking", "thinking": ""})),
        delta("thinking_delta", "thinking", "Copy this: \x1b]52;c;cm0gLXJmIH4K\x07 and \x1b]0;owned\x07"),
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n".to_owned(),
        start(1, serde_json::json!({"type": "text", "text": ""})),
        delta("text_delta", "text", "\x1b[2J\x1b]8;;https://evil.example\x1b\\docs\x1b]8;;\x1b\\ \u{9b}31mred\rover"),
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n".to_owned(),
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":9}}\n\n".to_owned(),
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n".to_owned(),
    ]
    .concat();
    let mock = MockProvider::start().await.unwrap();
    mock.push(Reply::sse(stream));
    let data = tempfile::tempdir().unwrap();
    let out = tokio::process::Command::from(ponder_cli())
        .env("XDG_DATA_HOME", data.path())
        .env("XDG_CONFIG_HOME", data.path())
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
        .env("PONDER_ANTHROPIC_API_KEY", "test-key-not-real")
        .env_remove("NO_COLOR")
        .env("CLICOLOR_FORCE", "1")
        .args([
            "chat",
            "--provider",
            "anthropic",
            "--model",
            "claude-sonnet-4-5/med",
        ])
        .args(["--base-url", &mock.url(), "Hi"])
        .output()
        .await
        .unwrap();
    mock.shutdown().await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("␛]52;c;cm0gLXJmIH4K␇"), "{stdout:?}");
    assert!(
        stdout.contains("␛[2J␛]8;;https://evil.example␛\\docs"),
        "{stdout:?}"
    );
    assert!(stdout.contains("\u{fffd}31mred␍over"), "{stdout:?}");
    // Ponder's own styling of the thought (SGR sequences: colours and weights, nothing a
    // terminal does more with) is all that is left to the terminal.
    let mut rest = String::new();
    let mut chars = stdout.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            let sequence: String = chars.by_ref().take_while(|c| *c != 'm').collect();
            assert!(
                sequence[1..]
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == ';'),
                "only styling: {sequence:?}"
            );
            continue;
        }
        rest.push(c);
    }
    assert!(
        !rest
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t'),
        "{rest:?}"
    );
}

/// Streaming switched off in the desktop app's settings: `chat` asks for the whole answer,
/// reads the thoughts and the answer from it, and says why it did not stream.
#[tokio::test]
async fn streaming_off_in_the_settings_asks_for_the_whole_answer() {
    let mock = MockProvider::start().await.unwrap();
    mock.push(Reply::fixture("anthropic/vercel-sonnet45-thinking.json").unwrap());
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("dev.ponder.desktop");
    std::fs::create_dir_all(&config).unwrap();
    let settings = serde_json::json!({
        "reasoningOverrides": {"providers": {"anthropic": {"stream": false}}}
    });
    std::fs::write(config.join("settings.json"), settings.to_string()).unwrap();
    let out = cli_in(data.path(), "PONDER_ANTHROPIC_API_KEY")
        .args([
            "chat",
            "--provider",
            "anthropic",
            "--model",
            "claude-sonnet-4-5/minimal",
            "--base-url",
            &mock.url(),
            "--json",
            "What is 925 divided by 5?",
        ])
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let requests = mock.requests();
    assert_eq!(requests[0].json()["stream"], false);
    let printed = String::from_utf8(out.stdout).unwrap();
    assert!(
        printed.contains("925 divided by 5 = 185"),
        "the thought: {printed}"
    );
    assert!(printed.contains("925 ÷ 5 = 185"), "the answer: {printed}");
    let told = String::from_utf8(out.stderr).unwrap();
    assert!(told.contains("Not streamed"), "the note: {told}");
    mock.shutdown().await;
}

/// `--attach` gives the model files: they go in the provider's own form with the question,
/// are kept with it in the history (not their bytes), and go again with the next turn.
#[tokio::test(flavor = "multi_thread")]
async fn attached_files_go_with_the_question_and_stay_with_it() {
    let mock = MockProvider::start().await.unwrap();
    for _ in 0..2 {
        mock.push(Reply::fixture("anthropic/pydantic-sonnet4-thinking-stream.sse").unwrap());
    }
    let data = tempfile::tempdir().unwrap();
    let fixtures = ponder_tests::workspace_root().join("tests/fixtures/attachments");
    let run = |args: Vec<String>| {
        let mut cmd = cli_in(data.path(), "PONDER_ANTHROPIC_API_KEY");
        cmd.args([
            "chat",
            "--provider",
            "anthropic",
            "--model",
            "claude-sonnet-4-5/med",
        ])
        .args(["--base-url", &mock.url(), "--json"])
        .args(args);
        async move { cmd.output().await.unwrap() }
    };
    let first = run(vec![
        "--attach".into(),
        fixtures.join("whiteboard.png").display().to_string(),
        "--attach".into(),
        fixtures.join("boiling-points.pdf").display().to_string(),
        "What do these say?".into(),
    ])
    .await;
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let answer: Value = serde_json::from_slice(&first.stdout).unwrap();
    let conversation = answer["conversation"].as_str().unwrap().to_owned();
    let next = run(vec![
        "--conversation".into(),
        conversation,
        "And in Fahrenheit?".into(),
    ])
    .await;
    assert!(
        next.status.success(),
        "{}",
        String::from_utf8_lossy(&next.stderr)
    );
    let requests = mock.requests();
    assert_eq!(requests.len(), 2);
    for (i, request) in requests.iter().enumerate() {
        let content = &request.json()["messages"][0]["content"];
        assert_eq!(content[0]["type"], "image", "request {i}");
        assert_eq!(content[1]["type"], "document", "request {i}");
        assert_eq!(content[1]["title"], "boiling-points.pdf");
        assert_eq!(content[2]["text"], "What do these say?");
        let png = std::fs::read(fixtures.join("whiteboard.png")).unwrap();
        let sent = content[0]["source"]["data"].as_str().unwrap();
        assert!(sent.len() >= png.len() * 4 / 3, "the whole file, in base64");
    }
    // The history keeps the files by reference; their bytes are in the store beside it.
    let history = std::fs::read(data.path().join("dev.ponder.desktop/ponder.sqlite3")).unwrap();
    let pdf_start = &std::fs::read(fixtures.join("boiling-points.pdf")).unwrap()[..200];
    assert!(!history.windows(pdf_start.len()).any(|w| w == pdf_start));
    let stored: usize = std::fs::read_dir(data.path().join("dev.ponder.desktop/attachments"))
        .unwrap()
        .map(|shard| std::fs::read_dir(shard.unwrap().path()).unwrap().count())
        .sum();
    assert_eq!(stored, 2, "two files, each once");

    // A transcript written to a file takes its files along, in a folder beside it.
    let out = data.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let export = cli_in(data.path(), "PONDER_ANTHROPIC_API_KEY")
        .args([
            "export",
            &conversation_of(&first),
            "--format",
            "md",
            "--output",
        ])
        .arg(out.join("Boiling.md"))
        .output()
        .await
        .unwrap();
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    let md = std::fs::read_to_string(out.join("Boiling.md")).unwrap();
    assert!(
        md.contains("![whiteboard.png (image, 2.2 KiB)](<Boiling files/whiteboard.png>)"),
        "{md}"
    );
    assert!(md.contains("](<Boiling files/boiling-points.pdf>)"), "{md}");
    for name in ["whiteboard.png", "boiling-points.pdf"] {
        assert_eq!(
            std::fs::read(out.join("Boiling files").join(name)).unwrap(),
            std::fs::read(fixtures.join(name)).unwrap(),
            "{name}"
        );
    }
    mock.shutdown().await;
}

fn conversation_of(out: &std::process::Output) -> String {
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    answer["conversation"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_file_that_cannot_be_sent_stops_the_turn_before_anything_is_asked() {
    let mock = MockProvider::start().await.unwrap();
    let data = tempfile::tempdir().unwrap();
    let fixtures = ponder_tests::workspace_root().join("tests/fixtures/attachments");
    let program = data.path().join("program");
    std::fs::write(&program, b"\x7fELF\x02\x01\x01\0\0\0").unwrap();
    let cases: [(&str, std::path::PathBuf, &str); 3] = [
        (
            "o3-mini",
            fixtures.join("whiteboard.png"),
            "o3-mini does not read images, so whiteboard.png cannot be sent to it",
        ),
        (
            "o3",
            program,
            "--attach: program is not a file Ponder can send",
        ),
        (
            "o3",
            data.path().join("gone.pdf"),
            "--attach: gone.pdf could not be read",
        ),
    ];
    for (model, file, says) in cases {
        let out = cli_in(data.path(), "PONDER_OPENAI_API_KEY")
            .args([
                "chat",
                "--provider",
                "openai",
                "--model",
                model,
                "--base-url",
                &mock.url(),
            ])
            .arg("--attach")
            .arg(&file)
            .arg("What is this?")
            .output()
            .await
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{model} {}: {stderr}",
            file.display()
        );
        assert!(stderr.contains(says), "{stderr}");
    }
    assert!(mock.requests().is_empty(), "nothing was asked");
    mock.shutdown().await;
}

/// A model that reads no PDFs is not sent one: the turn stops before anything is asked and
/// says how to send the PDF's text instead; with `--pdf-as-text` its text goes, and the user
/// is told what may be lost.
#[tokio::test(flavor = "multi_thread")]
async fn a_pdf_goes_as_its_text_to_a_model_that_reads_none_only_when_asked() {
    let mock = MockProvider::start().await.unwrap();
    mock.push(
        Reply::fixture("openai/pydantic-responses-o3-mini-reasoning-summary-stream.sse").unwrap(),
    );
    let data = tempfile::tempdir().unwrap();
    let pdf = ponder_tests::workspace_root().join("tests/fixtures/attachments/boiling-points.pdf");
    let run = |extra: &[&str]| {
        let mut cmd = cli_in(data.path(), "PONDER_OPENAI_API_KEY");
        cmd.args(["chat", "--provider", "openai", "--model", "o3-mini"])
            .args(["--base-url", &mock.url(), "--json", "--attach"])
            .arg(&pdf)
            .args(extra)
            .arg("What boils first?");
        async move { cmd.output().await.unwrap() }
    };
    let refused = run(&[]).await;
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("o3-mini does not read PDFs") && stderr.contains("--pdf-as-text"),
        "{stderr}"
    );
    assert!(mock.requests().is_empty(), "nothing was asked");

    let sent = run(&["--pdf-as-text"]).await;
    assert!(
        sent.status.success(),
        "{}",
        String::from_utf8_lossy(&sent.stderr)
    );
    let body = mock.requests()[0].json();
    let content = &body["input"][0]["content"];
    assert!(
        content
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["type"] == "input_text"),
        "no file part: {content}"
    );
    let text = content[0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("The attached PDF boiling-points.pdf, as its text:"),
        "{text}"
    );
    assert!(text.contains("Water"), "{text}");
    let said = String::from_utf8_lossy(&sent.stderr);
    assert!(
        said.contains("was sent as its text"),
        "the user is told: {said}"
    );
    mock.shutdown().await;
}
