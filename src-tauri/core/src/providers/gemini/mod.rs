//! Gemini API, `streamGenerateContent?alt=sse`.
//! <https://ai.google.dev/gemini-api/docs/thinking>,
//! <https://ai.google.dev/gemini-api/docs/thought-signatures>

pub mod translate;
#[cfg(any(test, feature = "whole-responses"))]
mod whole;
pub mod wire;

pub use translate::EventMapper;
#[cfg(any(test, feature = "whole-responses"))]
pub use whole::parse_response;
