use super::*;
use crate::catalog::Catalog;

fn listed(provider: &str, id: &str, facts: ThinkingFacts) -> ListedModel {
    ListedModel {
        provider: provider.to_owned(),
        id: id.to_owned(),
        max_input: 200_000,
        max_output: 64_000,
        reasoning: true,
        responses_only: false,
        thinking: facts,
        inputs: Default::default(),
        released: None,
        retires: None,
        price: Default::default(),
    }
}

fn derived(provider: &str, id: &str, facts: ThinkingFacts) -> Option<Derived> {
    let entry = Catalog::builtin().provider(provider).unwrap();
    derive(entry, &listed(provider, id, facts))
}

fn facts(f: impl FnOnce(&mut ThinkingFacts)) -> ThinkingFacts {
    let mut facts = ThinkingFacts::default();
    f(&mut facts);
    facts
}

use Effort::{High, Low, Max, Medium, Minimal, None as NoEffort, Xhigh};

#[test]
fn each_dialect_reads_the_facts_into_its_own_knob() {
    let adaptive_all = facts(|f| {
        f.adaptive = Some(true);
        f.xhigh = Some(true);
        f.max = Some(true);
        f.always_on = Some(false);
    });
    let table: Vec<(&str, &str, ThinkingFacts, Thinking, ReplayRule)> = vec![
        (
            "anthropic",
            "claude-haiku-5-5",
            adaptive_all.clone(),
            Thinking::Adaptive {
                efforts: vec![Low, Medium, High, Xhigh, Max],
                can_disable: true,
                display_summarized: true,
            },
            ReplayRule::SignedBlocks,
        ),
        (
            "anthropic",
            "claude-next",
            ThinkingFacts::default(),
            Thinking::Budget {
                min: 1_024,
                max: 64_000,
                can_disable: true,
            },
            ReplayRule::SignedBlocks,
        ),
        (
            "openai",
            "gpt-6-sol",
            facts(|f| {
                f.none = Some(true);
                f.minimal = Some(false);
                f.xhigh = Some(true);
                f.max = Some(true);
            }),
            Thinking::Effort {
                values: vec![NoEffort, Low, Medium, High, Xhigh, Max],
                default: Medium,
                can_disable: false,
            },
            ReplayRule::ReasoningItems,
        ),
        (
            "openai",
            "chat-latest",
            facts(|f| f.effort_levels = Some(vec!["medium".into()])),
            Thinking::Effort {
                values: vec![Medium],
                default: Medium,
                can_disable: false,
            },
            ReplayRule::ReasoningItems,
        ),
        (
            "openai",
            "daybreak-blue-latest",
            ThinkingFacts::default(),
            Thinking::Effort {
                values: vec![Low, Medium, High],
                default: Medium,
                can_disable: false,
            },
            ReplayRule::ReasoningItems,
        ),
        (
            "google",
            "gemini-3.7-flash",
            facts(|f| f.minimal = Some(false)),
            Thinking::Level {
                values: vec![
                    ThinkingLevel::Low,
                    ThinkingLevel::Medium,
                    ThinkingLevel::High,
                ],
                default: ThinkingLevel::High,
            },
            ReplayRule::ThoughtSignatures,
        ),
        (
            "google",
            "gemini-flash-latest",
            ThinkingFacts::default(),
            Thinking::Level {
                values: vec![
                    ThinkingLevel::Minimal,
                    ThinkingLevel::Low,
                    ThinkingLevel::Medium,
                    ThinkingLevel::High,
                ],
                default: ThinkingLevel::High,
            },
            ReplayRule::ThoughtSignatures,
        ),
        (
            "google",
            "gemini-2.7-pro",
            ThinkingFacts::default(),
            Thinking::Budget {
                min: 128,
                max: 32_768,
                can_disable: false,
            },
            ReplayRule::ThoughtSignatures,
        ),
        (
            "moonshot",
            "kimi-k3",
            facts(|f| f.effort_levels = Some(vec!["low".into(), "high".into(), "max".into()])),
            Thinking::Effort {
                values: vec![Low, High, Max],
                default: Low,
                can_disable: true,
            },
            ReplayRule::ReasoningContentOnToolTurns,
        ),
        (
            "deepseek",
            "deepseek-flash",
            ThinkingFacts::default(),
            Thinking::Toggle {
                can_disable: true,
                default_on: true,
            },
            ReplayRule::ReasoningContentOnToolTurns,
        ),
        (
            "zai",
            "glm-5v-turbo",
            ThinkingFacts::default(),
            Thinking::Toggle {
                can_disable: true,
                default_on: true,
            },
            ReplayRule::ReasoningContentOnToolTurns,
        ),
        (
            "qwen",
            "qwen3.8-max",
            ThinkingFacts::default(),
            Thinking::Budget {
                min: 0,
                max: 32_768,
                can_disable: true,
            },
            ReplayRule::Optional,
        ),
        (
            "qwen",
            "glm-5.1",
            ThinkingFacts::default(),
            Thinking::Toggle {
                can_disable: true,
                default_on: true,
            },
            ReplayRule::Optional,
        ),
        (
            "xai",
            "grok-code-fast",
            ThinkingFacts::default(),
            Thinking::Always,
            ReplayRule::ReasoningItems,
        ),
        (
            "copilot",
            "claude-fable-5",
            facts(|f| {
                f.adaptive = Some(true);
                f.always_on = Some(true);
            }),
            Thinking::Effort {
                values: vec![Low, Medium, High],
                default: Medium,
                can_disable: false,
            },
            ReplayRule::ReasoningOpaque,
        ),
        (
            "copilot",
            "gemini-4-argon",
            ThinkingFacts::default(),
            Thinking::Always,
            ReplayRule::ReasoningOpaque,
        ),
        (
            "copilot",
            "grok-4.7",
            ThinkingFacts::default(),
            Thinking::Always,
            ReplayRule::ReasoningOpaque,
        ),
    ];
    for (provider, id, facts, thinking, replay) in table {
        let rule = derived(provider, id, facts).unwrap_or_else(|| panic!("{provider} {id}"));
        assert_eq!(rule.thinking, thinking, "{provider} {id}");
        assert_eq!(rule.replay, replay, "{provider} {id}");
    }
}

#[test]
fn a_model_the_list_says_does_not_reason_is_known_not_to() {
    let mut model = listed("openai", "gpt-4.9", ThinkingFacts::default());
    model.reasoning = false;
    let entry = Catalog::builtin().provider("openai").unwrap();
    assert_eq!(derive(entry, &model).unwrap().thinking, Thinking::None);
}

#[test]
fn always_on_models_cannot_be_switched_off_and_minimal_goes_only_where_flagged() {
    let on = facts(|f| {
        f.adaptive = Some(true);
        f.always_on = Some(true);
    });
    let rule = derived("anthropic", "claude-x", on).unwrap();
    assert!(!rule.thinking.can_disable());
    assert_eq!(rule.default, "adaptive");
    let minimal = derived("openai", "gpt-x", facts(|f| f.minimal = Some(true))).unwrap();
    assert!(
        matches!(minimal.thinking, Thinking::Effort { ref values, .. } if values[0] == Minimal)
    );
    assert!(derived("openrouter", "x/y", ThinkingFacts::default()).is_none());
    assert!(derived("copilot", "mystery-1", ThinkingFacts::default()).is_none());
}
