//! OpenAI Responses: events back to Ponder's. Reasoning comes as summary parts of a
//! `reasoning` output item; the finished item (with `encrypted_content`) is taken from
//! `response.output_item.done`, never from `added`, and kept for replay.

use serde_json::{Value, json};

use super::wire::{ResponseTail, StreamEvent, WireUsage};
use crate::chat::{ChatEvent, Replay, StopReason, ThoughtSource, ToolCall, Usage};
use crate::providers::error::{ProviderError, from_stream_error};
use crate::providers::stream::{owned_object, push_text, push_thinking};

#[derive(Debug)]
pub struct EventMapper {
    provider: String,
    model: String,
    /// Finished output items in order, for replay.
    items: Vec<Value>,
    in_reasoning: bool,
    summary_parts: u32,
    /// Whether the reasoning item now open has streamed any text: GitHub Copilot often
    /// sends a summary only in the finished item.
    reasoning_streamed: bool,
    done: bool,
}

impl EventMapper {
    pub fn new(provider: &str, model: &str) -> Self {
        Self {
            provider: provider.to_owned(),
            model: model.to_owned(),
            items: Vec::new(),
            in_reasoning: false,
            summary_parts: 0,
            reasoning_streamed: false,
            done: false,
        }
    }

    pub fn on_data(&mut self, data: &str, out: &mut Vec<ChatEvent>) {
        if data.trim() == "[DONE]" {
            self.done = true;
            return;
        }
        match serde_json::from_str::<StreamEvent>(data) {
            Ok(event) => self.on_event(event, out),
            Err(err) => out.push(ChatEvent::Error(ProviderError::unreadable(
                &self.provider,
                &err,
                data,
            ))),
        }
    }

    fn on_event(&mut self, event: StreamEvent, out: &mut Vec<ChatEvent>) {
        match event {
            StreamEvent::Created { response } => {
                if let Some(model) = response.model {
                    self.model = model;
                }
            }
            StreamEvent::ItemAdded { item } => {
                if item.get("type").and_then(Value::as_str) == Some("reasoning") {
                    self.start_reasoning(out);
                }
            }
            StreamEvent::SummaryPartAdded { summary_index } => {
                // Each summary part is a paragraph of its own.
                if summary_index > 0 || self.summary_parts > 0 {
                    out.push(ChatEvent::ThinkingDelta {
                        text: "\n\n".into(),
                    });
                }
                self.summary_parts += 1;
            }
            StreamEvent::SummaryDelta { delta } | StreamEvent::ReasoningTextDelta { delta } => {
                if !self.in_reasoning {
                    self.start_reasoning(out);
                }
                self.reasoning_streamed = true;
                push_thinking(out, &delta);
            }
            StreamEvent::TextDelta { delta } | StreamEvent::RefusalDelta { delta } => {
                push_text(out, &delta);
            }
            StreamEvent::ItemDone { item } => self.item_done(item, out),
            StreamEvent::Completed { response } | StreamEvent::Incomplete { response } => {
                self.finish_response(response, out);
            }
            StreamEvent::Failed { response } => {
                let error = response
                    .error
                    .clone()
                    .unwrap_or_else(|| json!({"message": "the response failed"}));
                out.push(ChatEvent::Error(from_stream_error(
                    &self.provider,
                    &json!({ "error": error }),
                )));
                self.done = true;
            }
            StreamEvent::Error { body } => {
                let error = body.get("error").cloned().unwrap_or(body);
                out.push(ChatEvent::Error(from_stream_error(
                    &self.provider,
                    &json!({ "error": error }),
                )));
            }
            StreamEvent::Other => {}
        }
    }

    pub(super) fn start_reasoning(&mut self, out: &mut Vec<ChatEvent>) {
        self.in_reasoning = true;
        self.summary_parts = 0;
        self.reasoning_streamed = false;
        out.push(ChatEvent::ThinkingStart {
            source: ThoughtSource::Summary,
        });
    }

    pub(super) fn item_done(&mut self, item: Value, out: &mut Vec<ChatEvent>) {
        match item.get("type").and_then(Value::as_str) {
            Some("reasoning") => {
                if !self.in_reasoning {
                    self.start_reasoning(out);
                }
                if !self.reasoning_streamed {
                    // The summary (or the raw reasoning text) came only with the finished
                    // item: show it from there.
                    let summary: Vec<&str> = ["summary", "content"]
                        .into_iter()
                        .filter_map(|field| item.get(field).and_then(Value::as_array))
                        .flatten()
                        .filter_map(|part| part.get("text").and_then(Value::as_str))
                        .filter(|text| !text.is_empty())
                        .collect();
                    if !summary.is_empty() {
                        push_thinking(out, &summary.join("\n\n"));
                    }
                }
                out.push(ChatEvent::ThinkingData { data: item.clone() });
                out.push(ChatEvent::ThinkingEnd);
                self.in_reasoning = false;
            }
            Some("function_call") => {
                let text = |k: &str| {
                    item.get(k)
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned()
                };
                out.push(ChatEvent::ToolCall(ToolCall {
                    id: text("call_id"),
                    name: text("name"),
                    arguments: text("arguments"),
                }));
            }
            _ => {}
        }
        self.items.push(item);
    }

    pub(super) fn finish_response(&mut self, response: ResponseTail, out: &mut Vec<ChatEvent>) {
        if let Some(model) = response.model {
            self.model = model;
        }
        if let Some(usage) = response.usage {
            out.push(ChatEvent::Usage(usage_of(usage)));
        }
        let reason = match response.status.as_deref() {
            Some("incomplete") => {
                let why = response
                    .incomplete_details
                    .as_ref()
                    .and_then(|d| d.get("reason"))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                if why == "content_filter" {
                    StopReason::ContentFilter
                } else {
                    StopReason::MaxTokens {
                        while_thinking: false,
                    }
                }
            }
            _ if self
                .items
                .iter()
                .any(|i| i.get("type").and_then(Value::as_str) == Some("function_call")) =>
            {
                StopReason::ToolUse
            }
            _ => StopReason::End,
        };
        out.push(ChatEvent::Stop(reason));
        self.done = true;
    }

    /// The output items in order, to pass back on later turns.
    pub fn finish(&mut self) -> Option<Replay> {
        (!self.items.is_empty()).then(|| Replay {
            provider: self.provider.clone(),
            model: self.model.clone(),
            content: owned_object([("items", Value::Array(std::mem::take(&mut self.items)))]),
        })
    }

    pub fn completed(&self) -> bool {
        self.done
    }
}

fn usage_of(usage: WireUsage) -> Usage {
    Usage {
        input: usage.input_tokens,
        output: usage.output_tokens,
        reasoning: usage.output_tokens_details.and_then(|d| d.reasoning_tokens),
        cached: usage.input_tokens_details.and_then(|d| d.cached_tokens),
    }
}

/// Ponder's request to the Responses API. Nothing is stored on OpenAI's side (`store: false`),
/// so earlier reasoning goes back as the finished reasoning items with `encrypted_content`,
/// in order with the items that followed them — only to the model that wrote them.
pub fn to_wire(
    input: crate::providers::request::WireInput<'_>,
) -> crate::providers::request::WireRequest {
    use super::wire::{FunctionItem, FunctionTool, InputItem, Request};
    use crate::catalog::Dialect;
    use crate::chat::Role;
    use crate::providers::context::{is_tool_turn, kept_by_settings, same_origin};
    use crate::providers::request::{note, note_foreign, with_plan};

    let kept = kept_by_settings(input.history, input.settings);
    let mut notices = Vec::new();
    let mut items = Vec::new();
    let system = input.system.filter(|s| !s.is_empty());
    // Copilot's Responses API takes the system prompt as the first message, from the
    // `developer` (the editors' own requests put it there).
    let as_developer = input.model.provider.dialect == Dialect::Copilot;
    if let Some(system) = system.filter(|_| as_developer) {
        items.push(InputItem::developer(system.to_owned()));
    }
    for (i, message) in input.history.iter().enumerate() {
        match message.role {
            Role::User => {
                items.push(user_item(message, &mut notices));
                continue;
            }
            Role::Tool => {
                items.extend(message.tool_results().map(|result| {
                    InputItem::Function(FunctionItem::FunctionCallOutput {
                        call_id: result.call_id.clone(),
                        output: result.text(),
                    })
                }));
                continue;
            }
            Role::Assistant => {}
        }
        let native = same_origin(message, input.model);
        let replay_items = message
            .replay
            .as_ref()
            .filter(|_| native)
            .and_then(|r| r.content.get("items"))
            .and_then(Value::as_array);
        let with_reasoning = kept[i] || is_tool_turn(message);
        match replay_items {
            Some(list) if with_reasoning => {
                if !kept[i] && list.iter().any(|item| item["type"] == "reasoning") {
                    note(
                        &mut notices,
                        format!(
                            "Reasoning of tool-call turns was sent back: {} requires it",
                            input.model.provider.name
                        ),
                    );
                }
                // Nothing is stored on OpenAI's side, so a reasoning item can only be resolved
                // from its encrypted content; one without it would be a 404.
                items.extend(
                    list.iter()
                        .filter(|item| replayable(item))
                        .cloned()
                        .map(InputItem::Verbatim),
                );
            }
            _ => {
                note_foreign(&mut notices, message, input.model, kept[i] && !native);
                let text = message.text();
                if !text.is_empty() {
                    items.push(InputItem::assistant(text));
                }
                items.extend(message.tool_calls().map(|call| {
                    InputItem::Function(FunctionItem::FunctionCall {
                        call_id: call.id.clone(),
                        name: call.name.clone(),
                        arguments: call.arguments.clone(),
                    })
                }));
            }
        }
    }
    let request = Request {
        model: &input.model.id,
        instructions: system.filter(|_| !as_developer),
        input: items,
        stream: true,
        store: false,
        tools: input
            .tools
            .iter()
            .map(|t| FunctionTool {
                kind: "function",
                name: &t.name,
                description: &t.description,
                parameters: &t.input_schema,
            })
            .collect(),
    };
    with_plan(&request, input.plan, notices)
}

/// Whether an output item can go back under `store: false`.
fn replayable(item: &Value) -> bool {
    item.get("type").and_then(Value::as_str) != Some("reasoning")
        || item
            .get("encrypted_content")
            .and_then(Value::as_str)
            .is_some_and(|c| !c.is_empty())
}

/// A user's words, after the files given with them: images as `input_image` and PDFs as
/// `input_file`, both inline as `data:` URLs, text files as `input_text`.
fn user_item(message: &crate::chat::Message, notices: &mut Vec<String>) -> super::wire::InputItem {
    use super::wire::InputItem;
    use crate::providers::request::{Attached, attached, data_url};
    let files = attached(message, notices);
    if files.is_empty() {
        return InputItem::user(message.text());
    }
    let mut content: Vec<Value> = files
        .into_iter()
        .map(|file| match file {
            Attached::Binary { file, data } if file.kind.is_image() => serde_json::json!({
                "type": "input_image", "image_url": data_url(file, &data),
            }),
            Attached::Binary { file, data } => serde_json::json!({
                "type": "input_file", "filename": file.name, "file_data": data_url(file, &data),
            }),
            Attached::Text(text) => serde_json::json!({ "type": "input_text", "text": text }),
        })
        .collect();
    let text = message.text();
    if !text.is_empty() {
        content.push(serde_json::json!({ "type": "input_text", "text": text }));
    }
    InputItem::Verbatim(serde_json::json!({ "role": "user", "content": content }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thoughts(events: &[&str]) -> String {
        let mut mapper = EventMapper::new("copilot", "gpt-5.4");
        let mut out = Vec::new();
        for event in events {
            mapper.on_data(event, &mut out);
        }
        out.iter()
            .filter_map(|e| match e {
                ChatEvent::ThinkingDelta { text } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    const DONE: &str = r#"{"type":"response.output_item.done","output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"**Planning**"},{"type":"summary_text","text":"Then the sum."}],"encrypted_content":"gAAAAB-FAKE"}}"#;

    #[test]
    fn a_summary_sent_only_with_the_finished_item_is_shown() {
        // Copilot's own models often stream no summary (the VS Code extension's comment).
        let added = r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[]}}"#;
        assert_eq!(thoughts(&[added, DONE]), "**Planning**\n\nThen the sum.");
        assert_eq!(thoughts(&[DONE]), "**Planning**\n\nThen the sum.");
    }

    #[test]
    fn a_streamed_summary_is_not_shown_twice() {
        let added = r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[]}}"#;
        let delta = r#"{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"**Planning**"}"#;
        assert_eq!(thoughts(&[added, delta, DONE]), "**Planning**");
    }
}
