//! Provider clients: four protocols (plus Ollama's native API) chosen by a `match`, vendors as
//! data in the catalog, a pure translation per protocol, and one typed error.

pub mod anthropic;
pub mod auth;
pub mod context;
pub mod copilot;
pub mod error;
pub mod gemini;
pub mod http;
pub mod inline;
pub mod models;
pub mod ndjson;
pub mod ollama;
pub mod openai_chat;
pub mod openai_responses;
pub mod request;
pub mod sse;
pub mod stream;
pub mod tokens;

use crate::catalog::{Dialect, ModelInfo, Protocol};
use crate::reasoning::plan::{Endpoint, Plan};

/// The wire format one request is written in: the protocol, or for the OpenAI protocols the
/// endpoint the plan chose. Every dispatch by protocol matches on this once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    Anthropic,
    Gemini,
    Ollama,
    OpenaiResponses,
    OpenaiChat,
}

impl Wire {
    pub fn of(model: &ModelInfo, plan: &Plan) -> Self {
        match (model.provider.protocol, plan.api) {
            (Protocol::Anthropic, _) => Self::Anthropic,
            (Protocol::Gemini, _) => Self::Gemini,
            (Protocol::Ollama, _) => Self::Ollama,
            (_, Endpoint::Responses) => Self::OpenaiResponses,
            (Protocol::OpenaiChat | Protocol::OpenaiResponses, _) => Self::OpenaiChat,
        }
    }
}

/// The request body for a turn: the history made sendable (tool calls paired with results,
/// hidden thoughts left out), then written by the protocol's pure translation.
pub fn to_wire(input: request::WireInput<'_>) -> request::WireRequest {
    let paired = context::paired_tool_turns(input.history);
    let history = paired.as_deref().unwrap_or(input.history);
    let shown = context::without_hidden_thoughts(history);
    let input = request::WireInput {
        history: shown.as_deref().unwrap_or(history),
        ..input
    };
    match Wire::of(input.model, input.plan) {
        Wire::Anthropic => anthropic::translate::to_wire(input),
        Wire::Gemini => gemini::translate::to_wire(input),
        Wire::Ollama => ollama::translate::to_wire(input),
        Wire::OpenaiResponses => openai_responses::translate::to_wire(input),
        Wire::OpenaiChat => openai_chat::translate::to_wire(input),
    }
}

/// Where a request goes: the provider's base URL (or an override, such as a proxy or the
/// mock provider) plus the protocol's path.
pub fn endpoint_url(model: &ModelInfo, plan: &Plan, base_url: Option<&str>) -> String {
    let base = base_url
        .unwrap_or(&model.provider.base_url)
        .trim_end_matches('/');
    match Wire::of(model, plan) {
        Wire::Anthropic => format!("{base}/v1/messages"),
        Wire::Gemini if plan.stream => {
            format!("{base}/models/{}:streamGenerateContent?alt=sse", model.id)
        }
        Wire::Gemini => format!("{base}/models/{}:generateContent", model.id),
        Wire::Ollama => format!("{base}/api/chat"),
        Wire::OpenaiResponses => format!("{base}/responses"),
        Wire::OpenaiChat => format!("{base}/chat/completions"),
    }
}

/// The same request asking for the whole answer instead of a stream (`plan.stream` false).
pub fn unstreamed(
    model: &ModelInfo,
    plan: &Plan,
    request: &http::HttpRequest,
    base_url: Option<&str>,
) -> http::HttpRequest {
    let mut again = request.clone();
    if let Ok(serde_json::Value::Object(mut body)) =
        serde_json::from_slice::<serde_json::Value>(&request.body)
    {
        request::unstream(&mut body);
        again.body = serde_json::to_vec(&body).map_or_else(|_| request.body.clone(), Into::into);
    }
    again.url = endpoint_url(model, plan, base_url);
    again
}

/// The request headers: content type, the key in the provider's own header, and the plan's.
pub fn request_headers(
    model: &ModelInfo,
    plan: &Plan,
    api_key: Option<&str>,
) -> Vec<(String, String)> {
    let mut headers = vec![("content-type".to_owned(), "application/json".to_owned())];
    match model.provider.protocol {
        Protocol::Anthropic => {
            headers.push(("anthropic-version".into(), "2023-06-01".into()));
            if let Some(key) = api_key {
                headers.push(("x-api-key".into(), key.to_owned()));
            }
        }
        Protocol::Gemini => {
            if let Some(key) = api_key {
                headers.push(("x-goog-api-key".into(), key.to_owned()));
            }
        }
        Protocol::OpenaiChat | Protocol::OpenaiResponses | Protocol::Ollama => {
            if let Some(key) = api_key {
                headers.push(("authorization".into(), format!("Bearer {key}")));
            }
        }
    }
    headers.push((
        "accept".into(),
        "text/event-stream, application/x-ndjson, application/json".into(),
    ));
    if model.provider.dialect == Dialect::Copilot {
        headers.extend(copilot::api_headers());
    }
    for (name, value) in &plan.headers {
        headers.push((name.clone(), value.clone()));
    }
    headers
}

/// A whole (not streamed) answer read as the events its stream would have given, with what
/// to replay of it: the same mappers, fed the one response.
pub fn parse_whole(
    model: &ModelInfo,
    plan: &Plan,
    body: &str,
    out: &mut Vec<crate::chat::ChatEvent>,
) -> Result<Option<crate::chat::Replay>, error::ProviderError> {
    let (provider, id) = (model.provider.id.as_str(), model.id.as_str());
    match Wire::of(model, plan) {
        Wire::Anthropic => anthropic::parse_response(provider, id, body, out),
        Wire::Gemini => gemini::parse_response(provider, id, body, out),
        Wire::Ollama => {
            let mut mapper = ollama::EventMapper::new(provider, id);
            mapper.on_line(body.trim(), out);
            Ok(mapper.finish())
        }
        Wire::OpenaiResponses => openai_responses::parse_response(provider, id, body, out),
        Wire::OpenaiChat => {
            openai_chat::parse_response(provider, id, inline_thoughts(model), body, out)
        }
    }
}

fn inline_thoughts(model: &ModelInfo) -> openai_chat::InlineThoughts {
    match (model.provider.inline_thoughts, model.think_tags) {
        (false, _) => openai_chat::InlineThoughts::None,
        (true, false) => openai_chat::InlineThoughts::Tagged,
        (true, true) => openai_chat::InlineThoughts::TaggedFromStart,
    }
}

/// The event mapper for a model's protocol and the endpoint the plan chose.
pub fn mapper_for(model: &ModelInfo, plan: &Plan) -> stream::Mapper {
    let (provider, id) = (model.provider.id.as_str(), model.id.as_str());
    match Wire::of(model, plan) {
        Wire::Anthropic => stream::Mapper::Anthropic(anthropic::EventMapper::new(provider, id)),
        Wire::Gemini => stream::Mapper::Gemini(gemini::EventMapper::new(provider, id)),
        Wire::Ollama => stream::Mapper::Ollama(ollama::EventMapper::new(provider, id)),
        Wire::OpenaiResponses => {
            stream::Mapper::OpenaiResponses(openai_responses::EventMapper::new(provider, id))
        }
        Wire::OpenaiChat => stream::Mapper::OpenaiChat(openai_chat::EventMapper::new(
            provider,
            id,
            inline_thoughts(model),
        )),
    }
}
