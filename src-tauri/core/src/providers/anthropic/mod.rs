//! Anthropic Messages API.
//! <https://docs.anthropic.com/en/api/messages>,
//! <https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking>

pub mod translate;
pub mod wire;

pub use translate::{EventMapper, parse_response};
