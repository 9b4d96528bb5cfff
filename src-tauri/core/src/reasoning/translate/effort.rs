//! Dialects that take a named effort (OpenAI, xAI), a thinking level (Gemini 3) or only an
//! on/off switch.

use super::*;
use crate::reasoning::params::{
    ChatTemplateKwargs, ReasoningParam, Think, ThinkingMode, ThinkingParam,
};

impl PlanBuilder<'_> {
    pub(super) fn effort(
        &mut self,
        choice: Choice,
        values: &[Effort],
        default: Effort,
        can_disable: bool,
    ) {
        let Some((effort, suffix)) = self.effort_for(choice, values, default, can_disable) else {
            return self.effort_disabled();
        };
        self.describe_effort(choice, effort, suffix);
        self.send_effort(effort);
    }

    /// The effort a choice stands for on this model, and what to add to its feedback; none
    /// when the model is switched off another way.
    fn effort_for(
        &mut self,
        choice: Choice,
        values: &[Effort],
        default: Effort,
        can_disable: bool,
    ) -> Option<(Effort, &'static str)> {
        Some(match choice {
            Choice::Off if values.contains(&Effort::None) => (Effort::None, ""),
            Choice::Off if can_disable => return None,
            Choice::Off => {
                self.cannot_disable();
                (default, " (default)")
            }
            Choice::Level(level) => {
                let effort = pick_effort(level, values);
                if level == Level::Max && effort <= Effort::High {
                    self.notes.push(if self.dialect() == Dialect::Copilot {
                        format!(
                            "{} takes at most high: max is sent as {}",
                            self.model.provider.name,
                            effort.as_str()
                        )
                    } else {
                        "max is the same as high on this model".to_owned()
                    });
                }
                (effort, "")
            }
            Choice::Budget(tokens) => {
                let level = if self.dialect() == Dialect::Xai {
                    // grok-3-mini takes only low and high: low below 20,000 tokens.
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
        })
    }

    /// What the feedback line says the effort means.
    fn describe_effort(&mut self, choice: Choice, effort: Effort, suffix: &str) {
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
    }

    /// The effort in the provider's own parameter.
    fn send_effort(&mut self, effort: Effort) {
        let value = effort.as_str();
        if self.dialect() == Dialect::Copilot
            && effort != Effort::None
            && self.model.shows == Shows::None
        {
            self.notes.push(format!(
                "{} does not return {}'s thoughts: the effort is sent and shapes the answer, but no thinking will show",
                self.model.provider.name,
                family_name(&self.model.name)
            ));
        }
        match self.dialect() {
            Dialect::Openai | Dialect::Copilot => {
                if self.endpoint == Endpoint::Responses {
                    self.request.reasoning = Some(ReasoningParam {
                        summary: (effort != Effort::None).then(|| "auto".to_owned()),
                        ..ReasoningParam::effort(value)
                    });
                    // Replayable reasoning needs the encrypted item when nothing is stored.
                    self.request.include = Some(vec!["reasoning.encrypted_content".to_owned()]);
                } else {
                    self.request.reasoning_effort = Some(value.to_owned());
                }
                if effort != Effort::None {
                    // Reasoning models accept only the default sampling parameters.
                    self.omit
                        .extend(["temperature".to_owned(), "top_p".to_owned()]);
                }
            }
            Dialect::Deepseek => {
                self.request.thinking = Some(ThinkingParam::mode(ThinkingMode::Enabled));
                self.request.reasoning_effort = Some(value.to_owned());
            }
            Dialect::Openrouter => {
                self.request.reasoning = Some(ReasoningParam::effort(value));
            }
            Dialect::Ollama => {
                // gpt-oss on Ollama takes the level as `think`; booleans are ignored.
                self.request.think = Some(Think::Level(value.to_owned()));
            }
            Dialect::ChatTemplate => {
                self.request.chat_template_kwargs = Some(ChatTemplateKwargs {
                    reasoning_effort: Some(value.to_owned()),
                    ..ChatTemplateKwargs::default()
                });
            }
            Dialect::Xai | Dialect::OpenaiCompatible | Dialect::Kimi | Dialect::Glm => {
                self.request.reasoning_effort = Some(value.to_owned());
            }
            Dialect::Anthropic | Dialect::Gemini | Dialect::Qwen | Dialect::Minimax => {
                self.warnings.push(format!(
                    "{} takes no effort parameter; nothing is sent",
                    self.model.provider.name
                ));
            }
        }
    }

    pub(super) fn effort_disabled(&mut self) {
        self.meaning = Meaning::kind(MeaningKind::Disabled);
        self.thinking = "off".to_owned();
        // Copilot's models think only when asked: sending no effort is off.
        if self.dialect() != Dialect::Copilot {
            self.request.thinking = Some(ThinkingParam::mode(ThinkingMode::Disabled));
        }
    }

    // ---- level (Gemini 3) ----

    pub(super) fn level(
        &mut self,
        choice: Choice,
        values: &[ThinkingLevel],
        _default: ThinkingLevel,
    ) {
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
            // A budget reads as LOW below 16,000 tokens, else HIGH.
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
                let config = self.request.gemini_thinking();
                config.thinking_level = Some(level.wire().to_owned());
                config.include_thoughts = Some(true);
            }
            Dialect::Openrouter => {
                let effort = format!("{level:?}").to_ascii_lowercase();
                self.request.reasoning = Some(ReasoningParam::effort(&effort));
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

    pub(super) fn toggle(&mut self, choice: Choice, can_disable: bool, _default_on: bool) {
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
        match self.dialect() {
            Dialect::Deepseek | Dialect::Kimi | Dialect::Glm => {
                self.request.thinking = Some(ThinkingParam::switch(on));
            }
            Dialect::Minimax => {
                // reasoning_split moves thinking out of the content. M3 can also
                // switch thinking off; M2 cannot.
                if can_disable {
                    let mode = if on {
                        ThinkingMode::Adaptive
                    } else {
                        ThinkingMode::Disabled
                    };
                    self.request.thinking = Some(ThinkingParam::mode(mode));
                }
                if on {
                    self.request.reasoning_split = Some(true);
                }
            }
            Dialect::Ollama => {
                self.request.think = Some(Think::Switch(on));
            }
            Dialect::ChatTemplate => {
                self.request.chat_template_kwargs = Some(ChatTemplateKwargs {
                    enable_thinking: Some(on),
                    ..ChatTemplateKwargs::default()
                });
            }
            Dialect::Qwen => {
                self.request.enable_thinking = Some(on);
                if on {
                    self.stream = true;
                }
            }
            Dialect::Openrouter => {
                self.request.reasoning = Some(ReasoningParam {
                    enabled: Some(on),
                    ..ReasoningParam::default()
                });
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

    pub(super) fn always(&mut self, choice: Choice) {
        if choice == Choice::Off {
            self.cannot_disable();
        }
        // DeepSeek answers 400 when a reasoning parameter reaches the reasoner.
        self.omit.extend(
            [
                "reasoning_effort",
                "thinking",
                "reasoning",
                "enable_thinking",
            ]
            .map(str::to_owned),
        );
        // Gemini shows thoughts only when asked, even from a model that always thinks.
        if self.dialect() == Dialect::Gemini {
            self.request.gemini_thinking().include_thoughts = Some(true);
        }
        self.meaning = Meaning::kind(MeaningKind::Always);
        self.thinking = "always on (this model always thinks; nothing to set)".to_owned();
    }

    pub(super) fn none(&mut self, choice: Choice) {
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

fn level_effort(level: Level) -> Effort {
    match level {
        Level::Minimal => Effort::Minimal,
        Level::Low => Effort::Low,
        Level::Medium => Effort::Medium,
        Level::High => Effort::High,
        Level::Max => Effort::Max,
    }
}

/// The accepted effort closest to the level asked for. Missing steps round up (a model
/// without `minimal` gets `low`), except that a level above everything takes the highest; `max` takes the top
/// value above `high` (`xhigh` or `max`), else `high`.
pub(super) fn pick_effort(level: Level, values: &[Effort]) -> Effort {
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

/// A model's family as the user knows it: "Claude" of "Claude Sonnet 4.6".
fn family_name(name: &str) -> &str {
    name.split_whitespace().next().unwrap_or(name)
}
