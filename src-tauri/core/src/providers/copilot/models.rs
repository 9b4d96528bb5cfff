//! The models this Copilot account may use, from the Copilot API's own list: the chat models
//! its editors offer in their picker and the account's policy allows.

use super::wire::{ModelsResponse, WireModel};
use crate::providers::models::LiveModel;

/// One model of the list, as the picker needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopilotModel {
    pub id: String,
    pub name: Option<String>,
    pub vendor: Option<String>,
    pub preview: bool,
    /// The API paths it answers on; Chat Completions when the list does not say.
    pub endpoints: Vec<String>,
    /// The reasoning efforts it takes, where the list says: a model that reasons.
    pub efforts: Vec<String>,
}

impl CopilotModel {
    pub fn answers_on_responses(&self) -> bool {
        self.endpoints
            .iter()
            .any(|e| e.trim_end_matches('/').ends_with("/responses"))
    }

    pub fn answers_on_chat(&self) -> bool {
        self.endpoints
            .iter()
            .any(|e| e.trim_end_matches('/').ends_with("/chat/completions"))
    }
}

/// The chat models of a `/models` answer, each once, in the list's order.
pub fn parse(body: &[u8]) -> Result<Vec<CopilotModel>, serde_json::Error> {
    let list: ModelsResponse = serde_json::from_slice(body)?;
    let mut out: Vec<CopilotModel> = Vec::new();
    for model in list.data.into_iter().filter(offered) {
        if out.iter().any(|m| m.id == model.id) {
            continue;
        }
        out.push(CopilotModel {
            efforts: model
                .capabilities
                .supports
                .reasoning_effort
                .clone()
                .unwrap_or_default(),
            endpoints: model
                .supported_endpoints
                .clone()
                .unwrap_or_else(|| vec!["/chat/completions".to_owned()]),
            id: model.id,
            name: model.name.filter(|n| !n.trim().is_empty()),
            vendor: model.vendor,
            preview: model.preview,
        });
    }
    Ok(out)
}

fn offered(model: &WireModel) -> bool {
    let chat = model
        .capabilities
        .kind
        .as_deref()
        .is_none_or(|kind| kind == "chat");
    // A model with terms the account (or its organisation) has not enabled answers with an
    // error: offered only once enabled, as the editors do.
    let allowed = model
        .policy
        .as_ref()
        .and_then(|p| p.state.as_deref())
        .is_none_or(|state| state == "enabled");
    chat && allowed && model.model_picker_enabled
}

/// The list as the picker's live models.
pub fn live(models: &[CopilotModel]) -> Vec<LiveModel> {
    models
        .iter()
        .map(|m| LiveModel {
            endpoints: m.endpoints.clone(),
            efforts: m.efforts.clone(),
            ..LiveModel::named(m.id.clone(), m.name.clone())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_chat_models_the_picker_offers_are_kept() {
        let body = br#"{"data":[
          {"id":"gpt-4o","name":"GPT-4o","vendor":"Azure OpenAI","model_picker_enabled":true,"object":"model","preview":false,
           "capabilities":{"family":"gpt-4o","type":"chat","limits":{"max_context_window_tokens":128000,"max_output_tokens":4096},"supports":{"streaming":true,"tool_calls":true}}},
          {"id":"gpt-5.4","name":"GPT-5.4","vendor":"OpenAI","model_picker_enabled":true,"preview":false,
           "capabilities":{"family":"gpt-5.4","type":"chat"},"supported_endpoints":["/chat/completions","/responses"]},
          {"id":"claude-sonnet-4.6","name":"Claude Sonnet 4.6","vendor":"Anthropic","model_picker_enabled":true,"preview":false,
           "capabilities":{"family":"claude-sonnet-4.6","type":"chat"},"policy":{"state":"enabled","terms":"Enable access to the latest Claude models"},"supported_endpoints":["/chat/completions","/v1/messages"]},
          {"id":"claude-opus-4.8","name":"Claude Opus 4.8","model_picker_enabled":true,"capabilities":{"type":"chat"},"policy":{"state":"disabled"}},
          {"id":"claude-opus-4.5","name":"Claude Opus 4.5","model_picker_enabled":true,"capabilities":{"type":"chat"},"policy":{"state":"unconfigured"}},
          {"id":"gpt-4o-2024-11-20","name":"GPT-4o","model_picker_enabled":false,"capabilities":{"type":"chat"}},
          {"id":"text-embedding-3-small","name":"Embedding V3 small","model_picker_enabled":false,"capabilities":{"type":"embeddings"}},
          {"id":"gpt-4o","name":"GPT-4o again","model_picker_enabled":true,"capabilities":{"type":"chat"}}
        ],"object":"list"}"#;
        let models = parse(body).unwrap();
        let ids: Vec<&str> = models.iter().map(|m| m.id.as_str()).collect();
        assert_eq!(ids, ["gpt-4o", "gpt-5.4", "claude-sonnet-4.6"]);
        assert!(!models[0].answers_on_responses() && models[0].answers_on_chat());
        assert!(models[1].answers_on_responses() && models[1].answers_on_chat());
        assert!(!models[2].answers_on_responses());
        assert_eq!(live(&models)[2].name.as_deref(), Some("Claude Sonnet 4.6"));
    }

    #[test]
    fn an_answer_that_is_not_a_list_is_an_error() {
        assert!(parse(b"<html></html>").is_err());
        assert_eq!(parse(br#"{"data":[]}"#).unwrap(), []);
    }
}
