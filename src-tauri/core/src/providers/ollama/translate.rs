//! Ollama's native `/api/chat` (and `/api/generate`): NDJSON lines back to Ponder's events.
//! <https://docs.ollama.com/capabilities/thinking>

use serde::Deserialize;
use serde_json::{Value, json};

use crate::chat::{ChatEvent, Replay, StopReason, ThoughtSource, Usage};
use crate::providers::error::{ProviderError, from_stream_error};
use crate::providers::stream::{owned_object, push_text, push_thinking};

#[derive(Debug, Deserialize)]
struct Line {
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    message: Option<LineMessage>,
    /// `/api/generate` puts the text at the top level.
    #[serde(default)]
    response: Option<String>,
    #[serde(default)]
    thinking: Option<String>,
    #[serde(default)]
    done: bool,
    #[serde(default)]
    done_reason: Option<String>,
    #[serde(default)]
    prompt_eval_count: Option<u32>,
    #[serde(default)]
    eval_count: Option<u32>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct LineMessage {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    thinking: Option<String>,
    /// Ollama sends each call whole, arguments as an object.
    #[serde(default)]
    tool_calls: Vec<Value>,
}

#[derive(Debug)]
pub struct EventMapper {
    provider: String,
    model: String,
    content: String,
    thinking: String,
    thinking_open: bool,
    done: bool,
    /// The calls as received, for replay.
    calls: Vec<Value>,
}

impl EventMapper {
    pub fn new(provider: &str, model: &str) -> Self {
        Self {
            provider: provider.to_owned(),
            model: model.to_owned(),
            content: String::new(),
            thinking: String::new(),
            thinking_open: false,
            done: false,
            calls: Vec::new(),
        }
    }

    /// One NDJSON line.
    pub fn on_line(&mut self, line: &str, out: &mut Vec<ChatEvent>) {
        let line: Line = match serde_json::from_str(line) {
            Ok(line) => line,
            Err(err) => {
                out.push(ChatEvent::Error(ProviderError::unreadable(
                    &self.provider,
                    &err,
                    line,
                )));
                return;
            }
        };
        if let Some(error) = line.error {
            let error = if error.is_string() {
                json!({ "error": { "message": error } })
            } else {
                json!({ "error": error })
            };
            out.push(ChatEvent::Error(from_stream_error(&self.provider, &error)));
            return;
        }
        if let Some(model) = line.model {
            self.model = model;
        }
        let (text, thinking, calls) = match line.message {
            Some(message) => (message.content, message.thinking, message.tool_calls),
            None => (line.response, line.thinking, Vec::new()),
        };
        if let Some(thinking) = thinking.filter(|t| !t.is_empty()) {
            if !self.thinking_open {
                self.thinking_open = true;
                out.push(ChatEvent::ThinkingStart {
                    source: ThoughtSource::Reasoning,
                });
            }
            self.thinking.push_str(&thinking);
            push_thinking(out, &thinking);
        }
        if let Some(text) = text.filter(|t| !t.is_empty()) {
            self.content.push_str(&text);
            push_text(out, &text);
        }
        for call in calls {
            let function = &call["function"];
            let name = function["name"].as_str().unwrap_or_default().to_owned();
            let id = call["id"]
                .as_str()
                .filter(|id| !id.is_empty())
                .map_or_else(|| format!("call_{}", self.calls.len() + 1), str::to_owned);
            let arguments = match &function["arguments"] {
                Value::String(text) => text.clone(),
                Value::Null => "{}".to_owned(),
                other => other.to_string(),
            };
            out.push(ChatEvent::ToolCall(crate::chat::ToolCall {
                id,
                name,
                arguments,
            }));
            self.calls.push(call);
        }
        if line.done {
            out.push(ChatEvent::Usage(Usage {
                input: line.prompt_eval_count,
                output: line.eval_count,
                reasoning: None,
                cached: None,
            }));
            let reason = match line.done_reason.as_deref() {
                Some("length") => StopReason::MaxTokens {
                    while_thinking: false,
                },
                // Ollama says `stop` after tool calls too.
                Some("stop") | None if !self.calls.is_empty() => StopReason::ToolUse,
                Some("stop") | None => StopReason::End,
                Some(other) => StopReason::Other {
                    reason: other.to_owned(),
                },
            };
            out.push(ChatEvent::Stop(reason));
            self.done = true;
        }
    }

    pub fn finish(&mut self) -> Option<Replay> {
        let mut message = owned_object([
            ("role", Value::from("assistant")),
            ("content", Value::String(std::mem::take(&mut self.content))),
        ]);
        if !self.thinking.is_empty() {
            message["thinking"] = Value::String(std::mem::take(&mut self.thinking));
        }
        if !self.calls.is_empty() {
            message["tool_calls"] = Value::Array(self.calls.clone());
        }
        Some(Replay {
            provider: self.provider.clone(),
            model: self.model.clone(),
            content: message,
        })
    }

    pub fn completed(&self) -> bool {
        self.done
    }
}

/// Ponder's request to Ollama's `/api/chat`; kept thoughts go back in the `thinking` field.
pub fn to_wire(
    input: crate::providers::request::WireInput<'_>,
) -> crate::providers::request::WireRequest {
    use super::wire::{Message, Request};
    use crate::chat::Role;
    use crate::providers::context::{kept_by_settings, thought_text};
    use crate::providers::openai_chat::wire::ToolParam;
    use crate::providers::request::with_plan;

    let kept = kept_by_settings(input.history, input.settings);
    let mut notices = Vec::new();
    let mut messages = Vec::new();
    if let Some(system) = input.system.filter(|s| !s.is_empty()) {
        messages.push(Message::new("system", system));
    }
    for (i, message) in input.history.iter().enumerate() {
        match message.role {
            Role::User => messages.push(user_message(message, &mut notices)),
            Role::Tool => messages.extend(message.tool_results().map(|result| Message {
                tool_name: Some(result.name.clone()),
                ..Message::new("tool", result.text())
            })),
            Role::Assistant => {
                let mut out = Message::new("assistant", message.text());
                let calls: Vec<Value> = message
                    .tool_calls()
                    .map(|c| json!({ "function": { "name": c.name, "arguments": c.arguments_object() } }))
                    .collect();
                if !calls.is_empty() {
                    out.tool_calls = Some(calls);
                }
                let thoughts = thought_text(message);
                let wanted = kept[i] && !thoughts.is_empty();
                if wanted && input.model.replay == crate::catalog::ReplayRule::NeverSend {
                    crate::providers::request::note(
                        &mut notices,
                        format!(
                            "{} does not take earlier reasoning back, so it was left out",
                            input.model.id
                        ),
                    );
                } else if wanted {
                    out.thinking = Some(thoughts);
                }
                messages.push(out);
            }
        }
    }
    let request = Request {
        model: &input.model.id,
        messages,
        stream: true,
        tools: input.tools.iter().map(ToolParam::function).collect(),
    };
    with_plan(&request, input.plan, notices)
}

/// A user's words with the images given with them in `images`, and text files before the
/// words. Ollama's chat takes no PDFs: one is named in a notice and not sent.
fn user_message(message: &crate::chat::Message, notices: &mut Vec<String>) -> super::wire::Message {
    use crate::providers::request::{Attached, attached, note};
    let mut before = Vec::new();
    let mut images = Vec::new();
    for file in attached(message, notices) {
        match file {
            Attached::Binary { file, data } if file.kind.is_image() => images.push(data),
            Attached::Binary { file, .. } => note(
                notices,
                format!("Ollama's chat takes no PDFs, so {} was not sent", file.name),
            ),
            Attached::Text(text) => before.push(text),
        }
    }
    before.push(message.text());
    super::wire::Message {
        images,
        ..super::wire::Message::new("user", before.join("\n\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::ToolCall;

    /// Ollama's documented stream with a tool call: thinking, then one line carrying the whole
    /// call (arguments as an object), then `done` with `stop`.
    /// <https://docs.ollama.com/capabilities/tool-calling>
    #[test]
    fn a_whole_call_on_one_line_becomes_a_tool_call_and_the_turn_stops_for_tools() {
        let lines = [
            r#"{"model":"qwen3","message":{"role":"assistant","content":"","thinking":"Need the weather."},"done":false}"#,
            r#"{"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false}"#,
            r#"{"model":"qwen3","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":20,"eval_count":9}"#,
        ];
        let mut mapper = EventMapper::new("ollama", "qwen3");
        let mut out = Vec::new();
        for line in lines {
            mapper.on_line(line, &mut out);
        }
        let calls: Vec<&ToolCall> = out
            .iter()
            .filter_map(|e| match e {
                ChatEvent::ToolCall(call) => Some(call),
                _ => None,
            })
            .collect();
        assert_eq!(
            calls,
            [&ToolCall {
                id: "call_1".into(),
                name: "get_weather".into(),
                arguments: r#"{"city":"Paris"}"#.into(),
            }]
        );
        assert!(
            out.contains(&ChatEvent::Stop(StopReason::ToolUse)),
            "{out:?}"
        );
        let replay = mapper.finish().unwrap();
        assert_eq!(
            replay.content["tool_calls"],
            json!([{"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}])
        );
        assert_eq!(replay.content["thinking"], "Need the weather.");
    }
}
