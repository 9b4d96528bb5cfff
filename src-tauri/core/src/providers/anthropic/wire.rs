//! Serde mirror of the Anthropic Messages API, as far as Ponder writes and reads it.
//! <https://docs.anthropic.com/en/api/messages>,
//! <https://docs.anthropic.com/en/api/messages-streaming>

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

/// A Messages request, before the reasoning plan adds its fields (`thinking`,
/// `output_config`, a larger `max_tokens`, beta headers).
#[derive(Debug, Serialize)]
pub struct Request<'a> {
    pub model: &'a str,
    pub max_tokens: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<&'a str>,
    pub messages: Vec<MessageParam>,
    pub stream: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<ToolDef<'a>>,
}

/// A tool the model may call.
#[derive(Debug, Serialize)]
pub struct ToolDef<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub input_schema: &'a Value,
}

#[derive(Debug, Serialize)]
pub struct MessageParam {
    pub role: &'static str,
    pub content: Vec<ContentBlock>,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ContentBlock {
    Text(TextBlock),
    ToolUse(ToolUseBlock),
    ToolResult(ToolResultBlock),
    /// A block from an earlier answer, sent back exactly as the API gave it (thinking blocks
    /// with their signatures must not change by a byte).
    Verbatim(Value),
}

#[derive(Debug, Serialize)]
pub struct TextBlock {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_control: Option<CacheControl>,
}

impl TextBlock {
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            kind: "text",
            text: text.into(),
            cache_control: None,
        }
    }
}

/// A tool call another provider's model made, in Anthropic's form.
#[derive(Debug, Serialize)]
pub struct ToolUseBlock {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub id: String,
    pub name: String,
    pub input: serde_json::Map<String, Value>,
}

#[derive(Debug, Serialize)]
pub struct ToolResultBlock {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub tool_use_id: String,
    pub content: Vec<ResultContent>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ResultContent {
    Text { text: String },
    Image { source: ImageSource },
}

#[derive(Debug, Serialize)]
pub struct ImageSource {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub media_type: String,
    pub data: String,
}

/// Marks the end of the prompt prefix Anthropic may cache.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct CacheControl {
    #[serde(rename = "type")]
    pub kind: &'static str,
}

impl CacheControl {
    pub const EPHEMERAL: Self = Self { kind: "ephemeral" };
}

/// One streamed event; the `type` field repeats the SSE event name. Its strings borrow
/// from the event's bytes where they hold no escapes (a delta's text nearly always).
#[derive(Debug)]
pub enum StreamEvent<'a> {
    MessageStart {
        message: MessageHead,
    },
    ContentBlockStart {
        index: usize,
        content_block: Value,
    },
    ContentBlockDelta {
        index: usize,
        delta: Delta<'a>,
    },
    ContentBlockStop {
        index: usize,
    },
    MessageDelta {
        stop_reason: Option<String>,
        usage: Option<WireUsage>,
    },
    MessageStop,
    Ping,
    Error {
        error: Value,
    },
    Unknown,
}

impl<'a> StreamEvent<'a> {
    /// Reads one event in a single pass of the JSON parser (a block delta as the API writes
    /// it is read before, by matching its fixed parts: `hot`). Every event type's fields are
    /// read into one flat struct and the `type` picks the variant after: serde's internally
    /// tagged enums would first copy each event into a tree of its own to find the tag, which
    /// cost a sixth of reading a long stream. Fields that only rare events have stay raw JSON
    /// until then, so the struct a delta is read into stays small.
    pub(super) fn parse_json(data: &'a str) -> Result<Self, serde_json::Error> {
        use serde::de::Error as _;
        let raw: RawEvent<'a> = serde_json::from_str(data)?;
        let index = || {
            raw.index
                .ok_or_else(|| serde_json::Error::missing_field("index"))
        };
        fn field<'v>(
            value: Option<&'v RawValue>,
            name: &'static str,
        ) -> Result<&'v str, serde_json::Error> {
            value
                .map(RawValue::get)
                .ok_or_else(|| serde_json::Error::missing_field(name))
        }
        Ok(match &*raw.kind {
            "content_block_delta" => {
                let delta = raw
                    .delta
                    .ok_or_else(|| serde_json::Error::missing_field("delta"))?;
                let body = delta.body.unwrap_or_default();
                Self::ContentBlockDelta {
                    index: index()?,
                    delta: match delta.kind.as_deref() {
                        Some("text_delta") => Delta::TextDelta(body),
                        Some("thinking_delta") => Delta::ThinkingDelta(body),
                        Some("signature_delta") => Delta::SignatureDelta(body),
                        Some("input_json_delta") => Delta::InputJsonDelta(body),
                        _ => Delta::Other,
                    },
                }
            }
            "message_start" => Self::MessageStart {
                message: serde_json::from_str(field(raw.message, "message")?)?,
            },
            "content_block_start" => Self::ContentBlockStart {
                index: index()?,
                content_block: serde_json::from_str(field(raw.content_block, "content_block")?)?,
            },
            "content_block_stop" => Self::ContentBlockStop { index: index()? },
            "message_delta" => Self::MessageDelta {
                stop_reason: raw.delta.and_then(|d| d.stop_reason).map(Cow::into_owned),
                usage: raw
                    .usage
                    .map(|u| serde_json::from_str(u.get()))
                    .transpose()?,
            },
            "message_stop" => Self::MessageStop,
            "ping" => Self::Ping,
            "error" => Self::Error {
                error: serde_json::from_str(field(raw.error, "error")?)?,
            },
            _ => Self::Unknown,
        })
    }
}

/// Every field any stream event has; which ones are present depends on `type`.
#[derive(Debug, Deserialize)]
struct RawEvent<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default)]
    index: Option<usize>,
    #[serde(default, borrow)]
    delta: Option<RawDelta<'a>>,
    #[serde(default, borrow)]
    message: Option<&'a RawValue>,
    #[serde(default, borrow)]
    content_block: Option<&'a RawValue>,
    #[serde(default, borrow)]
    usage: Option<&'a RawValue>,
    #[serde(default, borrow)]
    error: Option<&'a RawValue>,
}

/// A content block's delta, or a message delta's body (`stop_reason`). A block delta has one
/// of its type's fields, which are all read into `body`.
#[derive(Debug, Deserialize)]
struct RawDelta<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(
        default,
        borrow,
        alias = "text",
        alias = "thinking",
        alias = "signature",
        alias = "partial_json"
    )]
    body: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    stop_reason: Option<Cow<'a, str>>,
}

#[derive(Debug, Deserialize)]
pub struct MessageHead {
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub usage: Option<WireUsage>,
}

#[derive(Debug)]
pub enum Delta<'a> {
    TextDelta(Cow<'a, str>),
    ThinkingDelta(Cow<'a, str>),
    SignatureDelta(Cow<'a, str>),
    InputJsonDelta(Cow<'a, str>),
    Other,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
pub struct WireUsage {
    #[serde(default)]
    pub input_tokens: Option<u32>,
    #[serde(default)]
    pub output_tokens: Option<u32>,
    #[serde(default)]
    pub cache_read_input_tokens: Option<u32>,
    #[serde(default)]
    pub output_tokens_details: Option<OutputDetails>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
pub struct OutputDetails {
    #[serde(default)]
    pub thinking_tokens: Option<u32>,
}

/// A whole (non-streamed) response.
#[derive(Debug, Deserialize)]
pub struct Response {
    #[serde(default)]
    pub model: Option<String>,
    pub content: Vec<Value>,
    #[serde(default)]
    pub stop_reason: Option<String>,
    #[serde(default)]
    pub usage: Option<WireUsage>,
}
