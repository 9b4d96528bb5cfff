//! `ponder-cli rerun` and `ponder-cli compare` against the mock provider: a question answered
//! at medium, rerun at high on the same model and on another provider, every answer kept as
//! a version, and the versions' figures side by side.

use ponder_mock_provider::{MockProvider, Reply};
use serde_json::Value;

use super::ponder_cli;

fn run(db: &std::path::Path, args: &[&str]) -> std::process::Output {
    ponder_cli()
        .arg("--db")
        .arg(db)
        .args(args)
        .env("PONDER_ANTHROPIC_API_KEY", "test-key-not-real")
        .env("PONDER_DEEPSEEK_API_KEY", "test-key-not-real")
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
        .output()
        .unwrap()
}

fn json(out: &std::process::Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rerun_is_another_version_and_compare_shows_each_ones_figures() {
    let mock = MockProvider::start().await.unwrap();
    for _ in 0..2 {
        mock.push(Reply::fixture("anthropic/pydantic-sonnet4-thinking-stream.sse").unwrap());
    }
    mock.push(Reply::fixture("deepseek/pydantic-deepseek-reasoner-stream.sse").unwrap());
    let url = mock.url();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite3");

    let first = json(&run(
        &db,
        &[
            "chat",
            "--provider",
            "anthropic",
            "--model",
            "claude-sonnet-4-5/medium",
            "--base-url",
            &url,
            "--json",
            "What is 2+2?",
        ],
    ));
    let answer = first["message"].as_str().unwrap().to_owned();
    let conversation = first["conversation"].as_str().unwrap().to_owned();
    json(&run(
        &db,
        &[
            "rerun",
            &answer,
            "--model",
            "claude-sonnet-4-5/high",
            "--base-url",
            &url,
            "--json",
        ],
    ));
    json(&run(
        &db,
        &[
            "rerun",
            &answer,
            "--provider",
            "deepseek",
            "--model",
            "deepseek-reasoner",
            "--base-url",
            &url,
            "--json",
        ],
    ));
    // The second request asked the stored question again, at high; the third went to DeepSeek.
    let requests = mock.requests();
    assert_eq!(requests.len(), 3);
    let second = requests[1].json();
    assert_eq!(
        second["messages"].as_array().unwrap().len(),
        1,
        "only the question"
    );
    assert_eq!(second["messages"][0]["content"][0]["text"], "What is 2+2?");
    assert!(
        second["thinking"]["budget_tokens"].as_u64().unwrap() > first_budget(&requests[0].json())
    );
    assert_eq!(requests[2].path, "/chat/completions");
    mock.shutdown().await;

    // Three versions of the answer, oldest first, each with its model and level.
    let rows = json(&run(&db, &["compare", &answer, "--json"]));
    let rows = rows.as_array().unwrap();
    let picked: Vec<(String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["model"].as_str().unwrap().to_owned(),
                r["choice"].as_str().unwrap_or("default").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        picked,
        [
            ("claude-sonnet-4-5".to_owned(), "medium".to_owned()),
            ("claude-sonnet-4-5".to_owned(), "high".to_owned()),
            ("deepseek-reasoner".to_owned(), "default".to_owned()),
        ]
    );
    assert_eq!(rows[0]["id"], answer.as_str());
    assert!(
        rows.iter()
            .all(|r| r["usage"]["output"].as_u64().unwrap() > 0)
    );
    // Each answer's start was measured, and its cost worked out from the listed prices.
    assert!(rows.iter().all(|r| r["firstTokenMs"].is_u64()), "{rows:?}");
    assert!(
        rows.iter().all(|r| r["cost"].as_f64().unwrap() > 0.0),
        "{rows:?}"
    );
    let table = run(&db, &["compare", &answer]);
    let table = String::from_utf8(table.stdout).unwrap();
    assert!(table.starts_with("#  model"), "{table}");
    assert_eq!(table.lines().count(), 4, "{table}");

    // The conversation keeps its own model, and shows the newest version.
    let listed = json(&run(&db, &["conversations", "--json"]));
    assert_eq!(listed[0]["id"], conversation.as_str());
    assert_eq!(listed[0]["model"], "claude-sonnet-4-5");
    // Its totals count every version: the three answers' output tokens and costs summed.
    let totals = &listed[0]["totals"];
    assert_eq!(totals["answers"], 3, "{totals}");
    let output: u64 = rows
        .iter()
        .map(|r| r["usage"]["output"].as_u64().unwrap())
        .sum();
    assert_eq!(totals["outputTokens"].as_u64(), Some(output), "{totals}");
    let cost: f64 = rows.iter().map(|r| r["cost"].as_f64().unwrap()).sum();
    assert!(
        (totals["cost"].as_f64().unwrap() - cost).abs() < 1e-9,
        "{totals}"
    );
    assert!(totals["thinkingMs"].is_u64() && totals["thinkingTokens"].is_u64());
    let table = String::from_utf8(run(&db, &["conversations"]).stdout).unwrap();
    assert!(
        table.contains("thinking /") && table.contains("output tokens"),
        "{table}"
    );
    let exported = json(&run(&db, &["export", &conversation, "--format", "json"]));
    let messages = exported["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4, "one question, three answers");
    assert!(
        messages[1..]
            .iter()
            .all(|m| m["parentId"] == messages[0]["id"])
    );

    // A transcript is the path shown; with --every-version, the other two answers follow it,
    // each under its label.
    let transcript = |extra: &[&str]| {
        let out = run(
            &db,
            &[
                &["export", conversation.as_str(), "--format", "md"][..],
                extra,
            ]
            .concat(),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let shown = transcript(&[]);
    assert_eq!(shown.matches("## Assistant").count(), 1, "{shown}");
    let every = transcript(&["--every-version"]);
    assert_eq!(every.matches("## Assistant").count(), 3, "{every}");
    // The newest (DeepSeek's) is shown; the first two follow it.
    for n in [1, 2] {
        assert!(
            every.contains(&format!("## Version {n} of 3 · answer to “What is 2+2?”")),
            "{every}"
        );
    }
    assert!(shown.contains("deepseek-reasoner (deepseek)"), "{shown}");

    // The user's own prices (the app's settings beside the history) count instead: DeepSeek's
    // answer at nothing, Claude's output at ten times its listed price.
    let listed: Vec<f64> = rows.iter().map(|r| r["cost"].as_f64().unwrap()).collect();
    std::fs::write(
        db.with_file_name(ponder_core::paths::SETTINGS_FILE),
        serde_json::json!({ "prices": [
            { "provider": "deepseek", "model": "deepseek-reasoner", "input": 0.0, "output": 0.0 },
            { "provider": "anthropic", "model": "claude-sonnet-4-5",
              "output": 10.0 * ponder_core::prices::Prices::listed("anthropic", "claude-sonnet-4-5").unwrap().output.unwrap() },
        ] })
        .to_string(),
    )
    .unwrap();
    let own = json(&run(&db, &["compare", &answer, "--json"]));
    let own: Vec<f64> = own
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["cost"].as_f64().unwrap())
        .collect();
    assert_eq!(own[2], 0.0, "{own:?}");
    assert!(
        own[0] > 5.0 * listed[0] && own[1] > 5.0 * listed[1],
        "{own:?} {listed:?}"
    );

    // Not a message: a usage error.
    assert_eq!(
        run(&db, &["compare", "no-such-message"]).status.code(),
        Some(2)
    );
}

fn first_budget(request: &Value) -> u64 {
    request["thinking"]["budget_tokens"].as_u64().unwrap()
}
