//! Anthropic Messages API.
//! <https://docs.anthropic.com/en/api/messages>,
//! <https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking>
//!
//! Thinking is asked for with `thinking: {type: "enabled", budget_tokens}` (a budget below
//! `max_tokens`, at least 1,024, with no `temperature` or `top_k`), or on newer models with
//! `thinking: {type: "adaptive"}` and `output_config.effort`. The stream sends each thought as
//! a `thinking` content block (deltas, then a `signature_delta`), or as `redacted_thinking`
//! with opaque `data`; Claude 4 returns a summary of its thinking, not the thinking itself.
//!
//! What goes back: the assistant turn that ends in `tool_use` must carry its thinking and
//! redacted blocks unchanged, in their order, with their signatures — a changed or unsigned
//! block is a 400. Outside tool loops earlier thoughts may be left out; the API drops what
//! the model does not use. Thinking blocks take no `cache_control`.

mod delta_fast_path;
pub mod translate;
mod whole_response;
pub mod wire;

pub use translate::EventMapper;
pub use whole_response::parse_response;
