//! Provider clients: four protocols (plus Ollama's native API) chosen by a `match`, vendors as
//! data in the catalog, a pure translation per protocol, and one typed error.

pub mod anthropic;
pub mod context;
pub mod error;
pub mod gemini;
pub mod http;
pub mod ndjson;
pub mod ollama;
pub mod openai_chat;
pub mod openai_responses;
pub mod request;
pub mod sse;
pub mod stream;
