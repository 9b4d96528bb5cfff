//! From one thinking choice to one provider's exact request parameters.
//!
//! `translate` is pure: the same choice, model, overrides and turn give the same plan.
//! The plan is built here; `budget` handles the dialects that take a token budget, and
//! `effort` those that take a named effort, a level or an on/off switch.

mod budget;
mod effort;

pub use budget::{budget_to_level, formula_budget};

use std::collections::BTreeMap;

use super::choice::{Choice, Level};
use super::overrides::{Mapping, Overrides, Scalar, Scope};
use super::params::{OllamaOptions, ReasoningParams};
use super::plan::{
    ApiChoice, Endpoint, Feedback, Meaning, MeaningKind, Plan, TurnContext, thousands,
};
use crate::catalog::{Dialect, Effort, ModelInfo, Protocol, Shows, Thinking, ThinkingLevel};

/// Tokens kept free for the visible answer when a thinking budget sets `max_tokens`.
pub const ANSWER_RESERVE: u32 = 4_000;
/// Anthropic's floor for `budget_tokens`.
pub const ANTHROPIC_MIN_BUDGET: u32 = 1_024;
/// What `minimal` means on a budget range that starts at 0 (which is "off").
pub const MIN_REAL_BUDGET: u32 = 1_024;
/// Above this many context tokens, budgets are cut: a long conversation already costs a lot
/// per turn, and deep thinking over it rarely pays.
pub const LONG_CONTEXT_TOKENS: u64 = 150_000;
pub const LONG_CONTEXT_BUDGET: u32 = 10_000;
/// Anthropic's SDKs refuse non-streaming requests whose `max_tokens` could run past ten
/// minutes (`3600 × max_tokens / 128000 > 600`); a plain HTTP client would time out instead.
pub const ANTHROPIC_STREAM_ABOVE: u32 = 21_333;
/// OpenAI's advice for the output cap of reasoning models.
pub const OPENAI_OUTPUT_BUFFER: u32 = 25_000;

pub const CANNOT_DISABLE: &str = "This model does not support disabling thinking";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TranslateError {
    #[error(
        "the override for {scope} sends {value:?}, which is not a thinking level or a token budget"
    )]
    BadOverride { scope: String, value: String },
    #[error(
        "the override for {scope} sends a budget of 0 tokens, which {model} does not take: {why}"
    )]
    ZeroBudget {
        scope: String,
        model: String,
        why: String,
    },
}

/// What the engine will aim for once overrides have had their say.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// `default`: send nothing about reasoning.
    ProviderDefault,
    /// An override mapped this scope to `null`.
    DisabledBy(String),
    Choice(Choice),
}

pub fn translate(
    choice: Choice,
    model: &ModelInfo,
    overrides: &Overrides,
    ctx: &TurnContext,
) -> Result<Plan, TranslateError> {
    let provider_overrides = overrides.provider(&model.provider.id);
    let target = apply_overrides(choice, model, overrides)?;
    let endpoint = endpoint(model, ctx);

    let mut out = PlanBuilder::new(model, ctx, endpoint);
    match target {
        Target::ProviderDefault => out.provider_default(),
        Target::DisabledBy(scope) => out.disabled_by(&scope),
        Target::Choice(choice) => out.choice(choice),
    }

    // Answers stream unless the user switched streaming off for this provider or model; then
    // they still stream at and above the auto-stream level (seed 002's "Always stream from
    // …"), and where the request itself must.
    let wanted = overrides
        .stream(&model.provider.id, &model.id)
        .unwrap_or(true);
    let auto_level = provider_overrides.and_then(|p| p.reasoning_auto_stream_level);
    let by_level = choice
        .level()
        .zip(auto_level)
        .is_some_and(|(level, threshold)| level >= threshold);
    let stream = wanted || out.stream || by_level;
    if !wanted {
        let note = match (by_level, out.stream, auto_level) {
            (true, _, Some(threshold)) => format!(
                "Streamed: your settings stream from {} up, though streaming is off otherwise",
                threshold.as_str()
            ),
            (_, true, _) => {
                "Streamed although streaming is off in your settings: this request must stream"
                    .to_owned()
            }
            _ => "Not streamed (your settings): the answer arrives whole".to_owned(),
        };
        out.notes.push(note);
    }
    let caching = provider_overrides
        .and_then(|p| p.caching)
        .unwrap_or_default();
    let mut warnings = out.warnings.clone();
    if model.is_generic() {
        warnings.push(format!(
            "no source Ponder reads knows {}: thinking support unknown, using {}'s generic rule",
            model.id, model.provider.name
        ));
    }
    let feedback = Feedback {
        switched: switched_line(model, endpoint),
        warnings: warnings.clone(),
        thinking: format!("Thinking: {}", out.thinking),
        notes: out.notes.clone(),
    };
    Ok(Plan {
        provider: model.provider.id.clone(),
        model: model.id.clone(),
        api: endpoint,
        choice,
        meaning: out.meaning,
        request: out.request,
        headers: out.headers,
        omit: out.omit,
        stream,
        caching,
        feedback,
        warnings,
        generic: model.is_generic(),
    })
}

fn apply_overrides(
    choice: Choice,
    model: &ModelInfo,
    overrides: &Overrides,
) -> Result<Target, TranslateError> {
    let level = match choice {
        // Unset leaves the provider its own default; off is off.
        Choice::Default => return Ok(Target::ProviderDefault),
        Choice::Off | Choice::Budget(_) => return Ok(Target::Choice(choice)),
        Choice::Level(level) => level,
    };
    let Some((mapping, scope)) = overrides.mapping(&model.provider.id, &model.id) else {
        return Ok(Target::Choice(choice));
    };
    let scope_name = match scope {
        Scope::Model(id) => format!("model {id}"),
        Scope::Provider(id) => format!("provider {id}"),
    };
    if matches!(mapping, Mapping::Disabled) {
        return Ok(Target::DisabledBy(scope_name));
    }
    match mapping.value_for(level) {
        Some(Scalar::Tokens(tokens)) if *tokens > 0 => Ok(Target::Choice(Choice::Budget(*tokens))),
        // 0 is a documented "off" only where the budget range starts there (Gemini 2.5
        // Flash, Qwen): elsewhere it is refused, not quietly turned into something else.
        Some(Scalar::Tokens(0)) => match model.thinking {
            Thinking::Budget {
                min: 0,
                can_disable: true,
                ..
            } => Ok(Target::Choice(Choice::Off)),
            Thinking::Budget { min, .. } => Err(TranslateError::ZeroBudget {
                scope: scope_name,
                model: model.id.clone(),
                why: format!(
                    "its smallest budget is {} tokens; choose \"off\" (or map the level to null) to send no thinking",
                    thousands(min.max(1))
                ),
            }),
            _ => Err(TranslateError::ZeroBudget {
                scope: scope_name,
                model: model.id.clone(),
                why: "it takes no token budget at all; map the level to a name such as \"low\", or to null for no thinking".to_owned(),
            }),
        },
        Some(Scalar::Name(name)) => match name.parse::<Choice>() {
            Ok(Choice::Default) | Err(_) => Err(TranslateError::BadOverride {
                scope: scope_name,
                value: name.clone(),
            }),
            Ok(mapped) => Ok(Target::Choice(mapped)),
        },
        other => Err(TranslateError::BadOverride {
            scope: scope_name,
            value: format!("{other:?}"),
        }),
    }
}

fn endpoint(model: &ModelInfo, ctx: &TurnContext) -> Endpoint {
    match model.provider.protocol {
        Protocol::Anthropic => Endpoint::Messages,
        Protocol::Gemini => Endpoint::GenerateContent,
        Protocol::Ollama => Endpoint::OllamaChat,
        Protocol::OpenaiChat | Protocol::OpenaiResponses => {
            let responses_possible = model.provider.responses_api;
            let reasons = !matches!(model.thinking, Thinking::None);
            let only_responses = model.listed.as_ref().is_some_and(|m| m.responses_only);
            match ctx.api {
                // A model served only by Responses goes there whatever was chosen; one the
                // provider's own list puts on one API alone goes to that one.
                _ if only_responses && responses_possible => Endpoint::Responses,
                _ if model.live_api == Some(ApiChoice::Responses) && responses_possible => {
                    Endpoint::Responses
                }
                _ if model.live_api == Some(ApiChoice::Chat) => Endpoint::Chat,
                Some(ApiChoice::Responses) if responses_possible => Endpoint::Responses,
                Some(_) => Endpoint::Chat,
                None if model.api == Some(ApiChoice::Responses) && responses_possible => {
                    Endpoint::Responses
                }
                // Only the Responses API returns OpenAI reasoning summaries, so reasoning
                // models go there by default where the provider prefers it.
                None if model.provider.protocol == Protocol::OpenaiResponses && reasons => {
                    Endpoint::Responses
                }
                None => Endpoint::Chat,
            }
        }
    }
}

fn switched_line(model: &ModelInfo, endpoint: Endpoint) -> String {
    let api = if endpoint == Endpoint::Responses {
        " (Responses API)"
    } else {
        ""
    };
    format!("✓ Switched to {} {}{api}", model.provider.name, model.id)
}

/// The plan being built.
struct PlanBuilder<'a> {
    model: &'a ModelInfo,
    ctx: &'a TurnContext,
    endpoint: Endpoint,
    meaning: Meaning,
    request: ReasoningParams,
    headers: BTreeMap<String, String>,
    omit: Vec<String>,
    stream: bool,
    thinking: String,
    warnings: Vec<String>,
    notes: Vec<String>,
}

impl<'a> PlanBuilder<'a> {
    fn new(model: &'a ModelInfo, ctx: &'a TurnContext, endpoint: Endpoint) -> Self {
        Self {
            model,
            ctx,
            endpoint,
            meaning: Meaning::kind(MeaningKind::ProviderDefault),
            request: ReasoningParams::default(),
            headers: BTreeMap::new(),
            omit: Vec::new(),
            stream: false,
            thinking: String::new(),
            warnings: Vec::new(),
            notes: Vec::new(),
        }
    }

    fn dialect(&self) -> Dialect {
        self.model.provider.dialect
    }

    /// The output cap for this turn: the user's, within the model's limit and what the
    /// context window leaves.
    fn output_limit(&self) -> u32 {
        let mut limit = self
            .ctx
            .max_output
            .map_or(self.model.max_output, |m| m.min(self.model.max_output));
        let room = u64::from(self.model.context_window).saturating_sub(self.ctx.context_tokens);
        if room < u64::from(limit) {
            limit = u32::try_from(room).unwrap_or(u32::MAX);
        }
        limit
    }

    /// Anthropic requires `max_tokens` on every request.
    fn anthropic_max_tokens(&mut self, max_tokens: u32) {
        if self.dialect() == Dialect::Anthropic {
            self.request.max_tokens = Some(max_tokens);
        }
    }

    /// The user's output cap, spelled for the endpoint, where the engine does not set one itself.
    fn user_output_cap(&mut self) {
        let Some(cap) = self.ctx.max_output else {
            return;
        };
        let cap = cap.min(self.model.max_output);
        let request = &mut self.request;
        match self.endpoint {
            Endpoint::Messages => {}
            Endpoint::Responses => request.max_output_tokens = Some(cap),
            Endpoint::Chat => request.max_completion_tokens = Some(cap),
            Endpoint::OllamaChat => request.options = Some(OllamaOptions { num_predict: cap }),
            Endpoint::GenerateContent => {
                request
                    .generation_config
                    .get_or_insert_default()
                    .max_output_tokens = Some(cap);
            }
        }
    }

    fn provider_default(&mut self) {
        self.meaning = Meaning::value(MeaningKind::ProviderDefault, self.model.default.clone());
        self.thinking = format!("provider default ({})", self.model.default);
        // Gemini thinks by default but shows nothing unless asked; the level stays its own.
        if self.dialect() == Dialect::Gemini && self.model.thinking != Thinking::None {
            self.request.gemini_thinking().include_thoughts = Some(true);
        }
        let limit = self.output_limit();
        self.anthropic_max_tokens(limit);
        self.user_output_cap();
    }

    fn disabled_by(&mut self, scope: &str) {
        self.meaning = Meaning::kind(MeaningKind::Disabled);
        self.thinking = format!("off (your settings disable reasoning for {scope})");
        let limit = self.output_limit();
        self.anthropic_max_tokens(limit);
        self.user_output_cap();
    }

    fn choice(&mut self, choice: Choice) {
        match self.model.thinking.clone() {
            Thinking::Budget {
                min,
                max,
                can_disable,
            } => self.budget(choice, min, max, can_disable),
            Thinking::Adaptive {
                efforts,
                can_disable,
                display_summarized,
            } => self.adaptive(choice, &efforts, can_disable, display_summarized),
            Thinking::Effort {
                values,
                default,
                can_disable,
            } => self.effort(choice, &values, default, can_disable),
            Thinking::Level { values, default } => self.level(choice, &values, default),
            Thinking::Toggle {
                can_disable,
                default_on,
            } => self.toggle(choice, can_disable, default_on),
            Thinking::Always => self.always(choice),
            Thinking::None => self.none(choice),
        }
        self.user_output_cap();
    }

    fn cannot_disable(&mut self) {
        self.warnings.push(CANNOT_DISABLE.to_owned());
    }

    fn note_max_same_as_high(&mut self, choice: Choice) {
        if choice == Choice::MAX {
            self.notes
                .push("max is the same as high on this model".to_owned());
        }
    }
}
