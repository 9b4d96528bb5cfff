//! The provider clients against real recordings, the mock provider and the error matrix.

mod copilot;
mod errors;
mod fixtures;
mod requests;
mod streaming;
mod tool_requests;
