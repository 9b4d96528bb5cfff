//! What tokens cost: the embedded model list's dated prices, with the user's own prices over
//! them (a negotiated rate, a local model that costs nothing, a model the list does not
//! know), and how each provider counts the tokens it bills.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::catalog::model_list::{ModelList, Price};
use crate::chat::Usage;
use crate::store::StoredMessage;

/// The user's prices for one model, in dollars per million tokens; a field left empty keeps
/// the listed price.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PriceOverride {
    pub provider: String,
    pub model: String,
    pub input: Option<f64>,
    pub output: Option<f64>,
    pub cached_input: Option<f64>,
    pub reasoning: Option<f64>,
}

/// A model's listed prices, as the window shows them beside the user's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PriceFigures {
    pub input: Option<f64>,
    pub output: Option<f64>,
    pub cached_input: Option<f64>,
    pub reasoning: Option<f64>,
}

impl From<&Price> for PriceFigures {
    fn from(p: &Price) -> Self {
        Self {
            input: p.input,
            output: p.output,
            cached_input: p.cached_input,
            reasoning: p.reasoning,
        }
    }
}

/// The prices costs are counted at.
#[derive(Debug, Clone, Default)]
pub struct Prices {
    overrides: HashMap<(String, String), PriceOverride>,
}

impl Prices {
    /// The listed prices with `overrides` over them; a negative or non-finite figure is
    /// ignored (the settings file may have been edited by hand).
    pub fn new(overrides: &[PriceOverride]) -> Self {
        let sane = |v: Option<f64>| v.filter(|v| v.is_finite() && *v >= 0.0);
        Self {
            overrides: overrides
                .iter()
                .map(|o| {
                    let clean = PriceOverride {
                        input: sane(o.input),
                        output: sane(o.output),
                        cached_input: sane(o.cached_input),
                        reasoning: sane(o.reasoning),
                        ..o.clone()
                    };
                    ((o.provider.clone(), o.model.to_ascii_lowercase()), clean)
                })
                .collect(),
        }
    }

    /// The embedded list's prices for a model, where it lists them.
    pub fn listed(provider: &str, model: &str) -> Option<Price> {
        ModelList::builtin()
            .get(provider, model)
            .map(|m| m.price.clone())
            .filter(|p| p != &Price::default())
    }

    /// The price of a model: each figure the user's where they set it, else the listed one.
    pub fn of(&self, provider: &str, model: &str) -> Option<Price> {
        let listed = Self::listed(provider, model);
        let Some(own) = self
            .overrides
            .get(&(provider.to_owned(), model.to_ascii_lowercase()))
        else {
            return listed;
        };
        let listed = listed.unwrap_or_default();
        Some(Price {
            input: own.input.or(listed.input),
            output: own.output.or(listed.output),
            cached_input: own.cached_input.or(listed.cached_input),
            reasoning: own.reasoning.or(listed.reasoning),
        })
    }

    /// What `usage` of a model cost, where its prices are known.
    pub fn cost(&self, provider: &str, model: &str, usage: &Usage) -> Option<f64> {
        cost(provider, &self.of(provider, model)?, usage)
    }

    /// What one stored message cost, where its model's prices are known.
    pub fn message_cost(&self, message: &StoredMessage) -> Option<f64> {
        let origin = message.message.origin.as_ref()?;
        self.cost(&origin.provider, &origin.model, &message.usage)
    }
}

/// What `usage` cost at `price` (dollars per million tokens). Providers count differently:
/// Anthropic's input leaves cache reads out, the others' includes them; Gemini's output
/// leaves the thinking out, the others' includes it.
pub fn cost(provider: &str, price: &Price, usage: &Usage) -> Option<f64> {
    let per = |tokens: u32, dollars: f64| f64::from(tokens) * dollars / 1_000_000.0;
    let input_price = price.input?;
    let output_price = price.output?;
    let cached = usage.cached.unwrap_or(0);
    let input = usage.input.unwrap_or(0);
    let fresh = if provider == "anthropic" {
        input
    } else {
        input.saturating_sub(cached)
    };
    let reasoning = usage.reasoning.unwrap_or(0);
    let output = usage.output.unwrap_or(0);
    let (answer, thinking) = if provider == "google" {
        (output, reasoning)
    } else {
        (output.saturating_sub(reasoning), reasoning)
    };
    Some(
        per(fresh, input_price)
            + per(cached, price.cached_input.unwrap_or(input_price))
            + per(answer, output_price)
            + per(thinking, price.reasoning.unwrap_or(output_price)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_provider_counts_cached_and_thinking_tokens_its_own_way() {
        let price = Price {
            input: Some(3.0),
            output: Some(15.0),
            cached_input: Some(0.3),
            reasoning: None,
        };
        let usage = Usage {
            input: Some(1_000_000),
            output: Some(1_000_000),
            reasoning: Some(400_000),
            cached: Some(500_000),
        };
        let cases = [
            // Input leaves cache reads out; output holds the thinking.
            ("anthropic", 3.0 + 0.15 + 15.0),
            // Input holds the cached tokens; output holds the thinking.
            ("openai", 1.5 + 0.15 + 15.0),
            // Output leaves the thinking out: it is billed on top.
            ("google", 1.5 + 0.15 + 15.0 + 6.0),
        ];
        for (provider, want) in cases {
            let got = cost(provider, &price, &usage).unwrap();
            assert!((got - want).abs() < 1e-9, "{provider}: {got} ≠ {want}");
        }
        let thinking_priced = Price {
            reasoning: Some(30.0),
            ..price.clone()
        };
        let got = cost("openai", &thinking_priced, &usage).unwrap();
        assert!((got - (1.5 + 0.15 + 9.0 + 12.0)).abs() < 1e-9, "{got}");
        assert_eq!(
            cost("openai", &Price::default(), &usage),
            None,
            "no price, no cost"
        );
    }

    #[test]
    fn the_users_prices_go_over_the_listed_ones_figure_by_figure() {
        let listed = Prices::listed("deepseek", "deepseek-v4-flash").expect("listed");
        let own = |provider: &str, model: &str, input, output| PriceOverride {
            provider: provider.into(),
            model: model.into(),
            input,
            output,
            ..PriceOverride::default()
        };
        let prices = Prices::new(&[
            own("deepseek", "DeepSeek-V4-Flash", Some(0.5), None),
            own("ollama", "qwen3:8b", Some(0.0), Some(0.0)),
            own("openai", "gpt-5", Some(-1.0), Some(f64::NAN)),
        ]);
        let cases: [(&str, &str, Option<Price>); 5] = [
            // Input is the user's, the rest as listed (ids match without case).
            (
                "deepseek",
                "deepseek-v4-flash",
                Some(Price {
                    input: Some(0.5),
                    ..listed.clone()
                }),
            ),
            // A model the list does not know costs what the user says.
            (
                "ollama",
                "qwen3:8b",
                Some(Price {
                    input: Some(0.0),
                    output: Some(0.0),
                    ..Price::default()
                }),
            ),
            // Nonsense figures are ignored: the listed ones stay.
            ("openai", "gpt-5", Prices::listed("openai", "gpt-5")),
            ("ollama", "llama3", None),
            (
                "anthropic",
                "claude-sonnet-4-5",
                Prices::listed("anthropic", "claude-sonnet-4-5"),
            ),
        ];
        for (provider, model, want) in cases {
            assert_eq!(prices.of(provider, model), want, "{provider}/{model}");
        }
        let usage = Usage {
            input: Some(1_000_000),
            output: Some(2_000_000),
            ..Usage::default()
        };
        assert_eq!(prices.cost("ollama", "qwen3:8b", &usage), Some(0.0));
        assert_eq!(prices.cost("ollama", "llama3", &usage), None);
    }
}
