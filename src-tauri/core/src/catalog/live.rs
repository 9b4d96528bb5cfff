//! A model as a provider's own list gives it: its id and name, and — where the list says —
//! the API it answers on and the efforts it takes. The catalog reads these facts
//! (`Catalog::with_live`); `providers::models` fetches the lists.

use serde::Serialize;

use crate::reasoning::plan::ApiChoice;

/// One model a provider listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LiveModel {
    pub id: String,
    /// The provider's own name for it, where its list gives one (Anthropic, Gemini).
    pub name: Option<String>,
    /// The API paths it answers on, where the list says (Copilot's `supported_endpoints`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<String>,
    /// The reasoning efforts it takes, where the list says (Copilot's
    /// `supports.reasoning_effort`): a model that reasons, and how finely.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub efforts: Vec<String>,
}

impl LiveModel {
    pub fn named(id: impl Into<String>, name: Option<String>) -> Self {
        Self {
            id: id.into(),
            name,
            endpoints: Vec::new(),
            efforts: Vec::new(),
        }
    }

    /// The one API the list says the model answers on, where it names only one of Chat
    /// Completions and Responses.
    pub fn only_api(&self) -> Option<ApiChoice> {
        let on = |path: &str| {
            self.endpoints
                .iter()
                .any(|e| e.trim_end_matches('/').ends_with(path))
        };
        match (on("/chat/completions"), on("/responses")) {
            (true, false) => Some(ApiChoice::Chat),
            (false, true) => Some(ApiChoice::Responses),
            _ => None,
        }
    }
}
