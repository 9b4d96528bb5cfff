//! The catalog: the providers Ponder speaks to (protocol, dialect, sign-in, address) and the
//! models it knows, with how each thinks and how its provider spells it.
//!
//! The catalog is data (`catalog.json`, embedded in the binary) so that a new model is a new
//! entry, not a new code path. Its *rules* are id patterns, not ids: the longest matching
//! pattern says how a model thinks (`gemini-2.5-flash-lite` wins over `gemini-2.5-flash`).
//! Which ids exist, and their limits, come from [`ModelList`] (LiteLLM's data); the picker
//! offers only those, the provider's live list and what the user typed. A listed id no hand
//! rule covers gets a rule derived from the list's reasoning facts and its provider's dialect
//! (`derive`); only an id no source knows gets the provider's generic rule and is marked
//! "thinking support unknown".

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::reasoning::choice::{Choice, ChoiceError, parse_model_choice};
use crate::reasoning::plan::ApiChoice;
pub use model_list::{ListedModel, ModelList};

/// The wire protocol a provider speaks by default (its catalog entry). One request may go
/// elsewhere: see [`Endpoint`](crate::reasoning::plan::Endpoint).
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
    /// GitHub Copilot: the OpenAI spelling at most `high`, the system prompt as a `developer`
    /// message on Responses, and nothing at all to switch thinking off.
    Copilot,
}

/// How a provider is signed in to, where it is not with an API key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignIn {
    /// GitHub's device flow; the GitHub token is kept where an API key would be.
    Github,
}

/// An effort value, as OpenAI-style and Anthropic adaptive APIs name them.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
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
        self.into()
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
    /// GitHub Copilot's `reasoning_text` with its `reasoning_opaque` (the thought signature
    /// of the Gemini and Claude models it relays), on the turns that carried them.
    ReasoningOpaque,
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
    /// The API the family is sent to when the user chose none (Copilot's GPT-5 family on
    /// Responses, its Claude models on Chat Completions).
    #[serde(default)]
    pub api: Option<ApiChoice>,
    /// The page this rule was read from, where it is not the provider's own reasoning guide.
    #[serde(default)]
    pub source: Option<String>,
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
    /// The provider's guide to its reasoning parameters: where its hand rules come from.
    #[serde(default)]
    pub docs: Option<String>,
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
    /// Signed in to some other way than with an API key.
    #[serde(default)]
    pub sign_in: Option<SignIn>,
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

/// How a provider treats a model the catalog does not know: budgets as shares of the turn's
/// output cap for budget providers, the effort name for OpenAI-style ones, nothing otherwise.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GenericRule {
    pub context_window: u32,
    pub max_output: u32,
    pub thinking: Thinking,
    pub shows: Shows,
    pub replay: ReplayRule,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Catalog {
    pub providers: Vec<ProviderEntry>,
    pub rules: Vec<ModelRule>,
    /// What each provider's own list said of its models this run (`with_live`): the API a
    /// model answers on, the efforts it takes.
    #[serde(skip)]
    pub live: std::collections::BTreeMap<String, Vec<LiveModel>>,
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
    /// The API its family is sent to when the user chose none.
    pub api: Option<ApiChoice>,
    /// The catalog pattern that matched; `None` when no hand rule covers the id.
    pub pattern: Option<String>,
    /// Where the thinking rule comes from.
    pub rule: RuleSource,
    /// The document behind a hand rule: its own source, else the provider's guide.
    pub rule_source: Option<String>,
    /// The model list's facts for this id, when it has them.
    pub listed: Option<ListedModel>,
    /// The one API the provider's live list says the model answers on, where it names one.
    pub live_api: Option<ApiChoice>,
}

impl ModelInfo {
    /// Thinking support unknown: no hand rule covers the id and no source says how it
    /// thinks, so the provider's generic rule applies.
    pub fn is_generic(&self) -> bool {
        self.rule == RuleSource::None
    }

    /// Whether the model reads an attachment of this kind: text always (it goes as text);
    /// images and PDFs as the model list says (no PDFs without images), and `None` where nothing says (a local server's
    /// model, an id the list does not have, a fact the list leaves out).
    pub fn reads(&self, kind: crate::attachments::Kind) -> Option<bool> {
        use crate::attachments::Kind;
        let inputs = || self.listed.as_ref().map(|l| &l.inputs);
        match kind {
            Kind::Text => Some(true),
            // The providers read a PDF's pages as pictures: OpenAI takes PDFs only with
            // models that take images, Anthropic's PDF support is its vision. A model that
            // sees no images reads no PDFs, whatever the list leaves out.
            Kind::Pdf => {
                let inputs = inputs()?;
                inputs.pdfs.or(inputs.images.filter(|sees| !sees))
            }
            Kind::Png | Kind::Jpeg | Kind::Gif | Kind::Webp => inputs()?.images,
        }
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
    /// from the model list when that has the id. An id no hand rule covers gets a rule derived
    /// from the model list's facts, else its provider's generic rule ("thinking support
    /// unknown"). What the provider's live list said (`with_live`) is applied last.
    pub fn resolve(&self, provider: Option<&str>, model: &str) -> Result<ModelInfo, LookupError> {
        let mut info = self.resolve_listed(provider, model)?;
        let live = self
            .live
            .get(&info.provider.id)
            .and_then(|models| models.iter().find(|m| m.id.eq_ignore_ascii_case(model)));
        if let Some(live) = live {
            derive::apply_live(&mut info, live);
        }
        Ok(info)
    }

    /// The catalog with what the providers' own lists said this run.
    pub fn with_live(mut self, live: &std::collections::HashMap<String, Vec<LiveModel>>) -> Self {
        self.live = live
            .iter()
            .map(|(provider, models)| (provider.clone(), models.clone()))
            .collect();
        self
    }

    /// [`resolve`](Self::resolve) from the hand rules and the model list alone.
    fn resolve_listed(
        &self,
        provider: Option<&str>,
        model: &str,
    ) -> Result<ModelInfo, LookupError> {
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
                    api: rule.api,
                    pattern: Some(rule.pattern.clone()),
                    rule: RuleSource::Hand,
                    rule_source: rule.source.clone().or_else(|| provider.docs.clone()),
                    listed: own.cloned(),
                    live_api: None,
                    provider,
                })
            }
            (None, Some(provider)) => {
                let listed = list.get(&provider.id, model).cloned();
                let generic = &provider.generic;
                let derived = listed.as_ref().and_then(|m| derive::derive(provider, m));
                let (thinking, shows, replay, default, interleaved_header, api, rule) =
                    match derived {
                        Some(d) => (
                            d.thinking,
                            d.shows,
                            d.replay,
                            d.default,
                            d.interleaved_header,
                            d.api,
                            RuleSource::Derived,
                        ),
                        None => (
                            generic.thinking.clone(),
                            generic.shows,
                            generic.replay,
                            "unknown".to_owned(),
                            false,
                            None,
                            RuleSource::None,
                        ),
                    };
                Ok(ModelInfo {
                    id: model.to_owned(),
                    provider: provider.clone(),
                    name: model.to_owned(),
                    context_window: listed
                        .as_ref()
                        .map_or(generic.context_window, |m| m.max_input),
                    max_output: listed.as_ref().map_or(generic.max_output, |m| m.max_output),
                    thinking,
                    shows,
                    replay,
                    default,
                    interleaved_header,
                    think_tags: false,
                    api,
                    pattern: None,
                    rule,
                    rule_source: None,
                    listed,
                    live_api: None,
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

    /// The rules of one provider, in catalog order.
    pub fn rules_of<'a>(&'a self, provider: &'a str) -> impl Iterator<Item = &'a ModelRule> + 'a {
        self.rules.iter().filter(move |m| m.provider == provider)
    }
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

mod custom;
mod derive;
mod live;
pub mod model_list;
mod offer;

pub use custom::{CustomProvider, CustomProviderError};
pub use derive::RuleSource;
pub use live::LiveModel;

use crate::reasoning::pattern::pattern_matches;
pub use offer::{ModelSource, Offered};

#[cfg(test)]
mod tests;
