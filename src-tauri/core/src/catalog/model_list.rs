//! The real model ids Ponder offers, with their facts, from LiteLLM's public model database.
//!
//! `models.json` is a dated, trimmed copy of LiteLLM's `model_prices_and_context_window.json`
//! (MIT; `models.LICENSE`), written by `tools/refresh-models.py`. The catalog's rules say how a
//! model thinks; this list says which ids exist, how much they take in and give out, when they
//! retire and what they cost. Nothing here is typed by hand.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// Dollars per million tokens, where LiteLLM knows them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Price {
    pub input: Option<f64>,
    pub output: Option<f64>,
    pub cached_input: Option<f64>,
    /// Only where reasoning tokens cost something other than output tokens.
    pub reasoning: Option<f64>,
}

/// LiteLLM's facts about how a model reasons, as it spells them. `None` is "not said", which
/// is not "no": most entries say only `supports_reasoning`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThinkingFacts {
    #[serde(rename = "supports_adaptive_thinking")]
    pub adaptive: Option<bool>,
    #[serde(rename = "supports_none_reasoning_effort")]
    pub none: Option<bool>,
    #[serde(rename = "supports_minimal_reasoning_effort")]
    pub minimal: Option<bool>,
    #[serde(rename = "supports_low_reasoning_effort")]
    pub low: Option<bool>,
    #[serde(rename = "supports_xhigh_reasoning_effort")]
    pub xhigh: Option<bool>,
    #[serde(rename = "supports_max_reasoning_effort")]
    pub max: Option<bool>,
    #[serde(rename = "thinking_always_on")]
    pub always_on: Option<bool>,
    /// The whole set of efforts the model takes, where LiteLLM lists it.
    #[serde(rename = "reasoning_effort_levels")]
    pub effort_levels: Option<Vec<String>>,
    #[serde(rename = "default_reasoning_effort")]
    pub default_effort: Option<String>,
}

/// LiteLLM's facts about what a model reads besides text, as it spells them. `None` is "not
/// said": local servers and most routers say nothing of their models.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputFacts {
    #[serde(rename = "supports_vision")]
    pub images: Option<bool>,
    #[serde(rename = "supports_pdf_input")]
    pub pdfs: Option<bool>,
}

/// One real model id of one provider.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListedModel {
    pub provider: String,
    pub id: String,
    /// The most the prompt may hold.
    pub max_input: u32,
    /// The most one answer may hold (thinking included).
    pub max_output: u32,
    /// Whether LiteLLM knows the model to reason.
    pub reasoning: bool,
    /// Served only by the OpenAI Responses API.
    #[serde(default)]
    pub responses_only: bool,
    /// What LiteLLM knows of how it reasons, where it says.
    #[serde(default)]
    pub thinking: ThinkingFacts,
    /// What LiteLLM knows it reads besides text (images, PDFs), where it says.
    #[serde(default)]
    pub inputs: InputFacts,
    /// The newest dated snapshot behind this id, where the ids say it (YYYY-MM-DD).
    pub released: Option<String>,
    /// The day the provider retires it (YYYY-MM-DD); from then on it is not offered.
    pub retires: Option<String>,
    #[serde(default)]
    pub price: Price,
}

impl ListedModel {
    /// Retired on or before `today` (both YYYY-MM-DD, which order as strings).
    pub fn retired(&self, today: &str) -> bool {
        self.retires.as_deref().is_some_and(|day| day <= today)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelList {
    /// Where the data came from (release and file).
    pub source: String,
    /// When it was copied (YYYY-MM-DD).
    pub refreshed: String,
    pub models: Vec<ListedModel>,
}

impl ModelList {
    pub fn builtin() -> &'static ModelList {
        static LIST: OnceLock<ModelList> = OnceLock::new();
        LIST.get_or_init(|| {
            serde_json::from_str(include_str!("models.json"))
                .expect("the embedded models.json is valid (a unit test checks)")
        })
    }

    /// The facts for `id` at `provider`: the id itself, else the undated alias of a dated
    /// snapshot (`claude-opus-4-6-20260205` reads `claude-opus-4-6`'s).
    pub fn get(&self, provider: &str, id: &str) -> Option<&ListedModel> {
        let find = |id: &str| {
            self.models
                .iter()
                .find(|m| m.provider == provider && m.id.eq_ignore_ascii_case(id))
        };
        find(id).or_else(|| undated(id).and_then(find))
    }

    /// The ids of `provider` that are offered on `today`: every listed one not yet retired.
    pub fn offered<'a>(
        &'a self,
        provider: &'a str,
        today: &'a str,
    ) -> impl Iterator<Item = &'a ListedModel> + 'a {
        self.of_provider_on(provider, today, false)
    }

    /// The ids of `provider` retired by `today`: the complement of [`ModelList::offered`].
    pub fn retired<'a>(
        &'a self,
        provider: &'a str,
        today: &'a str,
    ) -> impl Iterator<Item = &'a ListedModel> + 'a {
        self.of_provider_on(provider, today, true)
    }

    fn of_provider_on<'a>(
        &'a self,
        provider: &'a str,
        today: &'a str,
        retired: bool,
    ) -> impl Iterator<Item = &'a ListedModel> + 'a {
        self.models
            .iter()
            .filter(move |m| m.provider == provider && m.retired(today) == retired)
    }
}

/// `base` of `base-20250929`, `base-2025-09-29` or `base-0309`.
fn undated(id: &str) -> Option<&str> {
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(base) = id.len().checked_sub(11).and_then(|at| {
        let (base, tail) = id.split_at(at);
        let tail = tail.strip_prefix('-')?;
        let mut parts = tail.split('-');
        let ok = parts.next().is_some_and(|y| digits(y, 4))
            && parts.next().is_some_and(|m| digits(m, 2))
            && parts.next().is_some_and(|d| digits(d, 2));
        ok.then_some(base)
    }) {
        return Some(base);
    }
    let (base, tail) = id.rsplit_once('-')?;
    (digits(tail, 8) || digits(tail, 4)).then_some(base)
}

/// Today's date in UTC as YYYY-MM-DD, for [`ListedModel::retired`].
pub fn today() -> String {
    time::OffsetDateTime::now_utc().date().to_string()
}

/// Whether an id from a provider's live list is a model one can chat with. OpenAI-style lists
/// hold every model of the account: embeddings, speech, transcription, images, moderation.
pub fn is_chat_model(id: &str) -> bool {
    const NOT_CHAT: [&str; 17] = [
        "embed",
        "tts",
        "whisper",
        "transcribe",
        "audio",
        "realtime",
        "dall-e",
        "image",
        "moderation",
        "search",
        "computer-use",
        "sora",
        "babbage",
        "davinci",
        "lyria",
        "imagen",
        "veo",
    ];
    let id = id.to_ascii_lowercase();
    !NOT_CHAT.iter().any(|word| id.contains(word))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::catalog::Catalog;

    #[test]
    fn the_embedded_list_is_consistent() {
        let list = ModelList::builtin();
        assert!(list.source.starts_with("LiteLLM "), "{}", list.source);
        assert_eq!(list.refreshed.len(), 10);
        assert!(list.models.len() > 100, "{}", list.models.len());
        let catalog = Catalog::builtin();
        let mut seen = HashSet::new();
        for m in &list.models {
            let at = format!("{}/{}", m.provider, m.id);
            assert!(
                catalog.provider(&m.provider).is_ok(),
                "{at}: provider exists"
            );
            assert!(
                seen.insert((m.provider.clone(), m.id.to_ascii_lowercase())),
                "{at}: listed once"
            );
            assert!(is_chat_model(&m.id), "{at}: a chat model");
            assert!(m.max_input > 0 && m.max_output > 0, "{at}");
            for day in [&m.released, &m.retires].into_iter().flatten() {
                assert!(
                    day.len() == 10 && day.as_bytes()[4] == b'-',
                    "{at}: {day} is YYYY-MM-DD"
                );
            }
        }
    }

    #[test]
    fn dated_snapshots_read_their_aliases_facts() {
        let list = ModelList::builtin();
        let table = [
            (
                "anthropic",
                "claude-opus-4-6-20260205",
                Some("claude-opus-4-6"),
            ),
            ("anthropic", "CLAUDE-OPUS-4-6", Some("claude-opus-4-6")),
            ("openai", "gpt-5.4-2026-03-05", Some("gpt-5.4")),
            ("openai", "gpt-5.4", Some("gpt-5.4")),
            ("openai", "gpt-5.4-2026-3-5", None),
            ("anthropic", "gpt-5.4", None),
            (
                "google",
                "gemini-3.1-pro-preview",
                Some("gemini-3.1-pro-preview"),
            ),
            ("google", "gemini-3-pro", None),
        ];
        for (provider, id, expected) in table {
            assert_eq!(
                list.get(provider, id).map(|m| m.id.as_str()),
                expected,
                "{provider}/{id}"
            );
        }
    }

    #[test]
    fn retired_models_are_not_offered() {
        let list = ModelList::builtin();
        let sonnet = list.get("anthropic", "claude-sonnet-4-5").unwrap();
        let retires = sonnet
            .retires
            .clone()
            .expect("LiteLLM dates its retirement");
        let offered = |today: &str| {
            list.offered("anthropic", today)
                .any(|m| m.id == "claude-sonnet-4-5")
        };
        assert!(offered("2026-01-01"));
        assert!(!offered(&retires));
        assert!(!offered("2099-01-01"));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn live_lists_keep_only_chat_models() {
        for id in [
            "text-embedding-3-large",
            "tts-1-hd",
            "whisper-1",
            "gpt-4o-transcribe",
            "gpt-4o-mini-tts",
            "dall-e-3",
            "gpt-image-1",
            "omni-moderation-latest",
            "gpt-4o-realtime-preview",
            "gpt-4o-audio-preview",
            "babbage-002",
            "davinci-002",
            "gpt-4o-search-preview",
            "sora-2",
            "text-embedding-004",
        ] {
            assert!(!is_chat_model(id), "{id}");
        }
        for id in [
            "gpt-5.4",
            "o3",
            "claude-opus-4-7",
            "gemini-3.1-pro-preview",
            "qwen3:8b",
            "deepseek-v4-pro",
        ] {
            assert!(is_chat_model(id), "{id}");
        }
    }
}
