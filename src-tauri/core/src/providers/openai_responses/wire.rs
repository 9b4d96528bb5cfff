//! Serde mirror of the OpenAI Responses API: the request as far as Ponder writes it, and the
//! streaming events as far as it reads them.
//! <https://platform.openai.com/docs/api-reference/responses-streaming>

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A Responses request, before the reasoning plan adds `reasoning` and `include`. Nothing is
/// stored on OpenAI's side (`store: false`): every turn carries what the model needs.
#[derive(Debug, Serialize)]
pub struct Request<'a> {
    pub model: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<&'a str>,
    pub input: Vec<InputItem>,
    pub stream: bool,
    pub store: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<FunctionTool<'a>>,
}

/// A function the model may call (the Responses form: no nested `function` object).
#[derive(Debug, Serialize)]
pub struct FunctionTool<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub name: &'a str,
    pub description: &'a str,
    pub parameters: &'a Value,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum InputItem {
    User {
        role: &'static str,
        content: Vec<InputText>,
    },
    Assistant {
        role: &'static str,
        content: String,
    },
    /// The system prompt as a message, where a server reads it there rather than in
    /// `instructions` (Copilot).
    Developer {
        role: &'static str,
        content: String,
    },
    /// A call another provider's model made, or what a tool returned for a call.
    Function(FunctionItem),
    /// An output item of an earlier answer (a reasoning item with its encrypted content, a
    /// message, a function call), sent back unchanged.
    Verbatim(Value),
}

impl InputItem {
    pub fn user(text: String) -> Self {
        Self::User {
            role: "user",
            content: vec![InputText {
                kind: "input_text",
                text,
            }],
        }
    }

    pub fn developer(text: String) -> Self {
        Self::Developer {
            role: "developer",
            content: text,
        }
    }

    pub fn assistant(text: String) -> Self {
        Self::Assistant {
            role: "assistant",
            content: text,
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FunctionItem {
    FunctionCall {
        call_id: String,
        name: String,
        arguments: String,
    },
    FunctionCallOutput {
        call_id: String,
        output: String,
    },
}

#[derive(Debug, Serialize)]
pub struct InputText {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub text: String,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type")]
pub enum StreamEvent {
    #[serde(rename = "response.created")]
    Created { response: ResponseHead },
    #[serde(rename = "response.output_item.added")]
    ItemAdded { item: Value },
    #[serde(rename = "response.reasoning_summary_part.added")]
    SummaryPartAdded {
        #[serde(default)]
        summary_index: u32,
    },
    #[serde(rename = "response.reasoning_summary_text.delta")]
    SummaryDelta { delta: String },
    #[serde(rename = "response.reasoning_text.delta")]
    ReasoningTextDelta { delta: String },
    #[serde(rename = "response.output_text.delta")]
    TextDelta { delta: String },
    #[serde(rename = "response.refusal.delta")]
    RefusalDelta { delta: String },
    #[serde(rename = "response.output_item.done")]
    ItemDone { item: Value },
    #[serde(rename = "response.completed")]
    Completed { response: ResponseTail },
    #[serde(rename = "response.incomplete")]
    Incomplete { response: ResponseTail },
    #[serde(rename = "response.failed")]
    Failed { response: ResponseTail },
    #[serde(rename = "error")]
    Error {
        #[serde(flatten)]
        body: Value,
    },
    #[serde(other)]
    Other,
}

#[derive(Debug, Deserialize)]
pub struct ResponseHead {
    #[serde(default)]
    pub model: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct ResponseTail {
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub incomplete_details: Option<Value>,
    #[serde(default)]
    pub error: Option<Value>,
    #[serde(default)]
    pub usage: Option<WireUsage>,
    /// Present in whole (non-streamed) responses.
    #[serde(default)]
    pub output: Vec<Value>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
pub struct WireUsage {
    #[serde(default)]
    pub input_tokens: Option<u32>,
    #[serde(default)]
    pub output_tokens: Option<u32>,
    #[serde(default)]
    pub output_tokens_details: Option<OutputDetails>,
    #[serde(default)]
    pub input_tokens_details: Option<InputDetails>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
pub struct OutputDetails {
    #[serde(default)]
    pub reasoning_tokens: Option<u32>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
pub struct InputDetails {
    #[serde(default)]
    pub cached_tokens: Option<u32>,
}
