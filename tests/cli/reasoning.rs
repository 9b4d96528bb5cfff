//! `ponder-cli translate` and `ponder-cli models`, run as a script would run them.

use std::io::Write;
use std::process::Output;

use serde_json::Value;

use super::ponder_cli;

/// Run with an empty home: `translate` and `models` read the app's saved settings, and a
/// test must not read whoever runs it.
fn run(args: &[&str]) -> Output {
    let home = tempfile::tempdir().unwrap();
    ponder_cli()
        .args(args)
        .env("XDG_DATA_HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path())
        .output()
        .unwrap()
}

fn json(args: &[&str]) -> Value {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"))
}

/// Exit status 2 and exactly one line on stderr.
fn usage_error(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(out.stdout.is_empty());
    err
}

#[test]
fn translate_sonnet_medium_is_a_valid_43008_token_budget() {
    let v = json(&["translate", "claude-sonnet-4-5/med"]);
    assert_eq!(v["provider"], "anthropic");
    assert_eq!(v["model"], "claude-sonnet-4-5");
    assert_eq!(v["api"], "messages");
    assert_eq!(v["choice"], "medium");
    assert_eq!(v["meaning"]["kind"], "budget");
    assert_eq!(v["meaning"]["tokens"], 43008);
    let budget = v["request"]["thinking"]["budget_tokens"].as_u64().unwrap();
    let max_tokens = v["request"]["max_tokens"].as_u64().unwrap();
    assert_eq!(v["request"]["thinking"]["type"], "enabled");
    assert_eq!(budget, 43008);
    assert!(
        budget < max_tokens && max_tokens <= 64000,
        "{budget} < {max_tokens} ≤ 64000"
    );
    assert_eq!(
        v["feedback"],
        "✓ Switched to Anthropic claude-sonnet-4-5\n  Thinking: medium (43,008 tokens)"
    );
    assert_eq!(v["warnings"], serde_json::json!([]));
    assert!(v["headers"].is_object() && v["stream"].is_boolean());
}

#[test]
fn translate_takes_api_max_output_and_context() {
    let chat = json(&["translate", "o3/high", "--api", "chat"]);
    assert_eq!(chat["api"], "chat");
    assert_eq!(chat["request"]["reasoning_effort"], "high");
    let capped = json(&[
        "translate",
        "claude-sonnet-4-5/high",
        "--max-output",
        "20000",
    ]);
    assert_eq!(capped["request"]["max_tokens"], 20000);
    assert_eq!(capped["request"]["thinking"]["budget_tokens"], 16000);
    let long = json(&[
        "translate",
        "claude-sonnet-4-5/high",
        "--context-tokens",
        "170000",
    ]);
    assert_eq!(long["request"]["thinking"]["budget_tokens"], 10000);
    let generic = json(&[
        "translate",
        "claude-future-9/low",
        "--provider",
        "anthropic",
    ]);
    assert_eq!(generic["generic"], true);
}

#[test]
fn translate_reads_an_overrides_file() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    write!(
        file,
        r#"{{"providers":{{"anthropic":{{"reasoning":[1024,8000,16000,32000],"reasoningAutoStreamLevel":"low"}}}}}}"#
    )
    .unwrap();
    let path = file.path().to_str().unwrap();
    let v = json(&["translate", "claude-sonnet-4-5/low", "--overrides", path]);
    assert_eq!(v["request"]["thinking"]["budget_tokens"], 8000);
    assert_eq!(v["stream"], true);
}

#[test]
fn a_known_model_with_an_unknown_level_exits_2_and_slashed_ids_still_plan() {
    for target in [
        "claude-sonnet-4-5/ultra",
        "claude-sonnet-4-5/-5",
        "o3/ultra",
    ] {
        let err = usage_error(&["translate", target]);
        assert!(err.contains("unknown thinking choice"), "{target}: {err}");
    }
    let err = usage_error(&["translate", "claude-sonnet-4-5/99999999999"]);
    assert!(
        err.contains("too large") && err.contains("4,294,967,295") && !err.contains("above zero"),
        "{err}"
    );
    let plan = json(&[
        "translate",
        "anthropic/claude-sonnet-4.5/high",
        "--provider",
        "openrouter",
    ]);
    assert_eq!(plan["model"], "anthropic/claude-sonnet-4.5", "{plan}");
}

#[test]
fn bad_input_exits_2_with_one_clear_line() {
    let err = usage_error(&["translate", "mystery-model/med"]);
    assert!(
        err.contains("unknown model \"mystery-model\"") && err.contains("--provider"),
        "{err}"
    );
    let err = usage_error(&["translate", "o3/mediun"]);
    assert!(
        err.contains("\"mediun\"") && err.contains("minimal"),
        "{err}"
    );
    let err = usage_error(&["translate", "o3/med", "--provider", "acme"]);
    assert!(
        err.contains("unknown provider") && err.contains("openai"),
        "{err}"
    );
    let mut bad = tempfile::NamedTempFile::new().unwrap();
    write!(bad, r#"{{"providers":{{"openai":{{"reasoning":[1,2]}}}}}}"#).unwrap();
    let err = usage_error(&[
        "translate",
        "o3/med",
        "--overrides",
        bad.path().to_str().unwrap(),
    ]);
    assert!(
        err.contains("overrides file") && err.contains("array of four"),
        "{err}"
    );
    let err = usage_error(&[
        "translate",
        "o3/med",
        "--overrides",
        "/nonexistent/overrides.json",
    ]);
    assert!(err.contains("cannot read overrides file"), "{err}");
}

#[test]
fn models_lists_real_ids_with_level_meanings() {
    let list = json(&["models", "--json"]);
    let list = list.as_array().unwrap();
    let providers: std::collections::BTreeSet<&str> = list
        .iter()
        .map(|m| m["provider"].as_str().unwrap())
        .collect();
    // Every provider with a fixed lineup; local servers and routers list theirs live.
    for p in [
        "anthropic",
        "openai",
        "google",
        "deepseek",
        "moonshot",
        "qwen",
        "minimax",
        "xai",
        "zai",
    ] {
        assert!(providers.contains(p), "{p} is listed");
    }
    let ids: Vec<&str> = list.iter().map(|m| m["model"].as_str().unwrap()).collect();
    for pattern in ["claude-sonnet-4", "claude-3", "gemini-3-pro", "gemini-2.0"] {
        assert!(!ids.contains(&pattern), "{pattern} is a pattern, not an id");
    }
    let opus = list
        .iter()
        .find(|m| m["model"] == "claude-opus-4-5")
        .unwrap();
    assert_eq!(opus["thinking"]["kind"], "budget");
    assert_eq!(opus["rule"], "claude-opus-4-5");
    assert_eq!(opus["contextWindow"], 200_000);
    let labels: Vec<&str> = opus["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"medium — 43,008 tokens"), "{labels:?}");

    // Each model says where its rule came from; every listed model has one.
    assert_eq!(opus["ruleSource"], "hand");
    assert!(opus["ruleDocs"].as_str().unwrap().starts_with("https://"));
    let kimi = list.iter().find(|m| m["model"] == "kimi-k3").unwrap();
    assert_eq!(kimi["ruleSource"], "derived");
    assert_eq!(kimi["rule"], Value::Null);
    assert_eq!(
        kimi["thinking"]["values"],
        serde_json::json!(["low", "high", "max"])
    );
    let unknown: Vec<&str> = list
        .iter()
        .filter(|m| m["ruleSource"] == "none" || m["thinkingKnown"] == false)
        .map(|m| m["model"].as_str().unwrap())
        .collect();
    assert!(unknown.is_empty(), "thinking support unknown: {unknown:?}");

    let text = run(&["models", "--provider", "google"]);
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.starts_with("Google (google)"), "{text}");
    assert!(
        text.contains("gemini-3.1-pro-preview") && text.contains("high"),
        "{text}"
    );
    let text = run(&["models", "--provider", "ollama"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("no fixed list"), "{text}");
    let err = usage_error(&["models", "--provider", "acme"]);
    assert!(err.contains("unknown provider"), "{err}");
}

/// `models` and `translate` plan with the app's saved overrides and servers, as `chat` does:
/// under seed 002's map, medium on Sonnet 4.5 shows and sends 16,000 tokens, a model mapped to
/// `null` offers no budgets, and a budget of 0 is off only where 0 is the documented off.
#[test]
fn models_and_translate_read_the_saved_overrides_as_chat_does() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    std::fs::write(
        dir.path().join("settings.json"),
        serde_json::json!({
            "reasoningOverrides": {"providers": {
                "anthropic": {
                    "reasoning": [1024, 8000, 16000, 32000],
                    "models": {"claude-opus-4-5": {"reasoning": null}}
                },
                "google": {"models": {"gemini-2.5-flash": {"reasoning": 0}, "gemini-2.5-pro": {"reasoning": 0}}},
                "openai": {"models": {"o3": {"reasoning": "high"}}}
            }},
            "customProviders": [{"id": "custom-lab", "name": "Lab", "preset": "anthropic",
                "protocol": "anthropic", "baseUrl": "http://127.0.0.1:9", "needsKey": false}]
        })
        .to_string(),
    )
    .unwrap();
    let list = json(&[
        "--data-dir",
        data,
        "models",
        "--provider",
        "anthropic",
        "--json",
    ]);
    let labels = |id: &str| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .find(|m| m["model"] == id)
            .unwrap_or_else(|| panic!("{id} listed"))["levels"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["available"] == true)
            .map(|l| l["label"].as_str().unwrap().to_owned())
            .collect()
    };
    // `models` lists what is offered today: a model with no retirement day in the model list.
    let haiku = labels("claude-haiku-4-5");
    assert!(
        haiku.contains(&"medium — 16,000 tokens".to_owned()),
        "{haiku:?}"
    );
    assert!(!haiku.iter().any(|l| l.contains("21,674")), "{haiku:?}");
    let opus = labels("claude-opus-4-5");
    assert!(
        !opus.iter().any(|l| l.contains("tokens")),
        "a model mapped to null lists no budgets: {opus:?}"
    );

    let plan = json(&["--data-dir", data, "translate", "claude-sonnet-4-5/medium"]);
    assert_eq!(plan["request"]["thinking"]["budget_tokens"], 16000);
    let plan = json(&["translate", "claude-sonnet-4-5/medium"]);
    assert_eq!(
        plan["request"]["thinking"]["budget_tokens"], 43008,
        "no saved overrides"
    );
    // The user's own server is known to translate, as to chat.
    let custom = json(&[
        "--data-dir",
        data,
        "translate",
        "--provider",
        "custom-lab",
        "claude-x/high",
    ]);
    assert_eq!(custom["provider"], "custom-lab");
    // 0 is Gemini 2.5 Flash's documented off; Pro cannot think less than 128 tokens.
    let flash = json(&["--data-dir", data, "translate", "gemini-2.5-flash/low"]);
    assert_eq!(flash["meaning"]["kind"], "disabled");
    assert_eq!(
        flash["request"]["generationConfig"]["thinkingConfig"]["thinkingBudget"],
        0
    );
    let err = usage_error(&["--data-dir", data, "translate", "gemini-2.5-pro/low"]);
    assert!(
        err.contains("budget of 0 tokens") && err.contains("128"),
        "{err}"
    );
    assert!(!err.contains("Some("), "{err}");
    // A key `o3` covers o3 and its snapshots, not o30 or o3-pro's siblings by accident.
    let o3 = json(&["--data-dir", data, "translate", "o3/low"]);
    assert_eq!(o3["meaning"]["value"], "high");
    let o30 = json(&[
        "--data-dir",
        data,
        "translate",
        "--provider",
        "openai",
        "o30/low",
    ]);
    assert_eq!(
        o30["meaning"]["value"], "low",
        "the key o3 does not catch o30"
    );
}
