use std::collections::HashSet;

use super::*;

#[test]
fn a_known_model_with_an_unknown_level_is_an_error_and_slashed_ids_still_work() {
    let catalog = Catalog::builtin();
    for (provider, input) in [
        (None, "claude-sonnet-4-5/ultra"),
        (None, "claude-sonnet-4-5/-5"),
        (None, "o3/ultra"),
        (Some("anthropic"), "claude-sonnet-4-5/mediun"),
    ] {
        assert!(
            matches!(
                catalog.parse_target(provider, input),
                Err(ChoiceError::Unknown(_))
            ),
            "{input}"
        );
    }
    let table = [
        (
            Some("openrouter"),
            "anthropic/claude-sonnet-4.5",
            "anthropic/claude-sonnet-4.5",
            None,
        ),
        (
            Some("openrouter"),
            "anthropic/claude-sonnet-4.5/high",
            "anthropic/claude-sonnet-4.5",
            Some(Choice::HIGH),
        ),
        (
            None,
            "claude-sonnet-4-5/med",
            "claude-sonnet-4-5",
            Some(Choice::MEDIUM),
        ),
        (None, "claude-sonnet-4-5", "claude-sonnet-4-5", None),
        (Some("ollama"), "qwen3:8b", "qwen3:8b", None),
    ];
    for (provider, input, model, choice) in table {
        assert_eq!(
            catalog.parse_target(provider, input),
            Ok((model.to_owned(), choice)),
            "{input}"
        );
    }
}

/// Every provider Ponder ships.
const PROVIDERS: [&str; 15] = [
    "anthropic",
    "openai",
    "google",
    "deepseek",
    "moonshot",
    "qwen",
    "minimax",
    "xai",
    "zai",
    "openrouter",
    "ollama",
    "llamacpp",
    "lmstudio",
    "vllm",
    "copilot",
];

#[test]
fn the_embedded_catalog_is_consistent() {
    let catalog = Catalog::builtin();
    let ids: Vec<&str> = catalog.providers.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, PROVIDERS);
    let mut seen = HashSet::new();
    for m in &catalog.rules {
        let at = format!("{}/{}", m.provider, m.pattern);
        assert!(ids.contains(&m.provider.as_str()), "{at}: provider exists");
        assert!(
            seen.insert((m.provider.clone(), m.pattern.clone())),
            "{at}: pattern unique"
        );
        assert_eq!(
            m.pattern,
            m.pattern.to_ascii_lowercase(),
            "{at}: patterns are lowercase"
        );
        match &m.thinking {
            Thinking::Budget { min, max, .. } => assert!(min <= max, "{at}"),
            Thinking::Effort {
                values, default, ..
            } => {
                assert!(values.contains(default), "{at}: default is accepted")
            }
            Thinking::Level { values, default } => {
                assert!(values.contains(default), "{at}: default is a level")
            }
            Thinking::Adaptive { efforts, .. } => assert!(!efforts.is_empty(), "{at}"),
            Thinking::Toggle { .. } | Thinking::Always | Thinking::None => {}
        }
    }
    // vLLM serves whatever open-weight model it was started with: its generic rule.
    for p in PROVIDERS.iter().filter(|p| **p != "vllm") {
        assert!(catalog.rules_of(p).next().is_some(), "{p} has rules");
    }
}

#[test]
fn the_longest_pattern_wins() {
    let catalog = Catalog::builtin();
    let table = [
        ("gemini-2.5-flash-lite", "gemini-2.5-flash-lite"),
        ("gemini-2.5-flash-preview-09-2025", "gemini-2.5-flash"),
        ("gpt-5.1-2025-11-13", "gpt-5.1"),
        ("gpt-5-mini", "gpt-5-mini"),
        ("o3-mini-2025-01-31", "o3-mini"),
        ("o3-2025-04-16", "o3"),
        ("claude-sonnet-4-20250514", "claude-sonnet-4"),
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5"),
        ("claude-3-7-sonnet-20250219", "claude-3-7-sonnet"),
        ("MiniMax-M2", "minimax-m2"),
        ("qwen3-max-2025-09-23", "qwen3-max"),
    ];
    for (id, pattern) in table {
        let model = catalog.resolve(None, id).unwrap();
        assert_eq!(model.pattern.as_deref(), Some(pattern), "{id}");
        assert_eq!(model.id, id, "the id is sent as given");
    }
}

#[test]
fn a_custom_provider_follows_its_preset() {
    let custom = CustomProvider {
        id: CustomProvider::id_for("  My vLLM box! "),
        name: "My vLLM box".into(),
        base_url: "http://10.0.0.5:8000/v1".into(),
        protocol: Protocol::OpenaiChat,
        preset: "vllm".into(),
        needs_key: true,
    };
    assert_eq!(custom.id, "custom-my-vllm-box");
    let catalog = Catalog::builtin().with_custom(std::slice::from_ref(&custom));
    let model = catalog.resolve(Some(&custom.id), "qwen3-32b").unwrap();
    assert_eq!(model.provider.dialect, Dialect::ChatTemplate);
    assert_eq!(model.provider.base_url, "http://10.0.0.5:8000/v1");
    assert_eq!(
        model.provider.api_key_env.as_deref(),
        Some("PONDER_CUSTOM_MY_VLLM_BOX_API_KEY")
    );
    assert!(model.is_generic(), "thinking support unknown");
    // What does not check out is left out, with a reason.
    for (bad, why) in [
        (
            CustomProvider {
                name: " ".into(),
                ..custom.clone()
            },
            "name",
        ),
        (
            CustomProvider {
                base_url: "ftp://x/y/zzzz".into(),
                ..custom.clone()
            },
            "http",
        ),
        (
            CustomProvider {
                preset: "acme".into(),
                ..custom.clone()
            },
            "provider to follow",
        ),
        (
            // Copilot is signed in to, with no address of its own to copy.
            CustomProvider {
                preset: "copilot".into(),
                ..custom.clone()
            },
            "provider to follow",
        ),
    ] {
        let err = bad.check(Catalog::builtin()).unwrap_err();
        assert!(err.to_string().contains(why), "{err}");
        assert_eq!(Catalog::builtin().with_custom(&[bad]).providers.len(), 15);
    }
}

#[test]
fn the_picker_is_offered_real_ids_only() {
    let catalog = Catalog::builtin();
    let list = ModelList::builtin();
    let today = "2026-11-23";
    let mut offered = Vec::new();
    for provider in &catalog.providers {
        for model in catalog.offered(&provider.id, today) {
            let listed = list.get(&provider.id, &model.id).expect("a listed id");
            assert_eq!(listed.id, model.id);
            assert!(!listed.retired(today), "{}", model.id);
            offered.push(model.id);
        }
    }
    // Patterns are not ids; the real ids they cover are offered.
    for pattern in [
        "gemini-3-pro",
        "claude-sonnet-4",
        "claude-3",
        "gemini-2.0",
        "o1-mini",
    ] {
        assert!(!offered.iter().any(|id| id == pattern), "{pattern}");
    }
    for id in [
        "gemini-3.1-pro-preview",
        "claude-opus-4-7",
        "gpt-5.4-mini",
        "deepseek-v4-pro",
    ] {
        assert!(offered.iter().any(|o| o == id), "{id}");
    }
    // o3-mini retired on the day LiteLLM gives.
    assert!(!offered.iter().any(|id| id == "o3-mini"));
}

#[test]
fn a_retired_model_is_not_offered_but_still_known_with_its_rule() {
    let catalog = Catalog::builtin();
    let ids = |models: Vec<ModelInfo>| models.into_iter().map(|m| m.id).collect::<Vec<_>>();
    let sonnet = "claude-sonnet-4-5".to_owned();
    let day_before = "2026-11-29";
    let day = "2026-11-30"; // LiteLLM's retirement day for claude-sonnet-4-5
    assert!(ids(catalog.offered("anthropic", day_before)).contains(&sonnet));
    assert!(!ids(catalog.retired("anthropic", day_before, &[], &[])).contains(&sonnet));
    assert!(!ids(catalog.offered("anthropic", day)).contains(&sonnet));
    let retired = catalog.retired("anthropic", day, &[], &[]);
    let known = retired
        .iter()
        .find(|m| m.id == sonnet)
        .expect("retired, and still known");
    // What a conversation that used it shows: its own rule and levels, not a generic one.
    assert!(!known.is_generic());
    assert_eq!(known.thinking.kind_name(), "budget");
    // One the provider still lists live, or the user added, is offered, not retired.
    let live = [LiveModel::named("Claude-Sonnet-4-5", None)];
    assert!(!ids(catalog.retired("anthropic", day, &live, &[])).contains(&sonnet));
    assert!(
        !ids(catalog.retired("anthropic", day, &[], std::slice::from_ref(&sonnet)))
            .contains(&sonnet)
    );
    let offered = catalog.offer("anthropic", day, &live, &[]).unwrap();
    assert!(
        offered
            .iter()
            .any(|o| o.model.id.eq_ignore_ascii_case(&sonnet))
    );
}

#[test]
fn limits_come_from_the_model_list_and_names_from_the_rule() {
    let catalog = Catalog::builtin();
    let table = [
        // id, name, prompt limit, output limit (LiteLLM's figures)
        (
            "anthropic",
            "claude-opus-4-6",
            "Claude Opus 4.6",
            1_000_000,
            128_000,
        ),
        (
            "anthropic",
            "claude-opus-4-6-20260205",
            "Claude Opus 4.6 20260205",
            1_000_000,
            128_000,
        ),
        ("openai", "gpt-5", "GPT-5", 272_000, 128_000),
        ("openai", "gpt-5.4-mini", "GPT-5.4 mini", 272_000, 128_000),
        (
            "google",
            "gemini-3.1-pro-preview",
            "Gemini 3.1 Pro preview",
            1_048_576,
            65_536,
        ),
    ];
    for (provider, id, name, input, output) in table {
        let model = catalog.resolve(Some(provider), id).unwrap();
        assert_eq!(model.name, name, "{id}");
        assert_eq!(
            (model.context_window, model.max_output),
            (input, output),
            "{id}"
        );
    }
    // An id no rule covers but the list knows cannot reason gets no reasoning parameters.
    let old = catalog.resolve(Some("openai"), "gpt-3.5-turbo").unwrap();
    assert!(!old.is_generic());
    assert_eq!(old.thinking, Thinking::None);
    // One the list knows to reason, with no hand rule: a rule derived from the list's facts.
    let new = catalog.resolve(Some("google"), "gemini-4-argon").unwrap();
    assert!(!new.is_generic());
    assert_eq!(new.rule, RuleSource::Derived);
    assert_eq!(new.thinking.kind_name(), "level");
    // One no source knows: thinking support unknown.
    let unknown = catalog.resolve(Some("google"), "gemini-9-nobody").unwrap();
    assert!(unknown.is_generic());
    assert_eq!(unknown.rule, RuleSource::None);
    assert_eq!(
        catalog.resolve(Some("openai"), "gpt-5.7").unwrap().name,
        "gpt-5.7"
    );
}

#[test]
fn unknown_models_need_a_provider_and_get_its_generic_rule() {
    let catalog = Catalog::builtin();
    for not_a_match in ["mystery-7b", "o30", "o3/mediun", "gpt-5x"] {
        assert!(catalog.resolve(None, not_a_match).is_err(), "{not_a_match}");
    }
    let err = catalog.resolve(None, "mystery-7b").unwrap_err();
    assert!(err.to_string().contains("--provider"), "{err}");
    let generic = catalog
        .resolve(Some("anthropic"), "claude-future-9")
        .unwrap();
    assert!(generic.is_generic());
    assert_eq!(generic.thinking.kind_name(), "budget");
    let err = catalog.resolve(Some("acme"), "x").unwrap_err();
    assert!(err.to_string().contains("anthropic, openai"), "{err}");
    // A provider restricts the search: qwen3 is Ollama's when asked for there.
    let local = catalog.resolve(Some("ollama"), "qwen3:8b").unwrap();
    assert_eq!(local.provider.id, "ollama");
}

/// Everything the picker offers — the model list's ids of every provider, and the live lists
/// a provider answers with (OpenAI's and Copilot's recorded shapes) — read through its rule.
/// A model any source says reasons must have a rule: a hand rule or one derived from the
/// facts. Only an id no source knows may stay "thinking support unknown".
#[test]
fn every_offered_reasoning_model_has_a_known_rule() {
    use crate::catalog::model_list::today;
    use crate::providers::copilot::models as copilot;
    use crate::providers::models::parse_model_list;

    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let read = |path: &str| std::fs::read(fixtures.join(path)).unwrap();
    let openai: serde_json::Value =
        serde_json::from_slice(&read("lists/openai-models.json")).unwrap();
    let openai_live = parse_model_list(Protocol::OpenaiResponses, &openai);
    let copilot_list = copilot::parse(&read("copilot/models.json")).unwrap();
    let copilot_live = copilot::live(&copilot_list);

    let catalog = Catalog::builtin();
    let today = today();
    let mut unknown = Vec::new();
    let mut walked = 0;
    let mut derived = 0;
    for provider in PROVIDERS {
        let live: &[super::LiveModel] = match provider {
            "openai" => &openai_live,
            "copilot" => &copilot_live,
            _ => &[],
        };
        for offered in catalog.offer(provider, &today, live, &[]).unwrap() {
            walked += 1;
            let model = &offered.model;
            let listed_reasons = model.listed.as_ref().is_some_and(|m| m.reasoning);
            let live_reasons = copilot_list
                .iter()
                .any(|m| provider == "copilot" && m.id == model.id && !m.efforts.is_empty());
            if model.rule == RuleSource::Derived {
                derived += 1;
            }
            if (listed_reasons || live_reasons) && model.is_generic() {
                unknown.push(format!("{provider}/{}", model.id));
            }
            // Unknown is said only of ids no source knows.
            if model.is_generic() {
                assert!(
                    model.listed.is_none() && !live_reasons,
                    "{provider}/{} is known to some source",
                    model.id
                );
            }
        }
    }
    assert!(walked > 200, "walked {walked} offered models");
    assert!(derived > 40, "{derived} rules derived");
    assert!(
        unknown.is_empty(),
        "{} reasoning models without a known rule: {unknown:?}",
        unknown.len()
    );
}

/// Every hand rule names where it was read: its own source or its provider's guide.
#[test]
fn every_hand_rule_has_a_source() {
    let catalog = Catalog::builtin();
    for rule in &catalog.rules {
        let model = catalog
            .resolve(Some(&rule.provider), &rule.pattern)
            .unwrap();
        assert_eq!(model.rule, RuleSource::Hand, "{}", rule.pattern);
        let source = model.rule_source.unwrap_or_default();
        assert!(
            source.starts_with("https://"),
            "{}: {source:?}",
            rule.pattern
        );
    }
}

/// Copilot's own list routes each model to the API it answers on and, for a model no hand
/// rule covers, says which efforts it takes.
#[test]
fn a_live_list_routes_models_and_gives_unknown_ones_their_efforts() {
    use crate::providers::copilot::models as copilot;
    use crate::reasoning::plan::{Endpoint, TurnContext};
    use crate::reasoning::{Choice, Overrides, translate};

    let body = br#"{"data": [
        {"id": "grok-5-code", "model_picker_enabled": true, "capabilities": {"type": "chat",
         "supports": {"reasoning_effort": ["low", "high"]}}, "supported_endpoints": ["/responses"]},
        {"id": "claude-opus-4.8", "model_picker_enabled": true, "capabilities": {"type": "chat",
         "supports": {"reasoning_effort": ["low", "medium", "high"]}},
         "supported_endpoints": ["/chat/completions", "/v1/messages"]},
        {"id": "gpt-5.9-mini", "model_picker_enabled": true, "capabilities": {"type": "chat"},
         "supported_endpoints": ["/chat/completions"]}
    ]}"#;
    let live = copilot::live(&copilot::parse(body).unwrap());
    let mut map = std::collections::HashMap::new();
    map.insert("copilot".to_owned(), live);
    let catalog = Catalog::builtin().clone().with_live(&map);
    let plan = |id: &str, choice: Choice| {
        let model = catalog.resolve(Some("copilot"), id).unwrap();
        let plan = translate(
            choice,
            &model,
            &Overrides::default(),
            &TurnContext::default(),
        )
        .unwrap();
        (model, plan)
    };

    let (grok, p) = plan("grok-5-code", Choice::HIGH);
    assert_eq!(grok.rule, RuleSource::Derived);
    assert!(
        matches!(&grok.thinking, Thinking::Effort { values, .. } if values == &[Effort::Low, Effort::High])
    );
    assert_eq!(p.api, Endpoint::Responses, "only /responses: it goes there");
    assert_eq!(
        p.request.reasoning.as_ref().unwrap().effort.as_deref(),
        Some("high")
    );

    // A hand rule stays the rule; the list still routes it.
    let (opus, p) = plan("claude-opus-4.8", Choice::MEDIUM);
    assert_eq!(opus.rule, RuleSource::Hand);
    assert_eq!(p.api, Endpoint::Chat);
    // The GPT family goes to Responses unless the list says the model answers only on Chat.
    let (_, p) = plan("gpt-5.9-mini", Choice::MEDIUM);
    assert_eq!(p.api, Endpoint::Chat);
    let without = Catalog::builtin()
        .resolve(Some("copilot"), "gpt-5.9-mini")
        .unwrap();
    let p = translate(
        Choice::MEDIUM,
        &without,
        &Overrides::default(),
        &TurnContext::default(),
    )
    .unwrap();
    assert_eq!(p.api, Endpoint::Responses);
}

#[test]
fn what_a_model_reads_besides_text_comes_from_the_model_list() {
    use crate::attachments::Kind;
    let cases: &[(&str, &str, Kind, Option<bool>)] = &[
        ("anthropic", "claude-sonnet-4-5", Kind::Pdf, Some(true)),
        ("anthropic", "claude-sonnet-4-5", Kind::Png, Some(true)),
        ("openai", "o3", Kind::Jpeg, Some(true)),
        ("google", "gemini-2.5-pro", Kind::Pdf, Some(true)),
        // The list says nothing of DeepSeek's images: unknown, not "yes".
        ("deepseek", "deepseek-chat", Kind::Png, None),
        // A local server's model is in no list.
        ("ollama", "qwen3", Kind::Webp, None),
        ("ollama", "qwen3", Kind::Text, Some(true)),
        ("deepseek", "deepseek-reasoner", Kind::Text, Some(true)),
    ];
    for (provider, id, kind, reads) in cases {
        let model = Catalog::builtin().resolve(Some(provider), id).unwrap();
        assert_eq!(model.reads(*kind), *reads, "{provider}/{id} {kind:?}");
    }
}
