//! Gemini API, `streamGenerateContent?alt=sse`.
//! <https://ai.google.dev/gemini-api/docs/thinking>,
//! <https://ai.google.dev/gemini-api/docs/thought-signatures>

pub mod translate;
pub mod wire;

pub use translate::{EventMapper, parse_response};
