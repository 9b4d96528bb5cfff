//! OpenAI Chat Completions, and every OpenAI-compatible vendor.
//! <https://platform.openai.com/docs/api-reference/chat>

pub mod translate;
#[cfg(any(test, feature = "whole-responses"))]
mod whole;
pub mod wire;

pub use translate::{EventMapper, InlineThoughts};
#[cfg(any(test, feature = "whole-responses"))]
pub use whole::parse_response;
