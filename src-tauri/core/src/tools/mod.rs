//! The tools a conversation offers the model, and running the calls it makes.
//!
//! The rules:
//! - A tool's name, as the model sees it, is the server's name for it where that is unique
//!   and valid for every provider (`^[a-zA-Z0-9_-]{1,64}$`); otherwise it is made so, and the
//!   name maps back to exactly one server and tool.
//! - A call never fails the turn. An unknown tool, arguments that are not a JSON object or
//!   do not match the tool's schema, a denial, a timeout, a server that fails: each becomes
//!   an error result the model reads, so it can go on another way.
//! - A result too long for a context window is cut, and says so.
//! - Each call of a step has an id of its own: its own approval card and its own result.

mod approval;
mod choice;
mod ids;
mod names;
mod run;

pub use approval::{ApprovalRequest, Approver, Decision, Permissions};
pub use choice::ToolChoice;
pub use ids::make_call_ids_unique;
pub use names::{OfferedTool, Toolbox};
pub use run::{LIMITS, Limits, McpTools, ToolHost};
