//! OpenAI Responses API.
//! <https://platform.openai.com/docs/api-reference/responses>,
//! <https://platform.openai.com/docs/guides/reasoning>

pub mod translate;
pub mod wire;

pub use translate::{EventMapper, parse_response};
