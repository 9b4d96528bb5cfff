//! Bytes of a provider response in, neutral events out: the framing (SSE or NDJSON) and the
//! protocol's event mapper, joined. The HTTP layer feeds whatever chunks the network gives.

use crate::chat::{ChatEvent, Replay, ThoughtSource};

use super::ndjson::NdjsonDecoder;
use super::sse::SseDecoder;
use super::{anthropic, gemini, ollama, openai_chat, openai_responses};

/// A protocol's event mapper, chosen by a `match` rather than a trait object.
#[derive(Debug)]
pub enum Mapper {
    Anthropic(anthropic::EventMapper),
    OpenaiChat(openai_chat::EventMapper),
    OpenaiResponses(openai_responses::EventMapper),
    Gemini(gemini::EventMapper),
    Ollama(ollama::EventMapper),
}

impl Mapper {
    fn on_data(&mut self, data: &str, out: &mut Vec<ChatEvent>) {
        match self {
            Self::Anthropic(m) => m.on_data(data, out),
            Self::OpenaiChat(m) => m.on_data(data, out),
            Self::OpenaiResponses(m) => m.on_data(data, out),
            Self::Gemini(m) => m.on_data(data, out),
            Self::Ollama(m) => m.on_line(data, out),
        }
    }

    fn finish(&mut self, out: &mut Vec<ChatEvent>) -> Option<Replay> {
        match self {
            Self::Anthropic(m) => m.finish(),
            Self::OpenaiChat(m) => m.finish(out),
            Self::OpenaiResponses(m) => m.finish(),
            Self::Gemini(m) => m.finish(out),
            Self::Ollama(m) => m.finish(),
        }
    }

    /// Whether the stream said it was complete (`[DONE]`, `message_stop`, a finish reason…).
    pub fn completed(&self) -> bool {
        match self {
            Self::Anthropic(m) => m.completed(),
            Self::OpenaiChat(m) => m.completed(),
            Self::OpenaiResponses(m) => m.completed(),
            Self::Gemini(m) => m.completed(),
            Self::Ollama(m) => m.completed(),
        }
    }

    /// What to call thoughts whose provider never named their source.
    pub fn default_source(&self) -> ThoughtSource {
        match self {
            Self::Anthropic(_) => ThoughtSource::Thinking,
            Self::OpenaiChat(_) => ThoughtSource::ReasoningContent,
            Self::OpenaiResponses(_) => ThoughtSource::Summary,
            Self::Gemini(_) => ThoughtSource::Thought,
            Self::Ollama(_) => ThoughtSource::Reasoning,
        }
    }

    fn framing(&self) -> Framing {
        match self {
            Self::Ollama(_) => Framing::Ndjson(NdjsonDecoder::new()),
            _ => Framing::Sse(SseDecoder::new()),
        }
    }
}

#[derive(Debug)]
enum Framing {
    Sse(SseDecoder),
    Ndjson(NdjsonDecoder),
}

#[derive(Debug)]
pub struct StreamDecoder {
    framing: Framing,
    mapper: Mapper,
    lines: Vec<String>,
}

impl StreamDecoder {
    pub fn new(mapper: Mapper) -> Self {
        Self {
            framing: mapper.framing(),
            mapper,
            lines: Vec::new(),
        }
    }

    pub fn mapper(&self) -> &Mapper {
        &self.mapper
    }

    /// Decodes a chunk: each SSE event goes to the mapper straight from the framing's
    /// buffers, with nothing allocated for it on the way.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<ChatEvent>) {
        let mapper = &mut self.mapper;
        match &mut self.framing {
            Framing::Sse(decoder) => {
                decoder.feed_each(bytes, |event| mapper.on_data(event.data, out));
            }
            Framing::Ndjson(decoder) => {
                decoder.feed(bytes, &mut self.lines);
                for line in self.lines.drain(..) {
                    mapper.on_data(&line, out);
                }
            }
        }
    }

    /// End of the body: flushes what is held back and returns the turn for replay.
    pub fn finish(&mut self, out: &mut Vec<ChatEvent>) -> Option<Replay> {
        let mapper = &mut self.mapper;
        match &mut self.framing {
            Framing::Sse(decoder) => {
                decoder.finish_each(|event| mapper.on_data(event.data, out));
            }
            Framing::Ndjson(decoder) => {
                decoder.finish(&mut self.lines);
                for line in self.lines.drain(..) {
                    mapper.on_data(&line, out);
                }
            }
        }
        self.mapper.finish(out)
    }

    pub fn completed(&self) -> bool {
        self.mapper.completed()
    }

    /// Bytes held for an event or line that has not ended yet. A provider (or anything in the
    /// middle) that never ends one would otherwise grow this without bound; the turn stops
    /// past [`MAX_EVENT_BYTES`].
    pub fn held_bytes(&self) -> usize {
        match &self.framing {
            Framing::Sse(decoder) => decoder.held_bytes(),
            Framing::Ndjson(decoder) => decoder.held_bytes(),
        }
    }
}

/// The most one SSE event or NDJSON line may hold. The largest real events are a whole
/// answer's encrypted reasoning or a long thought in one piece: a few MiB at most.
pub const MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;

/// Adds thinking text to `out`, joined to a thinking delta just before it. A chunk of a fast
/// stream holds hundreds of deltas; joined as they are read, they cost one allocation per
/// chunk instead of one each (what [`join_deltas`] would do afterwards, without the copies).
pub fn push_thinking(out: &mut Vec<ChatEvent>, text: &str) {
    match out.last_mut() {
        Some(ChatEvent::ThinkingDelta { text: last }) => last.push_str(text),
        _ => out.push(ChatEvent::ThinkingDelta {
            text: text.to_owned(),
        }),
    }
}

/// A JSON object holding `entries` themselves, for a finished turn's replay. `json!` takes
/// what it is given by reference and copies every string in it: megabytes of thought.
pub fn owned_object<const N: usize>(entries: [(&str, serde_json::Value); N]) -> serde_json::Value {
    serde_json::Value::Object(
        entries
            .into_iter()
            .map(|(key, value)| (key.to_owned(), value))
            .collect(),
    )
}

/// [`push_thinking`] for the answer's text.
pub fn push_text(out: &mut Vec<ChatEvent>, text: &str) {
    match out.last_mut() {
        Some(ChatEvent::TextDelta { text: last }) => last.push_str(text),
        _ => out.push(ChatEvent::TextDelta {
            text: text.to_owned(),
        }),
    }
}

/// Joins each thinking or text delta to one of the same kind just before it. A chunk of a
/// fast stream holds hundreds of deltas that arrived together; joined, the draft, the store's
/// saves and whoever follows the turn (the window, the terminal) work per chunk, not per token.
pub fn join_deltas(events: &mut Vec<ChatEvent>) {
    if events.len() < 2 {
        return;
    }
    let mut joined: Vec<ChatEvent> = Vec::with_capacity(events.len());
    for event in events.drain(..) {
        match (joined.last_mut(), event) {
            (Some(ChatEvent::ThinkingDelta { text }), ChatEvent::ThinkingDelta { text: more })
            | (Some(ChatEvent::TextDelta { text }), ChatEvent::TextDelta { text: more }) => {
                text.push_str(&more);
            }
            (_, event) => joined.push(event),
        }
    }
    *events = joined;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::ThoughtSource;
    #[test]
    fn deltas_that_arrived_together_are_joined_by_kind_in_order() {
        let thinking = |t: &str| ChatEvent::ThinkingDelta { text: t.into() };
        let text = |t: &str| ChatEvent::TextDelta { text: t.into() };
        let mut events = vec![
            ChatEvent::ThinkingStart {
                source: ThoughtSource::Thinking,
            },
            thinking("a"),
            thinking("b"),
            thinking("c"),
            ChatEvent::ThinkingEnd,
            text("x"),
            text("y"),
            thinking("after"),
            text("z"),
        ];
        join_deltas(&mut events);
        assert_eq!(
            events,
            [
                ChatEvent::ThinkingStart {
                    source: ThoughtSource::Thinking
                },
                thinking("abc"),
                ChatEvent::ThinkingEnd,
                text("xy"),
                thinking("after"),
                text("z"),
            ]
        );
        let mut pushed = vec![ChatEvent::ThinkingEnd];
        for (think, t) in [
            (true, "a"),
            (true, "b"),
            (false, "x"),
            (false, "y"),
            (true, "c"),
        ] {
            if think {
                push_thinking(&mut pushed, t);
            } else {
                push_text(&mut pushed, t);
            }
        }
        assert_eq!(
            pushed,
            [
                ChatEvent::ThinkingEnd,
                thinking("ab"),
                text("xy"),
                thinking("c")
            ]
        );
        let mut one = vec![text("alone")];
        join_deltas(&mut one);
        assert_eq!(one, [text("alone")]);
    }
}
