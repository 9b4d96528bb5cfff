//! Gemini API, `streamGenerateContent?alt=sse`.
//! <https://ai.google.dev/gemini-api/docs/thinking>,
//! <https://ai.google.dev/gemini-api/docs/thought-signatures>
//!
//! Gemini 2.5 takes `thinkingConfig.thinkingBudget` (0 disables where the model allows it,
//! -1 lets it decide); Gemini 3 takes `thinkingLevel`. Thoughts come only with
//! `includeThoughts: true`, as parts marked `thought: true`, and they are summaries.
//!
//! What goes back: every part as it came, with its `thoughtSignature`. On Gemini 3 the first
//! function call of each step in the current turn must carry its signature or the request is
//! a 400; parallel calls after the first have none, and none may be invented. Thought parts
//! themselves need not be sent back.

pub mod translate;
mod whole_response;
pub mod wire;

pub use translate::EventMapper;
pub use whole_response::parse_response;
