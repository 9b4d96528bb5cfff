//! The reasoning engine: one thinking choice, translated for every provider.
//!
//! Pure functions over data: the catalog says how each model thinks, `translate` turns a
//! choice into the exact request fields, `levels` says what each choice means for the picker,
//! and `settings` holds a conversation's reasoning settings.

pub mod catalog;
pub mod choice;
pub mod levels;
pub mod model_list;
pub mod overrides;
pub mod plan;
pub mod settings;
pub mod think_tags;
pub mod translate;

pub use catalog::{Catalog, CustomProvider, CustomProviderError, LookupError, ModelInfo};
pub use choice::{Choice, ChoiceError, Level, parse_model_choice};
pub use model_list::{ListedModel, ModelList};
pub use overrides::{Caching, Overrides};
pub use plan::{Api, Feedback, Meaning, MeaningKind, Plan, TurnContext};
pub use settings::{ReasoningSettings, StripFromContext, ThoughtFormat};
pub use translate::{TranslateError, translate};
#[cfg(test)]
mod translate_tests;
