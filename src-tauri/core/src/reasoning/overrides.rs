//! User overrides of the catalog: a reasoning map per provider and per model,
//! looked up model first, then provider, then the built-in rule.
//!
//! ```json
//! { "providers": { "anthropic": { "reasoning": [1024, 8000, 16000, 32000],
//!                                 "reasoningAutoStreamLevel": "medium",
//!                                 "models": { "claude-3-opus-20250514": { "reasoning": null } } } } }
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

use super::choice::Level;

/// One value of a reasoning map: a budget (number) or an effort or level name (string).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Scalar {
    Tokens(u32),
    Name(String),
}

/// What a scope says about reasoning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Mapping {
    /// `null`: send no reasoning for this scope (a model entry can still re-enable it).
    Disabled,
    /// One value, sent whatever the level.
    Always(Scalar),
    /// `[minimal, low, medium, high]`; `max` uses the last.
    PerLevel([Scalar; 4]),
}

impl Mapping {
    /// The value this mapping sends for a level, or `None` when it disables reasoning.
    pub fn value_for(&self, level: Level) -> Option<&Scalar> {
        match self {
            Self::Disabled => None,
            Self::Always(value) => Some(value),
            Self::PerLevel(values) => Some(&values[level.thirds() as usize]),
        }
    }
}

/// Deserializes a field whose explicit `null` means something (Disabled) and whose absence
/// means "not set here".
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Mapping>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        One(Scalar),
        Four([Scalar; 4]),
    }
    let raw = Option::<Raw>::deserialize(deserializer).map_err(|_| {
        serde::de::Error::custom(
            "reasoning must be null, a number, a string, or an array of four for [minimal, low, medium, high]",
        )
    })?;
    Ok(Some(match raw {
        None => Mapping::Disabled,
        Some(Raw::One(value)) => Mapping::Always(value),
        Some(Raw::Four(values)) => Mapping::PerLevel(values),
    }))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Caching {
    /// Keep the ephemeral cache marker on the final message (Anthropic).
    #[default]
    Full,
    /// Send no cache directives.
    None,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ModelOverrides {
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub reasoning: Option<Mapping>,
    /// Whether this model's answers stream; unset follows the provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ProviderOverrides {
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub reasoning: Option<Mapping>,
    /// The lowest level at which streaming is forced on.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "level_name")]
    #[cfg_attr(
        feature = "ts",
        ts(optional, type = r#""minimal" | "low" | "medium" | "high" | "max""#)
    )]
    pub reasoning_auto_stream_level: Option<Level>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caching: Option<Caching>,
    /// Whether answers stream (unset: they do). Off, each answer comes whole — for an
    /// organisation OpenAI will not stream reasoning models to, or a proxy that buffers —
    /// except at and above `reasoningAutoStreamLevel`, and where a request must stream.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<bool>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub models: BTreeMap<String, ModelOverrides>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Overrides {
    #[serde(default)]
    pub providers: BTreeMap<String, ProviderOverrides>,
}

/// Where a mapping came from, for the feedback line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    Model(String),
    Provider(String),
}

impl Overrides {
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }

    pub fn provider(&self, provider: &str) -> Option<&ProviderOverrides> {
        self.providers.get(provider)
    }

    /// Whether a model's answers stream: its own entry's setting, else its provider's.
    pub fn stream(&self, provider: &str, model: &str) -> Option<bool> {
        let scope = self.providers.get(provider)?;
        covering(scope, model, |entry| entry.stream.is_some())
            .and_then(|(_, entry)| entry.stream)
            .or(scope.stream)
    }

    /// The mapping that applies to a model: the model's own entry (exact id, or the longest
    /// key that covers the id the way a catalog pattern does: `o3` covers `o3-mini` but not
    /// `o30`), else the provider's. A model entry without `reasoning` (`{}`) stands for
    /// Ponder's own rule: the provider's map does not reach that model.
    pub fn mapping(&self, provider: &str, model: &str) -> Option<(&Mapping, Scope)> {
        let scope = self.providers.get(provider)?;
        let by_model = covering(scope, model, |_| true);
        if let Some((key, entry)) = by_model {
            let mapping = entry.reasoning.as_ref()?;
            return Some((mapping, Scope::Model(key.clone())));
        }
        scope
            .reasoning
            .as_ref()
            .map(|mapping| (mapping, Scope::Provider(provider.to_owned())))
    }
}

/// The model entry whose key covers `model` the way a catalog pattern does, the longest such
/// key among the entries `counts` accepts.
fn covering<'a>(
    scope: &'a ProviderOverrides,
    model: &str,
    counts: impl Fn(&ModelOverrides) -> bool,
) -> Option<(&'a String, &'a ModelOverrides)> {
    let model = model.to_ascii_lowercase();
    scope
        .models
        .iter()
        .filter(|(key, entry)| {
            counts(entry) && super::pattern::pattern_matches(&key.to_ascii_lowercase(), &model)
        })
        .max_by_key(|(key, _)| key.len())
}

mod level_name {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Level;

    pub fn serialize<S: Serializer>(level: &Option<Level>, s: S) -> Result<S::Ok, S::Error> {
        match level {
            Some(level) => s.serialize_str(level.as_str()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Level>, D::Error> {
        let text = Option::<String>::deserialize(d)?;
        let Some(text) = text else { return Ok(None) };
        match text.parse::<super::super::choice::Choice>() {
            Ok(super::super::choice::Choice::Level(level)) => Ok(Some(level)),
            _ => Err(serde::de::Error::custom(format!(
                "reasoningAutoStreamLevel must be minimal, low, medium, high or max, not {text:?}"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED_002_EXAMPLE: &str = r#"{
      "providers": {
        "openai": { "reasoning": ["minimal", "low", "medium", "high"] },
        "anthropic": {
          "reasoning": [1024, 8000, 16000, 32000],
          "reasoningAutoStreamLevel": "medium",
          "models": { "claude-3-opus-20250514": { "reasoning": null } }
        },
        "google": {
          "models": { "gemini-2.5-pro": { "reasoning": [1024, 4096, 8192, 16384] } }
        }
      }
    }"#;

    #[test]
    fn seed_002_example_parses_with_null_kept_apart_from_absent() {
        let overrides = Overrides::from_json(SEED_002_EXAMPLE).unwrap();
        let anthropic = overrides.provider("anthropic").unwrap();
        assert_eq!(anthropic.reasoning_auto_stream_level, Some(Level::Medium));
        assert_eq!(
            anthropic.models["claude-3-opus-20250514"].reasoning,
            Some(Mapping::Disabled),
            "explicit null disables"
        );
        assert_eq!(
            overrides.provider("google").unwrap().reasoning,
            None,
            "absent is unset"
        );
    }

    #[test]
    fn lookup_is_model_then_provider() {
        let overrides = Overrides::from_json(SEED_002_EXAMPLE).unwrap();
        // The Opus model is opted out; other Anthropic models take the provider's numbers.
        let (opus, scope) = overrides
            .mapping("anthropic", "claude-3-opus-20250514")
            .unwrap();
        assert_eq!(opus, &Mapping::Disabled);
        assert_eq!(scope, Scope::Model("claude-3-opus-20250514".into()));
        let (sonnet, scope) = overrides.mapping("anthropic", "claude-sonnet-4-5").unwrap();
        assert_eq!(
            sonnet.value_for(Level::Medium),
            Some(&Scalar::Tokens(16000))
        );
        assert_eq!(
            sonnet.value_for(Level::Max),
            Some(&Scalar::Tokens(32000)),
            "max uses the last"
        );
        assert_eq!(scope, Scope::Provider("anthropic".into()));
        // Google: only gemini-2.5-pro is mapped, the rest stay on the built-in rule.
        let (pro, _) = overrides.mapping("google", "gemini-2.5-pro").unwrap();
        assert_eq!(pro.value_for(Level::Minimal), Some(&Scalar::Tokens(1024)));
        assert!(overrides.mapping("google", "gemini-2.5-flash").is_none());
        let (openai, _) = overrides.mapping("openai", "o3").unwrap();
        assert_eq!(
            openai.value_for(Level::Low),
            Some(&Scalar::Name("low".into()))
        );
        assert!(overrides.mapping("xai", "grok-3-mini").is_none());
    }

    #[test]
    fn a_single_value_is_sent_for_every_level() {
        let overrides =
            Overrides::from_json(r#"{"providers":{"openai":{"reasoning":"high"}}}"#).unwrap();
        let (mapping, _) = overrides.mapping("openai", "o3").unwrap();
        for level in Level::ALL {
            assert_eq!(mapping.value_for(level), Some(&Scalar::Name("high".into())));
        }
    }

    #[test]
    fn malformed_files_are_rejected_with_a_reason() {
        for bad in [
            r#"{"providers":{"openai":{"reasoning":[1,2,3]}}}"#,
            r#"{"providers":{"openai":{"reasoning":{"a":1}}}}"#,
            r#"{"providers":{"openai":{"reasoningAutoStreamLevel":"loud"}}}"#,
            r#"{"providers":{"openai":{"caching":"some"}}}"#,
            r#"{"providers":{"openai":{"reasonin":"high"}}}"#,
            r#"[1, 2]"#,
        ] {
            assert!(Overrides::from_json(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn model_keys_cover_ids_as_catalog_patterns_do_and_an_empty_entry_is_the_builtin_rule() {
        let overrides = Overrides::from_json(
            r#"{"providers": {"openai": {"reasoning": "low", "models": {
                "o3": {"reasoning": "high"}, "gpt-5": {}
            }}}}"#,
        )
        .unwrap();
        let value = |id: &str| {
            overrides
                .mapping("openai", id)
                .map(|(m, scope)| (m.value_for(Level::Medium).cloned(), scope))
        };
        let high = Some(Scalar::Name("high".into()));
        let low = Some(Scalar::Name("low".into()));
        assert_eq!(value("o3"), Some((high.clone(), Scope::Model("o3".into()))));
        assert_eq!(
            value("o3-mini-2025-01-31"),
            Some((high, Scope::Model("o3".into())))
        );
        assert_eq!(
            value("o30"),
            Some((low.clone(), Scope::Provider("openai".into())))
        );
        assert_eq!(value("o3x"), Some((low, Scope::Provider("openai".into()))));
        // "Ponder's rule" on a model row: neither the model nor the provider map applies.
        assert_eq!(value("gpt-5"), None);
        assert_eq!(value("gpt-5-mini"), None);
    }
}
