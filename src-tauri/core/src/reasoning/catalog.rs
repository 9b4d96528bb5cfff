//! The model catalog: how each model thinks, and how its provider spells it.
//!
//! The catalog is data (`catalog.json`, embedded in the binary) so that a new model is a new
//! entry, not a new code path. Its *rules* are id patterns, not ids: the longest matching
//! pattern says how a model thinks (`gemini-2.5-flash-lite` wins over `gemini-2.5-flash`).
//! Which ids exist, and their limits, come from [`ModelList`] (LiteLLM's data); the picker
//! offers only those, the provider's live list and what the user typed. A model no rule covers
//! gets its provider's generic rule and is marked "thinking support unknown".

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::choice::{Choice, ChoiceError, parse_model_choice};
use super::model_list::{ListedModel, ModelList};

/// The wire protocol a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Protocol {
    Anthropic,
    OpenaiChat,
    OpenaiResponses,
    Gemini,
    Ollama,
}

/// How a provider spells reasoning parameters in a request. Several vendors share the
/// OpenAI Chat protocol but each has its own knobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// `thinking: {type: enabled, budget_tokens}` / `{type: adaptive}` + `output_config.effort`.
    Anthropic,
    /// `reasoning_effort` on Chat Completions, `reasoning: {effort, summary}` on Responses.
    Openai,
    /// `generationConfig.thinkingConfig` with `thinkingBudget` or `thinkingLevel`.
    Gemini,
    /// `thinking: {type}` toggle plus `reasoning_effort` (V4); nothing at all for the reasoner.
    Deepseek,
    /// `thinking: {type: disabled}` to switch a default-on model off.
    Kimi,
    /// `enable_thinking` and `thinking_budget`.
    Qwen,
    /// `reasoning_split: true` (M2), `thinking: {type: adaptive | disabled}` (M3).
    Minimax,
    /// `reasoning_effort` for the models that take it; nothing for the rest.
    Xai,
    /// `thinking: {type: enabled | disabled}`.
    Glm,
    /// `reasoning: {effort}` or `reasoning: {max_tokens}`, translated by OpenRouter.
    Openrouter,
    /// Native `/api/chat`: `think: true | false | "low" | "medium" | "high"`.
    Ollama,
    /// The chat template's own switch, `chat_template_kwargs.enable_thinking` (llama.cpp's
    /// `llama-server`, which also takes a budget; vLLM with a reasoning parser; SGLang).
    ChatTemplate,
    /// LM Studio and other OpenAI-compatible servers: `reasoning_effort` if anything.
    OpenaiCompatible,
}

/// An effort value, as OpenAI-style and Anthropic adaptive APIs name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Effort {
    None,
    Minimal,
    Low,
    Medium,
    High,
    Xhigh,
    Max,
}

impl Effort {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Minimal => "minimal",
            Self::Low => "low",
            Self::Medium => "medium",
            Self::High => "high",
            Self::Xhigh => "xhigh",
            Self::Max => "max",
        }
    }
}

/// A Gemini 3 thinking level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThinkingLevel {
    Minimal,
    Low,
    Medium,
    High,
}

impl ThinkingLevel {
    /// The spelling Gemini's REST API documents (`thinkingLevel: "LOW"`).
    pub fn wire(self) -> &'static str {
        match self {
            Self::Minimal => "MINIMAL",
            Self::Low => "LOW",
            Self::Medium => "MEDIUM",
            Self::High => "HIGH",
        }
    }
}

/// How a model's thinking is controlled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Thinking {
    /// A token budget between `min` and `max`.
    Budget {
        min: u32,
        max: u32,
        can_disable: bool,
    },
    /// Anthropic adaptive thinking steered by `output_config.effort`.
    Adaptive {
        efforts: Vec<Effort>,
        can_disable: bool,
        /// Opus 4.7 and later return empty thinking unless `display: "summarized"` is sent.
        #[serde(default)]
        display_summarized: bool,
    },
    /// A named effort from the set the model accepts (`none` among them if it can disable).
    Effort {
        values: Vec<Effort>,
        default: Effort,
        /// Whether thinking can be switched off by some other means than effort `none`
        /// (DeepSeek V4's `thinking: {type: disabled}`).
        #[serde(default)]
        can_disable: bool,
    },
    /// A named Gemini 3 level.
    Level {
        values: Vec<ThinkingLevel>,
        default: ThinkingLevel,
    },
    /// On or off, nothing in between.
    Toggle { can_disable: bool, default_on: bool },
    /// Thinks every time; sending any reasoning parameter is an error.
    Always,
    /// Does not reason.
    None,
}

impl Thinking {
    pub fn can_disable(&self) -> bool {
        match self {
            Self::Budget { can_disable, .. }
            | Self::Adaptive { can_disable, .. }
            | Self::Toggle { can_disable, .. } => *can_disable,
            Self::Effort {
                values,
                can_disable,
                ..
            } => *can_disable || values.contains(&Effort::None),
            Self::Level { .. } | Self::Always => false,
            Self::None => true,
        }
    }

    pub fn kind_name(&self) -> &'static str {
        match self {
            Self::Budget { .. } => "budget",
            Self::Adaptive { .. } => "adaptive",
            Self::Effort { .. } => "effort",
            Self::Level { .. } => "level",
            Self::Toggle { .. } => "toggle",
            Self::Always => "always",
            Self::None => "none",
        }
    }
}

/// What a model lets the user see of its thinking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shows {
    Full,
    Summary,
    None,
}

/// What must be sent back of a model's thinking on later turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplayRule {
    /// Nothing; the provider keeps no reasoning across turns (OpenAI Chat Completions).
    None,
    /// Anthropic thinking and redacted blocks, verbatim with their signatures, on tool turns.
    SignedBlocks,
    /// OpenAI Responses reasoning items with `encrypted_content`, paired with their calls.
    ReasoningItems,
    /// Gemini parts with their `thoughtSignature`, as received.
    ThoughtSignatures,
    /// `reasoning_content` on assistant messages that carry tool calls (DeepSeek V3.2+/V4, Kimi, GLM).
    ReasoningContentOnToolTurns,
    /// `reasoning_content` must never be sent back (DeepSeek R1).
    NeverSend,
    /// The whole assistant message verbatim, inline `<think>` tags included (MiniMax M2).
    Verbatim,
    /// OpenRouter `reasoning_details`, unmodified and in order.
    ReasoningDetails,
    /// Optional; the server ignores or accepts it (local servers).
    Optional,
}

/// How the models whose ids start with a pattern think (a family, or one model and its
/// snapshots). A pattern is not an id: `claude-sonnet-4` covers `claude-sonnet-4-20250514`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelRule {
    pub provider: String,
    /// The id prefix this rule covers; the longest matching pattern wins.
    pub pattern: String,
    /// The family's name; a model's own name adds what its id says beyond the pattern.
    pub name: String,
    /// The limits to assume when the model list does not have the id.
    pub context_window: u32,
    pub max_output: u32,
    pub thinking: Thinking,
    pub shows: Shows,
    pub replay: ReplayRule,
    /// What the model does when no reasoning parameter is sent, for the picker.
    pub default: String,
    /// Anthropic: needs the interleaved-thinking beta header to think between tool calls.
    #[serde(default)]
    pub interleaved_header: bool,
    /// The model reasons inside `<think>` tags in its content (and may omit the opening tag).
    #[serde(default)]
    pub think_tags: bool,
    #[serde(default)]
    pub notes: String,
}

/// A provider: its protocol, how it spells reasoning, and the rule for models the catalog
/// does not list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderEntry {
    pub id: String,
    pub name: String,
    pub protocol: Protocol,
    pub dialect: Dialect,
    pub base_url: String,
    /// The environment variable that may hold its API key (none for local servers).
    #[serde(default)]
    pub api_key_env: Option<String>,
    /// Whether the OpenAI Responses API is available besides Chat Completions.
    #[serde(default)]
    pub responses_api: bool,
    /// The answer's `max_tokens` counts against the same window as the prompt (Anthropic and
    /// most OpenAI-compatible servers), so fitting the history must leave room for it. OpenAI
    /// and Gemini limit the input on its own.
    pub output_shares_window: bool,
    /// Whether answers may carry thoughts inline as `<think>` tags (everyone but OpenAI).
    #[serde(default = "yes")]
    pub inline_thoughts: bool,
    /// The tokenizer its models count with, where one is known and shipped: `o200k`.
    #[serde(default)]
    pub tokenizer: Option<Tokenizer>,
    pub generic: GenericRule,
}

fn yes() -> bool {
    true
}

/// A tokenizer Ponder can count with exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tokenizer {
    /// OpenAI's `o200k_base` (GPT-4o, GPT-5, the o-series).
    O200k,
}

/// How a provider treats a model the catalog does not know (rules §4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GenericRule {
    pub context_window: u32,
    pub max_output: u32,
    pub thinking: Thinking,
    pub shows: Shows,
    pub replay: ReplayRule,
}

/// A server the user added: any OpenAI-compatible (or Anthropic-, Gemini- or Ollama-shaped)
/// endpoint, which speaks about reasoning the way one of the built-in providers does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CustomProvider {
    /// `custom-…`, unique; keys are stored under it.
    pub id: String,
    pub name: String,
    pub base_url: String,
    pub protocol: Protocol,
    /// The built-in provider whose reasoning dialect and generic rule it follows.
    pub preset: String,
    /// Whether it takes an API key.
    #[serde(default)]
    pub needs_key: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CustomProviderError {
    #[error("a custom provider needs a name")]
    NoName,
    #[error("{0:?} is not an http or https address")]
    BadUrl(String),
    #[error("{0:?} is not a provider to follow; use one of {1}")]
    UnknownPreset(String, String),
}

impl CustomProvider {
    /// The id a name gets: `custom-` and the name in lowercase letters, digits and dashes.
    pub fn id_for(name: &str) -> String {
        let mut slug = String::new();
        for ch in name.trim().chars() {
            if ch.is_ascii_alphanumeric() {
                slug.push(ch.to_ascii_lowercase());
            } else if !slug.ends_with('-') && !slug.is_empty() {
                slug.push('-');
            }
        }
        format!("custom-{}", slug.trim_end_matches('-'))
    }

    pub fn check(&self, catalog: &Catalog) -> Result<(), CustomProviderError> {
        if self.name.trim().is_empty() || self.id == "custom-" {
            return Err(CustomProviderError::NoName);
        }
        let url = self.base_url.trim();
        if !(url.starts_with("http://") || url.starts_with("https://")) || url.len() < 10 {
            return Err(CustomProviderError::BadUrl(self.base_url.clone()));
        }
        if catalog.provider(&self.preset).is_err() || self.preset.starts_with("custom-") {
            return Err(CustomProviderError::UnknownPreset(
                self.preset.clone(),
                catalog.provider_ids(),
            ));
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Catalog {
    pub providers: Vec<ProviderEntry>,
    pub rules: Vec<ModelRule>,
}

/// A model as the engine sees it: its catalog entry, or its provider's generic rule.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelInfo {
    /// The id as the user gave it (sent to the provider unchanged).
    pub id: String,
    pub provider: ProviderEntry,
    pub name: String,
    /// The most the prompt may hold.
    pub context_window: u32,
    /// The most one answer may hold, thinking included.
    pub max_output: u32,
    pub thinking: Thinking,
    pub shows: Shows,
    pub replay: ReplayRule,
    pub default: String,
    pub interleaved_header: bool,
    pub think_tags: bool,
    /// The catalog pattern that matched; `None` when no rule covers the id.
    pub pattern: Option<String>,
    /// The model list's facts for this id, when it has them.
    pub listed: Option<ListedModel>,
}

impl ModelInfo {
    /// Thinking support unknown: no rule covers the id and the model list does not say it
    /// cannot reason, so the provider's generic rule applies.
    pub fn is_generic(&self) -> bool {
        self.pattern.is_none() && self.listed.as_ref().is_none_or(|m| m.reasoning)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    #[error("unknown provider {id:?}; known providers: {known}")]
    UnknownProvider { id: String, known: String },
    #[error(
        "unknown model {model:?}; pass --provider with one of {known} to use that provider's generic rule"
    )]
    UnknownModel { model: String, known: String },
}

impl Catalog {
    /// The catalog built into Ponder.
    pub fn builtin() -> &'static Catalog {
        static CATALOG: OnceLock<Catalog> = OnceLock::new();
        CATALOG.get_or_init(|| {
            serde_json::from_str(include_str!("catalog.json"))
                .expect("the embedded catalog.json is valid (a unit test checks)")
        })
    }

    pub fn provider(&self, id: &str) -> Result<&ProviderEntry, LookupError> {
        self.providers
            .iter()
            .find(|p| p.id.eq_ignore_ascii_case(id))
            .ok_or_else(|| LookupError::UnknownProvider {
                id: id.to_owned(),
                known: self.provider_ids(),
            })
    }

    pub fn provider_ids(&self) -> String {
        self.providers
            .iter()
            .map(|p| p.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Finds a model by id: the longest matching pattern, within `provider` when given, else
    /// across all providers (the first provider in catalog order wins a tie). Its limits come
    /// from the model list when that has the id. An id no rule covers gets its provider's
    /// generic rule, or no reasoning at all when the model list knows it cannot reason.
    pub fn resolve(&self, provider: Option<&str>, model: &str) -> Result<ModelInfo, LookupError> {
        let provider = provider.map(|id| self.provider(id)).transpose()?;
        let id = model.to_ascii_lowercase();
        let mut best: Option<&ModelRule> = None;
        for rule in &self.rules {
            if provider.is_some_and(|p| p.id != rule.provider) {
                continue;
            }
            if pattern_matches(&rule.pattern.to_ascii_lowercase(), &id)
                && best.is_none_or(|b| rule.pattern.len() > b.pattern.len())
            {
                best = Some(rule);
            }
        }
        let list = ModelList::builtin();
        match (best, provider) {
            (Some(rule), _) => {
                let provider = self.provider(&rule.provider)?.clone();
                let own = list.get(&provider.id, model);
                // Limits from the id's own entry, else from the entry the pattern names.
                let facts = own.or_else(|| list.get(&provider.id, &rule.pattern));
                Ok(ModelInfo {
                    id: model.to_owned(),
                    name: display_name(&rule.name, &rule.pattern, model),
                    context_window: facts.map_or(rule.context_window, |m| m.max_input),
                    max_output: facts.map_or(rule.max_output, |m| m.max_output),
                    thinking: rule.thinking.clone(),
                    shows: rule.shows,
                    replay: rule.replay,
                    default: rule.default.clone(),
                    interleaved_header: rule.interleaved_header,
                    think_tags: rule.think_tags,
                    pattern: Some(rule.pattern.clone()),
                    listed: own.cloned(),
                    provider,
                })
            }
            (None, Some(provider)) => {
                let listed = list.get(&provider.id, model).cloned();
                let generic = &provider.generic;
                let reasons = listed.as_ref().is_none_or(|m| m.reasoning);
                Ok(ModelInfo {
                    id: model.to_owned(),
                    provider: provider.clone(),
                    name: model.to_owned(),
                    context_window: listed
                        .as_ref()
                        .map_or(generic.context_window, |m| m.max_input),
                    max_output: listed.as_ref().map_or(generic.max_output, |m| m.max_output),
                    thinking: if reasons {
                        generic.thinking.clone()
                    } else {
                        Thinking::None
                    },
                    shows: if reasons { generic.shows } else { Shows::None },
                    replay: if reasons {
                        generic.replay
                    } else {
                        ReplayRule::None
                    },
                    default: if reasons { "unknown" } else { "none" }.to_owned(),
                    interleaved_header: false,
                    think_tags: false,
                    pattern: None,
                    listed,
                })
            }
            (None, None) => Err(LookupError::UnknownModel {
                model: model.to_owned(),
                known: self.provider_ids(),
            }),
        }
    }

    /// `MODEL/CHOICE` read against the catalog. A last segment that is not a choice is part
    /// of the model's id (`openai/o3` on a router) unless what comes before it is a model the
    /// catalog knows: then it was meant as a choice and is an error (`claude-sonnet-4-5/ultra`).
    pub fn parse_target(
        &self,
        provider: Option<&str>,
        input: &str,
    ) -> Result<(String, Option<Choice>), ChoiceError> {
        let (model, choice) = parse_model_choice(input)?;
        if choice.is_none()
            && let Some((head, last)) = model.rsplit_once('/')
            && self.resolve(provider, head).is_ok_and(|m| !m.is_generic())
        {
            return Err(ChoiceError::Unknown(last.to_owned()));
        }
        Ok((model, choice))
    }

    /// This catalog with the user's own servers added, each following its preset's dialect
    /// and generic rule (and none of its model rules: the server lists its own models).
    /// Entries that do not check out are left out.
    pub fn with_custom(&self, custom: &[CustomProvider]) -> Catalog {
        let mut catalog = self.clone();
        for c in custom {
            if c.check(self).is_err() || catalog.provider(&c.id).is_ok() {
                continue;
            }
            let Ok(preset) = self.provider(&c.preset) else {
                continue;
            };
            catalog.providers.push(ProviderEntry {
                id: c.id.clone(),
                name: c.name.trim().to_owned(),
                protocol: c.protocol,
                dialect: preset.dialect,
                base_url: c.base_url.trim().to_owned(),
                api_key_env: c.needs_key.then(|| crate::secrets::env_var(&c.id)),
                responses_api: c.protocol == Protocol::OpenaiResponses,
                output_shares_window: preset.output_shares_window,
                // Whatever it serves may inline thoughts, and its tokenizer is unknown.
                inline_thoughts: true,
                tokenizer: None,
                generic: preset.generic.clone(),
            });
        }
        catalog
    }

    /// The rules of one provider, in catalog order.
    pub fn rules_of<'a>(&'a self, provider: &'a str) -> impl Iterator<Item = &'a ModelRule> + 'a {
        self.rules.iter().filter(move |m| m.provider == provider)
    }

    /// The real models the picker offers for `provider` on `today` (YYYY-MM-DD): the model
    /// list's, minus the retired ones, each read through its rule.
    pub fn offered(&self, provider: &str, today: &str) -> Vec<ModelInfo> {
        ModelList::builtin()
            .offered(provider, today)
            .filter_map(|m| self.resolve(Some(provider), &m.id).ok())
            .collect()
    }

    /// Every model to offer for `provider`: the model list's real ids (retired ones left
    /// out), then what the provider listed live, then what the user added — each id once,
    /// read through its rule, with where it came from.
    pub fn offer(
        &self,
        provider: &str,
        today: &str,
        live: &[crate::providers::models::LiveModel],
        added: &[String],
    ) -> Result<Vec<Offered>, LookupError> {
        let listed = ModelList::builtin()
            .offered(provider, today)
            .map(|m| (m.id.as_str(), None, ModelSource::Catalog));
        let live = live
            .iter()
            .map(|m| (m.id.as_str(), m.name.clone(), ModelSource::Live));
        let added = added
            .iter()
            .map(|id| (id.as_str(), None, ModelSource::Added));
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for (id, live_name, source) in listed.chain(live).chain(added) {
            if seen.insert(id.to_ascii_lowercase()) {
                out.push(Offered {
                    model: self.resolve(Some(provider), id)?,
                    live_name,
                    source,
                });
            }
        }
        Ok(out)
    }
}

/// Where an offered model comes from: the model list, the provider's own list, or the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ModelSource {
    Catalog,
    Live,
    Added,
}

/// A model the picker offers.
#[derive(Debug, Clone)]
pub struct Offered {
    pub model: ModelInfo,
    /// The provider's own name for it, from its live list.
    pub live_name: Option<String>,
    pub source: ModelSource,
}

/// A model's name: its rule's name plus what its id says beyond the pattern, so that
/// `gpt-5.4-mini` under the `gpt-5.4` rule is "GPT-5.4 mini" and `gemini-3.1-pro-preview` is
/// "Gemini 3.1 Pro preview". Dates stay as they are ("Claude Sonnet 4 20250514").
fn display_name(rule_name: &str, pattern: &str, id: &str) -> String {
    let rest = id.get(pattern.len()..).unwrap_or_default();
    if rest.starts_with('.') {
        // `gpt-5.7` under the `gpt-5` rule is not "GPT-5 .7".
        return id.to_owned();
    }
    let words: Vec<&str> = rest
        .split(['-', '_', ':', '@'])
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        rule_name.to_owned()
    } else {
        format!("{rule_name} {}", words.join(" "))
    }
}

/// A pattern covers an id it prefixes up to a boundary: `o3` covers `o3-mini-2025-01-31` and
/// `qwen3` covers `qwen3:8b`, but `o3` does not cover `o30` or `o3/med`.
fn pattern_matches(pattern: &str, id: &str) -> bool {
    id.strip_prefix(pattern)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', '.', ':', '@', '_']))
}

#[cfg(test)]
mod tests {
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

    /// Every provider of wire-formats.md.
    const PROVIDERS: [&str; 14] = [
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
        ] {
            let err = bad.check(Catalog::builtin()).unwrap_err();
            assert!(err.to_string().contains(why), "{err}");
            assert_eq!(Catalog::builtin().with_custom(&[bad]).providers.len(), 14);
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
        // One the list knows to reason, with no rule: thinking support unknown.
        let new = catalog.resolve(Some("google"), "gemini-4-argon").unwrap();
        assert!(new.is_generic());
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
}
