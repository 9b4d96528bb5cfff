//! Anthropic Messages API.
//! <https://docs.anthropic.com/en/api/messages>,
//! <https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking>

pub mod translate;
#[cfg(any(test, feature = "whole-responses"))]
mod whole;
pub mod wire;

pub use translate::EventMapper;
#[cfg(any(test, feature = "whole-responses"))]
pub use whole::parse_response;
