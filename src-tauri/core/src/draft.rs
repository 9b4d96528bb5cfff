//! Folds a provider's events into the assistant message, normalising the event sequence on
//! the way: a thinking block always starts before its first delta and ends before the answer,
//! whatever the provider sent.

use crate::chat::{
    ChatEvent, Message, Origin, Part, Replay, Role, StopReason, ThinkingBlock, ThoughtSource, Usage,
};
use crate::providers::error::ProviderError;

/// The assistant message while it streams.
#[derive(Debug, Clone)]
pub struct Draft {
    parts: Vec<Part>,
    usage: Usage,
    stop: Option<StopReason>,
    error: Option<ProviderError>,
    /// Index into `parts` of the open thinking block, and when it opened.
    open: Option<(usize, u64)>,
    default_source: ThoughtSource,
    origin: Origin,
}

/// The finished assistant turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub message: Message,
    pub usage: Usage,
    pub stop: Option<StopReason>,
    pub error: Option<ProviderError>,
}

impl Draft {
    /// `default_source` names thoughts whose provider never said where they came from.
    pub fn new(origin: Origin, default_source: ThoughtSource) -> Self {
        Self {
            parts: Vec::new(),
            usage: Usage::default(),
            stop: None,
            error: None,
            open: None,
            default_source,
            origin,
        }
    }

    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    pub fn stop(&self) -> Option<&StopReason> {
        self.stop.as_ref()
    }

    pub fn has_text(&self) -> bool {
        self.parts
            .iter()
            .any(|p| matches!(p, Part::Text { text } if !text.trim().is_empty()))
    }

    /// Applies one event at `elapsed_ms` since the request began, appending the normalised
    /// events (with any synthesized start or end) to `out`.
    pub fn apply(&mut self, event: ChatEvent, elapsed_ms: u64, out: &mut Vec<ChatEvent>) {
        match event {
            ChatEvent::ThinkingStart { source } => {
                self.close(elapsed_ms, out);
                self.open(source, elapsed_ms, out);
            }
            ChatEvent::ThinkingDelta { text } => {
                if text.is_empty() {
                    return;
                }
                let block = self.ensure_open(elapsed_ms, out);
                block.text.push_str(&text);
                out.push(ChatEvent::ThinkingDelta { text });
            }
            ChatEvent::ThinkingSignature { signature } => {
                let block = self.ensure_open(elapsed_ms, out);
                block.signature = Some(signature.clone());
                out.push(ChatEvent::ThinkingSignature { signature });
            }
            ChatEvent::ThinkingData { data } => {
                let block = match self.open {
                    Some(_) => self.ensure_open(elapsed_ms, out),
                    None => match self.last_thinking() {
                        Some(block) => block,
                        None => self.ensure_open(elapsed_ms, out),
                    },
                };
                block.provider_data = Some(data.clone());
                out.push(ChatEvent::ThinkingData { data });
            }
            ChatEvent::ThinkingRedacted { data } => {
                self.close(elapsed_ms, out);
                self.parts.push(Part::Thinking(ThinkingBlock {
                    source: Some(ThoughtSource::Thinking),
                    redacted: Some(data.clone()),
                    ..ThinkingBlock::default()
                }));
                out.push(ChatEvent::ThinkingRedacted { data });
            }
            ChatEvent::ThinkingEnd => self.close(elapsed_ms, out),
            ChatEvent::TextDelta { text } => {
                if text.is_empty() {
                    return;
                }
                self.close(elapsed_ms, out);
                match self.parts.last_mut() {
                    Some(Part::Text { text: last }) => last.push_str(&text),
                    _ => self.parts.push(Part::Text { text: text.clone() }),
                }
                out.push(ChatEvent::TextDelta { text });
            }
            ChatEvent::ToolCall(call) => {
                self.close(elapsed_ms, out);
                self.parts.push(Part::ToolCall(call.clone()));
                out.push(ChatEvent::ToolCall(call));
            }
            ChatEvent::Usage(usage) => {
                self.usage.merge(usage);
                out.push(ChatEvent::Usage(self.usage));
            }
            ChatEvent::Stop(reason) => {
                let thinking_open = self.open.is_some();
                self.close(elapsed_ms, out);
                let reason = match reason {
                    StopReason::MaxTokens { .. } => StopReason::MaxTokens {
                        while_thinking: thinking_open || !self.has_text(),
                    },
                    other => other,
                };
                self.stop = Some(reason.clone());
                out.push(ChatEvent::Stop(reason));
            }
            ChatEvent::Error(error) => {
                self.close(elapsed_ms, out);
                self.error = Some(error.clone());
                out.push(ChatEvent::Error(error));
            }
        }
    }

    /// Ends the turn: closes an open block and drops thoughts with nothing in them.
    /// Names where thoughts come from when the provider does not say, once the protocol is
    /// known (the draft may be made before it is).
    pub fn set_default_source(&mut self, source: ThoughtSource) {
        self.default_source = source;
    }

    /// `finish` for a draft shared behind a lock: the answer moves out, an empty draft of
    /// the same origin stays.
    pub fn take_finished(
        &mut self,
        elapsed_ms: u64,
        replay: Option<Replay>,
    ) -> (Turn, Vec<ChatEvent>) {
        let empty = Self::new(self.origin.clone(), self.default_source);
        std::mem::replace(self, empty).finish(elapsed_ms, replay)
    }

    pub fn finish(mut self, elapsed_ms: u64, replay: Option<Replay>) -> (Turn, Vec<ChatEvent>) {
        let mut out = Vec::new();
        self.close(elapsed_ms, &mut out);
        self.parts.retain(|part| match part {
            Part::Thinking(b) => {
                !b.text.trim().is_empty()
                    || b.signature.is_some()
                    || b.redacted.is_some()
                    || b.provider_data.is_some()
            }
            Part::Text { text } => !text.is_empty(),
            Part::ToolCall(_) | Part::ToolResult(_) | Part::Attachment(_) => true,
        });
        let turn = Turn {
            message: Message {
                role: Role::Assistant,
                parts: self.parts,
                origin: Some(self.origin),
                replay,
            },
            usage: self.usage,
            stop: self.stop,
            error: self.error,
        };
        (turn, out)
    }

    fn open(&mut self, source: ThoughtSource, elapsed_ms: u64, out: &mut Vec<ChatEvent>) {
        self.parts.push(Part::Thinking(ThinkingBlock {
            source: Some(source),
            ..ThinkingBlock::default()
        }));
        self.open = Some((self.parts.len() - 1, elapsed_ms));
        out.push(ChatEvent::ThinkingStart { source });
    }

    fn ensure_open(&mut self, elapsed_ms: u64, out: &mut Vec<ChatEvent>) -> &mut ThinkingBlock {
        if self.open.is_none() {
            self.open(self.default_source, elapsed_ms, out);
        }
        let (index, _) = self.open.expect("opened above");
        match &mut self.parts[index] {
            Part::Thinking(block) => block,
            _ => unreachable!("open always indexes a thinking part"),
        }
    }

    fn last_thinking(&mut self) -> Option<&mut ThinkingBlock> {
        self.parts.iter_mut().rev().find_map(|p| match p {
            Part::Thinking(block) if !block.is_redacted() => Some(block),
            _ => None,
        })
    }

    fn close(&mut self, elapsed_ms: u64, out: &mut Vec<ChatEvent>) {
        let Some((index, started)) = self.open.take() else {
            return;
        };
        if let Part::Thinking(block) = &mut self.parts[index] {
            block.duration_ms = Some(elapsed_ms.saturating_sub(started));
            block.token_estimate = Some(estimate_tokens(&block.text));
        }
        out.push(ChatEvent::ThinkingEnd);
    }
}

/// A stated estimate where no tokenizer is at hand: about four characters a token.
pub fn estimate_tokens(text: &str) -> u32 {
    u32::try_from(text.chars().count().div_ceil(4)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin() -> Origin {
        Origin {
            provider: "deepseek".into(),
            model: "deepseek-reasoner".into(),
        }
    }

    fn run(events: Vec<ChatEvent>) -> (Turn, Vec<ChatEvent>) {
        let mut draft = Draft::new(origin(), ThoughtSource::ReasoningContent);
        let mut out = Vec::new();
        for (t, event) in events.into_iter().enumerate() {
            draft.apply(event, t as u64 * 10, &mut out);
        }
        let (turn, tail) = draft.finish(1000, None);
        out.extend(tail);
        (turn, out)
    }

    fn delta(text: &str) -> ChatEvent {
        ChatEvent::ThinkingDelta { text: text.into() }
    }

    fn text(text: &str) -> ChatEvent {
        ChatEvent::TextDelta { text: text.into() }
    }

    #[test]
    fn a_start_is_synthesized_and_the_block_ends_when_the_answer_begins() {
        let (turn, out) = run(vec![
            delta("Let me"),
            delta(" think"),
            text("Hi"),
            text("!"),
        ]);
        assert_eq!(
            out,
            vec![
                ChatEvent::ThinkingStart {
                    source: ThoughtSource::ReasoningContent
                },
                delta("Let me"),
                delta(" think"),
                ChatEvent::ThinkingEnd,
                text("Hi"),
                text("!"),
            ]
        );
        let blocks: Vec<_> = turn.message.thinking().collect();
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].text, "Let me think");
        assert_eq!(
            blocks[0].duration_ms,
            Some(20),
            "from the first delta to the first text"
        );
        assert_eq!(turn.message.text(), "Hi!");
    }

    #[test]
    fn max_tokens_before_any_answer_means_ran_out_while_thinking() {
        let (turn, _) = run(vec![
            delta("hmm"),
            ChatEvent::Stop(StopReason::MaxTokens {
                while_thinking: false,
            }),
        ]);
        assert_eq!(
            turn.stop,
            Some(StopReason::MaxTokens {
                while_thinking: true
            })
        );
        let (turn, _) = run(vec![
            delta("hmm"),
            text("The answer"),
            ChatEvent::Stop(StopReason::MaxTokens {
                while_thinking: false,
            }),
        ]);
        assert_eq!(
            turn.stop,
            Some(StopReason::MaxTokens {
                while_thinking: false
            })
        );
    }

    #[test]
    fn empty_thoughts_are_dropped_but_signed_or_redacted_ones_kept() {
        let (turn, _) = run(vec![
            ChatEvent::ThinkingStart {
                source: ThoughtSource::Thinking,
            },
            ChatEvent::ThinkingEnd,
            ChatEvent::ThinkingStart {
                source: ThoughtSource::Thinking,
            },
            ChatEvent::ThinkingSignature {
                signature: "sig".into(),
            },
            ChatEvent::ThinkingEnd,
            ChatEvent::ThinkingRedacted {
                data: "opaque".into(),
            },
            text("ok"),
        ]);
        let blocks: Vec<_> = turn.message.thinking().collect();
        assert_eq!(blocks.len(), 2, "{blocks:?}");
        assert_eq!(blocks[0].signature.as_deref(), Some("sig"));
        assert_eq!(blocks[1].redacted.as_deref(), Some("opaque"));
    }

    #[test]
    fn provider_data_after_the_block_attaches_to_the_last_thought() {
        let (turn, _) = run(vec![
            delta("thinking"),
            text("answer"),
            ChatEvent::ThinkingData {
                data: serde_json::json!({"thoughtSignature": "abc"}),
            },
        ]);
        let block = turn.message.thinking().next().unwrap();
        assert_eq!(
            block.provider_data,
            Some(serde_json::json!({"thoughtSignature": "abc"}))
        );
        assert_eq!(turn.message.parts.len(), 2, "no new block for late data");
    }

    #[test]
    fn usage_merges_field_by_field() {
        let (turn, _) = run(vec![
            ChatEvent::Usage(Usage {
                input: Some(10),
                ..Usage::default()
            }),
            ChatEvent::Usage(Usage {
                output: Some(50),
                reasoning: Some(30),
                ..Usage::default()
            }),
        ]);
        assert_eq!(
            turn.usage,
            Usage {
                input: Some(10),
                output: Some(50),
                reasoning: Some(30),
                cached: None
            }
        );
    }
}
