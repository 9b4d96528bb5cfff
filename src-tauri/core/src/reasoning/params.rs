//! The request fields a reasoning plan sets, typed: every provider's own spelling of
//! "think this much" and "answer at most this long", in one struct that serializes to
//! exactly the JSON that is merged into the protocol's body.
//!
//! A field is `None` when the plan says nothing about it, and then nothing is sent: the
//! provider's default holds. Only the fields one dialect uses are ever set together.

use serde::Serialize;

/// The reasoning plan's part of a request body.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ReasoningParams {
    /// Anthropic and OpenRouter: the cap on the whole answer, thinking included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    /// Anthropic (`enabled` with a budget, `adaptive`, `disabled`) and the `thinking.type`
    /// switch of DeepSeek, Kimi, GLM and MiniMax.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking: Option<ThinkingParam>,
    /// Anthropic adaptive thinking's effort.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_config: Option<OutputConfig>,
    /// OpenAI Responses (`effort`, `summary`) and OpenRouter (`effort`, `max_tokens`,
    /// `enabled`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<ReasoningParam>,
    /// OpenAI Chat Completions and the compatible vendors that copy it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_effort: Option<String>,
    /// Responses: what else to return (the encrypted reasoning item, for replay).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include: Option<Vec<String>>,
    /// Responses: the user's output cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_output_tokens: Option<u32>,
    /// Chat Completions: the user's output cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_completion_tokens: Option<u32>,
    /// Ollama: the user's output cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<OllamaOptions>,
    /// Gemini: the thinking configuration and the output cap.
    #[serde(rename = "generationConfig", skip_serializing_if = "Option::is_none")]
    pub generation_config: Option<GenerationConfig>,
    /// Qwen (DashScope) switch and budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable_thinking: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_budget: Option<u32>,
    /// llama.cpp and vLLM servers: the budget beside the chat template's switch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_budget_tokens: Option<u32>,
    /// MiniMax: thoughts in their own field instead of inline tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_split: Option<bool>,
    /// Ollama: on/off, or a level for gpt-oss.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub think: Option<Think>,
    /// Chat templates (llama.cpp, vLLM, SGLang) read these keyword arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chat_template_kwargs: Option<ChatTemplateKwargs>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ThinkingMode {
    Enabled,
    Disabled,
    Adaptive,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThinkingParam {
    #[serde(rename = "type")]
    pub mode: ThinkingMode,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_tokens: Option<u32>,
    /// `summarized` asks Opus 4.7 and later for thinking text at all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display: Option<String>,
}

impl ThinkingParam {
    pub fn mode(mode: ThinkingMode) -> Self {
        Self {
            mode,
            budget_tokens: None,
            display: None,
        }
    }

    pub fn switch(on: bool) -> Self {
        Self::mode(if on {
            ThinkingMode::Enabled
        } else {
            ThinkingMode::Disabled
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutputConfig {
    pub effort: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ReasoningParam {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effort: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
}

impl ReasoningParam {
    pub fn effort(effort: &str) -> Self {
        Self {
            effort: Some(effort.to_owned()),
            ..Self::default()
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OllamaOptions {
    pub num_predict: u32,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GenerationConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_output_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_config: Option<ThinkingConfig>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ThinkingConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_budget: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_level: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_thoughts: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Think {
    Switch(bool),
    Level(String),
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ChatTemplateKwargs {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable_thinking: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_effort: Option<String>,
}

impl ReasoningParams {
    /// Nothing set: the provider decides everything.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// The Gemini thinking configuration, created on first use.
    pub fn gemini_thinking(&mut self) -> &mut ThinkingConfig {
        self.generation_config
            .get_or_insert_with(GenerationConfig::default)
            .thinking_config
            .get_or_insert_with(ThinkingConfig::default)
    }

    /// The cap on the whole answer (thinking included), in whichever field it is sent.
    pub fn output_cap(&self) -> Option<u32> {
        self.max_tokens
            .or(self.max_output_tokens)
            .or(self.max_completion_tokens)
            .or_else(|| self.generation_config.as_ref()?.max_output_tokens)
            .or_else(|| Some(self.options.as_ref()?.num_predict))
    }

    /// The thinking budget sent, where the model takes one.
    pub fn thinking_budget(&self) -> Option<u32> {
        self.thinking
            .as_ref()
            .and_then(|t| t.budget_tokens)
            .or_else(|| {
                self.generation_config
                    .as_ref()?
                    .thinking_config
                    .as_ref()?
                    .thinking_budget
            })
            .or(self.thinking_budget)
            .or(self.thinking_budget_tokens)
            .or_else(|| self.reasoning.as_ref()?.max_tokens)
            .filter(|budget| *budget > 0)
    }

    /// The fields as the JSON object that is merged into a body.
    pub fn to_json(&self) -> serde_json::Map<String, serde_json::Value> {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(map)) => map,
            // A struct of optional fields always serializes to an object.
            _ => serde_json::Map::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_set_fields_are_sent_in_the_providers_spelling() {
        let mut params = ReasoningParams {
            thinking: Some(ThinkingParam {
                budget_tokens: Some(2_048),
                ..ThinkingParam::mode(ThinkingMode::Enabled)
            }),
            think: Some(Think::Level("low".into())),
            ..ReasoningParams::default()
        };
        params.gemini_thinking().include_thoughts = Some(true);
        assert_eq!(
            serde_json::to_value(&params).unwrap(),
            json!({
                "thinking": { "type": "enabled", "budget_tokens": 2048 },
                "think": "low",
                "generationConfig": { "thinkingConfig": { "includeThoughts": true } },
            })
        );
        assert!(ReasoningParams::default().to_json().is_empty());
        assert!(ReasoningParams::default().is_empty());
    }

    #[test]
    fn the_cap_and_budget_are_read_from_whichever_field_carries_them() {
        let mut gemini = ReasoningParams::default();
        gemini.gemini_thinking().thinking_budget = Some(8_192);
        gemini.generation_config.as_mut().unwrap().max_output_tokens = Some(20_000);
        assert_eq!(gemini.thinking_budget(), Some(8_192));
        assert_eq!(gemini.output_cap(), Some(20_000));

        let off = ReasoningParams {
            generation_config: Some(GenerationConfig {
                thinking_config: Some(ThinkingConfig {
                    thinking_budget: Some(0),
                    ..ThinkingConfig::default()
                }),
                ..GenerationConfig::default()
            }),
            ..ReasoningParams::default()
        };
        assert_eq!(off.thinking_budget(), None, "a budget of 0 is off");
        let ollama = ReasoningParams {
            options: Some(OllamaOptions { num_predict: 900 }),
            ..ReasoningParams::default()
        };
        assert_eq!(ollama.output_cap(), Some(900));
    }
}
