//! A thinking rule for a listed model no hand-written rule covers, derived from what LiteLLM
//! knows of it (`supports_reasoning`, `supports_adaptive_thinking`, the effort flags,
//! `thinking_always_on`, `reasoning_effort_levels`) and how its provider spells reasoning.
//!
//! The data says *whether* and *how finely* a model thinks; the dialect says *which knob*
//! turns it. What the data cannot say (budget ranges, what must be replayed) comes from the
//! dialect's documented behaviour, the same for every model of the provider.

use serde::Serialize;

use super::{Dialect, Effort, ProviderEntry, ReplayRule, Shows, Thinking, ThinkingLevel};
use crate::catalog::model_list::{ListedModel, ThinkingFacts};
use crate::reasoning::plan::ApiChoice;

/// Where a model's thinking rule comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum RuleSource {
    /// A rule written by hand in `catalog.json`, from the provider's documentation.
    Hand,
    /// Derived from the model list's facts and the provider's dialect.
    Derived,
    /// No source knows the id: the provider's generic rule is a guess.
    None,
}

impl RuleSource {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hand => "hand rule",
            Self::Derived => "derived",
            Self::None => "none",
        }
    }
}

/// What the picker says of a default no source gives.
const NOT_PUBLISHED: &str = "not published";

/// A derived rule: everything a hand rule says except its pattern and limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Derived {
    pub thinking: Thinking,
    pub shows: Shows,
    pub replay: ReplayRule,
    pub default: String,
    pub interleaved_header: bool,
    pub api: Option<ApiChoice>,
}

/// The rule for `listed` at `provider`, or `None` where the dialect has no way to read the
/// facts (routers and local servers list their own models).
pub(super) fn derive(provider: &ProviderEntry, listed: &ListedModel) -> Option<Derived> {
    if !listed.reasoning {
        return Some(Derived::plain(
            Thinking::None,
            Shows::None,
            ReplayRule::None,
            "none",
        ));
    }
    let id = listed.id.to_ascii_lowercase();
    let facts = &listed.thinking;
    let derived = match provider.dialect {
        Dialect::Anthropic => anthropic(facts, listed.max_output),
        Dialect::Openai => {
            let (thinking, default) = openai_efforts(facts);
            Derived::plain(
                thinking,
                Shows::Summary,
                ReplayRule::ReasoningItems,
                &default,
            )
        }
        Dialect::Gemini => gemini(&id, facts),
        Dialect::Deepseek | Dialect::Kimi | Dialect::Glm => {
            effort_or_switch(facts, ReplayRule::ReasoningContentOnToolTurns)
        }
        Dialect::Qwen if id.starts_with("qwen") => Derived::plain(
            Thinking::Budget {
                min: 0,
                max: 32_768,
                can_disable: true,
            },
            Shows::Full,
            ReplayRule::Optional,
            // Qwen's commercial models start with thinking off, its open ones with it on.
            NOT_PUBLISHED,
        ),
        // Other vendors' models on DashScope (DeepSeek, GLM, Kimi) take `enable_thinking` but
        // no `thinking_budget`.
        Dialect::Qwen => Derived::plain(
            Thinking::Toggle {
                can_disable: true,
                default_on: true,
            },
            Shows::Full,
            ReplayRule::Optional,
            "on",
        ),
        Dialect::Minimax => Derived::plain(
            provider.generic.thinking.clone(),
            Shows::Full,
            ReplayRule::Verbatim,
            "on",
        ),
        Dialect::Xai => match efforts_listed(facts) {
            Some(values) => {
                let default = default_effort(facts, &values);
                Derived::plain(
                    Thinking::Effort {
                        values,
                        default,
                        can_disable: false,
                    },
                    Shows::Summary,
                    ReplayRule::ReasoningItems,
                    facts.default_effort.as_deref().unwrap_or(NOT_PUBLISHED),
                )
            }
            // xAI's reasoning models think every time and refuse `reasoning_effort`, except
            // those that list the efforts they take.
            None => Derived::plain(
                Thinking::Always,
                Shows::Summary,
                ReplayRule::ReasoningItems,
                "always",
            ),
        },
        Dialect::Copilot => copilot(&id, facts)?,
        Dialect::Openrouter
        | Dialect::Ollama
        | Dialect::ChatTemplate
        | Dialect::OpenaiCompatible => {
            return None;
        }
    };
    Some(derived)
}

impl Derived {
    fn plain(thinking: Thinking, shows: Shows, replay: ReplayRule, default: &str) -> Self {
        Self {
            thinking,
            shows,
            replay,
            default: default.to_owned(),
            interleaved_header: false,
            api: None,
        }
    }
}

/// Adaptive thinking where LiteLLM says so, with the efforts it lists; else a budget up to
/// the model's output limit (Anthropic's floor is 1,024 tokens).
fn anthropic(facts: &ThinkingFacts, max_output: u32) -> Derived {
    let always_on = facts.always_on == Some(true);
    if facts.adaptive == Some(true) {
        let mut efforts = vec![Effort::Low, Effort::Medium, Effort::High];
        if facts.xhigh == Some(true) {
            efforts.push(Effort::Xhigh);
        }
        if facts.max == Some(true) {
            efforts.push(Effort::Max);
        }
        return Derived::plain(
            Thinking::Adaptive {
                efforts,
                can_disable: !always_on,
                // Every adaptive Claude since Opus 4.7 returns empty thinking without it.
                display_summarized: true,
            },
            Shows::Summary,
            ReplayRule::SignedBlocks,
            if always_on { "adaptive" } else { "off" },
        );
    }
    Derived {
        // Claude 4 models think between tool calls only with the beta header.
        interleaved_header: true,
        ..Derived::plain(
            Thinking::Budget {
                min: 1_024,
                max: max_output.max(1_024),
                can_disable: !always_on,
            },
            Shows::Summary,
            ReplayRule::SignedBlocks,
            if always_on { "on" } else { "off" },
        )
    }
}

/// The efforts an OpenAI-style model takes: LiteLLM's list where it gives one, else low,
/// medium and high (every reasoning model takes them) plus each step it flags.
fn openai_efforts(facts: &ThinkingFacts) -> (Thinking, String) {
    let values = efforts_listed(facts).unwrap_or_else(|| {
        let mut values = Vec::new();
        let flagged = |flag: Option<bool>, effort: Effort, values: &mut Vec<Effort>| {
            if flag == Some(true) {
                values.push(effort);
            }
        };
        flagged(facts.none, Effort::None, &mut values);
        flagged(facts.minimal, Effort::Minimal, &mut values);
        values.extend([Effort::Low, Effort::Medium, Effort::High]);
        flagged(facts.xhigh, Effort::Xhigh, &mut values);
        flagged(facts.max, Effort::Max, &mut values);
        values
    });
    let default = default_effort(facts, &values);
    let shown = facts
        .default_effort
        .clone()
        .unwrap_or_else(|| NOT_PUBLISHED.to_owned());
    (
        Thinking::Effort {
            values,
            default,
            can_disable: false,
        },
        shown,
    )
}

/// `reasoning_effort_levels`, read as efforts; `None` when absent or unreadable.
fn efforts_listed(facts: &ThinkingFacts) -> Option<Vec<Effort>> {
    let levels = facts.effort_levels.as_ref()?;
    let none = (facts.none == Some(true)).then_some("none");
    let values = parse_efforts(levels.iter().map(String::as_str).chain(none));
    (!values.is_empty()).then_some(values)
}

/// Effort names as a list reads them, in order, each once; names Ponder does not know are
/// left out.
fn parse_efforts<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<Effort> {
    let mut values: Vec<Effort> = names.into_iter().filter_map(parse_effort).collect();
    values.sort();
    values.dedup();
    values
}

fn parse_effort(name: &str) -> Option<Effort> {
    serde_json::from_value(serde_json::Value::String(name.to_ascii_lowercase())).ok()
}

/// The documented default where LiteLLM gives it, else medium where taken, else the lowest
/// step that thinks.
fn default_effort(facts: &ThinkingFacts, values: &[Effort]) -> Effort {
    facts
        .default_effort
        .as_deref()
        .and_then(parse_effort)
        .filter(|e| values.contains(e))
        .or_else(|| values.contains(&Effort::Medium).then_some(Effort::Medium))
        .or_else(|| values.iter().copied().find(|e| *e != Effort::None))
        .unwrap_or(Effort::Medium)
}

/// DeepSeek, Kimi and GLM: the listed efforts with `thinking: {type: disabled}` for off, or
/// the on/off switch alone.
fn effort_or_switch(facts: &ThinkingFacts, replay: ReplayRule) -> Derived {
    let can_disable = facts.always_on != Some(true);
    match efforts_listed(facts) {
        Some(values) => {
            let default = default_effort(facts, &values);
            Derived::plain(
                Thinking::Effort {
                    values,
                    default,
                    can_disable,
                },
                Shows::Full,
                replay,
                facts.default_effort.as_deref().unwrap_or(NOT_PUBLISHED),
            )
        }
        None => Derived::plain(
            Thinking::Toggle {
                can_disable,
                default_on: true,
            },
            Shows::Full,
            replay,
            "on",
        ),
    }
}

/// Gemini 2.x takes a budget; Gemini 3 and later (and the `-latest` aliases, which point at
/// them) take a level: MINIMAL only on Flash models unless LiteLLM says otherwise.
fn gemini(id: &str, facts: &ThinkingFacts) -> Derived {
    let flash = id.contains("flash");
    if gemini_version(id).is_some_and(|major| major < 3) {
        return Derived::plain(
            Thinking::Budget {
                min: if flash { 0 } else { 128 },
                max: 32_768,
                can_disable: flash,
            },
            Shows::Summary,
            ReplayRule::ThoughtSignatures,
            "dynamic",
        );
    }
    let mut values = Vec::new();
    if facts.minimal.unwrap_or(flash) {
        values.push(ThinkingLevel::Minimal);
    }
    values.extend([
        ThinkingLevel::Low,
        ThinkingLevel::Medium,
        ThinkingLevel::High,
    ]);
    Derived::plain(
        Thinking::Level {
            values,
            default: ThinkingLevel::High,
        },
        Shows::Summary,
        ReplayRule::ThoughtSignatures,
        "high",
    )
}

/// The major version in `gemini-2.5-flash`, `gemini-3-pro-preview`.
fn gemini_version(id: &str) -> Option<u32> {
    let rest = id.strip_prefix("gemini-")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// What a provider's live list says of a model: the one API it answers on, and — where no
/// hand rule covers it — the efforts it takes, which make it a model that reasons.
pub(super) fn apply_live(model: &mut super::ModelInfo, live: &super::LiveModel) {
    model.live_api = live.only_api();
    if model.rule == RuleSource::Hand {
        return;
    }
    let values = parse_efforts(live.efforts.iter().map(String::as_str));
    if values.is_empty() {
        return;
    }
    let id = model.id.to_ascii_lowercase();
    let family = match model.provider.dialect {
        Dialect::Copilot => copilot(&id, &ThinkingFacts::default()),
        _ => None,
    };
    let can_disable = match &family {
        Some(d) => d.thinking.can_disable(),
        None => values.contains(&Effort::None),
    };
    let default = default_effort(&ThinkingFacts::default(), &values);
    let base = family.unwrap_or_else(|| {
        Derived::plain(
            Thinking::Always,
            model.provider.generic.shows,
            model.provider.generic.replay,
            NOT_PUBLISHED,
        )
    });
    model.thinking = Thinking::Effort {
        values,
        default,
        can_disable,
    };
    model.shows = base.shows;
    model.replay = base.replay;
    model.default = base.default;
    model.api = base.api.or(model.api);
    model.rule = RuleSource::Derived;
}

/// Copilot's families, as Copilot's chat API takes them: Claude and GPT with an effort at
/// most `high` (Claude on Chat Completions with no thoughts returned, GPT on Responses);
/// Gemini and Grok think at their own default, since Copilot relays no level or budget.
fn copilot(id: &str, facts: &ThinkingFacts) -> Option<Derived> {
    let up_to_high = vec![Effort::Low, Effort::Medium, Effort::High];
    let derived = if id.starts_with("claude") {
        let always_on = facts.always_on == Some(true);
        Derived {
            api: Some(ApiChoice::Chat),
            ..Derived::plain(
                Thinking::Effort {
                    values: up_to_high,
                    default: Effort::Medium,
                    can_disable: !always_on,
                },
                Shows::None,
                // Where Copilot does relay Claude's thoughts, their signature comes with them.
                ReplayRule::ReasoningOpaque,
                if always_on { "adaptive" } else { "off" },
            )
        }
    } else if id.starts_with("gpt-") || id.starts_with('o') {
        Derived {
            api: Some(ApiChoice::Responses),
            ..Derived::plain(
                Thinking::Effort {
                    values: up_to_high,
                    default: Effort::Medium,
                    can_disable: false,
                },
                Shows::Summary,
                ReplayRule::ReasoningItems,
                "medium",
            )
        }
    } else if id.starts_with("gemini") || id.starts_with("grok") {
        Derived {
            api: Some(ApiChoice::Chat),
            ..Derived::plain(
                Thinking::Always,
                Shows::Summary,
                ReplayRule::ReasoningOpaque,
                "always",
            )
        }
    } else {
        return None;
    };
    Some(derived)
}

#[cfg(test)]
mod tests;
