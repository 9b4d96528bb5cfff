//! Ollama's native chat API (NDJSON streaming).
//! <https://github.com/ollama/ollama/blob/main/docs/api.md>

pub mod translate;

pub use translate::EventMapper;
