//! Serde mirror of Ollama's native chat request, as far as Ponder writes it (the stream is
//! read as loose JSON lines in `translate`).
//! <https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion>

use serde::Serialize;

/// A `/api/chat` request, before the reasoning plan adds `think`.
#[derive(Debug, Serialize)]
pub struct Request<'a> {
    pub model: &'a str,
    pub messages: Vec<Message>,
    pub stream: bool,
    /// The same function tools as Chat Completions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<crate::providers::openai_chat::wire::ToolParam<'a>>,
}

#[derive(Debug, Serialize)]
pub struct Message {
    pub role: &'static str,
    pub content: String,
    /// Earlier reasoning, where the conversation keeps it and the model takes it back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking: Option<String>,
    /// An assistant step's calls, arguments as objects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<serde_json::Value>>,
    /// On a `tool` message: which tool answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// On a user's message: the images given with it, in base64.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<String>,
}

impl Message {
    pub fn new(role: &'static str, content: impl Into<String>) -> Self {
        Self {
            role,
            content: content.into(),
            thinking: None,
            tool_calls: None,
            tool_name: None,
            images: Vec::new(),
        }
    }
}
