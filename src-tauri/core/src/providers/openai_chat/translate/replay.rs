//! What goes back of an earlier assistant turn's reasoning, per vendor: DeepSeek's reasoner
//! never gets it; DeepSeek V3.2+/V4, Kimi and GLM get `reasoning_content` on tool-call turns;
//! MiniMax gets its message verbatim; OpenRouter its `reasoning_details`; Copilot its
//! `reasoning_text` with the `reasoning_opaque` that signs it.

use serde_json::Value;

use crate::catalog::ReplayRule as Rule;
use crate::providers::openai_chat::wire::MessageParam;
use crate::providers::request::{note, note_foreign};
use crate::reasoning::settings::ThoughtFormat;

/// One earlier assistant turn as its reasoning is sent back.
pub(super) struct Step<'a> {
    pub(super) rule: crate::catalog::ReplayRule,
    /// The turn as the vendor sent it, where this model wrote it.
    pub(super) replay: Option<&'a Value>,
    pub(super) thoughts: &'a str,
    /// The settings keep this turn's thoughts.
    pub(super) wants: bool,
    pub(super) tool_turn: bool,
    pub(super) native: bool,
    pub(super) kept: bool,
    pub(super) verbatim: bool,
    pub(super) message: &'a crate::chat::Message,
    pub(super) input: &'a crate::providers::request::WireInput<'a>,
}

/// Puts an earlier turn's reasoning on its message in the field its vendor reads back, as the
/// vendor's rule says (or leaves it out, with the notice why).
pub(super) fn reasoning_back(step: &Step<'_>, out: &mut MessageParam, notices: &mut Vec<String>) {
    match step.rule {
        Rule::NeverSend => step.left_out(notices, "rejects earlier reasoning"),
        Rule::ReasoningContentOnToolTurns => {
            if (step.wants || step.tool_turn) && !step.thoughts.is_empty() && step.native {
                out.reasoning_content = Some(step.thoughts.to_owned());
                step.required(notices, |vendor| {
                    format!("Reasoning of tool-call turns was sent back: {vendor} requires it")
                });
            } else {
                step.foreign(notices);
            }
        }
        Rule::ReasoningDetails => match step.replayed("reasoning_details") {
            Some(details) => {
                out.reasoning_details = Some(details.clone());
                step.required(notices, |vendor| {
                    format!(
                        "Reasoning details of tool-call turns were sent back: {vendor} requires them"
                    )
                });
            }
            None => step.foreign(notices),
        },
        // The thoughts go back only with their signature, and only to the model that signed
        // them: Copilot checks one against the other.
        Rule::ReasoningOpaque => match step.replayed("reasoning_opaque").and_then(Value::as_str) {
            Some(opaque) => {
                out.reasoning_text = Some(step.thoughts.to_owned());
                out.reasoning_opaque = Some(opaque.to_owned());
                step.required(notices, |vendor| {
                    format!(
                        "Reasoning of tool-call turns was sent back with its signature: {vendor} requires it"
                    )
                });
            }
            None => step.foreign(notices),
        },
        Rule::Verbatim => {
            // The whole message goes back as it came: inline `<think>` in the content, or
            // `reasoning_details` when the request split the reasoning out.
            if let Some(details) = step.replay.and_then(|r| r.get("reasoning_details")) {
                out.reasoning_details = Some(details.clone());
            }
            if step.verbatim && !step.kept && step.message.thinking().next().is_some() {
                note(
                    notices,
                    format!(
                        "Earlier replies were sent back verbatim, thoughts included: {} requires it",
                        step.input.model.provider.name
                    ),
                );
            }
        }
        Rule::Optional => {
            // Plain text from any origin is fine as `reasoning_content` where the server reads it.
            if step.wants && step.input.settings.format == ThoughtFormat::Field {
                out.reasoning_content = Some(step.thoughts.to_owned());
            }
        }
        // OpenAI's and xAI's Chat Completions take no reasoning back (their reasoning
        // round-trips only through the Responses API), and strict servers reject the field.
        Rule::SignedBlocks | Rule::ReasoningItems | Rule::ThoughtSignatures | Rule::None => {
            step.left_out(notices, "takes no earlier reasoning on this API");
        }
    }
}

impl Step<'_> {
    /// A field of the vendor's own turn, when it goes back: the settings keep the thoughts,
    /// or the vendor needs them on tool-call turns.
    fn replayed(&self, field: &str) -> Option<&Value> {
        self.replay
            .and_then(|r| r.get(field))
            .filter(|_| self.wants || self.tool_turn)
    }

    /// Tells the user that reasoning the settings would leave out went back on a tool-call
    /// turn, because the vendor needs it there.
    fn required(&self, notices: &mut Vec<String>, notice: impl FnOnce(&str) -> String) {
        if self.tool_turn && !self.kept {
            note(notices, notice(&self.input.model.provider.name));
        }
    }

    /// Tells the user that reasoning the settings wanted sent was left out, and why.
    fn left_out(&self, notices: &mut Vec<String>, why: &str) {
        if self.wants {
            let model = &self.input.model.id;
            note(notices, format!("{model} {why}, so it was left out"));
        }
    }

    fn foreign(&self, notices: &mut Vec<String>) {
        note_foreign(
            notices,
            self.message,
            self.input.model,
            self.wants && !self.native,
        );
    }
}
