//! The provider clients against real recordings, the mock provider and the error matrix.

mod case;
mod conformance;
mod copilot;
mod errors;
mod fixtures;
mod golden;
mod requests;
mod streaming;
mod tool_requests;
