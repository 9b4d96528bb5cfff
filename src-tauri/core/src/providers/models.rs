//! The models a provider offers right now, from its own list endpoint, so that the picker can
//! show models the catalog does not know yet (with the provider's generic rule).

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::error::{ProviderError, from_status};
use super::http::{self, AttemptError, HttpConfig, network_error};
use crate::catalog::model_list::is_chat_model;
use crate::catalog::{Protocol, ProviderEntry};

pub use crate::catalog::LiveModel;

/// The list endpoint and how to read it, per protocol.
fn list_url(provider: &ProviderEntry, base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    match provider.protocol {
        Protocol::Anthropic => format!("{base}/v1/models?limit=1000"),
        Protocol::Gemini => format!("{base}/models?pageSize=1000"),
        Protocol::Ollama => format!("{base}/api/tags"),
        Protocol::OpenaiChat | Protocol::OpenaiResponses => format!("{base}/models"),
    }
}

/// The chat models in a list response body, by id, each once.
pub fn parse_model_list(protocol: Protocol, body: &Value) -> Vec<LiveModel> {
    let items = |key: &str| {
        body.get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let text = |m: &Value, key: &str| m.get(key).and_then(Value::as_str).map(str::to_owned);
    let mut models: Vec<LiveModel> = match protocol {
        Protocol::Gemini => items("models")
            .iter()
            .filter(|m| {
                // Only models that can chat; embedding models and the like are left out.
                m.get("supportedGenerationMethods")
                    .and_then(Value::as_array)
                    .is_none_or(|methods| methods.iter().any(|x| x == "generateContent"))
            })
            .filter_map(|m| {
                Some(LiveModel::named(
                    text(m, "name")?.trim_start_matches("models/"),
                    text(m, "displayName"),
                ))
            })
            .collect(),
        Protocol::Ollama => items("models")
            .iter()
            .filter_map(|m| {
                Some(LiveModel::named(
                    text(m, "name").or_else(|| text(m, "model"))?,
                    None,
                ))
            })
            .collect(),
        Protocol::Anthropic | Protocol::OpenaiChat | Protocol::OpenaiResponses => items("data")
            .iter()
            .filter_map(|m| Some(LiveModel::named(text(m, "id")?, text(m, "display_name"))))
            .collect(),
    };
    // OpenAI-style lists hold every model of the account: embeddings, speech, images.
    models.retain(|m| !m.id.is_empty() && is_chat_model(&m.id));
    models.sort_by(|a, b| a.id.cmp(&b.id));
    models.dedup_by(|a, b| a.id == b.id);
    models
}

/// Asks a provider for its models (one attempt; the picker still has the catalog if this fails).
pub async fn list_live(
    client: &reqwest::Client,
    provider: &ProviderEntry,
    base_url: Option<&str>,
    api_key: Option<&str>,
    config: &HttpConfig,
    cancel: &CancellationToken,
) -> Result<Vec<LiveModel>, AttemptError> {
    let url = list_url(provider, base_url.unwrap_or(&provider.base_url));
    let mut request = client.get(&url);
    if let Some(key) = api_key {
        request = match provider.protocol {
            Protocol::Anthropic => request
                .header("x-api-key", key)
                .header("anthropic-version", "2023-06-01"),
            Protocol::Gemini => request.header("x-goog-api-key", key),
            _ => request.bearer_auth(key),
        };
    }
    let id = provider.id.as_str();
    let response = tokio::select! {
        () = cancel.cancelled() => return Err(AttemptError::Cancelled),
        r = tokio::time::timeout(config.connect_timeout * 2, request.send()) => match r {
            Err(_) => return Err(AttemptError::Failed(ProviderError::network(id, "the model list did not come in time"))),
            Ok(Err(err)) => return Err(AttemptError::Failed(network_error(id, &err))),
            Ok(Ok(response)) => response,
        },
    };
    let status = response.status().as_u16();
    let mut response = response;
    let body = if (200..300).contains(&status) {
        http::read_whole_body(
            &mut response,
            id,
            "the model list",
            http::MAX_WHOLE_BODY,
            config,
            cancel,
        )
        .await?
    } else {
        http::read_body(&mut response, id, http::MAX_ERROR_BODY, config, cancel)
            .await?
            .bytes
    };
    if !(200..300).contains(&status) {
        return Err(AttemptError::Failed(from_status(id, status, None, &body)));
    }
    let value: Value = serde_json::from_slice(&body)
        .map_err(|e| AttemptError::Failed(ProviderError::unreadable_response(id, &e)))?;
    Ok(parse_model_list(provider.protocol, &value))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn ids(models: Vec<LiveModel>) -> Vec<String> {
        models.into_iter().map(|m| m.id).collect()
    }

    #[test]
    fn every_protocols_list_is_read() {
        let openai =
            json!({"object": "list", "data": [{"id": "o3"}, {"id": "gpt-9"}, {"id": "o3"}]});
        assert_eq!(
            ids(parse_model_list(Protocol::OpenaiChat, &openai)),
            ["gpt-9", "o3"]
        );
        let anthropic = json!({"data": [{"id": "claude-sonnet-4-5-20250929", "type": "model", "display_name": "Claude Sonnet 4.5"}], "has_more": false});
        assert_eq!(
            parse_model_list(Protocol::Anthropic, &anthropic),
            [LiveModel::named(
                "claude-sonnet-4-5-20250929",
                Some("Claude Sonnet 4.5".into())
            )]
        );
        let gemini = json!({"models": [
            {"name": "models/gemini-2.5-pro", "displayName": "Gemini 2.5 Pro", "supportedGenerationMethods": ["generateContent", "countTokens"]},
            {"name": "models/text-embedding-004", "supportedGenerationMethods": ["embedContent"]}
        ]});
        assert_eq!(
            parse_model_list(Protocol::Gemini, &gemini),
            [LiveModel::named(
                "gemini-2.5-pro",
                Some("Gemini 2.5 Pro".into())
            )]
        );
        let ollama = json!({"models": [{"name": "qwen3:8b"}, {"name": "llama3.2:latest"}]});
        assert_eq!(
            ids(parse_model_list(Protocol::Ollama, &ollama)),
            ["llama3.2:latest", "qwen3:8b"]
        );
        assert!(parse_model_list(Protocol::OpenaiChat, &json!({"error": "nope"})).is_empty());
    }

    /// The shape of OpenAI's `GET /v1/models`: chat, reasoning, embedding, speech, images.
    #[test]
    fn an_openai_style_list_keeps_only_chat_models() {
        let body = json!({"object": "list", "data": [
            {"id": "gpt-5.4", "object": "model", "created": 1772668800, "owned_by": "system"},
            {"id": "o3", "object": "model", "created": 1744761600, "owned_by": "system"},
            {"id": "text-embedding-3-small", "object": "model", "created": 1705948997, "owned_by": "system"},
            {"id": "tts-1-hd", "object": "model", "created": 1699046015, "owned_by": "system"},
            {"id": "whisper-1", "object": "model", "created": 1677532384, "owned_by": "openai-internal"},
            {"id": "gpt-4o-transcribe", "object": "model", "created": 1742068463, "owned_by": "system"},
            {"id": "dall-e-3", "object": "model", "created": 1698785189, "owned_by": "system"},
            {"id": "gpt-image-1", "object": "model", "created": 1745517030, "owned_by": "system"},
            {"id": "omni-moderation-latest", "object": "model", "created": 1731689265, "owned_by": "system"},
            {"id": "gpt-4o-realtime-preview", "object": "model", "created": 1727659998, "owned_by": "system"}
        ]});
        assert_eq!(
            ids(parse_model_list(Protocol::OpenaiResponses, &body)),
            ["gpt-5.4", "o3"]
        );
    }
}
