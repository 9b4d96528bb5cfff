//! OpenAI Responses API.
//! <https://platform.openai.com/docs/api-reference/responses>,
//! <https://platform.openai.com/docs/guides/reasoning>
//!
//! Thinking is asked for with `reasoning: {effort, summary: "auto"}`; what the user can read
//! is the summary, streamed as `response.reasoning_summary_text.delta`. Each reasoning item
//! is complete only in `response.output_item.done` (its `encrypted_content` may be cut short
//! in `added`).
//!
//! What goes back: with tools, every item since the last user message — reasoning items (with
//! `encrypted_content`, as nothing is stored on OpenAI's side), function calls, then their
//! outputs — unchanged and in order; a reasoning item without what followed it, or a call
//! without its reasoning, is a 400. In plain chat the reasoning items may be left out.

pub mod translate;
mod whole_response;
pub mod wire;

pub use translate::EventMapper;
pub use whole_response::parse_response;
