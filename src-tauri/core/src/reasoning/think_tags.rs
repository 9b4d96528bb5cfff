//! Splits a streamed `content` field into reasoning and answer for models that write their
//! reasoning inline as `<think>…</think>` (DeepSeek-R1 and its distills, QwQ, open-weight
//! Qwen3 without a reasoning parser, MiniMax M2, Kimi K2 on some gateways).
//!
//! Only a leading think block counts. A `<think>` after the answer has started, or a second one
//! after `</think>`, is the model talking about the tag, so it stays text. That also keeps an
//! answer that explains `</think>` inside a code block intact.

use std::mem;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Reasoning(String),
    Content(String),
}

/// How the stream ended, for the caller to judge what unclosed reasoning really was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitEnd {
    /// Reasoning was open (prefilled or opened) and never closed.
    pub unclosed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Reasoning,
    Content,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Nothing but whitespace so far: an opening tag may still come. With `prefilled` the text
    /// is already reasoning and a repeated opening tag is dropped.
    Start { prefilled: bool },
    /// Just after a tag: one `\n` or `\r\n` there is part of the tag's line, not text.
    AfterTag { next: Kind },
    /// Inside reasoning, looking for the closing tag.
    Reasoning,
    /// The answer: no tag means anything any more.
    Content,
}

/// One instance per streamed message.
#[derive(Debug, Clone)]
pub struct ThinkSplitter {
    open: &'static str,
    close: &'static str,
    prefilled: bool,
    phase: Phase,
    /// Text that may still turn out to be (part of) a tag or of its line end.
    held: String,
}

impl ThinkSplitter {
    /// `open`/`close` tags, e.g. "<think>" / "</think>". `prefilled`: the template already
    /// opened the tag (DeepSeek-R1 / Qwen3 style), so the stream starts inside reasoning.
    pub fn new(open: &'static str, close: &'static str, prefilled: bool) -> Self {
        Self {
            open,
            close,
            prefilled,
            phase: Phase::Start { prefilled },
            held: String::new(),
        }
    }

    /// `<think>…</think>`, not prefilled.
    pub fn think() -> Self {
        Self::new("<think>", "</think>", false)
    }

    /// Splits one delta. Within the call, adjacent pieces of the same kind are merged.
    pub fn push(&mut self, delta: &str, out: &mut Vec<Segment>) {
        let mut sink = Sink::new(out);
        if self.held.is_empty() {
            let consumed = self.advance(delta, &mut sink);
            self.held.push_str(&delta[consumed..]);
        } else {
            let mut text = mem::take(&mut self.held);
            text.push_str(delta);
            let consumed = self.advance(&text, &mut sink);
            // Reuse the buffer for what is still held back.
            text.drain(..consumed);
            self.held = text;
        }
    }

    /// End of stream: held-back text is flushed as text of the current mode, and the splitter
    /// is reset for a new message.
    pub fn finish(&mut self, out: &mut Vec<Segment>) -> SplitEnd {
        let kind = match self.phase {
            Phase::Start { prefilled: true } | Phase::Reasoning => Kind::Reasoning,
            Phase::AfterTag { next } => next,
            Phase::Start { prefilled: false } | Phase::Content => Kind::Content,
        };
        let unclosed = kind == Kind::Reasoning;
        Sink::new(out).emit(kind, &self.held);
        *self = Self::new(self.open, self.close, self.prefilled);
        SplitEnd { unclosed }
    }

    /// Emits what `text` decides and returns how many bytes of it were consumed; the rest
    /// must be held until more text arrives.
    fn advance(&mut self, text: &str, sink: &mut Sink<'_>) -> usize {
        let mut pos = 0;
        loop {
            let rest = &text[pos..];
            match self.phase {
                Phase::Content => {
                    sink.emit(Kind::Content, rest);
                    return text.len();
                }
                Phase::Reasoning => match rest.find(self.close) {
                    Some(at) => {
                        sink.emit(Kind::Reasoning, &rest[..at]);
                        pos += at + self.close.len();
                        self.phase = Phase::AfterTag {
                            next: Kind::Content,
                        };
                    }
                    None => {
                        let keep = partial_tag_at_end(rest, self.close);
                        sink.emit(Kind::Reasoning, &rest[..rest.len() - keep]);
                        return text.len() - keep;
                    }
                },
                Phase::Start { prefilled } => {
                    let after_space = rest.trim_start();
                    if after_space.starts_with(self.open) {
                        // The whitespace before the tag goes with it.
                        pos += rest.len() - after_space.len() + self.open.len();
                        self.phase = Phase::AfterTag {
                            next: Kind::Reasoning,
                        };
                    } else if self.open.starts_with(after_space) {
                        return pos;
                    } else {
                        // Held whitespace and text go to whatever the stream turned out to be.
                        self.phase = if prefilled {
                            Phase::Reasoning
                        } else {
                            Phase::Content
                        };
                    }
                }
                Phase::AfterTag { next } => {
                    if rest.is_empty() || rest == "\r" {
                        return pos;
                    }
                    if rest.starts_with('\n') {
                        pos += 1;
                    } else if rest.starts_with("\r\n") {
                        pos += 2;
                    }
                    self.phase = match next {
                        Kind::Reasoning => Phase::Reasoning,
                        Kind::Content => Phase::Content,
                    };
                }
            }
        }
    }
}

/// Length of the longest end of `text` that begins `tag` without being all of it: the part
/// that must wait for the next delta to tell whether the tag is there.
fn partial_tag_at_end(text: &str, tag: &str) -> usize {
    let longest = text.len().min(tag.len().saturating_sub(1));
    // A match starts where `tag` starts, so on a character boundary: slicing it is safe.
    (1..=longest)
        .rev()
        .find(|&len| {
            tag.as_bytes()
                .starts_with(&text.as_bytes()[text.len() - len..])
        })
        .unwrap_or(0)
}

/// Appends to `out`, merging with the previous segment when it is of the same kind and was
/// produced by the same call, so that segments already handed out are never changed.
struct Sink<'a> {
    out: &'a mut Vec<Segment>,
    first_new: usize,
}

impl<'a> Sink<'a> {
    fn new(out: &'a mut Vec<Segment>) -> Self {
        let first_new = out.len();
        Self { out, first_new }
    }

    fn emit(&mut self, kind: Kind, text: &str) {
        if text.is_empty() {
            return;
        }
        if self.out.len() > self.first_new {
            match (kind, self.out.last_mut()) {
                (Kind::Reasoning, Some(Segment::Reasoning(last)))
                | (Kind::Content, Some(Segment::Content(last))) => {
                    last.push_str(text);
                    return;
                }
                _ => {}
            }
        }
        self.out.push(match kind {
            Kind::Reasoning => Segment::Reasoning(text.to_owned()),
            Kind::Content => Segment::Content(text.to_owned()),
        });
    }
}

#[cfg(test)]
mod tests;
