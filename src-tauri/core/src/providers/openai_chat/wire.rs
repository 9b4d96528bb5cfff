//! Serde mirror of OpenAI Chat Completions: the request as far as Ponder writes it, and the
//! streamed chunks, with the reasoning fields the compatible vendors add
//! (`reasoning_content`, `reasoning`, `reasoning_details`) and Mistral's typed content arrays.
//! <https://platform.openai.com/docs/api-reference/chat/create>,
//! <https://platform.openai.com/docs/api-reference/chat/streaming>

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A Chat Completions request, before the reasoning plan adds the vendor's own fields
/// (`reasoning_effort`, `thinking`, `enable_thinking`, `chat_template_kwargs`…).
#[derive(Debug, Serialize)]
pub struct Request<'a> {
    pub model: &'a str,
    pub messages: Vec<MessageParam>,
    pub stream: bool,
    pub stream_options: StreamOptions,
    /// The tools the model may call (left out when there are none: some servers reject an
    /// empty list).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<ToolParam<'a>>,
}

/// A function tool, as Chat Completions (and Ollama's native API) describe one.
#[derive(Debug, Serialize)]
pub struct ToolParam<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub function: FunctionParam<'a>,
}

#[derive(Debug, Serialize)]
pub struct FunctionParam<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub parameters: &'a Value,
}

impl<'a> ToolParam<'a> {
    pub fn function(spec: &'a crate::chat::ToolSpec) -> Self {
        Self {
            kind: "function",
            function: FunctionParam {
                name: &spec.name,
                description: &spec.description,
                parameters: &spec.input_schema,
            },
        }
    }
}

/// Asks for the usage in a last chunk of the stream.
#[derive(Debug, Serialize)]
pub struct StreamOptions {
    pub include_usage: bool,
}

#[derive(Debug, Serialize)]
pub struct MessageParam {
    pub role: &'static str,
    /// Text, or an earlier answer's content exactly as the server gave it.
    pub content: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Value>,
    /// On a `tool` message: the call it answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// Earlier reasoning as plain text, for the servers that take it back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_content: Option<String>,
    /// Earlier structured reasoning (OpenRouter, MiniMax), unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_details: Option<Value>,
    /// Copilot: an earlier turn's thoughts and their opaque signature, as it sent them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_opaque: Option<String>,
}

impl MessageParam {
    pub fn text(role: &'static str, text: impl Into<String>) -> Self {
        Self {
            role,
            content: Value::String(text.into()),
            tool_calls: None,
            tool_call_id: None,
            reasoning_content: None,
            reasoning_details: None,
            reasoning_text: None,
            reasoning_opaque: None,
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct Chunk {
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub choices: Vec<Choice>,
    #[serde(default)]
    pub usage: Option<WireUsage>,
    /// OpenRouter reports upstream failures inside a 200 stream this way.
    #[serde(default)]
    pub error: Option<Value>,
}

#[derive(Debug, Deserialize)]
pub struct Choice {
    #[serde(default)]
    pub index: u32,
    /// A streamed chunk's change.
    #[serde(default)]
    pub delta: Option<Delta>,
    /// A whole response's message (same shape).
    #[serde(default)]
    pub message: Option<Delta>,
    #[serde(default)]
    pub finish_reason: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Delta {
    #[serde(default)]
    pub content: Option<Content>,
    #[serde(default)]
    pub reasoning_content: Option<String>,
    #[serde(default)]
    pub reasoning: Option<String>,
    #[serde(default)]
    pub reasoning_details: Option<Vec<Value>>,
    /// GitHub Copilot's field for the thoughts of the models it serves on Chat Completions.
    #[serde(default)]
    pub reasoning_text: Option<String>,
    /// Copilot's signature over those thoughts (Gemini and Claude), to be sent back with them.
    #[serde(default)]
    pub reasoning_opaque: Option<String>,
    #[serde(default)]
    pub tool_calls: Option<Vec<ToolCallDelta>>,
    #[serde(default)]
    pub refusal: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Content {
    Text(String),
    Parts(Vec<ContentPart>),
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentPart {
    Text {
        text: String,
    },
    /// Mistral Magistral: `{"type":"thinking","thinking":[{"type":"text","text":…}]}`.
    Thinking {
        thinking: Vec<ThinkingPiece>,
    },
    #[serde(other)]
    Other,
}

#[derive(Debug, Deserialize)]
pub struct ThinkingPiece {
    #[serde(default)]
    pub text: String,
}

#[derive(Debug, Deserialize)]
pub struct ToolCallDelta {
    #[serde(default)]
    pub index: Option<usize>,
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub function: Option<FunctionDelta>,
    /// Vendor data on the call that must go back with it: Gemini's OpenAI-compatible endpoint
    /// puts the call's `thought_signature` here (`{"google": {"thought_signature": …}}`).
    #[serde(default)]
    pub extra_content: Option<Value>,
}

#[derive(Debug, Deserialize)]
pub struct FunctionDelta {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub arguments: Option<String>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
pub struct WireUsage {
    #[serde(default)]
    pub prompt_tokens: Option<u32>,
    #[serde(default)]
    pub completion_tokens: Option<u32>,
    #[serde(default)]
    pub completion_tokens_details: Option<CompletionDetails>,
    #[serde(default)]
    pub prompt_tokens_details: Option<PromptDetails>,
    /// DeepSeek's name for cached prompt tokens.
    #[serde(default)]
    pub prompt_cache_hit_tokens: Option<u32>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
pub struct CompletionDetails {
    #[serde(default)]
    pub reasoning_tokens: Option<u32>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
pub struct PromptDetails {
    #[serde(default)]
    pub cached_tokens: Option<u32>,
}
