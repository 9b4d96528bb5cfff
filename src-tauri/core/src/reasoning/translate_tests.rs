//! Table-driven tests of `translate` against the seeds' tables and examples.

use serde_json::{Map, Value, json};

use super::choice::{Choice, parse_model_choice};
use super::overrides::Overrides;
use super::plan::{ApiChoice, Endpoint, MeaningKind, Plan, TurnContext};
use super::translate::translate;
use crate::catalog::{Catalog, ModelInfo, Thinking};

fn model(provider: Option<&str>, id: &str) -> ModelInfo {
    Catalog::builtin()
        .resolve(provider, id)
        .unwrap_or_else(|e| panic!("{id}: {e}"))
}

fn plan_with(
    target: &str,
    provider: Option<&str>,
    overrides: &Overrides,
    ctx: &TurnContext,
) -> Plan {
    let (id, choice) = parse_model_choice(target).unwrap();
    translate(
        choice.unwrap_or_default(),
        &model(provider, &id),
        overrides,
        ctx,
    )
    .unwrap_or_else(|e| panic!("{target}: {e}"))
}

fn plan(target: &str) -> Plan {
    plan_with(target, None, &Overrides::default(), &TurnContext::default())
}

fn chat(target: &str) -> Plan {
    let ctx = TurnContext {
        api: Some(ApiChoice::Chat),
        ..TurnContext::default()
    };
    plan_with(target, None, &Overrides::default(), &ctx)
}

/// The plan's request fields as they are sent.
fn sent(plan: &Plan) -> Map<String, Value> {
    plan.request.to_json()
}

/// The request field at a JSON pointer such as `/thinking/budget_tokens` (null if absent).
fn at(plan: &Plan, pointer: &str) -> Value {
    Value::Object(sent(plan))
        .pointer(pointer)
        .cloned()
        .unwrap_or(Value::Null)
}

// ---- Anthropic budgets ----

#[test]
fn seed_000_anthropic_budget_table() {
    // (model/choice, what the level means, budget sent)
    let table = [
        ("claude-sonnet-4-5/minimal", 1024_u32, 1024_u32),
        ("claude-sonnet-4-5/low", 22016, 22016),
        ("claude-sonnet-4-5/med", 43008, 43008),
        ("claude-sonnet-4-5/high", 64000, 60000),
        ("claude-opus-4-5/low", 22016, 22016),
        ("claude-opus-4-5/med", 43008, 43008),
        ("claude-haiku-4-5/low", 11349, 11349),
        ("claude-haiku-4-5/high", 32000, 32000),
        ("claude-3-7-sonnet-20250219/med", 21674, 21674),
        ("claude-3-7-sonnet-20250219/high", 32000, 32000),
    ];
    for (target, means, sent) in table {
        let p = plan(target);
        assert_eq!(p.meaning.kind, MeaningKind::Budget, "{target}");
        assert_eq!(p.meaning.tokens, Some(means), "{target} means");
        assert_eq!(at(&p, "/thinking/type"), "enabled", "{target}");
        assert_eq!(at(&p, "/thinking/budget_tokens"), sent, "{target} sends");
        let max_tokens = at(&p, "/max_tokens").as_u64().unwrap();
        assert!(
            u64::from(sent) < max_tokens,
            "{target}: budget < max_tokens"
        );
        assert!(max_tokens <= 64000, "{target}: within the output limit");
        assert!(
            p.omit.contains(&"temperature".to_owned()),
            "{target}: temperature unset"
        );
    }
}

#[test]
fn anthropic_high_is_capped_to_leave_room_for_the_answer() {
    let p = plan("claude-sonnet-4-5/high");
    assert_eq!(at(&p, "/max_tokens"), 64000);
    assert_eq!(
        p.feedback.thinking,
        "Thinking: high (64,000 tokens, capped to 60,000 to leave room for the answer)"
    );
}

#[test]
fn anthropic_off_sends_no_thinking_and_minimal_is_the_floor() {
    // Off disables (the model can), and minimal is the 1,024 floor.
    let off = plan("claude-sonnet-4-5/off");
    assert_eq!(off.meaning.kind, MeaningKind::Disabled);
    assert!(sent(&off).get("thinking").is_none());
    assert!(
        sent(&off).contains_key("max_tokens"),
        "max_tokens is always required"
    );
    assert_eq!(plan("claude-sonnet-4-5/minimal").meaning.tokens, Some(1024));
}

#[test]
fn seed_000_feedback_lines() {
    let table = [
        (
            plan("claude-sonnet-4-5/med"),
            "✓ Switched to Anthropic claude-sonnet-4-5\n  Thinking: medium (43,008 tokens)",
        ),
        (
            plan("gemini-2.5-pro/high"),
            "✓ Switched to Google gemini-2.5-pro\n  Thinking: high (32,768 tokens)",
        ),
        (
            plan("gemini-3-pro/none"),
            "✓ Switched to Google gemini-3-pro\n  ⚠ This model does not support disabling thinking\n  Thinking: LOW level (minimum)",
        ),
        (
            plan("o3/med"),
            "✓ Switched to OpenAI o3 (Responses API)\n  Thinking: medium effort (~50% of output budget)\n  Recommended output buffer: 25,000 tokens",
        ),
        (
            chat("o3-mini/none"),
            "✓ Switched to OpenAI o3-mini\n  ⚠ This model does not support disabling thinking\n  Thinking: medium effort (default)",
        ),
    ];
    for (p, want) in table {
        assert_eq!(p.feedback.text(), want);
    }
}

// ---- Gemini ----

#[test]
fn seed_000_gemini_budget_table() {
    let table = [
        ("gemini-2.5-pro/low", 11008),
        // A published table prints 21,760 here, which is 2/3 × (max − min) without adding min;
        // its own low figure (11,008 = 128 + 1/3 × 32,640) and formula give 21,888.
        ("gemini-2.5-pro/med", 21888),
        ("gemini-2.5-pro/high", 32768),
        ("gemini-2.5-flash/low", 8192),
        ("gemini-2.5-flash/med", 16384),
        ("gemini-2.5-flash/high", 24576),
        ("gemini-2.5-flash-lite/high", 24576),
    ];
    for (target, budget) in table {
        let p = plan(target);
        assert_eq!(
            at(&p, "/generationConfig/thinkingConfig/thinkingBudget"),
            budget,
            "{target}"
        );
        assert_eq!(
            at(&p, "/generationConfig/thinkingConfig/includeThoughts"),
            true,
            "{target}"
        );
        assert!(
            at(&p, "/generationConfig/thinkingConfig/thinkingLevel").is_null(),
            "{target}"
        );
    }
}

#[test]
fn gemini_off_disables_flash_and_floors_pro() {
    let flash = plan("gemini-2.5-flash/off");
    assert_eq!(
        at(&flash, "/generationConfig/thinkingConfig/thinkingBudget"),
        0
    );
    assert!(flash.warnings.is_empty());
    let pro = plan("gemini-2.5-pro/none");
    assert_eq!(
        at(&pro, "/generationConfig/thinkingConfig/thinkingBudget"),
        128
    );
    assert_eq!(
        pro.warnings,
        ["This model does not support disabling thinking"]
    );
    // Flash-Lite picks the longer pattern, not Flash's range.
    assert_eq!(
        plan("gemini-2.5-flash-lite/minimal").meaning.tokens,
        Some(512)
    );
}

#[test]
fn seed_000_gemini_3_uses_a_level_never_a_budget() {
    let table = [
        ("gemini-3-pro/none", "LOW"),
        ("gemini-3-pro/low", "LOW"),
        ("gemini-3-pro/med", "HIGH"),
        ("gemini-3-pro/high", "HIGH"),
        ("gemini-3-pro-preview/max", "HIGH"),
        ("gemini-3-flash/minimal", "MINIMAL"),
        ("gemini-3-flash/med", "MEDIUM"),
        ("gemini-3.1-pro/minimal", "LOW"),
    ];
    for (target, level) in table {
        let p = plan(target);
        assert_eq!(
            at(&p, "/generationConfig/thinkingConfig/thinkingLevel"),
            level,
            "{target}"
        );
        assert!(
            at(&p, "/generationConfig/thinkingConfig/thinkingBudget").is_null(),
            "{target}"
        );
        assert_eq!(
            at(&p, "/generationConfig/thinkingConfig/includeThoughts"),
            true
        );
    }
}

// ---- OpenAI ----

#[test]
fn openai_efforts_follow_each_models_accepted_set() {
    let table = [
        ("o3/low", "low"),
        ("o3/med", "medium"),
        ("o3/none", "medium"), // o-series cannot say none: the default, with a warning
        ("o3/minimal", "low"),
        ("o3/max", "high"),
        ("o1/none", "medium"),
        ("o3-mini/high", "high"),
        ("o4-mini/low", "low"),
        ("gpt-5/minimal", "minimal"),
        ("gpt-5.1/minimal", "low"), // gpt-5.1 rejects minimal
        ("gpt-5.1/none", "none"),
        ("gpt-5.2/max", "xhigh"),
    ];
    for (target, effort) in table {
        let p = chat(target);
        assert_eq!(at(&p, "/reasoning_effort"), effort, "{target}");
    }
    // Served only by Responses: it goes there even when Chat Completions was chosen.
    let pro = chat("gpt-5-pro/low");
    assert_eq!(pro.api, Endpoint::Responses);
    assert_eq!(at(&pro, "/reasoning/effort"), "high");
    assert_eq!(
        chat("o3/none").warnings,
        ["This model does not support disabling thinking"]
    );
    assert!(chat("gpt-5.1/none").warnings.is_empty());
}

#[test]
fn openai_chat_and_responses_spell_effort_differently() {
    let responses = plan("o3/high");
    assert_eq!(
        sent(&responses).get("reasoning"),
        Some(&json!({"effort": "high", "summary": "auto"}))
    );
    assert_eq!(
        sent(&responses).get("include"),
        Some(&json!(["reasoning.encrypted_content"]))
    );
    assert!(sent(&responses).get("reasoning_effort").is_none());
    let chat = chat("o3/high");
    assert_eq!(sent(&chat).get("reasoning_effort"), Some(&json!("high")));
    assert!(sent(&chat).get("reasoning").is_none());
    // A model without reasoning gets nothing, and says so.
    let gpt4o = plan("gpt-4o/high");
    assert!(gpt4o.request.is_empty());
    assert_eq!(gpt4o.warnings.len(), 1);
}

// ---- custom budgets on models without budgets ----

#[test]
fn seed_004_budget_thresholds() {
    let effort = [
        ("gpt-5/3999", "minimal"),
        ("gpt-5/4000", "low"),
        ("gpt-5/15999", "low"),
        ("gpt-5/16000", "medium"),
        ("gpt-5/31999", "medium"),
        ("gpt-5/32000", "high"),
        ("o3/3000", "low"), // minimal is not among o3's efforts
    ];
    for (target, want) in effort {
        assert_eq!(at(&chat(target), "/reasoning_effort"), want, "{target}");
    }
    for (target, want) in [("grok-3-mini/19999", "low"), ("grok-3-mini/20000", "high")] {
        assert_eq!(at(&plan(target), "/reasoning_effort"), want, "{target}");
    }
    for (target, want) in [
        ("gemini-3-pro/15999", "LOW"),
        ("gemini-3-pro/16000", "HIGH"),
    ] {
        assert_eq!(
            at(
                &plan(target),
                "/generationConfig/thinkingConfig/thinkingLevel"
            ),
            want,
            "{target}"
        );
    }
    let flash = plan("gemini-2.5-flash/30000");
    assert_eq!(
        at(&flash, "/generationConfig/thinkingConfig/thinkingBudget"),
        24576,
        "capped at the model's max"
    );
    let exact = plan("gemini-2.5-flash/12000");
    assert_eq!(
        at(&exact, "/generationConfig/thinkingConfig/thinkingBudget"),
        12000
    );
}

#[test]
fn seed_004_vendor_quirks() {
    let grok4 = plan("grok-4/20000");
    assert!(
        grok4.request.is_empty(),
        "other Grok models strip the parameter"
    );
    assert!(grok4.omit.contains(&"reasoning_effort".to_owned()));
    let reasoner = plan("deepseek-reasoner/high");
    assert!(
        reasoner.request.is_empty(),
        "DeepSeek R1 returns 400 on reasoning parameters"
    );
    assert_eq!(reasoner.meaning.kind, MeaningKind::Always);
    let minimax = plan("minimax-m2/5000");
    assert_eq!(sent(&minimax).get("reasoning_split"), Some(&json!(true)));
    let qwen = plan_with(
        "qwen3-max/12000",
        Some("qwen"),
        &Overrides::default(),
        &TurnContext::default(),
    );
    assert_eq!(sent(&qwen).get("enable_thinking"), Some(&json!(true)));
    assert_eq!(sent(&qwen).get("thinking_budget"), Some(&json!(12000)));
    assert!(qwen.stream, "DashScope thinking needs streaming");
}

#[test]
fn compat_vendors_spell_their_own_knobs() {
    let v4 = plan("deepseek-v4-pro/max");
    assert_eq!(sent(&v4).get("thinking"), Some(&json!({"type": "enabled"})));
    assert_eq!(sent(&v4).get("reasoning_effort"), Some(&json!("max")));
    assert_eq!(
        sent(&plan("deepseek-v4-pro/off")).get("thinking"),
        Some(&json!({"type": "disabled"}))
    );
    assert_eq!(
        sent(&plan("kimi-k2.5/off")).get("thinking"),
        Some(&json!({"type": "disabled"}))
    );
    assert!(plan("kimi-k2-thinking/high").request.is_empty());
    assert_eq!(
        sent(&plan("glm-4.6/off")).get("thinking"),
        Some(&json!({"type": "disabled"}))
    );
    let ollama = plan_with(
        "qwen3/high",
        Some("ollama"),
        &Overrides::default(),
        &TurnContext::default(),
    );
    assert_eq!(sent(&ollama).get("think"), Some(&json!(true)));
    let oss = plan_with(
        "gpt-oss:20b/low",
        Some("ollama"),
        &Overrides::default(),
        &TurnContext::default(),
    );
    assert_eq!(sent(&oss).get("think"), Some(&json!("low")));
    let m2_off = plan("minimax-m2/off");
    assert_eq!(
        m2_off.warnings,
        ["This model does not support disabling thinking"]
    );
}

// ---- overrides ----

const SEED_002: &str = r#"{
  "providers": {
    "openai": { "reasoning": ["minimal", "low", "medium", "high"] },
    "anthropic": {
      "reasoning": [1024, 8000, 16000, 32000],
      "reasoningAutoStreamLevel": "medium",
      "models": { "claude-3-opus-20250514": { "reasoning": null } }
    },
    "google": { "models": { "gemini-2.5-pro": { "reasoning": [1024, 4096, 8192, 16384] } } }
  }
}"#;

#[test]
fn seed_002_overrides_beat_the_catalog() {
    let overrides = Overrides::from_json(SEED_002).unwrap();
    let ctx = TurnContext::default();
    let low = plan_with("claude-sonnet-4-5/low", None, &overrides, &ctx);
    assert_eq!(at(&low, "/thinking/budget_tokens"), 8000);
    assert!(
        low.stream,
        "answers stream unless streaming is switched off"
    );
    let medium = plan_with("claude-sonnet-4-5/medium", None, &overrides, &ctx);
    assert_eq!(at(&medium, "/thinking/budget_tokens"), 16000);
    // With streaming off for the provider, the auto-stream level still streams from medium up.
    let mut off = overrides.clone();
    off.providers.get_mut("anthropic").unwrap().stream = Some(false);
    let low = plan_with("claude-sonnet-4-5/low", None, &off, &ctx);
    assert!(!low.stream, "below the auto-stream level");
    assert!(
        low.feedback
            .notes
            .iter()
            .any(|n| n.starts_with("Not streamed")),
        "{:?}",
        low.feedback.notes
    );
    let medium = plan_with("claude-sonnet-4-5/medium", None, &off, &ctx);
    assert!(
        medium.stream,
        "reasoningAutoStreamLevel medium forces streaming"
    );
    assert!(
        medium
            .feedback
            .notes
            .iter()
            .any(|n| n.contains("stream from medium up"))
    );
    // A model's own setting beats its provider's; a request that must stream still does.
    off.providers.get_mut("anthropic").unwrap().models.insert(
        "claude-sonnet-4-5".into(),
        super::overrides::ModelOverrides {
            stream: Some(true),
            ..Default::default()
        },
    );
    assert!(plan_with("claude-sonnet-4-5/low", None, &off, &ctx).stream);
    let whole = Overrides::from_json(r#"{"providers": {"anthropic": {"stream": false}}}"#).unwrap();
    let big = plan_with("claude-opus-4-5/high", None, &whole, &ctx);
    assert!(
        big.stream,
        "Anthropic's SDKs stream any request that could run past ten minutes"
    );
    let max = plan_with("claude-sonnet-4-5/max", None, &overrides, &ctx);
    assert_eq!(
        at(&max, "/thinking/budget_tokens"),
        32000,
        "max uses the last value"
    );
    let opus = plan_with(
        "claude-3-opus-20250514/high",
        Some("anthropic"),
        &overrides,
        &ctx,
    );
    assert_eq!(opus.meaning.kind, MeaningKind::Disabled);
    assert!(sent(&opus).get("thinking").is_none());
    let pro = plan_with("gemini-2.5-pro/medium", None, &overrides, &ctx);
    assert_eq!(
        at(&pro, "/generationConfig/thinkingConfig/thinkingBudget"),
        8192
    );
    let flash = plan_with("gemini-2.5-flash/medium", None, &overrides, &ctx);
    assert_eq!(
        at(&flash, "/generationConfig/thinkingConfig/thinkingBudget"),
        16384,
        "built-in rule"
    );
    // `default` ignores overrides: unset preserves provider defaults.
    let default = plan_with("claude-sonnet-4-5/default", None, &overrides, &ctx);
    assert_eq!(default.meaning.kind, MeaningKind::ProviderDefault);
    assert!(sent(&default).get("thinking").is_none());
}

#[test]
fn seed_002_generic_ratios_for_unknown_models() {
    let ctx = TurnContext {
        max_output: Some(10_000),
        ..TurnContext::default()
    };
    let none = Overrides::default();
    for (choice, budget) in [
        ("minimal", 1024),
        ("low", 2000),
        ("medium", 5000),
        ("high", 8000),
    ] {
        let p = plan_with(
            &format!("claude-future-9/{choice}"),
            Some("anthropic"),
            &none,
            &ctx,
        );
        assert!(p.generic);
        assert_eq!(p.meaning.tokens, Some(budget), "{choice}");
        assert!(
            p.warnings
                .iter()
                .any(|w| w.contains("thinking support unknown"))
        );
        // The change's feedback line carries every warning the plan has.
        assert_eq!(p.feedback.warnings, p.warnings);
        assert!(p.feedback.text().contains("thinking support unknown"));
    }
    // Google's bounds clamp the low end at 1,024.
    let small = TurnContext {
        max_output: Some(4_000),
        ..TurnContext::default()
    };
    let p = plan_with("gemini-9-ultra/low", Some("google"), &none, &small);
    assert_eq!(p.meaning.tokens, Some(1024));
    // OpenAI-style providers forward the effort label.
    let p = plan_with("o9/high", Some("openai"), &none, &ctx);
    assert_eq!(at(&p, "/reasoning/effort"), "high");
}

// ---- long context ----

#[test]
fn long_context_reduces_the_budget_to_ten_thousand() {
    let ctx = TurnContext {
        context_tokens: 160_000,
        ..TurnContext::default()
    };
    let p = plan_with("claude-sonnet-4-5/high", None, &Overrides::default(), &ctx);
    assert_eq!(
        p.meaning.tokens,
        Some(64000),
        "the level still means 64,000"
    );
    assert_eq!(at(&p, "/thinking/budget_tokens"), 10000);
    assert!(
        p.feedback.thinking.contains("reduced to 10,000"),
        "{}",
        p.feedback.thinking
    );
    let off = TurnContext {
        long_context_reduction: false,
        ..ctx
    };
    let p = plan_with("claude-sonnet-4-5/med", None, &Overrides::default(), &off);
    assert_eq!(
        at(&p, "/thinking/budget_tokens"),
        36000,
        "only the context window limits it"
    );
}

// ---- adaptive ----

#[test]
fn anthropic_adaptive_models_get_effort_and_never_enabled() {
    let p = plan("claude-opus-4-6/max");
    assert_eq!(sent(&p).get("thinking"), Some(&json!({"type": "adaptive"})));
    assert_eq!(at(&p, "/output_config/effort"), "max");
    let p = plan("claude-opus-4-7/minimal");
    assert_eq!(
        sent(&p).get("thinking"),
        Some(&json!({"type": "adaptive", "display": "summarized"}))
    );
    assert_eq!(at(&p, "/output_config/effort"), "low");
    assert!(sent(&plan("claude-opus-4-6/off")).get("thinking").is_none());
    let p = plan("claude-sonnet-4-6/20000");
    assert_eq!(at(&p, "/output_config/effort"), "medium");
}

// ---- every model × every choice ----

fn sent_effort(p: &Plan) -> Option<String> {
    let body = sent(p);
    let value = body
        .get("reasoning_effort")
        .or_else(|| body.get("reasoning").and_then(|r| r.get("effort")))
        .or_else(|| body.get("think").filter(|v| v.is_string()))
        .or_else(|| body.get("output_config").and_then(|o| o.get("effort")))?;
    value.as_str().map(str::to_owned)
}

#[test]
fn every_model_and_choice_gives_a_valid_request() {
    let catalog = Catalog::builtin();
    let choices = Choice::NAMED
        .into_iter()
        .chain([500, 3_000, 12_000, 50_000, 200_000].map(Choice::Budget));
    let contexts = [
        TurnContext::default(),
        TurnContext {
            api: Some(ApiChoice::Chat),
            ..TurnContext::default()
        },
        TurnContext {
            max_output: Some(2_000),
            ..TurnContext::default()
        },
        TurnContext {
            max_output: Some(100_000),
            context_tokens: 160_000,
            tools: true,
            ..TurnContext::default()
        },
    ];
    let mut checked = 0;
    // Every rule's pattern and every real id of the model list.
    let ids = catalog
        .rules
        .iter()
        .map(|r| (&r.provider, &r.pattern))
        .chain(
            crate::catalog::ModelList::builtin()
                .models
                .iter()
                .map(|m| (&m.provider, &m.id)),
        );
    for (provider, id) in ids {
        let model = catalog.resolve(Some(provider), id).unwrap();
        for choice in choices.clone() {
            for ctx in &contexts {
                let p = translate(choice, &model, &Overrides::default(), ctx).unwrap();
                let at = format!("{id} {choice} {ctx:?}");
                check_valid(&model, choice, &p, &at);
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "checked {checked} combinations");
}

fn check_valid(model: &ModelInfo, choice: Choice, p: &Plan, at: &str) {
    let body = sent(p);
    if choice == Choice::Default {
        assert!(
            [
                "thinking",
                "reasoning",
                "reasoning_effort",
                "think",
                "enable_thinking",
                "output_config"
            ]
            .iter()
            .all(|k| !body.contains_key(*k)),
            "{at}: default sends no reasoning parameter: {:?}",
            p.request
        );
    }
    match &model.thinking {
        Thinking::Always => assert!(
            body.keys().all(|k| k == "max_completion_tokens"
                || k == "max_output_tokens"
                || k == "options"
                // Gemini's request for thought parts sets no level or budget.
                || (k == "generationConfig"
                    && p.request.thinking_budget().is_none()
                    && p.request
                        .generation_config
                        .as_ref()
                        .and_then(|g| g.thinking_config.as_ref())
                        .is_none_or(|t| t.thinking_level.is_none()))),
            "{at}: nothing for a model that always thinks: {:?}",
            p.request
        ),
        Thinking::Effort { values, .. } => {
            if let Some(effort) = sent_effort(p) {
                assert!(
                    values.iter().any(|v| v.as_str() == effort),
                    "{at}: effort {effort} is one the model accepts ({values:?})"
                );
            }
        }
        Thinking::Adaptive { efforts, .. } => {
            assert_ne!(
                at_str(p, "thinking", "type"),
                Some("enabled".to_owned()),
                "{at}: adaptive-only"
            );
            if let Some(effort) = sent_effort(p) {
                assert!(
                    efforts.iter().any(|v| v.as_str() == effort),
                    "{at}: effort {effort}"
                );
            }
        }
        Thinking::Level { values, .. } => {
            let config = body
                .get("generationConfig")
                .and_then(|g| g.get("thinkingConfig"));
            if let Some(config) = config {
                assert!(
                    config.get("thinkingBudget").is_none(),
                    "{at}: no budget with a level"
                );
                // The provider's default sends no level, only includeThoughts.
                if let Some(level) = config["thinkingLevel"].as_str() {
                    assert!(
                        values.iter().any(|v| v.wire() == level),
                        "{at}: level {level} is one the model has"
                    );
                } else {
                    assert_eq!(choice, Choice::Default, "{at}: a level is sent");
                }
            }
        }
        Thinking::Budget {
            min,
            max,
            can_disable,
        } => {
            if let Some(config) = body
                .get("generationConfig")
                .and_then(|g| g.get("thinkingConfig"))
            {
                assert!(
                    config.get("thinkingLevel").is_none(),
                    "{at}: never a level with a budget"
                );
                if let Some(budget) = config.get("thinkingBudget").and_then(Value::as_u64) {
                    let ok = (budget == 0 && *can_disable)
                        || (u64::from(*min)..=u64::from(*max)).contains(&budget);
                    assert!(ok, "{at}: budget {budget} within {min}–{max}");
                }
            }
        }
        Thinking::Toggle { .. } | Thinking::None => {}
    }
    if let Some(budget) = body
        .get("reasoning")
        .and_then(|r| r.get("max_tokens"))
        .and_then(Value::as_u64)
    {
        let max_tokens = body.get("max_tokens").and_then(Value::as_u64);
        assert!(
            max_tokens.is_some_and(|m| budget < m),
            "{at}: a routed budget {budget} stays below max_tokens {max_tokens:?}"
        );
    }
    if model.provider.id == "anthropic" {
        let max_tokens = body.get("max_tokens").and_then(Value::as_u64);
        assert!(
            max_tokens.is_some(),
            "{at}: Anthropic always needs max_tokens"
        );
        let max_tokens = max_tokens.unwrap();
        assert!(
            max_tokens <= u64::from(model.max_output),
            "{at}: max_tokens within the model's limit"
        );
        if at_str(p, "thinking", "type") == Some("enabled".to_owned()) {
            let budget = body["thinking"]["budget_tokens"].as_u64().unwrap();
            assert!(budget >= 1024, "{at}: budget ≥ 1,024");
            assert!(
                budget < max_tokens,
                "{at}: budget {budget} < max_tokens {max_tokens}"
            );
            assert!(p.omit.contains(&"temperature".to_owned()), "{at}");
        }
    }
}

fn at_str(p: &Plan, field: &str, key: &str) -> Option<String> {
    Some(sent(p).get(field)?.get(key)?.as_str()?.to_owned())
}

// ---- GitHub Copilot (seed 003's matrix) ----

fn copilot(target: &str) -> Plan {
    plan_with(
        target,
        Some("copilot"),
        &Overrides::default(),
        &TurnContext::default(),
    )
}

#[test]
fn copilot_sends_each_family_to_its_api_with_its_parameters() {
    // (target, API, reasoning_effort, reasoning.effort, reasoning.summary)
    let table = [
        (
            "gpt-5.4/high",
            Endpoint::Responses,
            None,
            Some("high"),
            Some("auto"),
        ),
        (
            "gpt-5.4/max",
            Endpoint::Responses,
            None,
            Some("high"),
            Some("auto"),
        ),
        (
            "gpt-5-mini/low",
            Endpoint::Responses,
            None,
            Some("low"),
            Some("auto"),
        ),
        (
            "gpt-5.5/minimal",
            Endpoint::Responses,
            None,
            Some("low"),
            Some("auto"),
        ),
        (
            "gpt-6-sol/medium",
            Endpoint::Responses,
            None,
            Some("medium"),
            Some("auto"),
        ),
        (
            "claude-sonnet-4.6/high",
            Endpoint::Chat,
            Some("high"),
            None,
            None,
        ),
        (
            "claude-opus-4.8/max",
            Endpoint::Chat,
            Some("high"),
            None,
            None,
        ),
        (
            "claude-haiku-4.5/low",
            Endpoint::Chat,
            Some("low"),
            None,
            None,
        ),
        ("claude-sonnet-4.6/off", Endpoint::Chat, None, None, None),
        ("gpt-4o/high", Endpoint::Chat, None, None, None),
        ("gpt-4.1/high", Endpoint::Chat, None, None, None),
        // Not in the catalog, served only by Responses (LiteLLM's data): no parameters.
        (
            "mai-code-1.1-flash/high",
            Endpoint::Responses,
            None,
            None,
            None,
        ),
    ];
    let text = |v: Value| v.as_str().map(str::to_owned);
    for (target, api, chat_effort, effort, summary) in table {
        let p = copilot(target);
        assert_eq!(p.api, api, "{target}");
        assert_eq!(
            text(at(&p, "/reasoning_effort")).as_deref(),
            chat_effort,
            "{target}"
        );
        assert_eq!(
            text(at(&p, "/reasoning/effort")).as_deref(),
            effort,
            "{target}"
        );
        assert_eq!(
            text(at(&p, "/reasoning/summary")).as_deref(),
            summary,
            "{target}"
        );
        assert_eq!(
            at(&p, "/thinking"),
            Value::Null,
            "{target}: no Anthropic or DeepSeek switch"
        );
    }
}

#[test]
fn copilot_says_what_max_and_claude_mean() {
    let max = copilot("gpt-5.4/max");
    assert_eq!(
        max.feedback.notes.first().map(String::as_str),
        Some("GitHub Copilot takes at most high: max is sent as high")
    );
    assert_eq!(max.feedback.thinking, "Thinking: high effort");
    let claude = copilot("claude-sonnet-4.6/high");
    assert!(
        claude.feedback.notes.iter().any(|n| n
            == "GitHub Copilot does not return Claude's thoughts: the effort is sent and shapes the answer, but no thinking will show"),
        "{:?}",
        claude.feedback.notes
    );
    assert!(copilot("claude-sonnet-4.6/off").feedback.notes.is_empty());
    assert!(
        copilot("gpt-5.4/high")
            .feedback
            .notes
            .iter()
            .all(|n| !n.contains("does not return"))
    );
    assert_eq!(
        copilot("gpt-4o/high").warnings,
        ["gpt-4o does not reason; the thinking choice has no effect"]
    );
}

#[test]
fn copilot_offers_levels_only_where_they_mean_something() {
    let offered = |id: &str| -> Vec<String> {
        super::levels::level_options(&model(Some("copilot"), id), &Overrides::default())
            .into_iter()
            .filter(|o| o.available)
            .map(|o| o.choice.to_string())
            .collect()
    };
    assert!(offered("gpt-4o").is_empty(), "no level step");
    assert!(offered("gpt-4.1").is_empty(), "no level step");
    assert_eq!(offered("gpt-5.4"), ["default", "low", "medium", "high"]);
    assert_eq!(
        offered("claude-sonnet-4.6"),
        ["default", "off", "low", "medium", "high"]
    );
}

// ---- the picker lists only what a model supports ----

fn available(target: &str) -> Vec<String> {
    let (id, _) = parse_model_choice(target).unwrap();
    super::levels::level_options(&model(None, &id), &Overrides::default())
        .into_iter()
        .filter(|o| o.available)
        .map(|o| o.choice.to_string())
        .collect()
}

#[test]
fn seed_003_level_sets_come_from_the_model() {
    // Opus 4.6+ adds max; Sonnet 4.5 tops out at high (max would be the same budget).
    assert_eq!(
        available("claude-opus-4-6"),
        ["default", "off", "low", "medium", "high", "max"]
    );
    assert_eq!(
        available("claude-sonnet-4-5"),
        ["default", "off", "minimal", "low", "medium", "high"]
    );
    assert!(
        available("gpt-4o").is_empty(),
        "no thinking: the picker skips step two"
    );
    assert_eq!(available("o3"), ["default", "low", "medium", "high"]);
    assert_eq!(available("gemini-3-pro"), ["default", "low", "high"]);
    let labels: Vec<String> =
        super::levels::level_options(&model(None, "gemini-3-pro"), &Overrides::default())
            .into_iter()
            .map(|o| o.label)
            .collect();
    assert!(
        labels.contains(&"off — not available, minimum is LOW".to_owned()),
        "{labels:?}"
    );
    let sonnet: Vec<String> =
        super::levels::level_options(&model(None, "claude-sonnet-4-5"), &Overrides::default())
            .into_iter()
            .map(|o| o.label)
            .collect();
    assert!(
        sonnet.contains(&"medium — 43,008 tokens".to_owned()),
        "{sonnet:?}"
    );
    assert!(
        sonnet.contains(&"max — same as high".to_owned()),
        "{sonnet:?}"
    );
}

#[test]
fn seed_003_max_clamps_to_high_where_there_is_nothing_above() {
    for target in ["o3/max", "claude-sonnet-4-5/max", "gemini-3-pro/max"] {
        let p = plan(target);
        assert!(
            p.feedback
                .notes
                .iter()
                .any(|n| n.starts_with("max is the same as")),
            "{target}: {:?}",
            p.feedback.notes
        );
    }
    assert_eq!(at(&chat("o3/max"), "/reasoning_effort"), "high");
    assert_eq!(
        at(&plan("claude-opus-4-6/max"), "/output_config/effort"),
        "max"
    );
}

#[test]
fn openrouter_budgets_stay_below_max_tokens() {
    let p = plan("anthropic/claude-sonnet-4.5/high");
    let budget = at(&p, "/reasoning/max_tokens").as_u64().unwrap();
    let max_tokens = at(&p, "/max_tokens").as_u64().unwrap();
    assert!(budget < max_tokens, "{budget} < {max_tokens}");
}

#[test]
fn gemini_default_still_asks_to_see_the_thoughts() {
    // (model/choice, includeThoughts sent, a level or budget sent)
    let table = [
        ("gemini-2.5-pro/default", json!(true), false),
        ("gemini-2.5-flash/default", json!(true), false),
        ("gemini-3.1-pro-preview/default", json!(true), false),
        ("gemini-3-flash-preview/default", json!(true), false),
        ("gemini-3.1-pro-preview/high", json!(true), true),
        // A model that does not think gets no thinkingConfig at all.
        ("gemma-3-27b-it/default", Value::Null, false),
    ];
    for (target, include, steered) in table {
        let p = plan_with(
            target,
            Some("google"),
            &Overrides::default(),
            &TurnContext::default(),
        );
        assert_eq!(
            at(&p, "/generationConfig/thinkingConfig/includeThoughts"),
            include,
            "{target}"
        );
        let level = at(&p, "/generationConfig/thinkingConfig/thinkingLevel");
        let budget = at(&p, "/generationConfig/thinkingConfig/thinkingBudget");
        assert_eq!(
            !level.is_null() || !budget.is_null(),
            steered,
            "{target}: {p:?}"
        );
    }
}

#[test]
fn anthropic_models_that_need_it_get_the_interleaved_thinking_header_only_with_tools() {
    let with_tools = TurnContext {
        tools: true,
        ..TurnContext::default()
    };
    let header = |p: &Plan| p.headers.get("anthropic-beta").cloned();
    let sonnet = plan_with(
        "claude-sonnet-4-5/high",
        None,
        &Overrides::default(),
        &with_tools,
    );
    assert_eq!(
        header(&sonnet).as_deref(),
        Some("interleaved-thinking-2025-05-14"),
        "thinking between tool calls"
    );
    assert_eq!(
        header(&plan("claude-sonnet-4-5/high")),
        None,
        "no tools, no header"
    );
    let off = plan_with(
        "claude-sonnet-4-5/off",
        None,
        &Overrides::default(),
        &with_tools,
    );
    assert_eq!(header(&off), None, "no thinking, no header");
}

// ---- a typed budget at the picker's step two ----

#[test]
fn a_typed_budget_is_offered_within_the_models_range_with_what_it_sends() {
    use super::levels::budget_option;
    let none = Overrides::default();
    let label = |target: &str, tokens: u32| {
        let (id, _) = parse_model_choice(target).unwrap();
        budget_option(&model(None, &id), tokens, &none).map(|o| (o.choice, o.label))
    };
    assert_eq!(
        label("claude-sonnet-4-5", 12_000),
        Some((Choice::Budget(12_000), "12,000 tokens".to_owned()))
    );
    assert_eq!(
        label("claude-sonnet-4-5", 500),
        Some((
            Choice::Budget(1_024),
            "1,024 tokens (the least it takes)".to_owned()
        ))
    );
    assert_eq!(
        label("gemini-2.5-pro", 90_000),
        Some((
            Choice::Budget(32_768),
            "32,768 tokens (the most it takes)".to_owned()
        ))
    );
    // Where the model takes a level or an effort, the budget is read as one.
    assert_eq!(
        label("gemini-3-pro", 20_000).unwrap().1,
        "20,000 tokens — HIGH"
    );
    assert_eq!(label("o3", 12_000).unwrap().1, "12,000 tokens — low effort");
    assert_eq!(label("gpt-4o", 12_000), None, "no thinking to budget");
    assert_eq!(label("deepseek-reasoner", 12_000), None, "always thinks");
    // The same as `/model X/12000` sends.
    let typed = plan("claude-sonnet-4-5/12000");
    assert_eq!(typed.meaning.tokens, Some(12_000));
}
