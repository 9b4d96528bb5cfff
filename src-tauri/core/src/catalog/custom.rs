//! Servers of the user's own: any endpoint speaking one of the protocols, following a
//! built-in provider's reasoning dialect.

use serde::{Deserialize, Serialize};

use super::{Catalog, Protocol, ProviderEntry};

/// A server the user added: any OpenAI-compatible (or Anthropic-, Gemini- or Ollama-shaped)
/// endpoint, which speaks about reasoning the way one of the built-in providers does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CustomProvider {
    /// `custom-…`, unique; keys are stored under it.
    pub id: String,
    pub name: String,
    pub base_url: String,
    pub protocol: Protocol,
    /// The built-in provider whose reasoning dialect and generic rule it follows.
    pub preset: String,
    /// Whether it takes an API key.
    #[serde(default)]
    pub needs_key: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CustomProviderError {
    #[error("a custom provider needs a name")]
    NoName,
    #[error("{0:?} is not an http or https address")]
    BadUrl(String),
    #[error("{0:?} is not a provider to follow; use one of {1}")]
    UnknownPreset(String, String),
}

impl CustomProvider {
    /// The id a name gets: `custom-` and the name in lowercase letters, digits and dashes.
    pub fn id_for(name: &str) -> String {
        let mut slug = String::new();
        for ch in name.trim().chars() {
            if ch.is_ascii_alphanumeric() {
                slug.push(ch.to_ascii_lowercase());
            } else if !slug.ends_with('-') && !slug.is_empty() {
                slug.push('-');
            }
        }
        format!("custom-{}", slug.trim_end_matches('-'))
    }

    pub fn check(&self, catalog: &Catalog) -> Result<(), CustomProviderError> {
        if self.name.trim().is_empty() || self.id == "custom-" {
            return Err(CustomProviderError::NoName);
        }
        let url = self.base_url.trim();
        if !(url.starts_with("http://") || url.starts_with("https://")) || url.len() < 10 {
            return Err(CustomProviderError::BadUrl(self.base_url.clone()));
        }
        // A provider one signs in to (Copilot) has no address of its own to copy.
        let followable = |p: &ProviderEntry| p.sign_in.is_none() && !p.id.starts_with("custom-");
        if !catalog.provider(&self.preset).is_ok_and(followable) {
            let presets: Vec<&str> = catalog
                .providers
                .iter()
                .filter(|p| followable(p))
                .map(|p| p.id.as_str())
                .collect();
            return Err(CustomProviderError::UnknownPreset(
                self.preset.clone(),
                presets.join(", "),
            ));
        }
        Ok(())
    }
}

impl Catalog {
    /// This catalog with the user's own servers added, each following its preset's dialect
    /// and generic rule (and none of its model rules: the server lists its own models).
    /// Entries that do not check out are left out.
    pub fn with_custom(&self, custom: &[CustomProvider]) -> Catalog {
        let mut catalog = self.clone();
        for c in custom {
            if c.check(self).is_err() || catalog.provider(&c.id).is_ok() {
                continue;
            }
            let Ok(preset) = self.provider(&c.preset) else {
                continue;
            };
            catalog.providers.push(ProviderEntry {
                id: c.id.clone(),
                name: c.name.trim().to_owned(),
                protocol: c.protocol,
                dialect: preset.dialect,
                base_url: c.base_url.trim().to_owned(),
                docs: preset.docs.clone(),
                api_key_env: c.needs_key.then(|| crate::secrets::env_var(&c.id)),
                responses_api: c.protocol == Protocol::OpenaiResponses,
                output_shares_window: preset.output_shares_window,
                // Whatever it serves may inline thoughts, and its tokenizer is unknown.
                inline_thoughts: true,
                tokenizer: None,
                sign_in: None,
                generic: preset.generic.clone(),
            });
        }
        catalog
    }
}
