//! From one thinking choice to one provider's exact request parameters (rules §3 and §4).
//!
//! `translate` is pure: the same choice, model, overrides and turn give the same plan.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::catalog::{Dialect, Effort, ModelInfo, Protocol, Thinking, ThinkingLevel};
use super::choice::{Choice, Level};
use super::overrides::{Mapping, Overrides, Scalar, Scope};
use super::plan::{Api, Endpoint, Feedback, Meaning, MeaningKind, Plan, TurnContext, thousands};

/// Tokens kept free for the visible answer when a thinking budget sets `max_tokens`.
pub const ANSWER_RESERVE: u32 = 4_000;
/// Anthropic's floor for `budget_tokens`.
pub const ANTHROPIC_MIN_BUDGET: u32 = 1_024;
/// What `minimal` means on a budget range that starts at 0 (which is "off").
pub const MIN_REAL_BUDGET: u32 = 1_024;
/// Above this many context tokens, budgets are cut (seed 000's dynamic adjustment).
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

    let mut stream = out.stream;
    if let (Some(level), Some(threshold)) = (
        choice.level(),
        provider_overrides.and_then(|p| p.reasoning_auto_stream_level),
    ) && level >= threshold
    {
        stream = true;
    }
    let caching = provider_overrides
        .and_then(|p| p.caching)
        .unwrap_or_default();
    let mut warnings = out.warnings.clone();
    if model.is_generic() {
        warnings.push(format!(
            "{} is not in Ponder's catalog: thinking support unknown, using {}'s generic rule",
            model.id, model.provider.name
        ));
    }
    let feedback = Feedback {
        switched: switched_line(model, endpoint),
        warnings: out.warnings.clone(),
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
        // "Leaving the option unset preserves provider defaults" (seed 002); off is off.
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
            match ctx.api {
                Some(Api::Responses) if responses_possible => Endpoint::Responses,
                Some(_) => Endpoint::Chat,
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
    request: Map<String, Value>,
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
            request: Map::new(),
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
            self.request.insert("max_tokens".into(), json!(max_tokens));
        }
    }

    /// The user's output cap, spelled for the endpoint, where the engine does not set one itself.
    fn user_output_cap(&mut self) {
        let Some(cap) = self.ctx.max_output else {
            return;
        };
        let cap = cap.min(self.model.max_output);
        let field = match self.endpoint {
            Endpoint::Messages => return,
            Endpoint::Responses => "max_output_tokens",
            Endpoint::Chat => "max_completion_tokens",
            Endpoint::OllamaChat => {
                self.request
                    .insert("options".into(), json!({ "num_predict": cap }));
                return;
            }
            Endpoint::GenerateContent => {
                gemini_config(&mut self.request).insert("maxOutputTokens".into(), json!(cap));
                return;
            }
        };
        self.request.insert(field.into(), json!(cap));
    }

    fn provider_default(&mut self) {
        self.meaning = Meaning::value(MeaningKind::ProviderDefault, self.model.default.clone());
        self.thinking = format!("provider default ({})", self.model.default);
        // Gemini thinks by default but shows nothing unless asked; the level stays its own.
        if self.dialect() == Dialect::Gemini && self.model.thinking != Thinking::None {
            gemini_thinking(&mut self.request).insert("includeThoughts".into(), json!(true));
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

    // ---- budget ----

    fn budget(&mut self, choice: Choice, min: u32, max: u32, can_disable: bool) {
        let (tokens, label) = match choice {
            Choice::Off if can_disable => return self.budget_disabled(),
            Choice::Off => {
                self.cannot_disable();
                (min, "minimum".to_owned())
            }
            Choice::Level(level) => {
                self.note_max_same_as_high(choice);
                let tokens = if self.model.is_generic() {
                    self.generic_budget(level, min, max)
                } else if level == Level::Minimal && min == 0 {
                    // A range that starts at 0 starts at "off"; minimal is the smallest real
                    // thinking, which we take as Anthropic's floor.
                    MIN_REAL_BUDGET.min(max)
                } else {
                    formula_budget(level, min, max)
                };
                (tokens, level.as_str().to_owned())
            }
            Choice::Budget(asked) => {
                let tokens = asked.clamp(min.max(1), max);
                if tokens != asked {
                    self.warnings.push(format!(
                        "A budget of {} tokens is outside this model's range of {}–{}; using {}",
                        thousands(asked),
                        thousands(min),
                        thousands(max),
                        thousands(tokens)
                    ));
                }
                (tokens, "custom".to_owned())
            }
            Choice::Default => unreachable!("handled before the model's kind"),
        };
        self.meaning = Meaning::tokens(MeaningKind::Budget, tokens);
        let mut sent = tokens;
        let mut details = Vec::new();
        if self.ctx.long_context_reduction
            && self.ctx.context_tokens > LONG_CONTEXT_TOKENS
            && sent > LONG_CONTEXT_BUDGET
        {
            sent = LONG_CONTEXT_BUDGET.max(min);
            details.push(format!(
                "reduced to {} because the conversation is past {} tokens",
                thousands(sent),
                thousands(LONG_CONTEXT_TOKENS as u32)
            ));
        }
        match self.dialect() {
            Dialect::Anthropic => {
                if let Some(detail) = self.anthropic_budget(&mut sent) {
                    details.push(detail);
                }
            }
            Dialect::Gemini => {
                let config = gemini_thinking(&mut self.request);
                config.insert("thinkingBudget".into(), json!(sent));
                config.insert("includeThoughts".into(), json!(true));
            }
            Dialect::Qwen => {
                self.request.insert("enable_thinking".into(), json!(true));
                self.request.insert("thinking_budget".into(), json!(sent));
                // DashScope: "enable_thinking must be set to false for non-streaming calls".
                self.stream = true;
            }
            Dialect::Openrouter => {
                // OpenRouter passes the budget on (to Anthropic, say), where it must stay
                // below the request's max_tokens: set both, with room for the answer.
                let limit = self.output_limit();
                let max_tokens = if self.ctx.max_output.is_some() {
                    limit
                } else {
                    sent.saturating_add(ANSWER_RESERVE).min(limit)
                };
                if sent.saturating_add(ANSWER_RESERVE) > max_tokens {
                    let cut = max_tokens
                        .saturating_sub(ANSWER_RESERVE)
                        .max(min.min(max_tokens.saturating_sub(1)));
                    if cut < sent {
                        sent = cut;
                        details.push(format!(
                            "capped to {} to leave room for the answer",
                            thousands(cut)
                        ));
                    }
                }
                self.request.insert("max_tokens".into(), json!(max_tokens));
                self.request
                    .insert("reasoning".into(), json!({ "max_tokens": sent }));
            }
            Dialect::ChatTemplate => {
                self.request.insert(
                    "chat_template_kwargs".into(),
                    json!({ "enable_thinking": true }),
                );
                self.request
                    .insert("thinking_budget_tokens".into(), json!(sent));
            }
            other => {
                self.warnings.push(format!(
                    "{} takes no thinking budget ({other:?}); nothing is sent",
                    self.model.provider.name
                ));
            }
        }
        let mut amount = format!("{} tokens", thousands(tokens));
        for detail in &details {
            amount.push_str(", ");
            amount.push_str(detail);
        }
        self.thinking = match label.as_str() {
            "custom" => format!("{amount} (custom)"),
            _ => format!("{label} ({amount})"),
        };
    }

    /// Keeps `budget_tokens < max_tokens ≤ the output limit`, with room for the answer.
    /// Returns a note when the budget had to be cut.
    fn anthropic_budget(&mut self, budget: &mut u32) -> Option<String> {
        let limit = self.output_limit();
        // Thinking is incompatible with a custom temperature or top_k.
        self.omit
            .extend(["temperature".to_owned(), "top_k".to_owned()]);
        if limit <= ANTHROPIC_MIN_BUDGET {
            self.warnings.push(format!(
                "An output cap of {} tokens leaves no room to think (the minimum budget is {}); thinking is off",
                thousands(limit),
                thousands(ANTHROPIC_MIN_BUDGET)
            ));
            self.request.insert("max_tokens".into(), json!(limit));
            self.meaning = Meaning::kind(MeaningKind::Disabled);
            return None;
        }
        let asked = *budget;
        let max_tokens = if self.ctx.max_output.is_some() {
            limit
        } else {
            (asked.saturating_add(ANSWER_RESERVE)).min(limit)
        };
        let mut note = None;
        if asked.saturating_add(ANSWER_RESERVE) > max_tokens {
            let cut = max_tokens
                .saturating_sub(ANSWER_RESERVE)
                .max(ANTHROPIC_MIN_BUDGET)
                .min(max_tokens - 1);
            if cut < asked {
                *budget = cut;
                note = Some(format!(
                    "capped to {} to leave room for the answer",
                    thousands(cut)
                ));
            }
        }
        self.request.insert("max_tokens".into(), json!(max_tokens));
        self.stream |= max_tokens > ANTHROPIC_STREAM_ABOVE;
        self.request.insert(
            "thinking".into(),
            json!({ "type": "enabled", "budget_tokens": *budget }),
        );
        if self.ctx.tools && self.model.interleaved_header {
            self.headers.insert(
                "anthropic-beta".into(),
                "interleaved-thinking-2025-05-14".into(),
            );
        }
        note
    }

    fn budget_disabled(&mut self) {
        self.meaning = Meaning::kind(MeaningKind::Disabled);
        self.thinking = "off".to_owned();
        match self.dialect() {
            Dialect::Anthropic => {
                let limit = self.output_limit();
                self.anthropic_max_tokens(limit);
            }
            Dialect::Gemini => {
                gemini_thinking(&mut self.request).insert("thinkingBudget".into(), json!(0));
            }
            Dialect::Qwen => {
                self.request.insert("enable_thinking".into(), json!(false));
            }
            Dialect::Openrouter => {
                self.request
                    .insert("reasoning".into(), json!({ "effort": "none" }));
            }
            Dialect::ChatTemplate => {
                self.request.insert(
                    "chat_template_kwargs".into(),
                    json!({ "enable_thinking": false }),
                );
            }
            _ => {}
        }
    }

    /// Rules §4: an unknown Anthropic or Google model's budget derives from the turn's output
    /// cap — minimal 1,024 (or the cap if lower), low 20 %, medium 50 %, high 80 %.
    fn generic_budget(&self, level: Level, min: u32, max: u32) -> u32 {
        let cap = self.output_limit();
        let tokens = match level {
            Level::Minimal => ANTHROPIC_MIN_BUDGET.min(cap),
            Level::Low => cap / 5,
            Level::Medium => cap / 2,
            Level::High | Level::Max => (u64::from(cap) * 4 / 5) as u32,
        };
        tokens.clamp(min, max).min(cap)
    }

    // ---- adaptive (Anthropic) ----

    fn adaptive(
        &mut self,
        choice: Choice,
        efforts: &[Effort],
        can_disable: bool,
        display_summarized: bool,
    ) {
        let limit = self.output_limit();
        self.anthropic_max_tokens(limit);
        let wanted = match choice {
            Choice::Off if can_disable => {
                self.meaning = Meaning::kind(MeaningKind::Disabled);
                self.thinking = "off".to_owned();
                return;
            }
            Choice::Off => {
                self.cannot_disable();
                Level::Minimal
            }
            Choice::Level(level) => level,
            Choice::Budget(tokens) => budget_to_level(tokens),
            Choice::Default => unreachable!("handled before the model's kind"),
        };
        let effort = pick_effort(wanted, efforts);
        if wanted == Level::Max && effort < Effort::Xhigh {
            self.notes
                .push("max is the same as high on this model".to_owned());
        }
        let mut thinking = json!({ "type": "adaptive" });
        if display_summarized {
            // Opus 4.7 and later return empty thinking text unless asked to summarize.
            thinking["display"] = json!("summarized");
        }
        self.request.insert("thinking".into(), thinking);
        self.request
            .insert("output_config".into(), json!({ "effort": effort.as_str() }));
        self.omit
            .extend(["temperature".to_owned(), "top_k".to_owned()]);
        self.stream |= limit > ANTHROPIC_STREAM_ABOVE;
        self.meaning = Meaning::value(MeaningKind::Adaptive, effort.as_str());
        self.thinking = match choice {
            Choice::Off => format!("adaptive, {} effort (minimum)", effort.as_str()),
            Choice::Budget(tokens) => format!(
                "adaptive, {} effort (for a budget of {} tokens)",
                effort.as_str(),
                thousands(tokens)
            ),
            _ => format!("adaptive, {} effort", effort.as_str()),
        };
    }

    // ---- effort ----

    fn effort(&mut self, choice: Choice, values: &[Effort], default: Effort, can_disable: bool) {
        let (effort, suffix) = match choice {
            Choice::Off if values.contains(&Effort::None) => (Effort::None, ""),
            Choice::Off if can_disable => return self.effort_disabled(),
            Choice::Off => {
                self.cannot_disable();
                (default, " (default)")
            }
            Choice::Level(level) => {
                let effort = pick_effort(level, values);
                if level == Level::Max && effort <= Effort::High {
                    self.notes
                        .push("max is the same as high on this model".to_owned());
                }
                (effort, "")
            }
            Choice::Budget(tokens) => {
                let level = if self.dialect() == Dialect::Xai {
                    // Seed 004: grok-3-mini takes low below 20,000 tokens, else high.
                    if tokens < 20_000 {
                        Level::Low
                    } else {
                        Level::High
                    }
                } else {
                    budget_to_level(tokens)
                };
                (pick_effort(level, values), "")
            }
            Choice::Default => unreachable!("handled before the model's kind"),
        };
        if effort == Effort::None {
            self.meaning = Meaning::value(MeaningKind::Disabled, "none");
            self.thinking = "off".to_owned();
        } else {
            self.meaning = Meaning::value(MeaningKind::Effort, effort.as_str());
            let share = match self.dialect() {
                Dialect::Openai => output_share(effort)
                    .map(|pct| format!(" (~{pct}% of output budget)"))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            let suffix = if suffix.is_empty() {
                share
            } else {
                suffix.to_owned()
            };
            self.thinking = match choice {
                Choice::Budget(tokens) => format!(
                    "{} effort (for a budget of {} tokens)",
                    effort.as_str(),
                    thousands(tokens)
                ),
                _ => format!("{} effort{suffix}", effort.as_str()),
            };
            if self.dialect() == Dialect::Openai && self.endpoint == Endpoint::Responses {
                self.notes.push(format!(
                    "Recommended output buffer: {} tokens",
                    thousands(OPENAI_OUTPUT_BUFFER)
                ));
            }
        }
        let value = effort.as_str();
        match self.dialect() {
            Dialect::Openai => {
                if self.endpoint == Endpoint::Responses {
                    let reasoning = if effort == Effort::None {
                        json!({ "effort": value })
                    } else {
                        json!({ "effort": value, "summary": "auto" })
                    };
                    self.request.insert("reasoning".into(), reasoning);
                    // Replayable reasoning needs the encrypted item when nothing is stored.
                    self.request
                        .insert("include".into(), json!(["reasoning.encrypted_content"]));
                } else {
                    self.request.insert("reasoning_effort".into(), json!(value));
                }
                if effort != Effort::None {
                    // Reasoning models accept only the default sampling parameters.
                    self.omit
                        .extend(["temperature".to_owned(), "top_p".to_owned()]);
                }
            }
            Dialect::Deepseek => {
                self.request
                    .insert("thinking".into(), json!({ "type": "enabled" }));
                self.request.insert("reasoning_effort".into(), json!(value));
            }
            Dialect::Openrouter => {
                self.request
                    .insert("reasoning".into(), json!({ "effort": value }));
            }
            Dialect::Ollama => {
                // gpt-oss on Ollama takes the level as `think`; booleans are ignored.
                self.request.insert("think".into(), json!(value));
            }
            Dialect::ChatTemplate => {
                self.request.insert(
                    "chat_template_kwargs".into(),
                    json!({ "reasoning_effort": value }),
                );
            }
            Dialect::Xai | Dialect::OpenaiCompatible | Dialect::Kimi | Dialect::Glm => {
                self.request.insert("reasoning_effort".into(), json!(value));
            }
            Dialect::Anthropic | Dialect::Gemini | Dialect::Qwen | Dialect::Minimax => {
                self.warnings.push(format!(
                    "{} takes no effort parameter; nothing is sent",
                    self.model.provider.name
                ));
            }
        }
    }

    fn effort_disabled(&mut self) {
        self.meaning = Meaning::kind(MeaningKind::Disabled);
        self.thinking = "off".to_owned();
        self.request
            .insert("thinking".into(), json!({ "type": "disabled" }));
    }

    // ---- level (Gemini 3) ----

    fn level(&mut self, choice: Choice, values: &[ThinkingLevel], _default: ThinkingLevel) {
        let lowest = *values.iter().min().unwrap_or(&ThinkingLevel::Low);
        let highest = *values.iter().max().unwrap_or(&ThinkingLevel::High);
        let (level, suffix) = match choice {
            Choice::Off => {
                self.cannot_disable();
                (lowest, " (minimum)")
            }
            Choice::Level(Level::Max) => {
                self.notes.push(format!(
                    "max is the same as {} on this model",
                    highest.wire()
                ));
                (highest, "")
            }
            Choice::Level(level) => (pick_level(level, values), ""),
            // Seed 004: below 16,000 tokens LOW, else HIGH.
            Choice::Budget(tokens) => {
                let wanted = if tokens < 16_000 {
                    Level::Low
                } else {
                    Level::High
                };
                (pick_level(wanted, values), "")
            }
            Choice::Default => unreachable!("handled before the model's kind"),
        };
        match self.dialect() {
            Dialect::Gemini => {
                let config = gemini_thinking(&mut self.request);
                config.insert("thinkingLevel".into(), json!(level.wire()));
                config.insert("includeThoughts".into(), json!(true));
            }
            Dialect::Openrouter => {
                let effort = format!("{level:?}").to_ascii_lowercase();
                self.request
                    .insert("reasoning".into(), json!({ "effort": effort }));
            }
            _ => {
                self.warnings.push(format!(
                    "{} takes no thinking level; nothing is sent",
                    self.model.provider.name
                ));
            }
        }
        self.meaning = Meaning::value(MeaningKind::Level, level.wire());
        self.thinking = match choice {
            Choice::Budget(tokens) => format!(
                "{} level (for a budget of {} tokens)",
                level.wire(),
                thousands(tokens)
            ),
            _ => format!("{} level{suffix}", level.wire()),
        };
    }

    // ---- toggle ----

    fn toggle(&mut self, choice: Choice, can_disable: bool, _default_on: bool) {
        let on = match choice {
            Choice::Off if can_disable => false,
            Choice::Off => {
                self.cannot_disable();
                true
            }
            _ => true,
        };
        if on && !matches!(choice, Choice::Off) {
            if let Choice::Level(level) = choice
                && level != Level::Medium
            {
                self.notes.push(format!(
                    "this model's thinking is on or off only, so {} means on",
                    level.as_str()
                ));
            }
            if let Choice::Budget(tokens) = choice {
                self.notes.push(format!(
                    "this model takes no budget, so {} tokens means on",
                    thousands(tokens)
                ));
            }
        }
        let kind = if on { "enabled" } else { "disabled" };
        match self.dialect() {
            Dialect::Deepseek | Dialect::Kimi | Dialect::Glm => {
                self.request
                    .insert("thinking".into(), json!({ "type": kind }));
            }
            Dialect::Minimax => {
                // Seed 004: reasoning_split moves thinking out of the content. M3 can also
                // switch thinking off; M2 cannot.
                if can_disable {
                    let mode = if on { "adaptive" } else { "disabled" };
                    self.request
                        .insert("thinking".into(), json!({ "type": mode }));
                }
                if on {
                    self.request.insert("reasoning_split".into(), json!(true));
                }
            }
            Dialect::Ollama => {
                self.request.insert("think".into(), json!(on));
            }
            Dialect::ChatTemplate => {
                self.request.insert(
                    "chat_template_kwargs".into(),
                    json!({ "enable_thinking": on }),
                );
            }
            Dialect::Qwen => {
                self.request.insert("enable_thinking".into(), json!(on));
                if on {
                    self.stream = true;
                }
            }
            Dialect::Openrouter => {
                self.request
                    .insert("reasoning".into(), json!({ "enabled": on }));
            }
            other => {
                self.warnings.push(format!(
                    "{} has no thinking switch ({other:?}); nothing is sent",
                    self.model.provider.name
                ));
            }
        }
        if on {
            self.meaning = Meaning::value(MeaningKind::Toggle, "on");
            self.thinking = "on".to_owned();
        } else {
            self.meaning = Meaning::kind(MeaningKind::Disabled);
            self.thinking = "off".to_owned();
        }
    }

    // ---- always / none ----

    fn always(&mut self, choice: Choice) {
        if choice == Choice::Off {
            self.cannot_disable();
        }
        // Seed 004: DeepSeek returns 400 when a reasoning parameter reaches the reasoner.
        self.omit.extend(
            [
                "reasoning_effort",
                "thinking",
                "reasoning",
                "enable_thinking",
            ]
            .map(str::to_owned),
        );
        self.meaning = Meaning::kind(MeaningKind::Always);
        self.thinking = "always on (this model always thinks; nothing to set)".to_owned();
    }

    fn none(&mut self, choice: Choice) {
        let limit = self.output_limit();
        self.anthropic_max_tokens(limit);
        if choice != Choice::Off {
            self.warnings.push(format!(
                "{} does not reason; the thinking choice has no effect",
                self.model.id
            ));
        }
        self.meaning = Meaning::kind(MeaningKind::Disabled);
        self.thinking = "not available on this model".to_owned();
    }
}

/// Seed 000: `min + v/3 × (max − min)`, rounded down.
pub fn formula_budget(level: Level, min: u32, max: u32) -> u32 {
    let span = u64::from(max.saturating_sub(min));
    min + (span * u64::from(level.thirds()) / 3) as u32
}

/// Seed 004's thresholds from a token budget to a level.
pub fn budget_to_level(tokens: u32) -> Level {
    match tokens {
        0..4_000 => Level::Minimal,
        4_000..16_000 => Level::Low,
        16_000..32_000 => Level::Medium,
        _ => Level::High,
    }
}

fn level_effort(level: Level) -> Effort {
    match level {
        Level::Minimal => Effort::Minimal,
        Level::Low => Effort::Low,
        Level::Medium => Effort::Medium,
        Level::High => Effort::High,
        Level::Max => Effort::Max,
    }
}

/// The accepted effort closest to the level asked for. Missing steps round up (seed 000
/// "round up"), except that a level above everything takes the highest; `max` takes the top
/// value above `high` (`xhigh` or `max`), else `high`.
fn pick_effort(level: Level, values: &[Effort]) -> Effort {
    let mut accepted: Vec<Effort> = values
        .iter()
        .copied()
        .filter(|e| *e != Effort::None)
        .collect();
    accepted.sort();
    let Some(&highest) = accepted.last() else {
        return Effort::Medium;
    };
    if level == Level::Max {
        return highest;
    }
    let wanted = level_effort(level);
    accepted
        .iter()
        .copied()
        .filter(|e| *e <= Effort::High)
        .find(|e| *e >= wanted)
        .unwrap_or_else(|| {
            accepted
                .iter()
                .copied()
                .filter(|e| *e <= Effort::High)
                .max()
                .unwrap_or(highest)
        })
}

fn pick_level(level: Level, values: &[ThinkingLevel]) -> ThinkingLevel {
    let mut sorted = values.to_vec();
    sorted.sort();
    let wanted = match level {
        Level::Minimal => ThinkingLevel::Minimal,
        Level::Low => ThinkingLevel::Low,
        Level::Medium => ThinkingLevel::Medium,
        Level::High | Level::Max => ThinkingLevel::High,
    };
    sorted
        .iter()
        .copied()
        .find(|l| *l >= wanted)
        .or_else(|| sorted.last().copied())
        .unwrap_or(ThinkingLevel::High)
}

/// The share of the output budget OpenAI-style efforts roughly spend on reasoning.
fn output_share(effort: Effort) -> Option<u32> {
    match effort {
        Effort::Minimal => Some(10),
        Effort::Low => Some(20),
        Effort::Medium => Some(50),
        Effort::High => Some(80),
        Effort::Xhigh | Effort::Max => Some(95),
        Effort::None => None,
    }
}

fn gemini_config(request: &mut Map<String, Value>) -> &mut Map<String, Value> {
    request
        .entry("generationConfig")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .expect("generationConfig is an object")
}

fn gemini_thinking(request: &mut Map<String, Value>) -> &mut Map<String, Value> {
    gemini_config(request)
        .entry("thinkingConfig")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .expect("thinkingConfig is an object")
}
