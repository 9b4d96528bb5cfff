//! Ollama's native chat API (NDJSON streaming).
//! <https://github.com/ollama/ollama/blob/main/docs/api.md>
//!
//! Thinking is switched with `think` (true or false, or a level for gpt-oss); thoughts stream
//! in `message.thinking`, apart from `message.content`. Earlier thoughts are not sent back.

pub mod translate;
pub mod wire;

pub use translate::EventMapper;
