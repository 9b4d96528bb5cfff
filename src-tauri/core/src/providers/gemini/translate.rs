//! Gemini `streamGenerateContent?alt=sse`: events back to Ponder's. Thought summaries are
//! `thought: true` parts; `thoughtSignature` rides on parts (sometimes on a trailing part with
//! empty text) and every part is kept as received for replay.

use serde_json::{Map, Value, json};

use super::wire::{Chunk, UsageMetadata};
use crate::chat::{ChatEvent, Replay, StopReason, ThoughtSource, ToolCall, Usage};
use crate::providers::error::{ProviderError, from_stream_error};
use crate::providers::stream::{owned_object, push_text, push_thinking};

#[derive(Debug)]
pub struct EventMapper {
    provider: String,
    model: String,
    parts: Vec<Map<String, Value>>,
    thinking: bool,
    done: bool,
    calls: usize,
}

/// Gemini's calls carry no id unless the API adds one; Ponder names them itself so that a
/// result finds its call, and leaves its own names out of what it sends back.
pub const MADE_UP_CALL_ID: &str = "ponder-call-";

impl EventMapper {
    pub fn new(provider: &str, model: &str) -> Self {
        Self {
            provider: provider.to_owned(),
            model: model.to_owned(),
            parts: Vec::new(),
            thinking: false,
            done: false,
            calls: 0,
        }
    }

    pub fn on_data(&mut self, data: &str, out: &mut Vec<ChatEvent>) {
        match serde_json::from_str::<Chunk>(data) {
            Ok(chunk) => self.on_chunk(chunk, out),
            Err(err) => out.push(ChatEvent::Error(ProviderError::unreadable(
                &self.provider,
                &err,
                data,
            ))),
        }
    }

    pub(super) fn on_chunk(&mut self, chunk: Chunk, out: &mut Vec<ChatEvent>) {
        if let Some(model) = chunk.model_version {
            self.model = model;
        }
        if let Some(error) = chunk.error {
            out.push(ChatEvent::Error(from_stream_error(
                &self.provider,
                &json!({ "error": error }),
            )));
            return;
        }
        let mut stop = None;
        for candidate in chunk.candidates.into_iter().take(1) {
            for part in candidate.content.map(|c| c.parts).unwrap_or_default() {
                self.on_part(part, out);
            }
            if let Some(reason) = candidate.finish_reason {
                stop = Some(stop_reason(&reason));
            }
        }
        if let Some(usage) = chunk.usage_metadata {
            out.push(ChatEvent::Usage(usage_of(usage)));
        }
        if let Some(feedback) = chunk.prompt_feedback
            && let Some(reason) = feedback.get("blockReason").and_then(Value::as_str)
        {
            out.push(ChatEvent::Error(ProviderError::new(
                &self.provider,
                crate::providers::error::ErrorKind::BadRequest,
                format!("Gemini blocked the prompt ({reason})"),
            )));
        }
        if let Some(stop) = stop {
            self.close_thinking(out);
            out.push(ChatEvent::Stop(stop));
            self.done = true;
        }
    }

    fn on_part(&mut self, part: Map<String, Value>, out: &mut Vec<ChatEvent>) {
        let is_thought = part.get("thought").and_then(Value::as_bool) == Some(true);
        let text = part.get("text").and_then(Value::as_str).unwrap_or("");
        let signature = part.get("thoughtSignature").and_then(Value::as_str);
        if is_thought {
            if !self.thinking {
                self.thinking = true;
                out.push(ChatEvent::ThinkingStart {
                    source: ThoughtSource::Thought,
                });
            }
            if !text.is_empty() {
                push_thinking(out, text);
            }
            if let Some(signature) = signature {
                out.push(ChatEvent::ThinkingData {
                    data: json!({ "thoughtSignature": signature }),
                });
            }
        } else if let Some(call) = part.get("functionCall") {
            self.close_thinking(out);
            self.calls += 1;
            out.push(ChatEvent::ToolCall(ToolCall {
                id: call
                    .get("id")
                    .and_then(Value::as_str)
                    .filter(|id| !id.is_empty())
                    .map_or_else(|| format!("{MADE_UP_CALL_ID}{}", self.calls), str::to_owned),
                name: call
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                arguments: call
                    .get("args")
                    .cloned()
                    .unwrap_or_else(|| json!({}))
                    .to_string(),
            }));
        } else if !text.is_empty() {
            self.close_thinking(out);
            push_text(out, text);
        }
        self.keep(part);
    }

    /// Keeps part boundaries as received, except that consecutive unsigned text pieces of the
    /// same kind are joined (a stream splits one part into many chunks). A signed part is
    /// never merged with another, as Gemini's docs require.
    fn keep(&mut self, part: Map<String, Value>) {
        let mergeable = |p: &Map<String, Value>| {
            p.contains_key("text")
                && !p.contains_key("thoughtSignature")
                && p.keys().all(|k| k == "text" || k == "thought")
        };
        if mergeable(&part)
            && let Some(last) = self.parts.last_mut()
            && mergeable(last)
            && last.get("thought") == part.get("thought")
        {
            let piece = part.get("text").and_then(Value::as_str).unwrap_or("");
            if let Some(Value::String(text)) = last.get_mut("text") {
                text.push_str(piece);
            }
            return;
        }
        self.parts.push(part);
    }

    fn close_thinking(&mut self, out: &mut Vec<ChatEvent>) {
        if self.thinking {
            self.thinking = false;
            out.push(ChatEvent::ThinkingEnd);
        }
    }

    pub fn finish(&mut self, out: &mut Vec<ChatEvent>) -> Option<Replay> {
        self.close_thinking(out);
        (!self.parts.is_empty()).then(|| Replay {
            provider: self.provider.clone(),
            model: self.model.clone(),
            content: owned_object([
                ("role", Value::from("model")),
                (
                    "parts",
                    std::mem::take(&mut self.parts)
                        .into_iter()
                        .map(Value::Object)
                        .collect(),
                ),
            ]),
        })
    }

    pub fn completed(&self) -> bool {
        self.done
    }
}

fn usage_of(usage: UsageMetadata) -> Usage {
    // Gemini counts thoughts apart from the answer; Ponder's output includes both.
    let output = match (usage.candidates_token_count, usage.thoughts_token_count) {
        (None, None) => None,
        (c, t) => Some(c.unwrap_or(0).saturating_add(t.unwrap_or(0))),
    };
    Usage {
        input: usage.prompt_token_count,
        output,
        reasoning: usage.thoughts_token_count,
        cached: usage.cached_content_token_count,
    }
}

fn stop_reason(reason: &str) -> StopReason {
    match reason {
        "STOP" => StopReason::End,
        "MAX_TOKENS" => StopReason::MaxTokens {
            while_thinking: false,
        },
        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY" => {
            StopReason::ContentFilter
        }
        other => StopReason::Other {
            reason: other.to_owned(),
        },
    }
}

/// Ponder's request to Gemini. A turn from the same model goes back with its parts as
/// received, so every `thoughtSignature` stays on its part; thought summaries are sent only
/// when the settings keep them. Turns from other models go back as text, without signatures.
pub fn to_wire(
    input: crate::providers::request::WireInput<'_>,
) -> crate::providers::request::WireRequest {
    use super::wire::{ContentParam, FunctionDeclaration, Instruction, PartParam, Request, Tools};
    use crate::chat::Role;
    use crate::providers::context::{kept_by_settings, same_origin};
    use crate::providers::request::{note, note_foreign, with_plan};

    let kept = kept_by_settings(input.history, input.settings);
    let mut notices = Vec::new();
    let mut contents = Vec::new();
    for (i, message) in input.history.iter().enumerate() {
        if message.role == Role::User {
            push_content(&mut contents, "user", user_parts(message, &mut notices));
            continue;
        }
        if message.role == Role::Tool {
            push_content(
                &mut contents,
                "user",
                message
                    .tool_results()
                    .map(|r| PartParam::Verbatim(function_response(r)))
                    .collect(),
            );
            continue;
        }
        let native = same_origin(message, input.model);
        let parts: Vec<Value> = match message.replay.as_ref().filter(|_| native) {
            Some(replay) => replay.content["parts"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|p| {
                    kept[i]
                        || p.get("thought").and_then(Value::as_bool) != Some(true)
                        || p.get("thoughtSignature").is_some()
                })
                .cloned()
                .collect(),
            None => {
                note_foreign(&mut notices, message, input.model, kept[i]);
                let text = message.text();
                let mut parts = Vec::new();
                if !text.is_empty() {
                    parts.push(json!({ "text": text }));
                }
                parts.extend(message.tool_calls().map(function_call));
                parts
            }
        };
        if !kept[i] && parts.iter().any(|p| p.get("thoughtSignature").is_some()) {
            note(
                &mut notices,
                format!(
                    "Thought signatures were sent back on the parts they came with: {} requires them",
                    input.model.provider.name
                ),
            );
        }
        if !parts.is_empty() {
            contents.push(ContentParam {
                role: "model",
                parts: parts.into_iter().map(PartParam::Verbatim).collect(),
            });
        }
    }
    let request = Request {
        system_instruction: input
            .system
            .filter(|s| !s.is_empty())
            .map(|text| Instruction {
                parts: vec![PartParam::Text {
                    text: text.to_owned(),
                }],
            }),
        contents,
        tools: if input.tools.is_empty() {
            Vec::new()
        } else {
            vec![Tools {
                function_declarations: input
                    .tools
                    .iter()
                    .map(|t| FunctionDeclaration {
                        name: &t.name,
                        description: &t.description,
                        parameters_json_schema: &t.input_schema,
                    })
                    .collect(),
            }]
        },
    };
    with_plan(&request, input.plan, notices)
}

/// Adds a turn, joining it to the last one when the role is the same (the results of a step's
/// calls, then the user's words after a stopped loop, are one user turn).
fn push_content(
    contents: &mut Vec<super::wire::ContentParam>,
    role: &'static str,
    parts: Vec<super::wire::PartParam>,
) {
    match contents.last_mut() {
        Some(last) if last.role == role => last.parts.extend(parts),
        _ => contents.push(super::wire::ContentParam { role, parts }),
    }
}

/// A call another provider's model made. Gemini 3 wants a signature on every call of the
/// turn in progress; one it did not sign gets the value its documentation gives for
/// history from elsewhere.
fn function_call(call: &ToolCall) -> Value {
    let mut function = json!({ "name": call.name, "args": call.arguments_object() });
    if gemini_id(&call.id) {
        function["id"] = json!(call.id);
    }
    json!({ "functionCall": function, "thoughtSignature": "skip_thought_signature_validator" })
}

/// Whether an id is one to send: not one Ponder made up, not empty (older histories).
fn gemini_id(id: &str) -> bool {
    !id.is_empty() && !id.starts_with(MADE_UP_CALL_ID)
}

fn function_response(result: &crate::chat::ToolResult) -> Value {
    let key = if result.is_error { "error" } else { "output" };
    let mut response = json!({ "name": result.name, "response": { key: result.text() } });
    if gemini_id(&result.call_id) {
        response["id"] = json!(result.call_id);
    }
    json!({ "functionResponse": response })
}

/// A user's words, after the files given with them: images and PDFs as `inlineData` (Gemini
/// reads a PDF's pages as it reads images), text files as text.
fn user_parts(
    message: &crate::chat::Message,
    notices: &mut Vec<String>,
) -> Vec<super::wire::PartParam> {
    use super::wire::PartParam;
    use crate::providers::request::{Attached, attached};
    let mut parts: Vec<PartParam> = attached(message, notices)
        .into_iter()
        .map(|file| match file {
            Attached::Binary { file, data } => PartParam::Verbatim(json!({
                "inlineData": { "mimeType": file.kind.media_type(), "data": data },
            })),
            Attached::Text(text) => PartParam::Text { text },
        })
        .collect();
    let text = message.text();
    if !text.is_empty() || parts.is_empty() {
        parts.push(PartParam::Text { text });
    }
    parts
}
