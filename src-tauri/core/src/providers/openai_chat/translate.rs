//! OpenAI Chat Completions and every compatible vendor: events back to Ponder's.
//!
//! Reasoning arrives in whichever field the vendor uses: `reasoning_content` (DeepSeek, Kimi,
//! Qwen, GLM, xAI, llama.cpp), `reasoning` (OpenRouter, Ollama's /v1, vLLM),
//! `reasoning_details` (OpenRouter, MiniMax), Mistral's typed `thinking` parts, or inline
//! `<think>` tags in the content.

use serde_json::{Map, Value, json};

use super::wire::{Chunk, Content, ContentPart, Delta, WireUsage};
use crate::chat::{ChatEvent, Replay, StopReason, ThoughtSource, ToolCall, Usage};
use crate::providers::error::{ProviderError, from_stream_error};
use crate::providers::stream::{push_text, push_thinking};
use crate::reasoning::think_tags::{Segment, ThinkSplitter};

/// More tool calls than any model makes in one answer; the index of a call comes from the
/// wire, so it keys calls rather than sizing a list.
const MAX_TOOL_CALLS: usize = 256;

#[derive(Debug, Default)]
struct PendingCall {
    /// The call's `index` as the vendor numbered it.
    index: usize,
    id: String,
    name: String,
    arguments: String,
    /// `extra_content` as the vendor sent it, returned on the call unchanged.
    extra: Option<Value>,
}

/// Whether the answer's text may carry thoughts inline, besides `reasoning_content`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InlineThoughts {
    /// The text is the answer (OpenAI).
    #[default]
    None,
    /// `<think>…</think>` in the text is thought.
    Tagged,
    /// As `Tagged`, but the model's template opened `<think>` already: the text starts
    /// inside the thoughts.
    TaggedFromStart,
}

#[derive(Debug)]
pub struct EventMapper {
    provider: String,
    model: String,
    splitter: Option<ThinkSplitter>,
    segments: Vec<Segment>,
    /// The content exactly as received, think tags included (MiniMax wants it back verbatim).
    content: String,
    reasoning: String,
    reasoning_source: Option<ThoughtSource>,
    details: Vec<Value>,
    /// Copilot's `reasoning_opaque`, as received (it comes whole, usually on the last chunk).
    opaque: String,
    calls: Vec<PendingCall>,
    calls_sent: bool,
    too_many_calls: bool,
    /// An encrypted reasoning piece arrived in the chunk being read.
    encrypted: bool,
    pub(super) done: bool,
}

impl EventMapper {
    pub fn new(provider: &str, model: &str, inline: InlineThoughts) -> Self {
        let splitter = match inline {
            InlineThoughts::None => None,
            InlineThoughts::Tagged => Some(ThinkSplitter::new("<think>", "</think>", false)),
            InlineThoughts::TaggedFromStart => {
                Some(ThinkSplitter::new("<think>", "</think>", true))
            }
        };
        Self {
            provider: provider.to_owned(),
            model: model.to_owned(),
            splitter,
            segments: Vec::new(),
            content: String::new(),
            reasoning: String::new(),
            reasoning_source: None,
            details: Vec::new(),
            opaque: String::new(),
            calls: Vec::new(),
            calls_sent: false,
            too_many_calls: false,
            encrypted: false,
            done: false,
        }
    }

    pub fn on_data(&mut self, data: &str, out: &mut Vec<ChatEvent>) {
        if data.trim() == "[DONE]" {
            self.done = true;
            return;
        }
        match serde_json::from_str::<Chunk>(data) {
            Ok(chunk) => self.on_chunk(chunk, false, out),
            Err(err) => out.push(ChatEvent::Error(ProviderError::unreadable(
                &self.provider,
                &err,
                data,
            ))),
        }
    }

    pub(super) fn on_chunk(&mut self, chunk: Chunk, whole: bool, out: &mut Vec<ChatEvent>) {
        if let Some(model) = chunk.model.filter(|m| !m.is_empty()) {
            self.model = model;
        }
        for choice in chunk.choices.into_iter().filter(|c| c.index == 0) {
            if let Some(delta) = choice.delta.or(choice.message) {
                self.on_delta(delta, whole, out);
            }
            if let Some(reason) = choice.finish_reason {
                self.flush_calls(out);
                out.push(ChatEvent::Stop(stop_reason(&reason)));
            }
        }
        if let Some(usage) = chunk.usage {
            out.push(ChatEvent::Usage(usage_of(usage)));
        }
        if let Some(error) = chunk.error {
            out.push(ChatEvent::Error(from_stream_error(
                &self.provider,
                &json!({ "error": error }),
            )));
        }
    }

    fn on_delta(&mut self, delta: Delta, whole: bool, out: &mut Vec<ChatEvent>) {
        // Vendors that send both `reasoning` and `reasoning_details` repeat the same text;
        // the plain field is the text, the details are kept for replay.
        let details_text = delta
            .reasoning_details
            .as_ref()
            .map(|d| self.merge_details(d, whole));
        let reasoning = match (
            delta.reasoning_content,
            delta.reasoning,
            delta.reasoning_text,
        ) {
            (Some(text), _, _) if !text.is_empty() => Some((text, ThoughtSource::ReasoningContent)),
            (_, Some(text), _) if !text.is_empty() => Some((text, ThoughtSource::Reasoning)),
            (_, _, Some(text)) if !text.is_empty() => Some((text, ThoughtSource::ReasoningText)),
            _ => details_text
                .filter(|t| !t.is_empty())
                .map(|t| (t, ThoughtSource::ReasoningDetails)),
        };
        if let Some((text, source)) = reasoning {
            self.think(source, text, out);
        }
        if let Some(opaque) = delta.reasoning_opaque.filter(|o| !o.is_empty()) {
            self.opaque.push_str(&opaque);
        }
        if std::mem::take(&mut self.encrypted) {
            // Encrypted reasoning has no text to show, but it is a thought all the same.
            if self.reasoning_source.is_none() {
                self.reasoning_source = Some(ThoughtSource::ReasoningDetails);
                out.push(ChatEvent::ThinkingStart {
                    source: ThoughtSource::ReasoningDetails,
                });
            }
            out.push(ChatEvent::ThinkingData {
                data: json!({ "reasoning_details": self.details }),
            });
        }
        match delta.content {
            Some(Content::Text(text)) => self.content_text(&text, out),
            Some(Content::Parts(parts)) => {
                for part in parts {
                    match part {
                        ContentPart::Text { text } => self.content_text(&text, out),
                        ContentPart::Thinking { thinking } => {
                            let text: String = thinking.into_iter().map(|p| p.text).collect();
                            self.think(ThoughtSource::Thinking, text, out);
                        }
                        ContentPart::Other => {}
                    }
                }
            }
            None => {}
        }
        if let Some(refusal) = delta.refusal.filter(|r| !r.is_empty()) {
            self.content_text(&refusal, out);
        }
        for call in delta.tool_calls.into_iter().flatten() {
            // A piece without an index continues the latest call (some vendors omit it).
            let index = call
                .index
                .or_else(|| self.calls.last().map(|c| c.index))
                .unwrap_or(0);
            let position = match self.calls.iter().position(|c| c.index == index) {
                Some(position) => position,
                None if self.calls.len() < MAX_TOOL_CALLS => {
                    self.calls.push(PendingCall {
                        index,
                        ..PendingCall::default()
                    });
                    self.calls.len() - 1
                }
                None => {
                    if !self.too_many_calls {
                        self.too_many_calls = true;
                        out.push(ChatEvent::Error(ProviderError::decode(
                            &self.provider,
                            format!("the provider sent more than {MAX_TOOL_CALLS} tool calls in one answer"),
                        )));
                    }
                    continue;
                }
            };
            let pending = &mut self.calls[position];
            if let Some(id) = call.id {
                pending.id = id;
            }
            if let Some(extra) = call.extra_content.filter(|e| !e.is_null()) {
                pending.extra = Some(extra);
            }
            if let Some(function) = call.function {
                if let Some(name) = function.name {
                    pending.name.push_str(&name);
                }
                if let Some(arguments) = function.arguments {
                    pending.arguments.push_str(&arguments);
                }
            }
        }
    }

    fn think(&mut self, source: ThoughtSource, text: String, out: &mut Vec<ChatEvent>) {
        if self.reasoning_source.is_none() {
            self.reasoning_source = Some(source);
            out.push(ChatEvent::ThinkingStart { source });
        }
        self.reasoning.push_str(&text);
        push_thinking(out, &text);
    }

    fn content_text(&mut self, text: &str, out: &mut Vec<ChatEvent>) {
        if text.is_empty() {
            return;
        }
        self.content.push_str(text);
        match &mut self.splitter {
            None => push_text(out, text),
            Some(splitter) => {
                splitter.push(text, &mut self.segments);
                self.emit_segments(out);
            }
        }
    }

    fn emit_segments(&mut self, out: &mut Vec<ChatEvent>) {
        for segment in std::mem::take(&mut self.segments) {
            match segment {
                Segment::Reasoning(text) => self.think(ThoughtSource::ThinkTag, text, out),
                Segment::Content(text) => push_text(out, &text),
            }
        }
    }

    /// Merges `reasoning_details` pieces by `index` and `type`, concatenating text (or taking
    /// the new suffix where a vendor repeats the whole text so far, as MiniMax does), and
    /// returns the new reasoning text.
    fn merge_details(&mut self, pieces: &[Value], whole: bool) -> String {
        let mut new_text = String::new();
        for piece in pieces {
            let Value::Object(piece) = piece else {
                continue;
            };
            let index = piece.get("index").and_then(Value::as_u64);
            let kind = piece
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            let text_key = if kind == "reasoning.summary" {
                "summary"
            } else {
                "text"
            };
            let text = piece.get(text_key).and_then(Value::as_str).unwrap_or("");
            let existing = self.details.iter_mut().find(|d| {
                d.get("index").and_then(Value::as_u64) == index
                    && d.get("type").and_then(Value::as_str) == Some(kind.as_str())
            });
            match existing {
                Some(Value::Object(merged)) if !whole => {
                    let so_far = merged
                        .get(text_key)
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned();
                    let suffix = match text.strip_prefix(so_far.as_str()) {
                        Some(rest) if !so_far.is_empty() => rest,
                        _ => text,
                    };
                    merged.insert(text_key.into(), Value::String(format!("{so_far}{suffix}")));
                    new_text.push_str(suffix);
                    for (key, value) in piece {
                        let empty = value.is_null() || value.as_str().is_some_and(str::is_empty);
                        if key != text_key && !empty {
                            merged.insert(key.clone(), value.clone());
                        }
                    }
                }
                _ => {
                    new_text.push_str(text);
                    self.details.push(Value::Object(piece.clone()));
                    if kind == "reasoning.encrypted" {
                        self.encrypted = true;
                    }
                }
            }
        }
        new_text
    }

    fn flush_calls(&mut self, out: &mut Vec<ChatEvent>) {
        if self.calls_sent {
            return;
        }
        self.calls_sent = true;
        // Vendors number calls in the order they make them; keep that order, not arrival's.
        self.calls.sort_by_key(|c| c.index);
        for call in &self.calls {
            out.push(ChatEvent::ToolCall(ToolCall {
                id: call.id.clone(),
                name: call.name.clone(),
                arguments: call.arguments.clone(),
            }));
        }
    }

    /// Flushes what is held back and returns the assistant message as the vendor sent it.
    pub fn finish(&mut self, out: &mut Vec<ChatEvent>) -> Option<Replay> {
        if let Some(splitter) = &mut self.splitter {
            splitter.finish(&mut self.segments);
            self.emit_segments(out);
        }
        self.flush_calls(out);
        let mut message = Map::new();
        message.insert("role".into(), json!("assistant"));
        // Moved, not copied as `json!` would (a thought is megabytes).
        message.insert(
            "content".into(),
            Value::String(std::mem::take(&mut self.content)),
        );
        if !self.reasoning.is_empty() && self.reasoning_source != Some(ThoughtSource::ThinkTag) {
            message.insert(
                "reasoning_content".into(),
                Value::String(std::mem::take(&mut self.reasoning)),
            );
        }
        if !self.opaque.is_empty() {
            message.insert(
                "reasoning_opaque".into(),
                Value::String(std::mem::take(&mut self.opaque)),
            );
        }
        if !self.details.is_empty() {
            message.insert(
                "reasoning_details".into(),
                Value::Array(self.details.clone()),
            );
        }
        if !self.calls.is_empty() {
            let calls: Vec<Value> = self
                .calls
                .iter()
                .map(|c| {
                    let mut call = json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}});
                    if let Some(extra) = &c.extra {
                        call["extra_content"] = extra.clone();
                    }
                    call
                })
                .collect();
            message.insert("tool_calls".into(), Value::Array(calls));
        }
        Some(Replay {
            provider: self.provider.clone(),
            model: self.model.clone(),
            content: Value::Object(message),
        })
    }

    /// Whether the stream ended with `[DONE]`.
    pub fn completed(&self) -> bool {
        self.done
    }
}

fn usage_of(usage: WireUsage) -> Usage {
    let reasoning = usage
        .completion_tokens_details
        .and_then(|d| d.reasoning_tokens);
    // Most vendors count reasoning inside completion tokens; xAI counts it apart, which shows
    // as more reasoning than output. Ponder's output always includes reasoning.
    let output = match (usage.completion_tokens, reasoning) {
        (Some(output), Some(reasoning)) if reasoning > output => {
            Some(output.saturating_add(reasoning))
        }
        (output, _) => output,
    };
    Usage {
        input: usage.prompt_tokens,
        output,
        reasoning,
        cached: usage
            .prompt_tokens_details
            .and_then(|d| d.cached_tokens)
            .or(usage.prompt_cache_hit_tokens),
    }
}

fn stop_reason(reason: &str) -> StopReason {
    match reason {
        "stop" | "end_turn" | "eos" => StopReason::End,
        "length" | "max_tokens" => StopReason::MaxTokens {
            while_thinking: false,
        },
        "tool_calls" | "function_call" | "tool_use" => StopReason::ToolUse,
        "content_filter" => StopReason::ContentFilter,
        other => StopReason::Other {
            reason: other.to_owned(),
        },
    }
}

/// Ponder's request to Chat Completions, with each vendor's rule for earlier reasoning:
/// DeepSeek's reasoner never gets it back; DeepSeek V3.2+/V4, Kimi and GLM must get
/// `reasoning_content` on tool-call turns; MiniMax wants its own message back verbatim;
/// OpenRouter wants `reasoning_details` back unchanged.
pub fn to_wire(
    input: crate::providers::request::WireInput<'_>,
) -> crate::providers::request::WireRequest {
    use super::wire::{MessageParam, Request, StreamOptions, ToolParam};
    use crate::catalog::ReplayRule as Rule;
    use crate::chat::Role;
    use crate::providers::context::{is_tool_turn, kept_by_settings, same_origin, thought_text};
    use crate::providers::request::with_plan;

    let kept = kept_by_settings(input.history, input.settings);
    let rule = input.model.replay;
    let mut notices = Vec::new();
    let mut messages = Vec::new();
    if let Some(system) = input.system.filter(|s| !s.is_empty()) {
        messages.push(MessageParam::text("system", system));
    }
    for (i, message) in input.history.iter().enumerate() {
        match message.role {
            Role::User => {
                messages.push(user_message(message, &mut notices));
                continue;
            }
            Role::Tool => {
                messages.extend(message.tool_results().map(|result| MessageParam {
                    tool_call_id: Some(result.call_id.clone()),
                    ..MessageParam::text("tool", result.text())
                }));
                continue;
            }
            Role::Assistant => {}
        }
        let native = same_origin(message, input.model);
        let replay = message
            .replay
            .as_ref()
            .filter(|_| native)
            .map(|r| &r.content);
        let thoughts = thought_text(message);
        let tool_turn = is_tool_turn(message);
        let verbatim = rule == Rule::Verbatim && replay.is_some();
        let content = match replay {
            Some(r) if verbatim => r
                .get("content")
                .cloned()
                .unwrap_or_else(|| json!(message.text())),
            _ => json!(message.text()),
        };
        let mut out = MessageParam {
            content,
            tool_calls: replay
                .and_then(|r| r.get("tool_calls"))
                .cloned()
                .or_else(|| tool_calls(message)),
            ..MessageParam::text("assistant", "")
        };
        let wants = kept[i] && !thoughts.is_empty();
        reasoning_back(
            &Step {
                rule,
                replay,
                thoughts: &thoughts,
                wants,
                tool_turn,
                native,
                kept: kept[i],
                verbatim,
                message,
                input: &input,
            },
            &mut out,
            &mut notices,
        );
        messages.push(out);
    }
    let request = Request {
        model: &input.model.id,
        messages,
        stream: true,
        stream_options: StreamOptions {
            include_usage: true,
        },
        tools: input.tools.iter().map(ToolParam::function).collect(),
    };
    with_plan(&request, input.plan, notices)
}

/// A turn's tool calls in Chat Completions form, from its parts (a turn another provider
/// wrote, whose own form cannot be sent here).
fn tool_calls(message: &crate::chat::Message) -> Option<Value> {
    let calls: Vec<Value> = message
        .tool_calls()
        .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}))
        .collect();
    (!calls.is_empty()).then_some(Value::Array(calls))
}

mod replay;
/// A user's words as a string, or after the files given with them as content parts: images as
/// `image_url` and PDFs as `file`, both inline as `data:` URLs, text files as text.
fn user_message(
    message: &crate::chat::Message,
    notices: &mut Vec<String>,
) -> super::wire::MessageParam {
    use super::wire::MessageParam;
    use crate::providers::request::{Attached, attached, data_url};
    let files = attached(message, notices);
    if files.is_empty() {
        return MessageParam::text("user", message.text());
    }
    let mut content: Vec<Value> = files
        .into_iter()
        .map(|file| match file {
            Attached::Binary { file, data } if file.kind.is_image() => serde_json::json!({
                "type": "image_url", "image_url": { "url": data_url(file, &data) },
            }),
            Attached::Binary { file, data } => serde_json::json!({
                "type": "file", "file": { "filename": file.name, "file_data": data_url(file, &data) },
            }),
            Attached::Text(text) => serde_json::json!({ "type": "text", "text": text }),
        })
        .collect();
    let text = message.text();
    if !text.is_empty() {
        content.push(serde_json::json!({ "type": "text", "text": text }));
    }
    MessageParam {
        content: Value::Array(content),
        ..MessageParam::text("user", "")
    }
}

#[cfg(test)]
mod tests;

use replay::{Step, reasoning_back};
