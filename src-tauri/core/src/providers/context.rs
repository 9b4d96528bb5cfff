//! Which stored thoughts go back to the provider: the conversation's settings first
//! (`stripFromContext`, then `includeInContext`), then the provider's own rules,
//! which win where its API demands it — always with a notice, never silently.

use crate::catalog::ModelInfo;
use crate::chat::{Message, Part, Role};
use crate::reasoning::settings::{ReasoningSettings, StripFromContext};

use super::tokens::{Counter, TokenCount};

/// What the settings say about each message's thoughts (index-aligned with the history).
pub fn kept_by_settings(history: &[Message], settings: &ReasoningSettings) -> Vec<bool> {
    let last_assistant = history
        .iter()
        .rposition(|m| m.role == Role::Assistant && m.thinking().next().is_some());
    history
        .iter()
        .enumerate()
        .map(|(i, message)| {
            if message.role != Role::Assistant {
                return false;
            }
            let survives_strip = match settings.strip_from_context {
                StripFromContext::None => true,
                StripFromContext::All => false,
                StripFromContext::AllButLast => Some(i) == last_assistant,
            };
            survives_strip && settings.include_in_context
        })
        .collect()
}

/// Whether a stored assistant message came from exactly this provider and model, so that
/// its signatures and provider data mean something there.
pub fn same_origin(message: &Message, model: &ModelInfo) -> bool {
    message
        .origin
        .as_ref()
        .is_some_and(|o| o.provider == model.provider.id && o.model.eq_ignore_ascii_case(&model.id))
}

/// An assistant step that called tools: providers that sign or encrypt reasoning need that
/// step's thoughts back unchanged.
pub fn is_tool_turn(message: &Message) -> bool {
    message.role == Role::Assistant && message.tool_calls().next().is_some()
}

/// The history without the thoughts the user hid, or `None` when there are none to leave
/// out. A tool turn keeps them: providers that sign or encrypt reasoning reject the turn
/// without its thoughts.
pub fn without_hidden_thoughts(history: &[Message]) -> Option<Vec<Message>> {
    let hides = |m: &Message| !is_tool_turn(m) && m.thinking().any(|b| b.hidden);
    if !history.iter().any(hides) {
        return None;
    }
    Some(
        history
            .iter()
            .map(|m| {
                if !hides(m) {
                    return m.clone();
                }
                let mut m = m.clone();
                m.parts
                    .retain(|p| !matches!(p, Part::Thinking(b) if b.hidden));
                m
            })
            .collect(),
    )
}

/// The history with every tool call paired with its result, or `None` when it already is.
/// Every provider rejects a call without a result (a loop stopped mid-way, a crash) and a
/// result without its call: such a step goes back without its calls (and without its
/// native form, which holds them), and such results are left out.
pub fn paired_tool_turns(history: &[Message]) -> Option<Vec<Message>> {
    use std::collections::BTreeSet;

    let answered = |i: usize| -> BTreeSet<&str> {
        history
            .get(i + 1)
            .filter(|m| m.role == Role::Tool)
            .map(|m| m.tool_results().map(|r| r.call_id.as_str()).collect())
            .unwrap_or_default()
    };
    let called = |i: usize| -> BTreeSet<&str> {
        i.checked_sub(1)
            .and_then(|p| history.get(p))
            .filter(|m| m.role == Role::Assistant)
            .map(|m| m.tool_calls().map(|c| c.id.as_str()).collect())
            .unwrap_or_default()
    };
    let broken = |i: usize| -> bool {
        let m = &history[i];
        match m.role {
            Role::Assistant => {
                let calls: BTreeSet<&str> = m.tool_calls().map(|c| c.id.as_str()).collect();
                !calls.is_empty() && calls != answered(i)
            }
            Role::Tool => {
                let results: BTreeSet<&str> =
                    m.tool_results().map(|r| r.call_id.as_str()).collect();
                results != called(i)
            }
            Role::User => false,
        }
    };
    if !(0..history.len()).any(broken) {
        return None;
    }
    Some(
        (0..history.len())
            .filter_map(|i| {
                let m = &history[i];
                if !broken(i) {
                    return Some(m.clone());
                }
                match m.role {
                    Role::Tool => None,
                    _ => {
                        let mut m = m.clone();
                        m.parts.retain(|p| !matches!(p, Part::ToolCall(_)));
                        m.replay = None;
                        Some(m)
                    }
                }
            })
            .collect(),
    )
}

/// The concatenated thought text of a message (for `reasoning_content`-style fields).
pub fn thought_text(message: &Message) -> String {
    message
        .thinking()
        .filter(|b| !b.is_redacted())
        .map(|b| b.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// What a history costs once the settings have stripped it: the model's own tokenizer where
/// Ponder has it (OpenAI), else the stated estimate; a few tokens of framing per message.
pub fn effective_tokens(
    history: &[Message],
    settings: &ReasoningSettings,
    model: &ModelInfo,
) -> TokenCount {
    let counter = Counter::for_model(model);
    TokenCount {
        tokens: per_message_tokens(history, settings, &counter, model)
            .iter()
            .sum(),
        exact: counter.exact(),
    }
}

fn per_message_tokens(
    history: &[Message],
    settings: &ReasoningSettings,
    counter: &Counter,
    model: &ModelInfo,
) -> Vec<u64> {
    let kept = kept_by_settings(history, settings);
    history
        .iter()
        .zip(kept)
        .map(|(message, keep_thoughts)| {
            let mut tokens = counter.count(&message.text()) + 4;
            tokens += message
                .attachments()
                .map(|file| crate::attachments::tokens::estimate(file, model))
                .sum::<u64>();
            if keep_thoughts {
                tokens += message
                    .thinking()
                    .filter(|b| !b.hidden || is_tool_turn(message))
                    .map(|b| counter.count(&b.text))
                    .sum::<u64>();
            }
            tokens
        })
        .collect()
}

/// Leaves the oldest turns out of the request (never out of the history) until what is left
/// fits the model's context window with room for the answer. Returns the messages to send and
/// how many were left out. The newest user message always stays.
pub fn fit_to_window<'a>(
    history: &'a [Message],
    settings: &ReasoningSettings,
    model: &ModelInfo,
    output_room: u32,
) -> (&'a [Message], usize) {
    let window = u64::from(model.context_window).saturating_sub(u64::from(output_room));
    let costs = per_message_tokens(history, settings, &Counter::for_model(model), model);
    let mut total: u64 = costs.iter().sum();
    let mut start = 0;
    while start + 1 < history.len() && total > window {
        // Drop a whole turn: the user message and the assistant answer after it.
        total -= costs[start];
        start += 1;
        while start + 1 < history.len() && history[start].role != Role::User {
            total -= costs[start];
            start += 1;
        }
    }
    (&history[start..], start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::{Part, ThinkingBlock};

    fn turn(thought: &str, answer: &str) -> Message {
        Message {
            role: Role::Assistant,
            parts: vec![
                Part::Thinking(ThinkingBlock {
                    text: thought.into(),
                    ..ThinkingBlock::default()
                }),
                Part::Text {
                    text: answer.into(),
                },
            ],
            origin: None,
            replay: None,
        }
    }

    fn history() -> Vec<Message> {
        vec![
            Message::user("q1"),
            turn("T1", "R1"),
            Message::user("q2"),
            turn("T2", "R2"),
            Message::user("q3"),
            turn("T3", "R3"),
            Message::user("q4"),
        ]
    }

    fn sent(strip: StripFromContext, include: bool) -> Vec<&'static str> {
        let settings = ReasoningSettings {
            strip_from_context: strip,
            include_in_context: include,
            ..ReasoningSettings::default()
        };
        let names = ["", "T1", "", "T2", "", "T3", ""];
        kept_by_settings(&history(), &settings)
            .into_iter()
            .zip(names)
            .filter(|(kept, _)| *kept)
            .map(|(_, name)| name)
            .collect()
    }

    /// The settings' worked examples, in order.
    #[test]
    fn the_oldest_turns_are_left_out_until_the_rest_fits() {
        let mut model = crate::catalog::Catalog::builtin()
            .resolve(Some("anthropic"), "claude-sonnet-4-5")
            .unwrap();
        let settings = ReasoningSettings::default();
        let history = history();
        let all = effective_tokens(&history, &settings, &model).tokens;
        model.context_window = u32::try_from(all).unwrap() + 100;
        let (sent, left_out) = fit_to_window(&history, &settings, &model, 100);
        assert_eq!(
            (sent.len(), left_out),
            (history.len(), 0),
            "everything fits"
        );
        model.context_window = 100 + 8;
        let (sent, left_out) = fit_to_window(&history, &settings, &model, 100);
        assert_eq!(sent.len(), 1, "only the new question is left");
        assert_eq!(left_out, 6);
        assert_eq!(sent[0].text(), "q4");
    }

    #[test]
    fn a_hidden_thought_is_not_sent_back_unless_a_tool_turn_needs_it() {
        let mut history = history();
        if let Some(Part::Thinking(block)) = history[1].parts.first_mut() {
            block.hidden = true;
        }
        let shown = without_hidden_thoughts(&history).expect("one is hidden");
        assert_eq!(shown[1].thinking().count(), 0);
        assert_eq!(shown[3].thinking().count(), 1, "the others stay");
        assert_eq!(shown[1].text(), "R1", "the answer stays");
        // In a tool turn it goes back: the provider needs it.
        history[1].parts.push(Part::ToolCall(crate::chat::ToolCall {
            id: "c1".into(),
            name: "lookup".into(),
            arguments: "{}".into(),
        }));
        assert!(without_hidden_thoughts(&history).is_none());
        assert!(without_hidden_thoughts(&tests::history()).is_none());
    }

    #[test]
    fn stripped_thoughts_do_not_count() {
        let with = ReasoningSettings {
            include_in_context: true,
            ..ReasoningSettings::default()
        };
        let without = ReasoningSettings::default();
        let model = crate::catalog::Catalog::builtin()
            .resolve(Some("anthropic"), "claude-sonnet-4-5")
            .unwrap();
        assert!(
            effective_tokens(&history(), &with, &model).tokens
                > effective_tokens(&history(), &without, &model).tokens
        );
    }

    #[test]
    fn seed_001_strip_then_include() {
        assert_eq!(sent(StripFromContext::AllButLast, true), ["T3"]);
        assert_eq!(
            sent(StripFromContext::AllButLast, false),
            Vec::<&str>::new()
        );
        assert_eq!(sent(StripFromContext::None, true), ["T1", "T2", "T3"]);
        assert_eq!(sent(StripFromContext::All, true), Vec::<&str>::new());
        assert_eq!(
            sent(StripFromContext::None, false),
            Vec::<&str>::new(),
            "the default sends none"
        );
    }
}
