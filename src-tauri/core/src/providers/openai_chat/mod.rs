//! OpenAI Chat Completions, and every OpenAI-compatible vendor.
//! <https://platform.openai.com/docs/api-reference/chat>

pub mod translate;
pub mod wire;

pub use translate::{EventMapper, InlineThoughts, parse_response};
