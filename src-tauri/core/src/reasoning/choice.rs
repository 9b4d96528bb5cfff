//! The one thinking choice a user makes, and how it is spelled.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A named level on Ponder's one scale of thinking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum Level {
    Minimal,
    Low,
    Medium,
    High,
    Max,
}

impl Level {
    pub const ALL: [Level; 5] = [
        Level::Minimal,
        Level::Low,
        Level::Medium,
        Level::High,
        Level::Max,
    ];

    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The step on the budget formula `min + v/3 × (max − min)`: minimal 0 … high and max 3.
    pub fn thirds(self) -> u32 {
        match self {
            Self::Minimal => 0,
            Self::Low => 1,
            Self::Medium => 2,
            Self::High | Self::Max => 3,
        }
    }
}

/// What the user asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
// On the wire a choice is its name, or a number for a token budget.
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(type = r#""default" | "off" | "minimal" | "low" | "medium" | "high" | "max" | number"#)
)]
pub enum Choice {
    /// Send no reasoning parameter; the provider decides.
    #[default]
    Default,
    /// No thinking where the model allows it.
    Off,
    Level(Level),
    /// A custom budget in tokens.
    Budget(u32),
}

impl Choice {
    pub const MINIMAL: Choice = Choice::Level(Level::Minimal);
    pub const LOW: Choice = Choice::Level(Level::Low);
    pub const MEDIUM: Choice = Choice::Level(Level::Medium);
    pub const HIGH: Choice = Choice::Level(Level::High);
    pub const MAX: Choice = Choice::Level(Level::Max);

    /// Every named choice, in picker order.
    pub const NAMED: [Choice; 7] = [
        Choice::Default,
        Choice::Off,
        Choice::MINIMAL,
        Choice::LOW,
        Choice::MEDIUM,
        Choice::HIGH,
        Choice::MAX,
    ];

    pub fn level(self) -> Option<Level> {
        match self {
            Self::Level(level) => Some(level),
            _ => None,
        }
    }
}

/// The spellings a user may type, for error messages.
pub const VALID_SPELLINGS: &str = "default, off (or none), minimal, low, medium (or med), high, max (or xhigh), or a token budget like 12000";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChoiceError {
    #[error("unknown thinking choice {0:?}; use {VALID_SPELLINGS}")]
    Unknown(String),
    #[error("a thinking budget must be a whole number of tokens above zero, not {0:?}")]
    BadBudget(String),
    #[error(
        "a thinking budget of {0} tokens is too large; the largest Ponder takes is 4,294,967,295 (and each model caps it lower: see `ponder-cli models`)"
    )]
    BudgetTooLarge(String),
    #[error("{0:?} names no model; use MODEL or MODEL/CHOICE, e.g. claude-sonnet-4-5/med")]
    NoModel(String),
}

impl FromStr for Choice {
    type Err = ChoiceError;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        let text = input.trim().to_ascii_lowercase();
        let choice = match text.as_str() {
            "default" => Choice::Default,
            "off" | "none" => Choice::Off,
            "minimal" => Choice::MINIMAL,
            "low" => Choice::LOW,
            "medium" | "med" => Choice::MEDIUM,
            "high" => Choice::HIGH,
            "max" | "xhigh" => Choice::MAX,
            digits
                if !digits.is_empty()
                    && digits
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b == b'_' || b == b',') =>
            {
                let clean: String = digits.chars().filter(char::is_ascii_digit).collect();
                let significant = clean.trim_start_matches('0');
                match clean.parse::<u32>() {
                    Ok(0) => return Err(ChoiceError::BadBudget(input.to_owned())),
                    Ok(n) => Choice::Budget(n),
                    // Digits only, so a failure is an overflow (or no digits at all).
                    Err(_) if !significant.is_empty() => {
                        return Err(ChoiceError::BudgetTooLarge(significant.to_owned()));
                    }
                    Err(_) => return Err(ChoiceError::BadBudget(input.to_owned())),
                }
            }
            _ => return Err(ChoiceError::Unknown(input.to_owned())),
        };
        Ok(choice)
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Default => f.write_str("default"),
            Self::Off => f.write_str("off"),
            Self::Level(level) => f.write_str(level.as_str()),
            Self::Budget(tokens) => write!(f, "{tokens}"),
        }
    }
}

impl Serialize for Choice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Budget(tokens) => serializer.serialize_u32(*tokens),
            other => serializer.serialize_str(&other.to_string()),
        }
    }
}

impl<'de> Deserialize<'de> for Choice {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(u32),
            Text(String),
        }
        match Raw::deserialize(deserializer)? {
            Raw::Number(0) => Err(serde::de::Error::custom(ChoiceError::BadBudget("0".into()))),
            Raw::Number(n) => Ok(Choice::Budget(n)),
            Raw::Text(text) => text.parse().map_err(serde::de::Error::custom),
        }
    }
}

/// `MODEL/CHOICE` as typed after `/model` (`claude-sonnet-4-5/med`), or a bare `MODEL`.
///
/// The choice is what follows the last slash, so routed ids with slashes of their own
/// (`anthropic/claude-sonnet-4.5/high`) work; a last segment that is not a choice is part of
/// the model id (`openai/o3` is the model `openai/o3`).
pub fn parse_model_choice(input: &str) -> Result<(String, Option<Choice>), ChoiceError> {
    let input = input.trim();
    if let Some((model, last)) = input.rsplit_once('/') {
        if model.is_empty() {
            return Err(ChoiceError::NoModel(input.to_owned()));
        }
        match last.parse::<Choice>() {
            Ok(choice) => return Ok((model.to_owned(), Some(choice))),
            Err(err @ (ChoiceError::BadBudget(_) | ChoiceError::BudgetTooLarge(_))) => {
                return Err(err);
            }
            Err(_) if model.contains('/') => {
                // `vendor/model/bogus`: two slashes mean the last part was meant as a choice.
                return Err(ChoiceError::Unknown(last.to_owned()));
            }
            Err(_) => {}
        }
    }
    if input.is_empty() {
        return Err(ChoiceError::NoModel(input.to_owned()));
    }
    Ok((input.to_owned(), None))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Any text: the parsers never panic, and what they accept prints back to itself.
    #[test]
    fn the_choice_parsers_never_panic_and_round_trip_what_they_accept() {
        use proptest::prelude::*;
        let config = ProptestConfig {
            cases: 10_000,
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        let text = prop_oneof![
            ".{0,24}",
            "[a-z0-9._/-]{0,12}/[0-9_,]{0,14}",
            "[a-z0-9.-]{1,16}/(default|off|none|minimal|low|med|medium|high|max|xhigh|[a-z]{1,6})",
        ];
        proptest!(config, |(input in text)| {
            if let Ok(choice) = input.parse::<Choice>() {
                prop_assert_eq!(choice.to_string().parse::<Choice>(), Ok(choice));
                let json = serde_json::to_string(&choice).unwrap();
                prop_assert_eq!(serde_json::from_str::<Choice>(&json).unwrap(), choice);
            }
            if let Ok((model, choice)) = parse_model_choice(&input) {
                prop_assert!(!model.is_empty());
                let again = match choice {
                    Some(c) => format!("{model}/{c}"),
                    None => model.clone(),
                };
                prop_assert_eq!(parse_model_choice(&again), Ok((model, choice)));
            }
            let _ = crate::catalog::Catalog::builtin().parse_target(None, &input);
        });
    }

    #[test]
    fn a_budget_past_the_largest_says_it_is_too_large() {
        let errors = [
            "99999999999".parse::<Choice>().unwrap_err(),
            "4294967296".parse::<Choice>().unwrap_err(),
            parse_model_choice("claude-sonnet-4-5/99999999999").unwrap_err(),
        ];
        for (input, err) in ["99999999999", "4294967296", "…/99999999999"]
            .into_iter()
            .zip(errors)
        {
            let text = err.to_string();
            assert!(
                matches!(err, ChoiceError::BudgetTooLarge(_)),
                "{input}: {text}"
            );
            assert!(
                text.contains("too large") && text.contains("4,294,967,295"),
                "{text}"
            );
            assert!(!text.contains("above zero"), "{text}");
        }
        assert_eq!("4294967295".parse::<Choice>(), Ok(Choice::Budget(u32::MAX)));
        assert!(matches!(
            "0".parse::<Choice>(),
            Err(ChoiceError::BadBudget(_))
        ));
        assert!(matches!(
            "000".parse::<Choice>(),
            Err(ChoiceError::BadBudget(_))
        ));
        assert!(matches!(
            ",".parse::<Choice>(),
            Err(ChoiceError::BadBudget(_))
        ));
    }

    #[test]
    fn every_spelling_parses() {
        let table = [
            ("default", Choice::Default),
            ("off", Choice::Off),
            ("none", Choice::Off),
            ("NONE", Choice::Off),
            ("minimal", Choice::MINIMAL),
            ("low", Choice::LOW),
            ("med", Choice::MEDIUM),
            ("medium", Choice::MEDIUM),
            ("high", Choice::HIGH),
            ("max", Choice::MAX),
            ("xhigh", Choice::MAX),
            ("12000", Choice::Budget(12000)),
            ("12_000", Choice::Budget(12000)),
            (" 64000 ", Choice::Budget(64000)),
        ];
        for (text, want) in table {
            assert_eq!(text.parse::<Choice>(), Ok(want), "{text}");
        }
    }

    #[test]
    fn unknown_spellings_list_the_valid_ones() {
        let err = "turbo".parse::<Choice>().unwrap_err();
        let message = err.to_string();
        assert!(message.contains("\"turbo\""), "{message}");
        for valid in [
            "default", "off", "none", "minimal", "low", "medium", "med", "high", "max", "xhigh",
        ] {
            assert!(message.contains(valid), "{message} lists {valid}");
        }
        assert!(matches!(
            "0".parse::<Choice>(),
            Err(ChoiceError::BadBudget(_))
        ));
        assert!(matches!(
            "99999999999".parse::<Choice>(),
            Err(ChoiceError::BudgetTooLarge(_))
        ));
        assert!(matches!("".parse::<Choice>(), Err(ChoiceError::Unknown(_))));
        assert!(matches!(
            "-5".parse::<Choice>(),
            Err(ChoiceError::Unknown(_))
        ));
    }

    #[test]
    fn display_round_trips_through_parse() {
        for choice in Choice::NAMED.into_iter().chain([Choice::Budget(4096)]) {
            assert_eq!(choice.to_string().parse::<Choice>(), Ok(choice));
        }
    }

    #[test]
    fn serde_uses_names_and_numbers() {
        assert_eq!(
            serde_json::to_string(&Choice::MEDIUM).unwrap(),
            "\"medium\""
        );
        assert_eq!(
            serde_json::to_string(&Choice::Budget(5000)).unwrap(),
            "5000"
        );
        assert_eq!(
            serde_json::from_str::<Choice>("\"med\"").unwrap(),
            Choice::MEDIUM
        );
        assert_eq!(
            serde_json::from_str::<Choice>("5000").unwrap(),
            Choice::Budget(5000)
        );
        assert!(serde_json::from_str::<Choice>("\"loud\"").is_err());
        assert!(serde_json::from_str::<Choice>("0").is_err());
    }

    #[test]
    fn model_slash_choice() {
        let table = [
            (
                "claude-sonnet-4-5/med",
                "claude-sonnet-4-5",
                Some(Choice::MEDIUM),
            ),
            ("o3/none", "o3", Some(Choice::Off)),
            (
                "gemini-2.5-flash/12000",
                "gemini-2.5-flash",
                Some(Choice::Budget(12000)),
            ),
            ("gpt-4o", "gpt-4o", None),
            ("openai/o3", "openai/o3", None),
            (
                "anthropic/claude-sonnet-4.5/high",
                "anthropic/claude-sonnet-4.5",
                Some(Choice::HIGH),
            ),
        ];
        for (input, model, choice) in table {
            assert_eq!(
                parse_model_choice(input),
                Ok((model.to_owned(), choice)),
                "{input}"
            );
        }
        assert!(matches!(
            parse_model_choice("/med"),
            Err(ChoiceError::NoModel(_))
        ));
        assert!(matches!(
            parse_model_choice("o3/0"),
            Err(ChoiceError::BadBudget(_))
        ));
        assert!(matches!(
            parse_model_choice("openai/o3/loud"),
            Err(ChoiceError::Unknown(_))
        ));
    }
}
