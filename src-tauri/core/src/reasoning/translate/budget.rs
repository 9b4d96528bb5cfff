//! Dialects that take a token budget (Anthropic `budget_tokens`, Gemini 2.5 `thinkingBudget`,
//! Qwen and others): the level read as a share of the model's range, capped and cut.

use super::effort::pick_effort;
use super::*;
use crate::reasoning::params::{
    ChatTemplateKwargs, OutputConfig, ReasoningParam, ThinkingMode, ThinkingParam,
};

impl PlanBuilder<'_> {
    pub(super) fn budget(&mut self, choice: Choice, min: u32, max: u32, can_disable: bool) {
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
                let config = self.request.gemini_thinking();
                config.thinking_budget = Some(sent);
                config.include_thoughts = Some(true);
            }
            Dialect::Qwen => {
                self.request.enable_thinking = Some(true);
                self.request.thinking_budget = Some(sent);
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
                self.request.max_tokens = Some(max_tokens);
                self.request.reasoning = Some(ReasoningParam {
                    max_tokens: Some(sent),
                    ..ReasoningParam::default()
                });
            }
            Dialect::ChatTemplate => {
                self.request.chat_template_kwargs = Some(ChatTemplateKwargs {
                    enable_thinking: Some(true),
                    ..ChatTemplateKwargs::default()
                });
                self.request.thinking_budget_tokens = Some(sent);
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
    pub(super) fn anthropic_budget(&mut self, budget: &mut u32) -> Option<String> {
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
            self.request.max_tokens = Some(limit);
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
        self.request.max_tokens = Some(max_tokens);
        self.stream |= max_tokens > ANTHROPIC_STREAM_ABOVE;
        self.request.thinking = Some(ThinkingParam {
            budget_tokens: Some(*budget),
            ..ThinkingParam::mode(ThinkingMode::Enabled)
        });
        if self.ctx.tools && self.model.interleaved_header {
            self.headers.insert(
                "anthropic-beta".into(),
                "interleaved-thinking-2025-05-14".into(),
            );
        }
        note
    }

    pub(super) fn budget_disabled(&mut self) {
        self.meaning = Meaning::kind(MeaningKind::Disabled);
        self.thinking = "off".to_owned();
        match self.dialect() {
            Dialect::Anthropic => {
                let limit = self.output_limit();
                self.anthropic_max_tokens(limit);
            }
            Dialect::Gemini => {
                self.request.gemini_thinking().thinking_budget = Some(0);
            }
            Dialect::Qwen => {
                self.request.enable_thinking = Some(false);
            }
            Dialect::Openrouter => {
                self.request.reasoning = Some(ReasoningParam::effort("none"));
            }
            Dialect::ChatTemplate => {
                self.request.chat_template_kwargs = Some(ChatTemplateKwargs {
                    enable_thinking: Some(false),
                    ..ChatTemplateKwargs::default()
                });
            }
            _ => {}
        }
    }

    /// Rules §4: an unknown Anthropic or Google model's budget derives from the turn's output
    /// cap — minimal 1,024 (or the cap if lower), low 20 %, medium 50 %, high 80 %.
    pub(super) fn generic_budget(&self, level: Level, min: u32, max: u32) -> u32 {
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

    pub(super) fn adaptive(
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
        self.request.thinking = Some(ThinkingParam {
            // Opus 4.7 and later return empty thinking text unless asked to summarize.
            display: display_summarized.then(|| "summarized".to_owned()),
            ..ThinkingParam::mode(ThinkingMode::Adaptive)
        });
        self.request.output_config = Some(OutputConfig {
            effort: effort.as_str().to_owned(),
        });
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
}

/// A level's budget on a model's range: `min + v/3 × (max − min)` with v = 0 for minimal,
/// 1 low, 2 medium, 3 high (and max), rounded down to a whole token.
pub fn formula_budget(level: Level, min: u32, max: u32) -> u32 {
    let span = u64::from(max.saturating_sub(min));
    min + (span * u64::from(level.thirds()) / 3) as u32
}

/// The level a custom token budget stands for on a model that takes levels, not budgets:
/// under 4,000 minimal, under 16,000 low, under 32,000 medium, else high.
pub fn budget_to_level(tokens: u32) -> Level {
    match tokens {
        0..4_000 => Level::Minimal,
        4_000..16_000 => Level::Low,
        16_000..32_000 => Level::Medium,
        _ => Level::High,
    }
}
