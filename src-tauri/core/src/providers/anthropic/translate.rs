//! Anthropic Messages: Ponder's request to the wire, and the wire's events back to Ponder's.

use serde_json::{Map, Value, json};

use super::wire::{Delta, StreamEvent, WireUsage};
use crate::chat::{ChatEvent, Replay, StopReason, ThoughtSource, ToolCall, Usage};
use crate::providers::error::{ProviderError, from_stream_error};
use crate::providers::stream::{owned_object, push_text, push_thinking};

/// A content block as it accumulates, kept in the provider's own shape for replay.
#[derive(Debug)]
struct Block {
    raw: Map<String, Value>,
    kind: BlockKind,
    partial_json: String,
    /// What thinking and text deltas added, joined into `raw` when the turn is read back: a
    /// map lookup per token was a tenth of reading a long stream.
    thinking: Option<String>,
    text: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Thinking,
    Redacted,
    Text,
    ToolUse,
    Other,
}

/// Maps one Anthropic stream (or whole response) to neutral events.
#[derive(Debug)]
pub struct EventMapper {
    provider: String,
    model: String,
    blocks: Vec<(usize, Block)>,
    pub(super) done: bool,
}

impl EventMapper {
    pub fn new(provider: &str, model: &str) -> Self {
        Self {
            provider: provider.to_owned(),
            model: model.to_owned(),
            blocks: Vec::new(),
            done: false,
        }
    }

    /// One SSE `data:` payload.
    pub fn on_data(&mut self, data: &str, out: &mut Vec<ChatEvent>) {
        // Nearly every event of a long stream is a block's delta: applied as it is read,
        // without going through the enum of every event and its match.
        if let Some((index, delta)) = super::delta_fast_path::delta(data) {
            self.delta(index, delta, out);
            return;
        }
        match StreamEvent::parse_json(data) {
            Ok(event) => self.on_event(event, out),
            Err(err) => out.push(ChatEvent::Error(ProviderError::unreadable(
                &self.provider,
                &err,
                data,
            ))),
        }
    }

    fn on_event(&mut self, event: StreamEvent<'_>, out: &mut Vec<ChatEvent>) {
        match event {
            StreamEvent::MessageStart { message } => {
                if let Some(model) = message.model {
                    self.model = model;
                }
                if let Some(usage) = message.usage {
                    out.push(ChatEvent::Usage(usage_of(usage)));
                }
            }
            StreamEvent::ContentBlockStart {
                index,
                content_block,
            } => {
                self.start_block(index, content_block, out);
            }
            StreamEvent::ContentBlockDelta { index, delta } => self.delta(index, delta, out),
            StreamEvent::ContentBlockStop { index } => self.stop_block(index, out),
            StreamEvent::MessageDelta {
                stop_reason: reason,
                usage,
            } => {
                if let Some(usage) = usage {
                    out.push(ChatEvent::Usage(usage_of(usage)));
                }
                if let Some(reason) = reason {
                    out.push(ChatEvent::Stop(stop_reason(&reason)));
                }
            }
            StreamEvent::MessageStop => self.done = true,
            StreamEvent::Ping | StreamEvent::Unknown => {}
            StreamEvent::Error { error } => {
                out.push(ChatEvent::Error(from_stream_error(
                    &self.provider,
                    &json!({ "error": error }),
                )));
            }
        }
    }

    pub(super) fn start_block(
        &mut self,
        index: usize,
        content_block: Value,
        out: &mut Vec<ChatEvent>,
    ) {
        let Value::Object(raw) = content_block else {
            return;
        };
        let kind = match raw.get("type").and_then(Value::as_str) {
            Some("thinking") => BlockKind::Thinking,
            Some("redacted_thinking") => BlockKind::Redacted,
            Some("text") => BlockKind::Text,
            Some("tool_use") => BlockKind::ToolUse,
            _ => BlockKind::Other,
        };
        match kind {
            BlockKind::Thinking => {
                out.push(ChatEvent::ThinkingStart {
                    source: ThoughtSource::Thinking,
                });
                // A whole response carries its text in the start block; a stream starts empty.
                if let Some(text) = raw
                    .get("thinking")
                    .and_then(Value::as_str)
                    .filter(|t| !t.is_empty())
                {
                    out.push(ChatEvent::ThinkingDelta {
                        text: text.to_owned(),
                    });
                }
                if let Some(sig) = raw
                    .get("signature")
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
                {
                    out.push(ChatEvent::ThinkingSignature {
                        signature: sig.to_owned(),
                    });
                }
            }
            BlockKind::Redacted => {
                let data = raw.get("data").and_then(Value::as_str).unwrap_or_default();
                out.push(ChatEvent::ThinkingRedacted {
                    data: data.to_owned(),
                });
            }
            BlockKind::Text => {
                if let Some(text) = raw
                    .get("text")
                    .and_then(Value::as_str)
                    .filter(|t| !t.is_empty())
                {
                    out.push(ChatEvent::TextDelta {
                        text: text.to_owned(),
                    });
                }
            }
            BlockKind::ToolUse | BlockKind::Other => {}
        }
        self.blocks.push((
            index,
            Block {
                raw,
                kind,
                partial_json: String::new(),
                thinking: None,
                text: None,
            },
        ));
    }

    fn block(&mut self, index: usize) -> Option<&mut Block> {
        self.blocks
            .iter_mut()
            .rev()
            .find(|(i, _)| *i == index)
            .map(|(_, b)| b)
    }

    fn delta(&mut self, index: usize, delta: Delta<'_>, out: &mut Vec<ChatEvent>) {
        let Some(block) = self.block(index) else {
            return;
        };
        match delta {
            Delta::ThinkingDelta(thinking) => {
                block.thinking.get_or_insert_default().push_str(&thinking);
                push_thinking(out, &thinking);
            }
            Delta::SignatureDelta(signature) => {
                // Assigned, not appended: the signature arrives whole before the block stops.
                let signature = signature.into_owned();
                block
                    .raw
                    .insert("signature".into(), Value::String(signature.clone()));
                out.push(ChatEvent::ThinkingSignature { signature });
            }
            Delta::TextDelta(text) => {
                block.text.get_or_insert_default().push_str(&text);
                push_text(out, &text);
            }
            Delta::InputJsonDelta(partial_json) => block.partial_json.push_str(&partial_json),
            Delta::Other => {}
        }
    }

    pub(super) fn stop_block(&mut self, index: usize, out: &mut Vec<ChatEvent>) {
        let Some(block) = self.block(index) else {
            return;
        };
        match block.kind {
            BlockKind::Thinking => out.push(ChatEvent::ThinkingEnd),
            BlockKind::ToolUse => {
                let input = if block.partial_json.trim().is_empty() {
                    block.raw.get("input").cloned().unwrap_or_else(|| json!({}))
                } else {
                    serde_json::from_str(&block.partial_json)
                        .unwrap_or(Value::String(block.partial_json.clone()))
                };
                block.raw.insert("input".into(), input.clone());
                out.push(ChatEvent::ToolCall(ToolCall {
                    id: str_field(&block.raw, "id"),
                    name: str_field(&block.raw, "name"),
                    arguments: input.to_string(),
                }));
            }
            BlockKind::Other if !block.partial_json.trim().is_empty() => {
                if let Ok(input) = serde_json::from_str::<Value>(&block.partial_json) {
                    block.raw.insert("input".into(), input);
                }
            }
            _ => {}
        }
    }

    /// The assistant turn to send back verbatim: blocks in index order. A thinking block
    /// whose signature never arrived (a cut stream) cannot be replayed and is left out.
    pub fn finish(&mut self) -> Option<Replay> {
        let mut blocks = std::mem::take(&mut self.blocks);
        blocks.sort_by_key(|(i, _)| *i);
        let content: Vec<Value> = blocks
            .into_iter()
            .filter(|(_, b)| {
                b.kind != BlockKind::Thinking
                    || b.raw
                        .get("signature")
                        .and_then(Value::as_str)
                        .is_some_and(|s| !s.is_empty())
            })
            .map(|(_, b)| {
                let mut raw = b.raw;
                for (key, streamed) in [("thinking", b.thinking), ("text", b.text)] {
                    if let Some(streamed) = streamed {
                        append_owned(&mut raw, key, streamed);
                    }
                }
                // Citations and other response-only fields are not accepted back.
                if b.kind == BlockKind::Text {
                    raw.retain(|k, _| k == "type" || k == "text");
                }
                Value::Object(raw)
            })
            .collect();
        (!content.is_empty()).then(|| Replay {
            provider: self.provider.clone(),
            model: self.model.clone(),
            content: owned_object([
                ("role", Value::from("assistant")),
                ("content", Value::Array(content)),
            ]),
        })
    }

    /// Whether the stream said it was complete (`message_stop`).
    pub fn completed(&self) -> bool {
        self.done
    }
}

pub(super) fn usage_of(usage: WireUsage) -> Usage {
    Usage {
        input: usage.input_tokens,
        output: usage.output_tokens,
        reasoning: usage.output_tokens_details.and_then(|d| d.thinking_tokens),
        cached: usage.cache_read_input_tokens,
    }
}

pub(super) fn stop_reason(reason: &str) -> StopReason {
    match reason {
        "end_turn" | "stop_sequence" => StopReason::End,
        "max_tokens" | "model_context_window_exceeded" => StopReason::MaxTokens {
            while_thinking: false,
        },
        "tool_use" => StopReason::ToolUse,
        "refusal" => StopReason::Refusal,
        other => StopReason::Other {
            reason: other.to_owned(),
        },
    }
}

/// Puts a block's streamed text in its raw form: moved rather than copied where nothing precedes
/// it (a long thought is megabytes), appended where the start event carried some.
fn append_owned(raw: &mut Map<String, Value>, key: &str, streamed: String) {
    match raw.get_mut(key) {
        Some(Value::String(s)) if s.is_empty() => *s = streamed,
        Some(Value::String(s)) => s.push_str(&streamed),
        _ => {
            raw.insert(key.into(), Value::String(streamed));
        }
    }
}

fn str_field(raw: &Map<String, Value>, key: &str) -> String {
    raw.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// Ponder's request to the Messages API. Earlier assistant turns go back verbatim from their
/// replay (thinking blocks with signatures) when the settings keep their thoughts or when the
/// turn ended in a tool call, which the API requires; otherwise as their text only.
pub fn to_wire(
    input: crate::providers::request::WireInput<'_>,
) -> crate::providers::request::WireRequest {
    use super::wire::{CacheControl, ContentBlock, MessageParam, Request, TextBlock, ToolDef};
    use crate::chat::{Part, Role};
    use crate::providers::context::{is_tool_turn, kept_by_settings, same_origin};
    use crate::providers::request::{note, note_foreign, with_plan};

    let kept = kept_by_settings(input.history, input.settings);
    // The steps of the turn in progress (after the user's last words): a tool loop is one
    // turn, and each of its steps must go back with its thinking blocks; so must the last
    // assistant message when it called tools.
    let turn_start = input
        .history
        .iter()
        .rposition(|m| m.role == Role::User)
        .unwrap_or(0);
    let last_assistant = input
        .history
        .iter()
        .rposition(|m| m.role == Role::Assistant);
    let mut notices = Vec::new();
    let mut messages = Vec::new();
    for (i, message) in input.history.iter().enumerate() {
        let content: Vec<ContentBlock> = match message.role {
            Role::User => user_blocks(message, &mut notices),
            Role::Tool => message.tool_results().map(tool_result).collect(),
            Role::Assistant => {
                let native = same_origin(message, input.model) && message.replay.is_some();
                let required =
                    (i > turn_start || Some(i) == last_assistant) && is_tool_turn(message);
                let has_thoughts = message.thinking().next().is_some();
                note_foreign(&mut notices, message, input.model, kept[i] && !native);
                if native && (kept[i] || required) {
                    if required && !kept[i] && has_thoughts {
                        note(
                            &mut notices,
                            "The thinking of the tool-call steps was sent back: Anthropic requires it".to_owned(),
                        );
                    }
                    replay_blocks(message, true)
                } else if native {
                    replay_blocks(message, false)
                } else {
                    message
                        .parts
                        .iter()
                        .filter_map(|p| match p {
                            Part::Text { text } if !text.is_empty() => {
                                Some(ContentBlock::Text(TextBlock::new(text.as_str())))
                            }
                            Part::ToolCall(call) => Some(tool_use(call)),
                            _ => None,
                        })
                        .collect()
                }
            }
        };
        if content.is_empty() {
            continue;
        }
        let role = match message.role {
            // Tool results travel in a user turn.
            Role::User | Role::Tool => "user",
            Role::Assistant => "assistant",
        };
        // Results followed by the user's words (a loop the user stopped) make one user turn,
        // results first, as the API requires.
        match messages.last_mut() {
            Some(MessageParam {
                role: last,
                content: blocks,
            }) if *last == role => {
                blocks.extend(content);
            }
            _ => messages.push(MessageParam { role, content }),
        }
    }
    if input.plan.caching == crate::reasoning::overrides::Caching::Full
        && let Some(last) = messages.iter_mut().rev().find(|m| m.role == "user")
        && let Some(ContentBlock::Text(block)) = last.content.last_mut()
    {
        block.cache_control = Some(CacheControl::EPHEMERAL);
    }
    let request = Request {
        model: &input.model.id,
        max_tokens: input.model.max_output,
        system: input.system.filter(|s| !s.is_empty()),
        messages,
        stream: true,
        tools: input
            .tools
            .iter()
            .map(|t| ToolDef {
                name: &t.name,
                description: &t.description,
                input_schema: &t.input_schema,
            })
            .collect(),
    };
    with_plan(&request, input.plan, notices)
}

/// A call id Anthropic accepts (`^[a-zA-Z0-9_-]+$`): another provider's ids may hold other
/// characters. The call and its result map the same id the same way.
fn tool_id(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.is_empty() {
        "call".to_owned()
    } else {
        safe
    }
}

fn tool_use(call: &crate::chat::ToolCall) -> super::wire::ContentBlock {
    super::wire::ContentBlock::ToolUse(super::wire::ToolUseBlock {
        kind: "tool_use",
        id: tool_id(&call.id),
        name: call.name.clone(),
        input: call.arguments_object(),
    })
}

/// A user's words, after the files given with them: images as `image` blocks, PDFs and text
/// files as `document` blocks (Anthropic reads a document's pages, tables included).
fn user_blocks(
    message: &crate::chat::Message,
    notices: &mut Vec<String>,
) -> Vec<super::wire::ContentBlock> {
    use super::wire::{ContentBlock, TextBlock};
    use crate::providers::request::{Attached, attached};
    let mut blocks: Vec<ContentBlock> = attached(message, notices)
        .into_iter()
        .map(|file| {
            ContentBlock::Verbatim(match file {
                Attached::Binary { file, data } if file.kind.is_image() => serde_json::json!({
                    "type": "image",
                    "source": { "type": "base64", "media_type": file.kind.media_type(), "data": data },
                }),
                Attached::Binary { file, data } => serde_json::json!({
                    "type": "document",
                    "source": { "type": "base64", "media_type": file.kind.media_type(), "data": data },
                    "title": file.name,
                }),
                Attached::Text(text) => serde_json::json!({ "type": "text", "text": text }),
            })
        })
        .collect();
    let text = message.text();
    if !text.is_empty() || blocks.is_empty() {
        blocks.push(ContentBlock::Text(TextBlock::new(text)));
    }
    blocks
}

fn tool_result(result: &crate::chat::ToolResult) -> super::wire::ContentBlock {
    use super::wire::{ImageSource, ResultContent, ToolResultBlock};
    use crate::chat::ToolContent;
    let content = result
        .content
        .iter()
        .map(|item| match item {
            ToolContent::Text { text } => ResultContent::Text { text: text.clone() },
            ToolContent::Image { mime_type, data } => ResultContent::Image {
                source: ImageSource {
                    kind: "base64",
                    media_type: mime_type.clone(),
                    data: data.clone(),
                },
            },
        })
        .collect();
    super::wire::ContentBlock::ToolResult(ToolResultBlock {
        kind: "tool_result",
        tool_use_id: tool_id(&result.call_id),
        content,
        is_error: result.is_error,
    })
}

/// The replayed content blocks of a turn, with or without its thinking blocks.
fn replay_blocks(
    message: &crate::chat::Message,
    with_thinking: bool,
) -> Vec<super::wire::ContentBlock> {
    let Some(replay) = &message.replay else {
        return Vec::new();
    };
    replay.content["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|block| {
            let kind = block.get("type").and_then(Value::as_str).unwrap_or("");
            with_thinking || !matches!(kind, "thinking" | "redacted_thinking")
        })
        .cloned()
        .map(super::wire::ContentBlock::Verbatim)
        .collect()
}
