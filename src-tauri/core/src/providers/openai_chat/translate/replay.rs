//! What goes back of an earlier assistant turn's reasoning, per vendor: DeepSeek's reasoner
//! never gets it; DeepSeek V3.2+/V4, Kimi and GLM get `reasoning_content` on tool-call turns;
//! MiniMax gets its message verbatim; OpenRouter its `reasoning_details`; Copilot its
//! `reasoning_text` with the `reasoning_opaque` that signs it.

use serde_json::Value;

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
pub(super) fn reasoning_back(
    step: &Step<'_>,
    out: &mut crate::providers::openai_chat::wire::MessageParam,
    notices: &mut Vec<String>,
) {
    use crate::catalog::ReplayRule as Rule;
    use crate::providers::request::{note, note_foreign};

    let Step {
        rule,
        replay,
        thoughts,
        wants,
        tool_turn,
        native,
        kept,
        verbatim,
        message,
        input,
    } = *step;
    match rule {
        Rule::NeverSend => {
            if wants {
                note(
                    notices,
                    format!(
                        "{} rejects earlier reasoning, so it was left out",
                        input.model.id
                    ),
                );
            }
        }
        Rule::ReasoningContentOnToolTurns => {
            if (wants || tool_turn) && !thoughts.is_empty() && native {
                out.reasoning_content = Some(thoughts.to_owned());
                if tool_turn && !kept {
                    note(
                        notices,
                        format!(
                            "Reasoning of tool-call turns was sent back: {} requires it",
                            input.model.provider.name
                        ),
                    );
                }
            } else {
                note_foreign(notices, message, input.model, wants && !native);
            }
        }
        Rule::ReasoningDetails => {
            if let Some(details) = replay
                .and_then(|r| r.get("reasoning_details"))
                .filter(|_| wants || tool_turn)
            {
                out.reasoning_details = Some(details.clone());
                if tool_turn && !kept {
                    note(
                        notices,
                        format!(
                            "Reasoning details of tool-call turns were sent back: {} requires them",
                            input.model.provider.name
                        ),
                    );
                }
            } else {
                note_foreign(notices, message, input.model, wants && !native);
            }
        }
        Rule::ReasoningOpaque => {
            // The thoughts go back only with their signature, and only to the model
            // that signed them: Copilot checks one against the other.
            let opaque = replay
                .and_then(|r| r.get("reasoning_opaque"))
                .and_then(Value::as_str)
                .filter(|_| wants || tool_turn);
            if let Some(opaque) = opaque {
                out.reasoning_text = Some(thoughts.to_owned());
                out.reasoning_opaque = Some(opaque.to_owned());
                if tool_turn && !kept {
                    note(
                        notices,
                        format!(
                            "Reasoning of tool-call turns was sent back with its signature: {} requires it",
                            input.model.provider.name
                        ),
                    );
                }
            } else {
                note_foreign(notices, message, input.model, wants && !native);
            }
        }
        Rule::Verbatim => {
            // The whole message goes back as it came: inline `<think>` in the content, or
            // `reasoning_details` when the request split the reasoning out.
            if let Some(details) = replay.and_then(|r| r.get("reasoning_details")) {
                out.reasoning_details = Some(details.clone());
            }
            if verbatim && !kept && message.thinking().next().is_some() {
                note(
                    notices,
                    format!(
                        "Earlier replies were sent back verbatim, thoughts included: {} requires it",
                        input.model.provider.name
                    ),
                );
            }
        }
        Rule::Optional => {
            // Plain text from any origin is fine as `reasoning_content` where the server reads it.
            if wants && input.settings.format == crate::reasoning::settings::ThoughtFormat::Field {
                out.reasoning_content = Some(thoughts.to_owned());
            }
        }
        // OpenAI's and xAI's Chat Completions take no reasoning back (their reasoning
        // round-trips only through the Responses API), and strict servers reject the field.
        Rule::SignedBlocks | Rule::ReasoningItems | Rule::ThoughtSignatures | Rule::None => {
            if wants {
                note(
                    notices,
                    format!(
                        "{} takes no earlier reasoning on this API, so it was left out",
                        input.model.id
                    ),
                );
            }
        }
    }
}
