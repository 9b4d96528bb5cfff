//! The models a provider offers right now, from its own list endpoint, so that the picker can
//! show models the catalog does not know yet (with the provider's generic rule).

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::error::{ProviderError, from_status};
use super::http::{Attempt, HttpConfig, network_error};
use crate::reasoning::catalog::{Protocol, ProviderEntry};

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

/// Model ids from a list response body.
pub fn parse_model_list(protocol: Protocol, body: &Value) -> Vec<String> {
    let items = |key: &str| {
        body.get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let mut ids: Vec<String> = match protocol {
        Protocol::Gemini => items("models")
            .iter()
            .filter(|m| {
                // Only models that can chat; embedding models and the like are left out.
                m.get("supportedGenerationMethods")
                    .and_then(Value::as_array)
                    .is_none_or(|methods| methods.iter().any(|x| x == "generateContent"))
            })
            .filter_map(|m| m.get("name").and_then(Value::as_str))
            .map(|name| name.trim_start_matches("models/").to_owned())
            .collect(),
        Protocol::Ollama => items("models")
            .iter()
            .filter_map(|m| {
                m.get("name")
                    .or_else(|| m.get("model"))
                    .and_then(Value::as_str)
            })
            .map(str::to_owned)
            .collect(),
        Protocol::Anthropic | Protocol::OpenaiChat | Protocol::OpenaiResponses => items("data")
            .iter()
            .filter_map(|m| m.get("id").and_then(Value::as_str))
            .map(str::to_owned)
            .collect(),
    };
    ids.sort();
    ids.dedup();
    ids
}

/// Asks a provider for its models (one attempt; the picker still has the catalog if this fails).
pub async fn list_live(
    client: &reqwest::Client,
    provider: &ProviderEntry,
    base_url: Option<&str>,
    api_key: Option<&str>,
    config: &HttpConfig,
    cancel: &CancellationToken,
) -> Result<Vec<String>, Attempt> {
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
        () = cancel.cancelled() => return Err(Attempt::Cancelled),
        r = tokio::time::timeout(config.connect_timeout * 2, request.send()) => match r {
            Err(_) => return Err(Attempt::Failed(ProviderError::network(id, "the model list did not come in time"))),
            Ok(Err(err)) => return Err(Attempt::Failed(network_error(id, &err))),
            Ok(Ok(response)) => response,
        },
    };
    let status = response.status().as_u16();
    let body = response
        .bytes()
        .await
        .map_err(|e| Attempt::Failed(network_error(id, &e)))?;
    if !(200..300).contains(&status) {
        return Err(Attempt::Failed(from_status(id, status, None, &body)));
    }
    let value: Value = serde_json::from_slice(&body)
        .map_err(|e| Attempt::Failed(ProviderError::unreadable_response(id, &e)))?;
    Ok(parse_model_list(provider.protocol, &value))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_protocols_list_is_read() {
        let openai =
            json!({"object": "list", "data": [{"id": "o3"}, {"id": "gpt-9"}, {"id": "o3"}]});
        assert_eq!(
            parse_model_list(Protocol::OpenaiChat, &openai),
            ["gpt-9", "o3"]
        );
        let anthropic = json!({"data": [{"id": "claude-sonnet-4-5-20250929", "type": "model"}], "has_more": false});
        assert_eq!(
            parse_model_list(Protocol::Anthropic, &anthropic),
            ["claude-sonnet-4-5-20250929"]
        );
        let gemini = json!({"models": [
            {"name": "models/gemini-2.5-pro", "supportedGenerationMethods": ["generateContent", "countTokens"]},
            {"name": "models/text-embedding-004", "supportedGenerationMethods": ["embedContent"]}
        ]});
        assert_eq!(
            parse_model_list(Protocol::Gemini, &gemini),
            ["gemini-2.5-pro"]
        );
        let ollama = json!({"models": [{"name": "qwen3:8b"}, {"name": "llama3.2:latest"}]});
        assert_eq!(
            parse_model_list(Protocol::Ollama, &ollama),
            ["llama3.2:latest", "qwen3:8b"]
        );
        assert!(parse_model_list(Protocol::OpenaiChat, &json!({"error": "nope"})).is_empty());
    }
}
