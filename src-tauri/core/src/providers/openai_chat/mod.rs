//! OpenAI Chat Completions, and every OpenAI-compatible vendor.
//! <https://platform.openai.com/docs/api-reference/chat>
//!
//! OpenAI takes `reasoning_effort` and returns no thoughts here (only a count of reasoning
//! tokens). The compatible vendors differ: DeepSeek, Kimi, Qwen, GLM and vLLM stream thoughts
//! in `reasoning_content` (OpenRouter and some servers in `reasoning`), others inline them as
//! `<think>…</think>` in the text, sometimes with the opening tag left out because the
//! model's template already wrote it. Each vendor's switch (`enable_thinking`,
//! `reasoning_split`, `thinking: {type}`, `chat_template_kwargs`) comes from the dialect.
//!
//! What goes back: `reasoning_content` on an assistant message that made tool calls, where the
//! model needs it to go on (DeepSeek V3.2 and later, Kimi, GLM); never to DeepSeek's original
//! reasoner, which rejects it. Otherwise thoughts stay out unless the conversation asks.

pub mod translate;
mod whole_response;
pub mod wire;

pub use translate::{EventMapper, InlineThoughts};
pub use whole_response::parse_response;
