//! A conversation's reasoning settings, and named profiles of them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::choice::Choice;

/// Which stored thoughts are kept when building the next request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum StripFromContext {
    All,
    AllButLast,
    #[default]
    None,
}

/// How thoughts are sent back where they are sent: as the provider's native blocks, or in
/// the OpenAI-compatible `reasoning_content` field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ThoughtFormat {
    Native,
    #[default]
    Field,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReasoningSettings {
    /// False sends no reasoning parameters, but thoughts a model returns are still kept.
    pub enabled: bool,
    pub include_in_context: bool,
    pub include_in_response: bool,
    pub format: ThoughtFormat,
    pub strip_from_context: StripFromContext,
    /// The most one answer may hold, thinking included (`max_tokens`, `max_output_tokens`,
    /// `maxOutputTokens`). Where the level sets a thinking budget, the budget is cut to leave
    /// room for the answer within it. The older name `maxTokens` still reads.
    #[serde(skip_serializing_if = "Option::is_none", alias = "maxTokens")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub max_output_tokens: Option<u32>,
    /// Past 150,000 tokens of conversation, budgets are cut to 10,000, so that a long
    /// conversation still leaves room for the answer.
    pub long_context_cut: bool,
    /// The conversation's system prompt (a profile can carry one too).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub system_prompt: Option<String>,
    /// A system prompt that came with an imported file. It is not sent until the user has
    /// read it and chosen to use it: a shared conversation must not instruct the model
    /// unseen.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub imported_system_prompt: Option<String>,
    /// For providers that have both, Chat Completions or Responses; `None` lets Ponder choose.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub api: Option<super::plan::ApiChoice>,
    pub choice: Choice,
    /// The tools this conversation offers the model (MCP servers, tools switched off, tools
    /// allowed without asking).
    #[serde(skip_serializing_if = "crate::tools::ToolChoice::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<crate::tools::ToolChoice>", optional))]
    pub tools: crate::tools::ToolChoice,
}

/// A new conversation's settings: thinking asked for, thoughts shown and stored but kept out
/// of later requests, sent back (where they are) in the plain `reasoning_content` field.
impl Default for ReasoningSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            include_in_context: false,
            include_in_response: true,
            format: ThoughtFormat::Field,
            strip_from_context: StripFromContext::None,
            max_output_tokens: None,
            long_context_cut: true,
            system_prompt: None,
            imported_system_prompt: None,
            api: None,
            choice: Choice::Default,
            tools: crate::tools::ToolChoice::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    #[error("unknown reasoning setting {0:?}; settings are {SETTING_KEYS}")]
    UnknownKey(String),
    #[error("{key} cannot be {value:?}: {expected}")]
    BadValue {
        key: String,
        value: String,
        expected: &'static str,
    },
}

pub const SETTING_KEYS: &str = "enabled, includeInContext, includeInResponse, format, stripFromContext, maxOutputTokens (or maxTokens), longContextCut, effort";

impl ReasoningSettings {
    /// Applies `/set reasoning.KEY VALUE`; `KEY` may carry the `reasoning.` prefix.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        let key = key.strip_prefix("reasoning.").unwrap_or(key);
        let bad = |expected: &'static str| SettingError::BadValue {
            key: format!("reasoning.{key}"),
            value: value.to_owned(),
            expected,
        };
        let flag = |v: &str| match v.to_ascii_lowercase().as_str() {
            "true" | "on" | "yes" => Some(true),
            "false" | "off" | "no" => Some(false),
            _ => None,
        };
        match key {
            "enabled" => self.enabled = flag(value).ok_or_else(|| bad("true or false"))?,
            "includeInContext" => {
                self.include_in_context = flag(value).ok_or_else(|| bad("true or false"))?
            }
            "includeInResponse" => {
                self.include_in_response = flag(value).ok_or_else(|| bad("true or false"))?
            }
            "format" => {
                self.format = match value {
                    "native" => ThoughtFormat::Native,
                    "field" => ThoughtFormat::Field,
                    _ => return Err(bad("native or field")),
                }
            }
            "stripFromContext" => {
                self.strip_from_context = match value {
                    "all" => StripFromContext::All,
                    "allButLast" => StripFromContext::AllButLast,
                    "none" => StripFromContext::None,
                    _ => return Err(bad("all, allButLast or none")),
                }
            }
            "longContextCut" => {
                self.long_context_cut = flag(value).ok_or_else(|| bad("true or false"))?
            }
            "maxOutputTokens" | "maxTokens" => {
                self.max_output_tokens = match value {
                    "unset" | "none" | "default" => None,
                    digits => Some(
                        digits
                            .parse::<u32>()
                            .ok()
                            .filter(|n| *n > 0)
                            .ok_or_else(|| bad("a number of tokens above zero, or unset"))?,
                    ),
                }
            }
            "effort" | "choice" | "level" => {
                self.choice = value
                    .parse()
                    .map_err(|_| bad("default, off, minimal, low, medium, high, max or a budget"))?
            }
            _ => return Err(SettingError::UnknownKey(key.to_owned())),
        }
        Ok(())
    }
}

/// Named sets of reasoning settings (`/profile save NAME`, `/profile load NAME`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Profiles(BTreeMap<String, ReasoningSettings>);

impl Profiles {
    pub fn save(&mut self, name: &str, settings: &ReasoningSettings) {
        self.0.insert(name.to_owned(), settings.clone());
    }

    pub fn load(&self, name: &str) -> Option<&ReasoningSettings> {
        self.0.get(name)
    }

    pub fn delete(&mut self, name: &str) -> bool {
        self.0.remove(name).is_some()
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_seed_001() {
        let s = ReasoningSettings::default();
        assert!(s.enabled, "default 1");
        assert!(!s.include_in_context, "default 2");
        assert!(s.include_in_response, "default 3");
        assert_eq!(s.format, ThoughtFormat::Field, "default 4");
        assert_eq!(s.strip_from_context, StripFromContext::None, "default 5");
        assert_eq!(s.max_output_tokens, None);
        assert_eq!(s.choice, Choice::Default);
    }

    #[test]
    fn serde_round_trip_in_camel_case() {
        let mut s = ReasoningSettings::default();
        s.set("reasoning.stripFromContext", "allButLast").unwrap();
        s.set("reasoning.maxTokens", "32000").unwrap();
        s.set("reasoning.effort", "med").unwrap();
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "enabled": true, "includeInContext": false, "includeInResponse": true,
                "format": "field", "stripFromContext": "allButLast", "maxOutputTokens": 32000,
                "longContextCut": true, "choice": "medium"
            })
        );
        // What an earlier Ponder stored under the older name reads as the same cap.
        let earlier: ReasoningSettings =
            serde_json::from_value(serde_json::json!({"maxTokens": 32000})).unwrap();
        assert_eq!(earlier.max_output_tokens, Some(32000));
        assert_eq!(
            serde_json::from_value::<ReasoningSettings>(json).unwrap(),
            s
        );
        // Missing fields take the defaults, so settings from an older Ponder still load.
        let old: ReasoningSettings = serde_json::from_str(r#"{"includeInContext":true}"#).unwrap();
        assert!(old.include_in_context && old.enabled);
    }

    #[test]
    fn set_accepts_the_seed_001_commands_and_rejects_the_rest() {
        let mut s = ReasoningSettings::default();
        for (key, value) in [
            ("reasoning.includeInContext", "true"),
            ("reasoning.includeInResponse", "false"),
            ("reasoning.effort", "minimal"),
            ("reasoning.maxTokens", "8000"),
            ("reasoning.format", "native"),
            ("reasoning.stripFromContext", "all"),
            ("reasoning.enabled", "false"),
        ] {
            s.set(key, value)
                .unwrap_or_else(|e| panic!("{key} {value}: {e}"));
        }
        assert!(s.include_in_context && !s.include_in_response && !s.enabled);
        assert_eq!(s.choice, Choice::MINIMAL);
        assert!(matches!(
            s.set("reasoning.colour", "blue"),
            Err(SettingError::UnknownKey(_))
        ));
        let err = s.set("reasoning.stripFromContext", "some").unwrap_err();
        assert!(err.to_string().contains("all, allButLast or none"), "{err}");
        assert!(s.set("reasoning.maxTokens", "0").is_err());
        s.set("reasoning.maxTokens", "unset").unwrap();
        assert_eq!(s.max_output_tokens, None);
    }

    #[test]
    fn profiles_save_load_delete() {
        let mut profiles = Profiles::default();
        let mut deep = ReasoningSettings::default();
        deep.set("effort", "high").unwrap();
        deep.set("includeInContext", "true").unwrap();
        profiles.save("deep", &deep);
        profiles.save("quick", &ReasoningSettings::default());
        assert_eq!(profiles.load("deep"), Some(&deep));
        assert_eq!(profiles.names().collect::<Vec<_>>(), ["deep", "quick"]);
        let json = serde_json::to_string(&profiles).unwrap();
        assert_eq!(serde_json::from_str::<Profiles>(&json).unwrap(), profiles);
        assert!(profiles.delete("quick"));
        assert!(!profiles.delete("quick"));
    }
}
