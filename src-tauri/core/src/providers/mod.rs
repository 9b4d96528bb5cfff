//! Provider clients: four protocols (plus Ollama's native API) chosen by a `match`, vendors as
//! data in the catalog, a pure translation per protocol, and one typed error.

pub mod anthropic;
pub mod context;
pub mod copilot;
pub mod error;
pub mod gemini;
pub mod http;
pub mod models;
pub mod ndjson;
pub mod ollama;
pub mod openai_chat;
pub mod openai_responses;
pub mod request;
pub mod sse;
pub mod stream;
pub mod tokens;

use crate::reasoning::catalog::{Dialect, ModelInfo, Protocol};
use crate::reasoning::plan::{Endpoint, Plan};

/// Where a request goes: the provider's base URL (or an override, such as a proxy or the
/// mock provider) plus the protocol's path.
pub fn endpoint_url(model: &ModelInfo, plan: &Plan, base_url: Option<&str>) -> String {
    let base = base_url
        .unwrap_or(&model.provider.base_url)
        .trim_end_matches('/');
    match (model.provider.protocol, plan.api) {
        (Protocol::Anthropic, _) => format!("{base}/v1/messages"),
        (Protocol::Gemini, _) => {
            format!("{base}/models/{}:streamGenerateContent?alt=sse", model.id)
        }
        (Protocol::Ollama, _) => format!("{base}/api/chat"),
        (_, Endpoint::Responses) => format!("{base}/responses"),
        _ => format!("{base}/chat/completions"),
    }
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

/// The event mapper for a model's protocol and the endpoint the plan chose.
pub fn mapper_for(model: &ModelInfo, plan: &Plan) -> stream::Mapper {
    let (provider, id) = (model.provider.id.as_str(), model.id.as_str());
    match (model.provider.protocol, plan.api) {
        (Protocol::Anthropic, _) => {
            stream::Mapper::Anthropic(anthropic::EventMapper::new(provider, id))
        }
        (Protocol::Gemini, _) => stream::Mapper::Gemini(gemini::EventMapper::new(provider, id)),
        (Protocol::Ollama, _) => stream::Mapper::Ollama(ollama::EventMapper::new(provider, id)),
        (_, Endpoint::Responses) => {
            stream::Mapper::OpenaiResponses(openai_responses::EventMapper::new(provider, id))
        }
        _ => {
            let inline = match (model.provider.inline_thoughts, model.think_tags) {
                (false, _) => openai_chat::InlineThoughts::None,
                (true, false) => openai_chat::InlineThoughts::Tagged,
                (true, true) => openai_chat::InlineThoughts::TaggedFromStart,
            };
            stream::Mapper::OpenaiChat(openai_chat::EventMapper::new(provider, id, inline))
        }
    }
}
