//! Neutral chat types: what a conversation holds and what a stream says, whatever the provider.
//!
//! An assistant message is ordered parts (text, thinking blocks, tool calls) for display and
//! export, plus an opaque `Replay` of the provider-native turn, tagged with its origin and only
//! ever sent back to that same provider and model.
//!
//! A turn with tools is a run of messages: the assistant's step that calls tools, a `Tool`
//! message with their results, the next step, and so on until an answer. Each step keeps its
//! own replay, so every protocol gets back exactly the turn it wrote, however many steps.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::providers::error::ProviderError;

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
    /// The results of the tools the assistant's previous step called.
    Tool,
}

/// Which field or form a thought arrived in; needed to send it back the way it came.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ThoughtSource {
    /// Anthropic `thinking` / `redacted_thinking` blocks.
    Thinking,
    /// OpenAI-compatible `reasoning_content` (DeepSeek, Kimi, Qwen, GLM, xAI, llama.cpp).
    ReasoningContent,
    /// `reasoning` (OpenRouter, Ollama's /v1, vLLM) or Ollama's native `thinking`.
    Reasoning,
    /// OpenRouter / MiniMax `reasoning_details`.
    ReasoningDetails,
    /// OpenAI Responses reasoning summary.
    Summary,
    /// Raw `reasoning_text`: OpenAI Responses (open models behind Responses servers), and
    /// GitHub Copilot's Chat Completions deltas.
    ReasoningText,
    /// Gemini `thought: true` parts.
    Thought,
    /// Inline `<think>…</think>` in the content.
    ThinkTag,
}

impl Role {
    /// The role's name as stored and shown to the window: `user`, `assistant`, `tool`.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl ThoughtSource {
    /// Whether the provider returns a summary written by another model rather than the thoughts.
    pub fn is_summary(self) -> bool {
        matches!(self, Self::Summary | Self::Thought)
    }
}

/// One block of a model's thinking, with everything needed to show it and send it back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ThinkingBlock {
    pub text: String,
    pub source: Option<ThoughtSource>,
    /// Anthropic's signature over the block (required to replay it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Anthropic `redacted_thinking.data`: encrypted thoughts with no readable text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redacted: Option<String>,
    /// Provider-specific data the block came with (a Gemini `thoughtSignature`, a Responses
    /// reasoning item with `encrypted_content`, OpenRouter `reasoning_details`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider_data: Option<Value>,
    /// Kept but not shown (e.g. the user hid it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_estimate: Option<u32>,
}

impl ThinkingBlock {
    pub fn is_redacted(&self) -> bool {
        self.redacted.is_some()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The arguments as the provider sent them (JSON text).
    pub arguments: String,
}

impl ToolCall {
    /// The arguments as a JSON object, as the protocols that take an object want them. Text
    /// that is not an object (a model's malformed arguments) becomes an empty object: the
    /// call was answered with an error, and the history must still be valid.
    pub fn arguments_object(&self) -> serde_json::Map<String, Value> {
        match serde_json::from_str(&self.arguments) {
            Ok(Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        }
    }
}

/// What a tool returned for one call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolResult {
    /// The id of the call it answers.
    pub call_id: String,
    pub name: String,
    pub content: Vec<ToolContent>,
    /// The call failed (the tool said so, it timed out, the user denied it): the model is
    /// told, so it can go on another way.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
}

impl ToolResult {
    pub fn error(call: &ToolCall, message: impl Into<String>) -> Self {
        Self {
            call_id: call.id.clone(),
            name: call.name.clone(),
            content: vec![ToolContent::Text {
                text: message.into(),
            }],
            is_error: true,
            duration_ms: None,
        }
    }

    /// The result as text, for the protocols whose tool results carry text only (an image
    /// is named, not sent).
    pub fn text(&self) -> String {
        let mut out = String::new();
        for item in &self.content {
            if !out.is_empty() {
                out.push('\n');
            }
            match item {
                ToolContent::Text { text } => out.push_str(text),
                ToolContent::Image { mime_type, data } => out.push_str(&format!(
                    "[image: {mime_type}, {} bytes]",
                    data.len() / 4 * 3
                )),
            }
        }
        out
    }
}

/// One piece of a tool's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ToolContent {
    Text {
        text: String,
    },
    /// Base64 data, as MCP and the providers carry it.
    Image {
        mime_type: String,
        data: String,
    },
}

/// A tool offered to the model: its name, what it does and the JSON Schema of its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Part {
    Text { text: String },
    Thinking(ThinkingBlock),
    ToolCall(ToolCall),
    ToolResult(ToolResult),
    Attachment(Attachment),
}

/// A file given with the user's words, kept once in the attachment store by its hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    pub sha256: String,
    pub kind: crate::attachments::kind::Kind,
    /// How the user knows it: the file's name.
    pub name: String,
    pub bytes: u64,
    /// A PDF's page count, where it could be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages: Option<u32>,
    /// An image's size in pixels, for the estimate of what it costs in tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pixels: Option<(u32, u32)>,
    /// What is sent: read from the store just before a request is written, never stored or
    /// exported (the store has the file), and absent when the file is gone.
    #[serde(skip)]
    pub data: Option<Payload>,
}

/// What a request sends of an attached file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// Read as text: a text file, or a PDF's text for a model that reads no PDFs.
    Text(std::sync::Arc<str>),
    /// The bytes to send (the stored file, or a smaller copy of an image); they become
    /// base64 only as the request body is written, once.
    Bytes(std::sync::Arc<[u8]>),
    /// Not read: a preview of the request shows this instead of the file.
    Described(String),
}

/// The provider-native assistant turn, kept verbatim for providers that need it back
/// unchanged (signatures, encrypted reasoning, thought signatures on their parts).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replay {
    pub provider: String,
    pub model: String,
    pub content: Value,
}

/// The provider and model that produced an assistant message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    pub provider: String,
    pub model: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub parts: Vec<Part>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<Replay>,
}

impl Message {
    pub fn user(text: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            parts: vec![Part::Text { text: text.into() }],
            origin: None,
            replay: None,
        }
    }

    /// The visible text, parts joined in order.
    pub fn text(&self) -> String {
        self.parts
            .iter()
            .filter_map(|p| match p {
                Part::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.parts.iter().filter_map(|p| match p {
            Part::ToolCall(call) => Some(call),
            _ => None,
        })
    }

    /// The files given with it, in order.
    pub fn attachments(&self) -> impl Iterator<Item = &Attachment> {
        self.parts.iter().filter_map(|p| match p {
            Part::Attachment(file) => Some(file),
            _ => None,
        })
    }

    pub fn tool_results(&self) -> impl Iterator<Item = &ToolResult> {
        self.parts.iter().filter_map(|p| match p {
            Part::ToolResult(result) => Some(result),
            _ => None,
        })
    }

    /// A message of tool results, answering the calls of the step before it.
    pub fn tool(results: Vec<ToolResult>) -> Self {
        Self {
            role: Role::Tool,
            parts: results.into_iter().map(Part::ToolResult).collect(),
            origin: None,
            replay: None,
        }
    }

    pub fn thinking(&self) -> impl Iterator<Item = &ThinkingBlock> {
        self.parts.iter().filter_map(|p| match p {
            Part::Thinking(block) => Some(block),
            _ => None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Usage {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<u32>,
    /// Output tokens including reasoning, as every provider but Gemini counts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached: Option<u32>,
}

impl Usage {
    /// Later reports win field by field (Anthropic sends input first and output last).
    pub fn merge(&mut self, later: Usage) {
        self.input = later.input.or(self.input);
        self.output = later.output.or(self.output);
        self.reasoning = later.reasoning.or(self.reasoning);
        self.cached = later.cached.or(self.cached);
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum StopReason {
    End,
    /// The output cap was reached; `whileThinking` when no answer had started. (Stored and
    /// exported answers from before the camelCase key read through the alias.)
    MaxTokens {
        #[serde(rename = "whileThinking", alias = "while_thinking")]
        #[cfg_attr(feature = "ts", ts(rename = "whileThinking"))]
        while_thinking: bool,
    },
    ToolUse,
    Refusal,
    ContentFilter,
    Cancelled,
    Other {
        reason: String,
    },
}

/// What a provider stream says, in Ponder's terms.
#[derive(Debug, Clone, PartialEq)]
pub enum ChatEvent {
    ThinkingStart {
        source: ThoughtSource,
    },
    ThinkingDelta {
        text: String,
    },
    /// Sets the signature of the open thinking block.
    ThinkingSignature {
        signature: String,
    },
    /// Attaches provider data to the open (or, if none is open, the last) thinking block.
    ThinkingData {
        data: Value,
    },
    /// A whole redacted block.
    ThinkingRedacted {
        data: String,
    },
    ThinkingEnd,
    TextDelta {
        text: String,
    },
    ToolCall(ToolCall),
    Usage(Usage),
    Stop(StopReason),
    Error(ProviderError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_reason_is_written_in_camel_case_and_read_in_either_case() {
        let stop = StopReason::MaxTokens {
            while_thinking: true,
        };
        assert_eq!(
            serde_json::to_value(&stop).unwrap(),
            serde_json::json!({ "kind": "max_tokens", "whileThinking": true })
        );
        for stored in [
            r#"{"kind":"max_tokens","whileThinking":true}"#,
            r#"{"kind":"max_tokens","while_thinking":true}"#,
        ] {
            assert_eq!(serde_json::from_str::<StopReason>(stored).unwrap(), stop);
        }
    }
}
