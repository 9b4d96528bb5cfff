//! OpenAI Responses API.
//! <https://platform.openai.com/docs/api-reference/responses>,
//! <https://platform.openai.com/docs/guides/reasoning>

pub mod translate;
#[cfg(any(test, feature = "whole-responses"))]
mod whole;
pub mod wire;

pub use translate::EventMapper;
#[cfg(any(test, feature = "whole-responses"))]
pub use whole::parse_response;
