//! What a thinking choice turns into for one request.

use std::collections::BTreeMap;

use super::params::ReasoningParams;
use serde::{Deserialize, Serialize};

use super::choice::Choice;
use super::overrides::Caching;

/// The user's choice, kept per conversation, between the two APIs an OpenAI-style provider
/// offers. It is a wish: the plan's [`Endpoint`] says where the request really goes (a model
/// that only answers on Responses goes there whatever was chosen).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ApiChoice {
    Chat,
    Responses,
}

/// Where one request goes: the provider's [`Protocol`](crate::catalog::Protocol) with the
/// user's [`ApiChoice`] and the model's limits applied. A provider's protocol is what it speaks
/// by default; the endpoint is what this turn speaks, and what the request is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Endpoint {
    /// Anthropic Messages.
    Messages,
    /// OpenAI Chat Completions or a compatible server.
    Chat,
    /// OpenAI Responses.
    Responses,
    /// Gemini `generateContent`.
    GenerateContent,
    /// Ollama's native `/api/chat`.
    OllamaChat,
}

/// Facts about the turn that change what is valid to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnContext {
    /// The API the user asked for, where a provider has both; `None` picks the provider's best.
    pub api: Option<ApiChoice>,
    /// The conversation's cap on output tokens (`maxOutputTokens`), if set.
    pub max_output: Option<u32>,
    /// Tokens already in the conversation (effective count, after stripping).
    pub context_tokens: u64,
    /// Cut budgets to 10,000 tokens when the context passes 150,000.
    pub long_context_reduction: bool,
    /// The request carries tools.
    pub tools: bool,
}

impl Default for TurnContext {
    fn default() -> Self {
        Self {
            api: None,
            max_output: None,
            context_tokens: 0,
            long_context_reduction: true,
            tools: false,
        }
    }
}

/// What the choice means for this model, in Ponder's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum MeaningKind {
    Budget,
    Adaptive,
    Effort,
    Level,
    Disabled,
    ProviderDefault,
    Toggle,
    Always,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Meaning {
    pub kind: MeaningKind,
    /// The budget the level stands for (before any cut to keep the request valid).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub tokens: Option<u32>,
    /// The effort, level or toggle value.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub value: Option<String>,
}

impl Meaning {
    pub fn kind(kind: MeaningKind) -> Self {
        Self {
            kind,
            tokens: None,
            value: None,
        }
    }

    pub fn tokens(kind: MeaningKind, tokens: u32) -> Self {
        Self {
            kind,
            tokens: Some(tokens),
            value: None,
        }
    }

    pub fn value(kind: MeaningKind, value: impl Into<String>) -> Self {
        Self {
            kind,
            tokens: None,
            value: Some(value.into()),
        }
    }
}

/// The lines shown in the conversation when a model or level changes: what was chosen and
/// what it means ("medium — 43,008 tokens"), with any cut or warning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Feedback {
    /// `✓ Switched to Anthropic claude-sonnet-4-5`.
    pub switched: String,
    /// Each shown as `⚠ …`.
    pub warnings: Vec<String>,
    /// `Thinking: medium (43,008 tokens)`.
    pub thinking: String,
    /// Further lines, such as the recommended output buffer.
    pub notes: Vec<String>,
}

impl Feedback {
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![self.switched.clone()];
        lines.extend(self.warnings.iter().map(|w| format!("⚠ {w}")));
        lines.push(self.thinking.clone());
        lines.extend(self.notes.iter().cloned());
        lines
    }

    /// The headline, then each further line indented by two spaces.
    pub fn text(&self) -> String {
        self.lines().join("\n  ")
    }
}

/// Everything a request needs from the reasoning engine.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    pub provider: String,
    pub model: String,
    pub api: Endpoint,
    pub choice: Choice,
    pub meaning: Meaning,
    /// Fields to merge into the request body, exactly as sent.
    pub request: ReasoningParams,
    /// Extra HTTP headers.
    pub headers: BTreeMap<String, String>,
    /// Body fields that must not be sent with this plan (e.g. `temperature` with Anthropic thinking).
    pub omit: Vec<String>,
    /// Whether the request must stream.
    pub stream: bool,
    pub caching: Caching,
    pub feedback: Feedback,
    pub warnings: Vec<String>,
    /// The model is not in the catalog and its provider's generic rule was used.
    pub generic: bool,
}

impl Plan {
    /// The cap on the whole answer (thinking included) this plan sends, in whichever field
    /// its protocol names it.
    pub fn output_cap(&self) -> Option<u32> {
        self.request.output_cap()
    }

    /// The thinking budget this plan sends, where the model takes one.
    pub fn thinking_budget(&self) -> Option<u32> {
        self.request.thinking_budget()
    }
}

/// Formats a token count the way the feedback lines do: `43,008`.
pub fn thousands(n: impl Into<u64>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        for (n, text) in [
            (0u32, "0"),
            (999, "999"),
            (1024, "1,024"),
            (43008, "43,008"),
            (1048576, "1,048,576"),
        ] {
            assert_eq!(thousands(n), text);
        }
    }
}
