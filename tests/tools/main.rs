//! Tools: real MCP servers, and the tool loop against the mock provider.

mod host;
mod loop_replay;
mod servers;
