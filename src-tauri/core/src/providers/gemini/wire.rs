//! Serde mirror of Gemini's `generateContent`: the request as far as Ponder writes it, and
//! the `GenerateContentResponse` chunks as far as it reads them.
//! <https://ai.google.dev/api/generate-content>

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A `generateContent` request, before the reasoning plan adds `generationConfig`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Request<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_instruction: Option<Instruction>,
    pub contents: Vec<ContentParam>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<Tools<'a>>,
}

/// The functions the model may call. `parametersJsonSchema` takes a full JSON Schema, as MCP
/// servers write them (the older `parameters` takes only an OpenAPI subset).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tools<'a> {
    pub function_declarations: Vec<FunctionDeclaration<'a>>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FunctionDeclaration<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub parameters_json_schema: &'a Value,
}

#[derive(Debug, Serialize)]
pub struct Instruction {
    pub parts: Vec<PartParam>,
}

#[derive(Debug, Serialize)]
pub struct ContentParam {
    pub role: &'static str,
    pub parts: Vec<PartParam>,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum PartParam {
    Text {
        text: String,
    },
    /// A part of an earlier answer exactly as Gemini gave it, with its `thoughtSignature`.
    Verbatim(Value),
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Chunk {
    #[serde(default)]
    pub candidates: Vec<Candidate>,
    #[serde(default)]
    pub usage_metadata: Option<UsageMetadata>,
    #[serde(default)]
    pub model_version: Option<String>,
    #[serde(default)]
    pub prompt_feedback: Option<Value>,
    #[serde(default)]
    pub error: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    #[serde(default)]
    pub content: Option<Content>,
    #[serde(default)]
    pub finish_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct Content {
    /// Each part stays a JSON object: its fields go back to Gemini exactly as they came.
    #[serde(default)]
    pub parts: Vec<serde_json::Map<String, Value>>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageMetadata {
    #[serde(default)]
    pub prompt_token_count: Option<u32>,
    #[serde(default)]
    pub candidates_token_count: Option<u32>,
    #[serde(default)]
    pub thoughts_token_count: Option<u32>,
    #[serde(default)]
    pub cached_content_token_count: Option<u32>,
}
