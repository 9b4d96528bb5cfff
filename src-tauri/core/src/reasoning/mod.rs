//! The reasoning engine: one thinking choice, translated for every provider.
//!
//! Pure functions over data: the catalog (`crate::catalog`) says how each model thinks, `translate` turns a
//! choice into the exact request fields, `levels` says what each choice means for the picker,
//! and `settings` holds a conversation's reasoning settings.
//!
//! The rules it follows:
//!
//! - **The choice.** `default` sends nothing (the provider decides); `off` disables thinking
//!   where the model can, else gives its least with a warning; `minimal`, `low`, `medium` and
//!   `high` are the bottom, a third, two thirds and the top of the model's range; `max` goes
//!   beyond `high` where the model has more (`xhigh`, adaptive `max`), else means `high` with a
//!   note; a number is a budget in tokens. `none`, `med` and `xhigh` are read as `off`,
//!   `medium` and `max`.
//! - **Budgets** are `min + v/3 × (max − min)` (v = 0 … 3), rounded down. The request must stay
//!   valid: where the budget and the answer share `max_tokens`, the budget is cut to leave the
//!   answer room within the model's output limit, and the feedback says so. Past 150,000
//!   tokens of conversation, budgets are cut to 10,000 (a setting, on by default).
//! - **Efforts and levels** take the nearest value the model accepts, rounding up; a custom
//!   budget on such a model becomes the level it stands for. Models that always think get no
//!   parameter at all (some reject one); models that cannot think get none either.
//! - **Overrides** in the settings are looked up per model, then per provider, then the
//!   catalog: `null` disables, one value is always sent, four map minimal to high.
//! - **Models no hand rule covers** get a rule derived from the model list's facts and their
//!   provider's dialect; only an id no source knows gets its provider's generic rule and is
//!   marked "thinking support unknown". The picker offers only the levels a model supports.
//! - **Streaming** is on unless switched off per provider or model; then answers come whole,
//!   except from the auto-stream level up and where a request must stream.
//! - **Every change is explained**: the feedback line says what the level means on this model
//!   ("medium — 43,008 tokens") and every cut or warning.

pub mod choice;
pub mod levels;
pub mod overrides;
pub mod params;
pub mod pattern;
pub mod plan;
pub mod settings;
pub mod think_tags;
pub mod translate;

pub use choice::{Choice, ChoiceError, Level, parse_model_choice};
pub use overrides::{Caching, Overrides};
pub use plan::{ApiChoice, Feedback, Meaning, MeaningKind, Plan, TurnContext};
pub use settings::{ReasoningSettings, StripFromContext, ThoughtFormat};
pub use translate::{TranslateError, translate};
#[cfg(test)]
mod translate_tests;
