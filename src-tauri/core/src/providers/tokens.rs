//! Counting tokens: OpenAI's own tokenizer (tiktoken's `o200k_base`, bundled) for OpenAI
//! models, and a stated estimate of about four characters a token for everyone else, whose
//! tokenizers are not public or not bundled.

use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

use crate::catalog::ModelInfo;

/// A token count, and whether it came from the model's real tokenizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TokenCount {
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub tokens: u64,
    /// False when the figure is the four-characters-a-token estimate.
    pub exact: bool,
}

#[derive(Clone, Copy)]
pub enum Counter {
    Tiktoken(&'static CoreBPE),
    Estimate,
}

impl std::fmt::Debug for Counter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Tiktoken(_) => "Counter::Tiktoken",
            Self::Estimate => "Counter::Estimate",
        })
    }
}

impl Counter {
    pub fn for_model(model: &ModelInfo) -> Self {
        if model.provider.tokenizer == Some(crate::catalog::Tokenizer::O200k) {
            static O200K: OnceLock<Option<CoreBPE>> = OnceLock::new();
            if let Some(bpe) = O200K.get_or_init(|| tiktoken_rs::o200k_base().ok()) {
                return Self::Tiktoken(bpe);
            }
        }
        Self::Estimate
    }

    pub fn count(&self, text: &str) -> u64 {
        match self {
            Self::Tiktoken(bpe) => bpe.encode_ordinary(text).len() as u64,
            Self::Estimate => text.chars().count().div_ceil(4) as u64,
        }
    }

    pub fn exact(&self) -> bool {
        matches!(self, Self::Tiktoken(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;

    #[test]
    fn openai_models_are_counted_with_tiktoken() {
        let o3 = Catalog::builtin().resolve(Some("openai"), "o3").unwrap();
        let counter = Counter::for_model(&o3);
        assert!(counter.exact());
        // "hello world" is two o200k tokens.
        assert_eq!(counter.count("hello world"), 2);
    }

    #[test]
    fn other_models_get_the_stated_estimate() {
        let claude = Catalog::builtin()
            .resolve(Some("anthropic"), "claude-sonnet-4-5")
            .unwrap();
        let counter = Counter::for_model(&claude);
        assert!(!counter.exact());
        assert_eq!(counter.count("12345678"), 2);
    }
}
